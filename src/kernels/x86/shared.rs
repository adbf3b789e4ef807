//! What the x86_64 kernels share: AVX2's 32-byte registers, with the operations the algorithms
//! need (the AVX2 kernels' and, for conversion, AVX-512's), and SSE4.2's and AVX2's
//! [`shift_to_end`] and converter from Latin-1 ([`latin1_blocks`]).

use core::arch::x86_64::*;
use core::mem::MaybeUninit;

use crate::algorithms::latin1::LATIN1_SHUFFLES;
use crate::algorithms::lookup::{self, Vector};
use crate::algorithms::to_utf8::StepRegister;

/// `v` with its first `len` lanes (0 to 16) moved to its end, zeros before them.
///
/// # Safety
/// The CPU has SSSE3.
#[inline(always)]
pub(crate) unsafe fn shift_to_end(v: __m128i, len: usize) -> __m128i {
    // SAFETY: the table holds 32 bytes, 16 readable from `len`; SSSE3 by the caller.
    unsafe {
        let indices = _mm_loadu_si128(lookup::SHIFT_TO_END[len..].as_ptr().cast());
        _mm_shuffle_epi8(v, indices)
    }
}

#[derive(Clone, Copy)]
pub(crate) struct Avx2(__m256i);

// SAFETY: every method uses AVX2 instructions only, and the trait's contract makes callers
// guarantee that the CPU has them.
unsafe impl Vector for Avx2 {
    const LANES: usize = 32;
    // Three loads instead of four shuffles (vperm2i128 and three vpalignr) per register: loads
    // have ports of their own. Text that is not all ASCII gains; ASCII and short strings do not
    // change (measurements in BENCHMARKS.md).
    const PREV_FROM_MEMORY: bool = true;

    #[inline(always)]
    unsafe fn splat(b: u8) -> Self {
        // SAFETY: the caller guarantees AVX2.
        Avx2(unsafe { _mm256_set1_epi8(b as i8) })
    }

    #[inline(always)]
    unsafe fn load(src: &[u8]) -> Self {
        debug_assert!(src.len() >= Self::LANES);
        // SAFETY: `src` holds at least 32 readable bytes; loadu has no alignment requirement.
        Avx2(unsafe { _mm256_loadu_si256(src.as_ptr().cast()) })
    }

    #[inline(always)]
    unsafe fn load_partial(src: &[u8]) -> Self {
        if src.len() == Self::LANES {
            // SAFETY: `src` holds LANES bytes.
            return unsafe { Self::load(src) };
        }
        let word = |at| lookup::word_at(src, at) as i64;
        // SAFETY: AVX2 by the caller.
        Avx2(unsafe { _mm256_set_epi64x(word(24), word(16), word(8), word(0)) })
    }

    #[inline(always)]
    unsafe fn load_end(src: &[u8], len: usize) -> Self {
        debug_assert!(0 < len && len < Self::LANES && src.len() >= Self::LANES);
        // SAFETY: `src` holds at least 32 readable bytes, so 16 from `len - 16` when `len` is
        // above 16; AVX2 by the caller. Each half is built apart: pshufb stays within them.
        unsafe {
            let first = _mm_loadu_si128(src.as_ptr().cast());
            let (low, high) = if len <= 16 {
                (_mm_setzero_si128(), shift_to_end(first, len))
            } else {
                let last = _mm_loadu_si128(src.as_ptr().add(len - 16).cast());
                (shift_to_end(first, len - 16), last)
            };
            Avx2(_mm256_set_m128i(high, low))
        }
    }

    #[inline(always)]
    unsafe fn lookup(self, table: &[u8; 16]) -> Self {
        // SAFETY: `table` holds 16 readable bytes; AVX2 by the caller.
        unsafe {
            let t = _mm256_broadcastsi128_si256(_mm_loadu_si128(table.as_ptr().cast()));
            Avx2(_mm256_shuffle_epi8(t, self.0))
        }
    }

    #[inline(always)]
    unsafe fn high_nibbles(self) -> Self {
        // SAFETY: AVX2 by the caller.
        unsafe {
            Avx2(_mm256_and_si256(
                _mm256_srli_epi16::<4>(self.0),
                _mm256_set1_epi8(0x0F),
            ))
        }
    }

    #[inline(always)]
    unsafe fn low_nibbles(self) -> Self {
        // SAFETY: AVX2 by the caller.
        unsafe { Avx2(_mm256_and_si256(self.0, _mm256_set1_epi8(0x0F))) }
    }

    #[inline(always)]
    unsafe fn prev<const N: i32>(self, prev: Self) -> Self {
        // SAFETY: AVX2 by the caller.
        unsafe {
            // alignr works within 128-bit lanes: pair each lane with the one before it.
            let before = _mm256_permute2x128_si256::<0x21>(prev.0, self.0);
            Avx2(match N {
                1 => _mm256_alignr_epi8::<15>(self.0, before),
                2 => _mm256_alignr_epi8::<14>(self.0, before),
                _ => _mm256_alignr_epi8::<13>(self.0, before),
            })
        }
    }

