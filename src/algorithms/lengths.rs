//! The sums behind the length functions, written as loops over fixed-size blocks that the
//! compiler turns into SIMD code for whatever instruction set it compiles them for: each
//! implementation instantiates them with its features enabled (`length_kernels!`), so that
//! the same source runs in 16-, 32- or 64-byte registers.
//!
//! Each loop adds small per-element values into narrow lanes (one lane per position in a
//! block, so that a block's additions are one vector addition each), and adds the lanes into a
//! `usize` before any of them can overflow: after at most `RUN` blocks, a bound each loop
//! states with the largest value one element adds. The result never depends on how the input
//! is split into blocks and runs, and every element adds at most its stated maximum, even
//! where another thread changes the input during the call (each element is read once, or, in
//! the UTF-16 loops, each value is computed from one reading of the unit it is charged to).

use crate::chunks::as_chunks;
use crate::engine::Replacement;

/// Bytes per block of [`four_byte_leads`]: one 64-byte register, four 16-byte ones.
const BYTES: usize = 64;
/// Blocks per run of [`four_byte_leads`]: a lane adds at most one per block, and holds 255.
const BYTE_RUN: usize = 255;

/// The number of bytes of `s` from 0xF0: in well-formed UTF-8, of 4-byte characters (each of
/// which is two UTF-16 units, a surrogate pair).
#[inline(always)]
pub(crate) fn four_byte_leads(s: &[u8]) -> usize {
    let (blocks, tail) = as_chunks::<BYTES, u8>(s);
    let mut total = 0usize;
    for run in blocks.chunks(BYTE_RUN) {
        let mut lanes = [0u8; BYTES];
        for block in run {
            for (lane, &b) in lanes.iter_mut().zip(block) {
                // `b & 0xF0 == 0xF0` rather than `b >= 0xF0`: an equality test of bytes,
                // which every SIMD instruction set has (SSE2 has no unsigned byte compare).
                *lane = lane.wrapping_add(u8::from(b & 0xF0 == 0xF0));
            }
        }
        total += lanes.iter().map(|&l| usize::from(l)).sum::<usize>();
    }
    total + tail.iter().filter(|&&b| b & 0xF0 == 0xF0).count()
}

/// Units per block of the UTF-16 and UTF-32 loops.
const UNITS: usize = 32;
/// Blocks per run of [`utf8_length_from_utf16`]: a lane adds at most 3 per block, and holds
/// 65535.
const UNIT_RUN: usize = 4096;

/// The UTF-8 bytes of one unit of UTF-16 read as `u` (in the machine's byte order), given the
/// units `before` and `after` it (a unit that is not a surrogate where there is none): 1, 2 or
/// 3 below U+0080, U+0800 or otherwise; 1 for a high surrogate followed by a low one (the pair
/// takes 4, the low surrogate's 3 and this one); with `escape`, 1 for U+DC80..U+DCFF not after
/// a high surrogate (a lone one, which becomes one byte). Always 1 to 3.
#[inline(always)]
fn utf16_unit_bytes(before: u16, u: u16, after: u16, escape: bool) -> u16 {
    let high = |v: u16| v & 0xFC00 == 0xD800;
    let low = |v: u16| v & 0xFC00 == 0xDC00;
    let base = 1 + u16::from(u >= 0x80) + u16::from(u >= 0x800);
    let paired_high = high(u) & low(after);
    let escaped = escape & (u & 0xFF80 == 0xDC80) & !high(before);
    // At most one of the two holds (`u` is a high surrogate, or in U+DC80..U+DCFF), and then
    // `base` is 3.
    base - 2 * u16::from(paired_high | escaped)
}

