//! The oracles that libutf8's Rust tests (`tests/`) and fuzz targets (`fuzz/`) share, written
//! once: from RFC 3629, the C API's documentation and Rust's standard library, never from
//! libutf8, which this crate does not depend on; and the tests' random inputs ([`Rng`]), which
//! the tests against the peers (`bench/tests/peers.rs`) draw too. Each user turns a [`Class`] into libutf8's
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

/// The WHATWG Encoding Standard's index-windows-1252 (<https://encoding.spec.whatwg.org/index-windows-1252.txt>),
/// pointers 0..=31, as `(byte, code point)` pairs: byte `0x80 + pointer`. Pointers 32..=127
/// (bytes 0xA0..=0xFF) are the code points of the bytes' own values, as Latin-1's. Checked
/// once against Python's `cp1252` codec completed with the index's five C1 controls (0x81,
/// 0x8D, 0x8F, 0x90, 0x9D), which that codec leaves undefined: `tools/check-cp1252.py`.
pub const WINDOWS_1252_C1: [(u8, u32); 32] = [
    (0x80, 0x20AC), // EURO SIGN
    (0x81, 0x0081),
    (0x82, 0x201A), // SINGLE LOW-9 QUOTATION MARK
    (0x83, 0x0192), // LATIN SMALL LETTER F WITH HOOK
    (0x84, 0x201E), // DOUBLE LOW-9 QUOTATION MARK
    (0x85, 0x2026), // HORIZONTAL ELLIPSIS
    (0x86, 0x2020), // DAGGER
    (0x87, 0x2021), // DOUBLE DAGGER
    (0x88, 0x02C6), // MODIFIER LETTER CIRCUMFLEX ACCENT
    (0x89, 0x2030), // PER MILLE SIGN
    (0x8A, 0x0160), // LATIN CAPITAL LETTER S WITH CARON
    (0x8B, 0x2039), // SINGLE LEFT-POINTING ANGLE QUOTATION MARK
    (0x8C, 0x0152), // LATIN CAPITAL LIGATURE OE
    (0x8D, 0x008D),
    (0x8E, 0x017D), // LATIN CAPITAL LETTER Z WITH CARON
    (0x8F, 0x008F),
    (0x90, 0x0090),
    (0x91, 0x2018), // LEFT SINGLE QUOTATION MARK
    (0x92, 0x2019), // RIGHT SINGLE QUOTATION MARK
    (0x93, 0x201C), // LEFT DOUBLE QUOTATION MARK
    (0x94, 0x201D), // RIGHT DOUBLE QUOTATION MARK
    (0x95, 0x2022), // BULLET
    (0x96, 0x2013), // EN DASH
    (0x97, 0x2014), // EM DASH
    (0x98, 0x02DC), // SMALL TILDE
    (0x99, 0x2122), // TRADE MARK SIGN
    (0x9A, 0x0161), // LATIN SMALL LETTER S WITH CARON
    (0x9B, 0x203A), // SINGLE RIGHT-POINTING ANGLE QUOTATION MARK
    (0x9C, 0x0153), // LATIN SMALL LIGATURE OE
    (0x9D, 0x009D),
    (0x9E, 0x017E), // LATIN SMALL LETTER Z WITH CARON
    (0x9F, 0x0178), // LATIN CAPITAL LETTER Y WITH DIAERESIS
];

/// Byte `b` decoded as windows-1252 by the WHATWG index above.
pub fn windows_1252(b: u8) -> char {
    let code = WINDOWS_1252_C1
        .iter()
        .find(|&&(byte, _)| byte == b)
        .map_or(u32::from(b), |&(_, c)| c);
    char::from_u32(code).expect("the index holds scalar values")
}

/// The UTF-8 of `s` decoded as windows-1252 (WHATWG).
pub fn windows_1252_to_utf8(s: &[u8]) -> Vec<u8> {
    s.iter()
        .map(|&b| windows_1252(b))
        .collect::<String>()
        .into_bytes()
}

/// The UTF-8 of `s` decoded as ISO-8859-1: `b as char` is exactly that mapping.
pub fn latin1_to_utf8(s: &[u8]) -> Vec<u8> {
    s.iter()
        .map(|&b| b as char)
        .collect::<String>()
        .into_bytes()
}

/// `s` decoded as UTF-8 with U+FFFD for each maximal subpart (`String::from_utf8_lossy`), then
/// encoded as ISO-8859-1 with `?` for each character above U+00FF (and so for each U+FFFD), as
/// Python's `s.decode('utf-8', 'replace').encode('latin-1', 'replace')`.
pub fn utf8_to_latin1_lossy(s: &[u8]) -> Vec<u8> {
    String::from_utf8_lossy(s)
        .chars()
        .map(|c| u8::try_from(c).unwrap_or(b'?'))
        .collect()
}

