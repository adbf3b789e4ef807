//! The NEON kernel (aarch64): 16-byte registers, table lookups with `tbl`.
//!
//! It validates and counts. The converters between UTF-8 and UTF-16 or UTF-32 are the engine's
//! scalar loops (`crate::engine`), those from UTF-8 validating with this kernel first; the
//! converters of Latin-1 and Windows-1252 copy runs of ASCII and convert blocks of 16 bytes in
//! its registers ([`latin1_to_utf8`], [`utf8_to_latin1`]).

use core::arch::aarch64::*;
use core::mem::MaybeUninit;

use crate::algorithms::latin1::LATIN1_SHUFFLES;
use crate::algorithms::lookup::{self, Vector};
use crate::engine::{Mode, Progress};

#[derive(Clone, Copy)]
pub(crate) struct Neon(uint8x16_t);

// SAFETY: every method uses NEON instructions only, and the trait's contract makes callers
// guarantee that the CPU has them (every aarch64 CPU that Linux runs on does).
unsafe impl Vector for Neon {
    const LANES: usize = 16;

    #[inline(always)]
    unsafe fn splat(b: u8) -> Self {
        // SAFETY: the caller guarantees NEON.
        Neon(unsafe { vdupq_n_u8(b) })
    }

    #[inline(always)]
    unsafe fn load(src: &[u8]) -> Self {
        debug_assert!(src.len() >= Self::LANES);
        // SAFETY: `src` holds at least 16 readable bytes; ld1 has no alignment requirement.
        Neon(unsafe { vld1q_u8(src.as_ptr()) })
    }

    #[inline(always)]
    unsafe fn load_partial(src: &[u8]) -> Self {
        if src.len() == Self::LANES {
            // SAFETY: `src` holds LANES bytes.
            return unsafe { Self::load(src) };
        }
        let word = |at| lookup::word_at(src, at);
        // SAFETY: NEON by the caller.
        Neon(unsafe { vcombine_u8(vcreate_u8(word(0)), vcreate_u8(word(8))) })
    }

    #[inline(always)]
    unsafe fn load_end(src: &[u8], len: usize) -> Self {
        debug_assert!(0 < len && len < Self::LANES && src.len() >= Self::LANES);
        // SAFETY: `src` holds at least 16 readable bytes, the table 16 from `len`; NEON by the
        // caller. tbl gives zeros for the indices 0x80.
        unsafe {
            let indices = vld1q_u8(lookup::SHIFT_TO_END[len..].as_ptr());
            Neon(vqtbl1q_u8(vld1q_u8(src.as_ptr()), indices))
        }
    }

    #[inline(always)]
    unsafe fn lookup(self, table: &[u8; 16]) -> Self {
        // SAFETY: `table` holds 16 readable bytes; NEON by the caller.
        unsafe { Neon(vqtbl1q_u8(vld1q_u8(table.as_ptr()), self.0)) }
    }

    #[inline(always)]
    unsafe fn high_nibbles(self) -> Self {
        // SAFETY: NEON by the caller.
        unsafe { Neon(vshrq_n_u8::<4>(self.0)) }
    }

    #[inline(always)]
    unsafe fn low_nibbles(self) -> Self {
        // SAFETY: NEON by the caller.
        unsafe { Neon(vandq_u8(self.0, vdupq_n_u8(0x0F))) }
    }

    #[inline(always)]
    unsafe fn prev<const N: i32>(self, prev: Self) -> Self {
        // SAFETY: NEON by the caller. `ext` takes the last lanes of its first operand, then the
        // first of its second.
        unsafe {
            Neon(match N {
                1 => vextq_u8::<15>(prev.0, self.0),
                2 => vextq_u8::<14>(prev.0, self.0),
                _ => vextq_u8::<13>(prev.0, self.0),
            })
        }
    }

    #[inline(always)]
    unsafe fn and(self, other: Self) -> Self {
        // SAFETY: NEON by the caller.
        unsafe { Neon(vandq_u8(self.0, other.0)) }
    }

    #[inline(always)]
    unsafe fn or(self, other: Self) -> Self {
        // SAFETY: NEON by the caller.
        unsafe { Neon(vorrq_u8(self.0, other.0)) }
    }

    #[inline(always)]
    unsafe fn xor(self, other: Self) -> Self {
        // SAFETY: NEON by the caller.
        unsafe { Neon(veorq_u8(self.0, other.0)) }
    }

