//! The AVX-512 converters of Latin-1 and Windows-1252 into UTF-8 and of UTF-8 into Latin-1:
//! the engine's loops (`crate::engine::latin1`) with blocks of 64 bytes in one register, whose
//! output VBMI2's compression packs (after Lemire and Muła, "Transcoding billions of Unicode
//! characters per second with SIMD instructions", 2022, as simdutf's AVX-512 converters of
//! Latin-1 do). Masked loads and stores take the end of the input as a shorter block, and
//! write nothing past the output, nor reach into a page past the input's or the output's end
//! (`load_tail`, `store_tail`). An input of one block or less converts in the entry points, in
//! one masked load and its stores, before the engine's loop is set up.

use core::arch::x86_64::*;
use core::mem::MaybeUninit;
use core::ops::RangeInclusive;

use super::{compress_bytes, in_gpr, load_tail, low_bits, store_tail};
use crate::engine::short::done;
use crate::engine::{Mode, Progress, latin1};

/// Bytes of input a block takes: one register of Latin-1, or of UTF-8.
const BLOCK: usize = 64;

/// Bytes of Latin-1 whose UTF-8, up to 64 bytes, fills one register: half a block.
const HALF: usize = 32;

/// What a tuning of AVX-512 chooses in the Latin-1 converters: after how many blocks of ASCII
/// and how runs of ASCII are copied ([`copy_ascii_run`]), which of the loads or the stores are
/// whole cache lines, and for which lengths of input the copy takes one block a step at a
/// steady pace ([`copy_paced`]) rather than four at a time; and where the compressions of a
/// block into UTF-8 take their masks ([`utf8_of_block`]).
pub(crate) trait Tuning {
    /// ASCII blocks in a row after which a run of ASCII is taken four blocks at a time: in
    /// mixed text, where runs are short, each try that fails costs more than the blocks it
    /// would have saved.
    const ASCII_RUN: usize;
    /// The loads are whole lines of the input, else the stores whole lines of the output.
    const LOADS_ALIGNED: bool;
    /// The lengths of input whose runs [`copy_paced`] copies.
    const PACED: RangeInclusive<usize>;
    /// The masks of the compressions from the sign bits of the paired bytes, in mask registers,
    /// else from the bits of the block's bytes from 0x80 spread by PDEP in a general-purpose
    /// register and moved into mask registers.
    const MASKS_FROM_SIGNS: bool;
}

/// AVX512's tuning, measured on Intel: runs of ASCII copied after four blocks (after sixteen,
/// the threshold measured on AMD, text whose runs are mostly shorter, such as the Latin-1 left
/// of Greek Wikipedia, ran at simdutf's speed; after two, text with a Latin-1 letter every few
/// blocks ran slower), stores whole lines of the output, four blocks a step (a split store cost
/// more than a split load), and the compressions' masks from the sign bits
/// (faster than from PDEP on text with a byte from 0x80 in a third of its blocks, where the
/// branch per block mispredicts most; slower on text with one in most blocks: BENCHMARKS.md).
pub(crate) struct Generic;

impl Tuning for Generic {
    const ASCII_RUN: usize = 4;
    const LOADS_ALIGNED: bool = false;
    #[expect(clippy::reversed_empty_ranges, reason = "no input is paced")]
    const PACED: RangeInclusive<usize> = 1..=0;
    const MASKS_FROM_SIGNS: bool = true;
}

/// AMD Zen 4's: runs of ASCII copied after sixteen blocks (the threshold measured there) as
/// AVX512 copies them, the compressions' masks from PDEP (made in mask registers from the sign
/// bits, they were slower there: BENCHMARKS.md).
pub(crate) struct Zen4;

impl Tuning for Zen4 {
    const ASCII_RUN: usize = 16;
    const LOADS_ALIGNED: bool = Generic::LOADS_ALIGNED;
    const PACED: RangeInclusive<usize> = Generic::PACED;
    const MASKS_FROM_SIGNS: bool = false;
}

/// AMD Zen 5's: loads whole lines of the input (a split load costs more than a split store
/// there), paced for inputs whose copy outgrows the 48 KiB L1 data cache but stays in the
/// 1 MiB L2: above 24 KiB, where the input and its output no longer fit in L1 together, and up
/// to 192 KiB, past which the four-block copy was as fast (BENCHMARKS.md); the compressions'
/// masks from PDEP, as Zen 4's.
pub(crate) struct Zen5;

impl Tuning for Zen5 {
    const ASCII_RUN: usize = Zen4::ASCII_RUN;
    const LOADS_ALIGNED: bool = true;
    const PACED: RangeInclusive<usize> = 24 * 1024 + 1..=192 * 1024;
    const MASKS_FROM_SIGNS: bool = false;
}

/// The blocks of input loaded ahead of the one being converted, the first of them that one.
///
/// A load that follows a store whose address matches its own in the low 12 bits waits for it
/// (4K aliasing). When the input and the output start at the same offset in a page, as two
/// large buffers from malloc do, the output trails the input by less than a page, and each
/// block's load would wait for the stores of the blocks before. Loaded three blocks early,
/// before those stores, it does not (two blocks early did as well on most placements of the
/// two buffers, a little worse on some text with a Latin-1 letter every few blocks).
///
/// The blocks stay in their registers, a ring: the loops take its slots in turn, three steps
/// written out (`step!(0)`, `step!(1)`, `step!(2)`), each slot's block replaced by the block
/// `AHEAD` on. (Moved up the registers a block at a time, they took three register moves, a
/// fifth of the instructions of a block of ASCII.)
struct Ahead([__m512i; AHEAD]);

