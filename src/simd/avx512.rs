//! The AVX-512 kernel: one 64-byte register per block, AVX-512F, BW and VBMI instructions.
//!
//! It validates and counts. The converters are AVX2's (see `super::AVX512`), but the one from
//! UTF-16 into UTF-8 also takes steps of 32 units below U+0800 in one register and of 32 units
//! of any other characters (31 where the last is a high surrogate), the one from UTF-32 into
//! UTF-8 a run of the same 32-unit step below U+0800 and of 16 units of any scalar values, and
//! those from UTF-8 into UTF-16 and UTF-32 runs of blocks of 64 bytes of 1-3 byte characters at
//! a fixed stride, and steps of characters of any lengths, or of sixteen 4-byte ones (VL, VBMI
//! and VBMI2). The implementation is chosen only where all of these are present (see
//! `super::Isa::is_supported`).

use core::arch::x86_64::*;
use core::mem::MaybeUninit;

use super::avx2::{Avx2, Avx2Units};
use super::from_utf8::{self, WideBlock};
use super::lookup::Vector;
use super::to_utf8::{self, Saved, WideStep};
use crate::engine::{Mode, Progress, utf16, utf32};

#[derive(Clone, Copy)]
pub(crate) struct Avx512(__m512i);

// SAFETY: every method uses AVX-512F, BW and VBMI instructions only, and the trait's contract
// makes callers guarantee that the CPU has them.
unsafe impl Vector for Avx512 {
    const LANES: usize = 64;

    #[inline(always)]
    unsafe fn splat(b: u8) -> Self {
        // SAFETY: the caller guarantees AVX-512F, BW and VBMI.
        Avx512(unsafe { _mm512_set1_epi8(b as i8) })
    }

    #[inline(always)]
    unsafe fn load(src: &[u8]) -> Self {
        debug_assert!(src.len() >= Self::LANES);
        // SAFETY: `src` holds at least 64 readable bytes; loadu has no alignment requirement.
        Avx512(unsafe { _mm512_loadu_si512(src.as_ptr().cast()) })
    }

    #[inline(always)]
    unsafe fn load_end(src: &[u8], len: usize) -> Self {
        debug_assert!(0 < len && len < Self::LANES);
        // SAFETY: a masked load reads only the lanes its mask selects, here the last `len`,
        // at the addresses of the first `len` bytes of `src`; the other lanes are zeros and
        // their addresses, before `src`, are not accessed (no fault, no read). (VBMI2's
        // expanding load would need no address before `src`, but Miri cannot run it.)
        Avx512(unsafe {
            let base = src.as_ptr().wrapping_sub(64 - len);
            _mm512_maskz_loadu_epi8(!0 << (64 - len), base.cast())
        })
    }

    #[inline(always)]
    unsafe fn load_partial(src: &[u8]) -> Self {
        debug_assert!(!src.is_empty() && src.len() <= Self::LANES);
        // One shift, not a shift and a test for 64 lanes: five instructions fewer, which
        // strings of 16 mixed bytes took 6-10% less time for (Emerald Rapids, A/B).
        let mask = !0u64 >> (64 - src.len());
        // SAFETY: a masked load reads only the bytes its mask selects, the first `src.len()`,
        // which are inside `src`; the others are zeros and their memory is not accessed (no
        // fault).
        Avx512(unsafe { _mm512_maskz_loadu_epi8(mask, src.as_ptr().cast()) })
    }

    // `lookup`, `high_nibbles` and `low_nibbles` are the trait's building blocks of
    // `lookup_high` and `lookup_low`, which this kernel overrides below (vpermb needs no nibble
    // masking): nothing calls them here. They stay correct, so that a default method built on
    // them would be too.
    #[inline(always)]
    unsafe fn lookup(self, table: &[u8; 16]) -> Self {
        // SAFETY: `table` holds 16 readable bytes. pshufb works within 128-bit lanes: the
        // table is in each of them.
        unsafe {
            let t = _mm512_broadcast_i32x4(_mm_loadu_si128(table.as_ptr().cast()));
            Avx512(_mm512_shuffle_epi8(t, self.0))
        }
    }

    #[inline(always)]
    unsafe fn high_nibbles(self) -> Self {
        // SAFETY: AVX-512BW by the caller.
        unsafe {
            Avx512(_mm512_and_si512(
                _mm512_srli_epi16::<4>(self.0),
                _mm512_set1_epi8(0x0F),
            ))
        }
    }

    #[inline(always)]
    unsafe fn lookup_high(self, table: &[u8; 16]) -> Self {
        // SAFETY: `table` holds 16 readable bytes; AVX-512F, BW and VBMI by the caller.
        unsafe {
            // vpermb indexes 64 bytes with the low six bits of each lane: with the table four
            // times over, it ignores bits 4 and 5, which after a shift of 16-bit lanes hold
            // bits of the next byte, so the shift needs no mask (one instruction fewer than
            // vpshufb, which zeroes lanes whose bit 7 is set). Intel Xeon (Emerald Rapids),
            // same run, 3 rounds: Russian lipsum 1.46 -> 1.66x simdutf, German 1.02 -> 1.05x,
            // Esperanto 1.05 -> 1.10x. AMD Zen 4, A/B of builds in one process: corpus files
            // 1.04-1.2x as fast as with vpshufb.
            let t = _mm512_broadcast_i32x4(_mm_loadu_si128(table.as_ptr().cast()));
            Avx512(_mm512_permutexvar_epi8(_mm512_srli_epi16::<4>(self.0), t))
        }
    }

    #[inline(always)]
    unsafe fn lookup_low(self, table: &[u8; 16]) -> Self {
        // SAFETY: `table` holds 16 readable bytes; AVX-512F, BW and VBMI by the caller.
        unsafe {
            // As in `lookup_high`: bits 4 and 5 choose among copies of the table, and bits 6
            // and 7 are ignored, so no mask.
            let t = _mm512_broadcast_i32x4(_mm_loadu_si128(table.as_ptr().cast()));
            Avx512(_mm512_permutexvar_epi8(self.0, t))
        }
    }

    #[inline(always)]
    unsafe fn low_nibbles(self) -> Self {
        // SAFETY: AVX-512F by the caller.
        unsafe { Avx512(_mm512_and_si512(self.0, _mm512_set1_epi8(0x0F))) }
    }

    // Three loads instead of four shuffles (valignq and three vpalignr), which on Intel run on
    // port 5 only: loads have ports of their own. Intel Xeon (Emerald Rapids), libutf8 /
    // simdutf validate_utf8, same run, 3 rounds: Russian lipsum 1.23 -> 1.43x, German
    // Wikipedia 0.99 -> 1.01x. AMD Zen 4, A/B of builds in one process: corpus files
    // 1.07-1.39x as fast as with the shuffles.
    const PREV_FROM_MEMORY: bool = true;
    // A block costs less to check than a mispredicted branch (see `valid_blocks`). AMD Zen 4:
    // corpus files 0.99-1.01x, fresh text 0.98-1.04x the speed of groups of up to four.
    const GROUP_OF_THREE: bool = true;

    #[inline(always)]
    unsafe fn prev<const N: i32>(self, prev: Self) -> Self {
        // SAFETY: AVX-512F and BW by the caller.
        unsafe {
            // alignr works within 128-bit lanes: pair each lane with the one before it, the
            // last of `prev` before the first. (VBMI's two-register byte permutation would do
            // it in one instruction, but LLVM turns that back into these two.)
            let before = _mm512_alignr_epi64::<6>(self.0, prev.0);
            Avx512(match N {
                1 => _mm512_alignr_epi8::<15>(self.0, before),
                2 => _mm512_alignr_epi8::<14>(self.0, before),
                _ => _mm512_alignr_epi8::<13>(self.0, before),
            })
        }
    }

    #[inline(always)]
    unsafe fn and(self, other: Self) -> Self {
        // SAFETY: AVX-512F by the caller.
        unsafe { Avx512(_mm512_and_si512(self.0, other.0)) }
    }

    #[inline(always)]
    unsafe fn or(self, other: Self) -> Self {
        // SAFETY: AVX-512F by the caller.
        unsafe { Avx512(_mm512_or_si512(self.0, other.0)) }
    }

    #[inline(always)]
    unsafe fn xor(self, other: Self) -> Self {
        // SAFETY: AVX-512F by the caller.
        unsafe { Avx512(_mm512_xor_si512(self.0, other.0)) }
    }

    #[inline(always)]
    unsafe fn saturating_sub(self, other: Self) -> Self {
        // SAFETY: AVX-512BW by the caller.
        unsafe { Avx512(_mm512_subs_epu8(self.0, other.0)) }
    }

    #[inline(always)]
    unsafe fn any_high_bit(self) -> bool {
        // SAFETY: AVX-512BW by the caller.
        unsafe { _mm512_movepi8_mask(self.0) != 0 }
    }

    #[inline(always)]
    unsafe fn any_nonzero(self) -> bool {
        // SAFETY: AVX-512F by the caller.
        unsafe { _mm512_test_epi64_mask(self.0, self.0) != 0 }
    }

    #[inline(always)]
    unsafe fn count_continuations(self) -> u32 {
        // SAFETY: AVX-512BW by the caller. As signed bytes, 80..BF are exactly those below
        // -64 (C0).
        unsafe { _mm512_cmplt_epi8_mask(self.0, _mm512_set1_epi8(-64)).count_ones() }
    }
}

super::lookup::block_kernels!("avx512f,avx512bw,avx512vbmi,popcnt", Avx512);

// ---------------------------------------------------------------------------------------------
// UTF-16 into UTF-8: AVX2's converter (see super::to_utf8), with steps of 32 units below U+0800
// in one register, and of 32 units of any other characters in two registers of 32-bit lanes,
// their bytes compressed by a mask (VBMI2), after the idea of Robert Clausecker and Daniel
// Lemire, "Transcoding Unicode Characters with AVX-512 Instructions", Software: Practice and
// Experience, 2023. Each surrogate of a pair gives two of its four bytes in its own lane, as
// in AVX2's steps, so that text with a few supplementary characters (emoji among other
// text) takes the same steps as text with none.

