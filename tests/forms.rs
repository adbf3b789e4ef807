//! The sibling forms of UTF-8 (src/form.rs, src/scalar/form.rs, src/ffi/form.rs): WTF-8,
//! CESU-8, Modified UTF-8 and RFC 2279, against their defining documents and independent
//! oracles.
//!
//! Expected bytes never come from the library: the examples of RFC 2279 section 4 and of the
//! forms' definitions; RFC 2279 section 2's table, applied as printed (bit patterns filled from
//! the value); and `char::encode_utf8` / `char::encode_utf16` to build CESU-8, Modified UTF-8
//! and WTF-8 from first principles.

mod common;

use std::collections::{HashMap, HashSet};

use common::{Rng, iterations, or_under_miri};
use utf8::ErrorKind::{self, *};
use utf8::ffi::utf8_status::{self, *};
use utf8::ffi::{
    FormArg, UTF8_FORM_MAX_BYTES, utf8_decode_next, utf8_decode_next_form, utf8_encode,
    utf8_encode_form, utf8_form, utf8_validate, utf8_validate_form,
};
use utf8::form::{self, Form};

const NON_STRICT: [Form; 4] = [Form::Wtf8, Form::Cesu8, Form::Mutf8, Form::Rfc2279];

// ---------------------------------------------------------------------------------------------
// Oracles

/// RFC 2279 section 2's table as printed: the UCS-4 ranges and the octets' bit patterns.
const RFC2279_TABLE: [(u32, u32, &str); 6] = [
    (0x0000_0000, 0x0000_007F, "0xxxxxxx"),
    (0x0000_0080, 0x0000_07FF, "110xxxxx 10xxxxxx"),
    (0x0000_0800, 0x0000_FFFF, "1110xxxx 10xxxxxx 10xxxxxx"),
    (
        0x0001_0000,
        0x001F_FFFF,
        "11110xxx 10xxxxxx 10xxxxxx 10xxxxxx",
    ),
    (
        0x0020_0000,
        0x03FF_FFFF,
        "111110xx 10xxxxxx 10xxxxxx 10xxxxxx 10xxxxxx",
    ),
    (
        0x0400_0000,
        0x7FFF_FFFF,
        "1111110x 10xxxxxx 10xxxxxx 10xxxxxx 10xxxxxx 10xxxxxx",
    ),
];

/// `v` encoded by RFC 2279 section 2's three steps: the row of the table, its high-order bits,
/// then the x bits "starting from the lower-order bits of the character value and putting
/// them first in the last octet of the sequence, then the next to last, etc.".
fn rfc2279_table(v: u32) -> Vec<u8> {
    let (_, _, pattern) = RFC2279_TABLE
        .iter()
        .find(|(lo, hi, _)| (*lo..=*hi).contains(&v))
        .expect("a value up to 0x7FFFFFFF");
    let octets: Vec<&str> = pattern.split(' ').collect();
    let mut bits = v;
    let mut out = vec![0u8; octets.len()];
    for (i, octet) in octets.iter().enumerate().rev() {
        for (bit, c) in octet.chars().rev().enumerate() {
            match c {
                '1' => out[i] |= 1 << bit,
                'x' => {
                    out[i] |= ((bits & 1) as u8) << bit;
                    bits >>= 1;
                }
                _ => {}
            }
        }
    }
    assert_eq!(bits, 0, "{v:#X} fits its row");
    out
}

fn utf8_of(c: char) -> Vec<u8> {
    c.to_string().into_bytes()
}

/// A UTF-16 code unit as UTF-8 would write it if it were a character: a surrogate takes the
/// 3-byte row of the table (WTF-8 spec, table 1: ED A0..BF 80..BF).
fn unit_bytes(unit: u16) -> Vec<u8> {
    match char::from_u32(u32::from(unit)) {
        Some(c) => utf8_of(c),
        None => rfc2279_table(u32::from(unit)),
    }
}

/// The bytes of `v` in `form` by the form's definition, or `None` where the form has none.
fn expected(v: u32, form: Form) -> Option<Vec<u8>> {
    match form {
        Form::Strict => char::from_u32(v).map(utf8_of),
        // WTF-8: UTF-8, plus each surrogate code point in 3 bytes.
        Form::Wtf8 => (v <= 0x10_FFFF).then(|| match char::from_u32(v) {
            Some(c) => utf8_of(c),
            None => rfc2279_table(v),
        }),
        // CESU-8: each UTF-16 code unit of the character in UTF-8's way. Modified UTF-8: the
        // same, and U+0000 as C0 80.
        Form::Cesu8 | Form::Mutf8 => {
            if form == Form::Mutf8 && v == 0 {
                return Some(vec![0xC0, 0x80]);
            }
            let mut units = [0u16; 2];
            let units = char::from_u32(v)?.encode_utf16(&mut units);
            Some(units.iter().flat_map(|&u| unit_bytes(u)).collect())
        }
        Form::Rfc2279 => (v <= 0x7FFF_FFFF).then(|| rfc2279_table(v)),
    }
}

/// The classification of the first ill-formed sequence of `s` in `form`, written again from
/// the table of src/scalar/form.rs's documentation (the library's own code is not consulted), for
/// input that starts with an ill-formed sequence other than a surrogate pairing error.
fn classify(s: &[u8], form: Form) -> ErrorKind {
    let paired = matches!(form, Form::Cesu8 | Form::Mutf8);
    match (form, s[0], s.get(1).copied()) {
        (_, 0x80..=0xBF, _) => UnexpectedContinuation,
        (Form::Mutf8, 0x00, _) => InvalidByte,
        (Form::Mutf8, 0xC0, Some(0x81..=0xBF)) => Overlong,
        (Form::Mutf8, 0xC0, _) => MissingContinuation,
        (_, 0xC0 | 0xC1, _) => Overlong,
        (_, 0xE0, Some(0x80..=0x9F)) => Overlong,
        (_, 0xED, Some(0xB0..=0xBF)) if paired => Surrogate,
        (_, 0xF0..=0xFF, _) if paired => InvalidByte,
        (_, 0xF0, Some(0x80..=0x8F)) => Overlong,
        (Form::Rfc2279, 0xF8, Some(0x80..=0x87)) | (Form::Rfc2279, 0xFC, Some(0x80..=0x83)) => {
            Overlong
        }
        (Form::Rfc2279, 0xFE | 0xFF, _) => InvalidByte,
        (Form::Wtf8, 0xF4, Some(0x90..=0xBF)) | (Form::Wtf8, 0xF5..=0xF7, _) => TooLarge,
        (Form::Wtf8, 0xF8..=0xFF, _) => InvalidByte,
        _ => MissingContinuation,
    }
}

