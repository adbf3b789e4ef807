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
/// (see [`convert_from_utf8`]); into units `T` of either byte order.
///
/// In WTF-8 mode the UTF-8 is decoded by [`form::decode_next`], which reads a surrogate's
/// 3-byte sequence as the surrogate; [`encode_utf16`] writes it as one unit. Well-formed UTF-8
/// is WTF-8 without surrogates, and is converted alike in both modes. A lead surrogate followed
/// by ED or ED B0..BF that end the input is [`ErrorKind::Truncated`] from the lead surrogate
/// (the next bytes may make the two a pair, which WTF-8 refuses), but with [`Mode::replace`] the
/// lead surrogate is converted and the rest replaced, as at the end of any input. With
/// [`Mode::more`], the conversion stops before the end that more input could change (see
/// [`more::keep`]).
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
        let decode = |s: &[u8]| match form::decode_next(s, Form::Wtf8) {
            // A lead surrogate, then the start of a trail one that the input ends in: to be
            // carried over whole (from the lead surrogate) by a strict conversion, but where
            // the input ends the stream, which a lossy one assumes, the lead surrogate is
            // unpaired, and what follows it a truncated sequence of its own.
            Err(m) if mode.replace && m.kind == ErrorKind::Truncated && m.len > 3 => {
                lead_surrogate_alone(s)
            }
            decoded => decoded,
        };
        let keep = more::keep(src, mode, |s| more::utf8_tail(s, &decode, true));
        let s = src.get(..keep).unwrap_or(src);
        let at = convert_from_utf8(s, dst, mode, valid_prefix, kernels, decode, encode_utf16);
        more::finish(src, dst, mode, (at, keep), (&decode, &encode_utf16))
    } else {
        let decode = decode_utf8;
        let keep = more::keep(src, mode, |s| more::utf8_tail(s, &decode, false));
        let s = src.get(..keep).unwrap_or(src);
        let at = convert_from_utf8(s, dst, mode, valid_prefix, kernels, decode, encode_utf16);
        more::finish(src, dst, mode, (at, keep), (&decode, &encode_utf16))
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
///
/// In WTF-8 mode a lone surrogate (one [`decode_utf16`] refuses, a high surrogate that ends
/// the input included) is a code point of its own, written by [`form::encode`]. The fast path
/// never converts one (nor anything else that differs between the modes). With [`Mode::more`],
/// a high surrogate that ends the input is left for the next (see [`more::keep`]).
#[inline(always)]
pub(crate) fn utf16_to_utf8_using<S: Utf16Unit>(
    src: &[S],
    dst: &mut [MaybeUninit<u8>],
    mode: Mode,
    fast: impl Fn(&[S], &mut [MaybeUninit<u8>]) -> (usize, usize),
) -> Progress {
    if mode.wtf8 {
        let decode = |s: &[S]| match (decode_utf16(s), s.first()) {
            (Err(_), Some(&unit)) => Ok((unit.value(), 1)),
            (decoded, _) => decoded,
        };
        let encode = |value, out: &mut [MaybeUninit<u8>]| {
            if (0xD800..=0xDFFF).contains(&value) {
                let bytes = form::encode(value, Form::Wtf8).ok()?;
                let bytes = bytes.as_bytes();
                write_units(out.get_mut(..bytes.len())?, bytes);
                Some(bytes.len())
            } else {
                encode_utf8(value, out)
            }
        };
        let keep = more::keep(src, mode, more::utf16_tail);
        let s = src.get(..keep).unwrap_or(src);
        let at = convert_to_utf8(s, dst, mode, fast, decode, encode);
        more::finish(src, dst, mode, (at, keep), (&decode, &encode))
    } else {
        let keep = more::keep(src, mode, more::utf16_tail);
        let s = src.get(..keep).unwrap_or(src);
        let at = convert_to_utf8(s, dst, mode, fast, decode_utf16, encode_utf8);
        more::finish(src, dst, mode, (at, keep), (&decode_utf16, &encode_utf8))
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
