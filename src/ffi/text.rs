//! Safe text for Unix tools (since 1.2): streaming validation, escaping, lossy copies and
//! character boundaries.

use core::ffi::c_char;

use super::put;
use super::utf8_status::{self, *};
use crate::stream::{StreamError, StreamState};

/// The state of a streaming validation (utf8_stream_init, utf8_stream_feed,
/// utf8_stream_finish), allocated by the caller: no heap, no cleanup. Its contents are private.
/// A zero-filled struct (`utf8_stream st = {0};`, memset) is a stream at its start, exactly as
/// utf8_stream_init leaves it. Copying the struct copies the stream.
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct utf8_stream {
    /// Private: the position so far, the up to three bytes of a character split across chunks,
    /// and the first error.
    pub opaque: [u64; 2],
}

/// Sets `*st` to a stream at its start (all zero). Does nothing if `st` is NULL.
///
/// # Safety
/// `st` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn utf8_stream_init(st: *mut utf8_stream) {
    // SAFETY: `st` is NULL or writable, by the caller's contract.
    unsafe { put(st, utf8_stream::default()) };
}

/// Runs `step` on the stream state at `st` and reports its result.
///
/// # Safety
/// `st` is NULL or valid for reads and writes; `valid_up_to` is NULL or writable.
unsafe fn stream_step(
    st: *mut utf8_stream,
    valid_up_to: *mut usize,
    step: impl FnOnce(&mut StreamState) -> Result<u64, StreamError>,
) -> utf8_status {
    // SAFETY: `st` is NULL or valid for reads and writes, by the caller's contract.
    let Some(st) = (unsafe { st.as_mut() }) else {
        return UTF8_ERR_NULL_POINTER;
    };
    let Some(mut state) = StreamState::from_words(st.opaque) else {
        return UTF8_ERR_INVALID_ARGUMENT;
    };
    let (status, at) = match step(&mut state) {
        Ok(at) => (UTF8_OK, at),
        Err(e) => (utf8_status::from(e.kind), e.valid_up_to),
    };
    st.opaque = state.to_words();
    // SAFETY: `valid_up_to` is NULL or writable, by the caller's contract.
    unsafe { put(valid_up_to, usize::try_from(at).unwrap_or(usize::MAX)) };
    status
}

/// Validates the next `len` bytes at `chunk` of the stream `*st` (since 1.2).
///
/// Fails as soon as the bytes seen so far cannot begin well-formed UTF-8, with the status and
/// position utf8_validate would report for the whole stream. A character split across chunks
/// is not an error until it is proven one: a chunk that ends in F4 is fine, F4 then a chunk
/// starting with 90 is UTF8_ERR_TOO_LARGE. Every call after an error, utf8_stream_finish
/// included, returns that error and position again; utf8_stream_init starts over.
///
/// `*valid_up_to` is counted from the start of the stream: on UTF8_OK, the end of the last
/// complete character seen; on error, the offset of the ill-formed sequence. A position that
/// does not fit in size_t (a stream above 4 GiB on a 32-bit system) is reported as SIZE_MAX.
///
/// A NULL `st`, or a NULL `chunk` with `len > 0`, gives UTF8_ERR_NULL_POINTER and changes
/// nothing; `(NULL, 0)` is an empty chunk. A `*st` that was neither initialised (or zeroed)
/// nor left by these functions gives UTF8_ERR_INVALID_ARGUMENT.
///
/// # Safety
/// `st` is NULL or valid for reads and writes; `chunk` is NULL or points to `len` readable
/// bytes; `valid_up_to` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn utf8_stream_feed(
    st: *mut utf8_stream,
    chunk: *const c_char,
    len: usize,
    valid_up_to: *mut usize,
) -> utf8_status {
    // SAFETY: the caller's contract for `chunk` and `len` is the one `input` needs.
    let Some(bytes) = (unsafe { super::input(chunk, len) }) else {
        return UTF8_ERR_NULL_POINTER;
    };
    // SAFETY: the caller's contract for `st` and `valid_up_to` is the one `stream_step` needs.
    unsafe { stream_step(st, valid_up_to, |s| s.feed(bytes)) }
}

/// Ends the stream `*st` (since 1.2): UTF8_OK if everything fed is well-formed UTF-8, with
/// `*valid_up_to` its total length; UTF8_ERR_TRUNCATED if it ends inside a character, with
/// `*valid_up_to` the offset of that character; the first error again if there was one. The
/// TRUNCATED error is kept like any other. After UTF8_OK the stream is unchanged.
///
/// A NULL `st` gives UTF8_ERR_NULL_POINTER; a `*st` that was neither initialised (or zeroed)
/// nor left by these functions gives UTF8_ERR_INVALID_ARGUMENT.
///
/// # Safety
/// `st` is NULL or valid for reads and writes; `valid_up_to` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn utf8_stream_finish(
    st: *mut utf8_stream,
    valid_up_to: *mut usize,
) -> utf8_status {
    // SAFETY: the caller's contract for `st` and `valid_up_to` is the one `stream_step` needs.
    unsafe { stream_step(st, valid_up_to, StreamState::finish) }
}
