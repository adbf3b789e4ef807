//! The C API: every `extern "C"` function of the library, one file per feature.
//!
//! This layer only checks pointers, turns them into slices and maps results onto C status codes;
//! the codec underneath takes slices (see the crate's documentation). Conventions, for every
//! function:
//! - `(NULL, 0)` is an empty buffer; a NULL buffer with a non-zero length gives
//!   `UTF8_ERR_NULL_POINTER` and nothing is read or written, out-parameters included.
//! - Every out-parameter may be NULL, and is then not written.
//! - Nothing is read outside `[s, s + len)` and `[out, out + cap)` or written outside
//!   `[out, out + cap)`. Bytes of `out` after the output a function reports keep their values,
//!   but a converter may read and store them back unchanged while it runs (a SIMD register
//!   store): they are the call's until it returns.
//! - Input that another thread or process changes during the call: the bounds above hold, every
//!   count stays within its buffer and the call returns; which characters come out is not
//!   specified. No result of a first pass over the input bounds a later store: each store is
//!   bounded by the room left, computed from the bytes it converts (`c-tests/input_race.c`).
//! - Nothing is allocated. The only global state is the implementation chosen for the CPU,
//!   stored atomically on first use ([`crate::dispatch`]).
//! - A function that writes a variable amount of output takes `(out, cap, out_len)`: if the
//!   output does not fit, the status is `UTF8_ERR_BUFFER_TOO_SMALL`, `*out_len` is the size
//!   needed, and nothing is promised in `out`; so `(NULL, 0)` is a size query. A NULL `out`
//!   with `cap > 0` gives `UTF8_ERR_NULL_POINTER`. Input and output must not overlap.
//! - A buffer holds at most `isize::MAX` bytes (C's `PTRDIFF_MAX`), as a Rust slice does: the
//!   bound every size below relies on. Only a 32-bit system can map a larger one. A size that
//!   does not fit in `usize` (`3 * len`, from 1.4 GB on a 32-bit system) saturates at
//!   `usize::MAX`.

mod codec;
mod detect;
mod form;
mod text;
mod transcode;

pub use self::codec::{utf8_count_chars, utf8_decode_next, utf8_encode, utf8_validate};
pub use self::detect::{utf8_detect_bom, utf8_detect_encodings, utf8_encoding};
pub use self::form::{
    FormArg, UTF8_FORM_MAX_BYTES, utf8_decode_next_form, utf8_encode_form, utf8_form,
    utf8_validate_form,
};
pub use self::text::{
    EscapeStyleArg, utf8_char_start, utf8_escape, utf8_escape_style, utf8_replace_invalid,
    utf8_replace_invalid_flags, utf8_stream, utf8_stream_feed, utf8_stream_finish,
    utf8_stream_init, utf8_truncate, utf8_unescape,
};
pub use self::transcode::{
    UTF8_FALLBACK_CP1252, UTF8_FALLBACK_LATIN1, UTF8_MORE, UTF8_REPLACE, UTF8_SURROGATEESCAPE,
    UTF8_UTF16BE, UTF8_UTF16LE, UTF8_WTF8, cp1252_to_utf8, latin1_length_from_utf8, latin1_to_utf8,
    utf8_length_from_cp1252, utf8_length_from_latin1, utf8_length_from_utf16,
    utf8_length_from_utf16_flags, utf8_length_from_utf32, utf8_length_from_utf32_flags,
    utf8_result, utf8_to_latin1, utf8_to_utf16, utf8_to_utf32, utf16_length_from_utf8,
    utf16_length_from_utf8_flags, utf16_to_utf8, utf32_length_from_utf8,
    utf32_length_from_utf8_flags, utf32_to_utf8,
};

use core::ffi::{CStr, c_char, c_int};
use core::mem::MaybeUninit;

use crate::scalar::error::REPLACEMENT;
use crate::scalar::error::{ErrorKind, Malformed, Utf8Error};
use crate::sink::Sink;