/// Every 32-bit lane set to `x`.
///
/// # Safety
/// The CPU has AVX-512F.
#[inline(always)]
unsafe fn splat32(x: u32) -> __m512i {
    // SAFETY: AVX-512F by the caller.
    unsafe { _mm512_set1_epi32(x as i32) }
}

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
        // would wait for it (Zen 4: with that load, corpus geometric mean 0.90-0.96x simdutf
        // against 1.17-1.19x for the register stored whole and the 32 bytes after `len` put
        // back; with this one the same, lipsum Hebrew and Russian 14-19% faster).
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
        (
            _mm512_maskz_compress_epi8(keep, lanes),
            keep.count_ones() as usize,
        )
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
/// them; a high surrogate in the last lane gives nothing. Against AVX2's steps of 16 units,
/// lipsum Chinese, Japanese, Korean and Hindi convert 1.7-1.8x as fast, Wikipedia text in
/// those scripts 1.3-1.45x (Intel Xeon, Emerald Rapids). AMD Zen 4, fresh text, A/B in one
/// process, both with Zen 4's loop (see [`utf16_to_utf8`]): 1.07-1.14x and 1.02-1.06x.
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
        // Each lane's three bytes, the lead byte low: 1110xxxx 10xxxxxx 10xxxxxx; and its two
        // bytes, 110xxxxx 10xxxxxx, which below U+0800 are the last two of those with the
        // second's marker bit 0x40 set.
        let lead = _mm512_srli_epi32::<12>(c);
        let middle = _mm512_slli_epi32::<2>(c);
        let last = _mm512_slli_epi32::<16>(c);
        let three = _mm512_ternarylogic_epi32::<0xF8>(lead, middle, splat32(0x3F00));
        let three = _mm512_ternarylogic_epi32::<0xF8>(three, last, splat32(0x3F_0000));
        let three = _mm512_or_si512(three, splat32(0x80_80E0));
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
        // The first byte of each lane, and those after it that hold a marker bit.
        let keep =
            (_mm512_test_epi8_mask(lanes, splat32(0x00FF_FF00)) | 0x1111_1111_1111_1111) & given;
        (
            _mm512_maskz_compress_epi8(keep, lanes),
            keep.count_ones() as usize,
        )
    }
}

/// The steps of AVX-512 VBMI2, with [`WideStep::LONG_ASCII_RUNS`] as `LONG_ASCII_RUNS` (see
/// [`utf16_to_utf8`]).
pub(crate) struct Avx512WideStep<const LONG_ASCII_RUNS: bool>;

// SAFETY: AVX-512F, BW, VBMI and VBMI2 instructions, and AVX2's; callers guarantee the CPU has
// them.
unsafe impl<const LONG_ASCII_RUNS: bool> WideStep for Avx512WideStep<LONG_ASCII_RUNS> {
    const LONG_ASCII_RUNS: bool = LONG_ASCII_RUNS;

    /// 96 units: more, and the test costs text of other characters more than it saves; fewer,
    /// and Wikipedia text gains less. Fresh text (see bench/README.md), against a test of the
    /// first 16 units at every step, A/B in one process: Czech, French, Russian and Turkish
    /// 1.6-2.0x as fast with 96, 1.35-1.6x with 64, 1.8-2.1x with 128; Chinese 1.22x, 1.27x,
    /// 1.06x; English, Hindi and Thai 0.96-0.99x; lipsum text 0.96-1.05x, random mixed text
    /// 0.94x. The files processed again and again, which the predictors learn: 0.81-1.08x,
    /// French 1.5x. (Intel Xeon, Emerald Rapids. AMD Zen 4 is the other way round: see
    /// [`utf16_to_utf8`].)
    #[inline(always)]
    unsafe fn ascii_ahead(src: *const u16, units: usize) -> bool {
        const RUN: usize = 96;
        if units < RUN {
            return false;
        }
        // SAFETY: AVX-512F and BW by the caller; RUN units at `src`, checked above.
        unsafe {
            let mut bits = _mm512_loadu_si512(src.cast());
            for k in 1..RUN / 32 {
                bits = _mm512_or_si512(bits, _mm512_loadu_si512(src.add(32 * k).cast()));
            }
            _mm512_test_epi16_mask(bits, _mm512_set1_epi16(0xFF80_u16 as i16)) == 0
        }
    }