    #[inline(always)]
    unsafe fn and(self, other: Self) -> Self {
        // SAFETY: AVX2 by the caller.
        unsafe { Avx2(_mm256_and_si256(self.0, other.0)) }
    }

    #[inline(always)]
    unsafe fn or(self, other: Self) -> Self {
        // SAFETY: AVX2 by the caller.
        unsafe { Avx2(_mm256_or_si256(self.0, other.0)) }
    }

    #[inline(always)]
    unsafe fn xor(self, other: Self) -> Self {
        // SAFETY: AVX2 by the caller.
        unsafe { Avx2(_mm256_xor_si256(self.0, other.0)) }
    }

    #[inline(always)]
    unsafe fn saturating_sub(self, other: Self) -> Self {
        // SAFETY: AVX2 by the caller.
        unsafe { Avx2(_mm256_subs_epu8(self.0, other.0)) }
    }

    #[inline(always)]
    unsafe fn any_high_bit(self) -> bool {
        // SAFETY: AVX2 by the caller.
        unsafe { _mm256_movemask_epi8(self.0) != 0 }
    }

    #[inline(always)]
    unsafe fn any_nonzero(self) -> bool {
        // SAFETY: AVX2 by the caller.
        unsafe { _mm256_testz_si256(self.0, self.0) == 0 }
    }

    #[inline(always)]
    unsafe fn count_continuations(self) -> u32 {
        // SAFETY: AVX2 by the caller. As signed bytes, 80..BF are exactly those below -64 (C0).
        unsafe {
            _mm256_movemask_epi8(_mm256_cmpgt_epi8(_mm256_set1_epi8(-64), self.0)).count_ones()
        }
    }

    #[inline(always)]
    unsafe fn count_four_byte_leads(self) -> u32 {
        // SAFETY: AVX2 by the caller. As signed bytes, F0..FF are the negative ones above -17:
        // the compare's lanes keep their top bit where the byte has its own.
        unsafe {
            let above = _mm256_cmpgt_epi8(self.0, _mm256_set1_epi8(-17));
            _mm256_movemask_epi8(_mm256_and_si256(above, self.0)).count_ones()
        }
    }
}

// ---------------------------------------------------------------------------------------------
// From UTF-8 (see super::from_utf8): runs of ASCII widened 32 bytes at a time, values into
// 256-bit registers.

// SAFETY: AVX2 instructions only, within the bounds the trait documents.
unsafe impl crate::algorithms::from_utf8::WideningRegister for Avx2 {
    #[inline(always)]
    unsafe fn continuations(self) -> Self {
        // SAFETY: AVX2 by the caller. As signed bytes, 80..BF are exactly those below -64 (C0).
        unsafe { Avx2(_mm256_cmpgt_epi8(_mm256_set1_epi8(-64), self.0)) }
    }

    #[inline(always)]
    unsafe fn high_bits(self) -> u64 {
        // SAFETY: AVX2 by the caller.
        u64::from(unsafe { _mm256_movemask_epi8(self.0) } as u32)
    }

    #[inline(always)]
    unsafe fn max(self, other: Self) -> Self {
        // SAFETY: AVX2 by the caller.
        unsafe { Avx2(_mm256_max_epu8(self.0, other.0)) }
    }

    #[inline(always)]
    unsafe fn eq(self, other: Self) -> Self {
        // SAFETY: AVX2 by the caller.
        unsafe { Avx2(_mm256_cmpeq_epi8(self.0, other.0)) }
    }

    #[inline(always)]
    unsafe fn greater(self, other: Self) -> Self {
        // SAFETY: AVX2 by the caller.
        unsafe { Avx2(_mm256_cmpgt_epi8(self.0, other.0)) }
    }

    #[inline(always)]
    unsafe fn values(low: Self, middle: Self, top: Self) -> (Self, Self) {
        // SAFETY: AVX2 by the caller. Low + 64 * middle, and top (in the high byte) moved
        // down to bit 12; the unpacks work within 128-bit lanes.
        unsafe {
            let value = |low_middle, top| {
                _mm256_or_si256(
                    _mm256_maddubs_epi16(low_middle, _mm256_set1_epi16(0x4001)),
                    _mm256_slli_epi16::<4>(top),
                )
            };
            let zero = _mm256_setzero_si256();
            (
                Avx2(value(
                    _mm256_unpacklo_epi8(low.0, middle.0),
                    _mm256_unpacklo_epi8(zero, top.0),
                )),
                Avx2(value(
                    _mm256_unpackhi_epi8(low.0, middle.0),
                    _mm256_unpackhi_epi8(zero, top.0),
                )),
            )
        }
    }

