//! Short strings of well-formed input, converted one character at a time with no kernel: a
//! kernel's setup (the engine's loop, the validator's call, its constants, the staged steps of
//! a last partial block) costs more than the conversion of a few characters.
//!
//! Each function converts all of a short string (at most [`SHORT_UNITS`] bytes of UTF-8, or
//! [`SHORT_INTO_UTF8`] units of UTF-16 or UTF-32) into an output
//! with room for the worst case of its input, or gives `None` at the first unit it does not
//! take: an ill-formed sequence (a lone surrogate, a value above U+10FFFF, any UTF-8 error, a
//! sequence cut by the end of the input), whatever the mode. The units it wrote before are
//! those of the well-formed prefix, which every mode converts alike, and the caller then runs
//! the whole conversion again from the start, which writes the same units there and gives
//! the exact results (statuses, `read`, `written`, the replacement strategies, [`Mode::more`])
//! of the rest. Nothing is written past the units of that prefix.
//!
//! [`Mode::more`]: super::Mode::more

use core::mem::MaybeUninit;

use super::{CodeUnit, Progress};

/// Units of input up to which a string takes these loops (bytes of UTF-8, units of UTF-16 or
/// UTF-32). Strings of 16 bytes of UTF-8 (4 to 16 characters) were slower through the kernels
/// than simdutf's scalar loops (see BENCHMARKS.md).
pub(crate) const SHORT_UNITS: usize = 16;

/// Units of UTF-16 or UTF-32 up to which a string takes these loops into UTF-8. Longer ones
/// (strings of 32 bytes of UTF-8 and more in other scripts than Latin) were faster through the
/// kernel's steps, whose cost does not depend on the characters' widths (see BENCHMARKS.md).
pub(crate) const SHORT_INTO_UTF8: usize = 8;

/// The input and output of a call of a converter of short strings (AVX-512's, which the
/// dispatch calls through its tables), given by reference: the converter may change them, so
/// that its caller, which needs them again only where the converter leaves a string to the
/// other paths, keeps them in memory across the call rather than in registers it would save
/// and restore on every call (see BENCHMARKS.md).
pub(crate) struct ShortCall<'a, S, T> {
    /// The input.
    pub(crate) src: &'a [S],
    /// The output.
    pub(crate) dst: &'a mut [MaybeUninit<T>],
}

/// The progress of a conversion of all of `read` units into `written`.
#[inline(always)]
pub(crate) fn done(read: usize, written: usize) -> Progress {
    Progress {
        read,
        written,
        stop: None,
    }
}

/// Converts `src`, UTF-8 of at most [`SHORT_UNITS`] bytes, into UTF-16 (`PAIRS`: a character
/// above U+FFFF becomes a surrogate pair) or UTF-32 units `T` in `dst`, which has room for one
/// unit per byte; `None` at the first ill-formed sequence (see the module's comment).
#[inline(always)]
pub(crate) fn from_utf8<T: CodeUnit, const PAIRS: bool>(
    src: &[u8],
    dst: &mut [MaybeUninit<T>],
) -> Option<Progress> {
    if src.len() > SHORT_UNITS || dst.len() < src.len() {
        return None;
    }
    let (mut read, mut written) = (0, 0);
    while let Some(&lead) = src.get(read) {
        // A continuation byte's six bits, or `None` if it is not one (or past the end).
        let tail = |k: usize| {
            src.get(read + k)
                .filter(|&&b| (b as i8) < -64)
                .map(|&b| u32::from(b & 0x3F))
        };
        let (value, len) = if lead < 0x80 {
            (u32::from(lead), 1)
        } else if lead < 0xE0 {
            // C0 and C1 would be overlong; 80..BF are continuation bytes.
            if lead < 0xC2 {
                return None;
            }
            ((u32::from(lead & 0x1F) << 6) | tail(1)?, 2)
        } else if lead < 0xF0 {
            let v = (u32::from(lead & 0x0F) << 12) | (tail(1)? << 6) | tail(2)?;
            // Overlong, or a surrogate.
            if v < 0x800 || v & 0xF800 == 0xD800 {
                return None;
            }
            (v, 3)
        } else {
            // F5..FF give a value above U+10FFFF (or, from F8, a lead with more than four
            // bytes, whose payload bits this masks off; its value is checked below anyway).
            if lead > 0xF4 {
                return None;
            }
            let v = (u32::from(lead & 0x07) << 18) | (tail(1)? << 12) | (tail(2)? << 6) | tail(3)?;
            if !(0x1_0000..=0x10_FFFF).contains(&v) {
                return None;
            }
            (v, 4)
        };
        if PAIRS && value >= 0x1_0000 {
            // Two units from four bytes: the room for one unit per byte holds them.
            let v = value - 0x1_0000;
            *dst.get_mut(written..)?.first_chunk_mut::<2>()? = [
                MaybeUninit::new(T::from_value(0xD800 | (v >> 10))),
                MaybeUninit::new(T::from_value(0xDC00 | (v & 0x3FF))),
            ];
            written += 2;
        } else {
            dst.get_mut(written)?.write(T::from_value(value));
            written += 1;
        }
        read += len;
    }
    Some(done(read, written))
}

