//! Short ASCII strings recognised without a kernel: the test that lets validation, counting and
//! conversion skip the kernels' setup for them.

use crate::chunks::as_chunks;

/// Strings of ASCII up to this length are validated, counted and converted without a call to a
/// kernel.
pub(crate) const SHORT_ASCII: usize = 4 * super::lookup::BLOCK;

/// Whether `s` is all ASCII, for short inputs (it reads all of `s`): the OR of its 64-byte
/// blocks and of its last 64 bytes, or of its first and last 32 or 16 bytes, in 16-byte
/// vectors, or of two words up to 16 bytes. Reads that overlap need no loop for the bytes
/// after the last block.
///
/// core's `[u8]::is_ascii` checks the bytes after its last 64-byte block 8 at a time, then one
/// at a time, which made lengths just below a multiple of 64 several times as slow as the
/// multiple (see BENCHMARKS.md).
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
    // Each way takes lengths up to a multiple of 16 included (17 to 32, 33 to 64): strings
    // of a size and a few bytes shorter, as a size limit gives them, take the same way, and
    // the branch between the ways is not mispredicted for them (it was, by a length of 64
    // among lengths of 61 to 63; see BENCHMARKS.md).
    let all = if s.len() <= 16 {
        return is_ascii_up_to_16(s);
    } else if s.len() <= 32 {
        match (s.first_chunk::<16>(), s.last_chunk::<16>()) {
            (Some(first), Some(last)) => or(or_of(first), or_of(last)),
            _ => return false,
        }
    } else if s.len() <= 64 {
        match (s.first_chunk::<32>(), s.last_chunk::<32>()) {
            (Some(first), Some(last)) => or(or_of(first), or_of(last)),
            _ => return false,
        }
    } else if let (Some(last), Some((_, init))) = (s.last_chunk::<64>(), s.split_last()) {
        // The blocks of all bytes but the last reach the last 64 bytes, and end before them
        // if the length is a multiple of 64.
        let (blocks, _) = as_chunks::<64, _>(init);
        blocks
            .iter()
            .fold(or_of(last), |all, block| or(all, or_of(block)))
    } else {
        return false;
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
        return is_ascii_up_to_16(s);
    };
    let (words, _) = as_chunks::<8, _>(s);
    words.iter().fold(word(last), |all, w| all | word(w)) & HIGH_BITS == 0
}

/// Whether `s`, of at most 16 bytes, is all ASCII: two words that overlap.
#[inline(always)]
fn is_ascii_up_to_16(s: &[u8]) -> bool {
    if let (Some(first), Some(last)) = (s.first_chunk::<8>(), s.last_chunk::<8>()) {
        (u64::from_ne_bytes(*first) | u64::from_ne_bytes(*last)) & 0x8080_8080_8080_8080 == 0
    } else if let (Some(first), Some(last)) = (s.first_chunk::<4>(), s.last_chunk::<4>()) {
        (u32::from_ne_bytes(*first) | u32::from_ne_bytes(*last)) & 0x8080_8080 == 0
    } else {
        s.iter().all(u8::is_ascii)
    }
}
