//! The AVX-512 converters from UTF-16 and UTF-32 into UTF-8: AVX2's converter with AVX-512's
//! wider steps.

use core::arch::x86_64::*;
use core::mem::MaybeUninit;

use super::{compress_bytes, in_gpr, low_bits, order, splat32};
use crate::algorithms::to_utf8::{self, CompressSteps, Saved, Utf16Source};
use crate::engine::short::ShortCall;
use crate::engine::{Mode, Progress, utf16, utf32};
use crate::kernels::x86::shared::Avx2StepRegister;

// ---------------------------------------------------------------------------------------------
// UTF-16 into UTF-8: AVX2's converter (see super::to_utf8), with steps of 32 units below U+0800
// in one register, and of 32 units of any other characters in two registers of 32-bit lanes,
// their bytes compressed by a mask (VBMI2), after the idea of Robert Clausecker and Daniel
// Lemire, "Transcoding Unicode Characters with AVX-512 Instructions", Software: Practice and
// Experience, 2023. Each surrogate of a pair gives two of its four bytes in its own lane, as
// in AVX2's steps, so that text with a few supplementary characters (emoji among other
// text) takes the same steps as text with none. UTF-16 of the other byte order has its bytes
// swapped right after each load ([`order`]), and then takes the same steps, which are chosen
// by tests of the units as loaded.

/// The bytes of the four-byte form of each 32-bit lane's scalar value without their marker
/// bits, lead byte lowest: the shorter forms are their tails (as `to_utf8::one_to_four` builds
/// them four lanes at a time).
///
/// # Safety
/// The CPU has AVX-512F.
#[inline(always)]
unsafe fn form_bytes(c: __m512i) -> __m512i {
    // SAFETY: AVX-512F by the caller.
    unsafe {
        _mm512_or_si512(
            _mm512_or_si512(
                _mm512_srli_epi32::<18>(c),
                _mm512_and_si512(_mm512_srli_epi32::<4>(c), splat32(0x3F00)),
            ),
            _mm512_or_si512(
                _mm512_and_si512(_mm512_slli_epi32::<10>(c), splat32(0x3F_0000)),
                _mm512_and_si512(_mm512_slli_epi32::<24>(c), splat32(0x3F00_0000)),
            ),
        )
    }
}

/// Writes the 32 to 64 bytes of the 32 units of `v`, all below U+0800, at `dst`, and nothing
/// after them: their number, and the 16 bytes after them.
///
/// # Safety
/// The CPU has AVX-512F, BW, VBMI and VBMI2; room for 80 bytes at `dst`.
#[inline(always)]
unsafe fn one_two_units(v: __m512i, dst: *mut u8) -> (usize, Saved) {
    // SAFETY: by the caller.
    unsafe {
        let (bytes, len) = one_two_bytes(v);
        // A store of exactly `len` bytes, the 16 after them read before it: a load after it
        // would wait for it.
        let tail = Saved::load(dst.add(len));
        _mm512_mask_storeu_epi8(dst.cast(), u64::MAX >> (64 - len), bytes);
        (len, tail)
    }
}

/// The 32 to 64 bytes of the 32 units of `v`, all below U+0800, compressed, and their number.
///
/// # Safety
/// The CPU has AVX-512F, BW, VBMI and VBMI2.
#[inline(always)]
unsafe fn one_two_bytes(v: __m512i) -> (__m512i, usize) {
    // SAFETY: by the caller.
    unsafe {
        // Each lane's two bytes, the lead byte low (first in memory): 110xxxxx 10xxxxxx. One
        // byte shift picks the bits of both, from bit 6 (the five bits of the lead byte, the
        // unit being below U+0800) and from bit 0; their marker bits are then set, and the
        // continuation byte's top two cleared, at once.
        let bits = _mm512_multishift_epi64_epi8(_mm512_set1_epi64(0x3036_2026_1016_0006), v);
        let two = _mm512_ternarylogic_epi32::<0xEA>(
            bits,
            _mm512_set1_epi16(0x3F1F),
            _mm512_set1_epi16(0x80C0_u16 as i16),
        );
        // ASCII lanes hold their unit, whose high byte, zero, is left out.
        let ascii = _mm512_cmplt_epu16_mask(v, _mm512_set1_epi16(0x80));
        let lanes = _mm512_mask_mov_epi16(two, ascii, v);
        // The low byte of each lane, never 0x80 (a lead byte, or ASCII), and the high byte
        // where it is not 0 (a continuation byte): one compare gives the mask of both.
        let keep = _mm512_cmpneq_epi8_mask(lanes, _mm512_set1_epi16(0x0080));
        (compress_bytes(keep, lanes), keep.count_ones() as usize)
    }
}

/// Surrogate pairs among the 32 units of a step, for [`bmp_units`]: the two bytes each
/// surrogate of a pair gives in its own lane, and which lanes hold them.
#[derive(Clone, Copy)]
struct Pairs {
    /// For each surrogate lane, its two bytes, first byte lowest: a high surrogate gives the
    /// first two of its pair's four, the low one the last two (as in `to_utf8`, whose module
    /// comment says how).
    bytes: __m512i,
    /// The lanes of surrogates, one bit each.
    lanes: u32,
    /// Whether the last unit is a high surrogate, left to the next step with its low one.
    split: bool,
}

/// The surrogate pairs among the 32 units of `v`, whose high surrogates are in the lanes of
/// `high` and low ones in those of `low`, every low surrogate after a high one.
///
/// # Safety
/// The CPU has AVX-512F and BW.
#[inline(always)]
unsafe fn pairs(v: __m512i, high: u32, low: u32, split: bool) -> Pairs {
    // SAFETY: by the caller.
    unsafe {
        let splat = |x: u16| _mm512_set1_epi16(x as i16);
        // High: the plane, 0x10000 + (h - 0xD800) << 10 shifted down 10, is h's ten bits + 0x40.
        let plane = _mm512_add_epi16(_mm512_and_si512(v, splat(0x3FF)), splat(0x40));
        let first = _mm512_or_si512(
            _mm512_or_si512(
                _mm512_srli_epi16::<8>(plane),
                _mm512_and_si512(_mm512_slli_epi16::<6>(plane), splat(0x3F00)),
            ),
            splat(0x80F0),
        );
        // Low: the plane's two low bits (the high surrogate's, in the lane before) above the
        // low's top four bits, then its last six.
        let before = _mm512_permutexvar_epi16(PREVIOUS_UNIT, v);
        let third = _mm512_or_si512(
            _mm512_and_si512(_mm512_slli_epi16::<4>(before), splat(0x30)),
            _mm512_and_si512(_mm512_srli_epi16::<6>(v), splat(0xF)),
        );
        let fourth = _mm512_and_si512(_mm512_slli_epi16::<8>(v), splat(0x3F00));
        let second = _mm512_or_si512(_mm512_or_si512(third, fourth), splat(0x8080));
        Pairs {
            bytes: _mm512_mask_mov_epi16(second, high, first),
            lanes: high | low,
            split,
        }
    }
}

