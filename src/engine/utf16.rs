//! UTF-8 to UTF-16 and back: the engine's loops for UTF-16, and its decoder and encoder.

use core::mem::MaybeUninit;

use super::more;
use super::{
    Mode, Progress, Utf16Unit, convert_from_utf8, convert_to_utf8, decode_utf8, encode_blocks,
    encode_utf8,
};
use crate::scalar::error::{ErrorKind, Malformed};
use crate::scalar::form::{self, Form};
use crate::sink::write_units;

/// `crate::transcode::utf16::utf8_to_utf16` as one loop, inlined into each implementation, which passes its
/// validator as `valid_prefix` and its converters of well-formed input as `fast` and `tail`
/// (see [`convert_from_utf8`]); into units `T` of either byte order. [`Mode::more`] is not
/// read here (see [`utf8_to_utf16_held_back`]).
///
/// In WTF-8 mode the UTF-8 is decoded by [`decode_wtf8`]: a surrogate's 3-byte sequence is the
/// surrogate, which [`encode_utf16`] writes as one unit. Well-formed UTF-8 is WTF-8 without
/// surrogates, and is converted alike in both modes.
#[inline(always)]
pub(crate) fn utf8_to_utf16_with<T: Utf16Unit>(
    src: &[u8],
    dst: &mut [MaybeUninit<T>],
    mode: Mode,
    valid_prefix: impl Fn(&[u8]) -> usize,
    fast: impl Fn(&[u8], usize, &mut [MaybeUninit<T>]) -> (usize, usize),
    tail: impl Fn(&[u8], &mut [MaybeUninit<T>]) -> (usize, usize),
) -> Progress {
    let kernels = (fast, tail);
    if mode.wtf8 {
        let decode = |s: &[u8]| decode_wtf8(s, mode);
        convert_from_utf8(src, dst, mode, valid_prefix, kernels, decode, encode_utf16)
    } else {
        convert_from_utf8(
            src,
            dst,
            mode,
            valid_prefix,
            kernels,
            decode_utf8,
            encode_utf16,
        )
    }
}

/// UTF-8 to UTF-16 with [`Mode::more`]: `convert`, a converter of the implementation in use,
/// on the input without the sequence it ends inside (with [`Mode::wtf8`], also without a lead
/// surrogate's 3 bytes before such a sequence or at the end), then [`ErrorKind::Truncated`]
/// there (see [`more::held_back`]).
#[inline(always)]
pub(crate) fn utf8_to_utf16_held_back<T: Utf16Unit>(
    src: &[u8],
    dst: &mut [MaybeUninit<T>],
    mode: Mode,
    convert: impl FnOnce(&[u8], &mut [MaybeUninit<T>], Mode) -> Progress,
) -> Progress {
    if mode.wtf8 {
        let decode = |s: &[u8]| decode_wtf8(s, mode);
        let tail = |s: &[u8]| more::utf8_tail(s, &decode, true);
        more::held_back(src, dst, mode, tail, convert, (&decode, &encode_utf16))
    } else {
        let tail = |s: &[u8]| more::utf8_tail(s, &decode_utf8, false);
        more::held_back(src, dst, mode, tail, convert, (&decode_utf8, &encode_utf16))
    }
}

/// The character of WTF-8 at the start of `s`, as [`form::decode_next`] reads it, but for a
/// lead surrogate followed by the start of a trail one that the input ends in. That is
/// [`ErrorKind::Truncated`] from the lead surrogate, to be carried over whole by a strict
/// conversion (the next bytes may make the two a pair, which WTF-8 refuses); but where the
/// input ends the stream, which a lossy conversion ([`Mode::replace`]) assumes, the lead
/// surrogate is unpaired, and what follows it a truncated sequence of its own.
#[inline(always)]
fn decode_wtf8(s: &[u8], mode: Mode) -> Result<(u32, usize), Malformed> {
    match form::decode_next(s, Form::Wtf8) {
        Err(m) if mode.replace && m.kind == ErrorKind::Truncated && m.len > 3 => {
            lead_surrogate_alone(s)
        }
        decoded => decoded,
    }
}

/// The lead surrogate at the start of `s`, decoded alone: where the input ends the stream, a
/// lossy conversion takes it as unpaired. Out of line, for an error at the end of the input:
/// inlined into every converter, its second decoder made their frames larger.
#[cold]
#[inline(never)]
fn lead_surrogate_alone(s: &[u8]) -> Result<(u32, usize), Malformed> {
    form::decode_next(s.get(..3).unwrap_or_default(), Form::Wtf8)
}

/// `crate::transcode::utf16::utf16_to_utf8` with the scalar implementation's fast path, [`encode_blocks`].
pub(crate) fn utf16_to_utf8_with<S: Utf16Unit>(
    src: &[S],
    dst: &mut [MaybeUninit<u8>],
    mode: Mode,
) -> Progress {
    utf16_to_utf8_using(src, dst, mode, encode_blocks)
}

