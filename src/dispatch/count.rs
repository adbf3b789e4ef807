//! Counting characters with a kernel: the loop that counts well-formed stretches with the
//! kernel and each error as one character, and its generalisation to the units of the lossy
//! conversions from UTF-8 (the length functions).

use crate::scalar::error::ErrorKind;
use crate::scalar::validate::{Prefix, scalar_prefix};

/// After an error, the scalar code looks at this many bytes before a kernel is called again.
const SCALAR_AFTER_ERROR: usize = crate::algorithms::lookup::BLOCK;

/// `crate::count::count_chars`, with `prefix` finding each well-formed stretch and the error
/// after it.
///
/// A loop of its own rather than [`count_units_with`] with nothing more and one unit per
/// error: that instance counted text with an error every 64 bytes up to a quarter slower
/// (BENCHMARKS.md).
pub(crate) fn count_chars_with(s: &[u8], prefix: impl Fn(&[u8]) -> Prefix) -> usize {
    let mut chars = 0;
    let mut rest = s;
    let mut after_error = false;
    loop {
        let p = if after_error {
            prefix_after_error(rest, &prefix, |_| 0)
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

/// The units of the lossy conversion of `s`, with `prefix` finding each well-formed stretch
/// and the error after it and counting the stretch's units (in `chars`); where the scalar code
/// looks at the bytes after an error first ([`prefix_after_error`]), it counts characters, and
/// `more(stretch)` adds what the stretch's characters take besides. Each ill-formed sequence
/// of `len` bytes (a maximal subpart) takes `error_units(len)` (1, or `len` for a strategy
/// that replaces each byte). [`count_chars_with`] counts as this does with characters for
/// units and one unit per error.
///
/// At most `s.len()` if `error_units(len)` is at most `len`, even where another thread
/// changes the bytes during the call: each stretch's units are bounded by its length.
#[inline(always)]
pub(crate) fn count_units_with(
    s: &[u8],
    prefix: impl Fn(&[u8]) -> Prefix,
    more: impl Fn(&[u8]) -> usize,
    error_units: impl Fn(usize) -> usize,
) -> usize {
    let mut units = 0;
    let mut rest = s;
    let mut after_error = false;
    loop {
        let p = if after_error {
            prefix_after_error(rest, &prefix, &more)
        } else {
            prefix(rest)
        };
        let good = rest.get(..p.len).unwrap_or(rest);
        // At most one unit per byte, even where another thread changed the bytes while
        // they were counted, so that the count never exceeds the length.
        units += p.chars.min(good.len());
        let after = rest.get(good.len()..).unwrap_or_default();
        // The maximal subpart is at least one byte long, and within `after`, which is not
        // empty where there is an error.
        let Some(error) = p.error.filter(|_| !after.is_empty()) else {
            return units;
        };
        let error_len = error.len.max(1).min(after.len());
        units += error_units(error_len);
        after_error = true;
        // Clamped, so that the compiler sees the bounds hold and links no panic path.
        rest = after.get(error_len..).unwrap_or_default();
    }
}

/// `prefix(s)`, for input that follows an error. Errors come in clusters (binary data, text
/// in another encoding), and a SIMD kernel restarted after each one would check a whole
/// block per error: the scalar code looks at the next block first, and counts the characters
/// of the stretch it finds there, to which `more(stretch)` adds what `prefix` counts besides.
///
/// Inlined into each loop: out of line (as it was once two loops called it), its frame took
/// `utf8_count_chars` over its stack bound (`c-tests/stack_use.c`).
#[inline(always)]
fn prefix_after_error(
    s: &[u8],
    prefix: impl Fn(&[u8]) -> Prefix,
    more: impl Fn(&[u8]) -> usize,
) -> Prefix {
    let window = &s[..SCALAR_AFTER_ERROR.min(s.len())];
    let mut head = scalar_prefix(window);
    head.chars += more(window.get(..head.len).unwrap_or(window));
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