/// Writes the 64 bytes of the 16 surrogate pairs that are the 32 units of `v`, at `dst`: the
/// 16 bytes after them as they were. Each pair's 32-bit lane gives its 4-byte form in place,
/// with no compression (text of emoji or of other supplementary characters only).
///
/// # Safety
/// The CPU has AVX-512F; room for 80 bytes at `dst`.
#[inline(always)]
unsafe fn all_pairs(v: __m512i, dst: *mut u8) -> Saved {
    // SAFETY: by the caller.
    unsafe {
        let high = _mm512_and_si512(v, splat32(0x3FF));
        let low = _mm512_and_si512(_mm512_srli_epi32::<16>(v), splat32(0x3FF));
        let c = _mm512_add_epi32(
            _mm512_or_si512(_mm512_slli_epi32::<10>(high), low),
            splat32(0x1_0000),
        );
        let four = _mm512_or_si512(form_bytes(c), splat32(0x8080_80F0));
        let tail = Saved::load(dst.add(64));
        _mm512_storeu_si512(dst.cast(), four);
        tail
    }
}

/// For `_mm512_permutexvar_epi16`: each lane takes the unit before it (lane 0 its own).
static PREVIOUS_UNIT: __m512i = {
    let mut t = [0u16; 32];
    let mut i = 1;
    while i < 32 {
        t[i] = (i - 1) as u16;
        i += 1;
    }
    // SAFETY: 64 bytes either way, and every bit pattern is an integer vector.
    unsafe { core::mem::transmute::<[u16; 32], __m512i>(t) }
};

/// Writes the 32 to 96 bytes of the 32 units of `v` at `dst`, and nothing after them: their
/// number, and the 16 bytes after them. None of the units is a surrogate, or `pairs` has
/// them; a high surrogate in the last lane gives nothing.
///
/// # Safety
/// The CPU has AVX-512F, BW and VBMI2; room for 112 bytes at `dst`.
#[inline(always)]
unsafe fn bmp_units(v: __m512i, pairs: Option<Pairs>, dst: *mut u8) -> (usize, Saved) {
    // SAFETY: by the caller.
    unsafe {
        let ([first, second], [first_len, second_len]) = bmp_bytes(v, pairs);
        let len = first_len + second_len;
        // As `one_two_units` stores.
        let tail = Saved::load(dst.add(len));
        _mm512_mask_storeu_epi8(dst.cast(), u64::MAX >> (64 - first_len), first);
        _mm512_mask_storeu_epi8(
            dst.add(first_len).cast(),
            u64::MAX >> (64 - second_len),
            second,
        );
        (len, tail)
    }
}

/// The bytes of the 32 units of `v`, as [`bmp_units`] writes them: two registers of
/// compressed bytes, those of the first 16 units and of the last 16, and their numbers.
///
/// # Safety
/// The CPU has AVX-512F, BW and VBMI2.
#[inline(always)]
unsafe fn bmp_bytes(v: __m512i, pairs: Option<Pairs>) -> ([__m512i; 2], [usize; 2]) {
    // SAFETY: by the caller.
    unsafe {
        let halves = |x: __m512i| [_mm512_castsi512_si256(x), _mm512_extracti64x4_epi64::<1>(x)];
        let [low, high] = halves(v);
        let (first, first_len, second, second_len);
        match pairs {
            None => {
                (first, first_len) = bmp_lanes(low, None);
                (second, second_len) = bmp_lanes(high, None);
            }
            Some(p) => {
                let [low_bytes, high_bytes] = halves(p.bytes);
                let first_pairs = Some((low_bytes, p.lanes as u16, false));
                (first, first_len) = bmp_lanes(low, first_pairs);
                let second_pairs = Some((high_bytes, (p.lanes >> 16) as u16, p.split));
                (second, second_len) = bmp_lanes(high, second_pairs);
            }
        }
        ([first, second], [first_len, second_len])
    }
}

/// The bytes of 16 units of a [`bmp_units`] step, compressed, and their number; `pairs`: the
/// bytes of their surrogates, which lanes hold them, and whether the last lane gives nothing.
///
/// # Safety
/// The CPU has AVX-512F, BW and VBMI2.
#[inline(always)]
unsafe fn bmp_lanes(units: __m256i, pairs: Option<(__m256i, u16, bool)>) -> (__m512i, usize) {
    // SAFETY: by the caller.
    unsafe {
        let c = _mm512_cvtepu16_epi32(units);
        // Each lane's three bytes, the lead byte low: 1110xxxx 10xxxxxx 10xxxxxx. One byte
        // shift picks the bits of each, from bits 12, 6 and 0 of the unit (as `one_two_bytes`
        // picks two); then the marker bits are set, and the continuation bytes' top two bits
        // and the fourth byte cleared, at once. A step with surrogate pairs keeps three shifts
        // and masks, with which text of emoji was faster (see BENCHMARKS.md). Its two bytes,
        // 110xxxxx 10xxxxxx, are below U+0800 the last two of those with the second's marker
        // bit 0x40 set.
        let three = if pairs.is_none() {
            let bits = _mm512_multishift_epi64_epi8(_mm512_set1_epi64(0x2020_262C_0000_060C), c);
            _mm512_ternarylogic_epi32::<0xEA>(bits, splat32(0x003F_3F0F), splat32(0x0080_80E0))
        } else {
            let lead = _mm512_srli_epi32::<12>(c);
            let middle = _mm512_slli_epi32::<2>(c);
            let last = _mm512_slli_epi32::<16>(c);
            let three = _mm512_ternarylogic_epi32::<0xF8>(lead, middle, splat32(0x3F00));
            let three = _mm512_ternarylogic_epi32::<0xF8>(three, last, splat32(0x3F_0000));
            _mm512_or_si512(three, splat32(0x80_80E0))
        };
        let two = _mm512_xor_si512(_mm512_srli_epi32::<8>(three), splat32(0x40));
        let wide2 = _mm512_cmpge_epu32_mask(c, splat32(0x80));
        let wide3 = _mm512_cmpge_epu32_mask(c, splat32(0x800));
        let lanes = _mm512_mask_mov_epi32(c, wide2, two);
        let mut lanes = _mm512_mask_mov_epi32(lanes, wide3, three);
        let mut given = u64::MAX;
        if let Some((bytes, which, split)) = pairs {
            lanes = _mm512_mask_mov_epi32(lanes, which, _mm512_cvtepu16_epi32(bytes));
            if split {
                given >>= 4;
            }
        }
        // The first byte of each lane, never FF, and those after it that are not zero: the
        // bytes of a form. One compare, whose mask the compression takes as it is.
        let keep = _mm512_cmpneq_epi8_mask(lanes, splat32(0xFF)) & given;
        (compress_bytes(keep, lanes), keep.count_ones() as usize)
    }
}

/// The permutation of two registers of 16-bit lanes (the second's bytes numbered from 64) that
/// gives the high byte of each lane.
static HIGH_BYTES: [u8; 64] = {
    let mut table = [0; 64];
    let mut i = 0;
    while i < 64 {
        table[i] = 2 * i as u8 + 1;
        i += 1;
    }
    table
};

/// The steps of AVX-512 VBMI2, with [`CompressSteps::LONG_ASCII_RUNS`] as `LONG_ASCII_RUNS` (see
/// [`utf16_to_utf8`]).
pub(crate) struct Avx512CompressSteps<const LONG_ASCII_RUNS: bool>;