/// `crate::transcode::utf16::utf16_to_utf8` as one loop, inlined into each implementation, which passes its fast
/// path as `fast` (see [`convert_to_utf8`]); from units `S` of either byte order.
/// [`Mode::more`] is not read here (see [`utf16_to_utf8_held_back`]).
///
/// In WTF-8 mode a lone surrogate (one [`decode_utf16`] refuses, a high surrogate that ends
/// the input included) is a code point of its own ([`decode_utf16_wtf8`]), written by
/// [`encode_wtf8`]. The fast path never converts one (nor anything else that differs between
/// the modes).
#[inline(always)]
pub(crate) fn utf16_to_utf8_using<S: Utf16Unit>(
    src: &[S],
    dst: &mut [MaybeUninit<u8>],
    mode: Mode,
    fast: impl Fn(&[S], &mut [MaybeUninit<u8>]) -> (usize, usize),
) -> Progress {
    if mode.wtf8 {
        convert_to_utf8(src, dst, mode, fast, decode_utf16_wtf8, encode_wtf8)
    } else {
        convert_to_utf8(src, dst, mode, fast, decode_utf16, encode_utf8)
    }
}

/// UTF-16 to UTF-8 with [`Mode::more`]: `convert`, a converter of the implementation in use,
/// on the input without a high surrogate that ends it, which the next unit may pair, then
/// [`ErrorKind::Truncated`] there (see [`more::held_back`]).
#[inline(always)]
pub(crate) fn utf16_to_utf8_held_back<S: Utf16Unit>(
    src: &[S],
    dst: &mut [MaybeUninit<u8>],
    mode: Mode,
    convert: impl FnOnce(&[S], &mut [MaybeUninit<u8>], Mode) -> Progress,
) -> Progress {
    let tail = more::utf16_tail;
    if mode.wtf8 {
        let codec = (&decode_utf16_wtf8, &encode_wtf8);
        more::held_back(src, dst, mode, tail, convert, codec)
    } else {
        more::held_back(src, dst, mode, tail, convert, (&decode_utf16, &encode_utf8))
    }
}

/// The character of UTF-16 at the start of `s` as WTF-8 reads it: as [`decode_utf16`], but a
/// lone surrogate is a code point of its own.
#[inline(always)]
fn decode_utf16_wtf8<S: Utf16Unit>(s: &[S]) -> Result<(u32, usize), Malformed> {
    match (decode_utf16(s), s.first()) {
        (Err(_), Some(&unit)) => Ok((unit.value(), 1)),
        (decoded, _) => decoded,
    }
}

/// Writes `value` as WTF-8 at the start of `out`: a surrogate as its 3-byte sequence
/// ([`form::encode`]), anything else as [`encode_utf8`] does.
#[inline(always)]
fn encode_wtf8(value: u32, out: &mut [MaybeUninit<u8>]) -> Option<usize> {
    if (0xD800..=0xDFFF).contains(&value) {
        let bytes = form::encode(value, Form::Wtf8).ok()?;
        let bytes = bytes.as_bytes();
        write_units(out.get_mut(..bytes.len())?, bytes);
        Some(bytes.len())
    } else {
        encode_utf8(value, out)
    }
}

/// Decodes the character at the start of `s`: a unit that is not a surrogate, or a high
/// surrogate (D800..DBFF) followed by a low one (DC00..DFFF), with its length, 1 or 2 (The
/// Unicode Standard, section 3.9, D91).
///
/// Any other surrogate is [`ErrorKind::Surrogate`], one unit long, except a high surrogate that
/// ends the input, which the next unit could complete: [`ErrorKind::Truncated`], so that a
/// caller converting a stream can carry it over.
#[inline(always)]
pub(crate) fn decode_utf16<S: Utf16Unit>(s: &[S]) -> Result<(u32, usize), Malformed> {
    let malformed = |kind| Err(Malformed { kind, len: 1 });
    let Some(&unit) = s.first() else {
        return Err(Malformed {
            kind: ErrorKind::Truncated,
            len: 0,
        });
    };
    let high = unit.value();
    match high {
        0xD800..=0xDBFF => match s.get(1).map(|u| u.value()) {
            Some(low @ 0xDC00..=0xDFFF) => {
                Ok((0x1_0000 + ((high - 0xD800) << 10) + (low - 0xDC00), 2))
            }
            Some(_) => malformed(ErrorKind::Surrogate),
            None => malformed(ErrorKind::Truncated),
        },
        0xDC00..=0xDFFF => malformed(ErrorKind::Surrogate),
        _ => Ok((high, 1)),
    }
}

/// Writes the UTF-16 encoding of `value` (a scalar value) at the start of `out`, in `T`'s byte
/// order: its length, or `None` if it does not fit.
#[inline(always)]
fn encode_utf16<T: Utf16Unit>(value: u32, out: &mut [MaybeUninit<T>]) -> Option<usize> {
    if value < 0x1_0000 {
        out.first_mut()?.write(T::from_value(value));
        Some(1)
    } else {
        let v = value - 0x1_0000;
        *out.first_chunk_mut::<2>()? = [
            MaybeUninit::new(T::from_value(0xD800 | (v >> 10))),
            MaybeUninit::new(T::from_value(0xDC00 | (v & 0x3FF))),
        ];
        Some(2)
    }
}
