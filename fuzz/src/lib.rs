//! What the fuzz targets share: the oracles (Rust's standard library and the classification
//! table of libutf8(3), STATUS CODES, written from RFC 3629 rather than taken from the library:
//! testkit/, which the Rust tests share) in libutf8's types, the C status codes as the header
//! documents them, and the widening of an input to lengths where the SIMD kernels run.

use utf8::{ErrorKind, Utf8Error};

pub mod convert;

/// What `core::str::from_utf8` says of `s`, completed with the error kind of the
/// classification table (`testkit::validate`): the result `utf8::validate(s)` must give.
pub fn oracle_validate(s: &[u8]) -> Result<(), Utf8Error> {
    testkit::validate(s).map_err(|(valid_up_to, class, error_len)| Utf8Error {
        valid_up_to,
        kind: testkit::kind_of!(class, ErrorKind),
        error_len,
    })
}

/// What `utf8::decode_next(s)` must give, from `core::str::from_utf8` on the first four bytes
/// (a character is at most four bytes long): `Ok((scalar value, length))`, or the kind and the
/// length of the maximal subpart.
pub fn oracle_decode(s: &[u8]) -> Result<(u32, usize), (ErrorKind, usize)> {
    let window = &s[..s.len().min(4)];
    let valid = match core::str::from_utf8(window) {
        Ok(text) => text,
        Err(e) if e.valid_up_to() > 0 => {
            core::str::from_utf8(&window[..e.valid_up_to()]).expect("a valid prefix is valid")
        }
        // A sequence that starts at 0 and is incomplete in a window of four bytes can only be
        // cut off by the end of the input, which is then shorter than four bytes.
        Err(e) => match e.error_len() {
            None => return Err((ErrorKind::Truncated, s.len())),
            Some(len) => return Err((classify(s), len)),
        },
    };
    match valid.chars().next() {
        Some(c) => Ok((u32::from(c), c.len_utf8())),
        None => Err((ErrorKind::Truncated, 0)), // empty input
    }
}

/// The classification table of the C API (libutf8(3), "STATUS CODES"), for input that starts
/// with an ill-formed, complete sequence (`testkit::classify`).
pub fn classify(s: &[u8]) -> ErrorKind {
    testkit::kind_of!(testkit::classify(s), ErrorKind)
}

/// The numeric values of `utf8_status` that libutf8.h documents.
pub mod status {
    pub const OK: i32 = 0;
    pub const TRUNCATED: i32 = -1;
    pub const UNEXPECTED_CONTINUATION: i32 = -2;
    pub const MISSING_CONTINUATION: i32 = -3;
    pub const OVERLONG: i32 = -4;
    pub const SURROGATE: i32 = -5;
    pub const TOO_LARGE: i32 = -6;
    pub const INVALID_BYTE: i32 = -7;
    pub const BUFFER_TOO_SMALL: i32 = -8;
    pub const NULL_POINTER: i32 = -9;
    pub const INVALID_ARGUMENT: i32 = -10;
    pub const INVALID_ESCAPE: i32 = -11;
}

/// The C status of an error kind, as the header's table gives it.
pub fn status_of(kind: ErrorKind) -> i32 {
    match kind {
        ErrorKind::Truncated => status::TRUNCATED,
        ErrorKind::UnexpectedContinuation => status::UNEXPECTED_CONTINUATION,
        ErrorKind::MissingContinuation => status::MISSING_CONTINUATION,
        ErrorKind::Overlong => status::OVERLONG,
        ErrorKind::Surrogate => status::SURROGATE,
        ErrorKind::TooLarge => status::TOO_LARGE,
        ErrorKind::InvalidByte => status::INVALID_BYTE,
    }
}

/// Bytes of mixed widths (1 to 4) for [`widen`]'s prefixes: cut anywhere, they can leave a
/// sequence open for the input to complete or break.
const MIXED: &str = "a\u{E9}\u{20AC}\u{1F600}b\u{3B1}\u{10FFFF}\u{7FF}\u{800}c\u{FFFD}\u{10000}\
                     \u{D7FF}\u{E000}\u{80}d\u{FFFF}\u{10348}\u{5D0}\u{65E5}\u{672C}e\u{1F4A9}";

