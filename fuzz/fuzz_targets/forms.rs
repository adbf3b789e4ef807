//! The sibling forms of UTF-8 (`utf8::form` and the C `utf8_*_form` functions). The first byte
//! of the input picks the form (its value modulo 5, as utf8_form numbers them); the rest is
//! both a byte string to decode and, four bytes at a time (little-endian), values to encode.
//!
//! - The decoding loop and validation agree: `validate` stops where the loop first fails,
//!   with the same kind and length; every step advances; a Truncated step is the end of the
//!   input; C gives what Rust gives (U+FFFD and the subpart's length on error).
//! - A well-formed input is canonical: its decoded values, encoded again in the form, give
//!   back its exact bytes. CESU-8 and Modified UTF-8 decode to scalar values only, Modified
//!   UTF-8 input never holds a 00 byte, and WTF-8 and RFC 2279 never decode a lead surrogate
//!   directly followed by a trail one (the WTF-8 spec's ill-formed surrogate pair).
//! - Every value encodes to what the form's decoder reads back as that value, in at most
//!   UTF8_FORM_MAX_BYTES bytes, or is refused as the form defines (TooLarge above its range,
//!   Surrogate for a surrogate where the form has none), in Rust and in C.
//! - UTF8_FORM_STRICT is the core API: utf8_decode_next, utf8_validate, utf8_encode.
//! - Unknown forms are UTF8_ERR_INVALID_ARGUMENT and touch nothing.

#![no_main]

use core::ptr;

use fuzz_common::{hex, status, status_of};
use libfuzzer_sys::fuzz_target;
use utf8::ErrorKind;
use utf8::ffi::{
    FormArg, UTF8_FORM_MAX_BYTES, utf8_decode_next_form, utf8_encode_form, utf8_validate_form,
};
use utf8::form::{self, Form};

const REPLACEMENT: u32 = 0xFFFD;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let form = Form::ALL[usize::from(selector) % Form::ALL.len()];
    // An exact copy, so that a read past its end is an AddressSanitizer report.
    let bytes: Box<[u8]> = Box::from(rest);
    decoding(&bytes, form);
    for word in bytes.chunks_exact(4) {
        let v = u32::from_le_bytes(word.try_into().expect("four bytes"));
        encoding(v, form);
        // About half of these are in U+0000..U+10FFFF, and some are surrogates.
        encoding(v & 0x1F_FFFF, form);
        encoding(0xD800 | (v & 0x7FF), form);
    }
    unknown_form(&bytes, i32::from(selector) + 5);
});

fn c_form(form: Form) -> FormArg {
    FormArg(form as i32)
}

fn decoding(s: &[u8], form: Form) {
    let mut at = 0;
    let mut values = Vec::new();
    let mut first_error = None;
    while at < s.len() {
        let rest = &s[at..];
        let step = form::decode_next(rest, form);
        if form == Form::Strict {
            assert_eq!(
                step,
                utf8::decode_next(rest),
                "strict at {at} of {}",
                hex(s)
            );
        }
        let (mut cp, mut n) = (u32::MAX, usize::MAX);
        // SAFETY: `rest` is `rest.len()` readable bytes; the out-parameters are writable.
        let st = unsafe {
            utf8_decode_next_form(
                rest.as_ptr().cast(),
                rest.len(),
                c_form(form),
                &mut cp,
                &mut n,
            )
        };
        let used = match step {
            Ok((v, len)) => {
                assert_eq!((st as i32, cp, n), (status::OK, v, len), "C at {at}");
                assert!((1..=6).contains(&len), "{form:?} at {at} of {}", hex(s));
                values.push(v);
                len
            }
            Err(m) => {
                assert_eq!(
                    (st as i32, cp, n),
                    (status_of(m.kind), REPLACEMENT, m.len),
                    "C at {at}"
                );
                assert!(m.len >= 1, "no progress at {at} of {}", hex(s));
                if m.kind == ErrorKind::Truncated {
                    assert_eq!(m.len, rest.len(), "Truncated short of the end: {}", hex(s));
                }
                if first_error.is_none() {
                    first_error = Some((at, m.kind, m.len));
                }
                m.len
            }
        };
        assert!(used <= rest.len(), "{form:?} overran {}", hex(s));
        at += used;
    }

    let validated = form::validate(s, form);
    assert_eq!(
        validated.map_err(|e| (e.valid_up_to, e.kind, e.error_len)),
        first_error.map_or(Ok(()), Err),
        "validate against the decoding loop, {form:?}, {}",
        hex(s)
    );
    if form == Form::Strict {
        assert_eq!(validated, utf8::validate(s));
    }
    let mut good = usize::MAX;
    // SAFETY: `s` is `s.len()` readable bytes; `good` is writable.
    let st = unsafe { utf8_validate_form(s.as_ptr().cast(), s.len(), c_form(form), &mut good) };
    match validated {
        Ok(()) => assert_eq!((st as i32, good), (status::OK, s.len())),
        Err(e) => assert_eq!((st as i32, good), (status_of(e.kind), e.valid_up_to)),
    }

    if first_error.is_none() {
        // Canonical: encoding the values again gives the input.
        let again: Vec<u8> = values
            .iter()
            .flat_map(|&v| {
                form::encode(v, form)
                    .expect("a decoded value encodes")
                    .as_bytes()
                    .to_vec()
            })
            .collect();
        assert_eq!(again, s, "{form:?} re-encoding of {}", hex(s));
        match form {
            Form::Cesu8 | Form::Mutf8 => {
                assert!(values.iter().all(|&v| char::from_u32(v).is_some()));
                if form == Form::Mutf8 {
                    assert!(!s.contains(&0), "a 00 byte in Modified UTF-8: {}", hex(s));
                }
            }
            Form::Wtf8 | Form::Rfc2279 => {
                let paired = values.windows(2).any(|w| {
                    (0xD800..=0xDBFF).contains(&w[0]) && (0xDC00..=0xDFFF).contains(&w[1])
                });
                assert!(!paired, "{form:?} decoded a surrogate pair from {}", hex(s));
            }
            Form::Strict => {}
        }
    }
}