/// The blocks [`Ahead`] holds.
const AHEAD: usize = 3;

impl Ahead {
    /// The blocks at `p`, the first in slot `FIRST`, the next in the slots after it.
    ///
    /// # Safety
    /// The CPU has AVX-512F; `AHEAD * BLOCK` bytes at `p` are readable.
    #[inline(always)]
    unsafe fn load<const FIRST: usize>(p: *const u8) -> Self {
        // The offset at `p` of the block for `slot`.
        const fn at(slot: usize, first: usize) -> usize {
            (slot + AHEAD - first) % AHEAD * BLOCK
        }
        // SAFETY: by the caller.
        unsafe {
            Self([
                _mm512_loadu_si512(p.add(at(0, FIRST)).cast()),
                _mm512_loadu_si512(p.add(at(1, FIRST)).cast()),
                _mm512_loadu_si512(p.add(at(2, FIRST)).cast()),
            ])
        }
    }

    /// The block in slot `SLOT`, and the block at `p`, `AHEAD` blocks on, loaded in its place
    /// here, before any store that follows.
    ///
    /// # Safety
    /// The CPU has AVX-512F; `BLOCK` bytes at `p` are readable.
    #[inline(always)]
    unsafe fn take<const SLOT: usize>(&mut self, p: *const u8) -> __m512i {
        let block = self.0[SLOT];
        // SAFETY: by the caller.
        self.0[SLOT] = unsafe { _mm512_loadu_si512(p.cast()) };
        // SAFETY: the CPU has AVX-512F by the caller.
        unsafe { loaded_here(self.0[SLOT]) };
        block
    }
}

/// Keeps the load of `v` above the stores that follow in the code the compiler emits (which
/// otherwise moves it down to its first use): an empty `asm!` that takes `v`, and which, not
/// marked as free of memory accesses, stays in its place among the stores.
#[target_feature(enable = "avx512f")]
#[inline]
fn loaded_here(v: __m512i) {
    // SAFETY: the statement is empty: it reads and writes nothing.
    unsafe { core::arch::asm!("/* {0} */", in(zmm_reg) v, options(nostack, preserves_flags)) };
}

/// The end of a loop's step (in the slot `$slot` of the ring `$ahead`) for a block of ASCII
/// read up to `$read` and stored just before `$written`: counts it in `$written` and in
/// `$ascii_left`, and after `C::ASCII_RUN` of them in a row copies the run
/// that follows ([`copy_ascii_run`], with the `Tuning` `C` of the function it expands in),
/// then reloads the ring, the next step's slot first. A
/// macro, which costs nothing: as a function taking the counts by reference it cost UTF-8 ->
/// Latin-1 3.5%.
macro_rules! after_ascii_block {
    ($src:ident, $dst:ident, $read:ident, $written:ident, $ascii_left:ident, $ahead:ident, $slot:literal) => {
        $written += BLOCK;
        $ascii_left -= 1;
        if $ascii_left == 0 {
            $ascii_left = C::ASCII_RUN;
            if let Some(copied) = copy_ascii_run::<C>($src, $dst, $read, $written) {
                ($read, $written) = copied;
                $ahead = Ahead::load::<{ ($slot + 1) % AHEAD }>($src.as_ptr().add($read));
            }
        }
    };
}

/// The four blocks at `p`.
///
/// # Safety
/// The CPU has AVX-512F; `4 * BLOCK` bytes at `p` are readable.
#[inline(always)]
unsafe fn load_four(p: *const u8) -> [__m512i; 4] {
    // SAFETY: by the caller.
    unsafe {
        [
            _mm512_loadu_si512(p.cast()),
            _mm512_loadu_si512(p.add(BLOCK).cast()),
            _mm512_loadu_si512(p.add(2 * BLOCK).cast()),
            _mm512_loadu_si512(p.add(3 * BLOCK).cast()),
        ]
    }
}

