//! Well-formed UTF-8 to UTF-16 or UTF-32 with 128-bit shuffles: the algorithm of Daniel Lemire
//! and Wojciech Muła, "Transcoding billions of Unicode characters per second with SIMD
//! instructions", Software: Practice and Experience 52(2), 2022 (arXiv:2109.10433), written here
//! from the paper's description, with every table computed below from its definition.
//!
//! The input is taken 64 bytes at a time. A block of ASCII is widened whole (with the widest
//! registers of the instruction set, [`WideningRegister`], which also widens the values of other
//! blocks as they are stored). Otherwise one bitmask marks the bytes
//! that end a character (those followed by a byte that is not a continuation byte), and:
//! - a block of sixteen 3-byte characters (CJK), or of sixteen 4-byte characters (emoji)
//!   where [`BlockConverter`] has no conversion of its own for them, is converted in four fixed
//!   steps;
//! - a block with no 4-byte character (most text) is converted whole, with no step: the value
//!   each byte would have if it ended a character is computed from it and the two bytes before
//!   it in 16-bit lanes, and those of the bytes that do end one are packed together by the mask
//!   ([`convert_narrow_block`]), which keeps each position independent of the last; past the
//!   input the caller has validated, the block is validated on the way, from the same
//!   registers, for less than a separate pass costs. An instruction set that can compress a
//!   register by a mask converts runs of such blocks its own way, before any other
//!   conversion is tried ([`BlockConverter`]);
//! - any other block of validated input, where the instruction set has a conversion of 1-4
//!   byte characters in wider registers ([`BlockConverter`]), takes that conversion from the start
//!   of the block;
//! - any other block (and the last ones of a validated stretch) a step at a time from the
//!   current position: 16 bytes of ASCII, of eight 2-byte characters or of four 4-byte
//!   characters, or 12 bytes of four 3-byte characters, where the mask says so, else the 12
//!   bits of the mask at the position pick from [`STEPS`] one shuffle of [`SHUFFLES`], which
//!   moves the bytes of the next few characters into lanes of their own (six characters of 1-2
//!   bytes into 16-bit lanes, four of 1-3 bytes or three of 1-4 bytes into 32-bit lanes), and
//!   the number of bytes those characters take, as in the paper;
//! - what the blocks leave, 16 to 63 bytes of well-formed input (a short string, or the end
//!   of a validated stretch), in the same steps into a buffer of its own ([`staged_tail`]).
//!
//! The bits of each lane are put together with masks and multiply-adds (`pmaddubsw`,
//! `pmaddwd`), and stored as whole registers ([`OutputUnit`]), never past the units of the
//! well-formed input the caller then converts (or, for a whole block, past units it reads
//! first and puts back), so that nothing is left written past the end of a conversion.
//!
//! The 128-bit instructions are SSE4.1 and SSSE3, which every x86_64 kernel has; inside an AVX2
//! or AVX-512 function they get the VEX encoding.

use core::arch::x86_64::*;
use core::mem::MaybeUninit;

use super::lookup::Vector;
use crate::engine::{CodeUnit, U16Swapped, Utf16Unit};

/// Bytes of UTF-8 looked at at a time: the width of the end-of-character mask.
pub(crate) const BLOCK: usize = 64;
// `crate::engine::convert_from_utf8` calls the converter only where a block is left.
const _: () = assert!(BLOCK == crate::engine::FAST_BLOCK);
/// The blocks of ASCII after which a run of them is taken to be long, and its stores are
/// aligned (see [`convert`]): into a buffer 16 bytes past a 64-byte boundary, as malloc returns
/// large ones, whole cache lines stored convert pure ASCII faster, into UTF-32 most (it stores
/// the most bytes). The measurements are in BENCHMARKS.md.
const LONG_RUN: usize = 4;
/// Bytes loaded by a step, which the step's characters never exceed.
const STEP: usize = 16;
/// Bits of the end-of-character mask that choose a step's shuffle: as many bytes as three
/// 4-byte, four 3-byte or six 2-byte characters take.
const STEP_BITS: usize = 12;

// Kinds of step, by the lane each character gets: ranges of indices into SHUFFLES.
/// Six characters of 1-2 bytes into 16-bit lanes: 2^6 choices of lengths.
const TWO: usize = 0;
/// Four characters of 1-3 bytes into 32-bit lanes: 3^4 choices.
const THREE: usize = TWO + 64;
/// Three characters of 1-4 bytes into 32-bit lanes: 4^3 choices.
const FOUR: usize = THREE + 81;
const SHUFFLE_COUNT: usize = FOUR + 64;

/// A shuffle index (pshufb) that gives a zero byte.
const ZERO: u8 = 0x80;

/// The shuffle that puts characters of the given lengths (starting at byte 0) into lanes of
/// `lane` bytes, one character per lane: its last byte in the lane's lowest byte, the one
/// before above it, and so on; zero bytes above the character and in unused lanes.
const fn shuffle_for(lengths: &[u8], lane: usize) -> [u8; 16] {
    let mut shuffle = [ZERO; 16];
    let mut start = 0;
    let mut c = 0;
    while c < lengths.len() {
        let len = lengths[c] as usize;
        let last = start + len - 1;
        let mut k = 0;
        while k < len {
            shuffle[c * lane + k] = (last - k) as u8;
            k += 1;
        }
        start += len;
        c += 1;
    }
    shuffle
}

/// The lengths (1 to `max` bytes each) of `count` characters numbered `digits` in base `max`,
/// first character in the lowest digit.
const fn lengths_of(mut digits: usize, max: usize, count: usize) -> [u8; 6] {
    let mut lengths = [0; 6];
    let mut c = 0;
    while c < count {
        lengths[c] = (digits % max) as u8 + 1;
        digits /= max;
        c += 1;
    }
    lengths
}

/// Every shuffle a step can use: those of [`TWO`], [`THREE`] and [`FOUR`], each in the order
/// of the base-2, base-3 or base-4 number its characters' lengths (less one) make.
static SHUFFLES: [[u8; 16]; SHUFFLE_COUNT] = {
    let mut table = [[ZERO; 16]; SHUFFLE_COUNT];
    let mut i = 0;
    while i < SHUFFLE_COUNT {
        table[i] = if i < THREE {
            let lengths = lengths_of(i - TWO, 2, 6);
            shuffle_for(&lengths, 2)
        } else if i < FOUR {
            let lengths = lengths_of(i - THREE, 3, 4);
            shuffle_for(lengths.split_at(4).0, 4)
        } else {
            let lengths = lengths_of(i - FOUR, 4, 3);
            shuffle_for(lengths.split_at(3).0, 4)
        };
        i += 1;
    }
    table
};

/// The step for the 12 bits of the end-of-character mask at a position: the index of its
/// shuffle in [`SHUFFLES`] (low byte) and the bytes it converts (high byte), or 0 where the
/// bits cannot come from well-formed UTF-8 (a character longer than four bytes).
///
/// Six characters go in 16-bit lanes if they are all of 1-2 bytes, else four in 32-bit lanes
/// if they are all of 1-3 bytes, else three (there are always three within 12 bytes).
static STEPS: [u16; 1 << STEP_BITS] = {
    let mut table = [0u16; 1 << STEP_BITS];
    let mut mask = 0;
    while mask < 1 << STEP_BITS {
        // The lengths of the characters that end within the 12 bits.
        let mut lengths = [0u8; STEP_BITS];
        let (mut count, mut start, mut bit) = (0, 0, 0);
        while bit < STEP_BITS {
            if mask & (1 << bit) != 0 {
                lengths[count] = (bit + 1 - start) as u8;
                count += 1;
                start = bit + 1;
            }
            bit += 1;
        }
        let (kind, base, n) = if longest(&lengths, count, 6) <= 2 {
            (TWO, 2, 6)
        } else if longest(&lengths, count, 4) <= 3 {
            (THREE, 3, 4)
        } else if longest(&lengths, count, 3) <= 4 {
            (FOUR, 4, 3)
        } else {
            (0, 0, 0)
        };
        if n > 0 {
            // The first character is the lowest digit, as in `lengths_of`.
            let (mut index, mut bytes) = (0, 0);
            let mut c = n;
            while c > 0 {
                c -= 1;
                index = index * base + (lengths[c] as usize - 1);
                bytes += lengths[c] as usize;
            }
            table[mask] = ((bytes << 8) | (kind + index)) as u16;
        }
        mask += 1;
    }
    table
};

