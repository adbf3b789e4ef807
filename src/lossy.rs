//! Lossy copies: ill-formed sequences replaced by U+FFFD.

use crate::sink::Sink;
use crate::validate::validate;

/// U+FFFD REPLACEMENT CHARACTER in UTF-8.
pub const REPLACEMENT_UTF8: [u8; 3] = [0xEF, 0xBF, 0xBD];

/// Writes `s` to `out` with each maximal subpart of an ill-formed sequence replaced by one
/// U+FFFD, as the Unicode Standard (chapter 3), WHATWG, Python and Rust's
/// `String::from_utf8_lossy` do. Well-formed stretches, found by the fast validator, are
/// copied whole.
pub fn replace_invalid(s: &[u8], out: &mut Sink<'_, u8>) {
    let mut rest = s;
    loop {
        match validate(rest) {
            Ok(()) => {
                out.push(rest);
                return;
            }
            Err(e) => {
                let (good, bad) = rest.split_at(e.valid_up_to.min(rest.len()));
                out.push(good);
                out.push(&REPLACEMENT_UTF8);
                // A maximal subpart is at least one byte long.
                rest = bad.get(e.error_len.max(1)..).unwrap_or_default();
            }
        }
    }
}
