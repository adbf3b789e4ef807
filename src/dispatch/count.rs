//! Counting characters with a kernel: the loop that counts well-formed stretches with the
//! kernel and each error as one character.

use crate::scalar::error::ErrorKind;
use crate::scalar::validate::{Prefix, scalar_prefix};

/// After an error, the scalar code looks at this many bytes before a kernel is called again.
const SCALAR_AFTER_ERROR: usize = crate::algorithms::lookup::BLOCK;

/// `crate::count::count_chars`, with `prefix` finding each well-formed stretch and the error after it.
pub(crate) fn count_chars_with(s: &[u8], prefix: impl Fn(&[u8]) -> Prefix) -> usize {
    let mut chars = 0;
    let mut rest = s;
    let mut after_error = false;
    loop {
        let p = if after_error {
            prefix_after_error(rest, &prefix)
        } else {
            prefix(rest)
        };
        // At most one character per byte, even where another thread changed the bytes while
        // they were counted, so that the count never exceeds the length.
        chars += p.chars.min(p.len);
        let Some(error) = p.error else {
            return chars;
        };
        // The maximal subpart is one character; it is at least one byte long, since `rest`
        // is not empty where there is an error.
        chars += 1;
        after_error = true;
        // Clamped, so that the compiler sees the bounds hold and links no panic path.
        rest = &rest[(p.len + error.len).min(rest.len())..];
    }
}

/// `prefix(s)`, for input that follows an error. Errors come in clusters (binary data, text
/// in another encoding), and a SIMD kernel restarted after each one would check a whole
/// block per error: the scalar code looks at the next block first.
fn prefix_after_error(s: &[u8], prefix: impl Fn(&[u8]) -> Prefix) -> Prefix {
    let head = scalar_prefix(&s[..SCALAR_AFTER_ERROR.min(s.len())]);
    match head.error {
        // A sequence cut by the end of the window is not an error yet: the rest decides.
        Some(e) if e.kind == ErrorKind::Truncated && head.len + e.len < s.len() => {}
        Some(_) => return head,
        None if head.len == s.len() => return head,
        None => {}
    }
    let tail = prefix(&s[head.len.min(s.len())..]);
    Prefix {
        len: head.len + tail.len,
        chars: head.chars + tail.chars,
        error: tail.error,
    }
}
