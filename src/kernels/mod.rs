//! The kernels: for each implementation, its validation and counting kernels and its four
//! converters, compiled for its instruction set, one folder per architecture (`x86`,
//! `aarch64`) and [`scalar`]. The x86_64 ones run the algorithms of `crate::algorithms`
//! (`lookup`, validation; `from_utf8` and `to_utf8`, conversion), generic over the ISA's
//! registers; NEON's runs `lookup` in 16-byte registers; the scalar implementation's are the
//! engine's loops with no SIMD converter. `crate::dispatch` builds a table of each
//! implementation's kernels and chooses one at run time; the kernels call nothing above them.
//!
//! A kernel checks 64-byte blocks, the last one padded, and says whether the whole input is
//! good or how long a prefix of whole blocks is (counting characters, for
//! `utf8_count_chars`); where it found an error, the scalar code, the reference, locates and
//! classifies it exactly ([`validate_kernel`]).

#[cfg(target_arch = "aarch64")]
pub(crate) mod aarch64;
pub(crate) mod scalar;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86;

use core::mem::MaybeUninit;

use crate::engine::{Mode, Progress, Utf16Unit, no_tail, utf16, utf32};
use crate::scalar::error::Utf8Error;
use crate::scalar::validate::{char_start_at_or_before, scalar_from};

/// A validating kernel: `Ok` if the whole input is good, else `Err` with the length of a prefix
/// of whole blocks that is, but for a sequence it may cut off.
pub(crate) type Validator = unsafe fn(&[u8]) -> Result<(), usize>;

/// [`utf16::utf8_to_utf16_with`] validating with `kernel`, and no SIMD converter: for the
/// implementations that have a validation kernel and no converter; into UTF-16 of either byte
/// order.
///
/// # Safety
/// The CPU supports the kernel's instruction set.
#[inline(always)]
pub(crate) unsafe fn utf8_to_utf16_validated_by<T: Utf16Unit>(
    kernel: Validator,
    src: &[u8],
    dst: &mut [MaybeUninit<T>],
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