// SAFETY: AVX-512F, BW, VBMI and VBMI2 instructions, and AVX2's; callers guarantee the CPU has
// them.
unsafe impl<const LONG_ASCII_RUNS: bool> CompressSteps for Avx512CompressSteps<LONG_ASCII_RUNS> {
    const LONG_ASCII_RUNS: bool = LONG_ASCII_RUNS;

    /// 96 units: more, and the test costs text of other characters more than it saves; fewer,
    /// and Wikipedia text gains less (see BENCHMARKS.md; AMD Zen 4 is the other way round: see
    /// [`utf16_to_utf8`]). Whether a run starts is a branch that mixed text makes
    /// unpredictable: its mask is tested in a general-purpose register ([`in_gpr`]).
    #[inline(always)]
    unsafe fn ascii_ahead<S: Utf16Source>(src: *const S, units: usize) -> bool {
        const RUN: usize = 96;
        if units < RUN {
            return false;
        }
        // SAFETY: AVX-512F and BW by the caller; RUN units at `src`, checked above. Tested as
        // loaded, in either byte order (see `Utf16Source::NOT_ASCII`).
        unsafe {
            let mut bits = _mm512_loadu_si512(src.cast());
            for k in 1..RUN / 32 {
                bits = _mm512_or_si512(bits, _mm512_loadu_si512(src.add(32 * k).cast()));
            }
            in_gpr(_mm512_test_epi16_mask(bits, _mm512_set1_epi16(S::NOT_ASCII as i16)).into()) == 0
        }
    }

    const ASCII_UNITS: bool = true;

    /// Two registers of 32 units, tested together; their bytes that hold the units' values
    /// packed (in the machine's order, the low bytes, with a permutation of 64-bit lanes after
    /// the packing, which works within 128-bit lanes), or picked from both registers by one
    /// permutation (in the other order, the high bytes).
    #[inline(always)]
    unsafe fn ascii_units<S: Utf16Source>(src: *const S, dst: *mut u8) -> bool {
        // SAFETY: AVX-512F, BW and VBMI by the caller; 64 units at `src` and room for 64 bytes
        // at `dst` by the caller.
        unsafe {
            let (a, b) = (
                _mm512_loadu_si512(src.cast()),
                _mm512_loadu_si512(src.add(32).cast()),
            );
            let units = _mm512_or_si512(a, b);
            if _mm512_test_epi16_mask(units, _mm512_set1_epi16(S::NOT_ASCII as i16)) != 0 {
                return false;
            }
            let bytes = if S::SWAPPED {
                let index = _mm512_loadu_si512(HIGH_BYTES.as_ptr().cast());
                _mm512_permutex2var_epi8(a, index, b)
            } else {
                let packed = _mm512_packus_epi16(a, b);
                _mm512_permutexvar_epi64(_mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7), packed)
            };
            _mm512_storeu_si512(dst.cast(), bytes);
            true
        }
    }

    #[inline(always)]
    unsafe fn utf16<S: Utf16Source>(src: *const S, dst: *mut u8) -> (usize, usize, Saved) {
        // SAFETY: AVX-512F, BW, VBMI and VBMI2, and AVX2, by the caller; 32 units at `src` and
        // room for 112 bytes at `dst` by the caller, as the conversions need.
        unsafe {
            let loaded = _mm512_loadu_si512(src.cast());
            let v = order::<S>(loaded);
            // The tests that choose the step read the units as loaded, with their bits where
            // the loads put them (see `Utf16Source::as_loaded`): they need not wait for the swap.
            let bits = |b: u16| _mm512_set1_epi16(S::as_loaded(b) as i16);
            // Any unit from U+0800 up, tested in a 256-bit register, both halves together:
            // a compare into a mask register costs more.
            let halves = _mm512_or_si512(loaded, _mm512_shuffle_i64x2::<0b1110>(loaded, loaded));
            let above = _mm256_set1_epi16(S::as_loaded(0xF800) as i16);
            if _mm256_testz_si256(_mm512_castsi512_si256(halves), above) != 0 {
                let (len, tail) = one_two_units(v, dst);
                return (2 * to_utf8::STEP, len, tail);
            }
            let kind = _mm512_and_si512(loaded, bits(0xF800));
            if _mm512_cmpeq_epi16_mask(kind, bits(0xD800)) != 0 {
                let kind = _mm512_and_si512(loaded, bits(0xFC00));
                let high = _mm512_cmpeq_epi16_mask(kind, bits(0xD800));
                let low = _mm512_cmpeq_epi16_mask(kind, bits(0xDC00));
                // Every low surrogate follows a high one, and every high one is followed by a
                // low one but for one in the last lane, left to the next step.
                if low != high << 1 {
                    return (0, 0, Saved::NONE);
                }
                if high == 0x5555_5555 {
                    return (2 * to_utf8::STEP, 64, all_pairs(v, dst));
                }
                // From memory, not from the masks: the next step's loads wait for it, and the
                // masks come 20 cycles after the load.
                let split = (*src.add(31)).value() & 0xFC00 == 0xD800;
                let pairs = pairs(v, high, low, split);
                let (len, tail) = bmp_units(v, Some(pairs), dst);
                return (2 * to_utf8::STEP - usize::from(split), len, tail);
            }
            let (len, tail) = bmp_units(v, None, dst);
            (2 * to_utf8::STEP, len, tail)
        }
    }

    #[inline(always)]
    unsafe fn utf32(src: *const u32, dst: *mut u8) -> (usize, Saved) {
        // SAFETY: AVX-512F, BW and VBMI2 by the caller; 16 units at `src` and room for 80
        // bytes at `dst` by the caller, as `any_units` needs.
        unsafe { any_units(_mm512_loadu_si512(src.cast()), dst) }
    }

    #[inline(always)]
    unsafe fn utf32_run(src: &[u32], dst: *mut u8) -> (usize, usize) {
        // SAFETY: by the caller; every CPU with VBMI2 has LZCNT (and `crate::dispatch::Isa::is_supported`
        // checks it).
        unsafe { utf32_run(src, dst) }
    }

    #[inline(always)]
    unsafe fn utf16_tail<S: Utf16Source>(src: &[S], dst: &mut [MaybeUninit<u8>]) -> (usize, usize) {
        // SAFETY: the instruction sets by the caller.
        unsafe { tail_steps::<_, false>(src, dst) }
    }

    #[inline(always)]
    unsafe fn utf32_tail(src: &[u32], dst: &mut [MaybeUninit<u8>]) -> (usize, usize) {
        // SAFETY: the instruction sets by the caller.
        unsafe { tail_steps::<_, false>(src, dst) }
    }
}