/// Result of every libutf8 function that can fail.
///
/// The first ill-formed sequence in the input is classified by its first one or two bytes,
/// checked in this order:
///
/// | input (hex)                                         | status                           |
/// |-----------------------------------------------------|----------------------------------|
/// | 80..BF where a character must start                 | UTF8_ERR_UNEXPECTED_CONTINUATION |
/// | C0, C1; E0 then 80..9F; F0 then 80..8F              | UTF8_ERR_OVERLONG                |
/// | ED then A0..BF (U+D800..U+DFFF)                     | UTF8_ERR_SURROGATE               |
/// | F4 then 90..BF; F5..F7                              | UTF8_ERR_TOO_LARGE               |
/// | F8..FF                                              | UTF8_ERR_INVALID_BYTE            |
/// | a lead byte followed too early by a byte not 80..BF | UTF8_ERR_MISSING_CONTINUATION    |
/// | the input ends inside a sequence valid so far       | UTF8_ERR_TRUNCATED               |
///
/// All errors are negative, so `status < 0` tests for failure.
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum utf8_status {
    /// Success.
    UTF8_OK = 0,
    /// The input ends inside a sequence that more input could complete.
    UTF8_ERR_TRUNCATED = -1,
    /// A continuation byte (0x80..0xBF) where a character must start.
    UTF8_ERR_UNEXPECTED_CONTINUATION = -2,
    /// A lead byte followed too early by a byte that cannot continue it.
    UTF8_ERR_MISSING_CONTINUATION = -3,
    /// An overlong form: C0, C1; E0 then 80..9F; F0 then 80..8F.
    UTF8_ERR_OVERLONG = -4,
    /// A surrogate: ED then A0..BF (U+D800..U+DFFF); or encoding a surrogate code point.
    UTF8_ERR_SURROGATE = -5,
    /// Above U+10FFFF: F4 then 90..BF; F5..F7; or encoding a value above 0x10FFFF.
    UTF8_ERR_TOO_LARGE = -6,
    /// F8..FF: never part of UTF-8.
    UTF8_ERR_INVALID_BYTE = -7,
    /// The output buffer is too small; the size needed is reported.
    UTF8_ERR_BUFFER_TOO_SMALL = -8,
    /// A NULL buffer was passed with a non-zero length.
    UTF8_ERR_NULL_POINTER = -9,
    /// An argument outside its documented values: an unknown style, form or flag, or a
    /// utf8_stream holding bytes that neither initialisation nor the stream functions left.
    UTF8_ERR_INVALID_ARGUMENT = -10,
    /// A backslash in the input of utf8_unescape that does not start an escape of a form
    /// utf8_escape writes.
    UTF8_ERR_INVALID_ESCAPE = -11,
    /// A character the target encoding cannot represent: above U+00FF, for utf8_to_latin1
    /// (since 1.3).
    UTF8_ERR_UNREPRESENTABLE = -12,
    /// A replacement strategy flag the function cannot apply (since 1.3): UTF8_SURROGATEESCAPE
    /// into UTF-8, which cannot hold the lone surrogates it writes (utf8_replace_invalid_flags);
    /// UTF8_FALLBACK_LATIN1 or UTF8_FALLBACK_CP1252 into UTF-8, which has no byte to fall back
    /// from (utf16_to_utf8, utf32_to_utf8); any strategy into or from Latin-1 or Windows-1252;
    /// two strategy flags; or one with UTF8_WTF8 in utf8_to_utf16 and utf16_to_utf8 (the
    /// functions that do not take UTF8_WTF8 give UTF8_ERR_INVALID_ARGUMENT for it, as for any
    /// flag they do not take).
    UTF8_ERR_UNSUPPORTED_STRATEGY = -13,
}

use utf8_status::*;

