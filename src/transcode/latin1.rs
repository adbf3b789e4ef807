//! Latin-1 (ISO-8859-1) and Windows-1252 to UTF-8, UTF-8 to Latin-1 (since 1.3), and the
//! lengths of the conversions.
//!
//! Latin-1 is each byte as the code point of its value, U+0000..U+00FF; Windows-1252 is
//! WHATWG's index-windows-1252 ([`crate::scalar::latin1::CP1252_C1`]). Every byte string is
//! both, so the conversions from them stop only where the output is full; the conversion into
//! Latin-1 stops at a character above U+00FF ([`Stop::Unrepresentable`]) or at ill-formed
//! UTF-8, or with [`Mode::replace`] writes `?` for each, as Python's
//! `b.decode('utf-8', 'replace').encode('latin-1', 'replace')` does.
//!
//! [`Stop::Unrepresentable`]: crate::engine::Stop::Unrepresentable

use core::mem::MaybeUninit;

use crate::engine::{Mode, Progress};
use crate::scalar::latin1::cp1252_utf8_len;
use crate::sink::as_uninit;

/// Converts Latin-1 to UTF-8 with the implementation in use (see [`crate::dispatch`]).
/// [`Mode`] changes nothing: every byte is a character.
pub fn latin1_to_utf8(src: &[u8], dst: &mut [u8], mode: Mode) -> Progress {
    // SAFETY: the converter writes bytes, and reads none from `dst`.
    latin1_to_utf8_uninit(src, unsafe { as_uninit(dst) }, mode)
}

/// [`latin1_to_utf8`] into a buffer that may be uninitialised: its first `written` bytes are
/// then initialised.
pub fn latin1_to_utf8_uninit(src: &[u8], dst: &mut [MaybeUninit<u8>], _mode: Mode) -> Progress {
    crate::dispatch::latin1_to_utf8(src, dst)
}

/// Converts Windows-1252 to UTF-8 with the implementation in use (see [`crate::dispatch`]).
/// [`Mode`] changes nothing: every byte is a character.
pub fn cp1252_to_utf8(src: &[u8], dst: &mut [u8], mode: Mode) -> Progress {
    // SAFETY: the converter writes bytes, and reads none from `dst`.
    cp1252_to_utf8_uninit(src, unsafe { as_uninit(dst) }, mode)
}

/// [`cp1252_to_utf8`] into a buffer that may be uninitialised: its first `written` bytes are
/// then initialised.
pub fn cp1252_to_utf8_uninit(src: &[u8], dst: &mut [MaybeUninit<u8>], _mode: Mode) -> Progress {
    crate::dispatch::cp1252_to_utf8(src, dst)
}

/// Converts UTF-8 to Latin-1 with the implementation in use (see [`crate::dispatch`]): see the
/// module's documentation.
pub fn utf8_to_latin1(src: &[u8], dst: &mut [u8], mode: Mode) -> Progress {
    // SAFETY: the converter writes bytes, and reads none from `dst`.
    utf8_to_latin1_uninit(src, unsafe { as_uninit(dst) }, mode)
}

/// [`utf8_to_latin1`] into a buffer that may be uninitialised: its first `written` bytes are
/// then initialised.
pub fn utf8_to_latin1_uninit(src: &[u8], dst: &mut [MaybeUninit<u8>], mode: Mode) -> Progress {
    crate::dispatch::utf8_to_latin1(src, dst, mode)
}

/// The length in bytes of the UTF-8 of `s` read as Latin-1: one byte per byte below 0x80, two
/// per other byte. At most `2 * s.len()`, which does not overflow: `s` is in memory.
pub fn utf8_length_from_latin1(s: &[u8]) -> usize {
    // Counted in an expression with no early exit, so that it vectorises.
    s.len() + s.iter().filter(|&&b| b >= 0x80).count()
}

/// The length in bytes of the UTF-8 of `s` read as Windows-1252: 1, 2 or 3 bytes per byte
/// ([`cp1252_utf8_len`]). At most `3 * s.len()`, saturated at `usize::MAX`: that of a slice
/// of more than `usize::MAX / 3` bytes, which a 32-bit system holds, does not fit.
pub fn utf8_length_from_cp1252(s: &[u8]) -> usize {
    let extra = s
        .iter()
        .map(|&b| cp1252_utf8_len(b) - 1)
        .fold(0usize, usize::saturating_add);
    s.len().saturating_add(extra)
}

/// The length in bytes of the Latin-1 that [`utf8_to_latin1`] writes for `s` with
/// [`Mode::replace`]: one byte per character and per maximal subpart of an ill-formed
/// sequence, as [`crate::count_chars`] counts them; so also the size of the strict output of
/// well-formed input that has no character above U+00FF. At most `s.len()`.
pub fn latin1_length_from_utf8(s: &[u8]) -> usize {
    crate::count::count_chars(s)
}