/// A unit type (UTF-16 of either byte order, or UTF-32) that [`tail_steps`] converts a step at
/// a time: 32 units of UTF-16 or 16 of UTF-32, or all that are left if fewer.
pub(crate) trait TailStepUnit: Sized {
    /// The units of a whole step.
    const STEP_UNITS: usize;
    /// The units of a step at the start of `src` and their number, loaded with a mask (and put
    /// in the machine's byte order): the lanes past `src` are zeros, ASCII, one byte each after
    /// the step's bytes, which are left out of the stores.
    ///
    /// # Safety
    /// The CPU has AVX-512F, BW and VBMI2.
    unsafe fn load_step(src: &[Self]) -> (__m512i, usize);
    /// The units of `v` as bytes, if all are ASCII.
    ///
    /// # Safety
    /// The CPU has AVX-512F and BW.
    unsafe fn ascii_bytes(v: __m512i) -> Option<__m512i>;
    /// Writes the UTF-8 of the first `units` units of `v` (the step at the start of `src`, not
    /// all ASCII, as [`TailStepUnit::load_step`] gives them) at the start of `dst` if it fits:
    /// the units read and bytes written, or (0, 0).
    ///
    /// # Safety
    /// The CPU has AVX-512F, BW, VBMI and VBMI2, and AVX2.
    unsafe fn other_step(
        src: &[Self],
        v: __m512i,
        units: usize,
        dst: &mut [MaybeUninit<u8>],
    ) -> (usize, usize);
    /// Whether `v` holds a surrogate (UTF-16).
    ///
    /// # Safety
    /// The CPU has AVX-512F and BW.
    unsafe fn has_surrogates(v: __m512i) -> bool;
    /// The UTF-8 of the first `units` units of `v` (the step at the start of a string,
    /// zeros after them), compressed, and its length, if all are below U+0800 and fit in one
    /// register (UTF-16: [`one_two_bytes`]); else `None`.
    ///
    /// # Safety
    /// The CPU has AVX-512F, BW, VBMI and VBMI2.
    unsafe fn one_two_step(v: __m512i, units: usize) -> Option<(__m512i, usize)>;
}

impl<S: Utf16Source> TailStepUnit for S {
    const STEP_UNITS: usize = 2 * to_utf8::STEP;
    #[inline(always)]
    unsafe fn load_step(src: &[S]) -> (__m512i, usize) {
        let units = src.len().min(2 * to_utf8::STEP);
        // SAFETY: AVX-512BW and VBMI2 by the caller; the load reads the first `units` units of
        // `src` (the others are masked off: neither read nor able to fault), which are `u16`s
        // (see `Utf16Source`); zeros swapped are zeros.
        let v = unsafe {
            order::<S>(_mm512_maskz_loadu_epi16(
                low_bits(units) as u32,
                src.as_ptr().cast(),
            ))
        };
        (v, units)
    }

    #[inline(always)]
    unsafe fn ascii_bytes(v: __m512i) -> Option<__m512i> {
        // SAFETY: AVX-512F and BW by the caller.
        unsafe {
            (_mm512_test_epi16_mask(v, _mm512_set1_epi16(0xFF80_u16 as i16)) == 0)
                .then(|| _mm512_castsi256_si512(_mm512_cvtepi16_epi8(v)))
        }
    }

    #[inline(always)]
    unsafe fn other_step(
        src: &[S],
        v: __m512i,
        units: usize,
        dst: &mut [MaybeUninit<u8>],
    ) -> (usize, usize) {
        // SAFETY: by the caller.
        unsafe { utf16_tail_step(src, v, units, dst) }
    }

    #[inline(always)]
    unsafe fn has_surrogates(v: __m512i) -> bool {
        // SAFETY: AVX-512F and BW by the caller.
        unsafe {
            let high_bits = _mm512_and_si512(v, _mm512_set1_epi16(0xF800_u16 as i16));
            _mm512_cmpeq_epi16_mask(high_bits, _mm512_set1_epi16(0xD800_u16 as i16)) != 0
        }
    }

    #[inline(always)]
    unsafe fn one_two_step(v: __m512i, units: usize) -> Option<(__m512i, usize)> {
        // SAFETY: by the caller.
        unsafe {
            if _mm512_test_epi16_mask(v, _mm512_set1_epi16(0xF800_u16 as i16)) != 0 {
                return None;
            }
            // The zeros past `units` give one byte each, the last of the register's.
            let (bytes, len) = one_two_bytes(v);
            Some((bytes, len - (Self::STEP_UNITS - units)))
        }
    }
}

impl TailStepUnit for u32 {
    const STEP_UNITS: usize = to_utf8::STEP;
    #[inline(always)]
    unsafe fn load_step(src: &[u32]) -> (__m512i, usize) {
        let units = src.len().min(to_utf8::STEP);
        // SAFETY: as for UTF-16.
        let v = unsafe { _mm512_maskz_loadu_epi32(low_bits(units) as u16, src.as_ptr().cast()) };
        (v, units)
    }

    #[inline(always)]
    unsafe fn ascii_bytes(v: __m512i) -> Option<__m512i> {
        // SAFETY: AVX-512F by the caller.
        unsafe {
            (_mm512_test_epi32_mask(v, splat32(0xFFFF_FF80)) == 0)
                .then(|| _mm512_castsi128_si512(_mm512_cvtepi32_epi8(v)))
        }
    }

    #[inline(always)]
    unsafe fn other_step(
        _: &[u32],
        v: __m512i,
        units: usize,
        dst: &mut [MaybeUninit<u8>],
    ) -> (usize, usize) {
        // SAFETY: by the caller.
        unsafe { utf32_tail_step(v, units, dst) }
    }

    #[inline(always)]
    unsafe fn has_surrogates(_: __m512i) -> bool {
        false
    }

    #[inline(always)]
    unsafe fn one_two_step(_: __m512i, _: usize) -> Option<(__m512i, usize)> {
        None
    }
}

/// [`CompressSteps::utf16_tail`] and [`CompressSteps::utf32_tail`]: steps until one converts
/// nothing. Steps of ASCII are narrowed, with no compression, whose length the store would wait
/// for.
///
/// With `OTHERS_APART`, for an input that leaves no room for a full step, inlined in the
/// converter: from the first step of other than ASCII, the steps are those of a function of
/// its own. Inlined, the whole converter (or these steps) loads the constants of its steps
/// first, which a string of ASCII pays for nothing (see BENCHMARKS.md).
///
/// # Safety
/// The CPU has AVX-512F, BW, VBMI and VBMI2, AVX2 and POPCNT.
#[inline(always)]
unsafe fn tail_steps<S: TailStepUnit, const OTHERS_APART: bool>(
    src: &[S],
    dst: &mut [MaybeUninit<u8>],
) -> (usize, usize) {
    /// # Safety
    /// As for `tail_steps`.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,avx2,popcnt,bmi2")]
    #[inline(never)]
    unsafe fn others<S: TailStepUnit>(src: &[S], dst: &mut [MaybeUninit<u8>]) -> (usize, usize) {
        // SAFETY: by the caller.
        unsafe { tail_steps::<S, false>(src, dst) }
    }
    let (mut read, mut written) = (0, 0);
    while let Some(rest) = src.get(read..).filter(|r| !r.is_empty()) {
        let out = dst.get_mut(written..).unwrap_or_default();
        // SAFETY: the instruction sets by the caller.
        let (r, w) = unsafe {
            let (v, units) = S::load_step(rest);
            match S::ascii_bytes(v) {
                Some(bytes) => store_ascii_step(bytes, units, out),
                None if OTHERS_APART => {
                    let (r, w) = others(rest, out);
                    return (read + r, written + w);
                }
                None => S::other_step(rest, v, units, out),
            }
        };
        if r == 0 {
            break;
        }
        (read, written) = (read + r, written + w);
    }
    (read, written)
}

