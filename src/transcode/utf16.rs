//! UTF-8 to UTF-16 and back, with the implementation in use (see [`crate::dispatch`]), and the
//! lengths of the conversions; UTF-16 in the machine's byte order, or, through the `_swapped`
//! functions, in the other one (UTF-16BE on a little-endian machine).

use core::mem::MaybeUninit;

use crate::dispatch;
use crate::engine::{Mode, Progress, Replacement, U16Swapped};
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
    utf16_length_from_utf8_with(s, Replacement::Fffd)
}

/// The length in UTF-16 units of the lossy conversion of `s` under `replacement` (since 1.3): as
/// [`utf16_length_from_utf8`] for [`Replacement::Fffd`]; under the others, one unit per byte of
/// each ill-formed sequence.
///
/// At most `s.len()`.
pub fn utf16_length_from_utf8_with(s: &[u8], replacement: Replacement) -> usize {
    dispatch::utf16_length_from_utf8(s, replacement)
}

/// The length in bytes of the lossy conversion of `s` into UTF-8: 1, 2 or 3 bytes per unit
/// below U+0080, U+0800 or not a surrogate; 4 per surrogate pair; 3 (U+FFFD) per lone surrogate.
///
/// At most `3 * s.len()`, which does not overflow: `s` is in memory, so its `2 * s.len()` bytes
/// are at most `isize::MAX`.
pub fn utf8_length_from_utf16(s: &[u16]) -> usize {
    dispatch::utf8_length_from_utf16(s, Replacement::Fffd)
}

/// The length in bytes of the lossy conversion of `s` into UTF-8 under `replacement` (since
/// 1.3): as [`utf8_length_from_utf16`], but with [`Replacement::Escape`], 1 byte instead of 3
/// for each lone surrogate U+DC80..U+DCFF (one not after a high surrogate). The fallbacks
/// change nothing into UTF-8.
///
/// At most `3 * s.len()`.
pub fn utf8_length_from_utf16_with(s: &[u16], replacement: Replacement) -> usize {
    dispatch::utf8_length_from_utf16(s, replacement)
}

/// [`utf8_length_from_utf16_with`] of UTF-16 in the other byte order than the machine's.
pub fn utf8_length_from_utf16_swapped_with(s: &[u16], replacement: Replacement) -> usize {
    dispatch::utf8_length_from_utf16_swapped(s, replacement)
}

/// [`utf8_to_utf16`] writing the other byte order than the machine's (UTF-16BE on a
/// little-endian machine).
pub fn utf8_to_utf16_swapped(src: &[u8], dst: &mut [u16], mode: Mode) -> Progress {
    // SAFETY: the converters write units, and store back only units they read from `dst`.
    utf8_to_utf16_swapped_uninit(src, unsafe { as_uninit(dst) }, mode)
}

/// [`utf16_to_utf8`] reading the other byte order than the machine's.
pub fn utf16_swapped_to_utf8(src: &[u16], dst: &mut [u8], mode: Mode) -> Progress {
    // SAFETY: the converters write units, and store back only units they read from `dst`.
    utf16_swapped_to_utf8_uninit(src, unsafe { as_uninit(dst) }, mode)
}

/// [`utf8_to_utf16_uninit`] writing the other byte order than the machine's (UTF-16BE on a
/// little-endian machine): the same conversion, whose kernels swap the bytes of each unit in
/// their registers before storing it.
pub fn utf8_to_utf16_swapped_uninit(
    src: &[u8],
    dst: &mut [MaybeUninit<u16>],
    mode: Mode,
) -> Progress {
    dispatch::utf8_to_utf16_swapped(src, U16Swapped::units_mut(dst), mode)
}

/// [`utf16_to_utf8_uninit`] reading the other byte order than the machine's: the same
/// conversion, whose kernels swap the bytes of each unit in their registers after loading it.
pub fn utf16_swapped_to_utf8_uninit(
    src: &[u16],
    dst: &mut [MaybeUninit<u8>],
    mode: Mode,
) -> Progress {
    dispatch::utf16_swapped_to_utf8(U16Swapped::units(src), dst, mode)
}
