//! The SSE4.2 kernel: 16-byte registers (SSSE3 shuffles and alignment, SSE4.1 tests).

use core::arch::x86_64::*;

use super::lookup::{self, Blocks, Vector};

#[derive(Clone, Copy)]
pub(super) struct Sse42(__m128i);

// SAFETY: every method uses SSE4.2 (and earlier SSE) instructions only, and the trait's
// contract makes callers guarantee that the CPU has them.
unsafe impl Vector for Sse42 {
    const LANES: usize = 16;

    #[inline(always)]
    unsafe fn splat(b: u8) -> Self {
        // SAFETY (all methods): the caller guarantees SSE4.2.
        Sse42(unsafe { _mm_set1_epi8(b as i8) })
    }

    #[inline(always)]
    unsafe fn load(src: &[u8]) -> Self {
        debug_assert!(src.len() >= Self::LANES);
        // SAFETY: `src` holds at least 16 readable bytes; loadu has no alignment requirement.
        Sse42(unsafe { _mm_loadu_si128(src.as_ptr().cast()) })
    }

    #[inline(always)]
    unsafe fn load_partial(src: &[u8]) -> Self {
        let word = |at| lookup::word_at(src, at) as i64;
        // SAFETY: SSE2 by the caller.
        Sse42(unsafe { _mm_set_epi64x(word(8), word(0)) })
    }

    #[inline(always)]
    unsafe fn lookup(self, table: &[u8; 16]) -> Self {
        // SAFETY: `table` holds 16 readable bytes; SSSE3 by the caller.
        unsafe {
            Sse42(_mm_shuffle_epi8(
                _mm_loadu_si128(table.as_ptr().cast()),
                self.0,
            ))
        }
    }

    #[inline(always)]
    unsafe fn high_nibbles(self) -> Self {
        // SAFETY: SSE2 by the caller.
        unsafe {
            Sse42(_mm_and_si128(
                _mm_srli_epi16::<4>(self.0),
                _mm_set1_epi8(0x0F),
            ))
        }
    }

    #[inline(always)]
    unsafe fn low_nibbles(self) -> Self {
        // SAFETY: SSE2 by the caller.
        unsafe { Sse42(_mm_and_si128(self.0, _mm_set1_epi8(0x0F))) }
    }

    #[inline(always)]
    unsafe fn prev<const N: i32>(self, prev: Self) -> Self {
        // SAFETY: SSSE3 by the caller.
        unsafe {
            Sse42(match N {
                1 => _mm_alignr_epi8::<15>(self.0, prev.0),
                2 => _mm_alignr_epi8::<14>(self.0, prev.0),
                _ => _mm_alignr_epi8::<13>(self.0, prev.0),
            })
        }
    }

    #[inline(always)]
    unsafe fn and(self, other: Self) -> Self {
        // SAFETY: SSE2 by the caller.
        unsafe { Sse42(_mm_and_si128(self.0, other.0)) }
    }

    #[inline(always)]
    unsafe fn or(self, other: Self) -> Self {
        // SAFETY: SSE2 by the caller.
        unsafe { Sse42(_mm_or_si128(self.0, other.0)) }
    }

    #[inline(always)]
    unsafe fn xor(self, other: Self) -> Self {
        // SAFETY: SSE2 by the caller.
        unsafe { Sse42(_mm_xor_si128(self.0, other.0)) }
    }

    #[inline(always)]
    unsafe fn saturating_sub(self, other: Self) -> Self {
        // SAFETY: SSE2 by the caller.
        unsafe { Sse42(_mm_subs_epu8(self.0, other.0)) }
    }

    #[inline(always)]
    unsafe fn any_high_bit(self) -> bool {
        // SAFETY: SSE2 by the caller.
        unsafe { _mm_movemask_epi8(self.0) != 0 }
    }

    #[inline(always)]
    unsafe fn any_nonzero(self) -> bool {
        // SAFETY: SSE4.1 by the caller.
        unsafe { _mm_testz_si128(self.0, self.0) == 0 }
    }

    #[inline(always)]
    unsafe fn count_continuations(self) -> u32 {
        // SAFETY: SSE2 by the caller. As signed bytes, 80..BF are exactly those below -64 (C0).
        unsafe { _mm_movemask_epi8(_mm_cmpgt_epi8(_mm_set1_epi8(-64), self.0)).count_ones() }
    }
}

/// Checks whole blocks of `s` (see [`lookup::valid_blocks`]).
///
/// # Safety
/// The CPU supports SSE4.2 and POPCNT.
#[target_feature(enable = "sse4.2,popcnt")]
pub(super) unsafe fn valid_blocks(s: &[u8]) -> Blocks {
    // SAFETY: the features are enabled here, and present by the caller's contract.
    unsafe { lookup::valid_blocks::<Sse42, false>(s) }
}

/// Checks whole blocks of `s` and counts their characters (see [`lookup::valid_blocks`]).
///
/// # Safety
/// The CPU supports SSE4.2 and POPCNT.
#[target_feature(enable = "sse4.2,popcnt")]
pub(super) unsafe fn count_valid_blocks(s: &[u8]) -> Blocks {
    // SAFETY: the features are enabled here, and present by the caller's contract.
    unsafe { lookup::valid_blocks::<Sse42, true>(s) }
}

// The converters of crate::transcode, compiled for this instruction set: their runs of ASCII are
// widened and narrowed in its registers.
crate::transcode::transcoders!("sse4.2,popcnt", valid_blocks, Sse42);

// Converters from UTF-8 (see `from_utf8`): runs of ASCII are widened 16 bytes at a time.

// SAFETY: SSE4.1 instructions only, within the bounds the trait documents.
unsafe impl super::from_utf8::WidenAscii for Sse42 {
    #[inline(always)]
    unsafe fn widen_to_utf16(src: *const u8, dst: *mut u16) -> bool {
        // SAFETY: 64 bytes at `src` and 64 units at `dst`, SSE4.1, by the caller.
        unsafe {
            let chunks = [0, 16, 32, 48].map(|at| _mm_loadu_si128(src.add(at).cast()));
            let any = _mm_or_si128(
                _mm_or_si128(chunks[0], chunks[1]),
                _mm_or_si128(chunks[2], chunks[3]),
            );
            if _mm_movemask_epi8(any) != 0 {
                return false;
            }
            for (k, chunk) in chunks.into_iter().enumerate() {
                let high = _mm_unpackhi_epi8(chunk, _mm_setzero_si128());
                _mm_storeu_si128(dst.add(16 * k).cast(), _mm_cvtepu8_epi16(chunk));
                _mm_storeu_si128(dst.add(16 * k + 8).cast(), high);
            }
            true
        }
    }

    #[inline(always)]
    unsafe fn widen_to_utf32(src: *const u8, dst: *mut u32) -> bool {
        // SAFETY: 64 bytes at `src` and 64 units at `dst`, SSE4.1, by the caller.
        unsafe {
            let chunks = [0, 16, 32, 48].map(|at| _mm_loadu_si128(src.add(at).cast()));
            let any = _mm_or_si128(
                _mm_or_si128(chunks[0], chunks[1]),
                _mm_or_si128(chunks[2], chunks[3]),
            );
            if _mm_movemask_epi8(any) != 0 {
                return false;
            }
            for k in 0..16 {
                let four = _mm_cvtsi32_si128(src.add(4 * k).cast::<i32>().read_unaligned());
                _mm_storeu_si128(dst.add(4 * k).cast(), _mm_cvtepu8_epi32(four));
            }
            true
        }
    }
}