/// Converts `src` whole in one or two steps of [`tail_steps`] if it takes no more (at most 64
/// units of UTF-16, 32 of UTF-32), is well-formed, and its bytes fit in `dst`: `Some` of the
/// progress. Else `None`, having written nothing, or only the bytes of the characters of a
/// first step, which the converter then writes again alike. A short string then takes none of
/// the converter's other work (its loop, its ASCII test, the call to the steps of other than
/// ASCII and their setup).
///
/// # Safety
/// The CPU has AVX-512F, BW, VBMI and VBMI2, AVX2 and POPCNT.
#[inline(always)]
unsafe fn short_units<S: TailStepUnit>(src: &[S], dst: &mut [MaybeUninit<u8>]) -> Option<Progress> {
    // SAFETY: by the caller.
    unsafe {
        let (v, units) = S::load_step(src);
        short_units_loaded(src, dst, v, units)
    }
}

/// [`short_units`] with the first step's units loaded: `v`, `units` (as
/// [`TailStepUnit::load_step`] gives them).
///
/// # Safety
/// As for [`short_units`].
#[inline(always)]
unsafe fn short_units_loaded<S: TailStepUnit>(
    src: &[S],
    dst: &mut [MaybeUninit<u8>],
    v: __m512i,
    units: usize,
) -> Option<Progress> {
    // SAFETY: the instruction sets by the caller.
    unsafe {
        if units == 0 || src.len() > 2 * units {
            return None;
        }
        let (read, written) = S::other_step(src, v, units, dst);
        if read == 0 {
            return None;
        }
        let rest = src.get(read..).unwrap_or_default();
        let (read, written) = if rest.is_empty() {
            (read, written)
        } else {
            let (v, units) = S::load_step(rest);
            let out = dst.get_mut(written..).unwrap_or_default();
            let (r, w) = S::other_step(rest, v, units, out);
            (read + r, written + w)
        };
        (read == src.len()).then_some(Progress {
            read,
            written,
            stop: None,
        })
    }
}

/// Converts `src`, of three or four steps of units below U+0800 (Latin, Greek, Cyrillic,
/// Hebrew, Arabic text), into `dst`: four steps loaded (past the end of `src`, none of its
/// units: a step of no units gives no bytes), each one compression, and stored one after the
/// other, with no branch on the length; the bytes written, or `None`, having written nothing,
/// if a step holds a unit from U+0800 or the bytes do not fit.
///
/// # Safety
/// The CPU has AVX-512F, BW, VBMI and VBMI2; `src` has at most four steps' units.
#[inline(always)]
unsafe fn four_one_two_steps<S: TailStepUnit>(
    src: &[S],
    dst: &mut [MaybeUninit<u8>],
) -> Option<usize> {
    /// The `k`-th step of `src` converted by [`TailStepUnit::one_two_step`]. (A function, not a
    /// closure: a closure is compiled without the caller's instruction sets.)
    ///
    /// # Safety
    /// As for `four_one_two_steps`.
    #[inline(always)]
    unsafe fn step<S: TailStepUnit>(src: &[S], k: usize) -> Option<(__m512i, usize)> {
        // SAFETY: by the caller.
        unsafe {
            // Past the end, an empty slice at the end of `src`: a masked load of no units at a
            // dangling pointer (an empty slice's) loads nothing, but the CPU checks the page
            // it would have read, and took a fault's time over it.
            let at = (k * S::STEP_UNITS).min(src.len());
            let (v, units) = S::load_step(src.get(at..).unwrap_or_default());
            S::one_two_step(v, units)
        }
    }
    // SAFETY: by the caller.
    let (a, b, c, d) = unsafe { (step(src, 0)?, step(src, 1)?, step(src, 2)?, step(src, 3)?) };
    let (at_b, at_c, at_d) = (a.1, a.1 + b.1, a.1 + b.1 + c.1);
    let written = at_d + d.1;
    if written > dst.len() {
        return None;
    }
    let out = dst.as_mut_ptr().cast::<u8>();
    // SAFETY: the stores write the first `written` bytes of `dst`, which it has; the
    // instruction sets by the caller.
    unsafe {
        _mm512_mask_storeu_epi8(out.cast(), low_bits(a.1), a.0);
        _mm512_mask_storeu_epi8(out.add(at_b).cast(), low_bits(b.1), b.0);
        _mm512_mask_storeu_epi8(out.add(at_c).cast(), low_bits(c.1), c.0);
        _mm512_mask_storeu_epi8(out.add(at_d).cast(), low_bits(d.1), d.0);
    }
    Some(written)
}

/// The steps of [`short_to_utf8`] for a string of three or four steps' units (at most 128
/// units of UTF-16, 64 of UTF-32): `Ok` with the bytes written if it converted all of `src`,
/// else `Err(0)`, having written nothing, or only the bytes of the characters of the first
/// steps, which the converter then writes again alike.
///
/// # Safety
/// The CPU has AVX-512F, BW, VBMI and VBMI2, AVX2 and POPCNT.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,avx2,popcnt,bmi2")]
#[inline(never)]
unsafe fn short_units_up_to_4_steps<S: TailStepUnit>(
    src: &[S],
    dst: &mut [MaybeUninit<u8>],
) -> Result<usize, usize> {
    if src.len() > 4 * S::STEP_UNITS {
        return Err(0);
    }
    // SAFETY: the instruction sets by the caller.
    if let Some(written) = unsafe { four_one_two_steps(src, dst) } {
        return Ok(written);
    }
    // Surrogate pairs (emoji, say) are the converter's: its steps of pairs convert strings of
    // them in half the time of these steps. (Tested on the first step's units.)
    // SAFETY: the instruction sets by the caller.
    if unsafe { S::has_surrogates(S::load_step(src).0) } {
        return Err(0);
    }
    let (mut read, mut written) = (0, 0);
    // At most four steps: a step may take fewer units than it loaded (it stops before a
    // surrogate pair it cannot take whole, say), and a string of those is the converter's.
    for _ in 0..4 {
        if read == src.len() {
            return Ok(written);
        }
        let (rest, out) = (
            src.get(read..).unwrap_or_default(),
            dst.get_mut(written..).unwrap_or_default(),
        );
        // SAFETY: the instruction sets by the caller.
        let (r, w) = unsafe {
            let (v, units) = S::load_step(rest);
            S::other_step(rest, v, units, out)
        };
        if r == 0 {
            return Err(0);
        }
        (read, written) = (read + r, written + w);
    }
    if read == src.len() {
        Ok(written)
    } else {
        Err(0)
    }
}

/// The most steps of [`short_to_utf8`]: strings of up to 256 units of UTF-16, 128 of UTF-32
/// (512 bytes). Strings of 256 bytes of UTF-8 in Latin scripts are about 240 units of UTF-16,
/// and took a third longer through the converter's loop (see BENCHMARKS.md).
pub(crate) const SHORT_STEPS: usize = 8;

