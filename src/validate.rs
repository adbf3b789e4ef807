//! Validation of a whole buffer.

use crate::boundary::last_non_continuation;
use crate::chunks::as_chunks;
use crate::decode::decode_next;
use crate::error::{Malformed, Utf8Error};
use crate::simd;

/// Checks that all of `s` is well-formed UTF-8 (RFC 3629 section 4).
///
/// On failure the error locates and classifies the first ill-formed sequence. Runs on the
/// best SIMD kernel the CPU supports (see [`simd`]); a short ASCII string needs none.
#[inline]
pub fn validate(s: &[u8]) -> Result<(), Utf8Error> {
    simd::validate(s)
}

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

/// Whether `s` is all ASCII, for short inputs (it reads all of `s`): the OR of its 64-byte
/// blocks and of its last 64 bytes, or of its first and last 32 or 16 bytes, in 16-byte
/// vectors. Reads that overlap need no loop for the bytes after the last block.
///
/// core's `[u8]::is_ascii` checks the bytes after its last 64-byte block 8 at a time, then one
/// at a time: 255 ASCII bytes took 23 ns and 256 bytes 4 ns (Rust 1.95, `utf8_validate`).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn is_short_ascii(s: &[u8]) -> bool {
    use core::arch::x86_64::{__m128i, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128};
    /// The OR of the bytes of `N / 16` vectors.
    #[inline(always)]
    fn or_of<const N: usize>(bytes: &[u8; N]) -> __m128i {
        let (vectors, _) = as_chunks::<16, _>(bytes);
        // SAFETY: SSE2 is part of the x86_64 baseline, and each load reads one array of 16.
        let load = |v: &[u8; 16]| unsafe { _mm_loadu_si128(v.as_ptr().cast()) };
        vectors
            .iter()
            .map(load)
            .reduce(or)
            .unwrap_or(load(&[0; 16]))
    }
    fn or(a: __m128i, b: __m128i) -> __m128i {
        // SAFETY: SSE2 is part of the x86_64 baseline.
        unsafe { _mm_or_si128(a, b) }
    }
    let all = if let (Some(last), Some((_, init))) = (s.last_chunk::<64>(), s.split_last()) {
        // The blocks of all bytes but the last reach the last 64 bytes, and end before them
        // if the length is a multiple of 64.
        let (blocks, _) = as_chunks::<64, _>(init);
        blocks
            .iter()
            .fold(or_of(last), |all, block| or(all, or_of(block)))
    } else if let (Some(first), Some(last)) = (s.first_chunk::<32>(), s.last_chunk::<32>()) {
        or(or_of(first), or_of(last))
    } else if let (Some(first), Some(last)) = (s.first_chunk::<16>(), s.last_chunk::<16>()) {
        or(or_of(first), or_of(last))
    } else {
        return is_ascii_below_16(s);
    };
    // SAFETY: SSE2 is part of the x86_64 baseline.
    unsafe { _mm_movemask_epi8(all) == 0 }
}

/// Whether `s` is all ASCII, for short inputs (it reads all of `s`).
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
pub(crate) fn is_short_ascii(s: &[u8]) -> bool {
    const HIGH_BITS: u64 = u64::from_ne_bytes([0x80; 8]);
    let word = |bytes: &[u8; 8]| u64::from_ne_bytes(*bytes);
    let Some(last) = s.last_chunk::<8>() else {
        return is_ascii_below_16(s);
    };
    let (words, _) = as_chunks::<8, _>(s);
    words.iter().fold(word(last), |all, w| all | word(w)) & HIGH_BITS == 0
}

/// Whether `s`, shorter than 16 bytes, is all ASCII: two words that overlap.
#[inline(always)]
fn is_ascii_below_16(s: &[u8]) -> bool {
    if let (Some(first), Some(last)) = (s.first_chunk::<8>(), s.last_chunk::<8>()) {
        (u64::from_ne_bytes(*first) | u64::from_ne_bytes(*last)) & 0x8080_8080_8080_8080 == 0
    } else if let (Some(first), Some(last)) = (s.first_chunk::<4>(), s.last_chunk::<4>()) {
        (u32::from_ne_bytes(*first) | u32::from_ne_bytes(*last)) & 0x8080_8080 == 0
    } else {
        s.iter().all(u8::is_ascii)
    }
}
