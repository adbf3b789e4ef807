//! The sibling forms of UTF-8: WTF-8, CESU-8, Java's Modified UTF-8 and the original UTF-8 of
//! RFC 2279. Their grammars and encoder are in [`crate::scalar::form`]; validation, which runs
//! the SIMD kernels over stretches of strict UTF-8, is here.

use crate::scalar::error::Utf8Error;
pub use crate::scalar::form::{Encoded, Form, MAX_BYTES, decode_next, encode};

/// Checks that all of `s` is well-formed in `form`; on failure the error locates and classifies
/// the first ill-formed sequence, as [`decode_next`] does. In the strict form this is
/// [`crate::validate`].
///
/// The forms that extend RFC 3629 (WTF-8, RFC 2279) run the SIMD kernels over each stretch of
/// strict UTF-8 and the form's grammar only where strict validation stops; the others skip
/// runs of ASCII and decode the rest character by character.
pub fn validate(s: &[u8], form: Form) -> Result<(), Utf8Error> {
    if form == Form::Strict {
        return crate::validate::validate(s);
    }
    let mut at = 0;
    while let Some(rest) = s.get(at..).filter(|rest| !rest.is_empty()) {
        // A stretch the form reads as the strict form or as ASCII would.
        at += if form.extends_strict() {
            match crate::validate::validate(rest) {
                Ok(()) => return Ok(()),
                Err(e) => e.valid_up_to,
            }
        } else {
            // Modified UTF-8 has no 00 byte.
            let ascii = |b: &u8| b.is_ascii() && (*b != 0 || form != Form::Mutf8);
            rest.iter().position(|b| !ascii(b)).unwrap_or(rest.len())
        };
        let Some(rest) = s.get(at..).filter(|rest| !rest.is_empty()) else {
            break;
        };
        match decode_next(rest, form) {
            Ok((_, width)) => at += width,
            Err(m) => {
                return Err(Utf8Error {
                    valid_up_to: at,
                    kind: m.kind,
                    error_len: m.len,
                });
            }
        }
    }
    Ok(())
}
