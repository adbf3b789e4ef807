//! The sibling forms of UTF-8: WTF-8, CESU-8, Java's Modified UTF-8 and the original UTF-8 of
//! RFC 2279, next to the strict RFC 3629 form the rest of the library implements.
//!
//! Each form is a grammar written as a table of lead bytes, as [`super::decode`] writes RFC
//! 3629's, plus one rule for surrogate byte sequences (ED A0..BF 80..BF), which is where the
//! forms differ most. Sources:
//!
//! - WTF-8: Simon Sapin, "The WTF-8 encoding" (<https://simonsapin.github.io/wtf-8/>):
//!   generalized UTF-8 (RFC 3629's table with ED A0..BF allowed), except that a *surrogate
//!   pair byte sequence*, a lead surrogate (ED A0..AF xx) directly followed by a trail
//!   surrogate (ED B0..BF xx), is ill-formed: that character must be written in 4 bytes.
//! - CESU-8: Unicode Technical Report #26 (<https://www.unicode.org/reports/tr26/>): UTF-8 for
//!   the BMP, a supplementary character as its UTF-16 surrogate pair, each half in 3 bytes
//!   (6 in all); no 4-byte form. Unpaired surrogates are ill-formed, as in UTF-16.
//! - Modified UTF-8: Java's `java.io.DataInput` ("Modified UTF-8"): CESU-8, except that
//!   U+0000 is C0 80 and the byte 00 never appears. (Java's own decoder also passes unpaired
//!   surrogates through; this form follows libutf8's issue 6, "CESU-8, and U+0000 as C0 80",
//!   and refuses them as CESU-8 does.)
//! - RFC 2279, section 2: 1 to 6 bytes for UCS-4 values up to 0x7FFFFFFF, the shortest form
//!   only ("there is only one valid way to encode a given UCS-4 character"), FE and FF never
//!   appear. It predates the exclusion of surrogates from UTF-8: its table and decoding
//!   algorithm give every 3-byte value, a lone surrogate included. But a surrogate *pair*
//!   "need\[s\] special treatment: the UTF-16 transformation must be undone", so a lead and a
//!   trail surrogate in a row would be a second encoding of one UCS-4 character, which the
//!   uniqueness rule forbids: refused, as in WTF-8. (WTF-8 is, in effect, RFC 2279 cut down
//!   to U+10FFFF.)
//!
//! Errors use the core's [`ErrorKind`]s, with the length of the maximal subpart in the form's
//! own grammar (at least 1). A subpart never takes in the lead byte of a following character,
//! except that the WTF-8 and RFC 2279 pair error covers both of its halves (kind, length: input):
//!
//! - UnexpectedContinuation, 1: 80..BF where a character must start (all forms).
//! - Overlong, 1: C0, C1 (but C0 80 in Modified UTF-8); E0 80..9F; F0 80..8F (WTF-8,
//!   RFC 2279); F8 80..87 and FC 80..83 (RFC 2279).
//! - Surrogate, 6 (the pair): a lead surrogate directly followed by a trail surrogate (WTF-8,
//!   RFC 2279).
//! - Surrogate, 1: a trail surrogate (ED B0..BF) not preceded by a lead one (CESU-8, MUTF-8).
//! - Surrogate, 3 (the lead surrogate): a lead surrogate not followed by a trail one (CESU-8,
//!   MUTF-8).
//! - TooLarge, 1: F4 90..BF; F5..F7 (WTF-8).
//! - InvalidByte, 1: F8..FF (WTF-8); F0..FF, there being no 4-byte form (CESU-8, MUTF-8); 00,
//!   U+0000 being C0 80 (MUTF-8); FE, FF (RFC 2279).
//! - MissingContinuation, the bytes before it: a lead byte followed too early by a byte that
//!   is not 80..BF (all forms).
//! - Truncated, the rest: the input ends inside a sequence that is valid so far (all forms; in
//!   CESU-8 and MUTF-8, a lead surrogate and a prefix of a trail one; in WTF-8 and RFC 2279,
//!   a lead surrogate followed by ED or ED B0..BF, which one more byte can make a pair, so
//!   that a caller carrying the rest over to the next input decodes what one input gives).
//!
//! [`Form::Strict`] is the rest of the library: [`crate::decode_next`], [`crate::validate`]
//! and [`crate::encode`], called as they are.