/// The rules of libutf8's replacement strategies for an ill-formed byte (always >= 0x80):
/// PEP 383's surrogateescape, and the byte read as ISO-8859-1 or as windows-1252.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fallback {
    /// U+DC80 + (b - 0x80), a lone low surrogate (Python's `surrogateescape`).
    Escape,
    /// `b as char`.
    Latin1,
    /// [`windows_1252`].
    Cp1252,
}

impl Fallback {
    /// The code point that the ill-formed byte `b` becomes.
    pub fn code_point(self, b: u8) -> u32 {
        assert!(b >= 0x80, "an ill-formed sequence holds no ASCII");
        match self {
            Fallback::Escape => 0xDC80 + u32::from(b - 0x80),
            Fallback::Latin1 => u32::from(char::from(b)),
            Fallback::Cp1252 => u32::from(windows_1252(b)),
        }
    }
}

/// The code points (lone surrogates included, under [`Fallback::Escape`]) that `fallback` makes
/// of `s`: its text, walked with `core::str::from_utf8` (whose `valid_up_to` and `error_len` give
/// the maximal subparts), each byte of each maximal subpart mapped by [`Fallback::code_point`].
pub fn fallback_code_points(s: &[u8], fallback: Fallback) -> Vec<u32> {
    let mut out = Vec::new();
    let mut rest = s;
    loop {
        match core::str::from_utf8(rest) {
            Ok(text) => {
                out.extend(text.chars().map(u32::from));
                return out;
            }
            Err(e) => {
                let (good, bad) = rest.split_at(e.valid_up_to());
                let text = core::str::from_utf8(good).expect("valid up to here");
                out.extend(text.chars().map(u32::from));
                // No error length: the input ends inside the sequence, all of it the subpart.
                let n = e.error_len().unwrap_or(bad.len());
                out.extend(bad[..n].iter().map(|&b| fallback.code_point(b)));
                rest = &bad[n..];
            }
        }
    }
}

/// UTF-16 of code points that may be lone surrogates (each then one unit).
pub fn utf16_of_code_points(cps: &[u32]) -> Vec<u16> {
    let mut out = Vec::new();
    for &cp in cps {
        match char::from_u32(cp) {
            Some(c) => out.extend_from_slice(c.encode_utf16(&mut [0; 2])),
            None => out.push(u16::try_from(cp).expect("a code point below U+10000")),
        }
    }
    out
}

/// A small deterministic generator (xorshift64*) of the tests' random inputs, so that a failure
/// reproduces from its seed.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed.max(1))
    }

    // Never ends: a generator's next value, not an iterator's `Option`.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// A random scalar value of a random encoded width, 1 to 4 bytes.
    pub fn scalar(&mut self) -> char {
        let ranges: [(u32, u32); 4] = [
            (0, 0x7F),
            (0x80, 0x7FF),
            (0x800, 0xFFFF),
            (0x1_0000, 0x10_FFFF),
        ];
        let (lo, hi) = ranges[self.below(4)];
        loop {
            let v = lo + self.below((hi - lo + 1) as usize) as u32;
            if let Some(c) = char::from_u32(v) {
                return c;
            }
        }
    }

    /// Random well-formed text of `chars` characters of mixed widths.
    pub fn text(&mut self, chars: usize) -> Vec<u8> {
        (0..chars)
            .map(|_| self.scalar())
            .collect::<String>()
            .into_bytes()
    }

    /// Random well-formed text of mixed widths, `len` bytes long (padded with ASCII where the
    /// last character would not fit).
    pub fn text_of_len(&mut self, len: usize) -> Vec<u8> {
        let mut s = String::with_capacity(len);
        while s.len() < len {
            let c = self.scalar();
            s.push(if s.len() + c.len_utf8() <= len {
                c
            } else {
                'a'
            });
        }
        s.into_bytes()
    }

    /// `s` with a few random bytes replaced, bits flipped, or bytes cut.
    pub fn mutate(&mut self, s: &mut Vec<u8>) {
        for _ in 0..1 + self.below(3) {
            if s.is_empty() {
                s.push(self.next() as u8);
                continue;
            }
            let i = self.below(s.len());
            match self.below(3) {
                0 => s[i] = self.next() as u8,
                1 => s[i] ^= 1 << self.below(8),
                _ => s.truncate(i),
            }
        }
    }
}
