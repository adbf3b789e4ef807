//! The C API: every `extern "C"` function of the library.
//!
//! This layer only checks pointers, turns them into slices and maps results onto C status codes;
//! the codec underneath is safe Rust. Conventions, for every function:
//! - `(NULL, 0)` is an empty buffer; a NULL buffer with a non-zero length gives
//!   `UTF8_ERR_NULL_POINTER` and nothing is read or written, out-parameters included.
//! - Every out-parameter may be NULL, and is then not written.
//! - Nothing is read outside `[s, s + len)` or written outside `[out, out + cap)`; nothing is
//!   allocated; there is no global mutable state.

use core::ffi::{CStr, c_char, c_int};
use core::ptr;

use crate::decode;
use crate::error::ErrorKind;

/// Result of every libutf8 function that can fail.
///
/// The first ill-formed sequence in the input is classified by its first one or two bytes,
/// checked in this order:
///
/// | input (hex)                                      | status                             |
/// |--------------------------------------------------|------------------------------------|
/// | 80..BF where a character must start              | UTF8_ERR_UNEXPECTED_CONTINUATION   |
/// | C0, C1; E0 then 80..9F; F0 then 80..8F           | UTF8_ERR_OVERLONG                  |
/// | ED then A0..BF (U+D800..U+DFFF)                  | UTF8_ERR_SURROGATE                 |
/// | F4 then 90..BF; F5..F7                           | UTF8_ERR_TOO_LARGE                 |
/// | F8..FF                                           | UTF8_ERR_INVALID_BYTE              |
/// | a lead byte followed, before its sequence is complete, by a byte that is not 80..BF | UTF8_ERR_MISSING_CONTINUATION |
/// | the input ends inside a sequence valid so far    | UTF8_ERR_TRUNCATED                 |
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

/// The scalar value written by utf8_decode_next on error: U+FFFD REPLACEMENT CHARACTER.
const REPLACEMENT: u32 = 0xFFFD;

/// The input buffer `[s, s + len)` as a slice, or `None` for a NULL pointer with `len > 0`.
///
/// # Safety
/// If `s` is not NULL it must point to `len` readable bytes that stay unchanged during the call.
unsafe fn input<'a>(s: *const c_char, len: usize) -> Option<&'a [u8]> {
    if len == 0 {
        Some(&[])
    } else if s.is_null() {
        None
    } else {
        // SAFETY: `s` is non-null and, by the caller's contract, points to `len` readable bytes.
        Some(unsafe { core::slice::from_raw_parts(s.cast::<u8>(), len) })
    }
}

/// Stores `value` through an optional out-parameter.
///
/// # Safety
/// `p` is NULL or valid for a write of one `T`.
unsafe fn put<T>(p: *mut T, value: T) {
    if !p.is_null() {
        // SAFETY: `p` is non-null and, by the caller's contract, valid for writes.
        unsafe { p.write(value) }
    }
}

/// Checks that the `len` bytes at `s` are well-formed UTF-8 (RFC 3629 section 4).
///
/// Returns UTF8_OK, or the status of the first ill-formed sequence. `*valid_up_to` receives
/// the length of the longest well-formed prefix: `len` on success, the offset of the first
/// ill-formed sequence otherwise. `(NULL, 0)` is valid and empty.
///
/// # Safety
/// `s` is NULL or points to `len` readable bytes; `valid_up_to` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn utf8_validate(
    s: *const c_char,
    len: usize,
    valid_up_to: *mut usize,
) -> utf8_status {
    // SAFETY: the caller's contract for `s` and `len` is the one `input` needs.
    let Some(bytes) = (unsafe { input(s, len) }) else {
        return UTF8_ERR_NULL_POINTER;
    };
    let (status, good) = match crate::validate(bytes) {
        Ok(()) => (UTF8_OK, len),
        Err(e) => (e.kind.into(), e.valid_up_to),
    };
    // SAFETY: `valid_up_to` is NULL or writable, by the caller's contract.
    unsafe { put(valid_up_to, good) };
    status
}

