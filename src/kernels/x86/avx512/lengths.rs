//! The UTF-8 length of UTF-16 of either byte order, 32 units to a register: AVX-512's own
//! form of `crate::algorithms::lengths::utf8_length_from_utf16`, whose portable loop loads each
//! unit three times (with the unit before and the one after it) and weighs it in its lane.
//! Here each unit is loaded once: its bytes from U+0080 and U+0800 are added into 16-bit
//! lanes, and surrogates, which most blocks of text have none of, are looked for with one
//! compare a block, their pairs then found in masks (see BENCHMARKS.md). And the UTF-8 length
//! of UTF-32, two registers of values packed into one of 16-bit lanes, weighed the same way.

use core::arch::x86_64::*;

use super::{in_gpr, load_tail, order};
use crate::algorithms::lengths::utf32_value_bytes;
use crate::algorithms::to_utf8::Utf16Source;
use crate::engine::Replacement;

/// Units of UTF-16 in one register.
const UNITS: usize = 32;

/// Blocks per run: a lane adds at most 1 per block, and is added up before it passes 65535.
const RUN: usize = 65_535;

/// The UTF-8 bytes of the lossy conversion of `s`, UTF-16 of `S`'s byte order, under
/// `replacement`: what `crate::algorithms::lengths::utf8_length_from_utf16` computes, 1 to 3
/// bytes per unit, here charged otherwise within a pair: 3 to its high surrogate and 1 to its
/// low one, which is where the pair is found, from the high surrogates of the block shifted up
/// one unit (the last one carried into the next block). No unit is loaded twice.
///
/// Each unit's charge comes from one reading of it: a pair's low surrogate and an escaped
/// U+DC80..U+DCFF take 2 off the 3 that the same reading of the unit gave, so that the sum
/// stays between `s.len()` and `3 * s.len()` where another thread changes the input during
/// the call.
///
/// # Safety
/// The CPU has AVX-512F, BW, VBMI2, BMI2 and POPCNT.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi2,bmi2,popcnt")]
pub(crate) unsafe fn utf8_length_from_utf16<S: Utf16Source>(
    s: &[u16],
    replacement: Replacement,
) -> usize {
    // SAFETY: the instructions by the caller.
    unsafe {
        if replacement == Replacement::Escape {
            utf8_bytes::<S, true>(s)
        } else {
            utf8_bytes::<S, false>(s)
        }
    }
}

/// [`utf8_length_from_utf16`], with the escapes if `ESCAPE`.
///
/// # Safety
/// The CPU has AVX-512F, BW, VBMI2, BMI2 and POPCNT.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi2,bmi2,popcnt")]
unsafe fn utf8_bytes<S: Utf16Source, const ESCAPE: bool>(s: &[u16]) -> usize {
    let p = s.as_ptr();
    let mut sums = Sums {
        lanes: [_mm512_setzero_si512(); 2],
        taken_off: 0,
        high_before: 0,
    };
    let mut i = 0;
    let mut total = s.len();
    while s.len() - i >= UNITS {
        let blocks = ((s.len() - i) / UNITS).min(RUN);
        for _ in 0..blocks {
            // SAFETY: the instructions by the caller; the `UNITS` units at `i` are inside `s`.
            unsafe { sums.add::<S, ESCAPE>(_mm512_loadu_si512(p.add(i).cast())) };
            i += UNITS;
        }
        // SAFETY: the instructions by the caller.
        total += unsafe { lane_sum(sums.lanes) };
        sums.lanes = [_mm512_setzero_si512(); 2];
    }
    if i < s.len() {
        // The last units, in a register whose lanes past them are zeros: no surrogates, no
        // bytes.
        // SAFETY: the instructions by the caller; `load_tail` reads the units from `i` to
        // the end of `s`.
        unsafe { sums.add::<S, ESCAPE>(load_tail(p.add(i).cast(), 2 * (s.len() - i))) };
    }
    // SAFETY: the instructions by the caller.
    total + unsafe { lane_sum(sums.lanes) } - 2 * sums.taken_off
}

/// The sums of [`utf8_bytes`] over the blocks so far.
struct Sums {
    /// Each unit's bytes beyond its first from its value alone, 1 from U+0080 and 1 more from
    /// U+0800, in its lane: two registers, so that the chains of additions through them, one
    /// a block each, run side by side.
    lanes: [__m512i; 2],
    /// The units that take 2 off those: pairs' low surrogates and, with the escapes,
    /// U+DC80..U+DCFF not after a high surrogate.
    taken_off: usize,
    /// 1 if the last unit of the block before was a high surrogate.
    high_before: u32,
}

