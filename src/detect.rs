//! Encoding detection for input of unknown encoding (since 1.3): which byte-order mark it
//! starts with, and in which of UTF-8, UTF-16LE, UTF-16BE, UTF-32LE and UTF-32BE all of it is
//! well-formed. Exact rules only: no statistics, no guess between encodings that all fit.

use crate::scalar::detect::{is_utf16, is_utf32};
use crate::validate::validate;

/// An encoding form of Unicode, as [`bom`] names a byte-order mark and [`encodings`] sets its
/// bit. The values are the bits of [`encodings`]' set (simdutf's `encoding_type` values).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// UTF-8: byte-order mark EF BB BF.
    Utf8 = 1,
    /// UTF-16, little-endian: byte-order mark FF FE.
    Utf16Le = 2,
    /// UTF-16, big-endian: byte-order mark FE FF.
    Utf16Be = 4,
    /// UTF-32, little-endian: byte-order mark FF FE 00 00.
    Utf32Le = 8,
    /// UTF-32, big-endian: byte-order mark 00 00 FE FF.
    Utf32Be = 16,
}

impl Encoding {
    /// Every encoding, in the order of their bits.
    pub const ALL: [Encoding; 5] = [
        Encoding::Utf8,
        Encoding::Utf16Le,
        Encoding::Utf16Be,
        Encoding::Utf32Le,
        Encoding::Utf32Be,
    ];

    /// Its bit in the set of [`encodings`].
    pub const fn bit(self) -> u32 {
        self as u32
    }

    /// Its byte-order mark: U+FEFF in this encoding.
    pub const fn bom(self) -> &'static [u8] {
        match self {
            Encoding::Utf8 => b"\xEF\xBB\xBF",
            Encoding::Utf16Le => b"\xFF\xFE",
            Encoding::Utf16Be => b"\xFE\xFF",
            Encoding::Utf32Le => b"\xFF\xFE\x00\x00",
            Encoding::Utf32Be => b"\x00\x00\xFE\xFF",
        }
    }

    /// Whether all of `s` is well-formed in this encoding (see [`encodings`]).
    pub fn is_valid(self, s: &[u8]) -> bool {
        match self {
            Encoding::Utf8 => validate(s).is_ok(),
            Encoding::Utf16Le => is_utf16(s, false),
            Encoding::Utf16Be => is_utf16(s, true),
            Encoding::Utf32Le => is_utf32(s, false),
            Encoding::Utf32Be => is_utf32(s, true),
        }
    }
}

/// The byte-order mark `s` starts with, if any; its length is `bom().len()`.
///
/// FF FE 00 00 is UTF-32LE, though it also starts with UTF-16LE's mark (and is U+FEFF U+0000
/// in UTF-16LE): the longer mark is tested first, as the Unicode FAQ on byte-order marks and
/// simdutf do. A prefix of a mark is no mark (EF BB is none; FF FE 00 is UTF-16LE's).
pub fn bom(s: &[u8]) -> Option<Encoding> {
    // Longest first: UTF-32LE's mark starts with UTF-16LE's.
    [
        Encoding::Utf32Le,
        Encoding::Utf32Be,
        Encoding::Utf8,
        Encoding::Utf16Le,
        Encoding::Utf16Be,
    ]
    .into_iter()
    .find(|e| s.starts_with(e.bom()))
}

/// The set of encodings in which all of `s` is well-formed, as an OR of [`Encoding::bit`]:
/// UTF-8 as [`validate`] accepts it (RFC 3629); UTF-16 an even length and no unpaired
/// surrogate; UTF-32 a length that is a multiple of 4 and every unit a scalar value (below
/// 0x110000, not a surrogate). The empty input is valid in all five (0x1F). A byte-order
/// mark is input like any other: U+FEFF is a character of every encoding, so a mark does not
/// rule the others out (skip it first, by [`bom`], to check the text after it).
///
/// Each check stops at the first error it finds, and is not run when the length rules its
/// encoding out.
pub fn encodings(s: &[u8]) -> u32 {
    Encoding::ALL
        .into_iter()
        .filter(|e| e.is_valid(s))
        .fold(0, |set, e| set | e.bit())
}
