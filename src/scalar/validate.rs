//! The scalar validator: the reference that every SIMD kernel must agree with, and what
//! locates and classifies an error a kernel found.

use super::decode::decode_next;
use super::error::{Malformed, Utf8Error};
use crate::chunks::as_chunks;

/// The scalar validator: the reference that every SIMD kernel must agree with.
pub fn scalar(s: &[u8]) -> Result<(), Utf8Error> {
    scalar_prefix(s).into_result()
}

/// The longest well-formed prefix of some input: its length, its number of characters, and
/// the ill-formed sequence after it, if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Prefix {
    pub len: usize,
    pub chars: usize,
    pub error: Option<Malformed>,
}

impl Prefix {
    fn into_result(self) -> Result<(), Utf8Error> {
        match self.error {
            None => Ok(()),
            Some(m) => Err(Utf8Error {
                valid_up_to: self.len,
                kind: m.kind,
                error_len: m.len,
            }),
        }
    }
}

/// The longest well-formed prefix of `s`, found by the scalar code. Callers that do not use
/// `chars` pay nothing for it: this is inlined, and the optimiser drops the count.
#[inline(always)]
pub(crate) fn scalar_prefix(s: &[u8]) -> Prefix {
    let (mut i, mut chars) = (0, 0);
    // Slices taken with `get`, which has no path to a panic whatever the compiler proves.
    while let Some(rest) = s.get(i..).filter(|r| !r.is_empty()) {
        if rest.first().is_some_and(|&b| b < 0x80) {
            let n = ascii_prefix_len(rest);
            // None only where another thread changed the byte since the test above: it is
            // then decoded below, so that the loop always advances.
            if n > 0 {
                i += n;
                chars += n;
                continue;
            }
        }
        // The decoded value is unused here, and the optimiser drops its computation.
        match decode_next(rest) {
            Ok((_, width)) => {
                i += width;
                chars += 1;
            }
            Err(m) => {
                return Prefix {
                    len: i,
                    chars,
                    error: Some(m),
                };
            }
        }
    }
    Prefix {
        len: i,
        chars,
        error: None,
    }
}

/// [`scalar`] on `s[start..]`, with the error's position counted from the start of `s`.
pub(crate) fn scalar_from(s: &[u8], start: usize) -> Result<(), Utf8Error> {
    // Clamped, so that the compiler sees the bounds hold and links no panic path.
    let start = start.min(s.len());
    scalar(&s[start..]).map_err(|e| Utf8Error {
        valid_up_to: start + e.valid_up_to,
        ..e
    })
}

/// Where scalar validation can resume when `s[..end]` is known to be well-formed except
/// perhaps for one sequence cut off at `end`: the start of that sequence, or `end`.
///
/// Any byte that is not a continuation starts a character, and a character is at most four
/// bytes long, so the start is among the last three bytes before `end` if it is not `end`.
pub(crate) fn char_start_at_or_before(s: &[u8], end: usize) -> usize {
    last_non_continuation(s, end, 3).unwrap_or(end.min(s.len()))
}

/// Length of the run of ASCII bytes at the start of `s`, found 16 bytes at a time.
#[inline]
fn ascii_prefix_len(s: &[u8]) -> usize {
    const HIGH_BITS: u128 = u128::from_ne_bytes([0x80; 16]);
    let (blocks, _) = as_chunks::<16, _>(s);
    let mut n = 0;
    for block in blocks {
        // Little-endian so that the lowest set bit belongs to the first non-ASCII byte.
        let high = u128::from_le_bytes(*block) & HIGH_BITS;
        if high != 0 {
            return n + high.trailing_zeros() as usize / 8;
        }
        n += 16;
    }
    n + s
        .get(n..)
        .unwrap_or_default()
        .iter()
        .take_while(|b| b.is_ascii())
        .count()
}

/// The offset of the last byte of `s[..end]` that is not a continuation byte, among the last
/// `window` bytes before `end` (clamped to the buffer).
pub(crate) fn last_non_continuation(s: &[u8], end: usize, window: usize) -> Option<usize> {
    // Clamped, so that the compiler sees the bounds hold and links no panic path.
    let end = end.min(s.len());
    let from = end.saturating_sub(window);
    s[from..end]
        .iter()
        .rposition(|&b| b & 0xC0 != 0x80)
        .map(|i| from + i)
}