impl From<ErrorKind> for utf8_status {
    fn from(kind: ErrorKind) -> Self {
        match kind {
            ErrorKind::Truncated => UTF8_ERR_TRUNCATED,
            ErrorKind::UnexpectedContinuation => UTF8_ERR_UNEXPECTED_CONTINUATION,
            ErrorKind::MissingContinuation => UTF8_ERR_MISSING_CONTINUATION,
            ErrorKind::Overlong => UTF8_ERR_OVERLONG,
            ErrorKind::Surrogate => UTF8_ERR_SURROGATE,
            ErrorKind::TooLarge => UTF8_ERR_TOO_LARGE,
            ErrorKind::InvalidByte => UTF8_ERR_INVALID_BYTE,
        }
    }
}

/// The longest encoding of one character, in bytes: a buffer this large always suffices for
/// utf8_encode.
pub const UTF8_MAX_BYTES: usize = 4;

/// The input buffer `[s, s + len)` as a slice, or `None` for a NULL pointer with `len > 0`.
///
/// # Safety
/// If `s` is not NULL it must point to `len` readable bytes that stay unchanged during the call.
pub(crate) unsafe fn input<'a>(s: *const c_char, len: usize) -> Option<&'a [u8]> {
    // SAFETY: the caller's contract is the one `units` needs.
    unsafe { units(s.cast::<u8>(), len) }
}

/// The input buffer of `len` code units at `src` as a slice, or `None` for a NULL or
/// misaligned pointer with `len > 0`.
///
/// # Safety
/// If `src` is not NULL it must point to `len` readable units that stay unchanged during the
/// call.
pub(crate) unsafe fn units<'a, T>(src: *const T, len: usize) -> Option<&'a [T]> {
    if len == 0 {
        Some(&[])
    } else if src.is_null() || !src.is_aligned() {
        None
    } else {
        // SAFETY: `src` is non-null and, by the caller's contract, points to `len` readable
        // units.
        Some(unsafe { core::slice::from_raw_parts(src, len) })
    }
}

/// The output buffer `[out, out + cap)` as a slice of units that may be uninitialised (see
/// [`crate::sink`]), or `None` for a NULL pointer with `cap > 0`.
///
/// # Safety
/// If `out` is not NULL it must be aligned for `T` and point to `cap` writable units that
/// nothing else reads or writes during the call (the input included).
pub(crate) unsafe fn output<'a, T>(out: *mut T, cap: usize) -> Option<&'a mut [MaybeUninit<T>]> {
    if cap == 0 {
        Some(&mut [])
    } else if out.is_null() {
        None
    } else {
        // SAFETY: `out` is non-null and, by the caller's contract, aligned and points to `cap`
        // writable units that no other reference reaches during the call; `MaybeUninit<T>`
        // has the layout of `T` and needs no initialised value.
        Some(unsafe { core::slice::from_raw_parts_mut(out.cast::<MaybeUninit<T>>(), cap) })
    }
}

/// The status and `*valid_up_to` that a validation of `len` bytes reports.
pub(crate) fn validated(result: Result<(), Utf8Error>, len: usize) -> (utf8_status, usize) {
    match result {
        Ok(()) => (UTF8_OK, len),
        Err(e) => (e.kind.into(), e.valid_up_to),
    }
}

/// The status, `*cp` and `*consumed` that a decoding step reports: on error, U+FFFD and the
/// length of the maximal subpart.
pub(crate) fn decoded(result: Result<(u32, usize), Malformed>) -> (utf8_status, u32, usize) {
    match result {
        Ok((value, n)) => (UTF8_OK, value, n),
        Err(m) => (m.kind.into(), REPLACEMENT, m.len),
    }
}

/// The status and `*out_len` of output written through `sink`: the size needed if it did not
/// fit.
pub(crate) fn written<T: Copy>(sink: &Sink<'_, T>) -> (utf8_status, usize) {
    let status = if sink.fits() {
        UTF8_OK
    } else {
        UTF8_ERR_BUFFER_TOO_SMALL
    };
    (status, sink.len())
}