/// Copies the run of ASCII at `read` four blocks at a time, tested together (a byte of
/// 0x80..0x9F fails the test too), the next four loaded before the stores (see [`Ahead`]), or
/// for an input of `C::PACED`'s lengths a block at a time ([`copy_paced`]). Where the input's
/// and the output's offsets in their cache lines differ, either the loads or the stores split
/// across two lines: with `C::LOADS_ALIGNED` the loads are whole lines of the input, else the
/// stores whole lines of the output. Backed up to where the input (or the output) is at a
/// multiple of 64 bytes, the first block stores again some bytes of the block before `read`,
/// which are ASCII, the same. Stops before the blocks that end the run (four, or the one), or
/// where fewer than eight blocks of input or four of output are left (paced: five of input, one
/// of output): where the run's copy ended, or `None` if it copied nothing. With the stores
/// aligned, a run that ends at text that is not ASCII ends where the input is at a multiple of
/// 64 bytes, its last bytes left to be taken again (ASCII, written again the same): the blocks
/// of mixed text that follow then load whole lines of an input that starts at one. (At the end
/// of the input, the stores kept aligned were worth more.)
///
/// # Safety
/// The CPU has AVX-512F and BW; the `BLOCK` bytes before `read` are ASCII, written (one byte
/// each) just before `written`.
#[inline(always)]
unsafe fn copy_ascii_run<C: Tuning>(
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
    read: usize,
    written: usize,
) -> Option<(usize, usize)> {
    // The distance to the input's (or the output's) multiple of 64 below, less than BLOCK.
    let back = if C::LOADS_ALIGNED {
        src.as_ptr().wrapping_add(read).addr() % BLOCK
    } else {
        dst.as_ptr().wrapping_add(written).addr() % BLOCK
    };
    let (mut r, mut w) = (read - back, written - back);
    if src.len() - r < 8 * BLOCK || dst.len() - w < 4 * BLOCK {
        return None;
    }
    if C::PACED.contains(&src.len()) {
        // The ring's reload after the copy reads `AHEAD` blocks at its end: leave four, as the
        // four-block copy does.
        let (src_end, dst_end) = (src.len() - r - 4 * BLOCK, dst.len() - w);
        // SAFETY: the instructions by the caller; `src_end` bytes at `r` are inside `src`,
        // `dst_end` at `w` inside `dst`, both at least a block by the test above.
        let copied = unsafe {
            copy_paced(
                src.as_ptr().add(r),
                dst.as_mut_ptr().add(w).cast(),
                src_end,
                dst_end,
            )
        };
        return (r + copied > read).then_some((r + copied, w + copied));
    }
    // SAFETY: the instructions by the caller. Each load of four blocks reads 4 * BLOCK bytes
    // at `r`, or at `r + 4 * BLOCK`, inside `src` by the loop's condition (and the test above
    // for the first); the stores write 4 * BLOCK bytes at `w`, inside `dst` by the same.
    unsafe {
        let mut four = load_four(src.as_ptr().add(r));
        while src.len() - r >= 8 * BLOCK && dst.len() - w >= 4 * BLOCK {
            let [a, b, c, d] = four;
            let any = _mm512_or_si512(_mm512_ternarylogic_epi32::<0xFE>(a, b, c), d);
            if _mm512_movepi8_mask(any) != 0 {
                // After a copy `r` is at least `read + 3 * BLOCK`: the bytes taken again are
                // of the run, and the `BLOCK` bytes before the new `r` ASCII.
                if !C::LOADS_ALIGNED && r > read {
                    let realign = src.as_ptr().add(r).addr() % BLOCK;
                    r -= realign;
                    w -= realign;
                }
                break;
            }
            four = load_four(src.as_ptr().add(r + 4 * BLOCK));
            for v in four {
                loaded_here(v);
            }
            let out = dst.as_mut_ptr().add(w);
            for (i, v) in [a, b, c, d].into_iter().enumerate() {
                _mm512_storeu_si512(out.add(i * BLOCK).cast(), v);
            }
            r += 4 * BLOCK;
            w += 4 * BLOCK;
        }
    }
    (r > read).then_some((r, w))
}

/// Copies blocks of ASCII from `src` to `dst` while they are ASCII and end within `src_end`
/// and `dst_end` bytes: the bytes copied, a multiple of 64. A block a step, whose offset is
/// advanced by two dependent additions: the loads start no faster than one every two cycles,
/// about the rate at which L2 fills L1 with a line of input and a line of output. The
/// four-block copy, whose loads run ahead of its stores, was slower by up to a fifth where
/// input and output stay in L2, and so was a loop of one block a step with one addition
/// (BENCHMARKS.md). In `asm!`, as the compiler would fold the additions and move the loop:
/// where a loop lies in its cache lines moved these copies' speed by as much.
///
/// # Safety
/// The CPU has AVX-512F and BW; `src_end` bytes at `src` are readable, `dst_end` at `dst`
/// writable, both at least 64.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
unsafe fn copy_paced(src: *const u8, dst: *mut u8, src_end: usize, dst_end: usize) -> usize {
    let mut copied: usize = 0;
    // SAFETY: each load reads the block at `copied` and each store writes it, which the
    // test of the step before (for the first, the caller) keeps within `src_end` and
    // `dst_end`. Nothing else is written; the stack is not touched.
    unsafe {
        core::arch::asm!(
            ".p2align 6",
            "2:",
            "vmovdqu64 {block}, zmmword ptr [{src} + {copied}]",
            "vpmovb2m {high}, {block}",
            "kortestq {high}, {high}",
            "jnz 3f",
            "vmovdqu64 zmmword ptr [{dst} + {copied}], {block}",
            "add {copied}, 32",
            "add {copied}, 32",
            "lea {end}, [{copied} + 64]",
            "cmp {end}, {src_end}",
            "ja 3f",
            "cmp {end}, {dst_end}",
            "jbe 2b",
            "3:",
            copied = inout(reg) copied,
            src = in(reg) src,
            dst = in(reg) dst,
            src_end = in(reg) src_end,
            dst_end = in(reg) dst_end,
            end = out(reg) _,
            block = out(zmm_reg) _,
            high = out(kreg) _,
            options(nostack),
        );
    }
    copied
}