/// The steps of [`short_to_utf8`] for a string of five to [`SHORT_STEPS`] steps' units: `Ok`
/// with the bytes written if it converted all of `src`, else `Err(0)`, having written nothing,
/// or only the bytes of the characters of the first steps, which the converter then writes
/// again alike. Each step of units below U+0800 (Latin, Greek, Cyrillic, Hebrew, Arabic text,
/// ASCII among it) is one compression and one store; from the first other step on, the steps
/// of any units, [`short_other_steps`], out of line, so that this loop loads none of their
/// constants.
///
/// # Safety
/// The CPU has AVX-512F, BW, VBMI and VBMI2, AVX2 and POPCNT.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,avx2,popcnt,bmi2")]
#[inline(never)]
unsafe fn short_steps_up_to_8<S: TailStepUnit>(
    src: &[S],
    dst: &mut [MaybeUninit<u8>],
) -> Result<usize, usize> {
    if src.len() > SHORT_STEPS * S::STEP_UNITS {
        return Err(0);
    }
    let (mut read, mut written) = (0, 0);
    while let Some(rest) = src.get(read..).filter(|r| !r.is_empty()) {
        let out = dst.get_mut(written..).unwrap_or_default();
        // SAFETY: the instruction sets by the caller; the store writes the first `len` bytes
        // of `out`, which it has.
        unsafe {
            let (v, units) = S::load_step(rest);
            let Some((bytes, len)) = S::one_two_step(v, units) else {
                return short_other_steps(rest, out, (v, units)).map(|w| written + w);
            };
            if len > out.len() {
                return Err(0);
            }
            _mm512_mask_storeu_epi8(out.as_mut_ptr().cast(), low_bits(len), bytes);
            (read, written) = (read + units, written + len);
        }
    }
    Ok(written)
}

/// The steps of [`short_steps_up_to_8`] from the first that holds a unit from U+0800
/// (`first`: its units loaded, and their number), each as [`tail_steps`] converts one of
/// other than ASCII: `Ok` with the bytes written if they converted all of `src`. Surrogate
/// pairs in that step (emoji, say) leave the string to the converter, as for
/// [`short_units_up_to_4_steps`].
///
/// # Safety
/// The CPU has AVX-512F, BW, VBMI and VBMI2, AVX2 and POPCNT; `first` is loaded from `src` by
/// [`TailStepUnit::load_step`].
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,avx2,popcnt,bmi2")]
#[inline(never)]
unsafe fn short_other_steps<S: TailStepUnit>(
    src: &[S],
    dst: &mut [MaybeUninit<u8>],
    (mut v, mut units): (__m512i, usize),
) -> Result<usize, usize> {
    // SAFETY: the instruction sets by the caller.
    unsafe {
        if S::has_surrogates(v) {
            return Err(0);
        }
        let (mut read, mut written, mut rest) = (0, 0, src);
        loop {
            let out = dst.get_mut(written..).unwrap_or_default();
            let (r, w) = S::other_step(rest, v, units, out);
            if r == 0 {
                return Err(0);
            }
            (read, written) = (read + r, written + w);
            match src.get(read..).filter(|r| !r.is_empty()) {
                Some(next) => {
                    rest = next;
                    (v, units) = S::load_step(rest);
                }
                None => return Ok(written),
            }
        }
    }
}

/// [`short_units`] as a function of its own, which the dispatch calls before the plain loops
/// of `engine::short` and before the converter (`Kernels::short`, `ShortConverters`), with the
/// input and output of `call`, as `from_utf8::short_utf8` from UTF-8; for strings of three or
/// four steps, [`short_units_up_to_4_steps`], of five or more [`short_steps_up_to_8`] (apart:
/// in one loop, the strings of one or two steps took longer). A string of one or two
/// registers of UTF-16 below U+0800 (Latin, Greek, Cyrillic, Hebrew, Arabic text) takes one
/// compression a register without the steps' bookkeeping. `Ok` with the bytes written, if it
/// converted all of the input, else `Err(0)`.
///
/// # Safety
/// The CPU has AVX-512F, BW, VBMI and VBMI2, AVX2 and POPCNT.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,avx2,popcnt,bmi2")]
pub(crate) unsafe fn short_to_utf8<S: TailStepUnit>(
    call: &mut ShortCall<'_, S, u8>,
) -> Result<usize, usize> {
    // SAFETY: by the caller.
    unsafe { short_string_to_utf8(call.src, call.dst) }
}

/// [`short_to_utf8`] with the input and output as they are, inlined into a caller compiled for
/// the same instruction sets (also the C functions' own path where AVX-512 is in use: see
/// `ffi::transcode`).
///
/// # Safety
/// As for [`short_to_utf8`].
#[inline(always)]
pub(crate) unsafe fn short_string_to_utf8<S: TailStepUnit>(
    src: &[S],
    dst: &mut [MaybeUninit<u8>],
) -> Result<usize, usize> {
    // SAFETY: by the caller.
    unsafe { narrow_string_to_utf8(src, dst).unwrap_or_else(|| wide_string_to_utf8(src, dst)) }
}

/// [`short_string_to_utf8`] for a string that [`narrow_string_to_utf8`] does not take.
///
/// # Safety
/// As for [`short_to_utf8`].
#[inline(always)]
pub(crate) unsafe fn wide_string_to_utf8<S: TailStepUnit>(
    src: &[S],
    dst: &mut [MaybeUninit<u8>],
) -> Result<usize, usize> {
    // SAFETY: by the caller.
    unsafe {
        if src.len() > 4 * S::STEP_UNITS {
            return short_steps_up_to_8(src, dst);
        }
        if src.len() > 2 * S::STEP_UNITS {
            return short_units_up_to_4_steps(src, dst);
        }
        let (v, units) = S::load_step(src);
        short_units_loaded(src, dst, v, units)
            .map(|done| done.written)
            .ok_or(0)
    }
}

/// [`short_string_to_utf8`] for a string of one or two registers of units below U+0800 (Latin,
/// Greek, Cyrillic, Hebrew, Arabic text): one compression a register, without the steps'
/// bookkeeping. `Some` of `Ok` with the bytes written, or of `Err(0)` if they do not fit (or
/// there are none); `None`, having written nothing, for any other string.
///
/// # Safety
/// As for [`short_to_utf8`].
#[inline(always)]
pub(crate) unsafe fn narrow_string_to_utf8<S: TailStepUnit>(
    src: &[S],
    dst: &mut [MaybeUninit<u8>],
) -> Option<Result<usize, usize>> {
    if src.len() > 2 * S::STEP_UNITS {
        return None;
    }
    // SAFETY: the instruction sets by the caller; the stores write the first `len` bytes of
    // `dst`, which it has.
    unsafe {
        let (v, units) = S::load_step(src);
        let (bytes, len) = S::one_two_step(v, units)?;
        if units == src.len() {
            if units == 0 || len > dst.len() {
                return Some(Err(0));
            }
            _mm512_mask_storeu_epi8(dst.as_mut_ptr().cast(), low_bits(len), bytes);
            return Some(Ok(len));
        }
        // Two steps below U+0800 (the first whole): two compressions and two stores, without
        // the steps' bookkeeping (a loop of such steps, for up to four, gave every string more
        // instructions: see BENCHMARKS.md).
        let rest = src.get(units..).unwrap_or_default();
        let (w, rest_units) = S::load_step(rest);
        if rest_units != rest.len() {
            return None;
        }
        let (rest_bytes, rest_len) = S::one_two_step(w, rest_units)?;
        if len + rest_len > dst.len() {
            return Some(Err(0));
        }
        let at = dst.as_mut_ptr().cast::<u8>();
        _mm512_mask_storeu_epi8(at.cast(), low_bits(len), bytes);
        _mm512_mask_storeu_epi8(at.add(len).cast(), low_bits(rest_len), rest_bytes);
        Some(Ok(len + rest_len))
    }
}