/// Writes one encoded value to `buf`, whole or not at all: the status and `*out_len`.
pub(crate) fn write_encoded(buf: &mut [MaybeUninit<u8>], bytes: &[u8]) -> (utf8_status, usize) {
    let mut sink = Sink::new_uninit(buf);
    sink.push(bytes);
    written(&sink)
}

/// Stores `value` through an optional out-parameter.
///
/// # Safety
/// `p` is NULL or valid for a write of one `T`.
pub(crate) unsafe fn put<T>(p: *mut T, value: T) {
    if !p.is_null() {
        // SAFETY: `p` is non-null and, by the caller's contract, valid for writes.
        unsafe { p.write(value) }
    }
}

impl utf8_status {
    /// Every status, for mapping a C `int` back onto one.
    const ALL: [utf8_status; 14] = [
        UTF8_OK,
        UTF8_ERR_TRUNCATED,
        UTF8_ERR_UNEXPECTED_CONTINUATION,
        UTF8_ERR_MISSING_CONTINUATION,
        UTF8_ERR_OVERLONG,
        UTF8_ERR_SURROGATE,
        UTF8_ERR_TOO_LARGE,
        UTF8_ERR_INVALID_BYTE,
        UTF8_ERR_BUFFER_TOO_SMALL,
        UTF8_ERR_NULL_POINTER,
        UTF8_ERR_INVALID_ARGUMENT,
        UTF8_ERR_INVALID_ESCAPE,
        UTF8_ERR_UNREPRESENTABLE,
        UTF8_ERR_UNSUPPORTED_STRATEGY,
    ];

    fn description(self) -> &'static CStr {
        match self {
            UTF8_OK => c"success",
            UTF8_ERR_TRUNCATED => c"input ends inside a character",
            UTF8_ERR_UNEXPECTED_CONTINUATION => c"continuation byte where a character must start",
            UTF8_ERR_MISSING_CONTINUATION => {
                c"character cut short by a byte that cannot continue it"
            }
            UTF8_ERR_OVERLONG => c"overlong encoding",
            UTF8_ERR_SURROGATE => c"surrogate code point (U+D800..U+DFFF)",
            UTF8_ERR_TOO_LARGE => c"code point above U+10FFFF",
            UTF8_ERR_INVALID_BYTE => c"byte that never appears in UTF-8 (F8..FF)",
            UTF8_ERR_BUFFER_TOO_SMALL => c"output buffer too small",
            UTF8_ERR_NULL_POINTER => c"NULL buffer with a non-zero length",
            UTF8_ERR_INVALID_ARGUMENT => c"argument outside its documented values",
            UTF8_ERR_INVALID_ESCAPE => c"backslash that starts no escape utf8_unescape reads",
            UTF8_ERR_UNREPRESENTABLE => c"character the target encoding cannot represent",
            UTF8_ERR_UNSUPPORTED_STRATEGY => c"replacement strategy this function cannot apply",
        }
    }
}

/// A static English description of `status`, never NULL: also for values that are not a
/// utf8_status, which give "unknown status". The descriptions are those of strict UTF-8 (as
/// utf8check prints them); what a status means for a sibling form is in libutf8(3), under
/// utf8_validate_form.
#[unsafe(no_mangle)]
pub extern "C" fn utf8_status_str(status: c_int) -> *const c_char {
    utf8_status::ALL
        .into_iter()
        .find(|s| *s as c_int == status)
        .map_or(c"unknown status", utf8_status::description)
        .as_ptr()
}

/// The library's version as "MAJOR.MINOR.PATCH", a static string; compare with the
/// LIBUTF8_VERSION_* macros to detect a header and library mismatch.
#[unsafe(no_mangle)]
pub extern "C" fn utf8_version() -> *const c_char {
    const VERSION: &CStr =
        match CStr::from_bytes_with_nul(concat!(env!("CARGO_PKG_VERSION"), "\0").as_bytes()) {
            Ok(v) => v,
            Err(_) => panic!("the package version contains a NUL byte"),
        };
    VERSION.as_ptr()
}