/// A few short byte strings packed into one integer key: the length in the top byte.
fn key(s: &[u8]) -> u64 {
    s.iter().fold(s.len() as u64, |k, &b| k << 8 | u64::from(b))
}

/// Every well-formed character of `form` of at most three bytes, and every proper prefix of
/// length 1..=3 of any well-formed character (pairs and 4- to 6-byte sequences included),
/// built from [`expected`].
struct ShortGrammar {
    chars: HashMap<u64, u32>,
    prefixes: HashSet<u64>,
}

impl ShortGrammar {
    fn new(form: Form) -> Self {
        let mut chars = HashMap::new();
        let mut prefixes = HashSet::new();
        // A character's first three bytes depend on its value's high bits only: stepping by
        // 64 (4 bytes and pairs, whose lead surrogate drops the low 10 bits), 4096 (5 bytes)
        // and 2^18 (6 bytes) still meets every 3-byte prefix.
        let values = (0..=0xFFFF)
            .chain((0x1_0000..=0x1F_FFFF).step_by(64))
            .chain((0x20_0000..=0x3FF_FFFF).step_by(4096))
            .chain((0x400_0000..=0x7FFF_FFFF).step_by(1 << 18));
        for v in values {
            let Some(bytes) = expected(v, form) else {
                continue;
            };
            if bytes.len() <= 3 {
                chars.insert(key(&bytes), v);
            }
            for k in 1..bytes.len().min(4) {
                prefixes.insert(key(&bytes[..k]));
            }
        }
        ShortGrammar { chars, prefixes }
    }

    /// What `decode_next(s, form)` must give for `s` of one to three bytes: the character it
    /// starts with; or Truncated if all of `s` is a proper prefix of one; or the longest
    /// prefix of `s` that is a proper prefix of one (at least 1), classified.
    fn decode(&self, s: &[u8], form: Form) -> Result<(u32, usize), (ErrorKind, usize)> {
        for n in 1..=s.len() {
            if let Some(&v) = self.chars.get(&key(&s[..n])) {
                return Ok((v, n));
            }
        }
        if self.prefixes.contains(&key(s)) {
            return Err((Truncated, s.len()));
        }
        let len = (1..s.len())
            .rev()
            .find(|&k| self.prefixes.contains(&key(&s[..k])))
            .unwrap_or(1);
        Err((classify(s, form), len))
    }
}

/// The range of values whose encoding by the row of RFC 2279's table with `len` octets starts
/// with `p` (overlong encodings included: the row's bit patterns only), or `None` if `p` does
/// not fit those patterns.
fn row_values(p: &[u8], len: usize) -> Option<(u32, u32)> {
    // The table's rows have 1 to 6 octets, in order.
    let (_, _, pattern) = RFC2279_TABLE.get(len.checked_sub(1)?)?;
    if p.len() > len {
        return None;
    }
    let (mut lo, mut hi) = (0u32, 0u32);
    for (i, octet) in pattern.split(' ').enumerate() {
        for (j, c) in octet.chars().enumerate() {
            let bit = p.get(i).map(|&b| u32::from(b >> (7 - j) & 1));
            match (c, bit) {
                ('x', Some(bit)) => (lo, hi) = (lo << 1 | bit, hi << 1 | bit),
                ('x', None) => (lo, hi) = (lo << 1, hi << 1 | 1),
                ('0', Some(1)) | ('1', Some(0)) => return None,
                _ => {}
            }
        }
    }
    Some((lo, hi))
}

/// Whether `p` is a whole character of `form`, and its value: the value its bits give (one row
/// of the table, or two 3-byte halves of a UTF-16 pair), if [`expected`] writes it as `p`.
fn grammar_value(p: &[u8], form: Form) -> Option<u32> {
    let mut values = vec![row_values(p, p.len()).map(|(v, _)| v)];
    if p.len() == 6 {
        let unit = |half: &[u8]| row_values(half, 3).map(|(v, _)| v as u16);
        if let (Some(lead), Some(trail)) = (unit(&p[..3]), unit(&p[3..])) {
            let pair = char::decode_utf16([lead, trail])
                .next()
                .and_then(Result::ok);
            values.push(pair.map(u32::from));
        }
    }
    values
        .into_iter()
        .flatten()
        .find(|&v| expected(v, form).as_deref() == Some(p))
}

/// Whether `p` is a proper prefix of a character of `form` (of [`expected`]'s bytes for some
/// value). Within one row, the values whose bytes start with `p` are a range, and the values
/// the form writes in that row are ranges that start at 0 or at one of the boundaries below:
/// if any value of the range is one, its low end or one of these is.
fn grammar_prefix(p: &[u8], form: Form) -> bool {
    const STARTS: [u32; 6] = [0x80, 0x800, 0xE000, 0x1_0000, 0x20_0000, 0x400_0000];
    let writes =
        |v: u32, len: usize| expected(v, form).is_some_and(|e| e.len() == len && e.starts_with(p));
    for len in p.len() + 1..=6 {
        if let Some((lo, hi)) = row_values(p, len) {
            let mut candidates = STARTS.iter().copied().filter(|v| (lo..=hi).contains(v));
            if writes(lo, len) || candidates.any(|v| writes(v, len)) {
                return true;
            }
        }
    }
    // CESU-8 and Modified UTF-8 pairs: a lead surrogate's 3 bytes, then a trail surrogate's.
    if matches!(form, Form::Cesu8 | Form::Mutf8) && p.len() < 6 {
        let lead = row_values(&p[..p.len().min(3)], 3);
        let trail = p.get(3..).map_or(Some((0, 0xFFFF)), |t| row_values(t, 3));
        if let (Some((lead_lo, lead_hi)), Some((trail_lo, trail_hi))) = (lead, trail) {
            let (lead, trail) = (lead_lo.max(0xD800), trail_lo.max(0xDC00));
            if lead <= lead_hi.min(0xDBFF) && trail <= trail_hi.min(0xDFFF) {
                let v = 0x1_0000 + ((lead - 0xD800) << 10 | (trail - 0xDC00));
                return writes(v, 6);
            }
        }
    }
    false
}