/// The longest of the first `n` of the `count` lengths, or `u8::MAX` if there are fewer.
const fn longest(lengths: &[u8], count: usize, n: usize) -> u8 {
    if count < n {
        return u8::MAX;
    }
    let mut max = 0;
    let mut c = 0;
    while c < n {
        if lengths[c] > max {
            max = lengths[c];
        }
        c += 1;
    }
    max
}

/// Eight 2-byte characters in 16 bytes, each into a 16-bit lane.
static EIGHT_TWO: [u8; 16] = shuffle_for(&[2; 8], 2);
/// Four 3-byte characters in 12 bytes, each into a 32-bit lane.
static FOUR_THREE: [u8; 16] = shuffle_for(&[3; 4], 4);
/// Four 4-byte characters in 16 bytes, each into a 32-bit lane.
static FOUR_FOUR: [u8; 16] = shuffle_for(&[4; 4], 4);

/// The bits of a byte that belong to its character's value, by its high nibble: seven of
/// ASCII, six of a continuation byte, five, four or three of a 2-, 3- or 4-byte lead byte.
static PAYLOAD: [u8; 16] = {
    let mut table = [0; 16];
    let mut n = 0;
    while n < 16 {
        table[n] = match n {
            0x0..=0x7 => 0x7F,
            0x8..=0xB => 0x3F,
            0xC..=0xD => 0x1F,
            0xE => 0x0F,
            _ => 0x07,
        };
        n += 1;
    }
    table
};

/// Sixteen bytes at `p`.
///
/// # Safety
/// `p` points to 16 readable bytes; the CPU has SSE2.
#[inline(always)]
unsafe fn load(p: *const u8) -> __m128i {
    // SAFETY: by the caller; loadu has no alignment requirement.
    unsafe { _mm_loadu_si128(p.cast()) }
}

/// The 16-byte table as a register.
///
/// # Safety
/// The CPU has SSE2.
#[inline(always)]
unsafe fn table(t: &[u8; 16]) -> __m128i {
    // SAFETY: `t` is 16 readable bytes.
    unsafe { load(t.as_ptr()) }
}

/// Lanes of 16 bits holding a character's last byte (low) and its lead byte or zero (high):
/// their values.
///
/// # Safety
/// The CPU has SSSE3.
#[inline(always)]
unsafe fn values_of_two(lanes: __m128i) -> __m128i {
    // SAFETY: by the caller. 0x7F keeps ASCII and the six bits of a continuation byte (its
    // seventh is 0), 0x1F the five of a 2-byte lead; the multiply-add puts the lead's bits
    // six places up (bytes 1 and 64 as multipliers).
    unsafe {
        let bits = _mm_and_si128(lanes, _mm_set1_epi16(0x1F7F));
        _mm_maddubs_epi16(bits, _mm_set1_epi16(0x4001))
    }
}

/// Lanes of 32 bits whose bytes are a character's bits, last byte lowest, masked to their
/// payload: their values.
///
/// # Safety
/// The CPU has SSSE3.
#[inline(always)]
unsafe fn values_of_payloads(bits: __m128i) -> __m128i {
    // SAFETY: by the caller. Bytes 0 + 64 * byte 1 and byte 2 + 64 * byte 3 as 16-bit
    // words, then the low word + 4096 * the high one.
    unsafe {
        let pairs = _mm_maddubs_epi16(bits, _mm_set1_epi16(0x4001));
        _mm_madd_epi16(pairs, _mm_set1_epi32(0x1000_0001))
    }
}

/// Lanes of 32 bits holding the bytes of a character of 1-3 bytes (as [`shuffle_for`] puts
/// them): their values.
///
/// # Safety
/// The CPU has SSSE3.
#[inline(always)]
unsafe fn values_of_three(lanes: __m128i) -> __m128i {
    // SAFETY: by the caller. The third byte from the end is a 3-byte lead (four bits) or zero;
    // the second one a continuation or 2-byte lead (six bits, the sixth 0 for the lead).
    unsafe { values_of_payloads(_mm_and_si128(lanes, _mm_set1_epi32(0x000F_3F7F))) }
}

/// Lanes of 32 bits holding the bytes of a character of 1-4 bytes: their values.
///
/// # Safety
/// The CPU has SSSE3.
#[inline(always)]
unsafe fn values_of_any(lanes: __m128i) -> __m128i {
    // SAFETY: by the caller. Each byte's payload mask is looked up by its high nibble.
    unsafe {
        let high = _mm_and_si128(_mm_srli_epi16::<4>(lanes), _mm_set1_epi8(0x0F));
        let mask = _mm_shuffle_epi8(table(&PAYLOAD), high);
        values_of_payloads(_mm_and_si128(lanes, mask))
    }
}

/// Lanes of 32 bits holding four 4-byte characters: their values.
///
/// # Safety
/// The CPU has SSSE3.
#[inline(always)]
unsafe fn values_of_four(lanes: __m128i) -> __m128i {
    // SAFETY: by the caller.
    unsafe { values_of_payloads(_mm_and_si128(lanes, _mm_set1_epi32(0x073F_3F3F))) }
}

/// A unit type that UTF-8 is converted into (UTF-16 or UTF-32): how the converter stores its
/// values from registers.
///
/// # Safety
/// Implementations use SSE4.1 instructions and those of the `W` they are given; each method
/// writes only the units its documentation states; `SPARE` is as documented.
pub(crate) unsafe trait OutputUnit: CodeUnit {
    /// Bytes of well-formed UTF-8 that must follow a step of [`STEPS`] for it to be taken:
    /// enough for their units to cover those its store writes past its own, since nothing may
    /// be left written past the end of a conversion.
    const SPARE: usize;
    /// Writes the 64 bytes of ASCII at `src` widened, with `W`'s registers, if they are ASCII.
    ///
    /// # Safety
    /// 64 bytes readable at `src`, 64 units writable at `dst`, the CPU has `W`'s instructions.
    unsafe fn widen_block<W: WideningRegister>(src: *const u8, dst: *mut Self) -> bool;
    /// Writes the 16 bytes of ASCII widened, with `W`'s registers where they pay.
    ///
    /// # Safety
    /// 16 units writable at `dst`, SSE4.1 and `W`'s instructions.
    unsafe fn store_ascii<W: WideningRegister>(bytes: __m128i, dst: *mut Self);
    /// Writes eight values below U+10000 in 16-bit lanes, with `W`'s registers.
    ///
    /// # Safety
    /// 8 units writable at `dst`, SSE4.1 and `W`'s instructions.
    unsafe fn store_16<W: WideningRegister>(values: __m128i, dst: *mut Self);
    /// Writes the values of the eight 16-bit lanes of `values` (below U+10000) whose bit of
    /// `mask` is set, packed together, then others up to 8 units, with `W`'s registers.
    ///
    /// # Safety
    /// 8 units writable at `dst`, SSE4.1 and `W`'s instructions.
    unsafe fn store_packed<W: WideningRegister>(values: __m128i, mask: u8, dst: *mut Self);
    /// Writes four values below U+10000 in 32-bit lanes.
    ///
    /// # Safety
    /// 4 units writable at `dst`, SSE4.1.
    unsafe fn store_32(values: __m128i, dst: *mut Self);
    /// Writes the first `n` (3 or 4) of four scalar values in 32-bit lanes, the others being
    /// zero: returns the units written.
    ///
    /// # Safety
    /// 8 units writable at `dst`, SSE4.1.
    unsafe fn store_any(values: __m128i, n: usize, dst: *mut Self) -> usize;
    /// `B`'s conversion of characters of any mix of lengths into this unit type, if it has
    /// one.
    ///
    /// # Safety
    /// As for [`BlockConverter::mixed_utf16`] and [`BlockConverter::mixed_utf32`].
    unsafe fn mixed_block_by<B: BlockConverter>(
        block: *const u8,
        out: *mut Self,
    ) -> Option<(usize, usize)>;
    /// `B`'s conversion of runs of blocks of 1-3 byte characters into this unit type
    /// ([`BlockConverter::narrow_run_utf16`], [`BlockConverter::narrow_run_utf32`]), if it has
    /// one.
    ///
    /// # Safety
    /// As for [`BlockConverter::narrow_run_utf16`].
    unsafe fn narrow_run_by<B: BlockConverter>(
        src: &[u8],
        dst: &mut [MaybeUninit<Self>],
    ) -> Option<(usize, usize)>;
}

