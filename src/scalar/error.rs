//! How ill-formed input is classified.
//!
//! The first ill-formed sequence is classified by its first one or two bytes (RFC 3629 section 4
//! gives the byte ranges; the names are ours):
//!
//! | input                                               | kind                                  |
//! |-----------------------------------------------------|---------------------------------------|
//! | ends inside a sequence that is valid so far         | [`ErrorKind::Truncated`]              |
//! | 80..BF where a character must start                 | [`ErrorKind::UnexpectedContinuation`] |
//! | C0, C1; E0 then 80..9F; F0 then 80..8F              | [`ErrorKind::Overlong`]               |
//! | ED then A0..BF (U+D800..U+DFFF)                     | [`ErrorKind::Surrogate`]              |
//! | F4 then 90..BF; F5..F7                              | [`ErrorKind::TooLarge`]               |
//! | F8..FF                                              | [`ErrorKind::InvalidByte`]            |
//! | a lead byte followed too early by a byte not 80..BF | [`ErrorKind::MissingContinuation`]    |

/// U+FFFD REPLACEMENT CHARACTER: what lossy decoding, the converters with UTF8_REPLACE and
/// utf8_decode_next on error give for an ill-formed sequence.
pub(crate) const REPLACEMENT: u32 = 0xFFFD;

/// Why input is not well-formed UTF-8, or why a value cannot be encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// The input ends inside a sequence that more input could complete.
    Truncated,
    /// A continuation byte (80..BF) where a character must start.
    UnexpectedContinuation,
    /// A lead byte followed too early by a byte that cannot continue it.
    MissingContinuation,
    /// A longer encoding than the value needs (C0, C1; E0 80..9F; F0 80..8F).
    Overlong,
    /// A UTF-16 surrogate code point, U+D800..U+DFFF (ED A0..BF).
    Surrogate,
    /// A value above U+10FFFF (F4 90..BF; F5..F7).
    TooLarge,
    /// A byte that never appears in UTF-8 (F8..FF).
    InvalidByte,
}

/// An ill-formed sequence at the start of a buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Malformed {
    /// Why it is ill-formed.
    pub kind: ErrorKind,
    /// The length of its maximal subpart (Unicode Standard, chapter 3, "U+FFFD Substitution of
    /// Maximal Subparts"): the longest prefix that could still begin a well-formed sequence, at
    /// least 1, except for [`ErrorKind::Truncated`] on empty input.
    pub len: usize,
}

/// The first ill-formed sequence in a buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Utf8Error {
    /// Length of the longest well-formed prefix: the offset of the ill-formed sequence.
    pub valid_up_to: usize,
    /// Why it is ill-formed.
    pub kind: ErrorKind,
    /// Length of its maximal subpart, as in [`Malformed::len`].
    pub error_len: usize,
}