/// What `decode_next(s, form)` must give for non-empty `s` of any length, from the forms'
/// definitions ([`expected`], [`classify`]; `common::classify` for strict UTF-8) and the table
/// of src/scalar/form.rs's documentation: the character `s` starts with; else Truncated if all of `s`
/// is a proper prefix of one; else the error of the longest prefix of `s` that is a proper
/// prefix of one (at least 1 byte), with the forms' surrogate pair rules.
fn grammar_decode(s: &[u8], form: Form) -> Result<(u32, usize), (ErrorKind, usize)> {
    let is_lead = |v: u32| (0xD800..=0xDBFF).contains(&v);
    if let Some((n, v)) =
        (1..=s.len().min(6)).find_map(|n| Some((n, grammar_value(&s[..n], form)?)))
    {
        // WTF-8 and RFC 2279: a lead then a trail surrogate is refused, the 6 bytes.
        let trail = || s.get(3..6).and_then(|t| grammar_value(t, form));
        if matches!(form, Form::Wtf8 | Form::Rfc2279)
            && is_lead(v)
            && trail().is_some_and(|t| (0xDC00..=0xDFFF).contains(&t))
        {
            return Err((Surrogate, 6));
        }
        // The same, cut inside the trail surrogate (ED, or ED B0..BF): the next byte may make
        // it a pair, so the input ends inside a sequence that starts at the lead surrogate.
        if matches!(form, Form::Wtf8 | Form::Rfc2279)
            && is_lead(v)
            && matches!(s[3..], [0xED] | [0xED, 0xB0..=0xBF])
        {
            return Err((Truncated, s.len()));
        }
        return Ok((v, n));
    }
    if grammar_prefix(s, form) {
        return Err((Truncated, s.len()));
    }
    // CESU-8 and Modified UTF-8: a whole lead surrogate not followed by a trail one.
    let lead = s.get(..3).and_then(|l| row_values(l, 3));
    if matches!(form, Form::Cesu8 | Form::Mutf8) && lead.is_some_and(|(v, _)| is_lead(v)) {
        return Err((Surrogate, 3));
    }
    // The proper prefixes of `s` are its first bytes up to some length: the longest one.
    let len = (1..s.len().min(6))
        .take_while(|&k| grammar_prefix(&s[..k], form))
        .last()
        .unwrap_or(1);
    let kind = match form {
        Form::Strict => common::classify(s),
        _ => classify(s, form),
    };
    Err((kind, len))
}

// ---------------------------------------------------------------------------------------------
// Helpers over the library

fn decode_all(s: &[u8], form: Form) -> Result<Vec<u32>, (usize, ErrorKind)> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < s.len() {
        match form::decode_next(&s[at..], form) {
            Ok((v, n)) => {
                out.push(v);
                at += n;
            }
            Err(m) => return Err((at, m.kind)),
        }
    }
    Ok(out)
}

fn arg(form: Form) -> FormArg {
    FormArg(form as i32)
}

fn c_validate(s: &[u8], form: FormArg) -> (utf8_status, usize) {
    let mut at = usize::MAX;
    // SAFETY: `s` is `s.len()` readable bytes; `at` is writable.
    let st = unsafe { utf8_validate_form(s.as_ptr().cast(), s.len(), form, &mut at) };
    (st, at)
}

fn c_decode(s: &[u8], form: FormArg) -> (utf8_status, u32, usize) {
    let (mut cp, mut n) = (u32::MAX, usize::MAX);
    // SAFETY: `s` is `s.len()` readable bytes; the out-parameters are writable.
    let st = unsafe { utf8_decode_next_form(s.as_ptr().cast(), s.len(), form, &mut cp, &mut n) };
    (st, cp, n)
}

fn c_encode(v: u32, form: FormArg) -> (utf8_status, Vec<u8>) {
    let mut out = [0u8; UTF8_FORM_MAX_BYTES];
    let mut n = usize::MAX;
    // SAFETY: `out` is UTF8_FORM_MAX_BYTES writable bytes; `n` is writable.
    let st = unsafe { utf8_encode_form(v, form, out.as_mut_ptr().cast(), out.len(), &mut n) };
    let written = if st == UTF8_OK {
        out[..n].to_vec()
    } else {
        vec![]
    };
    assert!(st != UTF8_OK || n <= UTF8_FORM_MAX_BYTES);
    if st != UTF8_OK && st != UTF8_ERR_INVALID_ARGUMENT {
        assert_eq!(n, 0, "a refused value reports no length");
    }
    (st, written)
}

fn status(r: Result<(), ErrorKind>) -> utf8_status {
    r.map_or_else(utf8_status::from, |()| UTF8_OK)
}

// ---------------------------------------------------------------------------------------------
// The forms' defining examples

#[test]
fn rfc2279_section_4_examples_in_every_form() {
    let examples: [(&[u8], &[u32]); 3] = [
        (
            b"\x41\xE2\x89\xA2\xCE\x91\x2E",
            &[0x41, 0x2262, 0x391, 0x2E],
        ),
        (
            b"\xED\x95\x9C\xEA\xB5\xAD\xEC\x96\xB4",
            &[0xD55C, 0xAD6D, 0xC5B4],
        ),
        (
            b"\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E",
            &[0x65E5, 0x672C, 0x8A9E],
        ),
    ];
    for form in Form::ALL {
        for (bytes, values) in examples {
            assert_eq!(form::validate(bytes, form), Ok(()), "{form:?}");
            assert_eq!(decode_all(bytes, form).as_deref(), Ok(values), "{form:?}");
            let encoded: Vec<u8> = values
                .iter()
                .flat_map(|&v| form::encode(v, form).unwrap().as_bytes().to_vec())
                .collect();
            assert_eq!(encoded, bytes, "{form:?}");
        }
    }
}

#[test]
fn rfc2279_five_and_six_byte_rows() {
    // The first and last value of each of the two rows RFC 3629 removed, and their bytes as the
    // table's bit patterns give them (worked by hand: 111110xx then four 10xxxxxx, etc.).
    let rows: [(u32, &[u8]); 4] = [
        (0x0020_0000, b"\xF8\x88\x80\x80\x80"),
        (0x03FF_FFFF, b"\xFB\xBF\xBF\xBF\xBF"),
        (0x0400_0000, b"\xFC\x84\x80\x80\x80\x80"),
        (0x7FFF_FFFF, b"\xFD\xBF\xBF\xBF\xBF\xBF"),
    ];
    for (v, bytes) in rows {
        assert_eq!(rfc2279_table(v), bytes, "the test's table oracle");
        assert_eq!(form::encode(v, Form::Rfc2279).unwrap().as_bytes(), bytes);
        assert_eq!(
            form::decode_next(bytes, Form::Rfc2279),
            Ok((v, bytes.len()))
        );
        assert_eq!(
            c_decode(bytes, arg(Form::Rfc2279)),
            (UTF8_OK, v, bytes.len())
        );
        // Above U+10FFFF in every other form.
        for form in [Form::Strict, Form::Wtf8, Form::Cesu8, Form::Mutf8] {
            assert!(form::validate(bytes, form).is_err(), "{form:?}");
            assert_eq!(form::encode(v, form), Err(TooLarge), "{form:?}");
        }
    }
    // Section 2: "The octet values FE and FF never appear"; the rows are exclusive (no overlong).
    for bad in [
        &b"\xFE"[..],
        b"\xFF",
        b"\xF8\x87\xBF\xBF\xBF",
        b"\xFC\x83\xBF\xBF\xBF\xBF",
    ] {
        let e = form::validate(bad, Form::Rfc2279).unwrap_err();
        let kind = if bad.len() == 1 {
            InvalidByte
        } else {
            Overlong
        };
        assert_eq!(
            (e.valid_up_to, e.kind, e.error_len),
            (0, kind, 1),
            "{bad:02X?}"
        );
    }
    assert_eq!(form::encode(0x8000_0000, Form::Rfc2279), Err(TooLarge));
    assert_eq!(form::encode(u32::MAX, Form::Rfc2279), Err(TooLarge));
}