/// The conversions of whole blocks that an instruction set adds to the converter, in registers
/// wider than the steps': of runs of whole blocks of 1-3 byte characters (where
/// [`convert_narrow_block`] packs its 16-bit values eight lanes at a time, a block at a time), and
/// of the characters of any lengths at the start of a block (where the steps take three or four
/// at a time).
///
/// # Safety
/// Implementations use only the instructions that their callers guarantee the CPU has (out of
/// line where the callers are compiled for fewer), and write only the units they report.
pub(crate) unsafe trait BlockConverter {
    /// Converts the first characters of the 64 bytes of well-formed UTF-8 at `block`, of any
    /// mix of lengths, into UTF-16: at least 15 of them, all of whose bytes are in the block,
    /// writing nothing past the units it reports. Returns the bytes read and units written,
    /// or `None` if there is no such conversion.
    ///
    /// # Safety
    /// 64 bytes of well-formed UTF-8 readable at `block`, which start a character; 64 units
    /// writable at `out`; the CPU has the implementation's instructions.
    unsafe fn mixed_utf16(block: *const u8, out: *mut u16) -> Option<(usize, usize)>;

    /// Converts the blocks of 64 bytes at the start of `src` into UTF-16 one after another,
    /// at a fixed stride, validating them, while they are well-formed characters of 1-3 bytes
    /// (blocks of ASCII included) and there are 64 units of `dst` for each: returns the bytes
    /// read and units written, which end where the last character converted does (a
    /// character cut by the last block's end is not converted), writing nothing past them;
    /// (0, 0) if the first block is not such a block. `None` if there is no such conversion.
    ///
    /// # Safety
    /// `src` starts a character, or with a continuation byte (which is not converted); the CPU
    /// has the implementation's instructions.
    unsafe fn narrow_run_utf16(src: &[u8], dst: &mut [MaybeUninit<u16>]) -> Option<(usize, usize)>;

    /// [`BlockConverter::narrow_run_utf16`] into UTF-32.
    ///
    /// # Safety
    /// As for [`BlockConverter::narrow_run_utf16`].
    unsafe fn narrow_run_utf32(src: &[u8], dst: &mut [MaybeUninit<u32>]) -> Option<(usize, usize)>;

    /// [`BlockConverter::mixed_utf16`] into UTF-32.
    ///
    /// # Safety
    /// As for [`BlockConverter::mixed_utf16`].
    unsafe fn mixed_utf32(block: *const u8, out: *mut u32) -> Option<(usize, usize)>;

    /// [`BlockConverter::mixed_utf16`] into UTF-16 of the other byte order than the machine's;
    /// `None` from an implementation that writes the machine's alone.
    ///
    /// # Safety
    /// As for [`BlockConverter::mixed_utf16`].
    unsafe fn mixed_utf16_swapped(
        _block: *const u8,
        _out: *mut U16Swapped,
    ) -> Option<(usize, usize)> {
        None
    }

    /// [`BlockConverter::narrow_run_utf16`] into UTF-16 of the other byte order than the
    /// machine's; `None` from an implementation that writes the machine's alone.
    ///
    /// # Safety
    /// As for [`BlockConverter::narrow_run_utf16`].
    unsafe fn narrow_run_utf16_swapped(
        _src: &[u8],
        _dst: &mut [MaybeUninit<U16Swapped>],
    ) -> Option<(usize, usize)> {
        None
    }
}

/// No block converter: [`convert_narrow_block`] alone.
pub(crate) struct NoBlockConverter;

// SAFETY: no instruction at all.
unsafe impl BlockConverter for NoBlockConverter {
    #[inline(always)]
    unsafe fn mixed_utf16(_: *const u8, _: *mut u16) -> Option<(usize, usize)> {
        None
    }

    #[inline(always)]
    unsafe fn narrow_run_utf16(_: &[u8], _: &mut [MaybeUninit<u16>]) -> Option<(usize, usize)> {
        None
    }

    #[inline(always)]
    unsafe fn narrow_run_utf32(_: &[u8], _: &mut [MaybeUninit<u32>]) -> Option<(usize, usize)> {
        None
    }

    #[inline(always)]
    unsafe fn mixed_utf32(_: *const u8, _: *mut u32) -> Option<(usize, usize)> {
        None
    }
}

/// A register of one instruction set as the converter from UTF-8 uses it: bytes or 16-bit values
/// widened into wider units.
///
/// # Safety
/// Implementations use their instruction set's instructions only, and write only the units
/// each method documents.
pub(crate) unsafe trait WideningRegister: Vector {
    /// 0xFF in the lanes of continuation bytes (80..BF), 0 in the others.
    ///
    /// # Safety
    /// The CPU has the instructions.
    unsafe fn continuations(self) -> Self;
    /// The high bit of each byte lane, lane `i` in bit `i`.
    ///
    /// # Safety
    /// The CPU has the instructions.
    unsafe fn high_bits(self) -> u64;
    /// The greater of the two bytes in each lane, as unsigned bytes.
    ///
    /// # Safety
    /// The CPU has the instructions.
    unsafe fn max(self, other: Self) -> Self;
    /// 0xFF in the lanes where the two bytes are equal, 0 in the others.
    ///
    /// # Safety
    /// The CPU has the instructions.
    unsafe fn eq(self, other: Self) -> Self;
    /// 0xFF in the lanes where this byte is greater than the other, as signed bytes.
    ///
    /// # Safety
    /// The CPU has the instructions.
    unsafe fn greater(self, other: Self) -> Self;
    /// The 16-bit values `low + 64 * middle + 4096 * top` of the byte lanes, those of the low
    /// eight bytes of each 128-bit lane in the first register, of the high eight in the second.
    ///
    /// # Safety
    /// The CPU has the instructions.
    unsafe fn values(low: Self, middle: Self, top: Self) -> (Self, Self);
    /// The 64 bytes of a block in registers (the first `BLOCK / LANES`) as four of 128 bits.
    ///
    /// # Safety
    /// The CPU has the instructions.
    unsafe fn chunks(registers: &[Self; BLOCK / 16]) -> [__m128i; 4];
    /// Group `g` of eight 16-bit values of [`WideningRegister::values`]'s registers, groups in the
    /// order of their bytes: those of 128-bit lane `g / 2`, of the first register if `g` is even.
    ///
    /// # Safety
    /// The CPU has the instructions; `g < LANES / 8`.
    unsafe fn group(first: Self, second: Self, g: usize) -> __m128i;
    /// Writes the 16 bytes as 16 units of UTF-32 at `dst`.
    ///
    /// # Safety
    /// 16 units writable at `dst`, the CPU has the instructions.
    unsafe fn bytes_to_utf32(bytes: __m128i, dst: *mut u32);
    /// Writes the eight 16-bit lanes as 8 units of UTF-32 at `dst`.
    ///
    /// # Safety
    /// 8 units writable at `dst`, the CPU has the instructions.
    unsafe fn words_to_utf32(words: __m128i, dst: *mut u32);
    /// If the 64 bytes at `src` are all ASCII, writes them as 64 units of UTF-16 at `dst`, in
    /// the other byte order than the machine's if `SWAP` (the zero byte first).
    ///
    /// # Safety
    /// 64 bytes readable at `src`, 64 units writable at `dst`, the CPU has the instructions.
    unsafe fn widen_to_utf16<const SWAP: bool>(src: *const u8, dst: *mut u16) -> bool;
    /// If the 64 bytes at `src` are all ASCII, writes them as 64 units of UTF-32 at `dst`.
    ///
    /// # Safety
    /// 64 bytes readable at `src`, 64 units writable at `dst`, the CPU has the instructions.
    unsafe fn widen_to_utf32(src: *const u8, dst: *mut u32) -> bool;
}

/// For each mask of supplementary lanes among four (bit j: lane j holds a surrogate pair, high
/// surrogate in its low half), the shuffle that packs the lanes' UTF-16 units together: the
/// low half of each lane, then its high half if it is a pair; each unit's two bytes in the
/// other order if `swap`.
const fn pack_pairs(swap: bool) -> [[u8; 16]; 16] {
    let mut table = [[ZERO; 16]; 16];
    let mut mask = 0;
    while mask < 16 {
        let mut out = 0;
        let mut lane = 0;
        while lane < 4 {
            let halves = if mask & (1 << lane) != 0 { 2 } else { 1 };
            let mut h = 0;
            while h < halves {
                let (low, high) = ((4 * lane + 2 * h) as u8, (4 * lane + 2 * h + 1) as u8);
                let (first, second) = if swap { (high, low) } else { (low, high) };
                table[mask][2 * out] = first;
                table[mask][2 * out + 1] = second;
                out += 1;
                h += 1;
            }
            lane += 1;
        }
        mask += 1;
    }
    table
}

