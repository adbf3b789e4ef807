//! Bulk conversion between UTF-8 and UTF-16 or UTF-32 (native-endian code units), and from
//! Latin-1 and Windows-1252 and into Latin-1 ([`latin1`]): the public
//! functions, which run the implementation in use (see [`crate::dispatch`]), and the length
//! functions.
//!
//! The length functions give the exact size of the lossy output (each maximal subpart of
//! ill-formed UTF-8, each lone surrogate, each invalid UTF-32 value replaced with one U+FFFD),
//! which is also the size of the strict output of well-formed input; those ending in `_with`,
//! that of the lossy output under a [`Replacement`] strategy.
//!
//! The converters write into units that may be uninitialised (a C caller's fresh buffer; see
//! [`crate::sink`]), and read none of them but bytes they store back unchanged; the public
//! functions take an initialised buffer, or, with `_uninit`, one that need not be. The loops
//! they run are the engine's, `crate::engine`, compiled into each implementation.

pub mod latin1;
pub mod utf16;
pub mod utf32;

pub use crate::engine::{Mode, Progress, Replacement, Stop};

/// The paths of the conversions, which the C functions take apart (see `ffi::transcode`).
pub(crate) use crate::dispatch::{Direction, FromUtf8, IntoUtf8};
/// The C functions' own paths of short strings where AVX-512 is in use (see `ffi::transcode`).
#[cfg(all(target_arch = "x86_64", libutf8_avx512))]
pub(crate) use crate::dispatch::{
    FromUtf8Avx512, IntoUtf8Avx512, Narrow, avx512_in_use, choose_now, chosen,
};
pub(crate) use crate::engine::short::ShortCall;

/// The number of units of the lossy conversion of `s` from UTF-8, where each character of
/// `s` gives `units_of(lead)` units (`lead` being its first byte) and each maximal subpart of an
/// ill-formed sequence gives one ([`Replacement::Fffd`]) or, under the other strategies, one per
/// byte.
///
/// Well-formed stretches are found by [`crate::validate::validate`] (a SIMD kernel) and measured by
/// their bytes alone: a character is one byte that is not a continuation byte.
#[inline(always)]
pub(super) fn units_from_utf8(
    s: &[u8],
    units_of: impl Fn(u8) -> usize,
    replacement: Replacement,
) -> usize {
    let mut total = 0usize;
    let mut rest = s;
    loop {
        let (good, error_len) = match crate::validate::validate(rest) {
            Ok(()) => (rest.len(), None),
            Err(e) => (e.valid_up_to, Some(e.error_len)),
        };
        let good = good.min(rest.len());
        // At most one unit per byte (see the callers), so this sum cannot overflow; and at
        // most `good` even where another thread changed the bytes since they were validated.
        let units = rest[..good]
            .iter()
            .map(|&b| if (b as i8) < -64 { 0 } else { units_of(b) })
            .sum::<usize>();
        total += units.min(good);
        let Some(error_len) = error_len else {
            return total;
        };
        // A maximal subpart is at least one byte long, and within `rest`.
        let after = rest.get(good..).unwrap_or_default();
        let error_len = error_len.max(1).min(after.len());
        total += match replacement {
            Replacement::Fffd => 1,
            _ => error_len,
        };
        rest = after.get(error_len..).unwrap_or_default();
    }
}
