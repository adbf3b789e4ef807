//! UTF-8 to UTF-32 and back.

use core::mem::MaybeUninit;

use super::more;
use super::{
    Mode, Progress, convert_from_utf8, convert_to_utf8, decode_utf8, encode_blocks, encode_utf8,
};
use crate::error::{ErrorKind, Malformed};
use crate::sink::as_uninit;

/// Converts UTF-8 to UTF-32 with the implementation in use (see [`crate::simd`]).
pub fn utf8_to_utf32(src: &[u8], dst: &mut [u32], mode: Mode) -> Progress {
    // SAFETY: the converters write units, and store back only units they read from `dst`.
    utf8_to_utf32_uninit(src, unsafe { as_uninit(dst) }, mode)
}

/// [`utf8_to_utf32`] into a buffer that may be uninitialised, such as `Vec::spare_capacity_mut`:
/// its first `written` units are then initialised.
pub fn utf8_to_utf32_uninit(src: &[u8], dst: &mut [MaybeUninit<u32>], mode: Mode) -> Progress {
    crate::simd::utf8_to_utf32(src, dst, mode)
}

/// Converts UTF-32 to UTF-8 with the implementation in use (see [`crate::simd`]).
pub fn utf32_to_utf8(src: &[u32], dst: &mut [u8], mode: Mode) -> Progress {
    // SAFETY: the converters write units, and store back only units they read from `dst`.
    utf32_to_utf8_uninit(src, unsafe { as_uninit(dst) }, mode)
}

/// [`utf32_to_utf8`] into a buffer that may be uninitialised, such as `Vec::spare_capacity_mut`:
/// its first `written` units are then initialised.
pub fn utf32_to_utf8_uninit(src: &[u32], dst: &mut [MaybeUninit<u8>], mode: Mode) -> Progress {
    crate::simd::utf32_to_utf8(src, dst, mode)
}

/// [`utf8_to_utf32`] as one loop, inlined into each implementation, which passes its
/// validator as `valid_prefix` and its converters of well-formed input as `fast` and `tail`
/// (see [`convert_from_utf8`]).
#[inline(always)]
pub(crate) fn utf8_to_utf32_with(
    src: &[u8],
    dst: &mut [MaybeUninit<u32>],
    mode: Mode,
    valid_prefix: impl Fn(&[u8]) -> usize,
    fast: impl Fn(&[u8], usize, &mut [MaybeUninit<u32>]) -> (usize, usize),
    tail: impl Fn(&[u8], &mut [MaybeUninit<u32>]) -> (usize, usize),
) -> Progress {
    let kernels = (fast, tail);
    let keep = more::keep(src, mode, |s| more::utf8_tail(s, &decode_utf8, false));
    let s = src.get(..keep).unwrap_or(src);
    let at = convert_from_utf8(
        s,
        dst,
        mode,
        valid_prefix,
        kernels,
        decode_utf8,
        encode_utf32,
    );
    more::finish(src, dst, mode, (at, keep), (&decode_utf8, &encode_utf32))
}

/// [`utf32_to_utf8`] with the scalar implementation's fast path, [`encode_blocks`].
pub(crate) fn utf32_to_utf8_with(src: &[u32], dst: &mut [MaybeUninit<u8>], mode: Mode) -> Progress {
    utf32_to_utf8_using(src, dst, mode, encode_blocks)
}

/// [`utf32_to_utf8`] as one loop, inlined into each implementation, which passes its fast
/// path as `fast` (see [`convert_to_utf8`]).
#[inline(always)]
pub(crate) fn utf32_to_utf8_using(
    src: &[u32],
    dst: &mut [MaybeUninit<u8>],
    mode: Mode,
    fast: impl Fn(&[u32], &mut [MaybeUninit<u8>]) -> (usize, usize),
) -> Progress {
    convert_to_utf8(src, dst, mode, fast, decode_utf32, encode_utf8)
}

/// The scalar value in the first unit of `s`: a surrogate is [`ErrorKind::Surrogate`] and a
/// value above 0x10FFFF [`ErrorKind::TooLarge`], as for [`crate::encode`].
#[inline(always)]
fn decode_utf32(s: &[u32]) -> Result<(u32, usize), Malformed> {
    let malformed = |kind, len| Err(Malformed { kind, len });
    match s.first() {
        None => malformed(ErrorKind::Truncated, 0),
        Some(0xD800..=0xDFFF) => malformed(ErrorKind::Surrogate, 1),
        Some(&v) if v > 0x10_FFFF => malformed(ErrorKind::TooLarge, 1),
        Some(&v) => Ok((v, 1)),
    }
}

/// Writes `value` as the first unit of `out`: 1, or `None` if `out` is empty.
#[inline(always)]
fn encode_utf32(value: u32, out: &mut [MaybeUninit<u32>]) -> Option<usize> {
    out.first_mut()?.write(value);
    Some(1)
}

/// The length in UTF-32 units of the lossy conversion of `s`: one per character, one per
/// maximal subpart of an ill-formed sequence, as [`crate::count_chars`] counts them.
///
/// At most `s.len()`.
pub fn utf32_length_from_utf8(s: &[u8]) -> usize {
    crate::count_chars(s)
}

/// The length in bytes of the lossy conversion of `s` into UTF-8: 1 to 4 bytes per scalar value,
/// 3 (U+FFFD) per surrogate or value above 0x10FFFF.
///
/// At most `4 * s.len()`, which does not overflow: `s` is in memory, so its `4 * s.len()`
/// bytes are at most `isize::MAX`.
pub fn utf8_length_from_utf32(s: &[u32]) -> usize {
    s.iter()
        .map(|&v| {
            1 + usize::from(v >= 0x80)
                + usize::from(v >= 0x800)
                + usize::from((0x1_0000..=0x10_FFFF).contains(&v))
        })
        .sum()
}