    #[inline(always)]
    unsafe fn chunks(registers: &[Self; 4]) -> [__m128i; 4] {
        // SAFETY: AVX2 by the caller.
        unsafe {
            let [low, high] = [registers[0].0, registers[1].0];
            [
                _mm256_castsi256_si128(low),
                _mm256_extracti128_si256::<1>(low),
                _mm256_castsi256_si128(high),
                _mm256_extracti128_si256::<1>(high),
            ]
        }
    }

    #[inline(always)]
    unsafe fn group(first: Self, second: Self, g: usize) -> __m128i {
        let register = if g % 2 == 0 { first.0 } else { second.0 };
        // SAFETY: AVX2 by the caller.
        unsafe {
            if g < 2 {
                _mm256_castsi256_si128(register)
            } else {
                _mm256_extracti128_si256::<1>(register)
            }
        }
    }

    #[inline(always)]
    unsafe fn bytes_to_utf32(bytes: __m128i, dst: *mut u32) {
        // SAFETY: 16 units at `dst`, AVX2, by the caller.
        unsafe {
            _mm256_storeu_si256(dst.cast(), _mm256_cvtepu8_epi32(bytes));
            let high = _mm256_cvtepu8_epi32(_mm_unpackhi_epi64(bytes, bytes));
            _mm256_storeu_si256(dst.add(8).cast(), high);
        }
    }

    #[inline(always)]
    unsafe fn words_to_utf32(words: __m128i, dst: *mut u32) {
        // SAFETY: 8 units at `dst`, AVX2, by the caller.
        unsafe { _mm256_storeu_si256(dst.cast(), _mm256_cvtepu16_epi32(words)) }
    }

    #[inline(always)]
    unsafe fn widen_to_utf16<const SWAP: bool>(src: *const u8, dst: *mut u16) -> bool {
        // SAFETY: 64 bytes at `src` and 64 units at `dst`, AVX2, by the caller.
        unsafe {
            let halves = [0, 32].map(|at| _mm256_loadu_si256(src.add(at).cast()));
            if _mm256_movemask_epi8(_mm256_or_si256(halves[0], halves[1])) != 0 {
                return false;
            }
            for (k, half) in halves.into_iter().enumerate() {
                let low = _mm256_cvtepu8_epi16(_mm256_castsi256_si128(half));
                let high = _mm256_cvtepu8_epi16(_mm256_extracti128_si256::<1>(half));
                // Big-endian: each byte moved into its unit's high byte.
                let (low, high) = if SWAP {
                    (_mm256_slli_epi16::<8>(low), _mm256_slli_epi16::<8>(high))
                } else {
                    (low, high)
                };
                _mm256_storeu_si256(dst.add(32 * k).cast(), low);
                _mm256_storeu_si256(dst.add(32 * k + 16).cast(), high);
            }
            true
        }
    }