/// [`pack_pairs`] for each byte order: the machine's, the other.
static PACK_PAIRS: [[[u8; 16]; 16]; 2] = [pack_pairs(false), pack_pairs(true)];

/// The shuffle that swaps the two bytes of each 16-bit lane.
static SWAP_BYTES: [u8; 16] = [1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14];

/// The shuffle that takes the low 16 bits of each 32-bit lane, below U+10000, into the low
/// eight bytes, their two bytes in the other order.
static SWAPPED_LOW_HALVES: [u8; 16] = [
    1, 0, 5, 4, 9, 8, 13, 12, ZERO, ZERO, ZERO, ZERO, ZERO, ZERO, ZERO, ZERO,
];

/// Writes the first `n` (3 or 4) of four scalar values in 32-bit lanes as UTF-16, in the
/// machine's byte order or, if `SWAP`, in the other: returns the units written.
///
/// # Safety
/// 8 units writable at `dst`, SSE4.1.
#[inline(always)]
unsafe fn store_any_utf16<const SWAP: bool>(values: __m128i, n: usize, dst: *mut u16) -> usize {
    // SAFETY: 8 units at `dst` by the caller, which three or four pairs fill at most.
    unsafe {
        let supplementary = _mm_cmpgt_epi32(values, _mm_set1_epi32(0xFFFF));
        // U+10000 + (high - D800) * 2^10 + (low - DC00) (Unicode Standard, section 3.9).
        let v = _mm_sub_epi32(values, _mm_set1_epi32(0x1_0000));
        let high = _mm_add_epi32(_mm_srli_epi32::<10>(v), _mm_set1_epi32(0xD800));
        let low = _mm_add_epi32(
            _mm_and_si128(v, _mm_set1_epi32(0x3FF)),
            _mm_set1_epi32(0xDC00),
        );
        let pairs = _mm_or_si128(high, _mm_slli_epi32::<16>(low));
        let units = _mm_blendv_epi8(values, pairs, supplementary);
        let mask = _mm_movemask_ps(_mm_castsi128_ps(supplementary)) as usize & 0xF;
        let pack = table(&PACK_PAIRS[usize::from(SWAP)][mask]);
        _mm_storeu_si128(dst.cast(), _mm_shuffle_epi8(units, pack));
        n + mask.count_ones() as usize
    }
}

// SAFETY: SSE2 and SSE4.1 instructions; stores within the bounds the methods document.
unsafe impl OutputUnit for u16 {
    // A step stores 8 units and may mean only 3; a character takes at most 3 bytes per unit.
    const SPARE: usize = 3 * 5;

    #[inline(always)]
    unsafe fn widen_block<W: WideningRegister>(src: *const u8, dst: *mut Self) -> bool {
        // SAFETY: by the caller.
        unsafe { W::widen_to_utf16::<false>(src, dst) }
    }

    #[inline(always)]
    unsafe fn store_ascii<W: WideningRegister>(bytes: __m128i, dst: *mut Self) {
        // SAFETY: 16 units at `dst` by the caller. (One 256-bit widening and store under AVX2
        // took more instructions in all: measured with callgrind.)
        unsafe {
            _mm_storeu_si128(dst.cast(), _mm_cvtepu8_epi16(bytes));
            let high = _mm_unpackhi_epi8(bytes, _mm_setzero_si128());
            _mm_storeu_si128(dst.add(8).cast(), high);
        }
    }

    #[inline(always)]
    unsafe fn store_16<W: WideningRegister>(values: __m128i, dst: *mut Self) {
        // SAFETY: 8 units at `dst` by the caller.
        unsafe { _mm_storeu_si128(dst.cast(), values) }
    }

    #[inline(always)]
    unsafe fn store_packed<W: WideningRegister>(values: __m128i, mask: u8, dst: *mut Self) {
        // SAFETY: 8 units at `dst` by the caller.
        unsafe {
            let packed = _mm_shuffle_epi8(values, table(&PACK_LANES[0][usize::from(mask)]));
            _mm_storeu_si128(dst.cast(), packed);
        }
    }

    #[inline(always)]
    unsafe fn store_32(values: __m128i, dst: *mut Self) {
        // SAFETY: 4 units at `dst` by the caller; the values fit 16 bits unsaturated.
        unsafe { _mm_storel_epi64(dst.cast(), _mm_packus_epi32(values, values)) }
    }

    #[inline(always)]
    unsafe fn store_any(values: __m128i, n: usize, dst: *mut Self) -> usize {
        // SAFETY: by the caller.
        unsafe { store_any_utf16::<false>(values, n, dst) }
    }

    #[inline(always)]
    unsafe fn mixed_block_by<B: BlockConverter>(
        block: *const u8,
        out: *mut Self,
    ) -> Option<(usize, usize)> {
        // SAFETY: by the caller.
        unsafe { B::mixed_utf16(block, out) }
    }

    #[inline(always)]
    unsafe fn narrow_run_by<B: BlockConverter>(
        src: &[u8],
        dst: &mut [MaybeUninit<Self>],
    ) -> Option<(usize, usize)> {
        // SAFETY: by the caller.
        unsafe { B::narrow_run_utf16(src, dst) }
    }
}

// SAFETY: SSE2 and SSE4.1 instructions; stores within the bounds the methods document.
unsafe impl OutputUnit for u32 {
    // A step stores 8 units and means at least 6, or 4 and means 3; a character takes at
    // most 4 bytes per unit.
    const SPARE: usize = 4 * 2;

    #[inline(always)]
    unsafe fn widen_block<W: WideningRegister>(src: *const u8, dst: *mut Self) -> bool {
        // SAFETY: by the caller.
        unsafe { W::widen_to_utf32(src, dst) }
    }

    #[inline(always)]
    unsafe fn store_ascii<W: WideningRegister>(bytes: __m128i, dst: *mut Self) {
        // SAFETY: 16 units at `dst` and `W`'s instructions by the caller.
        unsafe { W::bytes_to_utf32(bytes, dst) }
    }

    #[inline(always)]
    unsafe fn store_16<W: WideningRegister>(values: __m128i, dst: *mut Self) {
        // SAFETY: 8 units at `dst` and `W`'s instructions by the caller.
        unsafe { W::words_to_utf32(values, dst) }
    }

    #[inline(always)]
    unsafe fn store_packed<W: WideningRegister>(values: __m128i, mask: u8, dst: *mut Self) {
        // SAFETY: 8 units at `dst` and `W`'s instructions by the caller.
        unsafe {
            let packed = _mm_shuffle_epi8(values, table(&PACK_LANES[0][usize::from(mask)]));
            W::words_to_utf32(packed, dst);
        }
    }

    #[inline(always)]
    unsafe fn store_32(values: __m128i, dst: *mut Self) {
        // SAFETY: 4 units at `dst` by the caller.
        unsafe { _mm_storeu_si128(dst.cast(), values) }
    }

    #[inline(always)]
    unsafe fn store_any(values: __m128i, n: usize, dst: *mut Self) -> usize {
        // SAFETY: 4 units at `dst` by the caller.
        unsafe { _mm_storeu_si128(dst.cast(), values) };
        n
    }

    #[inline(always)]
    unsafe fn mixed_block_by<B: BlockConverter>(
        block: *const u8,
        out: *mut Self,
    ) -> Option<(usize, usize)> {
        // SAFETY: by the caller.
        unsafe { B::mixed_utf32(block, out) }
    }

    #[inline(always)]
    unsafe fn narrow_run_by<B: BlockConverter>(
        src: &[u8],
        dst: &mut [MaybeUninit<Self>],
    ) -> Option<(usize, usize)> {
        // SAFETY: by the caller.
        unsafe { B::narrow_run_utf32(src, dst) }
    }
}

// SAFETY: SSE2, SSSE3 and SSE4.1 instructions; stores within the bounds the methods document,
// those of `u16`'s with the bytes of each unit swapped in the register before the store.
unsafe impl OutputUnit for U16Swapped {
    const SPARE: usize = <u16 as OutputUnit>::SPARE;

    #[inline(always)]
    unsafe fn widen_block<W: WideningRegister>(src: *const u8, dst: *mut Self) -> bool {
        // SAFETY: by the caller; `U16Swapped` is a `u16`.
        unsafe { W::widen_to_utf16::<true>(src, dst.cast()) }
    }

