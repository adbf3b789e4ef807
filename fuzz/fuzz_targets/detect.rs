//! `utf8::encodings` and `utf8::bom`, and the C `utf8_detect_encodings` and `utf8_detect_bom`,
//! against the standard library: the set of encodings in which `core::str::from_utf8`,
//! `char::decode_utf16` (either byte order) and `char::from_u32` (either byte order) accept
//! all of the input, and the longest of the marks U+FEFF gives in each encoding that the input
//! starts with.
//!
//! Each input is checked as it is (in an exact allocation, so that AddressSanitizer catches a
//! read past it), and after a prefix of 0 to 3 bytes chosen by its first byte, so that the
//! UTF-16 and UTF-32 units fall at every offset of the 64-byte blocks.

#![no_main]

use core::ptr;

use fuzz_common::{exact_copy, hex};
use libfuzzer_sys::fuzz_target;
use utf8::ffi::{utf8_detect_bom, utf8_detect_encodings};

fuzz_target!(|data: &[u8]| {
    check(&exact_copy(data));
    if let Some(&first) = data.first() {
        let mut shifted = vec![b'x'; usize::from(first & 3)];
        shifted.extend_from_slice(data);
        check(&exact_copy(&shifted));
    }
});

fn oracle(s: &[u8]) -> u32 {
    let unit16 = |p: &[u8], big: bool| {
        let p = [p[0], p[1]];
        if big {
            u16::from_be_bytes(p)
        } else {
            u16::from_le_bytes(p)
        }
    };
    let unit32 = |q: &[u8], big: bool| {
        let q = [q[0], q[1], q[2], q[3]];
        if big {
            u32::from_be_bytes(q)
        } else {
            u32::from_le_bytes(q)
        }
    };
    let utf16 = |big| {
        s.len() % 2 == 0
            && char::decode_utf16(s.chunks_exact(2).map(|p| unit16(p, big))).all(|c| c.is_ok())
    };
    let utf32 = |big| {
        s.len() % 4 == 0
            && s.chunks_exact(4)
                .all(|q| char::from_u32(unit32(q, big)).is_some())
    };
    u32::from(core::str::from_utf8(s).is_ok())
        | u32::from(utf16(false)) << 1
        | u32::from(utf16(true)) << 2
        | u32::from(utf32(false)) << 3
        | u32::from(utf32(true)) << 4
}

fn bom_oracle(s: &[u8]) -> (u32, usize) {
    let c = '\u{FEFF}';
    let mut unit = [0u16; 1];
    c.encode_utf16(&mut unit);
    let marks: [(Vec<u8>, u32); 5] = [
        (c.to_string().into_bytes(), 1),
        (unit[0].to_le_bytes().to_vec(), 2),
        (unit[0].to_be_bytes().to_vec(), 4),
        ((c as u32).to_le_bytes().to_vec(), 8),
        ((c as u32).to_be_bytes().to_vec(), 16),
    ];
    marks
        .iter()
        .filter(|(m, _)| s.starts_with(m))
        .max_by_key(|(m, _)| m.len())
        .map_or((0, 0), |(m, e)| (*e, m.len()))
}

fn check(s: &[u8]) {
    let expected = oracle(s);
    assert_eq!(utf8::encodings(s), expected, "encodings of {}", hex(s));
    // SAFETY: `s` is `s.len()` readable bytes.
    let got = unsafe { utf8_detect_encodings(s.as_ptr().cast(), s.len()) };
    assert_eq!(got, expected, "utf8_detect_encodings of {}", hex(s));
    let (bom, bom_len) = bom_oracle(s);
    assert_eq!(
        utf8::bom(s).map_or((0, 0), |e| (e.bit(), e.bom().len())),
        (bom, bom_len),
        "bom of {}",
        hex(s)
    );
    let mut len = usize::MAX;
    // SAFETY: `s` is `s.len()` readable bytes; `len` is live.
    let e = unsafe { utf8_detect_bom(s.as_ptr().cast(), s.len(), &mut len) };
    assert_eq!(
        (e as u32, len),
        (bom, bom_len),
        "utf8_detect_bom of {}",
        hex(s)
    );
    if !s.is_empty() {
        // SAFETY: a NULL buffer with a length is refused before anything is read.
        assert_eq!(unsafe { utf8_detect_encodings(ptr::null(), s.len()) }, 0);
    }
}
