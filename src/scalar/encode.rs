//! Encoding one scalar value.

use super::error::ErrorKind;

/// The UTF-8 encoding of one scalar value: 1 to 4 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Encoded {
    bytes: [u8; 4],
    len: usize,
}

impl Encoded {
    /// The encoded bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

/// Encodes the scalar value `cp` (RFC 3629 section 3, "Encoding Algorithm").
///
/// Surrogates (U+D800..U+DFFF) are [`ErrorKind::Surrogate`], values above U+10FFFF
/// [`ErrorKind::TooLarge`].
pub fn encode(cp: u32) -> Result<Encoded, ErrorKind> {
    // Continuation byte holding the six bits of `cp` above bit `shift`.
    let tail = |shift: u32| 0x80 | ((cp >> shift) & 0x3F) as u8;
    let (bytes, len) = match cp {
        0..=0x7F => ([cp as u8, 0, 0, 0], 1),
        0x80..=0x7FF => ([0xC0 | (cp >> 6) as u8, tail(0), 0, 0], 2),
        0xD800..=0xDFFF => return Err(ErrorKind::Surrogate),
        0x800..=0xFFFF => ([0xE0 | (cp >> 12) as u8, tail(6), tail(0), 0], 3),
        0x1_0000..=0x10_FFFF => ([0xF0 | (cp >> 18) as u8, tail(12), tail(6), tail(0)], 4),
        _ => return Err(ErrorKind::TooLarge),
    };
    Ok(Encoded { bytes, len })
}
