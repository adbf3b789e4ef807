//! Encoding detection (since 1.3): the byte-order mark an input starts with, and the encodings
//! all of it is well-formed in.

use core::ffi::c_char;

use super::{input, put};
use crate::detect::{self, Encoding};

/// An encoding form of Unicode, as utf8_detect_bom names a byte-order mark and
/// utf8_detect_encodings sets its bit. Each value is one bit, as simdutf's `encoding_type`, so
/// that the two results can be compared: `bom & utf8_detect_encodings(s, len)`.
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum utf8_encoding {
    /// No byte-order mark (utf8_detect_bom); as a set, no encoding.
    UTF8_ENCODING_NONE = 0,
    /// UTF-8; byte-order mark EF BB BF.
    UTF8_ENCODING_UTF8 = 1,
    /// UTF-16, little-endian; byte-order mark FF FE.
    UTF8_ENCODING_UTF16LE = 2,
    /// UTF-16, big-endian; byte-order mark FE FF.
    UTF8_ENCODING_UTF16BE = 4,
    /// UTF-32, little-endian; byte-order mark FF FE 00 00.
    UTF8_ENCODING_UTF32LE = 8,
    /// UTF-32, big-endian; byte-order mark 00 00 FE FF.
    UTF8_ENCODING_UTF32BE = 16,
}

impl From<Encoding> for utf8_encoding {
    fn from(e: Encoding) -> Self {
        match e {
            Encoding::Utf8 => utf8_encoding::UTF8_ENCODING_UTF8,
            Encoding::Utf16Le => utf8_encoding::UTF8_ENCODING_UTF16LE,
            Encoding::Utf16Be => utf8_encoding::UTF8_ENCODING_UTF16BE,
            Encoding::Utf32Le => utf8_encoding::UTF8_ENCODING_UTF32LE,
            Encoding::Utf32Be => utf8_encoding::UTF8_ENCODING_UTF32BE,
        }
    }
}

/// The byte-order mark that the `len` bytes at `s` start with (since 1.3): UTF8_ENCODING_UTF8
/// for EF BB BF, UTF8_ENCODING_UTF16LE for FF FE, UTF8_ENCODING_UTF16BE for FE FF,
/// UTF8_ENCODING_UTF32LE for FF FE 00 00, UTF8_ENCODING_UTF32BE for 00 00 FE FF, and
/// UTF8_ENCODING_NONE for any other start, a part of a mark (EF BB) or empty input included.
/// `*bom_len` is the mark's length in bytes (0 for none): the text starts after it.
///
/// FF FE 00 00 is UTF-32LE, though it starts with UTF-16LE's mark (and is U+FEFF U+0000 in
/// UTF-16LE): the longer mark is tested first, as the Unicode FAQ on byte-order marks and
/// simdutf do. FF FE 00 (three bytes) is UTF-16LE. Only the first four bytes are read.
///
/// A NULL `s` with `len > 0` gives UTF8_ENCODING_NONE, and `*bom_len` is not written.
///
/// # Safety
/// `s` is NULL or points to `len` readable bytes; `bom_len` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn utf8_detect_bom(
    s: *const c_char,
    len: usize,
    bom_len: *mut usize,
) -> utf8_encoding {
    // SAFETY: the caller's contract for `s` and `len` is the one `input` needs.
    let Some(bytes) = (unsafe { input(s, len) }) else {
        return utf8_encoding::UTF8_ENCODING_NONE;
    };
    let found = detect::bom(bytes);
    // SAFETY: `bom_len` is NULL or writable, by the caller's contract.
    unsafe { put(bom_len, found.map_or(0, |e| e.bom().len())) };
    found.map_or(utf8_encoding::UTF8_ENCODING_NONE, utf8_encoding::from)
}

/// The encodings in which all of the `len` bytes at `s` are well-formed (since 1.3), as an OR
/// of utf8_encoding bits (as simdutf's `detect_encodings`):
/// - UTF8_ENCODING_UTF8 (1): well-formed UTF-8, as utf8_validate accepts it;
/// - UTF8_ENCODING_UTF16LE (2), UTF8_ENCODING_UTF16BE (4): an even length, and no unpaired
///   surrogate (every unit D800..DBFF followed by one DC00..DFFF, every one DC00..DFFF preceded
///   by one D800..DBFF), the units read in that byte order;
/// - UTF8_ENCODING_UTF32LE (8), UTF8_ENCODING_UTF32BE (16): a length that is a multiple of 4,
///   and every unit a Unicode scalar value (below 0x110000, not D800..DFFF), in that order.
///
/// Nothing else is looked at: no guess is made between encodings that all fit (ASCII text of
/// an even length is valid UTF-8 and UTF-16 both), and U+0000 is a character like any other.
/// The empty input is valid in all five: 31 (0x1F). A byte-order mark is part of the input,
/// the character U+FEFF in the encoding it marks: the two functions are independent, and a
/// caller that wants the text after a mark passes `s + bom_len`. Each check stops at its
/// first error, and none runs where the length rules its encoding out. Nothing is allocated.
///
/// A NULL `s` with `len > 0` gives 0.
///
/// # Safety
/// `s` is NULL or points to `len` readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn utf8_detect_encodings(s: *const c_char, len: usize) -> u32 {
    // SAFETY: the caller's contract for `s` and `len` is the one `input` needs.
    match unsafe { input(s, len) } {
        Some(bytes) => detect::encodings(bytes),
        None => 0,
    }
}