    #[inline(always)]
    unsafe fn saturating_sub(self, other: Self) -> Self {
        // SAFETY: NEON by the caller.
        unsafe { Neon(vqsubq_u8(self.0, other.0)) }
    }

    #[inline(always)]
    unsafe fn any_high_bit(self) -> bool {
        // SAFETY: NEON by the caller.
        unsafe { vmaxvq_u8(self.0) >= 0x80 }
    }

    #[inline(always)]
    unsafe fn any_nonzero(self) -> bool {
        // SAFETY: NEON by the caller.
        unsafe { vmaxvq_u8(self.0) != 0 }
    }

    #[inline(always)]
    unsafe fn count_continuations(self) -> u32 {
        // SAFETY: NEON by the caller. As signed bytes, 80..BF are exactly those below -64
        // (C0); each such lane gives 0xFF, whose top bit is counted.
        unsafe {
            let continuation = vcltq_s8(vreinterpretq_s8_u8(self.0), vdupq_n_s8(-64));
            u32::from(vaddvq_u8(vshrq_n_u8::<7>(continuation)))
        }
    }

    #[inline(always)]
    unsafe fn count_four_byte_leads(self) -> u32 {
        // SAFETY: NEON by the caller. Each lane from F0 gives 0xFF, whose top bit is counted.
        unsafe {
            let lead = vcgeq_u8(self.0, vdupq_n_u8(0xF0));
            u32::from(vaddvq_u8(vshrq_n_u8::<7>(lead)))
        }
    }
}

lookup::block_kernels!("neon", Neon);

/// [`crate::transcode::utf16::utf8_to_utf16`], validating with this kernel; into UTF-16 of
/// either byte order.
///
/// # Safety
/// The CPU has NEON.
pub(crate) unsafe fn utf8_to_utf16<T: crate::engine::Utf16Unit>(
    src: &[u8],
    dst: &mut [MaybeUninit<T>],
    mode: Mode,
) -> Progress {
    // SAFETY: the kernel needs NEON, which the CPU has by our contract.
    unsafe { crate::kernels::utf8_to_utf16_validated_by(validate::<true>, src, dst, mode) }
}

/// [`crate::transcode::utf32::utf8_to_utf32`], validating with this kernel.
///
/// # Safety
/// The CPU has NEON.
pub(crate) unsafe fn utf8_to_utf32(
    src: &[u8],
    dst: &mut [MaybeUninit<u32>],
    mode: Mode,
) -> Progress {
    // SAFETY: the kernel needs NEON, which the CPU has by our contract.
    unsafe { crate::kernels::utf8_to_utf32_validated_by(validate::<true>, src, dst, mode) }
}

/// Bytes of a run of ASCII that [`copy_ascii_run`] tests and copies at a time: four registers,
/// tested with one `umaxv` of their union.
const ASCII_RUN: usize = 64;

/// Copies the run of ASCII at the start of `src` into `dst`, as far as both allow:
/// [`ASCII_RUN`] bytes at a time, then 16 at a time. The number of bytes copied: it stops at the
/// first such piece that is not all ASCII, so bytes of ASCII may follow. Each piece is loaded
/// once, into the registers that are tested and then stored; the stores are the bytes copied.
///
/// # Safety
/// The CPU has NEON.
#[inline(always)]
unsafe fn copy_ascii_run(src: &[u8], dst: &mut [MaybeUninit<u8>]) -> usize {
    let n = src.len().min(dst.len());
    let (from, to) = (src.as_ptr(), dst.as_mut_ptr().cast::<u8>());
    let mut i = 0;
    // SAFETY: each piece of 16 or `ASCII_RUN` bytes at `i` ends at most at `n`, inside both
    // buffers, which are distinct; NEON by the caller.
    unsafe {
        while n - i >= ASCII_RUN {
            let piece = [0, 16, 32, 48].map(|k| vld1q_u8(from.add(i + k)));
            let any = vorrq_u8(vorrq_u8(piece[0], piece[1]), vorrq_u8(piece[2], piece[3]));
            if vmaxvq_u8(any) >= 0x80 {
                break;
            }
            for (k, r) in piece.into_iter().enumerate() {
                vst1q_u8(to.add(i + 16 * k), r);
            }
            i += ASCII_RUN;
        }
        while n - i >= 16 {
            let v = vld1q_u8(from.add(i));
            if vmaxvq_u8(v) >= 0x80 {
                break;
            }
            vst1q_u8(to.add(i), v);
            i += 16;
        }
    }
    i
}

/// Bytes of input a block of [`latin1_blocks`] and [`utf8_to_latin1_blocks`] takes.
const LATIN1_BLOCK: usize = 16;