/// The byte permutation that pairs byte `i` of a register with byte `i + 32` in 16-bit lane
/// `i`.
static PAIR_HALVES: [u8; 64] = {
    let mut table = [0; 64];
    let mut i = 0;
    while i < 32 {
        table[2 * i] = i as u8;
        table[2 * i + 1] = (i + 32) as u8;
        i += 1;
    }
    table
};

/// The bytes of `b` in 0x80..0x9F, whose characters in Windows-1252 differ from Latin-1's: the
/// bytes below 0xA0 as signed bytes (-128..-97).
///
/// # Safety
/// The CPU has AVX-512BW.
#[inline(always)]
unsafe fn c1_controls(b: __m512i) -> u64 {
    // SAFETY: the instruction by the caller.
    unsafe { _mm512_cmplt_epi8_mask(b, _mm512_set1_epi8(-96)) }
}

/// The UTF-8 of the 64 bytes of Latin-1 `b`, whose bytes from 0x80 and from 0xC0 are the
/// bits of `high` and `from_c0`: the UTF-8 of each half packed at the start of a register, and
/// its length. In the 16-bit lane of each byte `x`, the lead C2 (low) and `x` (high); from 0xC0
/// the lead gains 1 and `x` loses 0x40, which makes it `0x80 | (x & 0x3F)`. The lead of a byte
/// below 0x80 is compressed away. One permutation pairs the halves' bytes, each lane then
/// shifted up or masked for the half it serves. The compressions keep every high byte of a
/// lane, and its low byte where the lane's byte is from 0x80 (their masks as `C` chooses).
///
/// # Safety
/// The CPU has AVX-512F, BW, VBMI, VBMI2 and BMI2.
#[inline(always)]
unsafe fn utf8_of_block<C: Tuning>(b: __m512i, high: u64, from_c0: u64) -> [(__m512i, usize); 2] {
    // SAFETY: the instructions by the caller; the table holds 64 bytes.
    unsafe {
        let pairs = _mm512_permutexvar_epi8(_mm512_loadu_si512(PAIR_HALVES.as_ptr().cast()), b);
        let lead = _mm512_set1_epi16(0xC2);
        // +1 in the low byte, -0x40 in the high byte.
        let adjust = _mm512_set1_epi16(0xC001u16 as i16);
        // First half: each lane's low byte moved up, C2 below it (shifted in from C2C2).
        let first = _mm512_shldi_epi16::<8>(pairs, _mm512_set1_epi8(0xC2u8 as i8));
        let first = _mm512_mask_add_epi16(first, from_c0 as u32, first, adjust);
        // Second half: each lane's high byte, C2 below it.
        let second =
            _mm512_ternarylogic_epi32::<0xF8>(lead, pairs, _mm512_set1_epi16(0xFF00u16 as i16));
        let second = _mm512_mask_add_epi16(second, (from_c0 >> 32) as u32, second, adjust);
        let (low, up) = (high as u32, (high >> 32) as u32);
        let (first, second) = if C::MASKS_FROM_SIGNS {
            compress_by_signs(pairs, first, second)
        } else {
            let keep =
                |high: u32| 0xAAAA_AAAA_AAAA_AAAA | _pdep_u64(high.into(), 0x5555_5555_5555_5555);
            (
                compress_bytes(keep(low), first),
                compress_bytes(keep(up), second),
            )
        };
        [
            (first, 32 + low.count_ones() as usize),
            (second, 32 + up.count_ones() as usize),
        ]
    }
}

/// [`utf8_of_block`]'s compressions of `first` and `second` with masks made in mask registers
/// from the sign bits of `pairs` (bit `2i` the first half's byte `i`, bit `2i + 1` the
/// second's), each half's moved to the even bits and every odd bit set. In `asm!`, as the
/// compiler would move the masks through a general-purpose register.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi2")]
#[inline]
fn compress_by_signs(pairs: __m512i, first: __m512i, second: __m512i) -> (__m512i, __m512i) {
    let (mut first, mut second) = (first, second);
    // SAFETY: the instructions by the target features; registers only, no memory, no stack.
    unsafe {
        core::arch::asm!(
            "vpmovb2m {signs}, {pairs}",
            "korq {keep_first}, {signs}, {odd}",
            "kshiftrq {signs}, {signs}, 1",
            "korq {keep_second}, {signs}, {odd}",
            "vpcompressb {first}{{{keep_first}}}, {first}",
            "vpcompressb {second}{{{keep_second}}}, {second}",
            pairs = in(zmm_reg) pairs,
            odd = in(kreg) 0xAAAA_AAAA_AAAA_AAAAu64,
            signs = out(kreg) _,
            keep_first = out(kreg) _,
            keep_second = out(kreg) _,
            first = inout(zmm_reg) first,
            second = inout(zmm_reg) second,
            options(pure, nomem, nostack, preserves_flags),
        );
    }
    (first, second)
}

