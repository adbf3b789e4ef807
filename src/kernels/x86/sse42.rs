//! The SSE4.2 kernel: 16-byte registers (SSSE3 shuffles and alignment, SSE4.1 tests).

use core::arch::x86_64::*;

use super::shared::{StoreRegister, shift_to_end};
use crate::algorithms::lookup::{self, Vector};
use crate::algorithms::to_utf8::StepRegister;

#[derive(Clone, Copy)]
pub(crate) struct Sse42(__m128i);

// SAFETY: SSE2 instructions only.
unsafe impl StoreRegister for Sse42 {
    #[inline(always)]
    unsafe fn store(self, dst: *mut u8) {
        // SAFETY: 16 writable bytes at `dst` and SSE2 by the caller; storeu has no alignment
        // requirement.
        unsafe { _mm_storeu_si128(dst.cast(), self.0) }
    }
}

// SAFETY: every method uses SSE4.2 (and earlier SSE) instructions only, and the trait's
// contract makes callers guarantee that the CPU has them.
unsafe impl Vector for Sse42 {
    const LANES: usize = 16;
    // Three loads instead of three palignr per register (as for AVX2): every input that is not
    // all ASCII gains, ASCII and short strings do not change (measurements in BENCHMARKS.md).
    const PREV_FROM_MEMORY: bool = true;

    #[inline(always)]
    unsafe fn splat(b: u8) -> Self {
        // SAFETY: the caller guarantees SSE4.2.
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
        if src.len() == Self::LANES {
            // SAFETY: `src` holds LANES bytes.
            return unsafe { Self::load(src) };
        }
        let word = |at| lookup::word_at(src, at) as i64;
        // SAFETY: SSE2 by the caller.
        Sse42(unsafe { _mm_set_epi64x(word(8), word(0)) })
    }

    #[inline(always)]
    unsafe fn load_end(src: &[u8], len: usize) -> Self {
        debug_assert!(0 < len && len < Self::LANES && src.len() >= Self::LANES);
        // SAFETY: `src` holds at least 16 readable bytes; SSSE3 by the caller.
        Sse42(unsafe { shift_to_end(_mm_loadu_si128(src.as_ptr().cast()), len) })
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

    #[inline(always)]
    unsafe fn count_four_byte_leads(self) -> u32 {
        // SAFETY: SSE2 by the caller. As signed bytes, F0..FF are the negative ones above -17:
        // the compare's lanes keep their top bit where the byte has its own.
        unsafe {
            let above = _mm_cmpgt_epi8(self.0, _mm_set1_epi8(-17));
            _mm_movemask_epi8(_mm_and_si128(above, self.0)).count_ones()
        }
    }
}

lookup::block_kernels!("sse4.2,popcnt", Sse42);
crate::algorithms::lengths::length_kernels!("sse4.2");

// The converters of crate::transcode, compiled for this instruction set: their runs of ASCII are
// widened and narrowed in its registers.
super::transcoders!("sse4.2,popcnt", validate::<true>, Sse42, Sse42StepRegister);

// ---------------------------------------------------------------------------------------------
// From UTF-8 (see super::from_utf8): runs of ASCII and values widened 16 bytes at a time.

/// The 64 bytes at `src` in four registers, and whether they are all ASCII.
///
/// # Safety
/// 64 bytes are readable at `src`; the CPU has SSE2.
#[inline(always)]
unsafe fn ascii_block(src: *const u8) -> ([__m128i; 4], bool) {
    // SAFETY: by the caller.
    unsafe {
        let chunks = [0, 16, 32, 48].map(|at| _mm_loadu_si128(src.add(at).cast()));
        let any = _mm_or_si128(
            _mm_or_si128(chunks[0], chunks[1]),
            _mm_or_si128(chunks[2], chunks[3]),
        );
        (chunks, _mm_movemask_epi8(any) == 0)
    }
}

// SAFETY: SSE4.1 instructions only, within the bounds the trait documents.
unsafe impl crate::algorithms::from_utf8::WideningRegister for Sse42 {
    #[inline(always)]
    unsafe fn continuations(self) -> Self {
        // SAFETY: SSE2 by the caller. As signed bytes, 80..BF are exactly those below -64 (C0).
        unsafe { Sse42(_mm_cmpgt_epi8(_mm_set1_epi8(-64), self.0)) }
    }

    #[inline(always)]
    unsafe fn high_bits(self) -> u64 {
        // SAFETY: SSE2 by the caller.
        u64::from(unsafe { _mm_movemask_epi8(self.0) } as u32)
    }

