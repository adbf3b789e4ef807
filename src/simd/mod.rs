//! The kernels: for each implementation, its validation and counting kernels and its four
//! converters, compiled for its instruction set. The x86_64 ones share the algorithms of
//! `lookup` (validation), `from_utf8` and `to_utf8` (conversion), generic over the ISA's
//! registers; NEON's runs `lookup` in 16-byte registers; the scalar implementation's are the
//! engine's loops with no SIMD converter.
//!
//! A kernel checks 64-byte blocks, the last one padded, and says whether the whole input is
//! good or how long a prefix of whole blocks is (counting characters, for
//! `utf8_count_chars`); where it found an error, the scalar code, the reference, locates and
//! classifies it exactly ([`validate_kernel`]).

pub(crate) mod ascii;
#[cfg(target_arch = "x86_64")]
pub(crate) mod avx2;
// Only where the compiler has AVX-512's target features and intrinsics (see build.rs), which
// became stable in Rust 1.89: the module may use all that 1.89 has.
#[cfg(all(target_arch = "x86_64", libutf8_avx512))]
#[clippy::msrv = "1.89"]
pub(crate) mod avx512;
#[cfg(target_arch = "x86_64")]
mod from_utf8;
pub(crate) mod lookup;
#[cfg(target_arch = "aarch64")]
pub(crate) mod neon;
pub(crate) mod scalar;
pub(crate) mod short_ascii;
#[cfg(target_arch = "x86_64")]
pub(crate) mod sse42;
#[cfg(target_arch = "x86_64")]
mod to_utf8;

use core::mem::MaybeUninit;

use crate::engine::{Mode, Progress, no_tail, utf16, utf32};
use crate::scalar::error::Utf8Error;
use crate::scalar::validate::{char_start_at_or_before, scalar_from};

/// A validating kernel: `Ok` if the whole input is good, else `Err` with the length of a prefix
/// of whole blocks that is, but for a sequence it may cut off.
pub(crate) type Validator = unsafe fn(&[u8]) -> Result<(), usize>;

/// [`utf16::utf8_to_utf16_with`] validating with `kernel`, and no SIMD converter: for the
/// implementations that have a validation kernel and no converter.
///
/// # Safety
/// The CPU supports the kernel's instruction set.
#[inline(always)]
pub(crate) unsafe fn utf8_to_utf16_validated_by(
    kernel: Validator,
    src: &[u8],
    dst: &mut [MaybeUninit<u16>],
    mode: Mode,
) -> Progress {
    // SAFETY: by the caller.
    let valid_prefix = |s: &[u8]| unsafe { valid_prefix(kernel, s) };
    utf16::utf8_to_utf16_with(src, dst, mode, valid_prefix, |_, _, _| (0, 0), no_tail)
}

/// [`utf32::utf8_to_utf32_with`] validating with `kernel`, and no SIMD converter.
///
/// # Safety
/// The CPU supports the kernel's instruction set.
#[inline(always)]
pub(crate) unsafe fn utf8_to_utf32_validated_by(
    kernel: Validator,
    src: &[u8],
    dst: &mut [MaybeUninit<u32>],
    mode: Mode,
) -> Progress {
    // SAFETY: by the caller.
    let valid_prefix = |s: &[u8]| unsafe { valid_prefix(kernel, s) };
    utf32::utf8_to_utf32_with(src, dst, mode, valid_prefix, |_, _, _| (0, 0), no_tail)
}

/// Validates `s` with `kernel`, then with the scalar code from where it found an error.
///
/// # Safety
/// The CPU supports the kernel's instruction set.
#[inline(always)]
pub(crate) unsafe fn validate_kernel(kernel: Validator, s: &[u8]) -> Result<(), Utf8Error> {
    // SAFETY: by the caller.
    match unsafe { kernel(s) } {
        Ok(()) => Ok(()),
        Err(blocks) => locate_error(s, blocks),
    }
}

/// The error in `s`, whose first `blocks` bytes a kernel found good but for a sequence they cut
/// off: out of line, so that callers on the good path save no registers for it.
#[cold]
#[inline(never)]
fn locate_error(s: &[u8], blocks: usize) -> Result<(), Utf8Error> {
    scalar_from(s, char_start_at_or_before(s, blocks))
}