/// Decodes the character at the start of the `len` bytes at `s`.
///
/// On UTF8_OK, `*cp` is its scalar value and `*consumed` its length, 1..4. On an ill-formed
/// sequence, `*cp` is U+FFFD and `*consumed` the length of its maximal subpart (Unicode
/// Standard, chapter 3): the longest prefix that could still begin a well-formed sequence, and
/// at least 1. A loop that emits U+FFFD and skips `*consumed` bytes on error replaces exactly
/// as Unicode, WHATWG and Python specify and never swallows the start of the next character.
/// UTF8_ERR_TRUNCATED consumes the rest of the input; `len == 0` gives UTF8_ERR_TRUNCATED with
/// `*consumed == 0`.
///
/// # Safety
/// `s` is NULL or points to `len` readable bytes; `cp` and `consumed` are NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn utf8_decode_next(
    s: *const c_char,
    len: usize,
    cp: *mut u32,
    consumed: *mut usize,
) -> utf8_status {
    // C loops call this once per character: the common cases (ASCII, a well-formed sequence
    // with four bytes of input left) need no call and no saved register.
    // SAFETY: the caller's contract for `s` and `len` is the one `input` needs.
    if let Some(bytes) = unsafe { input(s, len) }
        && let Some((value, n)) = decode::decode_fast(bytes)
    {
        // SAFETY: `cp` and `consumed` are NULL or writable, by the caller's contract.
        unsafe {
            put(cp, value);
            put(consumed, n);
        }
        return UTF8_OK;
    }
    // SAFETY: the caller's contract is passed on unchanged.
    unsafe { decode_next_slow(s, len, cp, consumed) }
}

/// utf8_decode_next for errors, empty input and the last three bytes of the input.
///
/// # Safety
/// As for utf8_decode_next.
#[inline(never)]
unsafe fn decode_next_slow(
    s: *const c_char,
    len: usize,
    cp: *mut u32,
    consumed: *mut usize,
) -> utf8_status {
    // SAFETY: the caller's contract for `s` and `len` is the one `input` needs.
    let Some(bytes) = (unsafe { input(s, len) }) else {
        return UTF8_ERR_NULL_POINTER;
    };
    let (status, value, n) = match crate::decode_next(bytes) {
        Ok((value, n)) => (UTF8_OK, value, n),
        Err(m) => (m.kind.into(), REPLACEMENT, m.len),
    };
    // SAFETY: `cp` and `consumed` are NULL or writable, by the caller's contract.
    unsafe {
        put(cp, value);
        put(consumed, n);
    }
    status
}

/// Encodes the scalar value `cp` as 1..4 bytes at `out`, and sets `*out_len` to their number.
///
/// A surrogate (U+D800..U+DFFF) gives UTF8_ERR_SURROGATE and a value above 0x10FFFF
/// UTF8_ERR_TOO_LARGE, whatever the buffer, with `*out_len` set to 0. If `cap` is too small,
/// nothing is written, the status is UTF8_ERR_BUFFER_TOO_SMALL and `*out_len` is the size
/// needed, so `(NULL, 0)` is a size query. A NULL `out` with `cap > 0` gives
/// UTF8_ERR_NULL_POINTER. The output is not NUL-terminated.
///
/// # Safety
/// `out` is NULL or points to `cap` writable bytes; `out_len` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn utf8_encode(
    cp: u32,
    out: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> utf8_status {
    if out.is_null() && cap > 0 {
        return UTF8_ERR_NULL_POINTER;
    }
    let (status, n) = match crate::encode(cp) {
        Err(kind) => (kind.into(), 0),
        Ok(e) if e.as_bytes().len() > cap => (UTF8_ERR_BUFFER_TOO_SMALL, e.as_bytes().len()),
        Ok(e) => {
            let bytes = e.as_bytes();
            // SAFETY: `out` is non-null (cap >= bytes.len() >= 1) and, by the caller's contract,
            // holds `cap` writable bytes; the source is a local array, so they cannot overlap.
            unsafe { ptr::copy_nonoverlapping(bytes.as_ptr(), out.cast::<u8>(), bytes.len()) };
            (UTF8_OK, bytes.len())
        }
    };
    // SAFETY: `out_len` is NULL or writable, by the caller's contract.
    unsafe { put(out_len, n) };
    status
}

/// The number of characters in the `len` bytes at `s`, where each maximal subpart of an
/// ill-formed sequence counts as one: the number of steps a utf8_decode_next loop takes over
/// the buffer. 0 for `(NULL, any)`.
///
/// # Safety
/// `s` is NULL or points to `len` readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn utf8_count_chars(s: *const c_char, len: usize) -> usize {
    // SAFETY: the caller's contract for `s` and `len` is the one `input` needs.
    match unsafe { input(s, len) } {
        Some(bytes) => crate::count_chars(bytes),
        None => 0,
    }
}

impl utf8_status {
    /// Every status, for mapping a C `int` back onto one.
    const ALL: [utf8_status; 10] = [
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
        }
    }
}

/// A static English description of `status`, never NULL: also for values that are not a
/// utf8_status, which give "unknown status".
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