#[test]
fn modified_utf8_writes_nul_as_c0_80_and_never_as_00() {
    let m = Form::Mutf8;
    assert_eq!(form::decode_next(b"\xC0\x80", m), Ok((0, 2)));
    assert_eq!(form::encode(0, m).unwrap().as_bytes(), b"\xC0\x80");
    assert_eq!(c_encode(0, arg(m)), (UTF8_OK, b"\xC0\x80".to_vec()));
    assert_eq!(form::validate(b"a\xC0\x80b", m), Ok(()));
    let e = form::validate(b"a\x00b", m).unwrap_err();
    assert_eq!((e.valid_up_to, e.kind, e.error_len), (1, InvalidByte, 1));
    // The one overlong form Modified UTF-8 defines; every other stays refused.
    for bad in [
        &b"\xC0\x81"[..],
        b"\xC0\xAF",
        b"\xC1\x81",
        b"\xE0\x80\x80",
        b"\xE0\x80\xAF",
    ] {
        assert_eq!(
            form::decode_next(bad, m).unwrap_err().kind,
            Overlong,
            "{bad:02X?}"
        );
    }
    // C0 80 is Modified UTF-8's alone: an overlong NUL everywhere else (RFC 2279 section 6).
    for form in [Form::Strict, Form::Wtf8, Form::Cesu8, Form::Rfc2279] {
        let m = form::decode_next(b"\xC0\x80", form).unwrap_err();
        assert_eq!((m.kind, m.len), (Overlong, 1), "{form:?}");
        assert_eq!(
            form::encode(0, form).unwrap().as_bytes(),
            b"\x00",
            "{form:?}"
        );
    }
}

#[test]
fn cesu8_writes_a_supplementary_character_as_a_surrogate_pair() {
    // U+1F4A9: UTF-16 D83D DCA9, each half in three bytes.
    let pair = b"\xED\xA0\xBD\xED\xB2\xA9";
    for form in [Form::Cesu8, Form::Mutf8] {
        assert_eq!(form::decode_next(pair, form), Ok((0x1F4A9, 6)), "{form:?}");
        assert_eq!(form::encode(0x1F4A9, form).unwrap().as_bytes(), pair);
        assert_eq!(c_encode(0x1F4A9, arg(form)), (UTF8_OK, pair.to_vec()));
        assert_eq!(c_decode(pair, arg(form)), (UTF8_OK, 0x1F4A9, 6));
        // The 4-byte form does not exist there.
        let m = form::decode_next("\u{1F4A9}".as_bytes(), form).unwrap_err();
        assert_eq!((m.kind, m.len), (InvalidByte, 1), "{form:?}");
        // Unpaired halves are refused, and a lone surrogate cannot be encoded.
        let m = form::decode_next(b"\xED\xA0\xBDx", form).unwrap_err();
        assert_eq!((m.kind, m.len), (Surrogate, 3), "{form:?}");
        let m = form::decode_next(b"\xED\xB2\xA9", form).unwrap_err();
        assert_eq!((m.kind, m.len), (Surrogate, 1), "{form:?}");
        assert_eq!(form::encode(0xD83D, form), Err(Surrogate));
        assert_eq!(form::encode(0xDCA9, form), Err(Surrogate));
        // A lead surrogate and a prefix of a trail one at the end: more input could complete it.
        for cut in 1..6 {
            let m = form::decode_next(&pair[..cut], form).unwrap_err();
            assert_eq!((m.kind, m.len), (Truncated, cut), "{form:?} {cut}");
        }
    }
    // Strict UTF-8 refuses it at the first surrogate.
    let m = form::decode_next(pair, Form::Strict).unwrap_err();
    assert_eq!((m.kind, m.len), (Surrogate, 1));
}