    #[inline(always)]
    unsafe fn max(self, other: Self) -> Self {
        // SAFETY: SSE2 by the caller.
        unsafe { Sse42(_mm_max_epu8(self.0, other.0)) }
    }

    #[inline(always)]
    unsafe fn eq(self, other: Self) -> Self {
        // SAFETY: SSE2 by the caller.
        unsafe { Sse42(_mm_cmpeq_epi8(self.0, other.0)) }
    }

    #[inline(always)]
    unsafe fn greater(self, other: Self) -> Self {
        // SAFETY: SSE2 by the caller.
        unsafe { Sse42(_mm_cmpgt_epi8(self.0, other.0)) }
    }

    #[inline(always)]
    unsafe fn values(low: Self, middle: Self, top: Self) -> (Self, Self) {
        // SAFETY: SSSE3 by the caller. Low + 64 * middle, and top (in the high byte) moved
        // down to bit 12.
        unsafe {
            let value = |low_middle, top| {
                _mm_or_si128(
                    _mm_maddubs_epi16(low_middle, _mm_set1_epi16(0x4001)),
                    _mm_slli_epi16::<4>(top),
                )
            };
            let zero = _mm_setzero_si128();
            (
                Sse42(value(
                    _mm_unpacklo_epi8(low.0, middle.0),
                    _mm_unpacklo_epi8(zero, top.0),
                )),
                Sse42(value(
                    _mm_unpackhi_epi8(low.0, middle.0),
                    _mm_unpackhi_epi8(zero, top.0),
                )),
            )
        }
    }

    #[inline(always)]
    unsafe fn chunks(registers: &[Self; 4]) -> [__m128i; 4] {
        registers.map(|r| r.0)
    }

    #[inline(always)]
    unsafe fn group(first: Self, second: Self, g: usize) -> __m128i {
        if g == 0 { first.0 } else { second.0 }
    }

    #[inline(always)]
    unsafe fn bytes_to_utf32(bytes: __m128i, dst: *mut u32) {
        // SAFETY: 16 units at `dst`, SSE4.1, by the caller.
        unsafe {
            _mm_storeu_si128(dst.cast(), _mm_cvtepu8_epi32(bytes));
            let second = _mm_cvtepu8_epi32(_mm_srli_si128::<4>(bytes));
            _mm_storeu_si128(dst.add(4).cast(), second);
            let third = _mm_cvtepu8_epi32(_mm_srli_si128::<8>(bytes));
            _mm_storeu_si128(dst.add(8).cast(), third);
            let fourth = _mm_cvtepu8_epi32(_mm_srli_si128::<12>(bytes));
            _mm_storeu_si128(dst.add(12).cast(), fourth);
        }
    }

    #[inline(always)]
    unsafe fn words_to_utf32(words: __m128i, dst: *mut u32) {
        // SAFETY: 8 units at `dst`, SSE4.1, by the caller.
        unsafe {
            _mm_storeu_si128(dst.cast(), _mm_cvtepu16_epi32(words));
            let high = _mm_unpackhi_epi16(words, _mm_setzero_si128());
            _mm_storeu_si128(dst.add(4).cast(), high);
        }
    }

    #[inline(always)]
    unsafe fn widen_to_utf16<const SWAP: bool>(src: *const u8, dst: *mut u16) -> bool {
        // SAFETY: 64 bytes at `src` and 64 units at `dst`, SSE4.1, by the caller.
        unsafe {
            let (chunks, ascii) = ascii_block(src);
            if !ascii {
                return false;
            }
            let zero = _mm_setzero_si128();
            for (k, chunk) in chunks.into_iter().enumerate() {
                // Swapped, the zero byte first: the unpacks' operands in the other order.
                let (low, high) = if SWAP {
                    (
                        _mm_unpacklo_epi8(zero, chunk),
                        _mm_unpackhi_epi8(zero, chunk),
                    )
                } else {
                    (_mm_cvtepu8_epi16(chunk), _mm_unpackhi_epi8(chunk, zero))
                };
                _mm_storeu_si128(dst.add(16 * k).cast(), low);
                _mm_storeu_si128(dst.add(16 * k + 8).cast(), high);
            }
            true
        }
    }

