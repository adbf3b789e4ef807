//! The AVX-512 kernels: validation and counting with one 64-byte register per block, AVX-512F,
//! BW and VBMI instructions (here), and the converters ([`to_utf8`], [`from_utf8`], [`latin1`]).
//!
//! The converters are AVX2's (see `crate::dispatch`'s `AVX512`), but the one from UTF-16 of
//! either byte order into UTF-8 also takes steps of 32 units below U+0800 in one register and
//! of 32 units of any other characters (31 where the last is a high surrogate), the one from
//! UTF-32 into UTF-8 a run of the same 32-unit step below U+0800 and of 16 units of any scalar
//! values, and those from UTF-8 into UTF-16 and UTF-32 runs of blocks of 64 bytes of 1-3 byte
//! characters at a fixed stride, and steps of characters of any lengths, or of sixteen 4-byte
//! ones (VL, VBMI and VBMI2). Those of Latin-1 and Windows-1252 are this kernel's own, in
//! blocks of 64 bytes (VBMI2's compression, BMI2's bit deposit). The implementation is chosen
//! only where all of these are present (see `crate::dispatch::Isa::is_supported`), and BMI2,
//! with which every function here is compiled: its BZHI makes the masks of a string's first
//! `n` bytes or units ([`low_bits`]), which every short string and every tail needs.

pub(crate) mod from_utf8;
pub(crate) mod latin1;
pub(crate) mod lengths;
pub(crate) mod to_utf8;

use core::arch::x86_64::*;

use crate::algorithms::lookup::Vector;
use crate::algorithms::to_utf8::Utf16Source;

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
        // One shift, not a shift and a test for 64 lanes: five instructions fewer.
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
            // vpshufb, which zeroes lanes whose bit 7 is set).
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
    // port 5 only: loads have ports of their own.
    const PREV_FROM_MEMORY: bool = true;
    // A block costs less to check than a mispredicted branch (see `valid_blocks`).
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
    unsafe fn any_high_bit_unpredictable(self) -> bool {
        // SAFETY: AVX-512BW by the caller.
        unsafe { in_gpr(_mm512_movepi8_mask(self.0)) != 0 }
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

    #[inline(always)]
    unsafe fn count_four_byte_leads(self) -> u32 {
        // SAFETY: AVX-512BW by the caller.
        unsafe { _mm512_cmpge_epu8_mask(self.0, _mm512_set1_epi8(0xF0u8 as i8)).count_ones() }
    }
}

crate::algorithms::lookup::block_kernels!("avx512f,avx512bw,avx512vbmi,popcnt", Avx512);
crate::algorithms::lengths::length_kernels!("avx512f,avx512bw");

/// Every 32-bit lane set to `x`.
///
/// # Safety
/// The CPU has AVX-512F.
#[inline(always)]
pub(super) unsafe fn splat32(x: u32) -> __m512i {
    // SAFETY: AVX-512F by the caller.
    unsafe { _mm512_set1_epi32(x as i32) }
}

/// The 16-bit lanes of `v` swapped if `S` is UTF-16 of the other byte order than the
/// machine's, else `v`: units of `S` as loaded put in the machine's order, or values in the
/// machine's order put in `S`'s before a store (each lane rotated by 8 bits).
///
/// # Safety
/// The CPU has AVX-512F and VBMI2.
#[inline(always)]
pub(super) unsafe fn order<S: Utf16Source>(v: __m512i) -> __m512i {
    if S::SWAPPED {
        // SAFETY: AVX-512F and VBMI2 by the caller.
        unsafe { swap_units(v) }
    } else {
        v
    }
}

/// The two bytes of each 16-bit lane of `v` swapped, by VPSHLDW (each lane shifted left by 8
/// bits, its own bits shifted in). Written as `asm!`: LLVM turns `_mm512_shldi_epi16::<8>(v, v)`
/// into a VPSHUFB, which on Intel's cores runs on the port that the steps' permutations and
/// compressions already keep busy, and VPSHLDW does not (text of 3-byte characters from
/// UTF-16BE was the slower for it; see BENCHMARKS.md).
#[target_feature(enable = "avx512f,avx512vbmi2")]
#[inline]
fn swap_units(v: __m512i) -> __m512i {
    let mut swapped = v;
    // SAFETY: the instruction is VBMI2's, which the function requires; it reads and writes the
    // register alone.
    unsafe {
        core::arch::asm!(
            "vpshldw {0}, {0}, {0}, 8",
            inout(zmm_reg) swapped,
            options(pure, nomem, nostack, preserves_flags),
        );
    }
    swapped
}

/// The bytes of `v` where `keep` has a bit, packed at the start of the register (after them,
/// bytes of `v`: callers store or use the packed ones alone). Merge-masked into its own
/// source: the zero-masked compression waits for the last value of the register it is given
/// to write, a dependency on whatever the compiler wrote there before.
#[inline]
#[target_feature(enable = "avx512f,avx512vbmi2")]
pub(super) fn compress_bytes(keep: u64, v: __m512i) -> __m512i {
    _mm512_mask_compress_epi8(v, keep, v)
}