/// The length in bytes of the lossy conversion of `s` into UTF-8, each unit read through
/// `native` (which puts it in the machine's byte order): 1, 2 or 3 bytes per unit below
/// U+0080, U+0800 or not a surrogate; 4 per surrogate pair; 3 (U+FFFD) per lone surrogate, or
/// with `escape`, 1 per lone U+DC80..U+DCFF ([`Replacement::Escape`]).
///
/// One pass: each unit is looked at with its neighbours, read a second time from the slices
/// that start one unit before and one after it (the one before only for the escapes: an
/// instance of its own, whose loop has one load less). At most `3 * s.len()`.
#[inline(always)]
pub(crate) fn utf8_length_from_utf16(
    s: &[u16],
    replacement: Replacement,
    native: impl Fn(u16) -> u16 + Copy,
) -> usize {
    if replacement == Replacement::Escape {
        utf16_bytes::<true>(s, native)
    } else {
        utf16_bytes::<false>(s, native)
    }
}

/// [`utf8_length_from_utf16`], with the escapes if `ESCAPE`.
#[inline(always)]
fn utf16_bytes<const ESCAPE: bool>(s: &[u16], native: impl Fn(u16) -> u16 + Copy) -> usize {
    let escape = ESCAPE;
    // The first and the last units apart, so that the others have a unit on each side.
    let (Some((&first, rest)), Some(&last)) = (s.split_first(), s.last()) else {
        return 0;
    };
    let Some((_, middle)) = rest.split_last() else {
        // One unit: no neighbour.
        return usize::from(utf16_unit_bytes(0, native(first), 0, escape));
    };
    let second = middle.first().copied().unwrap_or(last);
    let before_last = middle.last().copied().unwrap_or(first);
    let mut total = usize::from(utf16_unit_bytes(0, native(first), native(second), escape))
        + usize::from(utf16_unit_bytes(
            native(before_last),
            native(last),
            0,
            escape,
        ));
    // `middle` is `s[1..n - 1]`; `befores` and `afters` are `s[..n - 2]` and `s[2..]`, the
    // units one before and one after each.
    let befores = s.get(..middle.len()).unwrap_or_default();
    let afters = s.get(2..).unwrap_or_default();
    let (blocks, tail) = as_chunks::<UNITS, u16>(middle);
    let (before_blocks, before_tail) = as_chunks::<UNITS, u16>(befores);
    let (after_blocks, after_tail) = as_chunks::<UNITS, u16>(afters);
    // The three slices have the same length, and so as many blocks each.
    let runs = blocks
        .chunks(UNIT_RUN)
        .zip(before_blocks.chunks(UNIT_RUN))
        .zip(after_blocks.chunks(UNIT_RUN));
    for ((run, before_run), after_run) in runs {
        let mut lanes = [0u16; UNITS];
        for ((block, before), after) in run.iter().zip(before_run).zip(after_run) {
            let units = block.iter().zip(before).zip(after);
            for (lane, ((&u, &b), &a)) in lanes.iter_mut().zip(units) {
                let bytes = utf16_unit_bytes(native(b), native(u), native(a), escape);
                *lane = lane.wrapping_add(bytes);
            }
        }
        total += lanes.iter().map(|&l| usize::from(l)).sum::<usize>();
    }
    total
        + tail
            .iter()
            .zip(before_tail)
            .zip(after_tail)
            .map(|((&u, &b), &a)| {
                usize::from(utf16_unit_bytes(native(b), native(u), native(a), escape))
            })
            .sum::<usize>()
}

/// Blocks per run of [`utf8_length_from_utf32`]: a lane adds at most 4 per block.
const VALUE_RUN: usize = 1 << 16;

/// The UTF-8 bytes of one UTF-32 value: 1 to 4 per scalar value, 3 (U+FFFD) per surrogate or
/// value above 0x10FFFF, or with `escape`, 1 per U+DC80..U+DCFF.
#[inline(always)]
pub(crate) fn utf32_value_bytes(v: u32, escape: bool) -> u32 {
    let base = 1
        + u32::from(v >= 0x80)
        + u32::from(v >= 0x800)
        + u32::from(v.wrapping_sub(0x1_0000) < 0x10_0000);
    // U+DC80..U+DCFF: `base` is 3.
    base - 2 * u32::from(escape & (v & !0x7F == 0xDC80))
}

