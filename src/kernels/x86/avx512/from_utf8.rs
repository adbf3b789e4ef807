//! The AVX-512 converters from UTF-8 into UTF-16 and UTF-32: AVX2's converter with AVX-512's
//! wider blocks and steps.

use core::arch::x86_64::*;
use core::mem::MaybeUninit;

use super::{Avx512, compress_bytes, compress_units, low_bits, order, splat32, validate};
use crate::algorithms::from_utf8::{self, BlockConverter, Utf16Output};
use crate::algorithms::to_utf8::Utf16Source;
use crate::engine::short::ShortCall;
use crate::engine::{Progress, U16Swapped, utf16, utf32};
use crate::kernels::x86::shared::Avx2;

// ---------------------------------------------------------------------------------------------
// UTF-8 into UTF-16 and UTF-32: AVX2's converter (see super::from_utf8), with blocks of 1-3
// byte characters validated in mask registers and packed by VBMI2 compression (into UTF-16),
// and steps of characters of any lengths gathered by VBMI permutations, after the same paper.

/// Two-register byte permutations that pair byte `i` of a first register (the low byte) with
/// byte `i` of a second (the high byte) in lanes of `LANE` bytes: lane `j` of table `t` takes
/// byte `64 / LANE * t + j` of each, in its first two bytes (any others are left to a mask).
const fn pair_bytes<const TABLES: usize, const LANE: usize>() -> [[u8; 64]; TABLES] {
    let mut table = [[0; 64]; TABLES];
    let mut t = 0;
    while t < TABLES {
        let mut j = 0;
        while j < 64 / LANE {
            table[t][LANE * j] = (64 / LANE * t + j) as u8;
            table[t][LANE * j + 1] = (64 + 64 / LANE * t + j) as u8;
            j += 1;
        }
        t += 1;
    }
    table
}

/// The low bytes of 16-bit values (first register) interleaved with their high bytes (second
/// register): those of bytes 0-31, then of 32-63.
static INTERLEAVE: [[u8; 64]; 2] = pair_bytes::<2, 2>();

/// The low and high bytes of 16-bit values made 32-bit values (their two upper bytes zeroed by
/// a mask): those of bytes 0-15, 16-31, 32-47, 48-63.
static WIDEN32: [[u8; 64]; 4] = pair_bytes::<4, 4>();

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
/// needs for characters of any lengths.
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

/// Writes the UTF-16 of `n` (at most 16) scalar values in 32-bit lanes at `out`, in `T`'s byte
/// order, and nothing after it: the units written.
///
/// # Safety
/// The CPU has AVX-512F, BW and VBMI2; as many units writable at `out` as the values take
/// (one each, two above U+FFFF: at most `2 * n`).
#[inline(always)]
unsafe fn store_utf16<T: Utf16Store>(c: __m512i, n: usize, out: *mut T) -> usize {
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
        let packed = order::<T>(compress_units(keep, lanes));
        _mm512_mask_storeu_epi16(out.cast(), ((1u64 << units) - 1) as u32, packed);
        units
    }
}

/// UTF-16 in the machine's byte order (`u16`) or in the other (`U16Swapped`), as this kernel
/// writes it: its 16-bit values put in the unit's byte order ([`order`]) in the register before
/// each store.
pub(crate) trait Utf16Store: Utf16Output + Utf16Source {}

impl<T: Utf16Output + Utf16Source> Utf16Store for T {}

/// Blocks of 1-3 byte characters in one register, validated in mask registers and packed by
/// VBMI2's compression of 16-bit lanes.
pub(crate) struct Avx512BlockConverter;

// SAFETY: AVX-512F, BW, VBMI and VBMI2 instructions only; callers guarantee the CPU has them.
unsafe impl BlockConverter for Avx512BlockConverter {
    #[inline(always)]
    unsafe fn narrow_run_utf16(src: &[u8], dst: &mut [MaybeUninit<u16>]) -> Option<(usize, usize)> {
        // SAFETY: by the caller, whose contract is `narrow_run`'s; every CPU with VBMI2 has
        // LZCNT (and `crate::dispatch::Isa::is_supported` checks it).
        Some(unsafe { narrow_run(src, dst) })
    }

    #[inline(always)]
    unsafe fn narrow_run_utf32(src: &[u8], dst: &mut [MaybeUninit<u32>]) -> Option<(usize, usize)> {
        // SAFETY: as for `narrow_run_utf16`.
        Some(unsafe { narrow_run(src, dst) })
    }

    #[inline(always)]
    unsafe fn mixed_utf16(block: *const u8, out: *mut u16) -> Option<(usize, usize)> {
        // SAFETY: by the caller, whose contract is `mixed_block_utf16`'s.
        Some(unsafe { mixed_block_utf16(block, out) })
    }

    #[inline(always)]
    unsafe fn mixed_utf16_swapped(
        block: *const u8,
        out: *mut U16Swapped,
    ) -> Option<(usize, usize)> {
        // SAFETY: as for `mixed_utf16`.
        Some(unsafe { mixed_block_utf16(block, out) })
    }

    #[inline(always)]
    unsafe fn narrow_run_utf16_swapped(
        src: &[u8],
        dst: &mut [MaybeUninit<U16Swapped>],
    ) -> Option<(usize, usize)> {
        // SAFETY: as for `narrow_run_utf16`.
        Some(unsafe { narrow_run(src, dst) })
    }

    #[inline(always)]
    unsafe fn mixed_utf32(block: *const u8, out: *mut u32) -> Option<(usize, usize)> {
        // SAFETY: by the caller, whose contract is `mixed_block_utf32`'s.
        Some(unsafe { mixed_block_utf32(block, out) })
    }
}

/// [`BlockConverter::mixed_utf16`] into `T`'s byte order.
///
/// # Safety
/// As for [`BlockConverter::mixed_utf16`].
#[inline(always)]
unsafe fn mixed_block_utf16<T: Utf16Store>(block: *const u8, out: *mut T) -> (usize, usize) {
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
            _mm512_storeu_si512(out.cast(), order::<T>(pairs));
            return (from_utf8::BLOCK, 32);
        }
        let (positions, n, read) = mixed_starts::<32>(starts);
        let c = mixed_values::<0>(b, positions);
        let mut units = store_utf16(c, n.min(16), out);
        if n > 16 {
            let c = mixed_values::<16>(b, positions);
            units += store_utf16(c, n - 16, out.add(units));
        }
        (read, units)
    }
}

/// The stores of a run of blocks ([`narrow_run`]) into a unit type: its values, below U+10000,
/// and its blocks of ASCII.
///
/// # Safety
/// Implementations use AVX-512F, BW and VBMI instructions only (and those a method's contract
/// names), and write only the units documented.
pub(crate) unsafe trait RunStore: Sized {
    /// Writes the first `total` (below 64) of the 16-bit values whose low bytes are `lows` and
    /// high bytes `highs`, at `out`, and nothing after them.
    ///
    /// # Safety
    /// `total` units writable at `out`; the CPU has AVX-512F, BW and VBMI.
    unsafe fn store_values(lows: __m512i, highs: __m512i, total: usize, out: *mut Self);
    /// [`RunStore::store_values`] inside a run, with room for a block's units: the same units
    /// written, none after them, with no branch on `total` that mixed text would mispredict
    /// (one on more than 32 units, which holds for a script's blocks or fails for them all).
    ///
    /// # Safety
    /// As for [`RunStore::store_values`], and `total` is at least 16, 64 units writable at `out`.
    #[inline(always)]
    unsafe fn store_values_in_run(lows: __m512i, highs: __m512i, total: usize, out: *mut Self) {
        // SAFETY: by the caller.
        unsafe { Self::store_values(lows, highs, total, out) }
    }
    /// Writes the first `total` (1 to 64) bytes of ASCII as units at `out`, and nothing after
    /// them.
    ///
    /// # Safety
    /// `total` units writable at `out`; the CPU has AVX-512F and BW.
    unsafe fn store_ascii(bytes: __m512i, total: usize, out: *mut Self);
    /// [`wide_block`] for a string with a 4-byte character (or a byte from F5), loaded in
    /// `block`, into these units: [`short_pairs`] into UTF-16, [`short_fours`] into UTF-32.
    ///
    /// # Safety
    /// As for [`short_pairs`].
    unsafe fn short_with_four_byte(
        block: Loaded,
        dst: &mut [MaybeUninit<Self>],
    ) -> Result<usize, usize>;
}