use super::error::{ErrorKind, Malformed};

/// A form of UTF-8. The C API numbers them as `utf8_form` does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Form {
    /// RFC 3629: U+0000..U+10FFFF without surrogates, 1 to 4 bytes.
    Strict,
    /// WTF-8: RFC 3629 plus unpaired surrogate code points, 3 bytes each.
    Wtf8,
    /// CESU-8: a supplementary character as a surrogate pair of two 3-byte sequences.
    Cesu8,
    /// Java's Modified UTF-8: CESU-8 with U+0000 as C0 80, never as a 00 byte.
    Mutf8,
    /// RFC 2279: 31-bit values up to 0x7FFFFFFF in 1 to 6 bytes.
    Rfc2279,
}

impl Form {
    /// Every form, in the order of their C values (0..=4).
    pub const ALL: [Form; 5] = [
        Form::Strict,
        Form::Wtf8,
        Form::Cesu8,
        Form::Mutf8,
        Form::Rfc2279,
    ];

    /// The largest value the form encodes: U+10FFFF, or 0x7FFFFFFF for RFC 2279.
    pub fn max_value(self) -> u32 {
        match self {
            Form::Rfc2279 => 0x7FFF_FFFF,
            _ => 0x10_FFFF,
        }
    }

    /// Whether every RFC 3629 string is well-formed in this form, character for character:
    /// validation can then run the SIMD kernels up to each place the form differs.
    pub(crate) fn extends_strict(self) -> bool {
        matches!(self, Form::Wtf8 | Form::Rfc2279)
    }

    /// How the form treats surrogate byte sequences; `None` for the strict form, which
    /// refuses them in its table.
    fn surrogates(self) -> Option<Surrogates> {
        match self {
            Form::Strict => None,
            Form::Wtf8 | Form::Rfc2279 => Some(Surrogates::Unpaired),
            Form::Cesu8 | Form::Mutf8 => Some(Surrogates::Paired),
        }
    }
}

/// How a form reads surrogate byte sequences (ED A0..BF 80..BF).
#[derive(Clone, Copy)]
enum Surrogates {
    /// Each is a code point of its own, but a lead surrogate directly followed by a trail
    /// surrogate is ill-formed (the pair's character has a 4-byte form): WTF-8, RFC 2279.
    Unpaired,
    /// Only as a lead then a trail surrogate, six bytes for one supplementary character:
    /// CESU-8, Modified UTF-8.
    Paired,
}

/// The longest encoding of one value in any form, in bytes: a CESU-8 or Modified UTF-8
/// surrogate pair, or RFC 2279's 6-byte sequence.
pub const MAX_BYTES: usize = 6;

/// One value encoded in some form: 1 to [`MAX_BYTES`] bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Encoded {
    bytes: [u8; MAX_BYTES],
    len: usize,
}

impl Encoded {
    /// The encoded bytes.
    pub fn as_bytes(&self) -> &[u8] {
        // `len` is at most MAX_BYTES by construction; `get` keeps the panic path out anyway.
        self.bytes.get(..self.len).unwrap_or(&self.bytes)
    }
}