#[test]
fn wtf8_allows_unpaired_surrogates_only() {
    let w = Form::Wtf8;
    let lead = b"\xED\xA0\x80";
    assert_eq!(form::decode_next(lead, w), Ok((0xD800, 3)));
    assert_eq!(form::encode(0xD800, w).unwrap().as_bytes(), lead);
    assert_eq!(form::validate(lead, w), Ok(()));
    assert_eq!(c_validate(lead, arg(w)), (UTF8_OK, 3));
    assert_eq!(form::decode_next(b"\xED\xBF\xBF", w), Ok((0xDFFF, 3)));
    // A trail then a lead surrogate are no pair: both unpaired.
    assert_eq!(
        decode_all(b"\xED\xB0\x80\xED\xA0\x80", w),
        Ok(vec![0xDC00, 0xD800])
    );
    // Two lead surrogates in a row: both unpaired.
    assert_eq!(
        decode_all(b"\xED\xA0\x80\xED\xAF\xBF", w),
        Ok(vec![0xD800, 0xDBFF])
    );
    // A lead then a trail surrogate is a surrogate pair byte sequence: ill-formed, the 6 bytes.
    let pair = b"\xED\xA0\xBD\xED\xB2\xA9";
    for form in [Form::Wtf8, Form::Rfc2279] {
        let m = form::decode_next(pair, form).unwrap_err();
        assert_eq!((m.kind, m.len), (Surrogate, 6), "{form:?}");
        let e = form::validate(b"ab\xED\xA0\xBD\xED\xB2\xA9", form).unwrap_err();
        assert_eq!((e.valid_up_to, e.kind, e.error_len), (2, Surrogate, 6));
        assert_eq!(c_validate(pair, arg(form)), (UTF8_ERR_SURROGATE, 0));
        assert_eq!(c_decode(pair, arg(form)), (UTF8_ERR_SURROGATE, 0xFFFD, 6));
        // The character's own form is the 4-byte one.
        assert_eq!(
            form::decode_next("\u{1F4A9}".as_bytes(), form),
            Ok((0x1F4A9, 4))
        );
    }
    // A lead surrogate followed by the start of what may be a trail surrogate (ED, or ED
    // B0..BF) and the end of the input: the next byte decides between an unpaired lead
    // surrogate and a pair byte sequence, so the input ends inside a sequence that starts at
    // the lead surrogate (issue 47: Truncated at 3 let a caller carry over ED B2 alone, and
    // ED B2 A9 then decoded as an unpaired trail surrogate).
    for cut in [&b"\xED\xA0\xBD\xED"[..], b"\xED\xA0\xBD\xED\xB2"] {
        for form in [Form::Wtf8, Form::Rfc2279] {
            let m = form::decode_next(cut, form).unwrap_err();
            assert_eq!(
                (m.kind, m.len),
                (Truncated, cut.len()),
                "{cut:02X?} {form:?}"
            );
            let e = form::validate(&[b"ab", cut].concat(), form).unwrap_err();
            assert_eq!(
                (e.valid_up_to, e.kind, e.error_len),
                (2, Truncated, cut.len())
            );
            assert_eq!(c_validate(cut, arg(form)), (UTF8_ERR_TRUNCATED, 0));
        }
    }
    // Followed by anything else, even the rest of the input, the lead surrogate is unpaired.
    assert_eq!(form::decode_next(b"\xED\xA0\xBD", w), Ok((0xD83D, 3)));
    assert_eq!(form::decode_next(b"\xED\xA0\xBDA", w), Ok((0xD83D, 3)));
    // ED 9F BF is U+D7FF, not a surrogate.
    assert_eq!(
        form::decode_next(b"\xED\xA0\xBD\xED\x9F", w),
        Ok((0xD83D, 3))
    );
    let e = form::validate(b"\xED\xA0\xBD\xED\x9F", w).unwrap_err();
    assert_eq!((e.valid_up_to, e.kind, e.error_len), (3, Truncated, 2));
}

// ---------------------------------------------------------------------------------------------
// Every value each form allows, and refusal of the others

/// `v` encoded, decoded and validated in `form`, in Rust and in C, against [`expected`].
fn assert_round_trip(v: u32, form: Form) {
    let want = expected(v, form);
    match (&want, form::encode(v, form)) {
        (Some(bytes), Ok(e)) => {
            assert_eq!(e.as_bytes(), bytes, "encode {v:#X} in {form:?}");
            assert_eq!(
                form::decode_next(bytes, form),
                Ok((v, bytes.len())),
                "decode {v:#X} in {form:?}"
            );
            assert_eq!(form::validate(bytes, form), Ok(()), "{v:#X} in {form:?}");
            assert_eq!(c_encode(v, arg(form)), (UTF8_OK, bytes.clone()));
            assert_eq!(c_decode(bytes, arg(form)), (UTF8_OK, v, bytes.len()));
        }
        (None, Err(kind)) => {
            // The largest value of each form: RFC 2279's 31 bits, else U+10FFFF.
            let max = if form == Form::Rfc2279 {
                0x7FFF_FFFF
            } else {
                0x10_FFFF
            };
            let want_kind = if v > max { TooLarge } else { Surrogate };
            assert_eq!(kind, want_kind, "{v:#X} in {form:?}");
            assert_eq!(c_encode(v, arg(form)), (kind.into(), vec![]));
        }
        (want, got) => panic!("{v:#X} in {form:?}: expected {want:02X?}, got {got:?}"),
    }
}

#[test]
#[cfg_attr(miri, ignore = "1.1 million values per form: too slow to interpret")]
fn every_value_up_to_u10ffff_round_trips_in_every_form() {
    for form in Form::ALL {
        for v in (0..=0x11_0000).step_by(common::sweep_step()) {
            assert_round_trip(v, form);
        }
    }
}

#[test]
fn sampled_values_round_trip_in_every_form() {
    // Every boundary of every form with its neighbours, and random values of all 32 bits.
    let boundaries = [
        0,
        0x7F,
        0x80,
        0x7FF,
        0x800,
        0xD7FF,
        0xD800,
        0xDBFF,
        0xDC00,
        0xDFFF,
        0xE000,
        0xFFFF,
        0x1_0000,
        0x10_FFFF,
        0x11_0000,
        0x1F_FFFF,
        0x20_0000,
        0x3FF_FFFF,
        0x400_0000,
        0x7FFF_FFFF,
        0x8000_0000,
        u32::MAX,
    ];
    // Under Miri, each boundary and its two neighbours.
    let reach = or_under_miri(4096, 1);
    let mut rng = Rng::new(0x2279);
    let random = (0..iterations(200_000)).map(|_| rng.next() as u32 >> rng.below(32));
    for v in boundaries
        .iter()
        .flat_map(|&b| b.saturating_sub(reach)..=b.saturating_add(reach))
        .chain(random)
    {
        for form in Form::ALL {
            assert_round_trip(v, form);
        }
    }
}

#[test]
#[cfg_attr(miri, ignore = "a dense sweep of 31 bits: too slow to interpret")]
fn rfc2279_round_trips_densely_across_31_bits() {
    // Every value within 2^16 of each row boundary, and a stride through every row that
    // meets every lead byte and every second byte.
    for (lo, hi, _) in RFC2279_TABLE {
        for v in (lo..=lo.saturating_add(1 << 16)).chain(hi.saturating_sub(1 << 16)..=hi) {
            assert_round_trip(v, Form::Rfc2279);
        }
        for v in (lo..=hi).step_by(((hi - lo) / 50_000).max(1) as usize) {
            assert_round_trip(v, Form::Rfc2279);
        }
    }
}

