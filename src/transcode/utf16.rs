//! UTF-8 to UTF-16 and back, with the implementation in use (see [`crate::dispatch`]), and the
//! lengths of the conversions.

use core::mem::MaybeUninit;

use super::units_from_utf8;
use crate::dispatch;
use crate::engine::{Mode, Progress};
use crate::sink::as_uninit;

/// Converts UTF-8 to UTF-16 with the implementation in use (see [`crate::dispatch`]).
pub fn utf8_to_utf16(src: &[u8], dst: &mut [u16], mode: Mode) -> Progress {
    // SAFETY: the converters write units, and store back only units they read from `dst`.
    utf8_to_utf16_uninit(src, unsafe { as_uninit(dst) }, mode)
}

/// [`utf8_to_utf16`] into a buffer that may be uninitialised, such as `Vec::spare_capacity_mut`:
/// its first `written` units are then initialised.
pub fn utf8_to_utf16_uninit(src: &[u8], dst: &mut [MaybeUninit<u16>], mode: Mode) -> Progress {
    dispatch::utf8_to_utf16(src, dst, mode)
}

/// Converts UTF-16 to UTF-8 with the implementation in use (see [`crate::dispatch`]).
pub fn utf16_to_utf8(src: &[u16], dst: &mut [u8], mode: Mode) -> Progress {
    // SAFETY: the converters write units, and store back only units they read from `dst`.
    utf16_to_utf8_uninit(src, unsafe { as_uninit(dst) }, mode)
}

/// [`utf16_to_utf8`] into a buffer that may be uninitialised, such as `Vec::spare_capacity_mut`:
/// its first `written` units are then initialised.
pub fn utf16_to_utf8_uninit(src: &[u16], dst: &mut [MaybeUninit<u8>], mode: Mode) -> Progress {
    dispatch::utf16_to_utf8(src, dst, mode)
}

/// The length in UTF-16 units of the lossy conversion of `s`: one unit per character below
/// U+10000, two per character above, one per maximal subpart of an ill-formed sequence.
///
/// At most `s.len()`: every unit comes from at least one byte of `s`.
pub fn utf16_length_from_utf8(s: &[u8]) -> usize {
    units_from_utf8(s, |lead| 1 + usize::from(lead >= 0xF0))
}

/// The length in bytes of the lossy conversion of `s` into UTF-8: 1, 2 or 3 bytes per unit
/// below U+0080, U+0800 or not a surrogate; 4 per surrogate pair; 3 (U+FFFD) per lone surrogate.
///
/// At most `3 * s.len()`, which does not overflow: `s` is in memory, so its `2 * s.len()` bytes
/// are at most `isize::MAX`.
pub fn utf8_length_from_utf16(s: &[u16]) -> usize {
    // Three bytes per surrogate, less one for each that is half of a pair.
    let bytes: usize = s
        .iter()
        .map(|&u| 1 + usize::from(u >= 0x80) + usize::from(u >= 0x800))
        .sum();
    let pairs = s
        .iter()
        .zip(s.get(1..).unwrap_or_default())
        .filter(|&(&a, &b)| (0xD800..=0xDBFF).contains(&a) && (0xDC00..=0xDFFF).contains(&b))
        .count();
    // Never below zero for input that stays as it is; saturating where another thread changes
    // it between the two passes (a unit read as ASCII by the first and as half of a pair by the
    // second), so that the result stays within its bound, 3 * s.len().
    bytes.saturating_sub(2 * pairs)
}