/// Stores the `units` bytes of a step of ASCII at the start of `dst` if they fit: the units
/// read and bytes written, or (0, 0).
///
/// # Safety
/// The CPU has AVX-512BW.
#[inline(always)]
unsafe fn store_ascii_step(
    bytes: __m512i,
    units: usize,
    dst: &mut [MaybeUninit<u8>],
) -> (usize, usize) {
    if units > dst.len() {
        return (0, 0);
    }
    // SAFETY: the store writes the first `units` bytes of `dst`, which it has; AVX-512BW by
    // the caller.
    unsafe { _mm512_mask_storeu_epi8(dst.as_mut_ptr().cast(), low_bits(units), bytes) };
    (units, units)
}

/// A step of [`CompressSteps::utf16_tail`] of other than ASCII: the `units` units of `v`, the first
/// of `src` (see [`TailStepUnit::load_step`]), into `dst` if they fit, else (0, 0).
///
/// # Safety
/// The CPU has AVX-512F, BW, VBMI and VBMI2, and AVX2.
#[inline(always)]
unsafe fn utf16_tail_step<S: Utf16Source>(
    src: &[S],
    v: __m512i,
    units: usize,
    dst: &mut [MaybeUninit<u8>],
) -> (usize, usize) {
    // SAFETY: the instruction sets by the caller; the stores write the first `first + second`
    // bytes of `dst`, which it has.
    unsafe {
        // As `utf16` tells them apart, but for all surrogate pairs, which `bmp_bytes` takes.
        let halves = _mm512_or_si512(v, _mm512_shuffle_i64x2::<0b1110>(v, v));
        let above = _mm256_set1_epi16(0xF800_u16 as i16);
        // The zeros past `units` (see `TailStepUnit::load_step`) give one byte each, the last of
        // their register's bytes, which `lens` leaves out.
        let (regs, lens, read) = if _mm256_testz_si256(_mm512_castsi512_si256(halves), above) != 0 {
            let (bytes, len) = one_two_bytes(v);
            (
                [bytes, bytes],
                [len - (2 * to_utf8::STEP - units), 0],
                2 * to_utf8::STEP,
            )
        } else {
            let kind = _mm512_and_si512(v, _mm512_set1_epi16(0xFC00_u16 as i16));
            let high = _mm512_cmpeq_epi16_mask(kind, _mm512_set1_epi16(0xD800_u16 as i16));
            let low = _mm512_cmpeq_epi16_mask(kind, _mm512_set1_epi16(0xDC00_u16 as i16));
            // A high surrogate that ends input of fewer than 32 units is followed by a zero,
            // and refused with the lone ones.
            if low != high << 1 {
                return (0, 0);
            }
            // From memory, not from the masks, as in `utf16`: the next step's load waits for it.
            // Lane 31 is a unit of `src` only in a whole step.
            let split = src
                .get(2 * to_utf8::STEP - 1)
                .is_some_and(|u| u.value() & 0xFC00 == 0xD800);
            let pairs = (high != 0).then(|| pairs(v, high, low, split));
            if units <= to_utf8::STEP {
                // The first 16 lanes alone: one compression, not two.
                let pairs = pairs.map(|p| (_mm512_castsi512_si256(p.bytes), p.lanes as u16, false));
                let (bytes, len) = bmp_lanes(_mm512_castsi512_si256(v), pairs);
                ([bytes, bytes], [len - (to_utf8::STEP - units), 0], units)
            } else {
                let (regs, [first, second]) = bmp_bytes(v, pairs);
                let lens = [first, second - (2 * to_utf8::STEP - units)];
                (regs, lens, 2 * to_utf8::STEP - usize::from(split))
            }
        };
        let (read, [first, second]) = (read.min(units), lens);
        if read == 0 || first + second > dst.len() {
            return (0, 0);
        }
        let at = dst.as_mut_ptr().cast::<u8>();
        _mm512_mask_storeu_epi8(at.cast(), low_bits(first), regs[0]);
        if second > 0 {
            _mm512_mask_storeu_epi8(at.add(first).cast(), low_bits(second), regs[1]);
        }
        (read, first + second)
    }
}

/// A step of [`CompressSteps::utf32_tail`] of other than ASCII, as [`utf16_tail_step`] converts
/// UTF-16.
///
/// # Safety
/// The CPU has AVX-512F, BW and VBMI2.
#[inline(always)]
unsafe fn utf32_tail_step(c: __m512i, units: usize, dst: &mut [MaybeUninit<u8>]) -> (usize, usize) {
    // SAFETY: as for `utf16_tail_step`.
    unsafe {
        let Some((bytes, len)) = any_bytes(c) else {
            return (0, 0);
        };
        let len = len - (to_utf8::STEP - units);
        if units == 0 || len > dst.len() {
            return (0, 0);
        }
        _mm512_mask_storeu_epi8(dst.as_mut_ptr().cast(), low_bits(len), bytes);
        (units, len)
    }
}

/// Writes the UTF-8 of the 16 scalar values of `c`, 16 to 64 bytes, at `dst`, and nothing
/// after them: their number, and the 16 bytes after them; or (0, _), nothing written, if they
/// hold a surrogate or a value above U+10FFFF.
///
/// # Safety
/// The CPU has AVX-512F, BW and VBMI2; room for 80 bytes at `dst`.
#[inline(always)]
unsafe fn any_units(c: __m512i, dst: *mut u8) -> (usize, Saved) {
    // SAFETY: by the caller: the store ends with the step's 16 to 64 bytes, the load 16 bytes
    // after them.
    unsafe {
        let Some((out, len)) = any_bytes(c) else {
            return (0, Saved::NONE);
        };
        // Stored as `one_two_units` stores, which is faster on CJK text than as `pairs_units`
        // stores.
        let tail = Saved::load(dst.add(len));
        _mm512_mask_storeu_epi8(dst.cast(), u64::MAX >> (64 - len), out);
        (len, tail)
    }
}

/// The UTF-8 of the 16 scalar values of `c`, 16 to 64 bytes, compressed, and their number; or
/// `None` if they hold a surrogate or a value above U+10FFFF.
///
/// # Safety
/// The CPU has AVX-512F, BW and VBMI2.
#[inline(always)]
unsafe fn any_bytes(c: __m512i) -> Option<(__m512i, usize)> {
    // SAFETY: by the caller.
    unsafe {
        let too_large = _mm512_cmpgt_epu32_mask(c, splat32(0x10_FFFF));
        let kind = _mm512_and_si512(c, splat32(0xFFFF_F800));
        if too_large | _mm512_cmpeq_epi32_mask(kind, splat32(0xD800)) != 0 {
            return None;
        }
        // Every lane's form, whatever the mix of lengths: no branch on the kind of text.
        let bytes = form_bytes(c);
        let wide2 = _mm512_cmpgt_epu32_mask(c, splat32(0x7F));
        let wide3 = _mm512_cmpgt_epu32_mask(c, splat32(0x7FF));
        let wide4 = _mm512_cmpgt_epu32_mask(c, splat32(0xFFFF));
        let two = _mm512_srli_epi32::<16>(bytes);
        let lanes = _mm512_mask_or_epi32(c, wide2, two, splat32(0x80C0));
        let three = _mm512_srli_epi32::<8>(bytes);
        let lanes = _mm512_mask_or_epi32(lanes, wide3, three, splat32(0x80_80E0));
        let lanes = _mm512_mask_or_epi32(lanes, wide4, bytes, splat32(0x8080_80F0));
        // The bytes of a form are those that are not zero, but for the first, which is
        // zero for U+0000 and never FF (as for `bmp_lanes`).
        let keep = _mm512_cmpneq_epi8_mask(lanes, splat32(0xFF));
        let len = keep.count_ones() as usize;
        Some((compress_bytes(keep, lanes), len))
    }
}

