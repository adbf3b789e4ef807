//! The oracles that libutf8's Rust tests (`tests/`) and fuzz targets (`fuzz/`) share, written
//! once: from RFC 3629, the C API's documentation and Rust's standard library, never from
//! libutf8, which this crate does not depend on. Each user turns a [`Class`] into libutf8's
//! `ErrorKind` with [`kind_of!`]. (The benchmarks check their results against the standard
//! library directly; the oracles in Python and C stay independent of these on purpose.)

/// Why a sequence is ill-formed, as the C API's classification table (libutf8(3), "STATUS
/// CODES") tells it: the variants of libutf8's `ErrorKind`, under the same names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// The input ends inside a sequence that more input could complete.
    Truncated,
    /// A continuation byte (80..BF) where a character must start.
    UnexpectedContinuation,
    /// A lead byte followed too early by a byte that cannot continue it.
    MissingContinuation,
    /// A longer encoding than the value needs (C0, C1; E0 80..9F; F0 80..8F).
    Overlong,
    /// A UTF-16 surrogate code point (ED A0..BF).
    Surrogate,
    /// A value above U+10FFFF (F4 90..BF; F5..F7).
    TooLarge,
    /// A byte that never appears in UTF-8 (F8..FF).
    InvalidByte,
}

/// The classification table of the C API, written from the byte ranges of RFC 3629 section 4,
/// for input that starts with an ill-formed, complete sequence: its first one or two bytes
/// decide, in this order.
pub fn classify(s: &[u8]) -> Class {
    use Class::*;
    match (s[0], s.get(1).copied()) {
        (0x80..=0xBF, _) => UnexpectedContinuation,
        (0xC0 | 0xC1, _) => Overlong,
        (0xE0, Some(0x80..=0x9F)) | (0xF0, Some(0x80..=0x8F)) => Overlong,
        (0xED, Some(0xA0..=0xBF)) => Surrogate,
        (0xF4, Some(0x90..=0xBF)) | (0xF5..=0xF7, _) => TooLarge,
        (0xF8..=0xFF, _) => InvalidByte,
        _ => MissingContinuation,
    }
}

/// What `core::str::from_utf8` says of `s`, with the class of the first ill-formed sequence:
/// `Ok(())`, or `(valid_up_to, class, error_len)`, where an input that ends inside a sequence
/// valid so far is `Truncated` and its error the rest of the input.
pub fn validate(s: &[u8]) -> Result<(), (usize, Class, usize)> {
    let e = match core::str::from_utf8(s) {
        Ok(_) => return Ok(()),
        Err(e) => e,
    };
    let at = e.valid_up_to();
    match e.error_len() {
        None => Err((at, Class::Truncated, s.len() - at)),
        Some(len) => Err((at, classify(&s[at..]), len)),
    }
}

/// For each byte of `s`, the start of the unit that holds it in lossy decoding, from the
/// standard library's `utf8_chunks` (valid characters, then one maximal subpart).
pub fn unit_starts(s: &[u8]) -> Vec<usize> {
    let mut starts = Vec::with_capacity(s.len());
    let mut at = 0;
    for chunk in s.utf8_chunks() {
        for c in chunk.valid().chars() {
            starts.extend(std::iter::repeat_n(at, c.len_utf8()));
            at += c.len_utf8();
        }
        starts.extend(std::iter::repeat_n(at, chunk.invalid().len()));
        at += chunk.invalid().len();
    }
    assert_eq!(starts.len(), s.len());
    starts
}

/// `kind_of!(class, utf8::ErrorKind)`: the [`Class`] `class` as the variant of the same name of
/// the enum named (libutf8's `ErrorKind`, which this crate cannot name).
#[macro_export]
macro_rules! kind_of {
    ($class:expr, $($kind:ident)::+) => {
        match $class {
            $crate::Class::Truncated => $($kind)::+::Truncated,
            $crate::Class::UnexpectedContinuation => $($kind)::+::UnexpectedContinuation,
            $crate::Class::MissingContinuation => $($kind)::+::MissingContinuation,
            $crate::Class::Overlong => $($kind)::+::Overlong,
            $crate::Class::Surrogate => $($kind)::+::Surrogate,
            $crate::Class::TooLarge => $($kind)::+::TooLarge,
            $crate::Class::InvalidByte => $($kind)::+::InvalidByte,
        }
    };
}