/// Decodes the character at the start of `s` in `form`: its value and its length in bytes
/// (1..6; 6 for a CESU-8 or Modified UTF-8 surrogate pair, or an RFC 2279 6-byte sequence).
///
/// On ill-formed input the error gives the kind and the length of the maximal subpart (see
/// the module's table), at least 1; empty input is [`ErrorKind::Truncated`] with length 0.
/// In the strict form this is [`crate::decode_next`].
pub fn decode_next(s: &[u8], form: Form) -> Result<(u32, usize), Malformed> {
    let Some(surrogates) = form.surrogates() else {
        return super::decode::decode_next(s);
    };
    let (value, width) = decode_sequence(s, |lead| lead_rule(form, lead))?;
    if !(0xD800..=0xDBFF).contains(&value) {
        return Ok((value, width));
    }
    // A lead surrogate: its three bytes (the tables refuse every overlong form of it), then
    // whatever follows.
    let after = s.get(3..).unwrap_or_default();
    match (surrogates, trail_surrogate(after)) {
        (Surrogates::Unpaired, Trail::Complete(_)) => Err(Malformed {
            kind: ErrorKind::Surrogate,
            len: 6,
        }),
        // Cut inside what may be a trail surrogate: the next bytes decide between a lead
        // surrogate and a pair error that starts here, so the input ends inside a sequence.
        (Surrogates::Unpaired, Trail::Cut) if !after.is_empty() => Err(Malformed {
            kind: ErrorKind::Truncated,
            len: s.len(),
        }),
        (Surrogates::Unpaired, _) => Ok((value, 3)),
        (Surrogates::Paired, Trail::Complete(trail)) => {
            Ok((0x1_0000 + ((value - 0xD800) << 10) + (trail - 0xDC00), 6))
        }
        (Surrogates::Paired, Trail::Cut) => Err(Malformed {
            kind: ErrorKind::Truncated,
            len: s.len(),
        }),
        (Surrogates::Paired, Trail::Absent) => Err(Malformed {
            kind: ErrorKind::Surrogate,
            len: 3,
        }),
    }
}

/// Encodes `value` in `form`.
///
/// - Strict: [`crate::encode`]: U+0000..U+10FFFF except surrogates, 1..4 bytes.
/// - WTF-8: U+0000..U+10FFFF, a surrogate code point in 3 bytes. Each surrogate encodes
///   alone; a caller that writes a lead surrogate then a trail one writes an ill-formed pair
///   (WTF-8 wants their supplementary character, in 4 bytes).
/// - CESU-8, Modified UTF-8: the BMP in 1..3 bytes (Modified UTF-8: U+0000 as C0 80), a
///   supplementary character as two 3-byte surrogates (6 bytes); a surrogate code point alone
///   is [`ErrorKind::Surrogate`], since it is ill-formed there.
/// - RFC 2279: 0..=0x7FFFFFFF in 1..6 bytes, surrogates included.
///
/// Values above the form's [`Form::max_value`] are [`ErrorKind::TooLarge`]. The result is
/// always what [`decode_next`] in the same form reads back as `value`.
pub fn encode(value: u32, form: Form) -> Result<Encoded, ErrorKind> {
    match form {
        Form::Strict => super::encode::encode(value).map(|e| {
            let mut bytes = [0; MAX_BYTES];
            bytes
                .iter_mut()
                .zip(e.as_bytes())
                .for_each(|(d, s)| *d = *s);
            Encoded {
                bytes,
                len: e.as_bytes().len(),
            }
        }),
        _ if value > form.max_value() => Err(ErrorKind::TooLarge),
        Form::Wtf8 | Form::Rfc2279 => Ok(encode_generalized(value)),
        Form::Cesu8 | Form::Mutf8 => match value {
            0 if form == Form::Mutf8 => Ok(Encoded {
                bytes: [0xC0, 0x80, 0, 0, 0, 0],
                len: 2,
            }),
            0xD800..=0xDFFF => Err(ErrorKind::Surrogate),
            0..=0xFFFF => Ok(encode_generalized(value)),
            _ => {
                // The UTF-16 surrogate pair of `value`, each half in three bytes.
                let offset = value - 0x1_0000;
                let lead = encode_generalized(0xD800 + (offset >> 10)).bytes;
                let trail = encode_generalized(0xDC00 + (offset & 0x3FF)).bytes;
                Ok(Encoded {
                    bytes: [lead[0], lead[1], lead[2], trail[0], trail[1], trail[2]],
                    len: 6,
                })
            }
        },
    }
}