    #[inline(always)]
    unsafe fn widen_to_utf32(src: *const u8, dst: *mut u32) -> bool {
        // SAFETY: 64 bytes at `src` and 64 units at `dst`, SSE4.1, by the caller.
        unsafe {
            if !ascii_block(src).1 {
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

// ---------------------------------------------------------------------------------------------
// Into UTF-8 (see super::to_utf8): 16 units of UTF-16 in two registers.

#[derive(Clone, Copy)]
pub(crate) struct Sse42StepRegister(__m128i, __m128i);

/// Applies a 128-bit operation to both registers.
macro_rules! both {
    ($op:ident, $a:expr, $b:expr) => {
        Sse42StepRegister($op($a.0, $b.0), $op($a.1, $b.1))
    };
}

// SAFETY: every method uses SSE4.2 (and earlier SSE) instructions only, and the trait's contract
// makes callers guarantee that the CPU has them.
unsafe impl StepRegister for Sse42StepRegister {
    #[inline(always)]
    unsafe fn load(src: *const u16) -> Self {
        // SAFETY: `src` has 16 readable units (32 bytes, the two loads) by the caller; loadu has
        // no alignment requirement. SSE2 by the caller.
        unsafe {
            Sse42StepRegister(
                _mm_loadu_si128(src.cast()),
                _mm_loadu_si128(src.add(8).cast()),
            )
        }
    }
    type Any = __m128i;
    #[inline(always)]
    unsafe fn load_narrow(src: *const u32) -> (Self, __m128i) {
        // SAFETY: `src` has 16 readable units (64 bytes, the four loads) by the caller; loadu has
        // no alignment requirement. SSE4.1 by the caller.
        unsafe {
            let c: [__m128i; 4] = [
                _mm_loadu_si128(src.cast()),
                _mm_loadu_si128(src.add(4).cast()),
                _mm_loadu_si128(src.add(8).cast()),
                _mm_loadu_si128(src.add(12).cast()),
            ];
            let any = _mm_or_si128(_mm_or_si128(c[0], c[1]), _mm_or_si128(c[2], c[3]));
            // packus saturates signed values: from 0x80000000 up they would give 0, so they are
            // clamped first.
            let max = _mm_set1_epi32(0xFFFF);
            let units = Sse42StepRegister(
                _mm_packus_epi32(_mm_min_epu32(c[0], max), _mm_min_epu32(c[1], max)),
                _mm_packus_epi32(_mm_min_epu32(c[2], max), _mm_min_epu32(c[3], max)),
            );
            (units, any)
        }
    }
    #[inline(always)]
    unsafe fn any_none(any: __m128i, mask: u32) -> bool {
        // SAFETY: SSE4.1 by the caller.
        unsafe { _mm_testz_si128(any, _mm_set1_epi32(mask as i32)) != 0 }
    }
    #[inline(always)]
    unsafe fn load_wide(src: *const u32) -> [__m128i; 4] {
        // SAFETY: `src` has 16 readable units (64 bytes, the four loads) by the caller; loadu has
        // no alignment requirement. SSE2 by the caller.
        unsafe {
            [
                _mm_loadu_si128(src.cast()),
                _mm_loadu_si128(src.add(4).cast()),
                _mm_loadu_si128(src.add(8).cast()),
                _mm_loadu_si128(src.add(12).cast()),
            ]
        }
    }
    #[inline(always)]
    unsafe fn load_ascii(src: *const u32) -> ([__m128i; 2], bool) {
        // SAFETY: `src` has 32 readable units by the caller: the 16 that `load_narrow` reads from
        // `src` and the 16 from `src + 16`. SSE4.1 by the caller.
        unsafe {
            // Units above 0xFFFF saturate to 0xFFFF, which is not ASCII.
            let (a, _) = Self::load_narrow(src);
            let (b, _) = Self::load_narrow(src.add(16));
            let ascii = a.or(b).none(Self::splat(0xFF80));
            ([a.narrow(), b.narrow()], ascii)
        }
    }
    #[inline(always)]
    unsafe fn store_wide(units: [__m128i; 4], dst: *mut u32) {
        // SAFETY: `dst` has room for 16 units (64 bytes) by the caller; SSE2. Each store
        // matches one of load_narrow's and load_wide's loads.
        unsafe {
            for (q, unit) in units.into_iter().enumerate() {
                _mm_storeu_si128(dst.add(4 * q).cast(), unit);
            }
        }
    }
    #[inline(always)]
    unsafe fn halves(self) -> [__m128i; 2] {
        [self.0, self.1]
    }
    #[inline(always)]
    unsafe fn from_halves(halves: [__m128i; 2]) -> Self {
        Sse42StepRegister(halves[0], halves[1])
    }
    #[inline(always)]
    unsafe fn splat(v: u16) -> Self {
        // SAFETY: SSE2 by the caller.
        let r = unsafe { _mm_set1_epi16(v as i16) };
        Sse42StepRegister(r, r)
    }
    #[inline(always)]
    unsafe fn and(self, other: Self) -> Self {
        // SAFETY: SSE2 by the caller.
        unsafe { both!(_mm_and_si128, self, other) }
    }
    #[inline(always)]
    unsafe fn or(self, other: Self) -> Self {
        // SAFETY: SSE2 by the caller.
        unsafe { both!(_mm_or_si128, self, other) }
    }
    #[inline(always)]
    unsafe fn add(self, other: Self) -> Self {
        // SAFETY: SSE2 by the caller.
        unsafe { both!(_mm_add_epi16, self, other) }
    }
    #[inline(always)]
    unsafe fn eq(self, other: Self) -> Self {
        // SAFETY: SSE2 by the caller.
        unsafe { both!(_mm_cmpeq_epi16, self, other) }
    }
    #[inline(always)]
    unsafe fn blend(self, other: Self, mask: Self) -> Self {
        // SAFETY: SSE4.1 by the caller.
        unsafe {
            Sse42StepRegister(
                _mm_blendv_epi8(self.0, other.0, mask.0),
                _mm_blendv_epi8(self.1, other.1, mask.1),
            )
        }
    }
    #[inline(always)]
    unsafe fn shr<const N: i32>(self) -> Self {
        // SAFETY: SSE2 by the caller.
        unsafe { Sse42StepRegister(_mm_srli_epi16::<N>(self.0), _mm_srli_epi16::<N>(self.1)) }
    }
    #[inline(always)]
    unsafe fn shl<const N: i32>(self) -> Self {
        // SAFETY: SSE2 by the caller.
        unsafe { Sse42StepRegister(_mm_slli_epi16::<N>(self.0), _mm_slli_epi16::<N>(self.1)) }
    }
    #[inline(always)]
    unsafe fn none(self, mask: Self) -> bool {
        // SAFETY: SSE4.1 by the caller.
        unsafe {
            _mm_testz_si128(
                _mm_or_si128(_mm_and_si128(self.0, mask.0), _mm_and_si128(self.1, mask.1)),
                _mm_set1_epi8(-1),
            ) != 0
        }
    }
    #[inline(always)]
    unsafe fn all_ones(self) -> bool {
        // SAFETY: SSE4.1 by the caller.
        unsafe { _mm_test_all_ones(_mm_and_si128(self.0, self.1)) != 0 }
    }
    #[inline(always)]
    unsafe fn prev_units(self) -> Self {
        // SAFETY: SSSE3 by the caller.
        unsafe {
            Sse42StepRegister(
                _mm_slli_si128::<2>(self.0),
                _mm_alignr_epi8::<14>(self.1, self.0),
            )
        }
    }
    #[inline(always)]
    unsafe fn byte_bits(self) -> u32 {
        // SAFETY: SSE2 by the caller.
        unsafe { _mm_movemask_epi8(self.0) as u32 | (_mm_movemask_epi8(self.1) as u32) << 16 }
    }
    #[inline(always)]
    unsafe fn lane_bits(self) -> u32 {
        // SAFETY: SSE2 by the caller.
        unsafe { _mm_movemask_epi8(_mm_packs_epi16(self.0, self.1)) as u32 }
    }
    #[inline(always)]
    unsafe fn narrow(self) -> __m128i {
        // SAFETY: SSE2 by the caller.
        unsafe { _mm_packus_epi16(self.0, self.1) }
    }
    #[inline(always)]
    unsafe fn low_byte_twice(self) -> Self {
        // SAFETY: SSSE3 by the caller.
        unsafe {
            let low = _mm_setr_epi8(0, 0, 2, 2, 4, 4, 6, 6, 8, 8, 10, 10, 12, 12, 14, 14);
            Sse42StepRegister(_mm_shuffle_epi8(self.0, low), _mm_shuffle_epi8(self.1, low))
        }
    }
    #[inline(always)]
    unsafe fn store_narrow(self, next: Self, dst: *mut u8) {
        // SAFETY: `dst` has room for 32 bytes by the caller.
        unsafe {
            _mm_storeu_si128(dst.cast(), self.narrow());
            _mm_storeu_si128(dst.add(16).cast(), next.narrow());
        }
    }

    #[inline(always)]
    unsafe fn swap_bytes(self) -> Self {
        // SAFETY: SSSE3 by the caller.
        unsafe {
            let swap = _mm_set_epi8(14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1);
            Sse42StepRegister(
                _mm_shuffle_epi8(self.0, swap),
                _mm_shuffle_epi8(self.1, swap),
            )
        }
    }
}