/// Writes the UTF-8 of `value`, a scalar value, at `out`: its length.
///
/// # Safety
/// `out` has room for the value's bytes (4 bytes always do).
#[inline(always)]
unsafe fn put_utf8(value: u32, out: *mut MaybeUninit<u8>) -> usize {
    let byte = |v: u32| MaybeUninit::new(v as u8);
    let cont = |shift: u32| byte(0x80 | ((value >> shift) & 0x3F));
    // SAFETY: each branch writes the value's bytes, which fit by the caller's contract.
    unsafe {
        if value < 0x80 {
            out.write(byte(value));
            1
        } else if value < 0x800 {
            out.cast::<[MaybeUninit<u8>; 2]>()
                .write_unaligned([byte(0xC0 | (value >> 6)), cont(0)]);
            2
        } else if value < 0x1_0000 {
            out.cast::<[MaybeUninit<u8>; 3]>().write_unaligned([
                byte(0xE0 | (value >> 12)),
                cont(6),
                cont(0),
            ]);
            3
        } else {
            out.cast::<[MaybeUninit<u8>; 4]>().write_unaligned([
                byte(0xF0 | (value >> 18)),
                cont(12),
                cont(6),
                cont(0),
            ]);
            4
        }
    }
}

/// Converts `src`, UTF-16 of at most [`SHORT_INTO_UTF8`] units (of either byte order, read
/// through [`CodeUnit::value`]), into UTF-8 in `dst`, which has room for three bytes per unit;
/// `None` at the first lone surrogate (see the module's comment).
#[inline(always)]
pub(crate) fn utf16_to_utf8<S: CodeUnit>(
    src: &[S],
    dst: &mut [MaybeUninit<u8>],
) -> Option<Progress> {
    if src.len() > SHORT_INTO_UTF8 || dst.len() < 3 * src.len() {
        return None;
    }
    let (mut read, mut written) = (0, 0);
    while let Some(unit) = src.get(read) {
        let mut value = unit.value();
        read += 1;
        if value & 0xF800 == 0xD800 {
            // A high surrogate followed by a low one, else an error.
            let low = src.get(read).map_or(0, |u| u.value());
            if value >= 0xDC00 || low & 0xFC00 != 0xDC00 {
                return None;
            }
            value = 0x1_0000 + ((value - 0xD800) << 10) + (low - 0xDC00);
            read += 1;
        }
        // SAFETY: at most 3 bytes per unit read so far (4 from the 2 units of a pair), and
        // `dst` has 3 per unit of `src`: `written` plus this character's bytes is within it.
        written += unsafe { put_utf8(value, dst.as_mut_ptr().add(written)) };
    }
    Some(done(read, written))
}

/// Converts `src`, UTF-32 of at most [`SHORT_INTO_UTF8`] units, into UTF-8 in `dst`, which has
/// room for four bytes per unit; `None` at the first surrogate or value above U+10FFFF (see the
/// module's comment).
#[inline(always)]
pub(crate) fn utf32_to_utf8(src: &[u32], dst: &mut [MaybeUninit<u8>]) -> Option<Progress> {
    if src.len() > SHORT_INTO_UTF8 || dst.len() < 4 * src.len() {
        return None;
    }
    let mut written = 0;
    for &value in src {
        if value & !0x7FF == 0xD800 || value > 0x10_FFFF {
            return None;
        }
        // SAFETY: at most 4 bytes per unit so far, and `dst` has 4 per unit of `src`.
        written += unsafe { put_utf8(value, dst.as_mut_ptr().add(written)) };
    }
    Some(done(src.len(), written))
}