    #[inline(always)]
    unsafe fn store_ascii<W: WideningRegister>(bytes: __m128i, dst: *mut Self) {
        // SAFETY: 16 units at `dst` by the caller. The zero byte first: the operands of the
        // unpacks in the other order.
        unsafe {
            let zero = _mm_setzero_si128();
            _mm_storeu_si128(dst.cast(), _mm_unpacklo_epi8(zero, bytes));
            _mm_storeu_si128(dst.add(8).cast(), _mm_unpackhi_epi8(zero, bytes));
        }
    }

    #[inline(always)]
    unsafe fn store_16<W: WideningRegister>(values: __m128i, dst: *mut Self) {
        // SAFETY: 8 units at `dst` by the caller.
        unsafe { _mm_storeu_si128(dst.cast(), _mm_shuffle_epi8(values, table(&SWAP_BYTES))) }
    }

    #[inline(always)]
    unsafe fn store_packed<W: WideningRegister>(values: __m128i, mask: u8, dst: *mut Self) {
        // SAFETY: 8 units at `dst` by the caller. The packing shuffle swaps the bytes too.
        unsafe {
            let packed = _mm_shuffle_epi8(values, table(&PACK_LANES[1][usize::from(mask)]));
            _mm_storeu_si128(dst.cast(), packed);
        }
    }

    #[inline(always)]
    unsafe fn store_32(values: __m128i, dst: *mut Self) {
        // SAFETY: 4 units at `dst` by the caller; the values fit 16 bits. One shuffle narrows
        // and swaps, as `u16`'s pack narrows.
        unsafe {
            let units = _mm_shuffle_epi8(values, table(&SWAPPED_LOW_HALVES));
            _mm_storel_epi64(dst.cast(), units);
        }
    }

    #[inline(always)]
    unsafe fn store_any(values: __m128i, n: usize, dst: *mut Self) -> usize {
        // SAFETY: by the caller; `U16Swapped` is a `u16`.
        unsafe { store_any_utf16::<true>(values, n, dst.cast()) }
    }

    #[inline(always)]
    unsafe fn mixed_block_by<B: BlockConverter>(
        block: *const u8,
        out: *mut Self,
    ) -> Option<(usize, usize)> {
        // SAFETY: by the caller.
        unsafe { B::mixed_utf16_swapped(block, out) }
    }

    #[inline(always)]
    unsafe fn narrow_run_by<B: BlockConverter>(
        src: &[u8],
        dst: &mut [MaybeUninit<Self>],
    ) -> Option<(usize, usize)> {
        // SAFETY: by the caller.
        unsafe { B::narrow_run_utf16_swapped(src, dst) }
    }
}

/// A unit of UTF-16 of either byte order that the converter writes: what the converters into
/// UTF-16 of `crate::kernels` are generic over.
pub(crate) trait Utf16Output: OutputUnit + Utf16Unit {}

impl<T: OutputUnit + Utf16Unit> Utf16Output for T {}

/// [`convert`], its first [`LONG_RUN`] blocks of ASCII at most converted here and the rest by
/// `convert_rest` (the instruction set's [`convert`], a function of its own). Inlined,
/// [`convert`] loads the constants of its block conversions at its start, about 25 registers,
/// and stores one on the stack, which a string of a few blocks of ASCII paid for nothing.
/// Split, short ASCII strings convert faster with every kernel, and mixed strings, longer ones
/// and fresh text as fast as before. A block that does not start with ASCII is left to
/// `convert_rest` untested: the test slowed mixed strings of a block or two. The measurements
/// are in BENCHMARKS.md.
///
/// # Safety
/// As for [`convert`]; `convert_rest` is [`convert`] of the same `W` and `T`.
#[inline(always)]
pub(crate) unsafe fn convert_ascii_first<W: WideningRegister, T: OutputUnit>(
    src: &[u8],
    valid: usize,
    dst: &mut [MaybeUninit<T>],
    convert_rest: impl FnOnce(&[u8], usize, &mut [MaybeUninit<T>]) -> (usize, usize),
) -> (usize, usize) {
    let blocks = src.len().min(dst.len()) / BLOCK;
    let ascii_first = src.first().is_some_and(|&b| b < 0x80);
    let mut ascii = 0;
    while ascii_first
        && ascii < blocks.min(LONG_RUN)
        // SAFETY: block `ascii < blocks` has 64 bytes readable and 64 units writable from
        // `64 * ascii`, by the definition of `blocks`; `W`'s instructions by the caller.
        && unsafe {
            T::widen_block::<W>(
                src.as_ptr().add(BLOCK * ascii),
                dst.as_mut_ptr().cast::<T>().add(BLOCK * ascii),
            )
        }
    {
        ascii += 1;
    }
    let done = BLOCK * ascii;
    if ascii == blocks {
        return (done, done);
    }
    // After blocks of ASCII, `src[done..]` starts a character.
    let (read, written) = convert_rest(
        src.get(done..).unwrap_or_default(),
        valid.saturating_sub(done),
        dst.get_mut(done..).unwrap_or_default(),
    );
    (done + read, done + written)
}

/// Converts the well-formed UTF-8 at the start of `src`, `src[..valid]`, into `dst` as far as
/// whole blocks allow, and after it whole blocks of ASCII and whole blocks of 1-3 byte
/// characters that it validates itself: returns the bytes read and units written, which end
/// where a character does. Other bytes of `src` may be read, never converted unless
/// well-formed.
///
/// A block is converted only where 64 bytes of `src` are left to read and 64 units of `dst`
/// to write. A step stores a whole register, which may go past the units it means, but not
/// past those of `src[..valid]`, which its caller then writes (see [`OutputUnit::SPARE`]); a whole
/// block puts back the units after its own (see [`NARROW_SPILL`]).
///
/// # Safety
/// The CPU has SSE4.1 and SSSE3, and the instructions of `W` and `B`; `src` starts a
/// character, or `valid` is 0.
#[inline(always)]
pub(crate) unsafe fn convert<W: WideningRegister, T: OutputUnit, B: BlockConverter>(
    src: &[u8],
    valid: usize,
    dst: &mut [MaybeUninit<T>],
) -> (usize, usize) {
    let valid = valid.min(src.len());
    let (mut read, mut written) = (0, 0);
    loop {
        // Blocks of ASCII in a tight loop, counting only the blocks that fit both buffers.
        // A block of ASCII from the start of a character is well-formed, even past `valid`.
        let mut blocks = (src.len() - read).min(dst.len() - written) / BLOCK;
        let mut ascii = 0;
        while ascii < blocks
            // SAFETY: block `ascii < blocks` has 64 bytes readable from `read + 64 * ascii` and
            // 64 units writable from `written + 64 * ascii`, by the definition of `blocks`; `W`'s
            // instructions by the caller.
            && unsafe {
                T::widen_block::<W>(
                    src.as_ptr().add(read + BLOCK * ascii),
                    dst.as_mut_ptr().cast::<T>().add(written + BLOCK * ascii),
                )
            }
        {
            ascii += 1;
            if ascii == LONG_RUN {
                // A long run goes on from the last 64-byte boundary of `dst` in the units
                // written, which it writes again from the same bytes after it, so that the
                // blocks after it store whole cache lines (none where the run started on a
                // boundary).
                let end = dst.as_ptr().wrapping_add(written + BLOCK * ascii);
                let step = BLOCK * ascii - end.addr() % 64 / size_of::<T>();
                read += step;
                written += step;
                debug_assert_eq!(dst.as_ptr().wrapping_add(written).addr() % 64, 0);
                ascii = 0;
                // Then in `B`'s run of blocks, where it has one: its registers may be wider
                // than `W`'s (AVX-512's store a line of UTF-32 at a time), and it goes on past
                // the run into the characters of 1-3 bytes that follow, as this loop would
                // hand them to it.
                // SAFETY: `read` starts a character (it follows ASCII); the run's
                // instructions by the caller; `read` and `written` are within the buffers.
                if let Some((run_read, run_written)) = unsafe {
                    T::narrow_run_by::<B>(
                        src.get_unchecked(read..),
                        dst.get_unchecked_mut(written..),
                    )
                } {
                    read += run_read;
                    written += run_written;
                }
                blocks = (src.len() - read).min(dst.len() - written) / BLOCK;
            }
        }
        read += BLOCK * ascii;
        written += BLOCK * ascii;
        if ascii == blocks {
            break;
        }
        // Then the blocks after it, one after another while they fit, until one is all
        // ASCII, which the loop above takes (with those that follow it).
        while (src.len() - read).min(dst.len() - written) >= BLOCK {
            // SAFETY: 64 bytes from `read` and 64 units from `written` by the loop condition
            // (so `read` and `written` are within the buffers, which the compiler does not
            // see: a checked subslice here, or `get`, made the conversions of 4-byte
            // characters markedly slower); `read` is where a character starts, or
            // `convert`'s start (see there).
            let converted = unsafe {
                let limit = valid.saturating_sub(read);
                let rest = src.get_unchecked(read..);
                convert_block::<W, T, B>(rest, limit, dst.get_unchecked_mut(written..))
            };
            let Some((at, units)) = converted else {
                break;
            };
            if at == 0 {
                return (read, written);
            }
            read += at;
            written += units;
        }
    }
    (read, written)
}

