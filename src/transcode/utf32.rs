//! UTF-8 to UTF-32 and back, with the implementation in use (see [`crate::dispatch`]), and the
//! lengths of the conversions.

use core::mem::MaybeUninit;

use crate::dispatch;
use crate::engine::{Mode, Progress, Replacement};
use crate::sink::as_uninit;

/// Converts UTF-8 to UTF-32 with the implementation in use (see [`crate::dispatch`]).
pub fn utf8_to_utf32(src: &[u8], dst: &mut [u32], mode: Mode) -> Progress {
    // SAFETY: the converters write units, and store back only units they read from `dst`.
    utf8_to_utf32_uninit(src, unsafe { as_uninit(dst) }, mode)
}

/// [`utf8_to_utf32`] into a buffer that may be uninitialised, such as `Vec::spare_capacity_mut`:
/// its first `written` units are then initialised.
pub fn utf8_to_utf32_uninit(src: &[u8], dst: &mut [MaybeUninit<u32>], mode: Mode) -> Progress {
    dispatch::utf8_to_utf32(src, dst, mode)
}

/// Converts UTF-32 to UTF-8 with the implementation in use (see [`crate::dispatch`]).
pub fn utf32_to_utf8(src: &[u32], dst: &mut [u8], mode: Mode) -> Progress {
    // SAFETY: the converters write units, and store back only units they read from `dst`.
    utf32_to_utf8_uninit(src, unsafe { as_uninit(dst) }, mode)
}

/// [`utf32_to_utf8`] into a buffer that may be uninitialised, such as `Vec::spare_capacity_mut`:
/// its first `written` units are then initialised.
pub fn utf32_to_utf8_uninit(src: &[u32], dst: &mut [MaybeUninit<u8>], mode: Mode) -> Progress {
    dispatch::utf32_to_utf8(src, dst, mode)
}

/// The length in UTF-32 units of the lossy conversion of `s`: one per character, one per
/// maximal subpart of an ill-formed sequence, as [`crate::count_chars`] counts them.
///
/// At most `s.len()`.
pub fn utf32_length_from_utf8(s: &[u8]) -> usize {
    crate::count::count_chars(s)
}

/// The length in UTF-32 units of the lossy conversion of `s` under `replacement` (since 1.3): as
/// [`utf32_length_from_utf8`] for [`Replacement::Fffd`]; under the others, one unit per byte of
/// each ill-formed sequence.
///
/// At most `s.len()`.
pub fn utf32_length_from_utf8_with(s: &[u8], replacement: Replacement) -> usize {
    match replacement {
        Replacement::Fffd => utf32_length_from_utf8(s),
        _ => dispatch::utf32_length_from_utf8(s, replacement),
    }
}

/// The length in bytes of the lossy conversion of `s` into UTF-8: 1 to 4 bytes per scalar value,
/// 3 (U+FFFD) per surrogate or value above 0x10FFFF.
///
/// At most `4 * s.len()`, which does not overflow: `s` is in memory, so its `4 * s.len()`
/// bytes are at most `isize::MAX`.
pub fn utf8_length_from_utf32(s: &[u32]) -> usize {
    dispatch::utf8_length_from_utf32(s, Replacement::Fffd)
}

/// The length in bytes of the lossy conversion of `s` into UTF-8 under `replacement` (since
/// 1.3): as [`utf8_length_from_utf32`], but with [`Replacement::Escape`], 1 byte instead of 3
/// for each U+DC80..U+DCFF. The fallbacks change nothing into UTF-8.
///
/// At most `4 * s.len()`.
pub fn utf8_length_from_utf32_with(s: &[u32], replacement: Replacement) -> usize {
    dispatch::utf8_length_from_utf32(s, replacement)
}