/// The encoding algorithm of RFC 2279 section 2, for any value up to 0x7FFFFFFF: the width
/// from the value's range, the lead byte's marker bits, then six bits per continuation byte,
/// the lowest bits last.
fn encode_generalized(value: u32) -> Encoded {
    let width: usize = match value {
        0..=0x7F => 1,
        0x80..=0x7FF => 2,
        0x800..=0xFFFF => 3,
        0x1_0000..=0x1F_FFFF => 4,
        0x20_0000..=0x3FF_FFFF => 5,
        _ => 6,
    };
    let mut bytes = [0; MAX_BYTES];
    for (k, byte) in bytes.iter_mut().enumerate().take(width) {
        let shift = 6 * (width - 1 - k);
        *byte = if k == 0 {
            // `width` high bits set, then a zero (none for one byte), then the value's top bits.
            let marker = if width == 1 {
                0
            } else {
                (0xFF00_u32 >> width) as u8
            };
            marker | (value >> shift) as u8
        } else {
            0x80 | ((value >> shift) & 0x3F) as u8
        };
    }
    Encoded { bytes, len: width }
}

/// What a lead byte says of the character it starts, in one form.
#[derive(Clone, Copy)]
enum Lead {
    /// A character of one byte: the byte's value.
    Single,
    /// Ill-formed wherever it appears: the byte alone is the maximal subpart.
    Invalid(ErrorKind),
    /// A sequence of `width` bytes whose second byte lies in `second`; a continuation byte
    /// outside that range is an error of kind `out_of_range`. Further bytes are any 80..BF.
    Sequence {
        width: usize,
        second: (u8, u8),
        out_of_range: ErrorKind,
    },
}

/// A sequence of `width` bytes, second byte in `lo..=hi`, `kind` for other continuation bytes.
const fn seq(width: usize, lo: u8, hi: u8, out_of_range: ErrorKind) -> Lead {
    Lead::Sequence {
        width,
        second: (lo, hi),
        out_of_range,
    }
}

/// The lead-byte table of each form but the strict one, whose table is in [`super::decode`].
/// Its rows read like RFC 3629 section 4's ABNF; the second-byte ranges exclude overlong
/// forms (the lowest value of each width) and values above the form's maximum.
fn lead_rule(form: Form, lead: u8) -> Lead {
    use ErrorKind::*;
    const ANY: (u8, u8) = (0x80, 0xBF);
    let any = |width| seq(width, ANY.0, ANY.1, MissingContinuation);
    match (form, lead) {
        // Modified UTF-8 writes U+0000 as C0 80, the one overlong form it allows, so that a
        // 00 byte can end a string.
        (Form::Mutf8, 0x00) => Lead::Invalid(InvalidByte),
        (Form::Mutf8, 0xC0) => seq(2, 0x80, 0x80, Overlong),
        (_, 0x00..=0x7F) => Lead::Single,
        (_, 0x80..=0xBF) => Lead::Invalid(UnexpectedContinuation),
        (_, 0xC0 | 0xC1) => Lead::Invalid(Overlong),
        (_, 0xC2..=0xDF) => any(2),
        (_, 0xE0) => seq(3, 0xA0, 0xBF, Overlong),
        // CESU-8 and Modified UTF-8: ED B0..BF, a trail surrogate, can only follow a lead
        // surrogate, as the second half of a pair (see `decode_next`).
        (Form::Cesu8 | Form::Mutf8, 0xED) => seq(3, 0x80, 0xAF, Surrogate),
        // ED with any second byte in WTF-8 and RFC 2279: surrogates are code points there.
        (_, 0xE1..=0xEF) => any(3),
        // CESU-8 and Modified UTF-8 have no 4-byte form: F0..FF never appear.
        (Form::Cesu8 | Form::Mutf8, 0xF0..=0xFF) => Lead::Invalid(InvalidByte),
        (_, 0xF0) => seq(4, 0x90, 0xBF, Overlong),
        (_, 0xF1..=0xF3) => any(4),
        (Form::Rfc2279, 0xF4..=0xF7) => any(4),
        (Form::Rfc2279, 0xF8) => seq(5, 0x88, 0xBF, Overlong),
        (Form::Rfc2279, 0xF9..=0xFB) => any(5),
        (Form::Rfc2279, 0xFC) => seq(6, 0x84, 0xBF, Overlong),
        (Form::Rfc2279, 0xFD) => any(6),
        (Form::Rfc2279, 0xFE | 0xFF) => Lead::Invalid(InvalidByte),
        // WTF-8 ends at U+10FFFF, as RFC 3629 does.
        (_, 0xF4) => seq(4, 0x80, 0x8F, TooLarge),
        (_, 0xF5..=0xF7) => Lead::Invalid(TooLarge),
        (_, 0xF8..=0xFF) => Lead::Invalid(InvalidByte),
    }
}