#[test]
#[cfg_attr(miri, ignore = "16 million inputs per form: too slow to interpret")]
fn every_input_of_one_and_two_bytes_and_of_three_by_class_in_every_form() {
    for form in NON_STRICT {
        let grammar = ShortGrammar::new(form);
        let mut s = [0u8; 3];
        for len in 1..=3 {
            for n in (0..1u32 << (8 * len)).step_by(common::sweep_step()) {
                for (i, b) in s[..len].iter_mut().enumerate() {
                    *b = (n >> (8 * i)) as u8;
                }
                let s = &s[..len];
                // After one ASCII byte, a 3-byte input is a 2-byte one, all of which were
                // checked already: two such bytes stand for the other 126. A third byte decides
                // by its class only (every value's bytes are decoded in
                // every_value_up_to_u10ffff_round_trips_in_every_form): the bytes of
                // INTERESTING stand for the others there.
                if len == 3
                    && ((s[0] < 0x80 && s[0] != 0x00 && s[0] != 0x41)
                        || !INTERESTING.contains(&s[2]))
                {
                    continue;
                }
                let want = grammar.decode(s, form);
                let got = form::decode_next(s, form).map_err(|m| (m.kind, m.len));
                assert_eq!(got, want, "decode {s:02X?} in {form:?}");
                // Validation agrees with a decoding loop over the same grammar.
                let mut at = 0;
                let want_validate = loop {
                    if at == s.len() {
                        break Ok(());
                    }
                    match grammar.decode(&s[at..], form) {
                        Ok((_, n)) => at += n,
                        Err((kind, len)) => break Err((at, kind, len)),
                    }
                };
                let got_validate =
                    form::validate(s, form).map_err(|e| (e.valid_up_to, e.kind, e.error_len));
                assert_eq!(got_validate, want_validate, "validate {s:02X?} in {form:?}");
            }
        }
    }
}

#[test]
fn every_cut_or_broken_sequence_of_sampled_values() {
    // Each well-formed sequence cut after k bytes is Truncated (the input ends inside it), and
    // followed there by a byte that cannot continue it is an error over the k bytes before
    // that byte (MissingContinuation) -- except in a CESU-8 / Modified UTF-8 pair, whose
    // lead surrogate, once complete, is the unpaired surrogate (Surrogate, 3 bytes).
    let mut rng = Rng::new(2);
    let samples: Vec<u32> = [
        0x80, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFFFF, 0x1_0000, 0x10_FFFF,
    ]
    .into_iter()
    .chain([0x1F_FFFF, 0x20_0000, 0x3FF_FFFF, 0x400_0000, 0x7FFF_FFFF])
    .chain((0..iterations(2_000)).map(|_| rng.next() as u32 >> rng.below(32)))
    .collect();
    for form in Form::ALL {
        for &v in &samples {
            let Some(bytes) = expected(v, form) else {
                continue;
            };
            let pair = bytes.len() == 6 && matches!(form, Form::Cesu8 | Form::Mutf8);
            for k in 1..bytes.len() {
                let cut = &bytes[..k];
                let m = form::decode_next(cut, form).unwrap_err();
                assert_eq!((m.kind, m.len), (Truncated, k), "{cut:02X?} in {form:?}");
                for breaker in [0x00, 0x41, 0x7F, 0xC2, 0xE1, 0xED, 0xF0, 0xFE] {
                    let mut s = cut.to_vec();
                    s.push(breaker);
                    let want = if pair && k >= 3 {
                        (Surrogate, 3)
                    } else {
                        (MissingContinuation, k)
                    };
                    // In a pair, ED after the lead surrogate may begin the trail: not a breaker.
                    if pair && k == 3 && breaker == 0xED {
                        continue;
                    }
                    let m = form::decode_next(&s, form).unwrap_err();
                    assert_eq!((m.kind, m.len), want, "{s:02X?} in {form:?}");
                }
            }
        }
    }
}

/// Well-formed text of `form`: random values of every width the form has, with a lead
/// surrogate never directly before a trail one. Returns the bytes and the values.
fn random_text(rng: &mut Rng, form: Form, chars: usize) -> (Vec<u8>, Vec<u32>) {
    let mut bytes = Vec::new();
    let mut values: Vec<u32> = Vec::new();
    while values.len() < chars {
        let v = match rng.below(6) {
            0 => rng.below(0x80) as u32,
            1 => 0xD800 + rng.below(0x800) as u32,
            2 => rng.below(0x1_0000) as u32,
            3 => 0x1_0000 + rng.below(0x10_0000) as u32,
            _ => rng.next() as u32 >> rng.below(32),
        };
        let after_lead = values.last().is_some_and(|p| (0xD800..=0xDBFF).contains(p));
        if after_lead && (0xDC00..=0xDFFF).contains(&v) {
            continue;
        }
        if let Some(b) = expected(v, form) {
            bytes.extend(b);
            values.push(v);
        }
    }
    (bytes, values)
}

#[test]
fn random_text_decodes_and_mutations_follow_the_grammar() {
    let mut rng = Rng::new(6);
    for _ in 0..iterations(20_000) {
        for form in Form::ALL {
            let chars = 1 + rng.below(12);
            let (mut s, values) = random_text(&mut rng, form, chars);
            assert_eq!(decode_all(&s, form), Ok(values), "{s:02X?} in {form:?}");
            assert_eq!(form::validate(&s, form), Ok(()));
            rng.mutate(&mut s);
            // Each step, in Rust and in C, is the grammar's; validation stops at the grammar's
            // first error, with its kind and length.
            let mut at = 0;
            let first_error = loop {
                let Some(rest) = s.get(at..).filter(|r| !r.is_empty()) else {
                    break None;
                };
                let want = grammar_decode(rest, form);
                let ctx = || format!("{rest:02X?} at {at} of {s:02X?} in {form:?}");
                assert_eq!(
                    form::decode_next(rest, form).map_err(|m| (m.kind, m.len)),
                    want,
                    "{}",
                    ctx()
                );
                let (st, cp, n) = c_decode(rest, arg(form));
                match want {
                    Ok((v, len)) => {
                        assert_eq!((st, cp, n), (UTF8_OK, v, len), "{}", ctx());
                        at += len;
                    }
                    Err((kind, len)) => {
                        assert_eq!((st, cp, n), (status(Err(kind)), 0xFFFD, len), "{}", ctx());
                        break Some((at, kind, len));
                    }
                }
            };
            let got = form::validate(&s, form).err();
            assert_eq!(
                got.map(|e| (e.valid_up_to, e.kind, e.error_len)),
                first_error,
                "{s:02X?} in {form:?}"
            );
            let (st, good) = c_validate(&s, arg(form));
            let want_c =
                first_error.map_or((UTF8_OK, s.len()), |(at, kind, _)| (status(Err(kind)), at));
            assert_eq!((st, good), want_c, "{s:02X?} in {form:?}");
        }
    }
}

#[test]
fn surrogate_pairs_between_forms() {
    // The same supplementary characters as pairs and as 4 bytes: each form takes one of them.
    for v in [0x1_0000, 0x1F4A9, 0x10_FFFF] {
        let four = utf8_of(char::from_u32(v).unwrap());
        let six = expected(v, Form::Cesu8).unwrap();
        assert_eq!(six.len(), 6);
        for form in Form::ALL {
            let pairs = matches!(form, Form::Cesu8 | Form::Mutf8);
            assert_eq!(form::validate(&four, form).is_ok(), !pairs, "{form:?}");
            assert_eq!(form::validate(&six, form).is_ok(), pairs, "{form:?}");
        }
    }
}