// SAFETY: AVX-512F, BW and VBMI (VBMI2 for `order`); the stores write `total` units, or 64 of
// ASCII.
unsafe impl<T: Utf16Store> RunStore for T {
    #[inline(always)]
    unsafe fn store_values(lows: __m512i, highs: __m512i, total: usize, out: *mut T) {
        // The other byte order's units interleave the high bytes first.
        let (first_bytes, second_bytes) = if T::SWAPPED {
            (highs, lows)
        } else {
            (lows, highs)
        };
        // SAFETY: by the caller. (Packing bytes before interleaving them takes fewer
        // instructions than packing units; a store of the whole register, where the units
        // fill it, is faster than a masked one.)
        unsafe {
            // (No closure for the two: LLVM called a closure's second use out of line, its
            // registers passed through the stack.)
            let first =
                _mm512_permutex2var_epi8(first_bytes, table64(&INTERLEAVE[0]), second_bytes);
            if total >= 32 {
                _mm512_storeu_si512(out.cast(), first);
                let second =
                    _mm512_permutex2var_epi8(first_bytes, table64(&INTERLEAVE[1]), second_bytes);
                _mm512_mask_storeu_epi16(out.add(32).cast(), low_bits(total - 32) as u32, second);
            } else {
                _mm512_mask_storeu_epi16(out.cast(), low_bits(total) as u32, first);
            }
        }
    }

    #[inline(always)]
    unsafe fn store_ascii(bytes: __m512i, total: usize, out: *mut T) {
        // SAFETY: by the caller: the whole stores write 32 units below `total`, the masked
        // ones those left.
        unsafe {
            let low = order::<T>(_mm512_cvtepu8_epi16(_mm512_castsi512_si256(bytes)));
            if total < 32 {
                _mm512_mask_storeu_epi16(out.cast(), low_bits(total) as u32, low);
                return;
            }
            _mm512_storeu_si512(out.cast(), low);
            let high = order::<T>(_mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64::<1>(bytes)));
            if total == 64 {
                _mm512_storeu_si512(out.add(32).cast(), high);
            } else {
                _mm512_mask_storeu_epi16(out.add(32).cast(), low_bits(total - 32) as u32, high);
            }
        }
    }

    #[inline(always)]
    unsafe fn short_with_four_byte(
        block: Loaded,
        dst: &mut [MaybeUninit<T>],
    ) -> Result<usize, usize> {
        // SAFETY: by the caller.
        unsafe { short_pairs(block, dst) }
    }
}

// SAFETY: AVX-512F, BW and VBMI; the stores write `total` units, or 64 of ASCII.
unsafe impl RunStore for u32 {
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
                    _mm512_mask_storeu_epi32(
                        out.add(at).cast(),
                        low_bits(total - at) as u16,
                        units,
                    );
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
    unsafe fn store_values_in_run(lows: __m512i, highs: __m512i, total: usize, out: *mut u32) {
        // Whether a block's values take three stores or four is as random as the text: past 32
        // units (every block of 2-byte text, none of CJK) all four are made, the last ones
        // masked, each lane's value permuted into place with the two bytes above it zeroed.
        // (Only where there is room for all four: into outputs of the exact size, masked-off
        // lanes past the output's end made short strings slower.)
        // SAFETY: by the caller: the whole store writes 16 units of the at least 16 of `total`,
        // the masked ones those after, below `total`, all within the 64 writable.
        unsafe {
            let masks = low_bits(total);
            let units = |k: usize| {
                _mm512_maskz_permutex2var_epi8(
                    0x3333_3333_3333_3333,
                    lows,
                    table64(&WIDEN32[k]),
                    highs,
                )
            };
            _mm512_storeu_si512(out.cast(), units(0));
            _mm512_mask_storeu_epi32(out.add(16).cast(), (masks >> 16) as u16, units(1));
            if total > 32 {
                _mm512_mask_storeu_epi32(out.add(32).cast(), (masks >> 32) as u16, units(2));
                _mm512_mask_storeu_epi32(out.add(48).cast(), (masks >> 48) as u16, units(3));
            }
        }
    }

    #[inline(always)]
    unsafe fn store_ascii(bytes: __m512i, total: usize, out: *mut u32) {
        // SAFETY: by the caller: each store writes 16 units below `total`, or those left.
        unsafe {
            for k in 0..4 {
                let left = total.saturating_sub(16 * k);
                if left == 0 {
                    break;
                }
                let chunk = match k {
                    0 => _mm512_extracti32x4_epi32::<0>(bytes),
                    1 => _mm512_extracti32x4_epi32::<1>(bytes),
                    2 => _mm512_extracti32x4_epi32::<2>(bytes),
                    _ => _mm512_extracti32x4_epi32::<3>(bytes),
                };
                let units = _mm512_cvtepu8_epi32(chunk);
                if left >= 16 {
                    _mm512_storeu_si512(out.add(16 * k).cast(), units);
                } else {
                    _mm512_mask_storeu_epi32(out.add(16 * k).cast(), low_bits(left) as u16, units);
                }
            }
        }
    }

    #[inline(always)]
    unsafe fn short_with_four_byte(
        block: Loaded,
        dst: &mut [MaybeUninit<u32>],
    ) -> Result<usize, usize> {
        // SAFETY: by the caller.
        unsafe { short_fours(block, dst) }
    }
}

