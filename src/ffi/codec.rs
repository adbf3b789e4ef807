//! The core codec's C functions: validation, decoding, encoding, counting.

use core::ffi::c_char;

use super::utf8_status::{self, *};
use super::{decoded, input, output, put, validated, write_encoded};
use crate::scalar::decode;

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
    let (status, good) = validated(crate::validate(bytes), len);
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
    if let Some(bytes) = unsafe { input(s, len) } {
        if let Some((value, n)) = decode::decode_fast(bytes) {
            // SAFETY: `cp` and `consumed` are NULL or writable, by the caller's contract.
            unsafe {
                put(cp, value);
                put(consumed, n);
            }
            return UTF8_OK;
        }
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
    let (status, value, n) = decoded(crate::decode_next(bytes));
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
/// UTF8_ERR_TOO_LARGE, however small the buffer, with `*out_len` set to 0. If `cap` is too
/// small, nothing is written, the status is UTF8_ERR_BUFFER_TOO_SMALL and `*out_len` is the
/// size needed, so `(NULL, 0)` is a size query. A NULL `out` with `cap > 0` gives
/// UTF8_ERR_NULL_POINTER (checked first, whatever `cp`) and leaves `*out_len` untouched. The
/// output is not NUL-terminated.
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
    // SAFETY: `out` is NULL or points to `cap` writable bytes, by the caller's contract.
    let Some(buf) = (unsafe { output(out.cast::<u8>(), cap) }) else {
        return UTF8_ERR_NULL_POINTER;
    };
    let (status, n) = match crate::encode(cp) {
        Err(kind) => (kind.into(), 0),
        Ok(e) => write_encoded(buf, e.as_bytes()),
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
