//! Counting characters.

use crate::dispatch;

/// The number of characters in `s`, where each maximal subpart of an ill-formed sequence
/// counts as one: the number of steps a [`crate::decode_next`] loop takes over `s`.
pub fn count_chars(s: &[u8]) -> usize {
    dispatch::count_chars_with(s, dispatch::count_prefix)
}