/// Lane `i` holds bit `i % 8`: ANDed with a mask of lanes (0 or 0xFF each) and summed per half
/// with `addv`, the bits of each half's lanes.
static LANE_BITS: [u8; 16] = [1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128];

/// The bits of the lanes of `mask` (each 0 or 0xFF) that are set, bit `i` for lane `i`, of its
/// first 8 lanes and of its last 8.
///
/// # Safety
/// The CPU has NEON.
#[inline(always)]
unsafe fn lane_bits(mask: uint8x16_t) -> (u32, u32) {
    // SAFETY: the table holds 16 bytes; NEON by the caller.
    unsafe {
        let bits = vandq_u8(mask, vld1q_u8(LANE_BITS.as_ptr()));
        (
            u32::from(vaddv_u8(vget_low_u8(bits))),
            u32::from(vaddv_u8(vget_high_u8(bits))),
        )
    }
}

/// Converts Latin-1 into UTF-8 as far as blocks go (with `CP1252`, up to a block of 16 bytes
/// holding a byte of 0x80..0x9F, whose characters differ from Latin-1's): the bytes read and
/// written. Runs of ASCII are copied ([`copy_ascii_run`]); after each, blocks of 16 bytes are
/// converted up to one that is all ASCII, where the next run starts (the block where the run
/// stopped is converted whatever it holds, so that each round converts one). Each byte `b`
/// from 0x80 becomes `0xC0 | (b >> 6)` and `0x80 | (b & 0x3F)`, built for all 16 bytes in two
/// registers of interleaved pairs (`zip`), from which a `tbl` chosen by the mask of the
/// non-ASCII bytes keeps, for each 8 of them, the pairs of the non-ASCII bytes and the second
/// byte of the others (NEON has no compress; the expansion and the table of shuffles follow
/// Lemire and Muła, "Transcoding billions of Unicode characters per second with SIMD
/// instructions", 2022, as simdutf's converters from Latin-1 do).
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
/// The CPU has NEON.
#[inline(always)]
unsafe fn latin1_blocks<const CP1252: bool>(
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
) -> (usize, usize) {
    let (mut read, mut written) = (0, 0);
    // SAFETY: NEON by the caller; a block's load reads 16 bytes of `src` at `read` and its
    // stores 32 bytes of `dst` from `written` at most, which the condition before each block
    // keeps inside them (8 and 2 bytes from their ends); `read` and `written` stay within `src`
    // and `dst` in a run of ASCII. The tables hold 16 bytes from each row.
    unsafe {
        loop {
            let n = copy_ascii_run(
                src.get(read..).unwrap_or_default(),
                dst.get_mut(written..).unwrap_or_default(),
            );
            read += n;
            written += n;
            let mut first = true;
            loop {
                if src.len() - read < LATIN1_BLOCK + 8 || dst.len() - written < 2 * 16 + 2 {
                    return (read, written);
                }
                let v = vld1q_u8(src.as_ptr().add(read));
                // 0x80..0x9F: the bytes that are below 0x20 less 0x80 (wrapping).
                if CP1252
                    && vmaxvq_u8(vcltq_u8(vsubq_u8(v, vdupq_n_u8(0x80)), vdupq_n_u8(0x20))) != 0
                {
                    return (read, written);
                }
                let non_ascii = vcltzq_s8(vreinterpretq_s8_u8(v));
                // C2 or C3 (or C0, C1 for ASCII, which the shuffle drops).
                let lead = vorrq_u8(vshrq_n_u8::<6>(v), vdupq_n_u8(0xC0));
                // `0x80 | (b & 0x3F)` is `b` without bit 6 where bit 7 is set; ASCII stays
                // itself.
                let tail = vbicq_u8(v, vandq_u8(non_ascii, vdupq_n_u8(0x40)));
                let pairs = [vzip1q_u8(lead, tail), vzip2q_u8(lead, tail)];
                let (lo, hi) = lane_bits(non_ascii);
                if lo | hi == 0 && !first {
                    break;
                }
                first = false;
                let mut at = dst.as_mut_ptr().add(written).cast::<u8>();
                for (pairs, mask) in pairs.into_iter().zip([lo, hi]) {
                    let shuffle = vld1q_u8(LATIN1_SHUFFLES[mask as usize & 0xFF].as_ptr());
                    vst1q_u8(at, vqtbl1q_u8(pairs, shuffle));
                    at = at.add(8 + mask.count_ones() as usize);
                }
                read += LATIN1_BLOCK;
                written += LATIN1_BLOCK + (lo.count_ones() + hi.count_ones()) as usize;
            }
        }
    }
}