/// [`CompressSteps::utf32_run`]: 32 units at a time, of ASCII, or all below U+0800 as
/// [`CompressSteps::utf16`] converts them, or else 16 at a time, of ASCII or of any scalar
/// values as [`CompressSteps::utf32`] converts them: with no test through `Avx2StepRegister`
/// first, nor a branch between steps of different kinds through the converter's loop. A function
/// of its own, out of line as `narrow_run` is.
///
/// # Safety
/// As for [`CompressSteps::utf32_run`]; the CPU has AVX-512F, BW, VBMI and VBMI2, POPCNT and LZCNT.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt,lzcnt,bmi2")]
#[inline(never)]
unsafe fn utf32_run(src: &[u32], dst: *mut u8) -> (usize, usize) {
    let (mut read, mut written) = (0, 0);
    // SAFETY: by the caller: 32 units at `read` by the loop condition, room for 4 bytes per
    // unit of `src` and 16 more at `dst`, so for 80 bytes at `written` before each 32 units.
    unsafe {
        while src.len() - read >= 32 {
            let at = src.as_ptr().add(read);
            let out = dst.add(written);
            let (a, b) = (
                _mm512_loadu_si512(at.cast()),
                _mm512_loadu_si512(at.add(16).cast()),
            );
            let both = _mm512_or_si512(a, b);
            let halves = _mm256_or_si256(
                _mm512_castsi512_si256(both),
                _mm512_extracti64x4_epi64::<1>(both),
            );
            if _mm256_testz_si256(halves, _mm256_set1_epi32(!0x7F)) != 0 {
                _mm_storeu_si128(out.cast(), _mm512_cvtepi32_epi8(a));
                _mm_storeu_si128(out.add(16).cast(), _mm512_cvtepi32_epi8(b));
                read += 32;
                written += 32;
                continue;
            }
            if _mm256_testz_si256(halves, _mm256_set1_epi32(!0x7FF)) != 0 {
                let v = _mm512_inserti64x4::<1>(
                    _mm512_castsi256_si512(_mm512_cvtepi32_epi16(a)),
                    _mm512_cvtepi32_epi16(b),
                );
                written += one_two_units(v, out).0;
                read += 32;
                continue;
            }
            // Each 16 units of ASCII as such (the markup of CJK text), the others in one
            // step each.
            let mut stop = false;
            for c in [a, b] {
                let out = dst.add(written);
                let halves =
                    _mm256_or_si256(_mm512_castsi512_si256(c), _mm512_extracti64x4_epi64::<1>(c));
                let len = if _mm256_testz_si256(halves, _mm256_set1_epi32(!0x7F)) != 0 {
                    _mm_storeu_si128(out.cast(), _mm512_cvtepi32_epi8(c));
                    16
                } else {
                    any_units(c, out).0
                };
                if len == 0 {
                    stop = true;
                    break;
                }
                read += 16;
                written += len;
            }
            if stop {
                break;
            }
        }
    }
    (read, written)
}

/// [`crate::transcode::utf32::utf32_to_utf8`] with AVX2's registers and the run of 32-unit
/// steps ([`utf32_run`]), then its 16-unit step of any scalar values near the end.
///
/// # Safety
/// The CPU supports AVX-512F, BW, VBMI and VBMI2, AVX2 and POPCNT.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,avx2,popcnt,bmi2")]
pub(crate) unsafe fn utf32_to_utf8(
    src: &[u32],
    dst: &mut [MaybeUninit<u8>],
    mode: Mode,
) -> Progress {
    // SAFETY: the CPU has the instruction set by our contract.
    if let Some(done) = unsafe { short_units(src, dst) } {
        return done;
    }
    /// The converter with its full steps, for input that leaves room for them.
    ///
    /// # Safety
    /// The CPU supports AVX-512F, BW, VBMI and VBMI2, AVX2 and POPCNT.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,avx2,popcnt,bmi2")]
    #[inline(never)]
    unsafe fn steps(s: &[u32], d: &mut [MaybeUninit<u8>]) -> (usize, usize) {
        // SAFETY: the registers need the instruction set, which the CPU has.
        unsafe { to_utf8::utf32_to_utf8::<Avx2StepRegister, Avx512CompressSteps<true>>(s, d) }
    }
    // SAFETY: the CPU has the instruction set by our contract.
    let fast = |s: &[u32], d: &mut [MaybeUninit<u8>]| unsafe {
        if to_utf8::utf32_steps_fit(s.len(), d.len()) {
            steps(s, d)
        } else {
            tail_steps::<_, true>(s, d)
        }
    };
    utf32::utf32_to_utf8_using(src, dst, mode, fast)
}

/// [`crate::transcode::utf16::utf16_to_utf8`] with AVX2's registers and the 32-unit step, from
/// UTF-16 of the machine's byte order (`u16`) or of the other (`U16Swapped`). With
/// `LONG_ASCII_RUNS` (Intel), the loop leaves the steps only for runs of ASCII of at least 96
/// units (see [`Avx512CompressSteps::ascii_ahead`]); without (AMD Zen 4, whose branch predictor and
/// 512-bit loads favour the other way), wherever the first 16 units of a step are ASCII, as
/// AVX2's does (see BENCHMARKS.md for the measurements of both ways on both CPUs).
///
/// # Safety
/// The CPU supports AVX-512F, BW, VBMI and VBMI2, AVX2 and POPCNT.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,avx2,popcnt,bmi2")]
pub(crate) unsafe fn utf16_to_utf8<const LONG_ASCII_RUNS: bool, S: Utf16Source>(
    src: &[S],
    dst: &mut [MaybeUninit<u8>],
    mode: Mode,
) -> Progress {
    // SAFETY: the CPU has the instruction set by our contract.
    if let Some(done) = unsafe { short_units(src, dst) } {
        return done;
    }
    /// The converter with its full steps, for input that leaves room for them.
    ///
    /// # Safety
    /// As for `utf16_to_utf8`.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,avx2,popcnt,bmi2")]
    #[inline(never)]
    unsafe fn steps<const LONG_ASCII_RUNS: bool, S: Utf16Source>(
        s: &[S],
        d: &mut [MaybeUninit<u8>],
    ) -> (usize, usize) {
        // SAFETY: the registers need the instruction set, which the CPU has.
        unsafe {
            to_utf8::utf16_to_utf8::<Avx2StepRegister, Avx512CompressSteps<LONG_ASCII_RUNS>, S>(
                s, d,
            )
        }
    }
    // SAFETY: as for `utf32_to_utf8`.
    let fast = |s: &[S], d: &mut [MaybeUninit<u8>]| unsafe {
        if to_utf8::utf16_steps_fit(s.len(), d.len()) {
            steps::<LONG_ASCII_RUNS, S>(s, d)
        } else {
            tail_steps::<_, true>(s, d)
        }
    };
    utf16::utf16_to_utf8_using(src, dst, mode, fast)
}