/// The unit in which the SIMD kernels accept input (docs/ARCHITECTURE.md, "Implementations").
pub const BLOCK: usize = 64;

/// The length [`widen`] reaches at least: several 64-byte blocks, so that the SIMD kernels run.
pub const WIDE_LEN: usize = 320;

/// A second input made from `data`, long enough for the SIMD kernels, and exactly allocated
/// so that AddressSanitizer catches any read past its end: a prefix of 0 to 127 bytes chosen
/// by the first byte of `data` (ASCII if its high bit is clear, else a cut of [`MIXED`]
/// repeated), which shifts the input across block boundaries, then `data` repeated until at
/// least [`WIDE_LEN`] bytes. `None` for empty `data`.
pub fn widen(data: &[u8]) -> Option<Box<[u8]>> {
    let &control = data.first()?;
    let prefix_len = usize::from(control & 0x7F);
    let mut out = Vec::with_capacity(prefix_len + WIDE_LEN + data.len());
    if control & 0x80 == 0 {
        out.resize(prefix_len, b'x');
    } else {
        out.extend(MIXED.bytes().cycle().take(prefix_len));
    }
    while out.len() < WIDE_LEN {
        out.extend_from_slice(data);
    }
    // Exactly `out.len()` bytes, so that an over-read hits AddressSanitizer's redzone.
    Some(out.into_boxed_slice())
}

/// A copy of `s` in an allocation of exactly its length, for AddressSanitizer.
pub fn exact_copy(s: &[u8]) -> Box<[u8]> {
    Box::from(s)
}

/// `s` in hex, at most the first 256 bytes, for failure messages.
pub fn hex(s: &[u8]) -> String {
    let mut out: String = s.iter().take(256).map(|b| format!("{b:02X} ")).collect();
    if s.len() > 256 {
        out.push_str(&format!("... ({} bytes)", s.len()));
    }
    out.trim_end().to_owned()
}

/// What a stream validator must report over `s`, from [`oracle_validate`] on the whole: after
/// each prefix, and at the end.
pub struct StreamOracle<'a> {
    /// The well-formed prefix of `s`.
    valid: &'a str,
    /// The first error that no more input can repair: its status and offset, and the prefix
    /// length from which it is proven.
    error: Option<(i32, usize, usize)>,
    /// What validating all of `s` gives: status and valid_up_to.
    end: (i32, usize),
}

impl<'a> StreamOracle<'a> {
    pub fn new(s: &'a [u8]) -> Self {
        let (valid_len, error, end) = match oracle_validate(s) {
            Ok(()) => (s.len(), None, (status::OK, s.len())),
            Err(e) if e.kind == ErrorKind::Truncated => {
                (e.valid_up_to, None, (status::TRUNCATED, e.valid_up_to))
            }
            Err(e) => {
                let (at, len) = (e.valid_up_to, e.error_len);
                // A maximal subpart that could begin a character is proven wrong only by the
                // byte after it; one that could not (F8, C0, a stray 80) by itself.
                let incomplete =
                    core::str::from_utf8(&s[at..at + len]).is_err_and(|e| e.error_len().is_none());
                let st = status_of(e.kind);
                (
                    at,
                    Some((st, at, at + len + usize::from(incomplete))),
                    (st, at),
                )
            }
        };
        let valid = core::str::from_utf8(&s[..valid_len]).expect("the valid prefix");
        StreamOracle { valid, error, end }
    }

    /// After the first `e` bytes: OK and the end of the last complete character, or the error.
    pub fn after(&self, e: usize) -> (i32, usize) {
        if let Some((st, at, proven)) = self.error
            && e >= proven
        {
            return (st, at);
        }
        let mut b = e.min(self.valid.len());
        while !self.valid.is_char_boundary(b) {
            b -= 1;
        }
        (status::OK, b)
    }

    /// At the end of the stream: what validating the whole gives.
    pub fn at_end(&self) -> (i32, usize) {
        self.end
    }
}
