//! Validation of a whole buffer.

use crate::decode::decode_next;
use crate::error::Utf8Error;

/// Checks that all of `s` is well-formed UTF-8 (RFC 3629 section 4).
///
/// On failure the error locates and classifies the first ill-formed sequence.
pub fn validate(s: &[u8]) -> Result<(), Utf8Error> {
    let mut i = 0;
    while i < s.len() {
        if s[i] < 0x80 {
            i += ascii_prefix_len(&s[i..]);
            continue;
        }
        // The decoded value is unused here, and the optimiser drops its computation.
        match decode_next(&s[i..]) {
            Ok((_, width)) => i += width,
            Err(m) => {
                return Err(Utf8Error {
                    valid_up_to: i,
                    kind: m.kind,
                    error_len: m.len,
                });
            }
        }
    }
    Ok(())
}

/// Length of the run of ASCII bytes at the start of `s`, found 16 bytes at a time.
#[inline]
fn ascii_prefix_len(s: &[u8]) -> usize {
    const HIGH_BITS: u128 = u128::from_ne_bytes([0x80; 16]);
    let (blocks, _) = s.as_chunks::<16>();
    let mut n = 0;
    for block in blocks {
        // Little-endian so that the lowest set bit belongs to the first non-ASCII byte.
        let high = u128::from_le_bytes(*block) & HIGH_BITS;
        if high != 0 {
            return n + high.trailing_zeros() as usize / 8;
        }
        n += 16;
    }
    n + s[n..].iter().take_while(|b| b.is_ascii()).count()
}