/// [`BlockConverter::narrow_run_utf16`] and [`BlockConverter::narrow_run_utf32`], with blocks of
/// ASCII in the run widened, as a function of its own: inlined into the converter, the loop
/// makes its conversions of 4-byte characters slower. LZCNT, which the converters are not
/// compiled with, keeps it out of line, where `#[inline(never)]` alone did not.
///
/// # Safety
/// As for [`BlockConverter::narrow_run_utf16`]; the CPU has AVX-512F, BW, VBMI and VBMI2, POPCNT
/// and LZCNT.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,lzcnt,popcnt,bmi2")]
#[inline(never)]
unsafe fn narrow_run<T: RunStore>(src: &[u8], dst: &mut [MaybeUninit<T>]) -> (usize, usize) {
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
    // (`total`, or 64 of ASCII), and the loop condition leaves room for 64. A block of
    // characters of 1-3 bytes ends at least 16 of them: all but at most two of its bytes (the
    // start of a character the next block ends) are in characters it ends.
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
                T::store_ascii(
                    b,
                    from_utf8::BLOCK,
                    dst.as_mut_ptr().cast::<T>().add(written),
                );
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
            // what this loop spends most on: the last three are made only where
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
            let total = store_narrow::<T, true>(
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
/// 64 bytes at `p`, at `out`, and nothing after them: their number. `continuation` and `third`
/// mark the continuation bytes and the third bytes of 3-byte characters in `b`; the bytes
/// before them, one and two places, are read from memory, so that a character that starts
/// before `p` is put together too. With `IN_RUN`, stored as in a run
/// ([`RunStore::store_values_in_run`]).
///
/// # Safety
/// The CPU has AVX-512F, BW, VBMI and VBMI2; the byte before each continuation byte and the
/// two before each third byte readable; as many units writable at `out` as `ends` has bits, and
/// with `IN_RUN` at least 16 bits and 64 units.
#[inline(always)]
unsafe fn store_narrow<T: RunStore, const IN_RUN: bool>(
    b: __m512i,
    p: *const u8,
    continuation: u64,
    third: u64,
    ends: u64,
    out: *mut MaybeUninit<T>,
) -> usize {
    // SAFETY: by the caller; the loads read only the bytes their masks select.
    unsafe {
        let middle = _mm512_maskz_loadu_epi8(continuation, p.wrapping_sub(1).cast());
        let top = _mm512_maskz_loadu_epi8(third, p.wrapping_sub(2).cast());
        store_values_of::<T, IN_RUN>(b, middle, top, ends, out)
    }
}

/// The byte permutations that give each byte lane the byte one, two and three places before it.
static BYTES_BEFORE: [[u8; 64]; 3] = {
    let mut table = [[0; 64]; 3];
    let mut i = 0;
    while i < 64 {
        table[0][i] = ((i + 63) % 64) as u8;
        table[1][i] = ((i + 62) % 64) as u8;
        table[2][i] = ((i + 61) % 64) as u8;
        i += 1;
    }
    table
};

/// [`store_narrow`] for a block that holds all its characters whole: the bytes before
/// continuation bytes and third bytes taken from `b` itself, by permutations, not loaded again.
///
/// # Safety
/// The CPU has AVX-512F, BW, VBMI and VBMI2; as many units writable at `out` as `ends` has
/// bits.
#[inline(always)]
unsafe fn store_whole_narrow<T: RunStore>(
    b: __m512i,
    continuation: u64,
    third: u64,
    ends: u64,
    out: *mut MaybeUninit<T>,
) -> usize {
    // SAFETY: by the caller.
    unsafe {
        let (middle, top) = bytes_before(b, continuation, third);
        store_values_of::<T, false>(b, middle, top, ends, out)
    }
}

/// The bytes one place before the `continuation` bytes of `b` and two places before its
/// `third` bytes, taken from `b` by permutations (zeros elsewhere).
///
/// # Safety
/// The CPU has AVX-512F and VBMI.
#[inline(always)]
unsafe fn bytes_before(b: __m512i, continuation: u64, third: u64) -> (__m512i, __m512i) {
    // SAFETY: by the caller; the tables hold 64 bytes each.
    unsafe {
        (
            _mm512_maskz_permutexvar_epi8(continuation, table64(&BYTES_BEFORE[0]), b),
            _mm512_maskz_permutexvar_epi8(third, table64(&BYTES_BEFORE[1]), b),
        )
    }
}

/// The checks of a string of 1 to 64 bytes loaded whole in `b` (zeros after the bytes of
/// `within`), whose `continuation` and `lead` bytes are marked, as a block of a run of blocks
/// is checked ([`narrow_run`]), the end of the string in place of the next block: a lead byte
/// must have its continuation bytes before the end. Without `FOUR`, the caller sends strings
/// with a byte from F0 elsewhere, and the leads go to E0..EF; with it, 4-byte
/// characters too (a lead from F0 to F4, F0 followed by 90 or above, F4 by less than 90,
/// three continuation bytes). `Some` of the third bytes of its 3- and 4-byte characters, of
/// its 4-byte leads and of the bytes that end a character (a 4-byte character ends twice, at
/// its third byte and at its fourth, for its two units of UTF-16); `None` if it is ill-formed.
///
/// # Safety
/// The CPU has AVX-512F and BW.
#[inline(always)]
unsafe fn whole_string_checks<const FOUR: bool>(
    b: __m512i,
    within: u64,
    continuation: u64,
    lead: u64,
) -> Option<(u64, u64, u64)> {
    // SAFETY: by the caller.
    unsafe {
        let lead4 = if FOUR {
            _mm512_cmpge_epu8_mask(b, splat8(0xF0))
        } else {
            0
        };
        let wide = _mm512_cmpge_epu8_mask(b, splat8(0xE0));
        // C0 and C1 (below C2, as unsigned differences from it, at FE and FF), and the leads
        // from F5 (from F0 without `FOUR`).
        let first_bad = if FOUR { 0xF5 - 0xC2 } else { 0xF0 - 0xC2 };
        let from_c2 = _mm512_sub_epi8(b, splat8(0xC2));
        // The second bytes against the ranges their leads allow: the quarters of 80..BF that
        // the byte before forbids, tested against the byte's own quarter. A byte after a lead
        // that is not a continuation byte fails the test of continuation bytes below.
        let (before, _) = bytes_before(b, continuation, 0);
        let forbidden =
            _mm512_maskz_permutexvar_epi8(wide << 1, before, table64(&FORBIDDEN_QUARTERS));
        let quarter = _mm512_permutexvar_epi8(b, table64(&QUARTER_OF_CONTINUATION));
        let error = _mm512_mask_cmpge_epu8_mask(lead, from_c2, splat8(first_bad))
            | _mm512_test_epi8_mask(forbidden, quarter)
            // A lead byte whose continuation bytes would be past the 64th byte, which the
            // test of continuation bytes below cannot see (before the end of a shorter
            // string, it sees the zeros after it).
            | (lead >> 63)
            | (wide >> 62)
            | (lead4 >> 61);
        let third = wide << 2;
        if (continuation ^ ((lead << 1) | third | (lead4 << 3))) | error != 0 {
            return None;
        }
        // Every byte of the string followed by no continuation byte ends a character.
        Some((third, lead4, (!(continuation >> 1) & within) | (lead4 << 2)))
    }
}

/// Bit `q` of the entry of a lead byte from E0 (by its low six bits, as VPERMB indexes) is set
/// if the character's second byte cannot be in the quarter `q` of 80..BF (0: 80..8F, 1: 90..9F,
/// 2: A0..AF, 3: B0..BF): E0 takes only A0..BF (overlong below), ED only 80..9F (surrogates
/// above), F0 only 90..BF (overlong below), F4 only 80..8F (above U+10FFFF above); the others
/// take all of 80..BF (the Unicode Standard, table 3-7).
static FORBIDDEN_QUARTERS: [u8; 64] = {
    let mut table = [0; 64];
    table[0xE0 & 0x3F] = 0b0011;
    table[0xED & 0x3F] = 0b1100;
    table[0xF0 & 0x3F] = 0b0001;
    table[0xF4 & 0x3F] = 0b1110;
    table
};

/// The bit of the quarter of 80..BF of each continuation byte, by its low six bits (see
/// [`FORBIDDEN_QUARTERS`]).
static QUARTER_OF_CONTINUATION: [u8; 64] = {
    let mut table = [0; 64];
    let mut i = 0;
    while i < 64 {
        table[i] = 1 << (i / 16);
        i += 1;
    }
    table
};

/// [`whole_string_checks`] for a string with no byte from E0 (whose characters are of one and
/// two bytes, if it is well-formed): its lead bytes from C2, each followed by one continuation
/// byte, the only ones (the zeros after the string are none; a lead that is the 64th byte
/// has none). `Some` of the bytes of the string (of `within`) that end a character; `None`
/// if it is ill-formed.
///
/// # Safety
/// The CPU has AVX-512F and BW.
#[inline(always)]
unsafe fn two_byte_checks(b: __m512i, within: u64, continuation: u64, lead: u64) -> Option<u64> {
    // SAFETY: by the caller.
    let overlong = unsafe { _mm512_mask_cmplt_epu8_mask(lead, b, splat8(0xC2)) };
    let error = overlong | (continuation ^ (lead << 1)) | (lead >> 63);
    (error == 0).then_some(!(continuation >> 1) & within)
}

/// The low and high bytes of each byte's value if it ends a character of `b`, given `middle`
/// and `top`, the bytes one and two places before its continuation bytes and the third bytes
/// of its 3-byte characters (zeros elsewhere).
///
/// # Safety
/// The CPU has AVX-512F.
#[inline(always)]
unsafe fn value_bytes(b: __m512i, middle: __m512i, top: __m512i) -> (__m512i, __m512i) {
    // SAFETY: by the caller.
    unsafe {
        // Each byte's value if it ends a character: its own seven bits (six of a continuation
        // byte), the six of the byte before above them if it continues a character (five of a
        // 2-byte lead), the four of a 3-byte lead two before if it is the third byte of one.
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
        (low_byte, high_byte)
    }
}

/// The stores of [`store_narrow`] and [`store_whole_narrow`], given `middle` and `top`, the
/// bytes one and two places before the continuation bytes and the third bytes of `b` (zeros
/// elsewhere). With `IN_RUN`, stored as in a run ([`RunStore::store_values_in_run`]).
///
/// # Safety
/// The CPU has AVX-512F, BW, VBMI and VBMI2; as many units writable at `out` as `ends` has
/// bits, and with `IN_RUN` at least 16 bits and 64 units.
#[inline(always)]
unsafe fn store_values_of<T: RunStore, const IN_RUN: bool>(
    b: __m512i,
    middle: __m512i,
    top: __m512i,
    ends: u64,
    out: *mut MaybeUninit<T>,
) -> usize {
    // SAFETY: by the caller.
    unsafe {
        let (low_byte, high_byte) = value_bytes(b, middle, top);
        // The low and high bytes of the values of the bytes that end a character, packed.
        let lows = compress_bytes(ends, low_byte);
        let highs = compress_bytes(ends, high_byte);
        let total = ends.count_ones() as usize;
        if IN_RUN {
            T::store_values_in_run(lows, highs, total, out.cast::<T>());
        } else {
            T::store_values(lows, highs, total, out.cast::<T>());
        }
        total
    }
}

/// [`BlockConverter::mixed_utf32`], as a function of its own: the converter into UTF-32 is compiled
/// for AVX2 alone (see [`utf8_to_utf32`]), and calls it. It converts every character whose
/// bytes are in the block, not the first 32 as into UTF-16, so that ASCII text with an emoji
/// now and then takes one call per block, not two (into UTF-16, where the block is inline, the
/// same made no difference).
///
/// # Safety
/// The CPU has AVX-512F, BW, VBMI, VBMI2 and POPCNT; as for [`BlockConverter::mixed_utf32`].
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt,bmi2")]
#[inline(never)]
unsafe fn mixed_block_utf32(block: *const u8, out: *mut u32) -> (usize, usize) {
    // SAFETY: the instructions and `block` by the caller, as `mixed_values` needs; 64 units
    // writable at `out` by the caller (BlockConverter's contract), of which the stores write `n`,
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
/// converts their characters as [`BlockConverter::mixed_utf16`] and [`BlockConverter::mixed_utf32`]
/// convert a block's, at most 32 into UTF-16, if their units fit: the part of a short string,
/// or of the end of a stretch, that the blocks leave, which went one character at a time with
/// a branch on its length that no predictor learns in mixed text. Input of less than a block
/// with no 4-byte character takes [`narrow_tail`] instead.
///
/// # Safety
/// The CPU has AVX-512F, BW, VBMI, VBMI2 and BMI2.
#[inline(always)]
unsafe fn mixed_tail<T: MixedTailUnit + RunStore>(
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
unsafe fn mixed_steps<T: MixedTailUnit>(src: &[u8], dst: &mut [MaybeUninit<T>]) -> (usize, usize) {
    let (mut read, mut written) = (0, 0);
    while let Some(rest) = src.get(read..).filter(|r| !r.is_empty()) {
        let len = rest.len().min(from_utf8::BLOCK);
        // SAFETY: the instructions by the caller; the load reads the first `len` bytes of
        // `rest` (the others are masked off: neither read nor able to fault).
        let b = unsafe { _mm512_maskz_loadu_epi8(low_bits(len), rest.as_ptr().cast()) };
        // The starts in the block, and the one that ends the input in less.
        let keep = if len < from_utf8::BLOCK {
            // SAFETY: BMI2 by the caller.
            unsafe { low_bits(len + 1) }
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
/// than the exact path's few characters.
const TAIL_MIN: usize = 24;

/// [`mixed_tail`] for input of 8 to [`NARROW_MAX`] bytes with no 4-byte character (else it
/// converts nothing): its characters put together from the bytes before each, as a run of
/// blocks does ([`store_narrow`]), with no compression of their starts and no permutation by
/// them, a block at a time ([`narrow_step`]); faster on short strings than the exact path,
/// which mispredicts the length of a character at each change of script.
///
/// With `VALIDATE`, `src` need not be well-formed: it is checked first, and nothing converted
/// if it is not. A whole string converted so ([`short_string`]) takes none of the converter's
/// other steps, nor its separate validation.
///
/// # Safety
/// The CPU has AVX-512F, BW, VBMI and VBMI2; without `VALIDATE`, `src` is well-formed UTF-8.
#[inline(always)]
unsafe fn narrow_tail<T: RunStore, const VALIDATE: bool>(
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
    if VALIDATE && !unsafe {
        crate::algorithms::lookup::valid_short::<Avx512, { crate::algorithms::lookup::NOTHING }>(
            src,
        )
    }
    .valid
    {
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
/// The CPU has AVX-512F, BW, VBMI, VBMI2 and BMI2; `b` holds the first bytes of `rest` (at
/// most 64), zeros after them.
#[inline(always)]
unsafe fn narrow_step<T: RunStore>(
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
    // SAFETY: BMI2 by the caller.
    let within = unsafe { low_bits(rest.len().min(from_utf8::BLOCK)) };
    let ends = !(continuation >> 1) & within & !(u64::from(cut) << 63);
    if continuation & 1 != 0 || ends.count_ones() as usize > out.len() {
        return (0, 0);
    }
    // SAFETY: the instructions by the caller; byte 0 is no continuation byte and the third
    // bytes are marked from byte 2 on, so the bytes read before them are in `rest`; `out` has
    // a unit for each bit of `ends`.
    let written = unsafe {
        store_narrow::<T, false>(
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

/// The longest string [`narrow_tail`] converts: longer ones are faster through the
/// converter's blocks.
const NARROW_MAX: usize = 128;

/// [`mixed_tail`] into UTF-32, as a function of its own, as [`mixed_block_utf32`] is.
///
/// # Safety
/// The CPU has AVX-512F, BW, VBMI, VBMI2 and POPCNT.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt,bmi2")]
#[inline(never)]
unsafe fn mixed_tail_utf32(src: &[u8], dst: &mut [MaybeUninit<u32>]) -> (usize, usize) {
    // SAFETY: by the caller.
    unsafe { mixed_tail(src, dst) }
}

/// Converts `src` whole if it is a well-formed string of [`NARROW_MIN`] to [`NARROW_MAX`]
/// bytes whose units fit in `dst`: with [`narrow_tail`], or if it holds a 4-byte character,
/// validated first, with the steps of [`mixed_tail`]: the bytes read and units written (see
/// [`whole_string`]). Else it writes nothing, or only the units of the characters of its
/// first steps (its output too small), which the converter then writes again alike.
///
/// # Safety
/// The CPU has AVX-512F, BW, VBMI and VBMI2.
#[inline(always)]
unsafe fn short_string<T: RunStore + MixedTailUnit>(
    src: &[u8],
    dst: &mut [MaybeUninit<T>],
) -> (usize, usize) {
    // SAFETY: by the caller.
    let done = unsafe { narrow_tail::<T, true>(src, dst) };
    // Left by `narrow_tail` at a length it takes: a 4-byte character, an error, or no room.
    if done.0 == 0
        && (NARROW_MIN..=NARROW_MAX).contains(&src.len())
        // SAFETY: by the caller.
        && unsafe { crate::algorithms::lookup::valid_short::<Avx512, { crate::algorithms::lookup::NOTHING }>(src) }.valid
    {
        // SAFETY: by the caller; `src` is well-formed.
        unsafe { mixed_steps::<T>(src, dst) }
    } else {
        done
    }
}

/// Converts all of `src` if it is well-formed UTF-8 whose units fit in `dst`: `Ok` with the units
/// written; else `Err` with the units of leading ASCII converted, the bytes of the steps before the
/// one that failed if all were ASCII, else 0 (the converter writes again alike what was written).
/// Up to 64 bytes, one masked load and [`short_block`]; longer, [`short_steps`]: the input is read
/// once, and what is converted is what was checked. The dispatch gives it up to `SHORT_UTF8` bytes.
///
/// Short strings of every script take this one path, with about half the instructions of the plain
/// loop or of [`short_string`] (a call on a short string is mostly fixed cost). The dispatch calls
/// it before them and before any converter (`Kernels::short`, `ShortConverters`): entering a
/// converter, its registers and stack set up for its loops, cost a short string about as much as
/// converting it.
///
/// # Safety
/// The CPU has AVX-512F, BW, VBMI, VBMI2, LZCNT, POPCNT and BMI2.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt,bmi2")]
pub(crate) unsafe fn short_utf8<T: RunStore>(
    call: &mut ShortCall<'_, u8, T>,
) -> Result<usize, usize> {
    let (src, dst) = (call.src, &mut *call.dst);
    // SAFETY: by the caller.
    unsafe { short_utf8_of(src, dst) }
}

/// [`short_utf8`]'s conversion of `src` into `dst`, inlined into a caller compiled for its
/// instructions.
///
/// # Safety
/// The CPU has AVX-512F, BW, VBMI, VBMI2, LZCNT, POPCNT and BMI2, and the caller is compiled
/// for them (LZCNT aside: see [`short_steps`]).
#[inline(always)]
pub(crate) unsafe fn short_utf8_of<T: RunStore>(
    src: &[u8],
    dst: &mut [MaybeUninit<T>],
) -> Result<usize, usize> {
    if src.len() <= from_utf8::BLOCK {
        // SAFETY: by the caller.
        return unsafe { short_block(src, dst) };
    }
    // SAFETY: by the caller.
    let ascii = unsafe { ascii_blocks(src, dst) };
    if ascii == src.len() {
        return Ok(ascii);
    }
    // SAFETY: by the caller.
    unsafe { short_steps(src, dst, ascii) }
}

/// [`short_utf8`] for strings longer than a register, after their first `ascii` bytes of
/// blocks of ASCII ([`ascii_blocks`]): steps of up to 64 bytes, each ending where a character
/// ends (before the lead of one that the block ends inside, which the next step takes whole),
/// each converted by [`short_block_of`], inlined: a call a step (its arguments, the
/// VZEROUPPER before it, the result through a register) cost strings of two steps and more
/// a good part of their time (see BENCHMARKS.md). Out of line: inlined into [`short_utf8`],
/// its loop's registers were saved and restored on every call of a string of one register.
/// LZCNT, which finds the step's end and which `short_utf8` is not compiled with, keeps it
/// there, where `#[inline(never)]` did not (rustc 1.95 gave LLVM no `noinline` for a
/// function with target features).
///
/// # Safety
/// The CPU has AVX-512F, BW, VBMI, VBMI2, LZCNT, POPCNT and BMI2.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,lzcnt,popcnt,bmi2")]
#[inline(never)]
unsafe fn short_steps<T: RunStore>(
    src: &[u8],
    dst: &mut [MaybeUninit<T>],
    ascii: usize,
) -> Result<usize, usize> {
    let (mut read, mut written) = (ascii, ascii);
    while let Some(rest) = src.get(read..).filter(|r| !r.is_empty()) {
        let mut len = rest.len().min(from_utf8::BLOCK);
        // SAFETY: the instructions by the caller; the load reads the first `len` bytes of
        // `rest` (the others are masked off: neither read nor able to fault), zeros after
        // them, and so does the move of the step's bytes.
        let converted = unsafe {
            if let Some([.., a, b, c, d, next]) = rest.first_chunk::<{ from_utf8::BLOCK + 1 }>()
                && (*next as i8) < -64
            {
                // The block ends inside a character: the step ends before its first byte, the
                // last of the block's last four that is no continuation byte (a character has
                // at most four bytes; if all four are continuation bytes, the text is
                // ill-formed and the step whole refuses it). Found in a general-purpose
                // register from the bytes in memory, not from a compare of the block: the
                // next step's load waits for it.
                let last = u32::from_le_bytes([*a, *b, *c, *d]);
                let starts = (last ^ 0x8080_8080) & 0xC0C0_C0C0;
                if starts != 0 {
                    len = from_utf8::BLOCK - 4 + (31 - starts.leading_zeros() as usize) / 8;
                }
            }
            let out = dst.get_mut(written..).unwrap_or_default();
            short_block_of(rest.get(..len).unwrap_or_default(), out)
        };
        let Ok(units) = converted else {
            return Err(if written == read { read } else { 0 });
        };
        (read, written) = (read + len, written + units);
    }
    Ok(written)
}

/// The bytes at the start of `src` (at least 64) in blocks of 64 of ASCII, widened into
/// `dst`, as far as they go and fit: their number (all of `src` if it is ASCII: the last
/// block then overlaps the one before it, whose units it writes again alike).
///
/// # Safety
/// The CPU has AVX-512F and BW.
#[inline(always)]
unsafe fn ascii_blocks<T: RunStore>(src: &[u8], dst: &mut [MaybeUninit<T>]) -> usize {
    let fit = src.len().min(dst.len());
    let out = dst.as_mut_ptr().cast::<T>();
    // A string of 65 to 256 bytes whose units fit: if its first block is ASCII, the blocks
    // that cover the rest (at `n - 64`, from 129 bytes at 64 and `n - 128` too), tested
    // together, with no branch on its length within 65-128 or 129-256 bytes: block by block,
    // the loop below told a string of 256 bytes of ASCII from one of 253 by branches that no
    // predictor learns for strings of a size limit and a few bytes less (see BENCHMARKS.md).
    // Others take the loop.
    let n = src.len();
    if fit == n && (from_utf8::BLOCK + 1..=4 * from_utf8::BLOCK).contains(&n) {
        // SAFETY: the instructions by the caller; `src` has the 64 bytes loaded.
        let first = unsafe { _mm512_loadu_si512(src.as_ptr().cast()) };
        // SAFETY: as above.
        if unsafe { _mm512_movepi8_mask(first) } != 0 {
            return 0;
        }
        let last = n - from_utf8::BLOCK;
        // SAFETY: the instructions by the caller; the offsets are at most `n - 64`.
        let ascii = unsafe {
            if n <= 2 * from_utf8::BLOCK {
                ascii_cover(src, out, first, [last])
            } else {
                ascii_cover(
                    src,
                    out,
                    first,
                    [from_utf8::BLOCK, n - 2 * from_utf8::BLOCK, last],
                )
            }
        };
        if ascii {
            return n;
        }
    }
    let mut at = 0;
    // SAFETY: the instructions by the caller; each load reads 64 bytes of `src` (`at + 64`
    // is at most its length), each store the units of those 64 bytes, within `fit`.
    unsafe {
        while at < fit {
            let from = if at + from_utf8::BLOCK <= fit {
                at
            } else if fit == src.len() && fit >= from_utf8::BLOCK {
                fit - from_utf8::BLOCK
            } else {
                break;
            };
            let b = _mm512_loadu_si512(src.as_ptr().add(from).cast());
            if _mm512_movepi8_mask(b) != 0 {
                break;
            }
            T::store_ascii(b, from_utf8::BLOCK, out.add(from));
            at = from + from_utf8::BLOCK;
        }
    }
    at
}

/// Half a block.
const HALF: usize = from_utf8::BLOCK / 2;

/// All of `src`, 33 to 256 bytes, if it is ASCII, widened into `dst`: the first and the last
/// 32 bytes, from 65 bytes the first and the last 64 (which overlap below twice that), from
/// 129 bytes four blocks of 64 that cover it, tested together, then stored as units. `Ok`
/// with the units written, else `Err(0)`, having written nothing (the input is not all ASCII,
/// or is of another length, or `dst` is too short), and the upper halves of the vector
/// registers cleared: the caller's next paths may run SSE instructions, which on some CPUs
/// wait on those halves, and LLVM leaves them set before a tail call.
///
/// # Safety
/// The CPU has AVX-512F and BW.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
pub(crate) unsafe fn widen_if_ascii<T: RunStore>(
    src: &[u8],
    dst: &mut [MaybeUninit<T>],
) -> Result<usize, usize> {
    let n = src.len();
    if dst.len() < n {
        return Err(0);
    }
    let out = dst.as_mut_ptr().cast::<T>();
    // SAFETY: the instructions by the caller; the loads read `src`'s first and last 32 or 64
    // bytes, which it has, and the stores write their units, for which `dst` has room.
    unsafe {
        if (from_utf8::BLOCK + 1..=2 * from_utf8::BLOCK).contains(&n) {
            let first = _mm512_loadu_si512(src.as_ptr().cast());
            if ascii_cover(src, out, first, [n - from_utf8::BLOCK]) {
                return Ok(n);
            }
        } else if (2 * from_utf8::BLOCK + 1..=4 * from_utf8::BLOCK).contains(&n) {
            let first = _mm512_loadu_si512(src.as_ptr().cast());
            let at = [
                from_utf8::BLOCK,
                n - 2 * from_utf8::BLOCK,
                n - from_utf8::BLOCK,
            ];
            if ascii_cover(src, out, first, at) {
                return Ok(n);
            }
        } else if (HALF + 1..=from_utf8::BLOCK).contains(&n) {
            let first = _mm256_loadu_si256(src.as_ptr().cast());
            let last = _mm256_loadu_si256(src.as_ptr().add(n - HALF).cast());
            if _mm256_movemask_epi8(_mm256_or_si256(first, last)) == 0 {
                T::store_ascii(_mm512_castsi256_si512(first), HALF, out);
                T::store_ascii(_mm512_castsi256_si512(last), HALF, out.add(n - HALF));
                return Ok(n);
            }
        } else {
            return Err(0);
        }
        _mm256_zeroupper();
    }
    Err(0)
}

/// Whether the 64-byte blocks of `src` at the offsets `at` are ASCII, tested together, and if
/// so each widened into the units at `out` from its offset, and `first`, the block at 0, too.
///
/// # Safety
/// The CPU has AVX-512F and BW; each offset is at most `src.len() - 64`, `first` is the
/// block at 0, and `out` has room for `src.len()` units.
#[inline(always)]
unsafe fn ascii_cover<T: RunStore, const N: usize>(
    src: &[u8],
    out: *mut T,
    first: __m512i,
    at: [usize; N],
) -> bool {
    // SAFETY: by the caller: each load reads 64 bytes of `src`, each store writes the units of
    // those bytes, within the room for `src.len()`.
    unsafe {
        let blocks = at.map(|at| _mm512_loadu_si512(src.as_ptr().add(at).cast()));
        let any = blocks.into_iter().fold(first, |a, b| _mm512_or_si512(a, b));
        if _mm512_movepi8_mask(any) != 0 {
            return false;
        }
        T::store_ascii(first, from_utf8::BLOCK, out);
        for (block, at) in blocks.into_iter().zip(at) {
            T::store_ascii(block, from_utf8::BLOCK, out.add(at));
        }
        true
    }
}

/// Converts `bytes` (up to 64) into `dst`, if they are well-formed UTF-8 whose characters end
/// within them (into UTF-32, of 1 to 3 bytes) and their units fit: `Ok` of the units
/// written; else (or if there are none) `Err(0)`, having written nothing: [`narrow_block`],
/// then [`wide_block`] for a block with bytes from E0.
///
/// Out of line, so that [`short_pairs`] is inlined into it; [`short_steps`] inlines
/// [`short_block_of`] instead.
///
/// # Safety
/// The CPU has AVX-512F, BW, VBMI, VBMI2, POPCNT and BMI2.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt,bmi2")]
#[inline(never)]
unsafe fn short_block<T: RunStore>(
    bytes: &[u8],
    dst: &mut [MaybeUninit<T>],
) -> Result<usize, usize> {
    // SAFETY: by the caller.
    unsafe { short_block_of(bytes, dst) }
}

/// [`short_block`], inlined into a caller compiled for its instructions.
///
/// # Safety
/// As for [`short_block`].
#[inline(always)]
unsafe fn short_block_of<T: RunStore>(
    bytes: &[u8],
    dst: &mut [MaybeUninit<T>],
) -> Result<usize, usize> {
    // SAFETY: by the caller.
    unsafe {
        match narrow_block(bytes, dst) {
            Narrow::Converted(units) => Ok(units),
            Narrow::Refused => Err(0),
            Narrow::Wide(block) => wide_block(block, dst),
        }
    }
}

/// What [`narrow_block`] made of a block; in all but the first, it wrote nothing.
pub(crate) enum Narrow {
    /// Converted, into the units counted.
    Converted(usize),
    /// Empty, ill-formed, or too long for the output.
    Refused,
    /// Holds a byte from E0: for [`wide_block`], with the block loaded.
    Wide(Loaded),
}

/// A block of up to 64 bytes in one register, zeros after them, with the masks of its bytes,
/// of its continuation bytes (80..BF) and of its lead bytes (from C0).
#[derive(Clone, Copy)]
pub(crate) struct Loaded {
    b: __m512i,
    within: u64,
    continuation: u64,
    lead: u64,
}

impl Loaded {
    /// `bytes` (1 to 64) loaded.
    ///
    /// # Safety
    /// The CPU has AVX-512F, BW and BMI2, and the caller is compiled for them.
    #[inline(always)]
    pub(crate) unsafe fn new(bytes: &[u8]) -> Loaded {
        // SAFETY: by the caller; the load reads the bytes of `bytes` (the others are masked
        // off: neither read nor able to fault), zeros after them.
        unsafe {
            let within = low_bits(bytes.len());
            let b = _mm512_maskz_loadu_epi8(within, bytes.as_ptr().cast());
            Loaded {
                b,
                within,
                // As in `narrow_run`: 80..BF are the bytes below -64 as signed bytes.
                continuation: _mm512_cmplt_epi8_mask(b, splat8(0xC0)),
                lead: _mm512_cmpge_epu8_mask(b, splat8(0xC0)),
            }
        }
    }
}

/// Converts `bytes` (up to 64) into `dst` if they are well-formed UTF-8 of characters of one
/// and two bytes (Latin, Greek, Cyrillic, Hebrew, Arabic text) and their units fit. One masked
/// load; ASCII widened at once; else the checks of a block of [`narrow_run`] of those
/// characters only, with the end of the string in place of the next block (a lead byte must
/// have its continuation byte before the end), then the stores of [`store_values_of`].
///
/// # Safety
/// The CPU has AVX-512F, BW, VBMI, VBMI2, POPCNT and BMI2, and the caller is compiled for them
/// (the code is inlined into it).
#[inline(always)]
pub(crate) unsafe fn narrow_block<T: RunStore>(bytes: &[u8], dst: &mut [MaybeUninit<T>]) -> Narrow {
    let len = bytes.len();
    if len == 0 {
        return Narrow::Refused;
    }
    // SAFETY: by the caller; the stores write the units counted, which `dst` has.
    unsafe {
        let block = Loaded::new(bytes);
        let Loaded {
            b,
            within,
            continuation,
            lead,
        } = block;
        if continuation | lead == 0 {
            if len > dst.len() {
                return Narrow::Refused;
            }
            T::store_ascii(b, len, dst.as_mut_ptr().cast::<T>());
            return Narrow::Converted(len);
        }
        if _mm512_cmpge_epu8_mask(b, splat8(0xE0)) != 0 {
            return Narrow::Wide(block);
        }
        let Some(ends) = two_byte_checks(b, within, continuation, lead) else {
            return Narrow::Refused;
        };
        if ends.count_ones() as usize > dst.len() {
            return Narrow::Refused;
        }
        let middle = bytes_before(b, continuation, 0).0;
        Narrow::Converted(store_values_of::<T, false>(
            b,
            middle,
            _mm512_setzero_si512(),
            ends,
            dst.as_mut_ptr(),
        ))
    }
}

/// Converts the bytes (1 to 64, with a byte from E0) of `block` into `dst`, if they are
/// well-formed UTF-8 whose units fit: `Ok` of the units written; else `Err(0)`, having written
/// nothing. The checks and the stores of a block of [`narrow_run`] with 3-byte characters;
/// bytes from F0 go on to [`short_pairs`] (UTF-16), which does the same with surrogate pairs,
/// or [`short_fours`] (UTF-32).
///
/// # Safety
/// As for [`narrow_block`].
#[inline(always)]
pub(crate) unsafe fn wide_block<T: RunStore>(
    block: Loaded,
    dst: &mut [MaybeUninit<T>],
) -> Result<usize, usize> {
    let Loaded {
        b,
        within,
        continuation,
        lead,
    } = block;
    // SAFETY: by the caller; the stores write the units counted, which `dst` has.
    unsafe {
        // A 4-byte character, or a lead byte from F5: the path of 4-byte characters.
        if _mm512_cmpge_epu8_mask(b, splat8(0xF0)) != 0 {
            return T::short_with_four_byte(block, dst);
        }
        let Some((third, _, ends)) = whole_string_checks::<false>(b, within, continuation, lead)
        else {
            return Err(0);
        };
        if ends.count_ones() as usize > dst.len() {
            return Err(0);
        }
        // Its characters are whole in `b`; `ends`' units fit.
        Ok(store_whole_narrow(
            b,
            continuation,
            third,
            ends,
            dst.as_mut_ptr(),
        ))
    }
}

/// The bytes of `block`, if they are well-formed UTF-8 (of characters of 1 to 4 bytes, by
/// [`whole_string_checks`]): the register, its continuation bytes, and the third bytes,
/// 4-byte leads and ends of characters that the checks give.
///
/// # Safety
/// The CPU has AVX-512F, BW and BMI2.
#[inline(always)]
unsafe fn checked(block: Loaded) -> Option<(__m512i, u64, u64, u64, u64)> {
    let Loaded {
        b,
        within,
        continuation,
        lead,
    } = block;
    // SAFETY: by the caller.
    let (third, lead4, ends) =
        unsafe { whole_string_checks::<true>(b, within, continuation, lead)? };
    Some((b, continuation, third, lead4, ends))
}

/// Converts the bytes (1 to 64) of `block` into UTF-16, if they are well-formed UTF-8 (of
/// characters of 1 to 4 bytes) whose units fit in `dst`: `Ok` with the units written; else
/// `Err(0)`, having written nothing. The checks of [`short_block`] with those of 4-byte
/// characters ([`whole_string_checks`]), and its conversion with each 4-byte character ending
/// twice: at its third byte, where the value of its first three bytes as a 3-byte character's
/// is the scalar value shifted right by 6 bits (the high surrogate is 0xD7C0 plus that shifted
/// right by 4 more), and at its fourth, where the value of its last two as a 2-byte character's
/// holds the low 10 bits (the low surrogate's).
///
/// # Safety
/// The CPU has AVX-512F, BW, VBMI, VBMI2, POPCNT and BMI2, and the caller is compiled for them
/// (the code is inlined into it).
#[inline(always)]
unsafe fn short_pairs<T: Utf16Store>(
    block: Loaded,
    dst: &mut [MaybeUninit<T>],
) -> Result<usize, usize> {
    // SAFETY: the instructions by the caller.
    unsafe {
        let Some((b, continuation, third, lead4, ends)) = checked(block) else {
            return Err(0);
        };
        let total = ends.count_ones() as usize;
        if total > dst.len() {
            return Err(0);
        }
        let (middle, top) = bytes_before(b, continuation, third);
        let (low_byte, high_byte) = value_bytes(b, middle, top);
        let lows = compress_bytes(ends, low_byte);
        let highs = compress_bytes(ends, high_byte);
        // Which of the packed values are the high and the low surrogates.
        let high_surrogates = _pext_u64(lead4 << 2, ends);
        let low_surrogates = _pext_u64(lead4 << 3, ends);
        let out = dst.as_mut_ptr().cast::<T>();
        for (half, interleave) in INTERLEAVE.iter().enumerate() {
            if 32 * half >= total {
                break;
            }
            let values = _mm512_permutex2var_epi8(lows, table64(interleave), highs);
            let high = _mm512_add_epi16(
                _mm512_srli_epi16::<4>(values),
                _mm512_set1_epi16(0xD7C0_u16 as i16),
            );
            // (values & 0x3FF) | 0xDC00
            let low = _mm512_ternarylogic_epi32::<0xEA>(
                values,
                _mm512_set1_epi16(0x03FF),
                _mm512_set1_epi16(0xDC00_u16 as i16),
            );
            let values =
                _mm512_mask_blend_epi16((high_surrogates >> (32 * half)) as u32, values, high);
            let values =
                _mm512_mask_blend_epi16((low_surrogates >> (32 * half)) as u32, values, low);
            _mm512_mask_storeu_epi16(
                out.add(32 * half).cast(),
                low_bits(total - 32 * half) as u32,
                order::<T>(values),
            );
        }
        Ok(total)
    }
}

/// Converts the bytes (1 to 64) of `block` into UTF-32, if they are well-formed UTF-8 (of
/// characters of 1 to 4 bytes) whose units fit in `dst`: `Ok` with the units written; else
/// `Err(0)`, having written nothing. The checks of [`short_pairs`] ([`whole_string_checks`]),
/// and one unit a character, its value at its last byte: a 4-byte character's fourth byte takes
/// its low and high bytes as [`value_bytes`] makes a 3-byte character's, with the second byte
/// in the lead's place (two before), and its bits 16-20 from the second byte's bits 4-5 and the
/// lead's 0-2 (three before).
///
/// # Safety
/// The CPU has AVX-512F, BW, VBMI, VBMI2, POPCNT and BMI2, and the caller is compiled for them
/// (the code is inlined into it).
#[inline(always)]
unsafe fn short_fours(block: Loaded, dst: &mut [MaybeUninit<u32>]) -> Result<usize, usize> {
    // SAFETY: the instructions by the caller; the stores write the `total` units counted,
    // which `dst` has.
    unsafe {
        let Some((b, continuation, third, lead4, ends)) = checked(block) else {
            return Err(0);
        };
        // A 4-byte character ends at its fourth byte alone.
        let ends = ends & !(lead4 << 2);
        let fourth = lead4 << 3;
        let total = ends.count_ones() as usize;
        if total > dst.len() {
            return Err(0);
        }
        // Two before: a 3-byte character's lead at its third byte, a 4-byte character's
        // second byte at its fourth.
        let (middle, top) = bytes_before(b, continuation, (third & !(lead4 << 2)) | fourth);
        let (low_byte, high_byte) = value_bytes(b, middle, top);
        let lead_byte = _mm512_maskz_permutexvar_epi8(fourth, table64(&BYTES_BEFORE[2]), b);
        // Shifted in 16-bit lanes: the masks keep each byte's own bits.
        let upper_byte = _mm512_maskz_mov_epi8(
            fourth,
            _mm512_ternarylogic_epi32::<0xEA>(
                _mm512_srli_epi16::<4>(top),
                splat8(0x03),
                _mm512_and_si512(_mm512_slli_epi16::<2>(lead_byte), splat8(0x1C)),
            ),
        );
        let mut lows = compress_bytes(ends, low_byte);
        let mut highs = compress_bytes(ends, high_byte);
        let mut uppers = compress_bytes(ends, upper_byte);
        let out = dst.as_mut_ptr().cast::<u32>();
        let mut at = 0;
        while at < total {
            // low | high << 8 | upper << 16, of the first 16 bytes of each
            let units = _mm512_ternarylogic_epi32::<0xFE>(
                _mm512_cvtepu8_epi32(_mm512_castsi512_si128(lows)),
                _mm512_slli_epi32::<8>(_mm512_cvtepu8_epi32(_mm512_castsi512_si128(highs))),
                _mm512_slli_epi32::<16>(_mm512_cvtepu8_epi32(_mm512_castsi512_si128(uppers))),
            );
            if total - at >= 16 {
                _mm512_storeu_si512(out.add(at).cast(), units);
            } else {
                _mm512_mask_storeu_epi32(out.add(at).cast(), low_bits(total - at) as u16, units);
            }
            // The next 16 bytes of each down to the bottom.
            let zero = _mm512_setzero_si512();
            lows = _mm512_alignr_epi32::<4>(zero, lows);
            highs = _mm512_alignr_epi32::<4>(zero, highs);
            uppers = _mm512_alignr_epi32::<4>(zero, uppers);
            at += 16;
        }
        Ok(total)
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
/// UTF-32 paid for.
///
/// # Safety
/// The CPU has AVX-512F, BW, VBMI, VBMI2 and POPCNT.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt,bmi2")]
#[inline(never)]
unsafe fn short_string_utf32(src: &[u8], dst: &mut [MaybeUninit<u32>]) -> (usize, usize) {
    // SAFETY: by the caller.
    unsafe { short_string(src, dst) }
}

/// A unit type (UTF-16 or UTF-32) that [`mixed_tail`] writes.
///
/// # Safety
/// Implementations write only the units they report.
unsafe trait MixedTailUnit: Sized {
    /// Writes the units of the characters that start at `starts` in `b` and end before the
    /// last start, at the start of `out` if they fit: the bytes and units, or (0, 0).
    ///
    /// # Safety
    /// The CPU has AVX-512F, BW, VBMI and VBMI2; `starts` has two bits or more.
    unsafe fn store_tail(b: __m512i, starts: u64, out: &mut [MaybeUninit<Self>]) -> (usize, usize);
}

// SAFETY: `store_utf16` writes the units it returns, counted before.
unsafe impl<T: Utf16Store> MixedTailUnit for T {
    #[inline(always)]
    unsafe fn store_tail(b: __m512i, starts: u64, out: &mut [MaybeUninit<T>]) -> (usize, usize) {
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
            let at = out.as_mut_ptr().cast::<T>();
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
unsafe impl MixedTailUnit for u32 {
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

/// `from_utf8::convert` with AVX2's registers and the wider block, into UTF-16 of either byte
/// order: the converter past the leading blocks of ASCII (see `convert_ascii_first`).
///
/// # Safety
/// The CPU supports AVX-512F, BW, VL, VBMI and VBMI2, AVX2 and POPCNT; `src` starts a
/// character, or `valid` is 0.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,avx2,popcnt,bmi2")]
#[inline(never)]
unsafe fn convert_rest_utf16<T: Utf16Store>(
    src: &[u8],
    valid: usize,
    dst: &mut [MaybeUninit<T>],
) -> (usize, usize) {
    // SAFETY: by the caller; the converter needs SSE4.1 and SSSE3, which AVX2 includes.
    unsafe { from_utf8::convert::<Avx2, T, Avx512BlockConverter>(src, valid, dst) }
}

crate::kernels::x86::from_utf8_converter!(
    /// `crate::transcode::utf16::utf8_to_utf16` with AVX2's registers, this kernel's
    /// validation and the wider block, into UTF-16 of the machine's byte order (`u16`) or of
    /// the other (`U16Swapped`). AVX2's steps compiled with AVX-512 enabled run slower on
    /// 4-byte characters, which the wider block more than makes up for (see BENCHMARKS.md).
    ///
    /// # Safety
    /// The CPU supports AVX-512F, BW, VL, VBMI and VBMI2, AVX2 and POPCNT.
    features: "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,avx2,popcnt,bmi2",
    utf8_to_utf16<T: Utf16Store> -> T, utf16::utf8_to_utf16_with,
    kernel: validate::<true>, registers: Avx2, rest: convert_rest_utf16,
    prelude(src, dst) {
        // SAFETY: the CPU has the instruction set by our contract.
        if let Some(done) = whole_string(unsafe { short_string(src, dst) }, src) {
            return done;
        }
    },
    // SAFETY: as above.
    tail: |s: &[u8], d: &mut [MaybeUninit<T>]| unsafe { mixed_tail(s, d) }
);

/// `from_utf8::convert` with AVX2's registers and the wider block, into UTF-32 (see
/// `convert_rest_utf16`), compiled for AVX2 alone as its caller is.
///
/// # Safety
/// As for `convert_rest_utf16`.
#[target_feature(enable = "avx2,popcnt")]
#[inline(never)]
unsafe fn convert_rest_utf32(
    src: &[u8],
    valid: usize,
    dst: &mut [MaybeUninit<u32>],
) -> (usize, usize) {
    // SAFETY: by the caller; the converter needs SSE4.1 and SSSE3, which AVX2 includes.
    unsafe { from_utf8::convert::<Avx2, u32, Avx512BlockConverter>(src, valid, dst) }
}

crate::kernels::x86::from_utf8_converter!(
    /// `crate::transcode::utf32::utf8_to_utf32` with AVX2's registers, this kernel's
    /// validation, the runs of blocks and the wider block of characters of any mix of lengths,
    /// each a function of its own: compiled for AVX2 alone, AVX2's steps run as fast as in
    /// AVX2's converter, and faster than with AVX-512 enabled (see BENCHMARKS.md).
    ///
    /// # Safety
    /// The CPU supports AVX-512F, BW, VL, VBMI and VBMI2, AVX2 and POPCNT.
    features: "avx2,popcnt",
    utf8_to_utf32 -> u32, utf32::utf8_to_utf32_with,
    kernel: validate::<true>, registers: Avx2, rest: convert_rest_utf32,
    prelude(src, dst) {
        if src.len() <= NARROW_MAX
            // SAFETY: the CPU has the instruction set by our contract.
            && let Some(done) = whole_string(unsafe { short_string_utf32(src, dst) }, src)
        {
            return done;
        }
    },
    // SAFETY: as above.
    tail: |s: &[u8], d: &mut [MaybeUninit<u32>]| unsafe { mixed_tail_utf32(s, d) }
);

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
        T: MixedTailUnit
            + RunStore
            + from_utf8::OutputUnit
            + PartialEq
            + core::fmt::Debug
            + From<u8>,
    {
        for src in lying_inputs() {
            for cap in capacities(src.len()) {
                // SAFETY: by the caller; the claim of well-formed input is what is tested.
                assert_within_bounds(&src, cap, |d| unsafe { block(&src, src.len(), d) });
                // SAFETY: as above.
                assert_within_bounds(&src, cap, |d| unsafe { tail(&src, d) });
                // SAFETY: as above.
                assert_within_bounds(&src, cap, |d| unsafe { short_string::<T>(&src, d) });
                // SAFETY: as above.
                assert_within_bounds(&src, cap, |d| unsafe {
                    let mut call = ShortCall { src: &src, dst: d };
                    short_utf8::<T>(&mut call).map_or((0, 0), |w| (src.len(), w))
                });
            }
        }
    }

    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,avx2,popcnt,bmi2")]
    unsafe fn block<T: from_utf8::OutputUnit>(
        s: &[u8],
        v: usize,
        d: &mut [MaybeUninit<T>],
    ) -> (usize, usize) {
        // SAFETY: the instructions by the caller.
        unsafe { from_utf8::convert::<Avx2, T, Avx512BlockConverter>(s, v, d) }
    }

    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,avx2,popcnt,bmi2")]
    unsafe fn tail<T: MixedTailUnit + RunStore>(
        s: &[u8],
        d: &mut [MaybeUninit<T>],
    ) -> (usize, usize) {
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