fn encoding(v: u32, form: Form) {
    let encoded = form::encode(v, form);
    let mut out = [0xA5u8; UTF8_FORM_MAX_BYTES];
    let mut n = usize::MAX;
    // SAFETY: `out` is UTF8_FORM_MAX_BYTES writable bytes; `n` is writable.
    let st =
        unsafe { utf8_encode_form(v, c_form(form), out.as_mut_ptr().cast(), out.len(), &mut n) };
    if form == Form::Strict {
        assert_eq!(
            encoded.map(|e| e.as_bytes().to_vec()),
            utf8::encode(v).map(|e| e.as_bytes().to_vec()),
            "strict encode {v:#X}"
        );
    }
    match encoded {
        Ok(e) => {
            let bytes = e.as_bytes();
            assert!((1..=UTF8_FORM_MAX_BYTES).contains(&bytes.len()));
            assert_eq!(
                (st as i32, &out[..n]),
                (status::OK, bytes),
                "C encode {v:#X}"
            );
            assert_eq!(
                form::decode_next(bytes, form),
                Ok((v, bytes.len())),
                "{form:?} {v:#X}"
            );
            assert_eq!(form::validate(bytes, form), Ok(()), "{form:?} {v:#X}");
            // The size query and a buffer one byte short.
            let mut needed = 0;
            // SAFETY: (NULL, 0) is a size query; `needed` is writable.
            let st = unsafe { utf8_encode_form(v, c_form(form), ptr::null_mut(), 0, &mut needed) };
            assert_eq!((st as i32, needed), (status::BUFFER_TOO_SMALL, bytes.len()));
            let mut short = vec![0xA5u8; bytes.len() - 1].into_boxed_slice();
            // SAFETY: `short` is `short.len()` writable bytes; `needed` is writable.
            let st = unsafe {
                utf8_encode_form(
                    v,
                    c_form(form),
                    short.as_mut_ptr().cast(),
                    short.len(),
                    &mut needed,
                )
            };
            assert_eq!((st as i32, needed), (status::BUFFER_TOO_SMALL, bytes.len()));
            assert!(
                short.iter().all(|&b| b == 0xA5),
                "a short buffer was written"
            );
        }
        Err(kind) => {
            let want = if v > form.max_value() {
                ErrorKind::TooLarge
            } else {
                assert!((0xD800..=0xDFFF).contains(&v), "{form:?} refused {v:#X}");
                assert!(matches!(form, Form::Strict | Form::Cesu8 | Form::Mutf8));
                ErrorKind::Surrogate
            };
            assert_eq!(kind, want, "{form:?} {v:#X}");
            assert_eq!((st as i32, n), (status_of(kind), 0));
            assert!(
                out.iter().all(|&b| b == 0xA5),
                "a refused value was written"
            );
        }
    }
}

fn unknown_form(s: &[u8], value: i32) {
    for bad in [value, -value, i32::MIN + value] {
        let (mut good, mut cp, mut n) = (usize::MAX, u32::MAX, usize::MAX);
        let mut out = [0xA5u8; UTF8_FORM_MAX_BYTES];
        // SAFETY: `s` is `s.len()` readable bytes; the out-parameters and `out` are writable.
        let sts = unsafe {
            [
                utf8_validate_form(s.as_ptr().cast(), s.len(), FormArg(bad), &mut good),
                utf8_decode_next_form(s.as_ptr().cast(), s.len(), FormArg(bad), &mut cp, &mut n),
                utf8_encode_form(
                    0x41,
                    FormArg(bad),
                    out.as_mut_ptr().cast(),
                    out.len(),
                    &mut n,
                ),
            ]
        };
        for st in sts {
            assert_eq!(st as i32, -10, "form {bad}: UTF8_ERR_INVALID_ARGUMENT");
        }
        assert_eq!((good, cp, n), (usize::MAX, u32::MAX, usize::MAX));
        assert_eq!(out, [0xA5; UTF8_FORM_MAX_BYTES]);
    }
}
