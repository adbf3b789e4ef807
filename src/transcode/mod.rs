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