    #[inline(always)]
    unsafe fn utf16(src: *const u16, dst: *mut u8) -> (usize, usize, Saved) {
        // SAFETY: AVX-512F, BW, VBMI and VBMI2, and AVX2, by the caller; 32 units at `src` and
        // room for 112 bytes at `dst` by the caller, as the conversions need.
        unsafe {
            let v = _mm512_loadu_si512(src.cast());
            // Any unit from U+0800 up, tested in a 256-bit register, both halves together:
            // a compare into a mask register costs more (Zen 4: 2-byte scripts 5-19% faster,
            // CJK, which fail the test, no slower; from UTF-32, no faster).
            let halves = _mm512_or_si512(v, _mm512_shuffle_i64x2::<0b1110>(v, v));
            let above = _mm256_set1_epi16(0xF800_u16 as i16);
            if _mm256_testz_si256(_mm512_castsi512_si256(halves), above) != 0 {
                let (len, tail) = one_two_units(v, dst);
                return (2 * to_utf8::STEP, len, tail);
            }
            let kind = _mm512_and_si512(v, _mm512_set1_epi16(0xF800_u16 as i16));
            if _mm512_cmpeq_epi16_mask(kind, _mm512_set1_epi16(0xD800_u16 as i16)) != 0 {
                let kind = _mm512_and_si512(v, _mm512_set1_epi16(0xFC00_u16 as i16));
                let high = _mm512_cmpeq_epi16_mask(kind, _mm512_set1_epi16(0xD800_u16 as i16));
                let low = _mm512_cmpeq_epi16_mask(kind, _mm512_set1_epi16(0xDC00_u16 as i16));
                // Every low surrogate follows a high one, and every high one is followed by a
                // low one but for one in the last lane, left to the next step.
                if low != high << 1 {
                    return (0, 0, Saved::NONE);
                }
                if high == 0x5555_5555 {
                    return (2 * to_utf8::STEP, 64, all_pairs(v, dst));
                }
                // From memory, not from the masks: the next step's loads wait for it, and the
                // masks come 20 cycles after the load (Zen 4: Chinese twice as slow).
                let split = *src.add(31) & 0xFC00 == 0xD800;
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
        // SAFETY: by the caller; every CPU with VBMI2 has LZCNT (and `super::Isa::is_supported`
        // checks it).
        unsafe { utf32_run(src, dst) }
    }

    #[inline(always)]
    unsafe fn utf16_tail(src: &[u16], dst: &mut [MaybeUninit<u8>]) -> (usize, usize) {
        // SAFETY: the instruction sets by the caller.
        unsafe { tail_steps::<_, false>(src, dst) }
    }

    #[inline(always)]
    unsafe fn utf32_tail(src: &[u32], dst: &mut [MaybeUninit<u8>]) -> (usize, usize) {
        // SAFETY: the instruction sets by the caller.
        unsafe { tail_steps::<_, false>(src, dst) }
    }
}

/// UTF-16 or UTF-32, converted by [`tail_steps`] a step at a time: 32 units of UTF-16 or 16 of
/// UTF-32, or all that are left if fewer.
trait TailUnit: Sized {
    /// The units of a step at the start of `src` and their number, loaded with a mask: the
    /// lanes past `src` are zeros, ASCII, one byte each after the step's bytes, which are left
    /// out of the stores.
    ///
    /// # Safety
    /// The CPU has AVX-512F and BW.
    unsafe fn load_step(src: &[Self]) -> (__m512i, usize);
    /// The units of `v` as bytes, if all are ASCII.
    ///
    /// # Safety
    /// The CPU has AVX-512F and BW.
    unsafe fn ascii_bytes(v: __m512i) -> Option<__m512i>;
    /// Writes the UTF-8 of the first `units` units of `v` (the step at the start of `src`, not
    /// all ASCII) at the start of `dst` if it fits: the units read and bytes written, or (0, 0).
    ///
    /// # Safety
    /// The CPU has AVX-512F, BW, VBMI and VBMI2, and AVX2.
    unsafe fn other_step(v: __m512i, units: usize, dst: &mut [MaybeUninit<u8>]) -> (usize, usize);
}

impl TailUnit for u16 {
    #[inline(always)]
    unsafe fn load_step(src: &[u16]) -> (__m512i, usize) {
        let units = src.len().min(2 * to_utf8::STEP);
        // SAFETY: AVX-512BW by the caller; the load reads the first `units` units of `src`
        // (the others are masked off: neither read nor able to fault).
        let v = unsafe { _mm512_maskz_loadu_epi16(low_bits(units) as u32, src.as_ptr().cast()) };
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
    unsafe fn other_step(v: __m512i, units: usize, dst: &mut [MaybeUninit<u8>]) -> (usize, usize) {
        // SAFETY: by the caller.
        unsafe { utf16_tail_step(v, units, dst) }
    }
}

impl TailUnit for u32 {
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
    unsafe fn other_step(v: __m512i, units: usize, dst: &mut [MaybeUninit<u8>]) -> (usize, usize) {
        // SAFETY: by the caller.
        unsafe { utf32_tail_step(v, units, dst) }
    }
}

/// [`WideStep::utf16_tail`] and [`WideStep::utf32_tail`]: steps until one converts nothing.
/// Steps of ASCII are narrowed, with no compression, whose length the store would wait for.
///
/// With `OTHERS_APART`, for an input that leaves no room for a full step, inlined in the
/// converter: from the first step of other than ASCII, the steps are those of a function of
/// its own. Inlined, the whole converter (or these steps) loads the constants of its steps
/// first, which a string of ASCII pays for nothing: AMD Zen 4, ASCII strings of 16, 64 and 100
/// units of UTF-16 into exact-size outputs took 15-21 ns, against simdutf's 8-11; 1.2-1.3x as
/// fast apart (UTF-32, 16 and 64 units: 1.1-1.2x). Mixed strings of 16 to 100 units, which
/// then load their first step twice, 0.92-0.96x (UTF-32 0.97-1.0x).
///
/// # Safety
/// The CPU has AVX-512F, BW, VBMI and VBMI2, AVX2 and POPCNT.
#[inline(always)]
unsafe fn tail_steps<S: TailUnit, const OTHERS_APART: bool>(
    src: &[S],
    dst: &mut [MaybeUninit<u8>],
) -> (usize, usize) {
    /// # Safety
    /// As for `tail_steps`.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,avx2,popcnt")]
    #[inline(never)]
    unsafe fn others<S: TailUnit>(src: &[S], dst: &mut [MaybeUninit<u8>]) -> (usize, usize) {
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
                None => S::other_step(v, units, out),
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
/// ASCII and their setup): Zen 4, A/B, strings cut from the corpus at character boundaries, 16
/// to 40 bytes of UTF-8 in one step: from UTF-16 1.25-1.8x as fast (Russian 1.8x), from UTF-32
/// 1.1-1.4x; 64 and 100 bytes, in two steps where they fit: from UTF-16 1.04-1.6x, from
/// UTF-32 1.0-1.5x, random 1-4 byte strings of 64 and 100 bytes 1.1-1.3x; longer strings
/// unchanged.
///
/// # Safety
/// The CPU has AVX-512F, BW, VBMI and VBMI2, AVX2 and POPCNT.
#[inline(always)]
unsafe fn short_units<S: TailUnit>(src: &[S], dst: &mut [MaybeUninit<u8>]) -> Option<Progress> {
    // SAFETY: the instruction sets by the caller.
    unsafe {
        let (v, units) = S::load_step(src);
        if units == 0 || src.len() > 2 * units {
            return None;
        }
        let (read, written) = S::other_step(v, units, dst);
        if read == 0 {
            return None;
        }
        let rest = src.get(read..).unwrap_or_default();
        let (read, written) = if rest.is_empty() {
            (read, written)
        } else {
            let (v, units) = S::load_step(rest);
            let out = dst.get_mut(written..).unwrap_or_default();
            let (r, w) = S::other_step(v, units, out);
            (read + r, written + w)
        };
        (read == src.len()).then_some(Progress {
            read,
            written,
            stop: None,
        })
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

/// A step of [`WideStep::utf16_tail`] of other than ASCII: the `units` units of `v`, the first
/// of `src` (see [`TailUnit::load_step`]), into `dst` if they fit, else (0, 0).
///
/// # Safety
/// The CPU has AVX-512F, BW, VBMI and VBMI2, and AVX2.
#[inline(always)]
unsafe fn utf16_tail_step(v: __m512i, units: usize, dst: &mut [MaybeUninit<u8>]) -> (usize, usize) {
    // SAFETY: the instruction sets by the caller; the stores write the first `first + second`
    // bytes of `dst`, which it has.
    unsafe {
        // As `utf16` tells them apart, but for all surrogate pairs, which `bmp_bytes` takes.
        let halves = _mm512_or_si512(v, _mm512_shuffle_i64x2::<0b1110>(v, v));
        let above = _mm256_set1_epi16(0xF800_u16 as i16);
        // The zeros past `units` (see `TailUnit::load_step`) give one byte each, the last of
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
            let split = high >> 31 != 0;
            let pairs = (high != 0).then(|| pairs(v, high, low, split));
            if units <= to_utf8::STEP {
                // The first 16 lanes alone: one compression, not two (AMD Zen 4, A/B in one
                // process: strings of 16 bytes of Chinese lipsum and of random mixed text
                // 1.17-1.24x as fast, others unchanged).
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

/// A step of [`WideStep::utf32_tail`] of other than ASCII, as [`utf16_tail_step`] converts
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

/// A mask of the `n` lowest bits, `n` at most 64.
#[inline(always)]
fn low_bits(n: usize) -> u64 {
    u64::MAX.checked_shr(64 - n as u32).unwrap_or(0)
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
        // Stored as `one_two_units` stores: 4-11% faster on CJK text than as `pairs_units`
        // stores (Zen 4).
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
        // zero for U+0000.
        let keep = _mm512_test_epi8_mask(lanes, lanes) | 0x1111_1111_1111_1111;
        let len = keep.count_ones() as usize;
        Some((_mm512_maskz_compress_epi8(keep, lanes), len))
    }
}

/// [`WideStep::utf32_run`]: 32 units at a time, of ASCII, or all below U+0800 as
/// [`WideStep::utf16`] converts them, or else 16 at a time, of ASCII or of any scalar values
/// as [`WideStep::utf32`] converts them: with no test through `Avx2Units` first, nor a branch
/// between steps of different kinds through the converter's loop (Zen 4: UTF-32 into UTF-8
/// over the corpus, geometric mean 1.26x -> 1.41x simdutf, slowest file 1.02x -> 1.09x). A
/// function of its own, out of line as [`narrow_run`] is.
///
/// # Safety
/// As for [`WideStep::utf32_run`]; the CPU has AVX-512F, BW, VBMI and VBMI2, POPCNT and LZCNT.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt,lzcnt")]
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
/// steps ([`utf32_run`]), then its 16-unit step of any scalar values near the end: corpus
/// geometric mean 1.13x simdutf with AVX2's converter, 1.41x with these (Zen 4).
///
/// # Safety
/// The CPU supports AVX-512F, BW, VBMI and VBMI2, AVX2 and POPCNT.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,avx2,popcnt")]
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
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,avx2,popcnt")]
    #[inline(never)]
    unsafe fn steps(s: &[u32], d: &mut [MaybeUninit<u8>]) -> (usize, usize) {
        // SAFETY: the registers need the instruction set, which the CPU has.
        unsafe { super::to_utf8::utf32_to_utf8::<Avx2Units, Avx512WideStep<true>>(s, d) }
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

/// [`crate::transcode::utf16::utf16_to_utf8`] with AVX2's registers and the 32-unit step. With
/// `LONG_ASCII_RUNS` (Intel), the loop leaves the steps only for runs of ASCII of at least 96
/// units (see [`Avx512WideStep::ascii_ahead`]); without (AMD Zen 4, whose branch predictor and
/// 512-bit loads favour the other way), wherever the first 16 units of a step are ASCII, as
/// AVX2's does. Zen 4 (EPYC, family 19h), without against with, A/B in one process
/// (`bench/c/ab_builds.c`), two runs: every corpus file 1.02-1.22x as fast, fresh text
/// 1.02-1.21x (Esperanto, German and Greek Wikipedia 1.14-1.20x), ASCII strings of 256 to 1000
/// units 1.3-1.4x, other short strings 0.99-1.01x. On Intel, fresh Wikipedia text up to 2x
/// slower.
///
/// # Safety
/// The CPU supports AVX-512F, BW, VBMI and VBMI2, AVX2 and POPCNT.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,avx2,popcnt")]
pub(crate) unsafe fn utf16_to_utf8<const LONG_ASCII_RUNS: bool>(
    src: &[u16],
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
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,avx2,popcnt")]
    #[inline(never)]
    unsafe fn steps<const LONG_ASCII_RUNS: bool>(
        s: &[u16],
        d: &mut [MaybeUninit<u8>],
    ) -> (usize, usize) {
        // SAFETY: the registers need the instruction set, which the CPU has.
        unsafe { super::to_utf8::utf16_to_utf8::<Avx2Units, Avx512WideStep<LONG_ASCII_RUNS>>(s, d) }
    }
    // SAFETY: as for `utf32_to_utf8`.
    let fast = |s: &[u16], d: &mut [MaybeUninit<u8>]| unsafe {
        if to_utf8::utf16_steps_fit(s.len(), d.len()) {
            steps::<LONG_ASCII_RUNS>(s, d)
        } else {
            tail_steps::<_, true>(s, d)
        }
    };
    utf16::utf16_to_utf8_using(src, dst, mode, fast)
}

// ---------------------------------------------------------------------------------------------
// UTF-8 into UTF-16 and UTF-32: AVX2's converter (see super::from_utf8), with blocks of 1-3
// byte characters validated in mask registers and packed by VBMI2 compression (into UTF-16),
// and steps of characters of any lengths gathered by VBMI permutations, after the same paper.

/// The two-register byte permutations that interleave the low bytes of 16-bit values (first
/// register) with their high bytes (second register): those of bytes 0-31, then of 32-63.
static INTERLEAVE: [[u8; 64]; 2] = {
    let mut table = [[0; 64]; 2];
    let mut half = 0;
    while half < 2 {
        let mut j = 0;
        while j < 32 {
            table[half][2 * j] = (32 * half + j) as u8;
            table[half][2 * j + 1] = (64 + 32 * half + j) as u8;
            j += 1;
        }
        half += 1;
    }
    table
};

/// The 64 bytes of the table as a register.
///
/// # Safety
/// The CPU has AVX-512F.
#[inline(always)]
unsafe fn table64(t: &[u8; 64]) -> __m512i {
    // SAFETY: `t` is 64 readable bytes; loadu has no alignment requirement.
    unsafe { _mm512_loadu_si512(t.as_ptr().cast()) }
}

/// Every byte lane set to `x`.
///
/// # Safety
/// The CPU has AVX-512BW.
#[inline(always)]
unsafe fn splat8(x: u8) -> __m512i {
    // SAFETY: AVX-512BW by the caller.
    unsafe { _mm512_set1_epi8(x as i8) }
}

/// Byte `i` is `i`: compressed by a mask (VBMI2), the positions of the mask's bits in order.
static POSITIONS: [u8; 64] = {
    let mut table = [0; 64];
    let mut i = 0;
    while i < 64 {
        table[i] = i as u8;
        i += 1;
    }
    table
};

/// Each byte of a 32-bit lane gets the byte of the lane's number (a byte permutation).
static LANE_OF_BYTE: [u8; 64] = {
    let mut table = [0; 64];
    let mut i = 0;
    while i < 64 {
        table[i] = (i / 4) as u8;
        i += 1;
    }
    table
};

/// By the high nibble of a lead byte, for the four bytes of its character from the lead
/// (highest) down: the bits that carry the value (the lead's, then six of each continuation
/// byte), and how far the value of four such bytes is shifted to be the character's. The
/// nibbles of continuation bytes (8..B) never start a character.
#[rustfmt::skip]
static LEAD_BITS: [u32; 16] = [
    // 0..7: ASCII.
    0x7F3F_3F3F, 0x7F3F_3F3F, 0x7F3F_3F3F, 0x7F3F_3F3F,
    0x7F3F_3F3F, 0x7F3F_3F3F, 0x7F3F_3F3F, 0x7F3F_3F3F,
    // 8..B: continuation bytes.
    0, 0, 0, 0,
    // C, D: 2-byte leads; E: 3-byte; F: 4-byte.
    0x1F3F_3F3F, 0x1F3F_3F3F, 0x0F3F_3F3F, 0x073F_3F3F,
];
/// See [`LEAD_BITS`]: six bits for each byte the character lacks of four.
#[rustfmt::skip]
static LEAD_SHIFT: [u32; 16] = [
    18, 18, 18, 18, 18, 18, 18, 18,
    0, 0, 0, 0,
    12, 12, 6, 0,
];

/// The 16 values of the table as a register.
///
/// # Safety
/// The CPU has AVX-512F.
#[inline(always)]
unsafe fn table32(t: &[u32; 16]) -> __m512i {
    // SAFETY: `t` is 64 readable bytes; loadu has no alignment requirement.
    unsafe { _mm512_loadu_si512(t.as_ptr().cast()) }
}

/// The first characters of a block of 64 bytes of well-formed UTF-8 whose characters start at
/// the bits of `starts`: of those that the start of another follows in the block, the first
/// `MAX` (at least 15: 64 bytes hold at least 16 characters' starts). Returns the positions of
/// the characters' starts (one per byte, in order), their number, and the bytes they take.
///
/// # Safety
/// The CPU has AVX-512F, BW, VBMI and VBMI2.
#[inline(always)]
unsafe fn mixed_starts<const MAX: usize>(starts: u64) -> (__m512i, usize, usize) {
    // No start at all (64 continuation bytes, where the input changed since it was validated):
    // no character.
    if starts == 0 {
        // SAFETY: by the caller.
        return (unsafe { _mm512_setzero_si512() }, 0, 0);
    }
    // SAFETY: by the caller.
    unsafe {
        let positions = _mm512_maskz_compress_epi8(starts, table64(&POSITIONS));
        let followed = starts.count_ones() as usize - 1;
        let (n, read) = if followed <= MAX {
            // All but the last character: they end where the last one starts.
            (followed, 63 - starts.leading_zeros() as usize)
        } else {
            let next = _mm512_permutexvar_epi8(splat8(MAX as u8), positions);
            let read = _mm_cvtsi128_si32(_mm512_castsi512_si128(next)) & 0xFF;
            (MAX, read as usize)
        };
        (positions, n, read)
    }
}

/// The 64 bytes at `block`, and the bits of the bytes that start a character (all but
/// continuation bytes).
///
/// # Safety
/// The CPU has AVX-512F and BW; 64 bytes readable at `block`.
#[inline(always)]
unsafe fn block_starts(block: *const u8) -> (__m512i, u64) {
    // SAFETY: by the caller.
    unsafe {
        let b = _mm512_loadu_si512(block.cast());
        // As signed bytes, 80..BF are exactly those below -64 (C0): the others start one.
        (b, _mm512_cmpge_epi8_mask(b, splat8(0xC0)))
    }
}

/// The starts of sixteen 4-byte characters in a block (emoji), which well-formed UTF-8 has
/// exactly where no other byte starts a character.
const SIXTEEN_FOUR: u64 = 0x1111_1111_1111_1111;

/// Byte `i` is `i ^ 3`: a shuffle that reverses the bytes of each 32-bit lane.
static REVERSE_32: [u8; 64] = {
    let mut table = [0; 64];
    let mut i = 0;
    while i < 64 {
        table[i] = (i ^ 3) as u8;
        i += 1;
    }
    table
};

/// The scalar values of the sixteen 4-byte characters of `b` ([`SIXTEEN_FOUR`]) in 32-bit
/// lanes: with no permutation by position and no lookup by lead byte, as [`mixed_values`]
/// needs for characters of any lengths. Against AVX2's four steps of four characters, lipsum
/// Emoji converts 2.6x as fast into UTF-16 (3.3 -> 8.7 GB/s, no longer compressed by a table
/// shuffle per step) and 4% slower into UTF-32 (whose converter calls the block out of line;
/// Intel Xeon, Emerald Rapids). On AMD Zen 4, against the same blocks through
/// [`mixed_values`] (bench/c/ab_builds.c), lipsum Emoji (the corpus file and its fresh text)
/// converts 1.85-2.2x as fast into UTF-16 and 1.6-2.0x into UTF-32; other text 0.98-1.02x.
///
/// # Safety
/// The CPU has AVX-512F and BW.
#[inline(always)]
unsafe fn sixteen_four_values(b: __m512i) -> __m512i {
    // SAFETY: by the caller.
    unsafe {
        // Lead byte highest, then three bits of it and six of each continuation byte,
        // put together by two multiply-adds as in `mixed_values`.
        let lanes = _mm512_shuffle_epi8(b, table64(&REVERSE_32));
        let bits = _mm512_and_si512(lanes, splat32(0x073F_3F3F));
        let pairs = _mm512_maddubs_epi16(bits, _mm512_set1_epi16(0x4001));
        _mm512_madd_epi16(pairs, splat32(0x1000_0001))
    }
}

/// The scalar values of 16 characters of `b` in 32-bit lanes: those that start at the
/// positions of `positions` from `FIRST` on (see [`mixed_starts`]).
///
/// Each lane gathers the four bytes from its character's start, the lead highest, by a byte
/// permutation indexed by the start's position (after Clausecker and Lemire, cited above); the
/// lead's high nibble gives the bits that carry the value, which two multiply-adds put
/// together as a 4-byte character's, and a shift that drops the bytes of a shorter one.
///
/// # Safety
/// The CPU has AVX-512F, BW and VBMI.
#[inline(always)]
unsafe fn mixed_values<const FIRST: u8>(b: __m512i, positions: __m512i) -> __m512i {
    // SAFETY: by the caller.
    unsafe {
        // Bytes 3, 2, 1, 0 of each lane: those at its start and the three after it. A
        // position past the block wraps around; those bytes follow the character's end, and
        // the shift drops them.
        let lanes = _mm512_add_epi8(table64(&LANE_OF_BYTE), splat8(FIRST));
        let index = _mm512_add_epi8(
            _mm512_permutexvar_epi8(lanes, positions),
            splat32(0x0001_0203),
        );
        let bytes = _mm512_permutexvar_epi8(index, b);
        let nibble = _mm512_srli_epi32::<28>(bytes);
        let bits = _mm512_and_si512(bytes, _mm512_permutexvar_epi32(nibble, table32(&LEAD_BITS)));
        // Six bits and six into twelve, twelve and twelve into 24; at most 0x7F and 0x3F per
        // byte, no sum overflows its 16 bits.
        let pairs = _mm512_maddubs_epi16(bits, _mm512_set1_epi16(0x4001));
        let four = _mm512_madd_epi16(pairs, splat32(0x1000_0001));
        let shift = _mm512_permutexvar_epi32(nibble, table32(&LEAD_SHIFT));
        _mm512_srlv_epi32(four, shift)
    }
}

/// Writes the UTF-16 of `n` (at most 16) scalar values in 32-bit lanes at `out`, and nothing
/// after it: the units written.
///
/// # Safety
/// The CPU has AVX-512F, BW and VBMI2; as many units writable at `out` as the values take
/// (one each, two above U+FFFF: at most `2 * n`).
#[inline(always)]
unsafe fn store_utf16(c: __m512i, n: usize, out: *mut u16) -> usize {
    // SAFETY: by the caller; the store writes `units`, what the values take.
    unsafe {
        // U+10000 + (high - D800) * 2^10 + (low - DC00) (Unicode Standard, section 3.9): a
        // supplementary character's lane holds its pair, the high surrogate first.
        let supplementary = _mm512_cmpgt_epu32_mask(c, splat32(0xFFFF));
        let v = _mm512_sub_epi32(c, splat32(0x1_0000));
        let high = _mm512_add_epi32(_mm512_srli_epi32::<10>(v), splat32(0xD800));
        let low = _mm512_or_si512(_mm512_and_si512(v, splat32(0x3FF)), splat32(0xDC00));
        let pair = _mm512_or_si512(high, _mm512_slli_epi32::<16>(low));
        let lanes = _mm512_mask_mov_epi32(c, supplementary, pair);
        // The low unit of each lane, and the high one where it holds a low surrogate (the high
        // unit of any other lane is zero).
        let lane_units = (1u64 << (2 * n)) - 1;
        let keep = (_mm512_test_epi16_mask(lanes, lanes) | 0x5555_5555) & lane_units as u32;
        let units = keep.count_ones() as usize;
        let packed = _mm512_maskz_compress_epi16(keep, lanes);
        _mm512_mask_storeu_epi16(out.cast(), ((1u64 << units) - 1) as u32, packed);
        units
    }
}

/// Blocks of 1-3 byte characters in one register, validated in mask registers and packed by
/// VBMI2's compression of 16-bit lanes.
pub(crate) struct Avx512WideBlock;

// SAFETY: AVX-512F, BW, VBMI and VBMI2 instructions only; callers guarantee the CPU has them.
unsafe impl WideBlock for Avx512WideBlock {
    #[inline(always)]
    unsafe fn narrow_run_utf16(src: &[u8], dst: &mut [MaybeUninit<u16>]) -> Option<(usize, usize)> {
        // SAFETY: by the caller, whose contract is `narrow_run`'s; every CPU with VBMI2 has
        // LZCNT (and `super::Isa::is_supported` checks it).
        Some(unsafe { narrow_run(src, dst) })
    }

    #[inline(always)]
    unsafe fn narrow_run_utf32(src: &[u8], dst: &mut [MaybeUninit<u32>]) -> Option<(usize, usize)> {
        // SAFETY: as for `narrow_run_utf16`.
        Some(unsafe { narrow_run(src, dst) })
    }

    #[inline(always)]
    unsafe fn mixed_utf16(block: *const u8, out: *mut u16) -> Option<(usize, usize)> {
        // SAFETY: AVX-512F, BW, VBMI and VBMI2 and `block` by the caller, as the functions
        // called need; 64 units writable at `out` by the caller, and 32 characters give 64
        // at most, two per character.
        unsafe {
            let (b, starts) = block_starts(block);
            if starts == SIXTEEN_FOUR {
                // Each a surrogate pair, high surrogate first (see `store_utf16`): the bits
                // above the ten lowest less 0x40 (for U+10000) plus D800, and the ten lowest
                // plus DC00, in one addition.
                let c = sixteen_four_values(b);
                let halves = _mm512_ternarylogic_epi32::<0xF8>(
                    _mm512_srli_epi32::<10>(c),
                    _mm512_slli_epi32::<16>(c),
                    splat32(0x03FF_0000),
                );
                let pairs = _mm512_add_epi32(halves, splat32(0xDC00_D7C0));
                _mm512_storeu_si512(out.cast(), pairs);
                return Some((from_utf8::BLOCK, 32));
            }
            let (positions, n, read) = mixed_starts::<32>(starts);
            let c = mixed_values::<0>(b, positions);
            let mut units = store_utf16(c, n.min(16), out);
            if n > 16 {
                let c = mixed_values::<16>(b, positions);
                units += store_utf16(c, n - 16, out.add(units));
            }
            Some((read, units))
        }
    }

    #[inline(always)]
    unsafe fn mixed_utf32(block: *const u8, out: *mut u32) -> Option<(usize, usize)> {
        // SAFETY: by the caller, whose contract is `mixed_block_utf32`'s.
        Some(unsafe { mixed_block_utf32(block, out) })
    }
}

/// How a run of blocks ([`narrow_run`]) stores its values, below U+10000, into a unit type.
///
/// # Safety
/// Implementations use AVX-512F, BW and VBMI instructions only, and write only the units
/// documented.
unsafe trait RunUnit: Sized {
    /// Writes the first `total` (below 64) of the 16-bit values whose low bytes are `lows` and
    /// high bytes `highs`, at `out`, and nothing after them.
    ///
    /// # Safety
    /// `total` units writable at `out`; the CPU has AVX-512F, BW and VBMI.
    unsafe fn store_values(lows: __m512i, highs: __m512i, total: usize, out: *mut Self);
    /// Writes the 64 bytes of ASCII as units at `out`.
    ///
    /// # Safety
    /// 64 units writable at `out`; the CPU has AVX-512F and BW.
    unsafe fn store_ascii(bytes: __m512i, out: *mut Self);
}

// SAFETY: AVX-512F, BW and VBMI; the stores write `total` units, or 64 of ASCII.
unsafe impl RunUnit for u16 {
    #[inline(always)]
    unsafe fn store_values(lows: __m512i, highs: __m512i, total: usize, out: *mut u16) {
        // SAFETY: by the caller. (Packing bytes before interleaving them takes fewer
        // instructions than packing units; a store of the whole register, where the units
        // fill it, is faster than a masked one.)
        unsafe {
            let first = _mm512_permutex2var_epi8(lows, table64(&INTERLEAVE[0]), highs);
            if total >= 32 {
                _mm512_storeu_si512(out.cast(), first);
                let second = _mm512_permutex2var_epi8(lows, table64(&INTERLEAVE[1]), highs);
                let rest = (1u64 << (total - 32)) - 1;
                _mm512_mask_storeu_epi16(out.add(32).cast(), rest as u32, second);
            } else {
                _mm512_mask_storeu_epi16(out.cast(), (1u32 << total) - 1, first);
            }
        }
    }

    #[inline(always)]
    unsafe fn store_ascii(bytes: __m512i, out: *mut u16) {
        // SAFETY: by the caller.
        unsafe {
            _mm512_storeu_si512(
                out.cast(),
                _mm512_cvtepu8_epi16(_mm512_castsi512_si256(bytes)),
            );
            let high = _mm512_extracti64x4_epi64::<1>(bytes);
            _mm512_storeu_si512(out.add(32).cast(), _mm512_cvtepu8_epi16(high));
        }
    }
}

// SAFETY: AVX-512F, BW and VBMI; the stores write `total` units, or 64 of ASCII.
unsafe impl RunUnit for u32 {
    #[inline(always)]
    unsafe fn store_values(lows: __m512i, highs: __m512i, total: usize, out: *mut u32) {
        // SAFETY: by the caller: each store writes 16 units below `total`, or those left.
        unsafe {
            let mut words = _mm512_permutex2var_epi8(lows, table64(&INTERLEAVE[0]), highs);
            let mut at = 0;
            while at < total {
                let units = _mm512_cvtepu16_epi32(_mm512_castsi512_si256(words));
                if total - at >= 16 {
                    _mm512_storeu_si512(out.add(at).cast(), units);
                } else {
                    let rest = (1u32 << (total - at)) - 1;
                    _mm512_mask_storeu_epi32(out.add(at).cast(), rest as u16, units);
                }
                at += 16;
                words = if at == 32 {
                    _mm512_permutex2var_epi8(lows, table64(&INTERLEAVE[1]), highs)
                } else {
                    _mm512_shuffle_i64x2::<0b1110>(words, words)
                };
            }
        }
    }

    #[inline(always)]
    unsafe fn store_ascii(bytes: __m512i, out: *mut u32) {
        // SAFETY: by the caller.
        unsafe {
            for k in 0..4 {
                let chunk = match k {
                    0 => _mm512_extracti32x4_epi32::<0>(bytes),
                    1 => _mm512_extracti32x4_epi32::<1>(bytes),
                    2 => _mm512_extracti32x4_epi32::<2>(bytes),
                    _ => _mm512_extracti32x4_epi32::<3>(bytes),
                };
                _mm512_storeu_si512(out.add(16 * k).cast(), _mm512_cvtepu8_epi32(chunk));
            }
        }
    }
}

/// [`WideBlock::narrow_run_utf16`] and [`WideBlock::narrow_run_utf32`], with blocks of ASCII in
/// the run widened, as a function of its own: inlined into the converter, the loop makes its
/// conversions of 4-byte characters slower (lipsum Emoji and random 1-4 byte text, 20-25%;
/// Zen 4). LZCNT, which the converters are not compiled with, keeps it out of line, where
/// `#[inline(never)]` alone did not.
///
/// # Safety
/// As for [`WideBlock::narrow_run_utf16`]; the CPU has AVX-512F, BW, VBMI and VBMI2, POPCNT
/// and LZCNT.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,lzcnt,popcnt")]
#[inline(never)]
unsafe fn narrow_run<T: RunUnit>(src: &[u8], dst: &mut [MaybeUninit<T>]) -> (usize, usize) {
    // The next block is always 64 bytes on, so that no load waits for the one before to
    // be converted: a character cut by a block's end is converted with the next block,
    // from bytes before that block, and validated with them from what the block carries
    // over (bit 0, and 1, set where the bytes after it must continue a character, the
    // third byte of a 3-byte one, or follow E0 or ED).
    let (mut read, mut written, mut done) = (0, 0, 0);
    let (mut carry_lead, mut carry_third, mut carry_e0, mut carry_ed) = (0u64, 0, 0, 0);
    // SAFETY: AVX-512F, BW, VBMI and VBMI2 by the caller. The loads read the 64 bytes at
    // `read`, in `src` by the loop condition, and, masked, the bytes one before those
    // that continue a character and two before those that are the third of one, in
    // `src` since `src` starts a character (a continuation byte at its start is an
    // error, with nothing carried over). The stores write at most 64 units at `written`
    // (32, and those after 32 of `total`, or `total`; 64 for ASCII), and the loop condition
    // leaves room for 64.
    unsafe {
        while src.len() - read >= from_utf8::BLOCK && dst.len() - written >= from_utf8::BLOCK {
            let p = src.as_ptr().add(read);
            let b = _mm512_loadu_si512(p.cast());
            // As signed bytes, 80..BF are exactly those below -64 (C0).
            let continuation = _mm512_cmplt_epi8_mask(b, splat8(0xC0));
            let lead = _mm512_cmpge_epu8_mask(b, splat8(0xC0));
            if continuation | lead == 0 {
                // All ASCII, which nothing before may continue (nor follow E0 or ED, which
                // would be carried as a third byte too): widened, so that text with blocks of
                // ASCII among the others stays in the run.
                if carry_lead | carry_third != 0 {
                    break;
                }
                T::store_ascii(b, dst.as_mut_ptr().cast::<T>().add(written));
                read += from_utf8::BLOCK;
                written += from_utf8::BLOCK;
                done = read;
                continue;
            }
            // RFC 3629 section 4 for characters of 1-3 bytes, as masks of bytes: a
            // continuation byte exactly after each lead byte and two after each 3-byte
            // lead; no lead but C2..EF (C0 and C1 are overlong, F0 and above start longer
            // characters), which less C2 are the bytes below 2E; A0..BF after E0
            // (overlong below), 80..9F after ED (no surrogates). Compares into masks are
            // what this loop spends most on (Zen 4): the last three are made only where
            // there is a 3-byte lead, in the block (its last two bytes included) or before it.
            let lead3 = _mm512_cmpge_epu8_mask(b, splat8(0xE0));
            let third = (lead3 << 2) | carry_third;
            let expected = (lead << 1) | carry_lead | third;
            let from_c2 = _mm512_sub_epi8(b, splat8(0xC2));
            let mut error = _mm512_mask_cmpge_epu8_mask(lead, from_c2, splat8(0x2E));
            let (mut e0, mut ed) = (0, 0);
            if lead3 | carry_third != 0 {
                let below_a0 = _mm512_cmplt_epu8_mask(b, splat8(0xA0));
                e0 = _mm512_cmpeq_epi8_mask(b, splat8(0xE0));
                ed = _mm512_cmpeq_epi8_mask(b, splat8(0xED));
                error |= (((e0 << 1) | carry_e0) & below_a0) | (((ed << 1) | carry_ed) & !below_a0);
            }
            if (continuation ^ expected) | error != 0 {
                break;
            }
            carry_lead = lead >> 63;
            carry_third = lead3 >> 62;
            carry_e0 = e0 >> 63;
            carry_ed = ed >> 63;
            // Byte 63 ends a character unless the next block must continue it.
            let ends = (!continuation >> 1) | (u64::from(carry_lead | carry_third == 0) << 63);
            let total = store_narrow(
                b,
                p,
                continuation,
                third,
                ends,
                dst.as_mut_ptr().add(written),
            );
            done = read + from_utf8::BLOCK - ends.leading_zeros() as usize;
            read += from_utf8::BLOCK;
            written += total;
        }
    }
    (done, written)
}

/// Writes the values of the characters of 1-3 bytes that end at the bits of `ends` in `b`, the
/// 64 bytes at `p`, at `out`, and nothing after them: their number. `continuation` and `third` mark the continuation bytes and the third bytes of 3-byte
/// characters in `b`; the bytes before them, one and two places, are read from memory, so that
/// a character that starts before `p` is put together too.
///
/// # Safety
/// The CPU has AVX-512F, BW, VBMI and VBMI2; the byte before each continuation byte and the
/// two before each third byte readable; as many units writable at `out` as `ends` has bits.
#[inline(always)]
unsafe fn store_narrow<T: RunUnit>(
    b: __m512i,
    p: *const u8,
    continuation: u64,
    third: u64,
    ends: u64,
    out: *mut MaybeUninit<T>,
) -> usize {
    // SAFETY: by the caller; the loads read only the bytes their masks select.
    unsafe {
        // Each byte's value if it ends a character: its own seven bits (six of a continuation
        // byte), the six of the byte before above them if it continues a character (five of a
        // 2-byte lead), the four of a 3-byte lead two before if it is the third byte of one.
        let middle = _mm512_maskz_loadu_epi8(continuation, p.wrapping_sub(1).cast());
        let top = _mm512_maskz_loadu_epi8(third, p.wrapping_sub(2).cast());
        let low_byte = _mm512_ternarylogic_epi32::<0xF8>(
            _mm512_and_si512(b, splat8(0x7F)),
            _mm512_slli_epi16::<6>(middle),
            splat8(0xC0),
        );
        // The middle's bits 2-5 and the top's 0-3 above them: a select by 0x0F of the two
        // shifted in 16-bit lanes, whose bits crossing into the other byte the select drops.
        let high_byte = _mm512_ternarylogic_epi32::<0xE4>(
            _mm512_srli_epi16::<2>(middle),
            _mm512_slli_epi16::<4>(top),
            splat8(0x0F),
        );
        // The low and high bytes of the values of the bytes that end a character, packed.
        let lows = _mm512_maskz_compress_epi8(ends, low_byte);
        let highs = _mm512_maskz_compress_epi8(ends, high_byte);
        let total = ends.count_ones() as usize;
        T::store_values(lows, highs, total, out.cast::<T>());
        total
    }
}

/// [`WideBlock::mixed_utf32`], as a function of its own: the converter into UTF-32 is compiled
/// for AVX2 alone (see [`utf8_to_utf32`]), and calls it. It converts every character whose
/// bytes are in the block, not the first 32 as into UTF-16, so that ASCII text with an emoji
/// now and then takes one call per block, not two: English or random ASCII text with an emoji
/// per 40 characters or so 0.76-0.78x the time; into UTF-16, where the block is inline, the
/// same made no difference, or took up to 4% more time.
///
/// # Safety
/// The CPU has AVX-512F, BW, VBMI and VBMI2; as for [`WideBlock::mixed_utf32`].
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2")]
#[inline(never)]
unsafe fn mixed_block_utf32(block: *const u8, out: *mut u32) -> (usize, usize) {
    // SAFETY: the instructions and `block` by the caller, as `mixed_values` needs; 64 units
    // writable at `out` by the caller (WideBlock's contract), of which the stores write `n`,
    // at most 32.
    unsafe {
        let (b, starts) = block_starts(block);
        if starts == SIXTEEN_FOUR {
            _mm512_storeu_si512(out.cast(), sixteen_four_values(b));
            return (from_utf8::BLOCK, 16);
        }
        let (positions, n, read) = mixed_starts::<64>(starts);
        store_utf32(b, positions, n, out);
        (read, n)
    }
}

/// Writes the values of the first `n` characters of the bytes `b` that start at `positions`
/// (see [`mixed_starts`]) at `out`, and nothing after them.
///
/// # Safety
/// The CPU has AVX-512F, BW and VBMI; `n` (at most 64) units writable at `out`.
#[inline(always)]
unsafe fn store_utf32(b: __m512i, positions: __m512i, n: usize, out: *mut u32) {
    // SAFETY: by the caller; the stores write `n` units (none for `n == 0`, which a block of
    // continuation bytes gives: a shift of `u16::MAX` by 16 would keep every lane).
    unsafe {
        let c = mixed_values::<0>(b, positions);
        _mm512_mask_storeu_epi32(out.cast(), ((1u32 << n.min(16)) - 1) as u16, c);
        if n > 16 {
            let c = mixed_values::<16>(b, positions);
            _mm512_mask_storeu_epi32(
                out.add(16).cast(),
                u16::MAX >> 32_usize.saturating_sub(n),
                c,
            );
        }
        if n > 32 {
            let c = mixed_values::<32>(b, positions);
            _mm512_mask_storeu_epi32(
                out.add(32).cast(),
                u16::MAX >> 48_usize.saturating_sub(n),
                c,
            );
        }
        if n > 48 {
            let c = mixed_values::<48>(b, positions);
            _mm512_mask_storeu_epi32(out.add(48).cast(), u16::MAX >> (64 - n), c);
        }
    }
}

/// Converts `src`, well-formed UTF-8 that starts a character, into `dst` as far as it fits,
/// writing nothing else: the bytes read and units written. Each step loads up to 64 bytes with
/// a mask (zeros past the input: ASCII, whose start ends the input's last character) and
/// converts their characters as [`WideBlock::mixed_utf16`] and [`WideBlock::mixed_utf32`]
/// convert a block's, at most 32 into UTF-16, if their units fit: the part of a short string,
/// or of the end of a stretch, that the blocks leave, which went one character at a time with
/// a branch on its length that no predictor learns in mixed text. Input of less than a block
/// with no 4-byte character takes [`narrow_tail`] instead.
///
/// # Safety
/// The CPU has AVX-512F, BW, VBMI and VBMI2.
#[inline(always)]
unsafe fn mixed_tail<T: TailTarget + RunUnit>(
    src: &[u8],
    dst: &mut [MaybeUninit<T>],
) -> (usize, usize) {
    if src.len() < from_utf8::BLOCK {
        // SAFETY: by the caller.
        let done = unsafe { narrow_tail::<T, false>(src, dst) };
        if done.0 > 0 || src.len() < TAIL_MIN {
            return done;
        }
    }
    // SAFETY: by the caller.
    unsafe { mixed_steps(src, dst) }
}

/// The steps of [`mixed_tail`], whatever the input's length.
///
/// # Safety
/// As for [`mixed_tail`].
#[inline(always)]
unsafe fn mixed_steps<T: TailTarget>(src: &[u8], dst: &mut [MaybeUninit<T>]) -> (usize, usize) {
    let (mut read, mut written) = (0, 0);
    while let Some(rest) = src.get(read..).filter(|r| !r.is_empty()) {
        let len = rest.len().min(from_utf8::BLOCK);
        // SAFETY: the instructions by the caller; the load reads the first `len` bytes of
        // `rest` (the others are masked off: neither read nor able to fault).
        let b = unsafe { _mm512_maskz_loadu_epi8(low_bits(len), rest.as_ptr().cast()) };
        // The starts in the block, and the one that ends the input in less.
        let keep = if len < from_utf8::BLOCK {
            low_bits(len + 1)
        } else {
            u64::MAX
        };
        // SAFETY: the instructions by the caller.
        let starts = unsafe { _mm512_cmpge_epi8_mask(b, splat8(0xC0)) } & keep;
        let out = dst.get_mut(written..).unwrap_or_default();
        // SAFETY: the instructions by the caller; `starts` has the first byte (which starts a
        // character) and the one after the input or the block's last character start.
        let (r, w) = unsafe { T::store_tail(b, starts, out) };
        if r == 0 {
            break;
        }
        (read, written) = (read + r, written + w);
    }
    (read, written)
}

/// The least input that [`mixed_tail`] converts in steps: on less, their chain of dependent
/// instructions (from the load through compressions and permutations to the store) took longer
/// than the exact path's few characters. Zen 4, pools of mixed 1-4 byte strings, against no
/// tail: 16 and 64 bytes 0.93-0.95x with 16 (into UTF-32 1.03x), 0.95-0.98x with 24 or 32; 100
/// bytes, whose tail is 24-63 bytes, 1.15x (UTF-16) and 1.33x (UTF-32) with 16 to 32, 1.0x with
/// 40.
const TAIL_MIN: usize = 24;

/// [`mixed_tail`] for input of 8 to [`NARROW_MAX`] bytes with no 4-byte character (else it
/// converts nothing): its characters put together from the bytes before each, as a run of
/// blocks does ([`store_narrow`]), with no compression of their starts and no permutation by
/// them, a block at a time ([`narrow_step`]). Zen 4,
/// A/B, strings cut from the corpus at character boundaries, into UTF-16 / UTF-32: of 16 bytes,
/// against the exact path (which mispredicts the length of a character at each change of
/// script), Russian 1.5-1.7x / 1.5x as fast, Chinese 1.5x / 1.3x, Greek 1.4x / 1.2x, Hindi
/// 1.3x / 1.05x; of 24 to 100 bytes, against the steps of [`mixed_tail`], 1.2-1.8x / 1.04-1.13x;
/// lipsum Emoji, which it tries and leaves, 0.94-0.97x; random 1-4 byte text 0.97-1.05x.
///
/// With `VALIDATE`, `src` need not be well-formed: it is checked first, and nothing converted
/// if it is not. A whole string converted so ([`short_string`]) takes none of the converter's
/// other steps, nor its separate validation: Zen 4, strings of 16 to 40 bytes cut from the
/// corpus, against `narrow_tail` inside the converter, 1.3-1.6x as fast into UTF-16 (Russian
/// in 13 ns where simdutf takes 8-13), 1.2-1.3x into UTF-32; lipsum Emoji, which it tries and
/// leaves, 0.9-0.99x. Of 64 and 100 bytes, against the converter's blocks (which load their
/// constants, and validate on the way), 1.9-2.2x and 1.4-1.6x into UTF-16, 1.1-1.2x into
/// UTF-32; lipsum Emoji 0.9-0.97x; 16 bytes 0.93-0.97x against one block alone.
///
/// # Safety
/// The CPU has AVX-512F, BW, VBMI and VBMI2; without `VALIDATE`, `src` is well-formed UTF-8.
#[inline(always)]
unsafe fn narrow_tail<T: RunUnit, const VALIDATE: bool>(
    src: &[u8],
    dst: &mut [MaybeUninit<T>],
) -> (usize, usize) {
    if src.len() < NARROW_MIN || src.len() > NARROW_MAX {
        return (0, 0);
    }
    // SAFETY: the instructions by the caller; the load reads the first bytes of `s` (the
    // others are masked off: neither read nor able to fault), zeros after them.
    let load = |s: &[u8]| unsafe {
        _mm512_maskz_loadu_epi8(low_bits(s.len().min(from_utf8::BLOCK)), s.as_ptr().cast())
    };
    // No 4-byte character, and a unit of room for each character: each byte but the
    // continuation bytes.
    // SAFETY: the instructions by the caller.
    let classes = |b| unsafe {
        (
            _mm512_cmpge_epu8_mask(b, splat8(0xF0)),
            _mm512_cmplt_epi8_mask(b, splat8(0xC0)).count_ones() as usize,
        )
    };
    let first = load(src);
    let (four, continuations) = src
        .chunks(from_utf8::BLOCK)
        .skip(1)
        .map(load)
        .map(classes)
        .fold(classes(first), |(four, continuations), (f, c)| {
            (four | f, continuations + c)
        });
    if four != 0 || src.len() - continuations > dst.len() {
        return (0, 0);
    }
    // SAFETY: the instructions by the caller.
    if VALIDATE && !unsafe { super::lookup::valid_short::<Avx512, false>(src) }.valid {
        return (0, 0);
    }
    // The checks above read the input once more than the steps do: if another thread changed
    // it meanwhile, what they found may no longer hold, so each step checks its own block for
    // what its loads and stores need (see `narrow_step`), and stops where that fails.
    if src.len() <= from_utf8::BLOCK {
        // SAFETY: the instructions by the caller.
        let (read, written) = unsafe { narrow_step(first, src, dst) };
        return (if read > 0 { src.len() } else { 0 }, written);
    }
    // A block at a time, each from a character's start to the end of the last character it
    // holds whole.
    let (mut read, mut written, mut b) = (0, 0, first);
    while let Some(rest) = src.get(read..).filter(|r| !r.is_empty()) {
        let out = dst.get_mut(written..).unwrap_or_default();
        // SAFETY: the instructions by the caller.
        let (r, w) = unsafe { narrow_step(b, rest, out) };
        if r == 0 {
            break;
        }
        (read, written) = (read + r, written + w);
        b = load(src.get(read..).unwrap_or_default());
    }
    (read, written)
}

/// A step of [`narrow_tail`]: writes the values of the characters that `rest` holds whole in
/// its first block (`b`, its bytes, zeros after them) at the start of `out`, nothing after
/// them: the bytes read and units written. (0, 0), writing nothing, if the block starts with a
/// continuation byte or its characters do not fit in `out`.
///
/// Those two checks are made on `b`, whatever was found of the input before: the characters
/// are then well-formed only if `rest` is, but every load stays in `rest` and every store in
/// `out` even where another thread changes the input during the call.
///
/// # Safety
/// The CPU has AVX-512F, BW, VBMI and VBMI2; `b` holds the first bytes of `rest` (at most 64),
/// zeros after them.
#[inline(always)]
unsafe fn narrow_step<T: RunUnit>(
    b: __m512i,
    rest: &[u8],
    out: &mut [MaybeUninit<T>],
) -> (usize, usize) {
    // SAFETY: the instructions by the caller.
    let (continuation, third) = unsafe {
        (
            _mm512_cmplt_epi8_mask(b, splat8(0xC0)),
            _mm512_cmpge_epu8_mask(b, splat8(0xE0)) << 2,
        )
    };
    // Every byte followed by no continuation byte ends a character: past the block, the next
    // byte of the input says.
    let cut = rest.get(from_utf8::BLOCK).is_some_and(|&x| (x as i8) < -64);
    let ends =
        !(continuation >> 1) & low_bits(rest.len().min(from_utf8::BLOCK)) & !(u64::from(cut) << 63);
    if continuation & 1 != 0 || ends.count_ones() as usize > out.len() {
        return (0, 0);
    }
    // SAFETY: the instructions by the caller; byte 0 is no continuation byte and the third
    // bytes are marked from byte 2 on, so the bytes read before them are in `rest`; `out` has
    // a unit for each bit of `ends`.
    let written = unsafe {
        store_narrow(
            b,
            rest.as_ptr(),
            continuation,
            third,
            ends,
            out.as_mut_ptr(),
        )
    };
    (from_utf8::BLOCK - ends.leading_zeros() as usize, written)
}

/// The shortest string [`narrow_tail`] converts.
const NARROW_MIN: usize = 8;

/// The longest string [`narrow_tail`] converts: with 256, strings of 256 bytes cut from the
/// corpus took 1.3x the time of the converter's blocks, ASCII 3.7x.
const NARROW_MAX: usize = 128;

/// [`mixed_tail`] into UTF-32, as a function of its own, as [`mixed_block_utf32`] is.
///
/// # Safety
/// The CPU has AVX-512F, BW, VBMI and VBMI2.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2")]
#[inline(never)]
unsafe fn mixed_tail_utf32(src: &[u8], dst: &mut [MaybeUninit<u32>]) -> (usize, usize) {
    // SAFETY: by the caller.
    unsafe { mixed_tail(src, dst) }
}

/// Converts `src` whole if it is a well-formed string of [`NARROW_MIN`] to [`NARROW_MAX`]
/// bytes whose units fit in `dst`: with [`narrow_tail`], or if it holds a 4-byte character,
/// validated first, with the steps of [`mixed_tail`]: the bytes read and units written (see
/// [`whole_string`]). Else it writes nothing, or only the units of the characters of its
/// first steps (its output too small), which the converter then writes again alike. With the
/// steps, strings of random 1-4 byte characters of 16, 64 and 100 bytes went 1.24-1.6x as
/// fast as through the converter (into UTF-32 1.4-1.6x), strings of 16 to 100 bytes cut from
/// lipsum Emoji 1.2-1.6x, of ASCII text with an emoji in 40 characters or so 1.1-1.4x (Zen 4,
/// A/B in one process).
///
/// # Safety
/// The CPU has AVX-512F, BW, VBMI and VBMI2.
#[inline(always)]
unsafe fn short_string<T: RunUnit + TailTarget>(
    src: &[u8],
    dst: &mut [MaybeUninit<T>],
) -> (usize, usize) {
    // SAFETY: by the caller.
    let done = unsafe { narrow_tail::<T, true>(src, dst) };
    // Left by `narrow_tail` at a length it takes: a 4-byte character, an error, or no room.
    if done.0 == 0
        && (NARROW_MIN..=NARROW_MAX).contains(&src.len())
        // SAFETY: by the caller.
        && unsafe { super::lookup::valid_short::<Avx512, false>(src) }.valid
    {
        // SAFETY: by the caller; `src` is well-formed.
        unsafe { mixed_steps::<T>(src, dst) }
    } else {
        done
    }
}

/// The progress of [`short_string`]'s `(read, written)`, if it converted all of `src`.
fn whole_string((read, written): (usize, usize), src: &[u8]) -> Option<Progress> {
    (read > 0 && read == src.len()).then_some(Progress {
        read,
        written,
        stop: None,
    })
}

/// [`short_string`] into UTF-32, as a function of its own, for the converter into UTF-32,
/// which is compiled for AVX2 alone (see [`utf8_to_utf32`]). It returns two numbers, in
/// registers: an `Option<Progress>` went through memory, which strings of up to 128 bytes into
/// UTF-32 paid for (Zen 4, A/B in one process: 1.05-1.27x as fast without).
///
/// # Safety
/// The CPU has AVX-512F, BW, VBMI and VBMI2.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2")]
#[inline(never)]
unsafe fn short_string_utf32(src: &[u8], dst: &mut [MaybeUninit<u32>]) -> (usize, usize) {
    // SAFETY: by the caller.
    unsafe { short_string(src, dst) }
}

/// UTF-16 or UTF-32, written by [`mixed_tail`].
///
/// # Safety
/// Implementations write only the units they report.
unsafe trait TailTarget: Sized {
    /// Writes the units of the characters that start at `starts` in `b` and end before the
    /// last start, at the start of `out` if they fit: the bytes and units, or (0, 0).
    ///
    /// # Safety
    /// The CPU has AVX-512F, BW, VBMI and VBMI2; `starts` has two bits or more.
    unsafe fn store_tail(b: __m512i, starts: u64, out: &mut [MaybeUninit<Self>]) -> (usize, usize);
}

// SAFETY: `store_utf16` writes the units it returns, counted before.
unsafe impl TailTarget for u16 {
    #[inline(always)]
    unsafe fn store_tail(b: __m512i, starts: u64, out: &mut [MaybeUninit<u16>]) -> (usize, usize) {
        // SAFETY: by the caller; the stores write `units`, which `out` has.
        unsafe {
            let (positions, n, read) = mixed_starts::<32>(starts);
            // One unit per character, two for a 4-byte one. Counted from `b`, as the stores
            // are, so that the count bounds them whatever the bytes: only a lead byte F0..FF
            // gives a value above U+FFFF (LEAD_BITS and LEAD_SHIFT keep 16 bits of the others).
            let four = _mm512_cmpge_epu8_mask(b, splat8(0xF0)) & low_bits(read);
            let units = n + four.count_ones() as usize;
            if units > out.len() {
                return (0, 0);
            }
            let at = out.as_mut_ptr().cast::<u16>();
            let mut written = store_utf16(mixed_values::<0>(b, positions), n.min(16), at);
            if n > 16 {
                let c = mixed_values::<16>(b, positions);
                written += store_utf16(c, n - 16, at.add(written));
            }
            (read, written)
        }
    }
}

// SAFETY: `store_utf32` writes `n` units.
unsafe impl TailTarget for u32 {
    #[inline(always)]
    unsafe fn store_tail(b: __m512i, starts: u64, out: &mut [MaybeUninit<u32>]) -> (usize, usize) {
        // SAFETY: by the caller; the stores write `n`, which `out` has.
        unsafe {
            let (positions, n, read) = mixed_starts::<64>(starts);
            if n == 0 || n > out.len() {
                return (0, 0);
            }
            store_utf32(b, positions, n, out.as_mut_ptr().cast());
            (read, n)
        }
    }
}

/// [`crate::transcode::utf16::utf8_to_utf16`] with AVX2's registers, this kernel's validation
/// and the wider block.
///
/// AVX2's steps compiled with AVX-512 enabled run slower on 4-byte characters (Zen 4, lipsum
/// Emoji: 15% without VL, 5% with it), which the wider block more than makes up for: corpus
/// geometric mean 1.08-1.09x simdutf with AVX2's converter, 1.19-1.20x with this one.
///
/// # Safety
/// The CPU supports AVX-512F, BW, VL, VBMI and VBMI2, AVX2 and POPCNT.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,avx2,popcnt")]
pub(crate) unsafe fn utf8_to_utf16(
    src: &[u8],
    dst: &mut [MaybeUninit<u16>],
    mode: Mode,
) -> Progress {
    // SAFETY: the CPU has the instruction set by our contract.
    if let Some(done) = whole_string(unsafe { short_string(src, dst) }, src) {
        return done;
    }
    // SAFETY: the kernel needs the instruction set, which the CPU has by our contract.
    let valid_prefix = |s: &[u8]| unsafe { super::valid_prefix(validate::<true>, s) };
    /// The converter past the leading blocks of ASCII (see `convert_ascii_first`).
    ///
    /// # Safety
    /// As for `utf8_to_utf16`, and `src` starts a character, or `valid` is 0.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,avx2,popcnt")]
    #[inline(never)]
    unsafe fn convert_rest(
        src: &[u8],
        valid: usize,
        dst: &mut [MaybeUninit<u16>],
    ) -> (usize, usize) {
        // SAFETY: by the caller; the converter needs SSE4.1 and SSSE3, which AVX2 includes.
        unsafe { super::from_utf8::convert::<Avx2, u16, Avx512WideBlock>(src, valid, dst) }
    }
    // SAFETY: the CPU has the instruction set by our contract; `convert_ascii_first` hands
    // `convert_rest` the input from a character on.
    let fast = |s: &[u8], valid, d: &mut [MaybeUninit<u16>]| unsafe {
        super::from_utf8::convert_ascii_first::<Avx2, u16>(s, valid, d, |s, v, d| {
            convert_rest(s, v, d)
        })
    };
    // SAFETY: as above.
    let tail = |s: &[u8], d: &mut [MaybeUninit<u16>]| unsafe { mixed_tail(s, d) };
    utf16::utf8_to_utf16_with(src, dst, mode, valid_prefix, fast, tail)
}

/// [`crate::transcode::utf32::utf8_to_utf32`] with AVX2's registers, this kernel's validation,
/// the runs of blocks and the wider block of characters of any mix of lengths, each a function
/// of its own:
/// compiled for AVX2 alone, AVX2's steps run as fast as in AVX2's converter (with AVX-512
/// enabled, lipsum Korean and Russian 7-13% slower; Zen 4).
///
/// # Safety
/// The CPU supports AVX-512F, BW, VL, VBMI and VBMI2, AVX2 and POPCNT.
#[target_feature(enable = "avx2,popcnt")]
pub(crate) unsafe fn utf8_to_utf32(
    src: &[u8],
    dst: &mut [MaybeUninit<u32>],
    mode: Mode,
) -> Progress {
    if src.len() <= NARROW_MAX
        // SAFETY: the CPU has the instruction set by our contract.
        && let Some(done) = whole_string(unsafe { short_string_utf32(src, dst) }, src)
    {
        return done;
    }
    // SAFETY: the kernel needs the instruction set, which the CPU has by our contract.
    let valid_prefix = |s: &[u8]| unsafe { super::valid_prefix(validate::<true>, s) };
    /// The converter past the leading blocks of ASCII (see `convert_ascii_first`).
    ///
    /// # Safety
    /// As for `utf8_to_utf32`, and `src` starts a character, or `valid` is 0.
    #[target_feature(enable = "avx2,popcnt")]
    #[inline(never)]
    unsafe fn convert_rest(
        src: &[u8],
        valid: usize,
        dst: &mut [MaybeUninit<u32>],
    ) -> (usize, usize) {
        // SAFETY: by the caller; the converter needs SSE4.1 and SSSE3, which AVX2 includes.
        unsafe { super::from_utf8::convert::<Avx2, u32, Avx512WideBlock>(src, valid, dst) }
    }
    // SAFETY: as for `utf8_to_utf16`.
    let fast = |s: &[u8], valid, d: &mut [MaybeUninit<u32>]| unsafe {
        super::from_utf8::convert_ascii_first::<Avx2, u32>(s, valid, d, |s, v, d| {
            convert_rest(s, v, d)
        })
    };
    // SAFETY: as above.
    let tail = |s: &[u8], d: &mut [MaybeUninit<u32>]| unsafe { mixed_tail_utf32(s, d) };
    utf32::utf8_to_utf32_with(src, dst, mode, valid_prefix, fast, tail)
}

/// This kernel's converters of well-formed input given input that is not, as when another
/// thread changes the input after it was validated (see `from_utf8`'s tests of the same): which
/// units they write is unspecified, but every store stays in the output and every count in its
/// bounds.
#[cfg(test)]
mod untrusted_input {
    use super::*;
    use crate::test_support::{
        BlockConverter, TailConverter, assert_within_bounds, capacities, lying_inputs,
    };

    /// Each converter into `T`, on input claimed well-formed.
    ///
    /// # Safety
    /// The CPU has AVX-512F, BW, VL, VBMI and VBMI2, AVX2, POPCNT and LZCNT.
    unsafe fn check<T>(block: BlockConverter<T>, tail: TailConverter<T>)
    where
        T: TailTarget + RunUnit + from_utf8::Target + PartialEq + core::fmt::Debug + From<u8>,
    {
        for src in lying_inputs() {
            for cap in capacities(src.len()) {
                // SAFETY: by the caller; the claim of well-formed input is what is tested.
                assert_within_bounds(&src, cap, |d| unsafe { block(&src, src.len(), d) });
                // SAFETY: as above.
                assert_within_bounds(&src, cap, |d| unsafe { tail(&src, d) });
                // SAFETY: as above.
                assert_within_bounds(&src, cap, |d| unsafe { short_string::<T>(&src, d) });
            }
        }
    }

    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,avx2,popcnt")]
    unsafe fn block<T: from_utf8::Target>(
        s: &[u8],
        v: usize,
        d: &mut [MaybeUninit<T>],
    ) -> (usize, usize) {
        // SAFETY: the instructions by the caller.
        unsafe { from_utf8::convert::<Avx2, T, Avx512WideBlock>(s, v, d) }
    }

    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,avx2,popcnt")]
    unsafe fn tail<T: TailTarget + RunUnit>(s: &[u8], d: &mut [MaybeUninit<T>]) -> (usize, usize) {
        // SAFETY: the instructions by the caller.
        unsafe { mixed_tail(s, d) }
    }

    #[test]
    fn stores_stay_in_the_output_whatever_the_input() {
        if !crate::dispatch::Isa::Avx512.is_supported() {
            std::eprintln!("skipped: this CPU has no AVX-512");
            return;
        }
        // SAFETY: the CPU has the instructions.
        unsafe {
            check::<u16>(block, tail);
            check::<u32>(block, tail);
        }
    }
}