impl Sums {
    /// Adds the 32 units of `units` (as loaded), which follow the blocks added so far.
    ///
    /// # Safety
    /// The CPU has AVX-512F, BW, VBMI2 and POPCNT.
    #[inline(always)]
    unsafe fn add<S: Utf16Source, const ESCAPE: bool>(&mut self, units: __m512i) {
        // SAFETY: the instructions by the caller.
        unsafe {
            let u = order::<S>(units);
            // Bit 15 of `u` plus 0x7F80, saturated, is set from U+0080; plus 0x7800 from
            // U+0800.
            let [from_80, from_800] = &mut self.lanes;
            *from_80 = _mm512_add_epi16(
                *from_80,
                _mm512_srli_epi16::<15>(_mm512_adds_epu16(u, _mm512_set1_epi16(0x7F80))),
            );
            *from_800 = _mm512_add_epi16(
                *from_800,
                _mm512_srli_epi16::<15>(_mm512_adds_epu16(u, _mm512_set1_epi16(0x7800))),
            );
            // Most text has no surrogates: one test for the block, before the two that pair
            // them (text of emoji, where nearly every block has some, takes them every time).
            let surrogate_bits = _mm512_and_si512(u, _mm512_set1_epi16(0xF800u16 as i16));
            let surrogates =
                _mm512_cmpeq_epi16_mask(surrogate_bits, _mm512_set1_epi16(0xD800u16 as i16));
            if in_gpr(u64::from(surrogates)) == 0 {
                self.high_before = 0;
                return;
            }
            let low = _mm512_mask_test_epi16_mask(surrogates, u, _mm512_set1_epi16(0x0400));
            let high = surrogates & !low;
            let after_high = (high << 1) | self.high_before;
            self.high_before = high >> (UNITS - 1);
            let mut taken_off = low & after_high;
            if ESCAPE {
                let escaped = _mm512_cmpeq_epi16_mask(
                    _mm512_and_si512(u, _mm512_set1_epi16(0xFF80u16 as i16)),
                    _mm512_set1_epi16(0xDC80u16 as i16),
                );
                taken_off |= escaped & !after_high;
            }
            self.taken_off += taken_off.count_ones() as usize;
        }
    }
}

/// Values of UTF-32 in a step of [`utf8_length_from_utf32`]: two registers.
const VALUES: usize = 32;

/// Steps per run of [`utf8_length_from_utf32`]: a 16-bit lane of the first of its two
/// registers adds at most 2 per step, and is added up before it passes 65535.
const VALUE_RUN: usize = 32_767;

/// The UTF-8 bytes of the lossy conversion of `s`, UTF-32, under `replacement`: what
/// `crate::algorithms::lengths::utf8_length_from_utf32` computes, 1 to 4 bytes per scalar
/// value, 3 (U+FFFD) per surrogate or value above 0x10FFFF, with the escapes 1 per
/// U+DC80..U+DCFF. Each step's 32 values, halved and packed into 16-bit lanes with unsigned
/// saturation, have their bytes from U+0080, U+0800 and U+10000 added into two registers of
/// lanes; a step with a value above 0x10FFFF (or with the escapes one of U+DC80..U+DCFF),
/// which text has none of, is weighed value by value from the same registers. Each value's
/// charge comes from one reading of it.
///
/// # Safety
/// The CPU has AVX-512F, BW, VBMI2 and BMI2 (the last two for `load_tail`).
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi2,bmi2")]
pub(crate) unsafe fn utf8_length_from_utf32(s: &[u32], replacement: Replacement) -> usize {
    // SAFETY: the instructions by the caller.
    unsafe {
        if replacement == Replacement::Escape {
            utf8_bytes_of_values::<true>(s)
        } else {
            utf8_bytes_of_values::<false>(s)
        }
    }
}