#[test]
fn any_utf16_round_trips_through_wtf8() {
    // The WTF-8 spec's "convert from potentially ill-formed UTF-16 to WTF-8": decode the
    // units with `char::decode_utf16` (an unpaired surrogate comes back as the error's unit),
    // encode each code point; then back: decode the WTF-8, and write each value as UTF-16.
    let mut rng = Rng::new(16);
    for _ in 0..iterations(20_000) {
        let units: Vec<u16> = (0..rng.below(16))
            .map(|_| match rng.below(4) {
                0 => 0xD800 + rng.below(0x400) as u16,
                1 => 0xDC00 + rng.below(0x400) as u16,
                2 => rng.below(0x80) as u16,
                _ => rng.next() as u16,
            })
            .collect();
        let points: Vec<u32> = char::decode_utf16(units.iter().copied())
            .map(|r| r.map_or_else(|e| u32::from(e.unpaired_surrogate()), u32::from))
            .collect();
        let wtf8: Vec<u8> = points
            .iter()
            .flat_map(|&v| form::encode(v, Form::Wtf8).unwrap().as_bytes().to_vec())
            .collect();
        assert_eq!(form::validate(&wtf8, Form::Wtf8), Ok(()), "{units:04X?}");
        let decoded = decode_all(&wtf8, Form::Wtf8).unwrap();
        assert_eq!(decoded, points);
        let mut back = Vec::new();
        for v in decoded {
            match char::from_u32(v) {
                Some(c) => back.extend(c.encode_utf16(&mut [0; 2]).iter()),
                None => back.push(v as u16),
            }
        }
        assert_eq!(back, units);
    }
}

// ---------------------------------------------------------------------------------------------
// UTF8_FORM_STRICT is the core API

#[test]
fn strict_form_is_the_core_api() {
    let mut rng = Rng::new(3629);
    // Every byte alone (under Miri, every 5th: each class still meets them), and random text.
    let bytes = (0..=255u8).step_by(or_under_miri(1, 5));
    let mut inputs: Vec<Vec<u8>> = bytes.map(|b| vec![b]).collect();
    for _ in 0..iterations(50_000) {
        let chars = 1 + rng.below(8);
        let mut s = rng.text(chars);
        rng.mutate(&mut s);
        inputs.push(s);
    }
    let strict = arg(Form::Strict);
    for s in &inputs {
        assert_eq!(form::decode_next(s, Form::Strict), utf8::decode_next(s));
        assert_eq!(form::validate(s, Form::Strict), utf8::validate(s));
        let (mut cp, mut n, mut at) = (0, 0, 0);
        // SAFETY: `s` is `s.len()` readable bytes; the out-parameters are writable.
        let (core_decode, core_validate) = unsafe {
            (
                utf8_decode_next(s.as_ptr().cast(), s.len(), &mut cp, &mut n),
                utf8_validate(s.as_ptr().cast(), s.len(), &mut at),
            )
        };
        assert_eq!(c_decode(s, strict), (core_decode, cp, n));
        assert_eq!(c_validate(s, strict), (core_validate, at));
    }
    let values = (0..or_under_miri(0x11_0100, 0x40)).chain([0x7FF, 0x800, 0xFFFF, 0x1_0000]);
    let values = values.chain([0x10_FFFF, 0x11_0000, 0xD800, 0xDFFF, u32::MAX]);
    for v in values {
        let mut out = [0u8; 4];
        let mut n = usize::MAX;
        // SAFETY: `out` is 4 writable bytes; `n` is writable.
        let st = unsafe { utf8_encode(v, out.as_mut_ptr().cast(), 4, &mut n) };
        let core = if st == UTF8_OK {
            out[..n].to_vec()
        } else {
            vec![]
        };
        assert_eq!(c_encode(v, strict), (st, core), "{v:#X}");
    }
}

// ---------------------------------------------------------------------------------------------
// The C arguments

#[test]
fn an_unknown_form_is_an_invalid_argument_and_touches_nothing() {
    // The C names and the Rust forms agree (the other tests pass `Form as i32` to C).
    let names = [
        (utf8_form::UTF8_FORM_STRICT, Form::Strict, 0),
        (utf8_form::UTF8_FORM_WTF8, Form::Wtf8, 1),
        (utf8_form::UTF8_FORM_CESU8, Form::Cesu8, 2),
        (utf8_form::UTF8_FORM_MUTF8, Form::Mutf8, 3),
        (utf8_form::UTF8_FORM_RFC2279, Form::Rfc2279, 4),
    ];
    for (c, rust, value) in names {
        assert_eq!(
            (c as i32, rust as i32, Form::ALL[value]),
            (value as i32, value as i32, rust)
        );
    }
    for bad in [-1, 5, 6, 100, i32::MIN, i32::MAX] {
        let form = FormArg(bad);
        assert_eq!(
            c_validate(b"abc", form),
            (UTF8_ERR_INVALID_ARGUMENT, usize::MAX)
        );
        assert_eq!(
            c_decode(b"abc", form),
            (UTF8_ERR_INVALID_ARGUMENT, u32::MAX, usize::MAX)
        );
        let mut out = [0x55u8; 6];
        let mut n = usize::MAX;
        // SAFETY: `out` is 6 writable bytes; `n` is writable; a NULL input is refused first.
        unsafe {
            assert_eq!(
                utf8_encode_form(0x41, form, out.as_mut_ptr().cast(), 6, &mut n),
                UTF8_ERR_INVALID_ARGUMENT
            );
            // Checked before the pointers.
            assert_eq!(
                utf8_validate_form(core::ptr::null(), 1, form, core::ptr::null_mut()),
                UTF8_ERR_INVALID_ARGUMENT
            );
        }
        assert_eq!((out, n), ([0x55; 6], usize::MAX));
    }
}