/// For each mask of continuation bytes among 8 (bit `i` for byte `i`), the `tbl` indices that
/// keep the other bytes in order; 0x80 (a zero, and still one with 8 added) after.
static KEEP_UNMASKED: [[u8; 8]; 256] = {
    let mut table = [[0x80u8; 8]; 256];
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
};

/// For each count `k` of bytes kept of a block's first 8 (4 to 8), the `tbl` indices that join
/// the first `k` lanes of a register to its last 8: lanes `0..k`, then `8..16` (and past them
/// indices from 16, zeros).
static JOIN_HALVES: [[u8; 16]; 9] = {
    let mut table = [[0u8; 16]; 9];
    let mut k = 0;
    while k < 9 {
        let mut j = 0;
        while j < 16 {
            table[k][j] = if j < k { j } else { 8 + j - k } as u8;
            j += 1;
        }
        k += 1;
    }
    table
};

/// The Latin-1 of the characters that start in the 16 bytes at the start of `src` if they are
/// ASCII and 2-byte characters of U+0080..U+00FF (a lead C2 or C3 followed by a continuation
/// byte; a lead in the last byte, whose continuation is past the block, is left for the next
/// step): its bytes at the start of a register, how many (8 to 16), and the bytes of input
/// they take (15 or 16).
///
/// # Safety
/// The CPU has NEON; `src` holds 16 bytes.
#[inline(always)]
unsafe fn latin1_of_block(src: &[u8]) -> Option<(uint8x16_t, usize, usize)> {
    debug_assert!(src.len() >= LATIN1_BLOCK);
    // SAFETY: NEON by the caller; the loads read 16 bytes of `src`, 8 or 16 of the tables'
    // rows.
    unsafe {
        let v = vld1q_u8(src.as_ptr());
        let zero = vdupq_n_u8(0);
        let high = vreinterpretq_u8_s8(vshrq_n_s8::<7>(vreinterpretq_s8_u8(v)));
        let lead = vceqq_u8(vandq_u8(v, vdupq_n_u8(0xFE)), vdupq_n_u8(0xC2));
        let cont = vceqq_u8(vandq_u8(v, vdupq_n_u8(0xC0)), vdupq_n_u8(0x80));
        // Every non-ASCII byte a lead or a continuation, each continuation right after a lead
        // and each lead right before one (or in the last byte, then not taken: a continuation
        // in the first byte is not one of this block's characters, whose first byte starts
        // one, so none may be there). `ext` moves the leads one lane up, a zero into lane 0.
        let after_lead = vextq_u8::<15>(zero, lead);
        let wrong = vorrq_u8(
            veorq_u8(cont, after_lead),
            veorq_u8(vorrq_u8(lead, cont), high),
        );
        if vmaxvq_u8(wrong) != 0 {
            return None;
        }
        let cut = usize::from(vgetq_lane_u8::<15>(lead) & 1);
        // At a lead: `(lead & 3) << 6 | (next & 0x3F)` (`sli` shifts the lead's bits 0 and 1
        // into bits 6 and 7 over the next byte's low 6); elsewhere the byte itself. (A lead in
        // the last byte gets a value from the zero moved in, past the bytes returned.)
        let next = vextq_u8::<1>(v, zero);
        let value = vsliq_n_u8::<6>(next, v);
        let merged = vbslq_u8(lead, value, v);
        let (lo, hi) = lane_bits(cont);
        let kept_lo = 8 - lo.count_ones() as usize;
        let indices = vcombine_u8(
            vld1_u8(KEEP_UNMASKED[lo as usize & 0xFF].as_ptr()),
            vadd_u8(
                vld1_u8(KEEP_UNMASKED[hi as usize & 0xFF].as_ptr()),
                vdup_n_u8(8),
            ),
        );
        // `kept_lo` is 4 to 8: no continuation in lane 0, none next to another.
        let join = vld1q_u8(JOIN_HALVES.get(kept_lo)?.as_ptr());
        let bytes = vqtbl1q_u8(merged, vqtbl1q_u8(indices, join));
        Some((
            bytes,
            LATIN1_BLOCK - (lo.count_ones() + hi.count_ones()) as usize - cut,
            LATIN1_BLOCK - cut,
        ))
    }
}

/// The indices of a register's lanes: 8 of them from `k` take its bytes `k..k + 8`.
static LANE_INDICES: [u8; 16] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];