/// The length in bytes of the lossy conversion of `s` into UTF-8: 1 to 4 bytes per scalar
/// value, 3 (U+FFFD) per surrogate or value above 0x10FFFF; under [`Replacement::Escape`],
/// 1 per U+DC80..U+DCFF. At most `4 * s.len()`.
#[inline(always)]
pub(crate) fn utf8_length_from_utf32(s: &[u32], replacement: Replacement) -> usize {
    let escape = replacement == Replacement::Escape;
    let (blocks, tail) = as_chunks::<UNITS, u32>(s);
    let mut total = 0usize;
    for run in blocks.chunks(VALUE_RUN) {
        let mut lanes = [0u32; UNITS];
        for block in run {
            for (lane, &v) in lanes.iter_mut().zip(block) {
                *lane = lane.wrapping_add(utf32_value_bytes(v, escape));
            }
        }
        total += lanes.iter().map(|&l| l as usize).sum::<usize>();
    }
    total
        + tail
            .iter()
            .map(|&v| utf32_value_bytes(v, escape) as usize)
            .sum::<usize>()
}

/// The length kernels of one implementation, each [`length_kernels!`] compiled for its
/// instruction set (or a loop of the implementation's own: AVX-512's for UTF-16): callable only
/// where the CPU has it.
#[derive(Clone, Copy)]
pub(crate) struct Lengths {
    /// [`four_byte_leads`].
    pub four_byte_leads: unsafe fn(&[u8]) -> usize,
    /// [`utf8_length_from_utf16`] of units in the machine's byte order.
    pub utf8_from_utf16: unsafe fn(&[u16], Replacement) -> usize,
    /// [`utf8_length_from_utf16`] of units in the other byte order.
    pub utf8_from_utf16_swapped: unsafe fn(&[u16], Replacement) -> usize,
    /// [`utf8_length_from_utf32`].
    pub utf8_from_utf32: unsafe fn(&[u32], Replacement) -> usize,
}

/// Defines `LENGTHS`, a [`Lengths`] of the loops of this module compiled with the target
/// features given (none: the architecture's baseline), where the kernels of an instruction
/// set are defined.
macro_rules! length_kernels {
    ($($features:literal)?) => {
        /// The length kernels (`crate::algorithms::lengths`) compiled for this instruction set.
        pub(crate) const LENGTHS: $crate::algorithms::lengths::Lengths =
            $crate::algorithms::lengths::Lengths {
                four_byte_leads: length_kernels::four_byte_leads,
                utf8_from_utf16: length_kernels::utf8_from_utf16,
                utf8_from_utf16_swapped: length_kernels::utf8_from_utf16_swapped,
                utf8_from_utf32: length_kernels::utf8_from_utf32,
            };

        /// The loops of `crate::algorithms::lengths`, each compiled for this instruction set.
        ///
        /// # Safety
        /// Each function needs the CPU to have the target features it is compiled with (with
        /// none, nothing).
        mod length_kernels {
            use $crate::algorithms::lengths;
            use $crate::engine::Replacement;

            /// `lengths::four_byte_leads`; the CPU has the features.
            $(#[target_feature(enable = $features)])?
            pub(super) unsafe fn four_byte_leads(s: &[u8]) -> usize {
                lengths::four_byte_leads(s)
            }

            /// `lengths::utf8_length_from_utf16`; the CPU has the features.
            $(#[target_feature(enable = $features)])?
            pub(super) unsafe fn utf8_from_utf16(s: &[u16], replacement: Replacement) -> usize {
                lengths::utf8_length_from_utf16(s, replacement, |u| u)
            }

            /// `lengths::utf8_length_from_utf16` of swapped units; the CPU has the features.
            $(#[target_feature(enable = $features)])?
            pub(super) unsafe fn utf8_from_utf16_swapped(
                s: &[u16],
                replacement: Replacement,
            ) -> usize {
                lengths::utf8_length_from_utf16(s, replacement, u16::swap_bytes)
            }

            /// `lengths::utf8_length_from_utf32`; the CPU has the features.
            $(#[target_feature(enable = $features)])?
            pub(super) unsafe fn utf8_from_utf32(s: &[u32], replacement: Replacement) -> usize {
                lengths::utf8_length_from_utf32(s, replacement)
            }
        }
    };
}
pub(crate) use length_kernels;
