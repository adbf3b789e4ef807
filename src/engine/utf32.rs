//! UTF-8 to UTF-32 and back: the engine's loops for UTF-32, and its decoder and encoder.

use core::mem::MaybeUninit;

use super::more;
use super::{
    Mode, Progress, convert_from_utf8, convert_to_utf8, decode_utf8, encode_blocks, encode_utf8,
};
use crate::scalar::error::{ErrorKind, Malformed};

/// `crate::transcode::utf32::utf8_to_utf32` as one loop, inlined into each implementation, which passes its
/// validator as `valid_prefix` and its converters of well-formed input as `fast` and `tail`
/// (see [`convert_from_utf8`]). [`Mode::more`] is not read here (see
/// [`utf8_to_utf32_held_back`]).
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
    convert_from_utf8(
        src,
        dst,
        mode,
        valid_prefix,
        kernels,
        decode_utf8,
        encode_utf32,
    )
}

/// UTF-8 to UTF-32 with [`Mode::more`]: `convert`, a converter of the implementation in use,
/// on the input without the sequence it ends inside, then [`ErrorKind::Truncated`] there (see
/// [`more::held_back`]).
#[inline(always)]
pub(crate) fn utf8_to_utf32_held_back(
    src: &[u8],
    dst: &mut [MaybeUninit<u32>],
    mode: Mode,
    convert: impl FnOnce(&[u8], &mut [MaybeUninit<u32>], Mode) -> Progress,
) -> Progress {
    let tail = |s: &[u8]| more::utf8_tail(s, &decode_utf8, false);
    more::held_back(src, dst, mode, tail, convert, (&decode_utf8, &encode_utf32))
}

/// `crate::transcode::utf32::utf32_to_utf8` with the scalar implementation's fast path, [`encode_blocks`].
pub(crate) fn utf32_to_utf8_with(src: &[u32], dst: &mut [MaybeUninit<u8>], mode: Mode) -> Progress {
    utf32_to_utf8_using(src, dst, mode, encode_blocks)
}

/// `crate::transcode::utf32::utf32_to_utf8` as one loop, inlined into each implementation, which passes its fast
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