/// Converts the characters at the start of the 64-byte block at the start of `src` that end
/// within its first `limit` bytes (well-formed UTF-8), and at least 48 bytes of them if there
/// are as many, in steps, or at least 15 characters by `B`'s conversion of any lengths, or, if
/// the block has no 4-byte character, the characters of the whole block, validating it first
/// where it goes past `limit`, and those of the blocks after it that `B` converts in a run with
/// it: returns the bytes read and units written into `dst`, or `None`, converting nothing, if
/// the block is all ASCII.
///
/// # Safety
/// At least 64 bytes in `src` and 64 units in `dst`; SSE4.1, SSSE3 and `W`'s instructions; the
/// block starts a character, or with a continuation byte if `limit` is 0.
#[inline(always)]
unsafe fn convert_block<W: WideningRegister, T: OutputUnit, B: BlockConverter>(
    src: &[u8],
    limit: usize,
    dst: &mut [MaybeUninit<T>],
) -> Option<(usize, usize)> {
    let (block, room) = (src.as_ptr(), dst.len());
    // SAFETY: by the caller; the loads are at offsets 0, 16, 32, 48 (or every `W::LANES`) and
    // `at <= 48`, the stores at `units <= at` and write at most 16 units, and each unit takes
    // at least one byte, so within the first 64 of `dst`; a whole block of 1-3 byte characters
    // is converted where `dst`, or else the stage, has room for its units and the spill, as
    // `convert_narrow_block` needs.
    unsafe {
        // The block in `W`'s registers (the first `BLOCK / W::LANES` of these).
        let mut registers = [W::splat(0); BLOCK / 16];
        let mut continuation = 0;
        let mut highest = W::splat(0);
        for (k, register) in registers.iter_mut().take(BLOCK / W::LANES).enumerate() {
            let at = k * W::LANES;
            *register = W::load(core::slice::from_raw_parts(block.add(at), W::LANES));
            continuation |= register.continuations().high_bits() << at;
            highest = highest.max(*register);
        }
        if !highest.any_high_bit() {
            return None;
        }
        // Bit i: byte i ends a character, that is byte i + 1 is not a continuation byte. Bit
        // 63 is unknown and left clear; the byte at `limit - 1` ends one, whatever follows.
        let mut ends = !continuation >> 1;
        if limit > 0 && limit < BLOCK {
            ends |= 1 << (limit - 1);
        }
        // No lead byte of a 4-byte character (F0..F4, nor any byte above).
        let below = |lead: u8| !highest.saturating_sub(W::splat(lead - 1)).any_nonzero();
        // Then this block and those after it in a run, where `B` has one (faster than any of
        // the conversions below, even of validated input); none of those if it finds an error.
        if below(0xF0) {
            if let Some(converted) = T::narrow_run_by::<B>(src, dst) {
                return Some(converted);
            }
        }
        // Taken after the run is handed `dst`, which makes pointers taken before it stale.
        let out = dst.as_mut_ptr().cast::<T>();
        // Sixteen 3-byte characters (CJK): four steps at known places, stores of exactly
        // their units; not validated here, since the validator takes them for less.
        let sixteen_three = ends & ((1 << 48) - 1) == 0x9249_2492_4924;
        if sixteen_three && limit >= 48 {
            // The bytes at 0, 12, 24 and 36, from the registers.
            let c = W::chunks(&registers);
            let steps = [
                c[0],
                _mm_alignr_epi8::<12>(c[1], c[0]),
                _mm_alignr_epi8::<8>(c[2], c[1]),
                _mm_alignr_epi8::<4>(c[3], c[2]),
            ];
            for (k, bytes) in steps.into_iter().enumerate() {
                let lanes = _mm_shuffle_epi8(bytes, table(&FOUR_THREE));
                T::store_32(values_of_three(lanes), out.add(4 * k));
            }
            return Some((48, 16));
        }
        // Room for the block's characters and the spill (see `convert_narrow_block`), not for
        // 64 characters and the spill: the last block of a string into an output of its
        // length in units took the steps instead, which made short strings of 2-byte
        // characters (Russian) much slower (see BENCHMARKS.md).
        if !sixteen_three && below(0xF0) {
            // No lead byte of a 3-byte character (E0..EF) either: a cheaper block.
            let (r, three, check) = (&registers, !below(0xE0), limit < BLOCK);
            let total = (ends & !(1 << 63)).count_ones() as usize;
            if room >= total + NARROW_SPILL {
                return Some(narrow_block::<W, T>(r, ends, (three, check), out));
            }
            // Else into a stage, whose units are then copied: the last block of a string of
            // mostly ASCII with a few 2-byte characters (French) into an output of its length
            // in units has room for its characters (`room` is at least 64, `total` below it)
            // but not for the spill, and took the steps, much slower with AVX2 and SSE4.2
            // (see BENCHMARKS.md).
            let mut stage = [MaybeUninit::<T>::uninit(); BLOCK + NARROW_SPILL];
            let staged = stage.as_mut_ptr().cast::<T>();
            let (read, units) = narrow_block::<W, T>(r, ends, (three, check), staged);
            // Always there (`units` is below 64), and `get` has no path to a panic.
            let (Some(staged), Some(target)) = (stage.get(..units), dst.get_mut(..units)) else {
                return Some((0, 0));
            };
            copy_units(staged, target);
            return Some((read, units));
        }
        // Any other block of validated input, where `B` has a conversion for it, which
        // takes sixteen 4-byte characters its own way (see `avx512::sixteen_four_values`).
        if limit >= BLOCK {
            if let Some(converted) = T::mixed_block_by::<B>(block, out) {
                return Some(converted);
            }
        }
        // Else sixteen 4-byte characters (emoji), validated: four steps at known places. The
        // last one ends at byte 63, since a lead byte that three continuation bytes follow
        // in well-formed UTF-8 starts a 4-byte character.
        if limit >= BLOCK && ends & !(1 << 63) == 0x0888_8888_8888_8888 {
            let mut units = 0;
            for bytes in W::chunks(&registers) {
                let lanes = _mm_shuffle_epi8(bytes, table(&FOUR_FOUR));
                units += T::store_any(values_of_four(lanes), 4, out.add(units));
            }
            return Some((BLOCK, units));
        }
        let chunks = [0, 16, 32, 48].map(|at| load(block.add(at)));
        let non_ascii = chunks.iter().rev().fold(0u64, |mask, &c| {
            (mask << 16) | u64::from(_mm_movemask_epi8(c) as u16)
        });
        let (mut at, mut units) = (0, 0);
        while at <= BLOCK - STEP {
            let well_formed = limit.saturating_sub(at);
            let Some((read, written)) = step::<W, T>(
                load(block.add(at)),
                ends >> at,
                (non_ascii >> at) as u16,
                (well_formed, T::SPARE),
                out.add(units),
            ) else {
                break;
            };
            at += read;
            units += written;
        }
        Some((at, units))
    }
}

/// The lengths of input that [`staged_tail`] converts: its callers test them first, so that
/// other input does not pay for a call.
pub(crate) const STAGED_TAIL: core::ops::Range<usize> = STEP..BLOCK;

