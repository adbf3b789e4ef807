//! Decoding one character: the RFC 3629 grammar, which validation shares.

use crate::error::{ErrorKind, Malformed};

/// Decodes the character at the start of `s`: its scalar value and its length in bytes (1..4).
///
/// On ill-formed input the error gives the length of the maximal subpart, so that a loop that
/// emits U+FFFD and skips that many bytes replaces exactly as the Unicode Standard, WHATWG and
/// Python do. Empty input is [`ErrorKind::Truncated`] with length 0.
#[inline(always)]
pub fn decode_next(s: &[u8]) -> Result<(u32, usize), Malformed> {
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

    // The lead byte carries 7 - width value bits.
    let mut scalar = u32::from(lead) & (0x7F >> width);
    for k in 1..width {
        let Some(&byte) = s.get(k) else {
            return malformed(Truncated, s.len());
        };
        let (lo, hi) = if k == 1 {
            (second_lo, second_hi)
        } else {
            (0x80, 0xBF)
        };
        if !(lo..=hi).contains(&byte) {
            let is_continuation = byte & 0xC0 == 0x80;
            let kind = if k == 1 && is_continuation {
                second_out_of_range
            } else {
                MissingContinuation
            };
            // The k bytes before this one could still have begun a well-formed sequence.
            return malformed(kind, k);
        }
        scalar = (scalar << 6) | u32::from(byte & 0x3F);
    }
    Ok((scalar, width))
}
