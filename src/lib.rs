//! libutf8: strict UTF-8 as RFC 3629 defines it, with a C API.
//!
//! The codec is safe Rust over slices, but for the SIMD kernels (`kernels` and `algorithms`:
//! intrinsics over raw pointers, each `unsafe` block with its reason) and the writes into
//! output that may be uninitialised ([`sink`]); the C functions are in [`ffi`], which checks
//! pointers, turns them into slices and maps results onto C status codes. The modules are
//! layers, each using only those below it: see "Layers" in docs/ARCHITECTURE.md.
//! The crate needs neither the standard library nor `alloc`; the package in `capi/` links it
//! into the C library.
//!
//! - [`validate`]: is a buffer well-formed, and if not, where and why not.
//! - [`count`]: the number of characters, each error counting as one.
//! - [`transcode`]: bulk conversion between UTF-8 and UTF-16 or UTF-32.
//! - [`form`]: the sibling forms of UTF-8 (WTF-8, CESU-8, Modified UTF-8, RFC 2279).
//! - [`boundary`]: character boundaries in possibly ill-formed text.
//! - [`escape`]: escaping arbitrary bytes for terminals and shells, and back.
//! - [`lossy`]: copies with ill-formed sequences replaced by U+FFFD.
//! - [`stream`]: validation of input that arrives in chunks.
//! - `dispatch` (private): the run-time choice among the implementations (`Isa`) and their
//!   kernels.
//! - [`scalar`]: the scalar reference: [`scalar::decode`] (the scalar value at the start of a
//!   buffer, or the maximal subpart to replace), [`scalar::encode`] (the 1..4 byte encoding of
//!   a scalar value), [`scalar::error`] (how ill-formed input is classified), the sibling
//!   forms' grammars and the scalar validator.
//! - [`sink`]: output buffers, which may be uninitialised, and sinks that report the size
//!   they would need.

#![no_std]
// The unit tests use the standard library; the library itself needs neither it nor `alloc`.
#[cfg(test)]
extern crate std;

// cbindgen, which writes the C header from these sources, takes a `pub` constant of a private
// module, or one behind a `cfg` it has no `[defines]` entry for, as part of the header: it skips
// the kernels' building blocks (`cbindgen:ignore`), whose sizes only the tests see.
/// cbindgen:ignore
mod algorithms;
pub mod boundary;
mod chunks;
pub mod count;
pub mod detect;
mod dispatch;
mod engine;
pub mod escape;
pub mod ffi;
pub mod form;
mod kernels;
pub mod lossy;
pub mod scalar;
pub mod sink;
pub mod stream;
#[cfg(test)]
mod test_support;
pub mod transcode;
pub mod validate;

/// What the project's own tests, fuzz targets and benchmarks reach inside the crate, with the
/// `internals` feature (unstable; see Cargo.toml): not part of the library's API.
#[cfg(feature = "internals")]
#[doc(hidden)]
pub mod internals {
    /// The kernels' sizes: the block, in bytes, the most blocks whose errors are tested at
    /// once, and the input lengths, in bytes, from which they read from 64-byte boundaries and
    /// from which they prefetch.
    pub use crate::algorithms::lookup::{ALIGN_FROM, BLOCK, GROUP, STREAM_FROM};
    /// The implementations, each one's kernels callable on its own, and the one in use.
    pub use crate::dispatch::{Isa, active_isa};
}

pub use boundary::{char_start, truncate};
pub use count::count_chars;
pub use detect::{Encoding, bom, encodings};
pub use escape::{EscapeStyle, escape, unescape};
pub use lossy::{replace_invalid, replace_invalid_with};
pub use scalar::decode::decode_next;
pub use scalar::encode::{Encoded, encode};
pub use scalar::error::{ErrorKind, Malformed, Utf8Error};
pub use stream::{StreamError, StreamState};
pub use validate::validate;