#[test]
fn pointers_buffers_and_size_queries() {
    for form in Form::ALL {
        let a = arg(form);
        let (mut cp, mut n, mut at) = (7u32, usize::MAX, usize::MAX);
        // SAFETY: NULL with a length is refused untouched; (NULL, 0) is the empty input; the
        // out-parameters are live locals or NULL.
        unsafe {
            assert_eq!(
                utf8_validate_form(core::ptr::null(), 3, a, &mut at),
                UTF8_ERR_NULL_POINTER
            );
            assert_eq!(
                utf8_decode_next_form(core::ptr::null(), 3, a, &mut cp, &mut n),
                UTF8_ERR_NULL_POINTER
            );
            assert_eq!((cp, n, at), (7, usize::MAX, usize::MAX));
            assert_eq!(
                utf8_validate_form(core::ptr::null(), 0, a, &mut at),
                UTF8_OK
            );
            assert_eq!(at, 0);
            assert_eq!(
                utf8_decode_next_form(core::ptr::null(), 0, a, &mut cp, &mut n),
                UTF8_ERR_TRUNCATED
            );
            assert_eq!((cp, n), (0xFFFD, 0));
            assert_eq!(
                utf8_decode_next_form(
                    b"a".as_ptr().cast(),
                    1,
                    a,
                    core::ptr::null_mut(),
                    core::ptr::null_mut()
                ),
                UTF8_OK
            );
            assert_eq!(
                utf8_encode_form(0x41, a, core::ptr::null_mut(), 1, &mut n),
                UTF8_ERR_NULL_POINTER
            );
        }
        // Size queries and short buffers: nothing written, the size needed reported.
        let v = if form == Form::Rfc2279 {
            0x7FFF_FFFF
        } else {
            0x1F4A9
        };
        let want = expected(v, form).unwrap();
        let mut out = [0xAAu8; 6];
        for cap in 0..want.len() {
            let mut n = 0;
            // SAFETY: `out` has at least `cap` writable bytes; `n` is writable.
            let st = unsafe { utf8_encode_form(v, a, out.as_mut_ptr().cast(), cap, &mut n) };
            assert_eq!(
                (st, n),
                (UTF8_ERR_BUFFER_TOO_SMALL, want.len()),
                "{form:?} {cap}"
            );
            assert_eq!(out, [0xAA; 6]);
        }
        let mut n = 0;
        // SAFETY: (NULL, 0) is a size query; `n` is writable.
        let st = unsafe { utf8_encode_form(v, a, core::ptr::null_mut(), 0, &mut n) };
        assert_eq!((st, n), (UTF8_ERR_BUFFER_TOO_SMALL, want.len()));
    }
}

// ---------------------------------------------------------------------------------------------
// Truncation is a promise about what follows (issue 47, item 2)

/// Bytes at which the forms' grammars change their minds: ASCII and 00, the edges of the
/// continuation byte's ranges, lead bytes of each width and those around ED (surrogates),
/// F4 (U+10FFFF) and the RFC 2279 and invalid ones.
const INTERESTING: [u8; 24] = [
    0x00, 0x41, 0x7F, 0x80, 0x83, 0x84, 0x87, 0x88, 0x8F, 0x90, 0x9F, 0xA0, 0xAF, 0xB0, 0xBF, 0xC0,
    0xC2, 0xE0, 0xED, 0xF0, 0xF4, 0xF8, 0xFC, 0xFF,
];

/// Where `form::validate` says `s` goes wrong first, with the kind: `None` if it is well-formed.
fn first_error(s: &[u8], form: Form) -> Option<(usize, ErrorKind)> {
    form::validate(s, form)
        .err()
        .map(|e| (e.valid_up_to, e.kind))
}

/// The promise that makes Truncated a carry-over (a caller keeps the bytes from `p` and
/// converts them again with what follows): if `s` is Truncated at `p`, `s` followed by any
/// byte has no error before `p`, and neither has decoding from `p` anything but the bytes it
/// carried over and more. Checked with `utf8_validate_form` as C calls it, too.
fn check_truncation_is_final(s: &[u8], form: Form, ext: &mut Vec<u8>) -> usize {
    let Some((p, Truncated)) = first_error(s, form) else {
        return 0;
    };
    assert_eq!(
        c_validate(s, arg(form)),
        (UTF8_ERR_TRUNCATED, p),
        "{s:02X?} {form:?}"
    );
    for b in 0..=255u8 {
        ext.clear();
        ext.extend_from_slice(s);
        ext.push(b);
        if let Some((q, kind)) = first_error(ext, form) {
            assert!(
                q >= p,
                "{s:02X?} is Truncated at {p} in {form:?}, but {ext:02X?} is {kind:?} at {q}"
            );
        }
    }
    256
}

#[test]
#[cfg_attr(miri, ignore = "millions of inputs per form: too slow to interpret")]
fn truncated_input_extended_by_a_byte_has_no_earlier_error_in_every_form() {
    let mut ext = Vec::with_capacity(8);
    for form in Form::ALL {
        let mut checked = 0;
        // Every input of 1 and 2 bytes, and of 3 as above (after one ASCII byte, only 00 and
        // 41 stand for the others; a third byte of INTERESTING for the others).
        let mut s = [0u8; 3];
        for len in 1..=3 {
            for n in (0..1u32 << (8 * len)).step_by(common::sweep_step()) {
                for (i, b) in s[..len].iter_mut().enumerate() {
                    *b = (n >> (8 * i)) as u8;
                }
                if len == 3
                    && ((s[0] < 0x80 && s[0] != 0x00 && s[0] != 0x41)
                        || !INTERESTING.contains(&s[2]))
                {
                    continue;
                }
                checked += check_truncation_is_final(&s[..len], form, &mut ext);
            }
        }
        // Inputs of 4 to 6 bytes from the interesting bytes: 4 bytes all of them, 5 and 6
        // bytes those that start with a lead surrogate or a 5- or 6-byte lead (the only
        // sequences longer than 4 bytes).
        let n = INTERESTING.len();
        for len in 4..=6 {
            let starts: &[&[u8]] = if len == 4 {
                &[&[]]
            } else {
                &[&[0xF8], &[0xFC], &[0xED, 0xA0], &[0xED, 0xAF]]
            };
            for start in starts {
                let free = len - start.len();
                for first in (0..n.pow(free as u32)).step_by(common::sweep_step()) {
                    let mut k = first;
                    let mut s = start.to_vec();
                    s.extend((0..free).map(|_| {
                        let b = INTERESTING[k % n];
                        k /= n;
                        b
                    }));
                    checked += check_truncation_is_final(&s, form, &mut ext);
                }
            }
        }
        // Lead surrogates and every prefix of a trail surrogate after them.
        for lead in [[0xED, 0xA0, 0x80], [0xED, 0xAF, 0xBF]] {
            for trail in [&[0xED][..], &[0xED, 0xB0], &[0xED, 0xBF]] {
                for before in [&[][..], b"A", &[0xC2, 0xA9]] {
                    let s = [before, &lead, trail].concat();
                    checked += check_truncation_is_final(&s, form, &mut ext);
                }
            }
        }
        assert!(checked > 10_000, "{form:?}: {checked} extensions checked");
    }
}