/// The length of the longest well-formed prefix of `s`, found with `kernel` (for the
/// converters from UTF-8).
///
/// # Safety
/// The CPU supports the kernel's instruction set.
#[inline(always)]
pub(crate) unsafe fn valid_prefix(kernel: Validator, s: &[u8]) -> usize {
    // SAFETY: by the caller.
    match unsafe { validate_kernel(kernel, s) } {
        Ok(()) => s.len(),
        Err(e) => e.valid_up_to,
    }
}

/// Defines, in an x86 kernel file, the converters compiled for its instruction set, validating
/// UTF-8 with its kernel and converting it with the `from_utf8` kernel, whose runs of ASCII it widens with its registers, and converting into UTF-8 with its
/// registers of units (see `crate::simd::to_utf8`):
/// `transcoders!("avx2,popcnt", validate::<true>, Avx2, Avx2Units)`. The loops are those of
/// `crate::engine::convert_from_utf8` and `convert_to_utf8`, inlined here. Past its leading blocks of
/// ASCII, the SIMD converter from UTF-8 is a function of its own (`convert_rest`, see
/// `from_utf8::convert_ascii_first`), and so is the SIMD loop from UTF-32 (`fast`), whose
/// registers LLVM allocates for it alone: LLVM inlined it into the exact path's loop, where it
/// shared that loop's registers and reloaded its constants on every step (lipsum_Hindi-Lipsum
/// converted slower; see BENCHMARKS.md). The loop from UTF-16 is left to LLVM, which does not inline it
/// there. (x86_64 only: `from_utf8` and `to_utf8` are SSE and AVX code.)
#[cfg(target_arch = "x86_64")]
macro_rules! transcoders {
    ($features:literal, $kernel:path, $registers:ty, $units:ty) => {
        use crate::engine::{Mode, Progress, utf16, utf32};

        /// `from_utf8::convert` compiled for this instruction set: the converter from UTF-8
        /// past the leading blocks of ASCII (see `from_utf8::convert_ascii_first`).
        ///
        /// # Safety
        /// The CPU has the instruction set; `src` starts a character, or `valid` is 0.
        #[target_feature(enable = $features)]
        #[inline(never)]
        unsafe fn convert_rest<T: super::from_utf8::Target>(
            src: &[u8],
            valid: usize,
            dst: &mut [core::mem::MaybeUninit<T>],
        ) -> (usize, usize) {
            // SAFETY: by the caller; the kernel needs SSE4.1 and SSSE3, which every x86_64
            // instruction set of `crate::simd` includes.
            unsafe {
                super::from_utf8::convert::<$registers, T, super::from_utf8::NoWideBlock>(
                    src, valid, dst,
                )
            }
        }

        /// `from_utf8::staged_tail` compiled for this instruction set, out of line: inlined,
        /// its buffer and registers made the converter's frame larger for every call.
        ///
        /// # Safety
        /// The CPU has the instruction set; `src` is well-formed UTF-8.
        #[target_feature(enable = $features)]
        #[inline(never)]
        unsafe fn staged_tail<T: super::from_utf8::Target>(
            src: &[u8],
            dst: &mut [core::mem::MaybeUninit<T>],
        ) -> (usize, usize) {
            // SAFETY: by the caller.
            unsafe { super::from_utf8::staged_tail::<$registers, T>(src, dst) }
        }

        /// `crate::transcode::utf16::utf8_to_utf16` compiled for this instruction set.
        ///
        /// # Safety
        /// The CPU has the instruction set.
        #[target_feature(enable = $features)]
        pub(crate) unsafe fn utf8_to_utf16(
            src: &[u8],
            dst: &mut [core::mem::MaybeUninit<u16>],
            mode: Mode,
        ) -> Progress {
            // SAFETY: the kernel needs the instruction set, which the CPU has by our contract.
            let valid_prefix = |s: &[u8]| unsafe { crate::simd::valid_prefix($kernel, s) };
            // SAFETY: as above; `convert_ascii_first` hands `convert_rest` the input from a
            // character on.
            let fast = |s: &[u8], valid, d: &mut [core::mem::MaybeUninit<u16>]| unsafe {
                super::from_utf8::convert_ascii_first::<$registers, u16>(s, valid, d, |s, v, d| {
                    convert_rest(s, v, d)
                })
            };
            // Tested here, so that other lengths pay for no call.
            let tail = |s: &[u8], d: &mut [core::mem::MaybeUninit<u16>]| {
                if super::from_utf8::STAGED_TAIL.contains(&s.len()) {
                    // SAFETY: the instruction set as above; `convert_from_utf8` hands `tail`
                    // well-formed input.
                    unsafe { staged_tail(s, d) }
                } else {
                    (0, 0)
                }
            };
            utf16::utf8_to_utf16_with(src, dst, mode, valid_prefix, fast, tail)
        }

        /// `crate::transcode::utf16::utf16_to_utf8` compiled for this instruction set.
        ///
        /// # Safety
        /// The CPU has the instruction set.
        #[target_feature(enable = $features)]
        pub(crate) unsafe fn utf16_to_utf8(
            src: &[u16],
            dst: &mut [core::mem::MaybeUninit<u8>],
            mode: Mode,
        ) -> Progress {
            // SAFETY: the registers need the instruction set, which the CPU has by our contract.
            let fast = |s: &[u16], d: &mut [core::mem::MaybeUninit<u8>]| unsafe {
                super::to_utf8::utf16_to_utf8::<$units, super::to_utf8::NoWideStep<$units>>(s, d)
            };
            utf16::utf16_to_utf8_using(src, dst, mode, fast)
        }

        /// `crate::transcode::utf32::utf8_to_utf32` compiled for this instruction set.
        ///
        /// # Safety
        /// The CPU has the instruction set.
        #[target_feature(enable = $features)]
        pub(crate) unsafe fn utf8_to_utf32(
            src: &[u8],
            dst: &mut [core::mem::MaybeUninit<u32>],
            mode: Mode,
        ) -> Progress {
            // SAFETY: the kernel needs the instruction set, which the CPU has by our contract.
            let valid_prefix = |s: &[u8]| unsafe { crate::simd::valid_prefix($kernel, s) };
            // SAFETY: as for `utf8_to_utf16`.
            let fast = |s: &[u8], valid, d: &mut [core::mem::MaybeUninit<u32>]| unsafe {
                super::from_utf8::convert_ascii_first::<$registers, u32>(s, valid, d, |s, v, d| {
                    convert_rest(s, v, d)
                })
            };
            let tail = |s: &[u8], d: &mut [core::mem::MaybeUninit<u32>]| {
                if super::from_utf8::STAGED_TAIL.contains(&s.len()) {
                    // SAFETY: as for `utf8_to_utf16`.
                    unsafe { staged_tail(s, d) }
                } else {
                    (0, 0)
                }
            };
            utf32::utf8_to_utf32_with(src, dst, mode, valid_prefix, fast, tail)
        }

        /// `crate::transcode::utf32::utf32_to_utf8` compiled for this instruction set.
        ///
        /// # Safety
        /// The CPU has the instruction set.
        #[target_feature(enable = $features)]
        pub(crate) unsafe fn utf32_to_utf8(
            src: &[u32],
            dst: &mut [core::mem::MaybeUninit<u8>],
            mode: Mode,
        ) -> Progress {
            /// # Safety
            /// The CPU has the instruction set.
            #[target_feature(enable = $features)]
            #[inline(never)]
            unsafe fn fast(s: &[u32], d: &mut [core::mem::MaybeUninit<u8>]) -> (usize, usize) {
                // SAFETY: the registers need the instruction set, which the CPU has.
                unsafe {
                    super::to_utf8::utf32_to_utf8::<$units, super::to_utf8::NoWideStep<$units>>(
                        s, d,
                    )
                }
            }
            // SAFETY: the CPU has the instruction set by our contract.
            utf32::utf32_to_utf8_using(src, dst, mode, |s, d| unsafe { fast(s, d) })
        }
    };
}
#[cfg(target_arch = "x86_64")]
pub(crate) use transcoders;