/// Converts `src`, well-formed UTF-8 of [`STEP`] bytes to less than a block, which starts a
/// character, into `dst` if all of it fits, else nothing: the bytes read and units written.
/// The block converter's steps ([`step`], from an end-of-character mask of the whole of `src`)
/// store into a buffer of their own, whose units are then copied: the part of a short string,
/// or of the end of a stretch, that no block takes, which went one character at a time with a
/// branch on its length that no predictor learns in mixed text. The bytes are loaded in place,
/// those of the last step from the last 16 bytes of `src`, moved down by a shuffle with zeros
/// after them (not copied into a buffer: a register loaded from bytes just stored waits for
/// them). A zero past `src` is a character of its own, whose unit is not copied. Against the
/// character-at-a-time path, short strings that are not mostly ASCII convert faster, and French
/// and fresh text as fast. It starts at 16 bytes: from 8 (two overlapping loads of 8), strings
/// of 16 bytes were slower. The measurements are in BENCHMARKS.md.
///
/// # Safety
/// SSE4.1, SSSE3 and `W`'s instructions; `src` is well-formed UTF-8.
#[inline(always)]
pub(crate) unsafe fn staged_tail<W: WideningRegister, T: OutputUnit>(
    src: &[u8],
    dst: &mut [MaybeUninit<T>],
) -> (usize, usize) {
    let n = src.len();
    if !STAGED_TAIL.contains(&n) {
        return (0, 0);
    }
    // A step stores at most 16 units from fewer than `BLOCK` written.
    let mut stage = [MaybeUninit::<T>::uninit(); BLOCK + STEP];
    let p = src.as_ptr();
    // SAFETY: every load reads 16 bytes of `src` (from `16k + 16 <= n`, `at + 16 <= n`, or
    // its last 16); SHIFT_DOWN has 16 bytes from `at + 16 - n`, below 16; the stores write at
    // most 16 units from `units <= at < BLOCK` (no step writes more units than it reads
    // bytes), within the stage; the instructions by the caller.
    unsafe {
        let last = load(p.add(n - STEP));
        // Bit i: byte i is a continuation byte, or not ASCII; none past `src`.
        let bits = |bytes: __m128i| {
            let continuation = _mm_cmpgt_epi8(_mm_set1_epi8(-64), bytes);
            let continuation = _mm_movemask_epi8(continuation) as u16;
            (
                u64::from(continuation),
                u64::from(_mm_movemask_epi8(bytes) as u16),
            )
        };
        let (mut continuation, mut non_ascii) = bits(last);
        (continuation, non_ascii) = (continuation << (n - STEP), non_ascii << (n - STEP));
        for k in 0..n / STEP {
            let (c, a) = bits(load(p.add(STEP * k)));
            continuation |= c << (STEP * k);
            non_ascii |= a << (STEP * k);
        }
        // Bit i: byte i ends a character; bit n - 1 too, the zero after it not continuing it.
        let ends = !continuation >> 1;
        let out = stage.as_mut_ptr().cast::<T>();
        let (mut at, mut units) = (0, 0);
        while at < n {
            let bytes = if at + STEP <= n {
                load(p.add(at))
            } else {
                let shift = super::to_utf8::SHIFT_DOWN.as_ptr().add(at + STEP - n);
                _mm_shuffle_epi8(last, load(shift))
            };
            // Past `src`, zeros: each ends a character, so that no step of eight 2-byte or
            // four 4-byte characters is taken for them, and the buffer has room to spare.
            let Some((read, written)) = step::<W, T>(
                bytes,
                ends >> at,
                (non_ascii >> at) as u16,
                (usize::MAX, 0),
                out.add(units),
            ) else {
                // Not the characters of well-formed UTF-8.
                return (0, 0);
            };
            at += read;
            units += written;
        }
        // The zeros converted past `src`, one unit each. (Checked: if another thread changed
        // `src` since it was validated, the steps may have taken other lengths.)
        let Some(units) = units.checked_sub(at - n) else {
            return (0, 0);
        };
        let (Some(staged), Some(target)) = (stage.get(..units), dst.get_mut(..units)) else {
            return (0, 0);
        };
        copy_units(staged, target);
        (n, units)
    }
}

/// Copies the units of a stage into `dst`, of the same length (see `to_utf8::copy_staged`).
#[inline(always)]
fn copy_units<T: OutputUnit>(stage: &[MaybeUninit<T>], dst: &mut [MaybeUninit<T>]) {
    // SAFETY: the units' bytes, of the units' memory; `MaybeUninit<u8>` as the units.
    let (stage, dst) = unsafe {
        (
            core::slice::from_raw_parts(stage.as_ptr().cast(), size_of_val(stage)),
            core::slice::from_raw_parts_mut(dst.as_mut_ptr().cast(), size_of_val(dst)),
        )
    };
    super::to_utf8::copy_staged(stage, dst);
}

/// One step: converts the characters at the start of `bytes`, whose end-of-character mask and
/// non-ASCII mask from there are `ends` and `non_ascii` (bit i for byte i), into `dst`: 16 bytes
/// of ASCII, of eight 2-byte or of four 4-byte characters, 12 bytes of four 3-byte characters,
/// else those that the shuffle [`STEPS`] picks by 12 bits of `ends` takes. Returns the bytes
/// read and units written, or `None` where the table has no step for those bits (not
/// well-formed UTF-8) or where `well_formed`, the bytes of well-formed input from here, does
/// not cover the step's bytes and `spare` more (see [`OutputUnit::SPARE`]; whole steps of 16 bytes
/// need no spare).
///
/// # Safety
/// SSE4.1, SSSE3 and `W`'s instructions; 16 units writable at `dst`.
#[inline(always)]
unsafe fn step<W: WideningRegister, T: OutputUnit>(
    bytes: __m128i,
    ends: u64,
    non_ascii: u16,
    (well_formed, spare): (usize, usize),
    dst: *mut T,
) -> Option<(usize, usize)> {
    let whole = STEP <= well_formed;
    // SAFETY: by the caller; each store writes at most 16 units.
    unsafe {
        if whole && non_ascii == 0 {
            T::store_ascii::<W>(bytes, dst);
            Some((STEP, STEP))
        } else if whole && ends as u16 == 0xAAAA {
            let lanes = _mm_shuffle_epi8(bytes, table(&EIGHT_TWO));
            T::store_16::<W>(values_of_two(lanes), dst);
            Some((STEP, 8))
        } else if whole && ends as u16 == 0x8888 {
            let lanes = _mm_shuffle_epi8(bytes, table(&FOUR_FOUR));
            Some((STEP, T::store_any(values_of_four(lanes), 4, dst)))
        } else if ends & 0xFFF == 0x924 && 12 + spare <= well_formed {
            // Four 3-byte characters (CJK, Indic, Thai): known without the table lookup, so
            // that the next position does not wait for it.
            let lanes = _mm_shuffle_epi8(bytes, table(&FOUR_THREE));
            T::store_32(values_of_three(lanes), dst);
            Some((12, 4))
        } else {
            let step = STEPS[(ends as usize) & ((1 << STEP_BITS) - 1)];
            let (shuffle, len) = (usize::from(step as u8), usize::from(step >> 8));
            if len == 0 || len + spare > well_formed {
                return None;
            }
            let lanes = _mm_shuffle_epi8(bytes, table(&SHUFFLES[shuffle.min(SHUFFLE_COUNT - 1)]));
            let units = if shuffle < THREE {
                T::store_16::<W>(values_of_two(lanes), dst);
                6
            } else if shuffle < FOUR {
                T::store_32(values_of_three(lanes), dst);
                4
            } else {
                T::store_any(values_of_any(lanes), 3, dst)
            };
            Some((len, units))
        }
    }
}

/// Units after a block's that [`convert_narrow_block`] may write, and puts back: one
/// register of eight, stored at its last character's units.
const NARROW_SPILL: usize = 8;

/// [`convert_narrow_block`] for a block with a 3-byte character or none, and to be validated
/// or not.
///
/// # Safety
/// As for [`convert_narrow_block`].
#[inline(always)]
unsafe fn narrow_block<W: WideningRegister, T: OutputUnit>(
    registers: &[W; BLOCK / 16],
    ends: u64,
    (three, check): (bool, bool),
    out: *mut T,
) -> (usize, usize) {
    let r = registers;
    // SAFETY: by the caller.
    unsafe {
        match (three, check) {
            (false, false) => convert_narrow_block::<W, T, false, false>(r, ends, out),
            (false, true) => convert_narrow_block::<W, T, false, true>(r, ends, out),
            (true, false) => convert_narrow_block::<W, T, true, false>(r, ends, out),
            (true, true) => convert_narrow_block::<W, T, true, true>(r, ends, out),
        }
    }
}

/// For each mask of 8 bits, the shuffle that packs together the 16-bit lanes whose bit is set,
/// each lane's two bytes in the other order if `swap`.
const fn pack_lanes(swap: bool) -> [[u8; 16]; 256] {
    let mut table = [[ZERO; 16]; 256];
    let mut mask = 0;
    while mask < 256 {
        let mut out = 0;
        let mut lane = 0;
        while lane < 8 {
            if mask & (1 << lane) != 0 {
                let (low, high) = ((2 * lane) as u8, (2 * lane + 1) as u8);
                let (first, second) = if swap { (high, low) } else { (low, high) };
                table[mask][2 * out] = first;
                table[mask][2 * out + 1] = second;
                out += 1;
            }
            lane += 1;
        }
        mask += 1;
    }
    table
}

