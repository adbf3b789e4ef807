//! Validation of a whole buffer.

use crate::dispatch;
use crate::scalar::error::Utf8Error;

/// The scalar validator: the reference that every SIMD kernel must agree with.
pub use crate::scalar::validate::scalar;

/// Checks that all of `s` is well-formed UTF-8 (RFC 3629 section 4).
///
/// On failure the error locates and classifies the first ill-formed sequence. Runs on the
/// best SIMD kernel the CPU supports (see [`crate::dispatch`]); a short ASCII string needs
/// none.
#[inline]
pub fn validate(s: &[u8]) -> Result<(), Utf8Error> {
    dispatch::validate(s)
}
