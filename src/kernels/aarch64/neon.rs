//! The NEON kernel (aarch64): 16-byte registers, table lookups with `tbl`.
//!
//! It validates and counts. The converters are the engine's scalar loops (`crate::engine`),
//! those from UTF-8 validating with this kernel first; they have no NEON conversion of their own.

use core::arch::aarch64::*;
use core::mem::MaybeUninit;

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