/// Converts Latin-1 into UTF-8 (with `CP1252`, up to a block holding a byte of 0x80..0x9F,
/// whose characters differ from Latin-1's) while each block's output fits: the bytes read and
/// written. Blocks of 64 bytes of ASCII are copied, each tested on its own (a test of two
/// together failed as often in text with a character from 0x80 every few blocks, and then cost
/// a second unpredictable branch on the first), long runs of them four at a time
/// ([`copy_ascii_run`]); the others are converted a block at a time, each half's UTF-8
/// in one register ([`utf8_of_block`]). Each block is loaded `AHEAD` blocks ahead ([`Ahead`]).
///
/// While another block follows and the room holds both, the stores are whole registers, which
/// reach at most 32 bytes past a block's output (a half's output is at least 32 bytes): the
/// conversion writes them again, since each byte of the next block gives at least one byte
/// of output and the room holds it. At the end, a block of ASCII is stored whole where its 64
/// bytes fit, and so are the last bytes of an input that ends with a block of ASCII, over the
/// same bytes already written before them; masked stores write the rest, the output alone.
///
/// A function of its own, whose loop keeps its values in registers (inlined in the engine's
/// loop, it kept some on the stack).
///
/// # Safety
/// The CPU has AVX-512F, BW, VL, VBMI, VBMI2, BMI2 and POPCNT.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
#[inline(never)]
unsafe fn latin1_blocks<const CP1252: bool, C: Tuning>(
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
) -> (usize, usize) {
    let (mut read, mut written) = (0, 0);
    // SAFETY: the instructions by the caller. The whole loads read the `AHEAD` blocks at
    // `read` (`Ahead::load`) or the block `AHEAD` on (`Ahead::take`), inside `src` while
    // `read` is below `src_blocks_end`, or after a copy of ASCII, which leaves four blocks
    // (its own loads and stores are its own); the masked ones the first `len` bytes of the
    // rest (the others are neither read nor able to fault). The whole stores write at most 128
    // bytes at `written`, inside `dst` while `written` is below `dst_blocks_end`, which `stop`
    // keeps it, or 64 of ASCII where they fit; the masked ones the step's output, checked to
    // fit first. The loop of the end loads the block at `read`, inside `src` by its condition;
    // the block that ends the input is read at `src.len() - BLOCK` and written to end at
    // `written + rest`, both inside their buffers as `written >= read >= BLOCK - rest` and the
    // room holds `rest`. `copy_ascii_run` follows a block of ASCII, written just before
    // `written`.
    unsafe {
        // Converts the block `b` into the output at `out`: its length.
        let convert = |b: __m512i, high: u64, out: *mut u8| {
            let from_c0 = _mm512_cmpge_epu8_mask(b, _mm512_set1_epi8(0xC0u8 as i8));
            let [(first, first_len), (second, _)] = utf8_of_block::<C>(b, high, from_c0);
            _mm512_storeu_si512(out.cast(), first);
            _mm512_storeu_si512(out.add(first_len).cast(), second);
            BLOCK + high.count_ones() as usize
        };
        // While `AHEAD` more blocks follow (see `Ahead`) and the room holds this block's stores
        // and the next block's output.
        let src_blocks_end = src.len().saturating_sub((AHEAD + 1) * BLOCK - 1);
        let dst_blocks_end = dst.len().saturating_sub(3 * BLOCK - 1);
        while read < src_blocks_end && written < dst_blocks_end {
            // The blocks that surely pass the test of the room go by the test of the input
            // alone: each byte of input gives at most two of output.
            let stop = src_blocks_end.min(read + (dst_blocks_end - written).div_ceil(2));
            let mut ahead = Ahead::load::<0>(src.as_ptr().add(read));
            // ASCII blocks left before a run of them is taken four at a time: at the start,
            // one (a run that starts the input is copied from its second block, and text that
            // does not start with one costs a single try).
            let mut ascii_left = if read == 0 { 1 } else { C::ASCII_RUN };
            // Converts the block of slot `$slot` of `ahead` (see `Ahead`), or leaves `$blocks`
            // at `stop`.
            macro_rules! step {
                ($slot:literal, $blocks:lifetime) => {
                    if read >= stop {
                        break $blocks;
                    }
                    let b = ahead.take::<$slot>(src.as_ptr().add(read + AHEAD * BLOCK));
                    if CP1252 && c1_controls(b) != 0 {
                        return (read, written);
                    }
                    let high = in_gpr(_mm512_movepi8_mask(b));
                    let out = dst.as_mut_ptr().add(written).cast::<u8>();
                    read += BLOCK;
                    if high != 0 {
                        written += convert(b, high, out);
                        ascii_left = C::ASCII_RUN;
                    } else {
                        _mm512_storeu_si512(out.cast(), b);
                        after_ascii_block!(src, dst, read, written, ascii_left, ahead, $slot);
                    }
                };
            }
            'blocks: loop {
                step!(0, 'blocks);
                step!(1, 'blocks);
                step!(2, 'blocks);
            }
        }
        // The end of the input, which the ring does not reach, with whole loads and stores
        // where they fit (a masked load or store costs more, and the ring leaves up to four
        // blocks): blocks of ASCII, and blocks to convert while another follows and the room
        // holds as much as above.
        while src.len() - read >= BLOCK {
            let b = _mm512_loadu_si512(src.as_ptr().add(read).cast());
            let high = in_gpr(_mm512_movepi8_mask(b));
            let out = dst.as_mut_ptr().add(written).cast::<u8>();
            if high == 0 && dst.len() - written >= BLOCK {
                _mm512_storeu_si512(out.cast(), b);
                written += BLOCK;
            } else if high != 0
                && src.len() - read >= 2 * BLOCK
                && written < dst_blocks_end
                && !(CP1252 && c1_controls(b) != 0)
            {
                written += convert(b, high, out);
            } else {
                break;
            }
            read += BLOCK;
        }
        // The last bytes, fewer than a block, where the block that ends the input is ASCII and
        // read here: stored whole, over the output of its first bytes, the same bytes.
        let rest = src.len() - read;
        if rest > 0 && rest < BLOCK && read >= BLOCK - rest && dst.len() - written >= rest {
            let b = _mm512_loadu_si512(src.as_ptr().add(src.len() - BLOCK).cast());
            if in_gpr(_mm512_movepi8_mask(b)) == 0 {
                let out = dst.as_mut_ptr().add(written + rest - BLOCK);
                _mm512_storeu_si512(out.cast(), b);
                read += rest;
                written += rest;
            }
        }
        while let Some(rest) = src.get(read..).filter(|r| !r.is_empty()) {
            let len = rest.len().min(BLOCK);
            // Whether the stores may be the last (see `store_tail`): the lanes masked off past
            // a block's output reach at most 63 bytes past it, and the 64 bytes or more that 64
            // more bytes of input give cover them.
            let last = rest.len() < 2 * BLOCK;
            let v = load_tail(rest.as_ptr(), len);
            // The lanes past `len` are zeros, which pass.
            if CP1252 && c1_controls(v) != 0 {
                break;
            }
            let room = dst.len() - written;
            let out = dst.as_mut_ptr().add(written).cast::<u8>();
            let high = _mm512_movepi8_mask(v);
            // The whole block's output, if it fits.
            let total = len + high.count_ones() as usize;
            if total <= room {
                store_utf8_of_tail::<C>(out, v, len, high, last);
                read += len;
                written += total;
                continue;
            }
            if high == 0 {
                break;
            }
            // Else the first half's bytes, or all if fewer, if they fit.
            let len = len.min(HALF);
            let total = len + (high & low_bits(len)).count_ones() as usize;
            if total > room {
                break;
            }
            let from_c0 = _mm512_cmpge_epu8_mask(v, _mm512_set1_epi8(0xC0u8 as i8));
            let [(bytes, _), _] = utf8_of_block::<C>(v, high, from_c0);
            // The output full, the last store.
            store_tail(out, total, bytes, true);
            read += len;
            written += total;
        }
    }
    (read, written)
}

/// Writes at `out` the UTF-8 of the `len` bytes of Latin-1 in `v`, `len` at most a block, the
/// lanes past `len` zeros, whose bytes from 0x80 are the bits of `high`: `len` bytes and one
/// more for each of those, in masked stores (see `store_tail` for `last`).
///
/// # Safety
/// The CPU has AVX-512F, BW, VBMI, VBMI2 and BMI2; that many bytes at `out` are writable.
#[inline(always)]
unsafe fn store_utf8_of_tail<C: Tuning>(
    out: *mut u8,
    v: __m512i,
    len: usize,
    high: u64,
    last: bool,
) {
    let total = len + high.count_ones() as usize;
    // SAFETY: the instructions and the room by the caller.
    unsafe {
        if high == 0 {
            store_tail(out, len, v, last);
        } else {
            let from_c0 = _mm512_cmpge_epu8_mask(v, _mm512_set1_epi8(0xC0u8 as i8));
            let [(first, first_len), (second, _)] = utf8_of_block::<C>(v, high, from_c0);
            // All of it in the first half's if `len` is at most `HALF` (the zeros past `len`,
            // kept as ASCII, are cut off).
            let first_len = first_len.min(total);
            store_tail(out, first_len, first, last);
            store_tail(out.add(first_len), total - first_len, second, last);
        }
    }
}

/// The UTF-8 of an input of 1 to 64 bytes in one masked load and its stores, if it fits in
/// `dst` (and, with `CP1252`, has no byte of 0x80..0x9F, whose characters differ): its length.
/// Taken before the engine's loop is set up, whose fixed cost is most of a short input's time.
///
/// # Safety
/// The CPU has AVX-512F, BW, VBMI, VBMI2 and BMI2.
#[inline(always)]
unsafe fn short_latin1_to_utf8<const CP1252: bool, C: Tuning>(
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
) -> Option<usize> {
    let len = src.len();
    // SAFETY: the instructions by the caller; the load reads the `len` bytes of `src`, the
    // stores write `total` bytes, which `dst` holds.
    unsafe {
        let v = load_tail(src.as_ptr(), len);
        // The lanes past `len` are zeros, which pass.
        if CP1252 && c1_controls(v) != 0 {
            return None;
        }
        let high = _mm512_movepi8_mask(v);
        let total = len + high.count_ones() as usize;
        if total > dst.len() {
            return None;
        }
        store_utf8_of_tail::<C>(dst.as_mut_ptr().cast(), v, len, high, true);
        Some(total)
    }
}

/// The Latin-1 of a block `b` of UTF-8 whose bytes from 0x80 are the bits of `high`, if every
/// one of them is a lead C2 or C3 followed by a continuation byte (in the next block for a
/// lead in the last byte) or that continuation byte, with bit 0 of `carried_lead` and
/// `carried_c3` set where the block before ended with a lead, and with C3: the block's bytes with
/// each continuation byte after C3 gaining 0x40, which makes it the character's value (after C2
/// it is the value), and the masks of the leads and of the C3 leads. A lead in the last byte of
/// a shorter block (the input's end, past which the lanes are zeros) has no continuation byte.
///
/// # Safety
/// The CPU has AVX-512F and BW.
#[inline(always)]
unsafe fn latin1_of_block(
    b: __m512i,
    high: u64,
    carried_lead: u64,
    carried_c3: u64,
) -> Option<(__m512i, u64, u64)> {
    // SAFETY: the instructions by the caller.
    unsafe {
        let leads = _mm512_cmpge_epu8_mask(b, _mm512_set1_epi8(0xC0u8 as i8));
        // C2 and C3 are the leads whose XOR with C2 is at most 1.
        let from_c2 = _mm512_xor_si512(b, _mm512_set1_epi8(0xC2u8 as i8));
        let other_leads = _mm512_mask_cmpgt_epu8_mask(leads, from_c2, _mm512_set1_epi8(1));
        if other_leads != 0 || high & !leads != (leads << 1) | carried_lead {
            return None;
        }
        let c3 = _mm512_mask_cmpeq_epi8_mask(leads, from_c2, _mm512_set1_epi8(1));
        let values = _mm512_mask_add_epi8(b, (c3 << 1) | carried_c3, b, _mm512_set1_epi8(0x40));
        Some((values, leads, c3))
    }
}

/// The Latin-1 of an input of 1 to 64 bytes of UTF-8 in one masked load and one store, if it is
/// ASCII and 2-byte characters up to U+00FF, none cut by the end, and fits in `dst`: its length.
/// Any other input, which every mode converts alike as far as this goes, is left to the
/// engine's loop (see [`short_latin1_to_utf8`]).
///
/// # Safety
/// The CPU has AVX-512F, BW, VBMI2 and BMI2.
#[inline(always)]
unsafe fn short_utf8_to_latin1(src: &[u8], dst: &mut [MaybeUninit<u8>]) -> Option<usize> {
    let len = src.len();
    // SAFETY: the instructions by the caller; the load reads the `len` bytes of `src`, the
    // store writes `total` bytes, which `dst` holds.
    unsafe {
        let b = load_tail(src.as_ptr(), len);
        let high = _mm512_movepi8_mask(b);
        let (values, leads) = if high == 0 {
            (b, 0)
        } else {
            let (values, leads, _) = latin1_of_block(b, high, 0, 0)?;
            // A lead in the 64th byte, whose continuation byte would be in the next block.
            if leads >> 63 != 0 {
                return None;
            }
            (values, leads)
        };
        let keep = low_bits(len) & !leads;
        let total = keep.count_ones() as usize;
        if total > dst.len() {
            return None;
        }
        store_tail(
            dst.as_mut_ptr().cast(),
            total,
            compress_bytes(keep, values),
            true,
        );
        Some(total)
    }
}

/// Converts UTF-8 into Latin-1 as far as blocks of ASCII and 2-byte characters up to U+00FF
/// go: the bytes read and written. The blocks are the input's 64 bytes at a time, whatever
/// their characters ([`latin1_of_block`]), the leads compressed away. Anything else (a
/// character above U+00FF, an error, a character cut by the end of the input) stops it before
/// the block, and before a lead carried into it, for the engine's exact path. Long runs of
/// ASCII are copied four blocks at a time ([`copy_ascii_run`]). Each block is loaded `AHEAD`
/// blocks ahead ([`Ahead`]).
///
/// A function of its own, as [`latin1_blocks`] is.
///
/// # Safety
/// The CPU has AVX-512F, BW, VBMI2 and POPCNT.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi2,popcnt,bmi2")]
#[inline(never)]
unsafe fn utf8_to_latin1_blocks<C: Tuning>(
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
) -> (usize, usize) {
    let (mut read, mut written) = (0, 0);
    // Bit 0 set where the previous block ended with a lead, and with C3.
    let (mut carried_lead, mut carried_c3) = (0u64, 0u64);
    // SAFETY: the instructions by the caller. The whole loads read the `AHEAD` blocks at
    // `read` or the block `AHEAD` on (see `latin1_blocks`), inside `src` while `read` is below
    // `src_blocks_end` or after a copy of ASCII, and the masked ones the first `len` bytes of
    // `rest` (the others are masked off: neither read nor able to fault). Each store writes the
    // block's output at `written`, inside `dst`: a whole block's output is at most 64 bytes,
    // which the first loop's condition leaves room for, and the second loop checks.
    // `copy_ascii_run` follows a block of ASCII (with no lead carried into it), written just
    // before `written`.
    unsafe {
        // While `AHEAD` more blocks follow (see `Ahead`).
        let src_blocks_end = src.len().saturating_sub((AHEAD + 1) * BLOCK - 1);
        if read < src_blocks_end {
            let mut ahead = Ahead::load::<0>(src.as_ptr().add(read));
            // As in `latin1_blocks`.
            let mut ascii_left = C::ASCII_RUN;
            macro_rules! step {
                ($slot:literal, $blocks:lifetime) => {
                    if read >= src_blocks_end || dst.len() - written < BLOCK {
                        break $blocks;
                    }
                    let b = ahead.take::<$slot>(src.as_ptr().add(read + AHEAD * BLOCK));
                    let out = dst.as_mut_ptr().add(written).cast::<u8>();
                    let high = in_gpr(_mm512_movepi8_mask(b));
                    if high != 0 {
                        let Some((values, leads, c3)) =
                            latin1_of_block(b, high, carried_lead, carried_c3)
                        else {
                            break $blocks;
                        };
                        // At least 32 bytes: each lead has its continuation byte.
                        let total = (!leads).count_ones() as usize;
                        let bytes = compress_bytes(!leads, values);
                        _mm512_mask_storeu_epi8(out.cast(), u64::MAX >> (64 - total), bytes);
                        read += BLOCK;
                        written += total;
                        (carried_lead, carried_c3) = (leads >> 63, c3 >> 63);
                        ascii_left = C::ASCII_RUN;
                    } else {
                        if carried_lead != 0 {
                            break $blocks;
                        }
                        _mm512_storeu_si512(out.cast(), b);
                        read += BLOCK;
                        after_ascii_block!(src, dst, read, written, ascii_left, ahead, $slot);
                    }
                };
            }
            'blocks: loop {
                step!(0, 'blocks);
                step!(1, 'blocks);
                step!(2, 'blocks);
            }
        }
        // The blocks that stopped the first loop, if any, stop this one too.
        while let Some(rest) = src.get(read..).filter(|r| !r.is_empty()) {
            let len = rest.len().min(BLOCK);
            let within = low_bits(len);
            // As in `latin1_blocks`: the output of a block is at least 32 bytes, so that its
            // store's lanes masked off reach at most 32 bytes past it, and the 32 bytes or more
            // that 64 more bytes of input give cover them.
            let last = rest.len() < 2 * BLOCK;
            let b = load_tail(rest.as_ptr(), len);
            let high = _mm512_movepi8_mask(b);
            let out = dst.as_mut_ptr().add(written).cast::<u8>();
            let room = dst.len() - written;
            let Some((values, leads, c3)) = (if high == 0 {
                (carried_lead == 0).then_some((b, 0, 0))
            } else {
                latin1_of_block(b, high, carried_lead, carried_c3)
            }) else {
                break;
            };
            let keep = within & !leads;
            let total = keep.count_ones() as usize;
            if total > room {
                break;
            }
            let bytes = compress_bytes(keep, values);
            store_tail(out, total, bytes, last);
            read += len;
            written += total;
            (carried_lead, carried_c3) = (leads >> 63, c3 >> 63);
        }
    }
    // A lead carried past the last block converted is left with its character.
    (read - carried_lead as usize, written)
}

/// `crate::engine::latin1::latin1_to_utf8_with` with [`latin1_blocks`], whose copies of
/// runs of ASCII `C` chooses (see [`copy_ascii_run`]).
///
/// # Safety
/// The CPU has AVX-512F, BW, VL, VBMI and VBMI2, BMI2 and POPCNT.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
pub(crate) unsafe fn latin1_to_utf8<C: Tuning>(
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
) -> Progress {
    if (1..=BLOCK).contains(&src.len())
        // SAFETY: the CPU has the instructions by our contract.
        && let Some(written) = unsafe { short_latin1_to_utf8::<false, C>(src, dst) }
    {
        return done(src.len(), written);
    }
    latin1::latin1_to_utf8_with(src, dst, |s, d| {
        // SAFETY: the CPU has the instructions by our contract.
        unsafe { latin1_blocks::<false, C>(s, d) }
    })
}

/// `crate::engine::latin1::cp1252_to_utf8_with` with [`latin1_blocks`], which stops at the
/// bytes 0x80..0x9F (`C` as for [`latin1_to_utf8`]).
///
/// # Safety
/// As for [`latin1_to_utf8`].
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
pub(crate) unsafe fn cp1252_to_utf8<C: Tuning>(
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
) -> Progress {
    if (1..=BLOCK).contains(&src.len())
        // SAFETY: the CPU has the instructions by our contract.
        && let Some(written) = unsafe { short_latin1_to_utf8::<true, C>(src, dst) }
    {
        return done(src.len(), written);
    }
    latin1::cp1252_to_utf8_with(src, dst, |s, d| {
        // SAFETY: as above.
        unsafe { latin1_blocks::<true, C>(s, d) }
    })
}

/// `crate::engine::latin1::utf8_to_latin1_with` with [`utf8_to_latin1_blocks`]
/// (`C` as for [`latin1_to_utf8`]).
///
/// # Safety
/// As for [`latin1_to_utf8`].
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
pub(crate) unsafe fn utf8_to_latin1<C: Tuning>(
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
    mode: Mode,
) -> Progress {
    if (1..=BLOCK).contains(&src.len())
        // SAFETY: the CPU has the instructions by our contract.
        && let Some(written) = unsafe { short_utf8_to_latin1(src, dst) }
    {
        return done(src.len(), written);
    }
    latin1::utf8_to_latin1_with(src, dst, mode, |s, d| {
        // SAFETY: as above.
        unsafe { utf8_to_latin1_blocks::<C>(s, d) }
    })
}