/// The sequence at the start of `s` as a lead-byte table describes it: its value (at most 31
/// bits) and width, or the maximal subpart of the error. Empty input is Truncated, length 0.
fn decode_sequence(s: &[u8], rule: impl Fn(u8) -> Lead) -> Result<(u32, usize), Malformed> {
    use ErrorKind::*;
    let malformed = |kind, len| Err(Malformed { kind, len });

    let Some(&lead) = s.first() else {
        return malformed(Truncated, 0);
    };
    let (width, (lo, hi), out_of_range) = match rule(lead) {
        Lead::Single => return Ok((u32::from(lead), 1)),
        Lead::Invalid(kind) => return malformed(kind, 1),
        Lead::Sequence {
            width,
            second,
            out_of_range,
        } => (width, second, out_of_range),
    };
    let Some(&second) = s.get(1) else {
        return malformed(Truncated, s.len());
    };
    if !(lo..=hi).contains(&second) {
        let kind = if is_continuation(second) {
            out_of_range
        } else {
            MissingContinuation
        };
        return malformed(kind, 1);
    }
    // The lead byte carries 7 - width value bits, each continuation byte six.
    let mut value = (u32::from(lead) & (0x7F >> width)) << 6 | u32::from(second & 0x3F);
    // The k bytes before a missing continuation byte could still have begun a sequence.
    for k in 2..width {
        match s.get(k) {
            None => return malformed(Truncated, s.len()),
            Some(&b) if is_continuation(b) => value = value << 6 | u32::from(b & 0x3F),
            Some(_) => return malformed(MissingContinuation, k),
        }
    }
    Ok((value, width))
}

fn is_continuation(b: u8) -> bool {
    b & 0xC0 == 0x80
}

/// What follows a lead surrogate's three bytes.
enum Trail {
    /// A trail surrogate (ED B0..BF 80..BF), with its value.
    Complete(u32),
    /// The input ends inside what could still be one (nothing, ED, or ED B0..BF): a lead
    /// surrogate at the end of the input is unpaired, one followed by ED or ED B0..BF is
    /// truncated (see the module's table).
    Cut,
    /// Anything else.
    Absent,
}

fn trail_surrogate(s: &[u8]) -> Trail {
    match *s {
        [0xED, b @ 0xB0..=0xBF, c, ..] if is_continuation(c) => {
            Trail::Complete(0xD000 | u32::from(b & 0x3F) << 6 | u32::from(c & 0x3F))
        }
        [] | [0xED] | [0xED, 0xB0..=0xBF] => Trail::Cut,
        _ => Trail::Absent,
    }
}