    #[inline(always)]
    unsafe fn widen_to_utf32(src: *const u8, dst: *mut u32) -> bool {
        // SAFETY: 64 bytes at `src` and 64 units at `dst`, AVX2, by the caller.
        unsafe {
            let halves = [0, 32].map(|at| _mm256_loadu_si256(src.add(at).cast()));
            if _mm256_movemask_epi8(_mm256_or_si256(halves[0], halves[1])) != 0 {
                return false;
            }
            for k in 0..8 {
                let eight = _mm_loadl_epi64(src.add(8 * k).cast());
                _mm256_storeu_si256(dst.add(8 * k).cast(), _mm256_cvtepu8_epi32(eight));
            }
            true
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Into UTF-8 (see super::to_utf8): 16 units of UTF-16 in one register.

#[derive(Clone, Copy)]
pub(crate) struct Avx2StepRegister(__m256i);

// SAFETY: every method uses AVX2 (and earlier) instructions only, and the trait's contract
// makes callers guarantee that the CPU has them.
unsafe impl StepRegister for Avx2StepRegister {
    #[inline(always)]
    unsafe fn load(src: *const u16) -> Self {
        // SAFETY: `src` has 16 readable units (32 bytes) by the caller; loadu has no alignment
        // requirement. AVX2 by the caller.
        unsafe { Avx2StepRegister(_mm256_loadu_si256(src.cast())) }
    }
    type Any = __m256i;
    #[inline(always)]
    unsafe fn load_narrow(src: *const u32) -> (Self, __m256i) {
        // SAFETY: `src` has 16 readable units (64 bytes, the two loads) by the caller; loadu has
        // no alignment requirement. AVX2 by the caller.
        unsafe {
            let c0 = _mm256_loadu_si256(src.cast());
            let c1 = _mm256_loadu_si256(src.add(8).cast());
            // packus saturates signed values: from 0x80000000 up they would give 0, so they are
            // clamped first. It works within 128-bit lanes, giving units 0..4, 8..12, 4..8,
            // 12..16: the permutation puts them in order.
            let max = _mm256_set1_epi32(0xFFFF);
            let packed = _mm256_packus_epi32(_mm256_min_epu32(c0, max), _mm256_min_epu32(c1, max));
            let units = Avx2StepRegister(_mm256_permute4x64_epi64::<0xD8>(packed));
            (units, _mm256_or_si256(c0, c1))
        }
    }
    #[inline(always)]
    unsafe fn any_none(any: __m256i, mask: u32) -> bool {
        // SAFETY: AVX2 by the caller.
        unsafe { _mm256_testz_si256(any, _mm256_set1_epi32(mask as i32)) != 0 }
    }
    #[inline(always)]
    unsafe fn load_wide(src: *const u32) -> [__m128i; 4] {
        // SAFETY: `src` has 16 readable units (64 bytes, the two loads) by the caller; loadu has
        // no alignment requirement. AVX2 by the caller.
        unsafe {
            let c0 = _mm256_loadu_si256(src.cast());
            let c1 = _mm256_loadu_si256(src.add(8).cast());
            [
                _mm256_castsi256_si128(c0),
                _mm256_extracti128_si256::<1>(c0),
                _mm256_castsi256_si128(c1),
                _mm256_extracti128_si256::<1>(c1),
            ]
        }
    }
    #[inline(always)]
    unsafe fn load_ascii(src: *const u32) -> ([__m128i; 2], bool) {
        // SAFETY: `src` has 32 readable units (128 bytes, the four loads) by the caller; loadu has
        // no alignment requirement. AVX2 by the caller.
        unsafe {
            let c: [__m256i; 4] = [
                _mm256_loadu_si256(src.cast()),
                _mm256_loadu_si256(src.add(8).cast()),
                _mm256_loadu_si256(src.add(16).cast()),
                _mm256_loadu_si256(src.add(24).cast()),
            ];
            let any = _mm256_or_si256(_mm256_or_si256(c[0], c[1]), _mm256_or_si256(c[2], c[3]));
            let ascii = _mm256_testz_si256(any, _mm256_set1_epi32(!0x7F)) != 0;
            // Within each 128-bit lane, the packs give the bytes of four values of each
            // register in turn, values 0..4 of each in the low lane and 4..8 in the high one:
            // the permutation of 32-bit groups puts them in order.
            let words = _mm256_packus_epi32(c[0], c[1]);
            let words_next = _mm256_packus_epi32(c[2], c[3]);
            let bytes = _mm256_packus_epi16(words, words_next);
            let order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
            let bytes = _mm256_permutevar8x32_epi32(bytes, order);
            (
                [
                    _mm256_castsi256_si128(bytes),
                    _mm256_extracti128_si256::<1>(bytes),
                ],
                ascii,
            )
        }
    }
    #[inline(always)]
    unsafe fn store_wide(units: [__m128i; 4], dst: *mut u32) {
        // SAFETY: `dst` has room for 16 units (64 bytes) by the caller; AVX2 by the caller.
        // The two 256-bit stores match load_narrow's and load_wide's two 256-bit loads.
        unsafe {
            _mm256_storeu_si256(dst.cast(), _mm256_set_m128i(units[1], units[0]));
            _mm256_storeu_si256(dst.add(8).cast(), _mm256_set_m128i(units[3], units[2]));
        }
    }
    #[inline(always)]
    unsafe fn halves(self) -> [__m128i; 2] {
        // SAFETY: AVX2 by the caller.
        unsafe {
            [
                _mm256_castsi256_si128(self.0),
                _mm256_extracti128_si256::<1>(self.0),
            ]
        }
    }
    #[inline(always)]
    unsafe fn from_halves(halves: [__m128i; 2]) -> Self {
        // SAFETY: AVX2 by the caller.
        unsafe { Avx2StepRegister(_mm256_set_m128i(halves[1], halves[0])) }
    }
    #[inline(always)]
    unsafe fn splat(v: u16) -> Self {
        // SAFETY: AVX2 by the caller.
        unsafe { Avx2StepRegister(_mm256_set1_epi16(v as i16)) }
    }
    #[inline(always)]
    unsafe fn and(self, other: Self) -> Self {
        // SAFETY: AVX2 by the caller.
        unsafe { Avx2StepRegister(_mm256_and_si256(self.0, other.0)) }
    }
    #[inline(always)]
    unsafe fn or(self, other: Self) -> Self {
        // SAFETY: AVX2 by the caller.
        unsafe { Avx2StepRegister(_mm256_or_si256(self.0, other.0)) }
    }
    #[inline(always)]
    unsafe fn add(self, other: Self) -> Self {
        // SAFETY: AVX2 by the caller.
        unsafe { Avx2StepRegister(_mm256_add_epi16(self.0, other.0)) }
    }
    #[inline(always)]
    unsafe fn eq(self, other: Self) -> Self {
        // SAFETY: AVX2 by the caller.
        unsafe { Avx2StepRegister(_mm256_cmpeq_epi16(self.0, other.0)) }
    }
    #[inline(always)]
    unsafe fn blend(self, other: Self, mask: Self) -> Self {
        // SAFETY: AVX2 by the caller.
        unsafe { Avx2StepRegister(_mm256_blendv_epi8(self.0, other.0, mask.0)) }
    }
    #[inline(always)]
    unsafe fn shr<const N: i32>(self) -> Self {
        // SAFETY: AVX2 by the caller.
        unsafe { Avx2StepRegister(_mm256_srli_epi16::<N>(self.0)) }
    }
    #[inline(always)]
    unsafe fn shl<const N: i32>(self) -> Self {
        // SAFETY: AVX2 by the caller.
        unsafe { Avx2StepRegister(_mm256_slli_epi16::<N>(self.0)) }
    }
    #[inline(always)]
    unsafe fn none(self, mask: Self) -> bool {
        // SAFETY: AVX2 by the caller.
        unsafe { _mm256_testz_si256(self.0, mask.0) != 0 }
    }
    #[inline(always)]
    unsafe fn all_ones(self) -> bool {
        // SAFETY: AVX2 by the caller.
        unsafe { _mm256_movemask_epi8(self.0) == -1 }
    }
    #[inline(always)]
    unsafe fn prev_units(self) -> Self {
        // SAFETY: AVX2 by the caller.
        unsafe {
            // alignr works within 128-bit lanes: pair each lane with the one before it (zeros
            // before the first).
            let before = _mm256_permute2x128_si256::<0x08>(self.0, self.0);
            Avx2StepRegister(_mm256_alignr_epi8::<14>(self.0, before))
        }
    }
    #[inline(always)]
    unsafe fn byte_bits(self) -> u32 {
        // SAFETY: AVX2 by the caller.
        unsafe { _mm256_movemask_epi8(self.0) as u32 }
    }
    #[inline(always)]
    unsafe fn lane_bits(self) -> u32 {
        // SAFETY: AVX2 by the caller. packs works within 128-bit lanes: units 0..8 land in
        // bytes 0..8, units 8..16 in bytes 16..24.
        let bits = unsafe { _mm256_movemask_epi8(_mm256_packs_epi16(self.0, self.0)) as u32 };
        (bits & 0xFF) | (bits >> 8 & 0xFF00)
    }
    #[inline(always)]
    unsafe fn narrow(self) -> __m128i {
        // SAFETY: AVX2 by the caller.
        let [a, b] = unsafe { self.halves() };
        // SAFETY: AVX2 by the caller.
        unsafe { _mm_packus_epi16(a, b) }
    }
    #[inline(always)]
    unsafe fn low_byte_twice(self) -> Self {
        // SAFETY: AVX2 by the caller.
        unsafe {
            let low = _mm256_setr_epi8(
                0, 0, 2, 2, 4, 4, 6, 6, 8, 8, 10, 10, 12, 12, 14, 14, 0, 0, 2, 2, 4, 4, 6, 6, 8, 8,
                10, 10, 12, 12, 14, 14,
            );
            Avx2StepRegister(_mm256_shuffle_epi8(self.0, low))
        }
    }
    #[inline(always)]
    unsafe fn store_narrow(self, next: Self, dst: *mut u8) {
        // SAFETY: `dst` has room for 32 bytes by the caller. packus works within 128-bit lanes,
        // giving units 0..8 of each register, then 8..16: the permutation puts them in order.
        unsafe {
            let packed = _mm256_packus_epi16(self.0, next.0);
            _mm256_storeu_si256(dst.cast(), _mm256_permute4x64_epi64::<0xD8>(packed));
        }
    }

    #[inline(always)]
    unsafe fn swap_bytes(self) -> Self {
        // SAFETY: AVX2 by the caller; the shuffle works within 128-bit lanes, as the units do.
        unsafe {
            let swap = _mm256_set_epi8(
                14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1, 14, 15, 12, 13, 10, 11, 8, 9,
                6, 7, 4, 5, 2, 3, 0, 1,
            );
            Avx2StepRegister(_mm256_shuffle_epi8(self.0, swap))
        }
    }
}

/// Bytes of a run of ASCII that [`copy_ascii_run`] tests and copies at a time: 4 registers of
/// AVX2, 8 of SSE, whose loads and stores the loop's test and branch are spread over.
const ASCII_RUN: usize = 128;

/// A register that [`copy_ascii_run`] copies through: the bytes it tested are stored from it,
/// not loaded again.
///
/// # Safety
/// As for [`Vector`]: the method uses the instruction set's instructions only, and may only run
/// on a CPU that has it.
pub(crate) unsafe trait StoreRegister: Vector {
    /// Stores the register's `LANES` bytes at `dst`, which may have any alignment.
    ///
    /// # Safety
    /// `dst` is valid for writes of `LANES` bytes; the CPU has the instruction set.
    unsafe fn store(self, dst: *mut u8);
}

// SAFETY: AVX2 instructions only.
unsafe impl StoreRegister for Avx2 {
    #[inline(always)]
    unsafe fn store(self, dst: *mut u8) {
        // SAFETY: 32 writable bytes at `dst` and AVX2 by the caller; storeu has no alignment
        // requirement.
        unsafe { _mm256_storeu_si256(dst.cast(), self.0) }
    }
}

/// Copies the run of ASCII at the start of `src` into `dst`, as far as both allow: its first
/// `V::LANES` bytes, then from where the stores are aligned (no store then crosses a cache
/// line) [`ASCII_RUN`] bytes at a time, then `V::LANES` at a time. The number of bytes copied:
/// it stops at the first such piece that is not all ASCII, so bytes of ASCII may follow. Each
/// piece is loaded once, into the registers that are tested and then stored. Its stores are
/// the bytes copied (the aligned pieces store some of the first `V::LANES` again).
///
/// # Safety
/// The CPU has `V`'s instruction set.
#[inline(always)]
unsafe fn copy_ascii_run<V: StoreRegister>(src: &[u8], dst: &mut [MaybeUninit<u8>]) -> usize {
    let n = src.len().min(dst.len());
    let (from, to) = (src.as_ptr(), dst.as_mut_ptr().cast::<u8>());
    if n < V::LANES {
        return 0;
    }
    // SAFETY: each piece of `V::LANES` or `ASCII_RUN` bytes at `i` ends at most at `n`, inside
    // both buffers, which are distinct; `V`'s instruction set by the caller.
    unsafe {
        let load = |at: usize| V::load(core::slice::from_raw_parts(from.add(at), V::LANES));
        let first = load(0);
        if first.any_high_bit() {
            return 0;
        }
        first.store(to);
        // 1 to `V::LANES` bytes on, all copied.
        let mut i = V::LANES - (to as usize) % V::LANES;
        // The registers of a piece (`V::LANES` is at least 16).
        let count = ASCII_RUN / V::LANES;
        while n - i >= ASCII_RUN {
            let mut piece = [V::splat(0); ASCII_RUN / 16];
            for (k, r) in piece.iter_mut().take(count).enumerate() {
                *r = load(i + k * V::LANES);
            }
            let any = piece
                .iter()
                .take(count)
                .fold(V::splat(0), |any, &r| any.or(r));
            if any.any_high_bit() {
                break;
            }
            for (k, r) in piece.iter().take(count).enumerate() {
                r.store(to.add(i + k * V::LANES));
            }
            i += ASCII_RUN;
        }
        while n - i >= V::LANES {
            let v = load(i);
            if v.any_high_bit() {
                break;
            }
            v.store(to.add(i));
            i += V::LANES;
        }
        // At least the first `V::LANES` bytes, copied before the aligned pieces.
        i.max(V::LANES)
    }
}

/// Bytes of input a block of [`latin1_blocks`] and [`utf8_to_latin1_blocks`] takes.
const LATIN1_BLOCK: usize = 16;

/// Converts Latin-1 into UTF-8 as far as blocks go (with `CP1252`, up to a block of 16 bytes
/// holding a byte of 0x80..0x9F, whose characters differ from Latin-1's): the bytes read and
/// written. Runs of ASCII are copied ([`copy_ascii_run`]); after each, the next 64 bytes are
/// converted 16 bytes at a time, with no test for ASCII: each byte `b` from 0x80 becomes
/// `0xC0 | (b >> 6)` and `0x80 | (b & 0x3F)`, built for all 16 bytes in two registers of
/// interleaved pairs, from which a shuffle chosen by the mask of the non-ASCII bytes keeps, for
/// each 8 of them, the pairs of the non-ASCII bytes and the second byte of the others (as
/// simdutf's SSE converter from Latin-1 does, after Lemire and Muła, "Transcoding billions of
/// Unicode characters per second with SIMD instructions", 2022).
///
/// A block's two 16-byte stores may reach up to 8 bytes past its output. A block is only
/// converted where those bytes are written again: its input is followed by at least 8 more
/// bytes, each of which the conversion's later steps turn into at least one byte of output
/// (from Latin-1 and Windows-1252 they stop only where the output is full), and its stores end
/// 2 bytes before the end of `dst`, which a character of up to 3 bytes that does not fit
/// leaves at most: so every byte stored is part of the final output, and none after it
/// changes.
///
/// # Safety
/// The CPU has SSSE3 and `V`'s instruction set.
#[inline(always)]
pub(crate) unsafe fn latin1_blocks<V: StoreRegister, const CP1252: bool>(
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
) -> (usize, usize) {
    let (mut read, mut written) = (0, 0);
    // SAFETY: SSSE3 and `V`'s instruction set by the caller; a block's load reads 16 bytes of
    // `src` at `read` and its stores 32 bytes of `dst` from `written` at most, which the
    // condition before the register's blocks keeps inside them for each (8 and 2 bytes from
    // their ends for the last); `read` and `written` stay within `src` and `dst` in a run of
    // ASCII.
    unsafe {
        'runs: loop {
            let n = copy_ascii_run::<V>(
                src.get(read..).unwrap_or_default(),
                dst.get_mut(written..).unwrap_or_default(),
            );
            read += n;
            written += n;
            // The condition of the register's blocks at once: of the last of them.
            if src.len() - read < V::LANES + 8 || dst.len() - written < 2 * V::LANES + 2 {
                break 'runs;
            }
            for _ in 0..V::LANES / LATIN1_BLOCK {
                let v = _mm_loadu_si128(src.as_ptr().add(read).cast());
                // 0x80..0x9F are the bytes below 0xA0 as signed bytes (-128..-97).
                if CP1252 && _mm_movemask_epi8(_mm_cmplt_epi8(v, _mm_set1_epi8(-96))) != 0 {
                    break 'runs;
                }
                let high = _mm_movemask_epi8(v) as u32;
                let non_ascii = _mm_cmplt_epi8(v, _mm_setzero_si128());
                // C2 or C3: bits 6 and 7 of each byte below 0xC0 (the 16-bit shift carries
                // bits of the next byte into bits 2 to 7, which the mask clears).
                let lead = _mm_or_si128(
                    _mm_and_si128(_mm_srli_epi16(v, 6), _mm_set1_epi8(0x03)),
                    _mm_set1_epi8(0xC0u8 as i8),
                );
                // `0x80 | (b & 0x3F)` is `b` without bit 6 where bit 7 is set; ASCII stays
                // itself.
                let tail = _mm_andnot_si128(_mm_and_si128(non_ascii, _mm_set1_epi8(0x40)), v);
                let pairs = [_mm_unpacklo_epi8(lead, tail), _mm_unpackhi_epi8(lead, tail)];
                let mut at = dst.as_mut_ptr().add(written).cast::<u8>();
                for (half, pairs) in pairs.into_iter().enumerate() {
                    let mask = ((high >> (8 * half)) & 0xFF) as usize;
                    let shuffle = _mm_loadu_si128(LATIN1_SHUFFLES[mask].as_ptr().cast());
                    _mm_storeu_si128(at.cast(), _mm_shuffle_epi8(pairs, shuffle));
                    at = at.add(8 + mask.count_ones() as usize);
                }
                read += LATIN1_BLOCK;
                written += LATIN1_BLOCK + high.count_ones() as usize;
            }
        }
    }
    (read, written)
}

/// For each mask of continuation bytes among 8 (bit `i` for byte `i`), the shuffle that keeps
/// the other bytes in order; zeros (index 0x80) after.
static KEEP_UNMASKED: [[u8; 16]; 256] = keep_unmasked();

const fn keep_unmasked() -> [[u8; 16]; 256] {
    let mut table = [[0x80u8; 16]; 256];
    let mut mask = 0;
    while mask < 256 {
        let mut at = 0;
        let mut i = 0;
        while i < 8 {
            if mask & (1 << i) == 0 {
                table[mask][at] = i as u8;
                at += 1;
            }
            i += 1;
        }
        mask += 1;
    }
    table
}

/// 16 zeros (index 0x80) then the indices 0..16: 16 bytes read from `16 - k` shuffle a
/// register's bytes `k` lanes up.
static SHIFT_UP: [u8; 32] = {
    let mut t = [0x80u8; 32];
    let mut i = 0;
    while i < 16 {
        t[16 + i] = i as u8;
        i += 1;
    }
    t
};

/// The indices 0..16 then zeros (index 0x80): 16 bytes read from `k` shuffle a register's
/// bytes `k` lanes down.
static SHIFT_DOWN: [u8; 32] = {
    let mut t = [0x80u8; 32];
    let mut i = 0;
    while i < 16 {
        t[i] = i as u8;
        i += 1;
    }
    t
};

/// The Latin-1 of the characters that start in the 16 bytes at the start of `src` if they are
/// ASCII and 2-byte characters of U+0080..U+00FF (a lead C2 or C3 followed by a continuation
/// byte; a lead in the last byte, whose continuation is past the block, is left for the next
/// step): its bytes at the start of a register, how many (8 to 16), and the bytes of input
/// they take (15 or 16).
///
/// # Safety
/// The CPU has SSE4.1 and SSSE3; `src` holds 16 bytes.
#[inline(always)]
unsafe fn latin1_of_block(src: &[u8]) -> Option<(__m128i, usize, usize)> {
    debug_assert!(src.len() >= LATIN1_BLOCK);
    // SAFETY: SSE4.1 and SSSE3 by the caller; the loads read 16 bytes of `src` or of the
    // tables, which hold them from the offsets taken.
    unsafe {
        let v = _mm_loadu_si128(src.as_ptr().cast());
        let high = _mm_movemask_epi8(v) as u32;
        let lead = _mm_cmpeq_epi8(
            _mm_and_si128(v, _mm_set1_epi8(0xFEu8 as i8)),
            _mm_set1_epi8(0xC2u8 as i8),
        );
        let cont = _mm_cmpeq_epi8(
            _mm_and_si128(v, _mm_set1_epi8(0xC0u8 as i8)),
            _mm_set1_epi8(0x80u8 as i8),
        );
        let (leads, conts) = (
            _mm_movemask_epi8(lead) as u32,
            _mm_movemask_epi8(cont) as u32,
        );
        // Every non-ASCII byte a lead or a continuation, each continuation right after a lead
        // and each lead right before one (or in the last byte, then not taken: a continuation
        // in the first byte is not one of this block's characters, whose first byte starts
        // one, so none may be there).
        if leads | conts != high || conts != (leads << 1) & 0xFFFF {
            return None;
        }
        let cut = (leads >> 15) as usize;
        // At a lead: the value `(lead & 3) << 6 | (next & 0x3F)` (the 16-bit shift moves no
        // bit across bytes: the masked value is below 4); elsewhere the byte itself. (A lead
        // in the last byte gets a value from the zero shifted in, past the bytes returned.)
        let next = _mm_srli_si128::<1>(v);
        let value = _mm_or_si128(
            _mm_slli_epi16(_mm_and_si128(v, _mm_set1_epi8(0x03)), 6),
            _mm_and_si128(next, _mm_set1_epi8(0x3F)),
        );
        let merged = _mm_blendv_epi8(v, value, lead);
        let (lo, hi) = ((conts & 0xFF) as usize, (conts >> 8) as usize);
        let keep_lo = _mm_loadu_si128(KEEP_UNMASKED[lo].as_ptr().cast());
        let keep_hi = _mm_add_epi8(
            _mm_loadu_si128(KEEP_UNMASKED[hi].as_ptr().cast()),
            _mm_set1_epi8(8),
        );
        let len_lo = 8 - lo.count_ones() as usize;
        let up = _mm_loadu_si128(SHIFT_UP[16 - len_lo..].as_ptr().cast());
        let bytes = _mm_or_si128(
            _mm_shuffle_epi8(merged, keep_lo),
            _mm_shuffle_epi8(_mm_shuffle_epi8(merged, keep_hi), up),
        );
        Some((
            bytes,
            LATIN1_BLOCK - conts.count_ones() as usize - cut,
            LATIN1_BLOCK - cut,
        ))
    }
}

/// Converts UTF-8 into Latin-1 as far as runs of ASCII and blocks of ASCII and 2-byte
/// characters up to U+00FF go: the bytes read and written. Runs of ASCII are copied as they
/// are ([`copy_ascii_run`]); the `V::LANES` bytes after each (where the run stopped) are
/// validated and decoded 16 bytes at a time in one register ([`latin1_of_block`]), whose
/// continuation bytes a shuffle per 8 bytes removes (compressing out the lead bytes' partners,
/// as simdutf's `utf8_to_latin1` does after Lemire and Muła, "Transcoding billions of Unicode
/// characters per second with SIMD instructions", 2022). Anything else (a character above
/// U+00FF, an error, a character cut at the end of the input) stops it, for the exact path.
///
/// Every store writes exactly the block's output, 8 to 16 bytes, as two 8-byte stores (the
/// second one over the last 8 of them): nothing past the output is ever written.
///
/// # Safety
/// The CPU has SSE4.1 and SSSE3, and `V`'s instruction set.
#[inline(always)]
pub(crate) unsafe fn utf8_to_latin1_blocks<V: StoreRegister>(
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
) -> (usize, usize) {
    let (mut read, mut written) = (0, 0);
    loop {
        // SAFETY: `V`'s instruction set by the caller.
        let n = unsafe {
            copy_ascii_run::<V>(
                src.get(read..).unwrap_or_default(),
                dst.get_mut(written..).unwrap_or_default(),
            )
        };
        read += n;
        written += n;
        for _ in 0..V::LANES / LATIN1_BLOCK {
            let (Some(s), Some(d)) = (
                src.get(read..read + LATIN1_BLOCK),
                dst.get_mut(written..written + LATIN1_BLOCK),
            ) else {
                return (read, written);
            };
            // SAFETY: the caller's CPU; `s` holds 16 bytes.
            let Some((bytes, len, taken)) = (unsafe { latin1_of_block(s) }) else {
                return (read, written);
            };
            // SAFETY: `d` holds 16 bytes, `len` is 8 to 16: the stores write its bytes 0..8
            // and `len - 8..len`; SHIFT_DOWN holds 16 bytes from `len - 8` (0 to 8: a pointer,
            // not an index, which would bring a panic path the compiler cannot rule out).
            // SSSE3 by the caller.
            unsafe {
                let at = d.as_mut_ptr().cast::<u8>();
                _mm_storel_epi64(at.cast(), bytes);
                let down = _mm_loadu_si128(SHIFT_DOWN.as_ptr().add(len - 8).cast());
                _mm_storel_epi64(at.add(len - 8).cast(), _mm_shuffle_epi8(bytes, down));
            }
            read += taken;
            written += len;
        }
    }
}
