//! Character boundaries, as lossy decoding sees them.
//!
//! In well-formed text a boundary is where a character starts. In ill-formed input each maximal
//! subpart of an ill-formed sequence is one unit, as in [`crate::decode_next`] loops,
//! [`crate::count_chars`] and lossy decoding. Every byte that is not a continuation byte
//! (80..BF) starts a unit, because no character or maximal subpart holds one past its first
//! byte; so a boundary is found from at most three bytes back, wherever the buffer starts.

use crate::scalar::decode::decode_next;
use crate::scalar::validate::last_non_continuation;

/// The start of the unit (character, or maximal subpart of an ill-formed sequence) that holds
/// byte `i` of `s`; `s.len()` if `i >= s.len()`.
///
/// Reads at most three bytes before `i` and three after it, never outside `s`.
pub fn char_start(s: &[u8], i: usize) -> usize {
    if i >= s.len() {
        return s.len();
    }
    // A unit is at most four bytes long: one that starts more than three bytes before `i`
    // cannot reach it, and between the unit that starts at `lead` and `i` there are only
    // continuation bytes, each a unit of its own.
    match last_non_continuation(s, i + 1, 4) {
        Some(lead) => {
            let width = match decode_next(s.get(lead..).unwrap_or_default()) {
                Ok((_, width)) => width,
                Err(m) => m.len.max(1),
            };
            if lead + width > i { lead } else { i }
        }
        None => i,
    }
}

/// The length of the longest prefix of `s`, at most `max` bytes long, that ends on a unit
/// boundary (see [`char_start`]): `s.len()` if `max >= s.len()`.
pub fn truncate(s: &[u8], max: usize) -> usize {
    char_start(s, max)
}