/// [`utf8_length_from_utf32`], with the escapes if `ESCAPE`.
///
/// # Safety
/// The CPU has AVX-512F, BW, VBMI2 and BMI2.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi2,bmi2")]
unsafe fn utf8_bytes_of_values<const ESCAPE: bool>(s: &[u32]) -> usize {
    let p = s.as_ptr();
    let mut lanes = [_mm512_setzero_si512(); 2];
    let mut i = 0;
    let mut total = s.len();
    while s.len() - i >= VALUES {
        let steps = ((s.len() - i) / VALUES).min(VALUE_RUN);
        for _ in 0..steps {
            // SAFETY: the instructions by the caller; the `VALUES` values at `i` are inside
            // `s`.
            total += unsafe {
                add_values::<ESCAPE>(
                    &mut lanes,
                    _mm512_loadu_si512(p.add(i).cast()),
                    _mm512_loadu_si512(p.add(i + VALUES / 2).cast()),
                )
            };
            i += VALUES;
        }
        // SAFETY: the instructions by the caller.
        total += unsafe { lane_sum(lanes) };
        lanes = [_mm512_setzero_si512(); 2];
    }
    if i < s.len() {
        // The last values, in registers whose lanes past them are zeros, which weigh nothing.
        let first = (s.len() - i).min(VALUES / 2);
        let second = s.len() - i - first;
        // SAFETY: the instructions by the caller; `load_tail` reads the values from `i` to the
        // end of `s` (none for an empty second register).
        unsafe {
            let a = load_tail(p.add(i).cast(), 4 * first);
            let b = load_tail(p.add(i + first).cast(), 4 * second);
            total += add_values::<ESCAPE>(&mut lanes, a, b);
            total += lane_sum(lanes);
        }
    }
    total
}

/// Adds to `lanes` the bytes beyond the first of the 32 values of `a` and `b`: what a step of
/// [`utf8_bytes_of_values`] adds to its lanes; or, for a step with a value that UTF-8 does not
/// take as it is, adds nothing and returns those bytes, weighed value by value.
///
/// # Safety
/// The CPU has AVX-512F and BW.
#[inline(always)]
unsafe fn add_values<const ESCAPE: bool>(
    lanes: &mut [__m512i; 2],
    a: __m512i,
    b: __m512i,
) -> usize {
    // SAFETY: the instructions by the caller.
    unsafe {
        let above = _mm512_set1_epi32(0x10_FFFF);
        let mut odd = _mm512_cmpgt_epu32_mask(_mm512_max_epu32(a, b), above);
        if ESCAPE {
            let escaped = |v| {
                _mm512_cmpeq_epi32_mask(
                    _mm512_and_si512(v, _mm512_set1_epi32(!0x7F)),
                    _mm512_set1_epi32(0xDC80),
                )
            };
            odd |= escaped(a) | escaped(b);
        }
        if in_gpr(u64::from(odd)) != 0 {
            let mut values = [0u32; VALUES];
            _mm512_storeu_si512(values.as_mut_ptr().cast(), a);
            _mm512_storeu_si512(values.as_mut_ptr().add(VALUES / 2).cast(), b);
            return values
                .iter()
                .map(|&v| utf32_value_bytes(v, ESCAPE) as usize - 1)
                .sum();
        }
        // Halved, every value up to 0x10FFFF is below 2^31, which the signed pack takes as
        // it is: U+10000 and above become 0x8000 or more, saturated at 0xFFFF.
        let halves = _mm512_packus_epi32(_mm512_srli_epi32::<1>(a), _mm512_srli_epi32::<1>(b));
        // Bit 15 of a half plus 0x7FC0, saturated, is set from U+0080; plus 0x7C00 from
        // U+0800; of the half itself from U+10000.
        let [low, high] = lanes;
        let from_80 = _mm512_adds_epu16(halves, _mm512_set1_epi16(0x7FC0));
        let from_800 = _mm512_adds_epu16(halves, _mm512_set1_epi16(0x7C00));
        *low = _mm512_add_epi16(
            *low,
            _mm512_add_epi16(
                _mm512_srli_epi16::<15>(from_80),
                _mm512_srli_epi16::<15>(halves),
            ),
        );
        *high = _mm512_add_epi16(*high, _mm512_srli_epi16::<15>(from_800));
        0
    }
}

/// The sum of the unsigned 16-bit lanes of `lanes`.
///
/// # Safety
/// The CPU has AVX-512F.
#[inline(always)]
unsafe fn lane_sum(lanes: [__m512i; 2]) -> usize {
    // SAFETY: the instructions by the caller.
    unsafe {
        let low_halves = _mm512_set1_epi32(0xFFFF);
        let [a, b] = lanes
            .map(|l| _mm512_add_epi32(_mm512_and_si512(l, low_halves), _mm512_srli_epi32::<16>(l)));
        _mm512_reduce_add_epi32(_mm512_add_epi32(a, b)) as u32 as usize
    }
}
