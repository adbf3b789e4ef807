//! The scalar implementation's "kernels": no validation or counting kernel (the scalar code
//! does it all), and the engine's loops compiled for the baseline, with no SIMD converter.

use core::mem::MaybeUninit;

use super::{utf8_to_utf16_validated_by, utf8_to_utf32_validated_by};
use crate::algorithms::lookup::Blocks;
pub(crate) use crate::engine::utf16::utf16_to_utf8_with as utf16_to_utf8;
pub(crate) use crate::engine::utf32::utf32_to_utf8_with as utf32_to_utf8;
use crate::engine::{Mode, Progress, Utf16Unit, latin1};

/// The scalar implementation's validating "kernel": it checks nothing.
pub(crate) fn no_validation(_: &[u8]) -> Result<(), usize> {
    Err(0)
}

/// The scalar implementation's counting "kernel": it checks nothing.
pub(crate) fn no_count(_: &[u8]) -> Blocks {
    Blocks {
        valid: false,
        len: 0,
        chars: 0,
    }
}

// The length loops at the baseline (which on aarch64 has NEON, and on x86_64 SSE2).
crate::algorithms::lengths::length_kernels!();

/// `crate::engine::utf16::utf8_to_utf16_with` validating with the scalar code, and no SIMD
/// converter; into UTF-16 of either byte order.
pub(crate) fn utf8_to_utf16<T: Utf16Unit>(
    src: &[u8],
    dst: &mut [MaybeUninit<T>],
    mode: Mode,
) -> Progress {
    // SAFETY: the scalar "kernel" runs on any CPU.
    unsafe { utf8_to_utf16_validated_by(no_validation, src, dst, mode) }
}

/// `crate::engine::utf32::utf8_to_utf32_with` validating with the scalar code, and no SIMD converter.
pub(crate) fn utf8_to_utf32(src: &[u8], dst: &mut [MaybeUninit<u32>], mode: Mode) -> Progress {
    // SAFETY: the scalar "kernel" runs on any CPU.
    unsafe { utf8_to_utf32_validated_by(no_validation, src, dst, mode) }
}

/// `crate::engine::latin1::latin1_to_utf8_with` with no SIMD converter.
pub(crate) fn latin1_to_utf8(src: &[u8], dst: &mut [MaybeUninit<u8>]) -> Progress {
    latin1::latin1_to_utf8_with(src, dst, latin1::no_blocks)
}

/// `crate::engine::latin1::cp1252_to_utf8_with` with no SIMD converter.
pub(crate) fn cp1252_to_utf8(src: &[u8], dst: &mut [MaybeUninit<u8>]) -> Progress {
    latin1::cp1252_to_utf8_with(src, dst, latin1::no_blocks)
}

/// `crate::engine::latin1::utf8_to_latin1_with` with no SIMD converter.
pub(crate) fn utf8_to_latin1(src: &[u8], dst: &mut [MaybeUninit<u8>], mode: Mode) -> Progress {
    latin1::utf8_to_latin1_with(src, dst, mode, latin1::no_blocks)
}