/// [`pack_lanes`] for each byte order: the machine's, the other.
static PACK_LANES: [[[u8; 16]; 256]; 2] = [pack_lanes(false), pack_lanes(true)];

/// Converts a block of 64 bytes, in `W`'s `registers` (the first `BLOCK / W::LANES`), of
/// characters of 1 to 3 bytes only (all scripts but emoji and rare ideographs) with no table
/// step: the value each byte would have if it ended a character (with the one or two bytes
/// before it, if it and the one before are continuation bytes) in a 16-bit lane, then those of
/// the bytes that do end one, by `ends`, packed together eight lanes at a time. Converts the
/// characters that end before byte 63; returns the bytes read and units written. Without
/// `THREE`, the block has no 3-byte character, and the work for them is left out.
///
/// With `CHECK`, the block (not known to be well-formed) is validated first, and nothing is
/// converted, `(0, 0)`, unless its bytes are well-formed as far as they go: those of a block
/// with no byte above EF are exactly when each byte is a continuation byte where the one
/// before is a lead byte or the one two before a 3-byte lead (and nowhere else), no lead is
/// C0 or C1 (overlong), and the byte after E0 is A0 or above (overlong) and that after ED
/// below A0 (surrogates), RFC 3629 section 4. The block must start a character or with a
/// continuation byte (which is then an error), since the bytes before it are taken as zero;
/// a character cut at its end is not converted, so the bytes after it need no check.
///
/// # Safety
/// SSE4.1, SSSE3 and `W`'s instructions; the registers hold no byte above EF, and none
/// above DF without `THREE`; a unit writable at `out` for each bit of `ends` but bit 63, and
/// [`NARROW_SPILL`] more, whose values past those written are put back as they were.
#[inline(always)]
unsafe fn convert_narrow_block<
    W: WideningRegister,
    T: OutputUnit,
    const THREE: bool,
    const CHECK: bool,
>(
    registers: &[W; BLOCK / 16],
    ends: u64,
    out: *mut T,
) -> (usize, usize) {
    let ends = ends & !(1 << 63);
    let total = ends.count_ones() as usize;
    // SAFETY: by the caller; each store writes 8 units at `units`, which is at most the
    // number of characters before, `total` at most, so within the spill; the spill is read
    // before the stores and put back after them.
    unsafe {
        // The values of the bytes, in the pairs of registers of `W::values`.
        let mut values = [(W::splat(0), W::splat(0)); BLOCK / 16];
        let mut error = W::splat(0);
        // The block starts a character: the bytes before it are never used.
        let mut previous = W::splat(0);
        for (k, &bytes) in registers.iter().take(BLOCK / W::LANES).enumerate() {
            let before = bytes.prev::<1>(previous);
            let two_before = bytes.prev::<2>(previous);
            let continuation = bytes.continuations();
            // The bits of the byte before, if this one continues its character: six of a
            // continuation byte, five of a 2-byte lead (whose sixth is 0); the four of a
            // 3-byte lead two bytes before, if both continue its character.
            let middle = before.and(continuation).and(W::splat(0x3F));
            let top = if THREE {
                let both = continuation.and(before.continuations());
                two_before.and(both).and(W::splat(0x0F))
            } else {
                W::splat(0)
            };
            if CHECK {
                // Positive (below 0x80) where a continuation byte must be, 0 elsewhere.
                let mut expected = before.saturating_sub(W::splat(0xBF));
                if THREE {
                    expected = expected.or(two_before.saturating_sub(W::splat(0xDF)));
                }
                let misplaced = expected.greater(W::splat(0)).xor(continuation);
                let overlong_lead = bytes.and(W::splat(0xFE)).eq(W::splat(0xC0));
                error = error.or(misplaced).or(overlong_lead);
                if THREE {
                    // After E0 a byte below A0 (as signed bytes, below -96), after ED one
                    // not below it.
                    let after_ed = before.eq(W::splat(0xED));
                    let after_e0_or_ed = before.eq(W::splat(0xE0)).or(after_ed);
                    let low = W::splat(0xA0).greater(bytes);
                    error = error.or(after_e0_or_ed.and(low.xor(after_ed)));
                }
            }
            previous = bytes;
            values[k] = W::values(bytes.and(W::splat(0x7F)), middle, top);
        }
        if CHECK && error.any_nonzero() {
            return (0, 0);
        }
        // Perhaps never initialised (see `to_utf8::Saved`): copied, never read as values.
        let spill = out
            .add(total)
            .cast::<MaybeUninit<[T; NARROW_SPILL]>>()
            .read_unaligned();
        let mut units = 0;
        for (k, &(first, second)) in values.iter().take(BLOCK / W::LANES).enumerate() {
            for g in 0..W::LANES / 8 {
                let values = W::group(first, second, g);
                let mask = (ends >> (k * W::LANES + 8 * g)) as u8;
                T::store_packed::<W>(values, mask, out.add(units));
                units += mask.count_ones() as usize;
            }
        }
        out.add(total)
            .cast::<MaybeUninit<[T; NARROW_SPILL]>>()
            .write_unaligned(spill);
    }
    (BLOCK - ends.leading_zeros() as usize, total)
}

/// The converters of well-formed input given input that is not, as when another thread changes
/// the input after it was validated: which units they write is then unspecified, but every
/// store stays in the output, and the counts in their bounds.
#[cfg(test)]
mod untrusted_input {
    use super::*;
    use crate::kernels::x86::shared::Avx2;
    use crate::kernels::x86::sse42::Sse42;
    use crate::test_support::{
        BlockConverter, TailConverter, assert_within_bounds, capacities, lying_inputs,
    };

    /// [`convert`] and [`staged_tail`] of one instruction set into `T`, on input claimed
    /// well-formed.
    ///
    /// # Safety
    /// The CPU has the instructions of `convert` and `staged`.
    unsafe fn check<T: OutputUnit + PartialEq + core::fmt::Debug + From<u8>>(
        convert: BlockConverter<T>,
        staged: TailConverter<T>,
    ) {
        for src in lying_inputs() {
            for cap in capacities(src.len()) {
                // SAFETY: by the caller; the claim of well-formed input is what is tested.
                assert_within_bounds(&src, cap, |d| unsafe { convert(&src, src.len(), d) });
                // SAFETY: as above.
                assert_within_bounds(&src, cap, |d| unsafe { staged(&src, d) });
            }
        }
    }

    #[target_feature(enable = "sse4.2,popcnt")]
    unsafe fn sse42<T: OutputUnit>(s: &[u8], v: usize, d: &mut [MaybeUninit<T>]) -> (usize, usize) {
        // SAFETY: the instructions by the caller.
        unsafe { convert::<Sse42, T, NoBlockConverter>(s, v, d) }
    }

    #[target_feature(enable = "sse4.2,popcnt")]
    unsafe fn sse42_tail<T: OutputUnit>(s: &[u8], d: &mut [MaybeUninit<T>]) -> (usize, usize) {
        // SAFETY: the instructions by the caller.
        unsafe { staged_tail::<Sse42, T>(s, d) }
    }

    #[target_feature(enable = "avx2,popcnt")]
    unsafe fn avx2<T: OutputUnit>(s: &[u8], v: usize, d: &mut [MaybeUninit<T>]) -> (usize, usize) {
        // SAFETY: the instructions by the caller.
        unsafe { convert::<Avx2, T, NoBlockConverter>(s, v, d) }
    }

    #[target_feature(enable = "avx2,popcnt")]
    unsafe fn avx2_tail<T: OutputUnit>(s: &[u8], d: &mut [MaybeUninit<T>]) -> (usize, usize) {
        // SAFETY: the instructions by the caller.
        unsafe { staged_tail::<Avx2, T>(s, d) }
    }

    #[test]
    fn stores_stay_in_the_output_whatever_the_input() {
        if std::is_x86_feature_detected!("sse4.2") && std::is_x86_feature_detected!("popcnt") {
            // SAFETY: the CPU has the instructions.
            unsafe {
                check::<u16>(sse42, sse42_tail);
                check::<u32>(sse42, sse42_tail);
                check::<U16Swapped>(sse42, sse42_tail);
            }
        }
        if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("popcnt") {
            // SAFETY: the CPU has the instructions.
            unsafe {
                check::<u16>(avx2, avx2_tail);
                check::<u32>(avx2, avx2_tail);
                check::<U16Swapped>(avx2, avx2_tail);
            }
        }
    }
}
