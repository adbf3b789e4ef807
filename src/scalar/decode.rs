//! Decoding one character: the RFC 3629 grammar, which validation shares.

use super::error::{ErrorKind, Malformed};

/// Decodes the character at the start of `s`: its scalar value and its length in bytes (1..4).
///
/// On ill-formed input the error gives the length of the maximal subpart, so that a loop that
/// emits U+FFFD and skips that many bytes replaces exactly as the Unicode Standard, WHATWG and
/// Python do. Empty input is [`ErrorKind::Truncated`] with length 0.
#[inline(always)]
pub fn decode_next(s: &[u8]) -> Result<(u32, usize), Malformed> {
    match decode_fast(s) {
        Some(decoded) => Ok(decoded),
        None => decode_by_grammar(s),
    }
}

/// The common cases of [`decode_next`], in few instructions and registers: an ASCII byte, or
/// a well-formed sequence with at least four bytes of input left. `None` for anything else.
#[inline(always)]
pub(crate) fn decode_fast(s: &[u8]) -> Option<(u32, usize)> {
    let &lead = s.first()?;
    if lead < 0x80 {
        return Some((u32::from(lead), 1));
    }
    decode_well_formed(u32::from_le_bytes(*s.first_chunk::<4>()?))
}

/// The multi-byte sequence at the start of `word` (four bytes, the first in the low byte), if
/// it is well-formed; `None` for anything else, which [`decode_by_grammar`] then classifies.
///
/// Checks the continuation bits of all the sequence's bytes with one mask, assembles the
/// value, then range-checks it: for sequences of the right shape, "at least U+0800 and not a
/// surrogate" and "U+10000..U+10FFFF" are exactly the second-byte ranges of RFC 3629 section 4.
/// The header's inline utf8_decode_next (cbindgen.toml) makes the equivalent test in C.
#[inline(always)]
pub(crate) fn decode_well_formed(word: u32) -> Option<(u32, usize)> {
    match word as u8 {
        0xC2..=0xDF => {
            (word & 0xC000 == 0x8000).then_some((((word & 0x1F) << 6) | ((word >> 8) & 0x3F), 2))
        }
        0xE0..=0xEF => {
            let value = ((word & 0x0F) << 12) | ((word >> 2) & 0x0FC0) | ((word >> 16) & 0x3F);
            let shaped = word & 0x00C0_C000 == 0x0080_8000;
            (shaped && value >= 0x800 && !(0xD800..=0xDFFF).contains(&value)).then_some((value, 3))
        }
        0xF0..=0xF4 => {
            let value = ((word & 0x07) << 18)
                | ((word << 4) & 0x3_F000)
                | ((word >> 10) & 0x0FC0)
                | ((word >> 24) & 0x3F);
            let shaped = word & 0xC0C0_C000 == 0x8080_8000;
            (shaped && (0x1_0000..=0x10_FFFF).contains(&value)).then_some((value, 4))
        }
        _ => None,
    }
}

/// [`decode_next`] as the grammar of RFC 3629 section 4 spells it: exact on every input, and
/// the only place that classifies errors.
#[inline(always)]
pub(crate) fn decode_by_grammar(s: &[u8]) -> Result<(u32, usize), Malformed> {
    use ErrorKind::*;
    let malformed = |kind, len| Err(Malformed { kind, len });

    let Some(&lead) = s.first() else {
        return malformed(Truncated, 0);
    };
    // RFC 3629 section 4: the lead byte fixes the width of the sequence and the range its second
    // byte must fall in. A continuation byte outside that range has the kind given here.
    let (width, second_lo, second_hi, second_out_of_range) = match lead {
        0x00..=0x7F => return Ok((u32::from(lead), 1)),
        0x80..=0xBF => return malformed(UnexpectedContinuation, 1),
        0xC0 | 0xC1 => return malformed(Overlong, 1),
        0xC2..=0xDF => (2, 0x80, 0xBF, MissingContinuation),
        0xE0 => (3, 0xA0, 0xBF, Overlong),
        0xE1..=0xEC | 0xEE | 0xEF => (3, 0x80, 0xBF, MissingContinuation),
        0xED => (3, 0x80, 0x9F, Surrogate),
        0xF0 => (4, 0x90, 0xBF, Overlong),
        0xF1..=0xF3 => (4, 0x80, 0xBF, MissingContinuation),
        0xF4 => (4, 0x80, 0x8F, TooLarge),
        0xF5..=0xF7 => return malformed(TooLarge, 1),
        0xF8..=0xFF => return malformed(InvalidByte, 1),
    };

    // The second byte: out of range is this lead's own error if it is a continuation byte.
    let Some(&second) = s.get(1) else {
        return malformed(Truncated, s.len());
    };
    if !(second_lo..=second_hi).contains(&second) {
        let is_continuation = second & 0xC0 == 0x80;
        let kind = if is_continuation {
            second_out_of_range
        } else {
            MissingContinuation
        };
        return malformed(kind, 1);
    }
    // The lead byte carries 7 - width value bits, each continuation byte six.
    let mut scalar = (u32::from(lead) & (0x7F >> width)) << 6 | u32::from(second & 0x3F);
    // The third and fourth bytes, where the width has them, are any continuation byte; the k
    // bytes before a missing one could still have begun a well-formed sequence.
    let continuation = |k: usize| match s.get(k) {
        None => Err(Malformed {
            kind: Truncated,
            len: s.len(),
        }),
        Some(&b) if b & 0xC0 == 0x80 => Ok(u32::from(b & 0x3F)),
        Some(_) => Err(Malformed {
            kind: MissingContinuation,
            len: k,
        }),
    };
    if width >= 3 {
        scalar = scalar << 6 | continuation(2)?;
    }
    if width == 4 {
        scalar = scalar << 6 | continuation(3)?;
    }
    Ok((scalar, width))
}