/// Converts UTF-8 into Latin-1 as far as runs of ASCII and blocks of ASCII and 2-byte
/// characters up to U+00FF go: the bytes read and written. Runs of ASCII are copied as they
/// are ([`copy_ascii_run`]); after each, blocks of 16 bytes up to one that is all ASCII (but
/// the one where the run stopped, whatever it holds) are validated and decoded in one register
/// ([`latin1_of_block`]), whose
/// continuation bytes a `tbl` removes (compressing out the lead bytes' partners, after Lemire
/// and Muła, "Transcoding billions of Unicode characters per second with SIMD instructions",
/// 2022; NEON has no compress, so the indices of each 8 bytes come from a table and are
/// joined by another `tbl`). Anything else (a character above U+00FF, an error, a character
/// cut at the end of the input) stops it, for the exact path.
///
/// Every store writes exactly the block's output, 8 to 16 bytes, as two 8-byte stores (the
/// second one over the last 8 of them): nothing past the output is ever written.
///
/// # Safety
/// The CPU has NEON.
#[inline(always)]
unsafe fn utf8_to_latin1_blocks(src: &[u8], dst: &mut [MaybeUninit<u8>]) -> (usize, usize) {
    let (mut read, mut written) = (0, 0);
    loop {
        // SAFETY: NEON by the caller.
        let n = unsafe {
            copy_ascii_run(
                src.get(read..).unwrap_or_default(),
                dst.get_mut(written..).unwrap_or_default(),
            )
        };
        read += n;
        written += n;
        let mut first = true;
        loop {
            let (Some(s), Some(d)) = (
                src.get(read..read + LATIN1_BLOCK),
                dst.get_mut(written..written + LATIN1_BLOCK),
            ) else {
                return (read, written);
            };
            // SAFETY: NEON by the caller; `s` holds 16 bytes.
            if !first && unsafe { vmaxvq_u8(vld1q_u8(s.as_ptr())) } < 0x80 {
                break;
            }
            first = false;
            // SAFETY: NEON by the caller; `s` holds 16 bytes.
            let Some((bytes, len, taken)) = (unsafe { latin1_of_block(s) }) else {
                return (read, written);
            };
            // SAFETY: `d` holds 16 bytes, `len` is 8 to 16: the stores write its bytes 0..8
            // and `len - 8..len`, the latter taken from the register by the indices
            // `len - 8..len`, 8 bytes of LANE_INDICES from `len - 8` (0 to 8: a pointer, not
            // an index, which would bring a panic path the compiler cannot rule out). NEON by
            // the caller.
            unsafe {
                let at = d.as_mut_ptr().cast::<u8>();
                vst1_u8(at, vget_low_u8(bytes));
                let last = vld1_u8(LANE_INDICES.as_ptr().add(len - 8));
                vst1_u8(at.add(len - 8), vqtbl1_u8(bytes, last));
            }
            read += taken;
            written += len;
        }
    }
}

/// [`crate::transcode::latin1::latin1_to_utf8`], converting blocks with [`latin1_blocks`].
///
/// # Safety
/// The CPU has NEON.
pub(crate) unsafe fn latin1_to_utf8(src: &[u8], dst: &mut [MaybeUninit<u8>]) -> Progress {
    crate::engine::latin1::latin1_to_utf8_with(src, dst, |s, d| {
        // SAFETY: NEON by our contract.
        unsafe { latin1_blocks::<false>(s, d) }
    })
}

/// [`crate::transcode::latin1::cp1252_to_utf8`], converting blocks with no byte of 0x80..0x9F
/// with [`latin1_blocks`].
///
/// # Safety
/// The CPU has NEON.
pub(crate) unsafe fn cp1252_to_utf8(src: &[u8], dst: &mut [MaybeUninit<u8>]) -> Progress {
    crate::engine::latin1::cp1252_to_utf8_with(src, dst, |s, d| {
        // SAFETY: as above.
        unsafe { latin1_blocks::<true>(s, d) }
    })
}

/// [`crate::transcode::latin1::utf8_to_latin1`], converting blocks with
/// [`utf8_to_latin1_blocks`].
///
/// # Safety
/// The CPU has NEON.
pub(crate) unsafe fn utf8_to_latin1(
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
    mode: Mode,
) -> Progress {
    crate::engine::latin1::utf8_to_latin1_with(src, dst, mode, |s, d| {
        // SAFETY: NEON by our contract.
        unsafe { utf8_to_latin1_blocks(s, d) }
    })
}