/// [`compress_bytes`] for the 16-bit lanes of `v`.
#[inline]
#[target_feature(enable = "avx512f,avx512vbmi2")]
pub(super) fn compress_units(keep: u32, v: __m512i) -> __m512i {
    _mm512_mask_compress_epi16(v, keep, v)
}

/// `mask` moved into a general-purpose register, for a branch that tests it. Compilers test
/// a mask register where it is (KORTEST), and some CPUs resolve such a branch later than one
/// on a general-purpose register, so that each misprediction costs more (BENCHMARKS.md, "The
/// branch on a block's mask"). For the branches that text makes unpredictable: an empty
/// `asm!` that takes and gives the value in a general-purpose register.
#[inline(always)]
pub(super) fn in_gpr(mut mask: u64) -> u64 {
    // SAFETY: the statement is empty: it reads and writes no memory and keeps the flags.
    unsafe {
        core::arch::asm!(
            "/* {0} */",
            inout(reg) mask,
            options(pure, nomem, nostack, preserves_flags)
        );
    }
    mask
}

/// A mask of the `n` lowest bits, `n` at most 64: one instruction (BZHI), where a shift
/// needs a test of `n == 0`.
#[inline]
#[target_feature(enable = "bmi2")]
pub(super) fn low_bits(n: usize) -> u64 {
    _bzhi_u64(u64::MAX, n as u32)
}

/// The size of the pages whose crossing [`load_tail`] and [`store_tail`] avoid.
const PAGE: usize = 4096;

/// The bytes of a register.
const BYTES: usize = 64;

/// Whether a register's masked access at `addr` of `len` bytes, at most 64, would reach with
/// lanes masked off into the next page, where none of its `len` bytes are: a page of which
/// nothing may be mapped, or not touched yet. A masked-off lane in a page not present costs
/// the access a microcode assist, on every call (see docs/ARCHITECTURE.md). Moved back to
/// end with the last byte, the register then lies in the page of its bytes (its offset there
/// is above `PAGE - BYTES`).
#[inline(always)]
fn reaches_next_page(addr: usize, len: usize) -> bool {
    let offset = addr % PAGE;
    offset > PAGE - BYTES && offset + len <= PAGE
}

/// The `len` bytes at `p`, `len` at most 64, in the low lanes and zeros above: a masked
/// load, whose register moves back to end with the last byte where it would reach into the
/// next page ([`reaches_next_page`]), the bytes then packed down (a rare case; 64 bytes skip
/// the test).
///
/// # Safety
/// The CPU has AVX-512F, BW, VBMI2 and BMI2; `len` bytes at `p` are readable.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi2,bmi2")]
pub(super) unsafe fn load_tail(p: *const u8, len: usize) -> __m512i {
    if len < BYTES && reaches_next_page(p.addr(), len) {
        let high = !low_bits(BYTES - len);
        // SAFETY: the lanes of `high` are the `len` bytes at `p`, readable by the caller; the
        // others are masked off (neither read nor able to fault).
        let v = unsafe {
            _mm512_maskz_loadu_epi8(high, p.wrapping_add(len).wrapping_sub(BYTES).cast())
        };
        _mm512_maskz_compress_epi8(high, v)
    } else {
        // SAFETY: as above, the lanes of the mask being the `len` bytes at `p`.
        unsafe { _mm512_maskz_loadu_epi8(low_bits(len), p.cast()) }
    }
}

/// Writes the low `len` bytes of `v`, `len` at most 64, at `o`: a masked store. Where `last`,
/// its masked-off lanes may lie past everything the conversion writes, and where they would
/// reach into the next page ([`reaches_next_page`]) the register moves back to end with the
/// last byte, the bytes spread up to its top (a rare case, after a branch). Where not `last`,
/// the conversion goes on to write the bytes under those lanes (unless it stops early, at an
/// error or where the room ends), which makes their page present.
///
/// # Safety
/// The CPU has AVX-512F, BW, VBMI2 and BMI2; `len` bytes at `o` are writable.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi2,bmi2")]
pub(super) unsafe fn store_tail(o: *mut u8, len: usize, v: __m512i, last: bool) {
    if last && reaches_next_page(o.addr(), len) {
        let high = !low_bits(BYTES - len);
        // SAFETY: the lanes of `high` are the `len` bytes at `o`, writable by the caller; the
        // others are masked off (neither written nor able to fault).
        unsafe {
            _mm512_mask_storeu_epi8(
                o.wrapping_add(len).wrapping_sub(BYTES).cast(),
                high,
                _mm512_maskz_expand_epi8(high, v),
            );
        }
    } else {
        // SAFETY: as above, the lanes of the mask being the `len` bytes at `o`.
        unsafe { _mm512_mask_storeu_epi8(o.cast(), low_bits(len), v) }
    }
}
