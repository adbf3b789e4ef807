//! utf8_detect_bom and utf8_detect_encodings against the standard library: the byte-order
//! marks are U+FEFF as `char::encode_utf8`, `encode_utf16` and `u32::to_*_bytes` write it,
//! and an input's encodings are those in which `core::str::from_utf8`, `char::decode_utf16`
//! or `char::from_u32` accept all of it. Exhaustive over every input of 1 to 3 bytes, a
//! sample of the 4-byte ones, and random longer inputs with an error at every offset around
//! the 64-byte blocks.

mod common;

use core::ptr;

use common::{Rng, iterations, sweep_step};
use utf8::ffi::utf8_encoding::{self, *};
use utf8::ffi::{utf8_detect_bom, utf8_detect_encodings};

const UTF8: u32 = 1;
const UTF16LE: u32 = 2;
const UTF16BE: u32 = 4;
const UTF32LE: u32 = 8;
const UTF32BE: u32 = 16;

/// What std says: the set of encodings in which all of `s` is well-formed.
fn oracle(s: &[u8]) -> u32 {
    let utf16 = |big: bool| {
        s.len() % 2 == 0 && {
            let units = s.chunks_exact(2).map(|p| {
                let p = [p[0], p[1]];
                if big {
                    u16::from_be_bytes(p)
                } else {
                    u16::from_le_bytes(p)
                }
            });
            char::decode_utf16(units).all(|c| c.is_ok())
        }
    };
    let utf32 = |big: bool| {
        s.len() % 4 == 0
            && s.chunks_exact(4).all(|q| {
                let q = [q[0], q[1], q[2], q[3]];
                char::from_u32(if big {
                    u32::from_be_bytes(q)
                } else {
                    u32::from_le_bytes(q)
                })
                .is_some()
            })
    };
    let mut set = 0;
    for (ok, bit) in [
        (core::str::from_utf8(s).is_ok(), UTF8),
        (utf16(false), UTF16LE),
        (utf16(true), UTF16BE),
        (utf32(false), UTF32LE),
        (utf32(true), UTF32BE),
    ] {
        if ok {
            set |= bit;
        }
    }
    set
}

fn detect(s: &[u8]) -> u32 {
    // SAFETY: `s` is live for the call.
    unsafe { utf8_detect_encodings(s.as_ptr().cast(), s.len()) }
}

fn bom(s: &[u8]) -> (utf8_encoding, usize) {
    let mut len = usize::MAX;
    // SAFETY: `s` and `len` are live for the call.
    let e = unsafe { utf8_detect_bom(s.as_ptr().cast(), s.len(), &mut len) };
    (e, len)
}

/// U+FEFF in each encoding, from the standard library's encoders, with its utf8_encoding.
fn marks() -> Vec<(Vec<u8>, utf8_encoding, u32)> {
    let c = '\u{FEFF}';
    let mut utf16 = [0u16; 1];
    c.encode_utf16(&mut utf16);
    vec![
        (c.to_string().into_bytes(), UTF8_ENCODING_UTF8, UTF8),
        (
            utf16[0].to_le_bytes().to_vec(),
            UTF8_ENCODING_UTF16LE,
            UTF16LE,
        ),
        (
            utf16[0].to_be_bytes().to_vec(),
            UTF8_ENCODING_UTF16BE,
            UTF16BE,
        ),
        (
            (c as u32).to_le_bytes().to_vec(),
            UTF8_ENCODING_UTF32LE,
            UTF32LE,
        ),
        (
            (c as u32).to_be_bytes().to_vec(),
            UTF8_ENCODING_UTF32BE,
            UTF32BE,
        ),
    ]
}

#[test]
fn the_bits_are_simdutfs() {
    for (e, bit) in [
        (UTF8_ENCODING_NONE, 0),
        (UTF8_ENCODING_UTF8, UTF8),
        (UTF8_ENCODING_UTF16LE, UTF16LE),
        (UTF8_ENCODING_UTF16BE, UTF16BE),
        (UTF8_ENCODING_UTF32LE, UTF32LE),
        (UTF8_ENCODING_UTF32BE, UTF32BE),
    ] {
        assert_eq!(e as u32, bit);
    }
}

#[test]
fn empty_input_is_valid_in_all_five() {
    assert_eq!(detect(b""), 0x1F);
    // SAFETY: (NULL, 0) is an empty buffer.
    assert_eq!(unsafe { utf8_detect_encodings(ptr::null(), 0) }, 0x1F);
    assert_eq!(bom(b""), (UTF8_ENCODING_NONE, 0));
}

#[test]
fn null_with_a_length() {
    // SAFETY: a NULL buffer with a length is refused before anything is read.
    assert_eq!(unsafe { utf8_detect_encodings(ptr::null(), 4) }, 0);
    let mut len = 77;
    // SAFETY: as above; `len` is live.
    let e = unsafe { utf8_detect_bom(ptr::null(), 4, &mut len) };
    assert_eq!((e, len), (UTF8_ENCODING_NONE, 77), "bom_len not written");
    // SAFETY: a NULL out-parameter is not written.
    let e = unsafe { utf8_detect_bom(b"\xEF\xBB\xBF".as_ptr().cast(), 3, ptr::null_mut()) };
    assert_eq!(e, UTF8_ENCODING_UTF8);
}

#[test]
fn every_mark_and_every_prefix_of_one() {
    for (mark, e, bit) in marks() {
        assert_eq!(bom(&mark), (e, mark.len()), "{mark:02X?}");
        // The mark alone is U+FEFF, valid in its own encoding.
        assert_ne!(detect(&mark) & bit, 0, "{mark:02X?}");
        // Followed by text, the mark is found the same.
        let mut longer = mark.clone();
        longer.extend_from_slice(b"abcd\0\0\0\0");
        assert_eq!(bom(&longer), (e, mark.len()), "{longer:02X?}");
        // A proper prefix is no mark, but FF FE 00, which starts with UTF-16LE's mark.
        for cut in 0..mark.len() {
            let prefix = &mark[..cut];
            let expected = marks()
                .into_iter()
                .filter(|(m, _, _)| prefix.starts_with(m))
                .map(|(m, e, _)| (e, m.len()))
                .next()
                .unwrap_or((UTF8_ENCODING_NONE, 0));
            assert_eq!(bom(prefix), expected, "{prefix:02X?}");
        }
    }
    // FF FE 00 00 is UTF-32LE, not UTF-16LE followed by U+0000.
    assert_eq!(bom(b"\xFF\xFE\x00\x00"), (UTF8_ENCODING_UTF32LE, 4));
    assert_eq!(bom(b"\xFF\xFE\x00"), (UTF8_ENCODING_UTF16LE, 2));
    assert_eq!(bom(b"\xFF\xFE\x00\x01"), (UTF8_ENCODING_UTF16LE, 2));
}

/// The mark a byte string starts with, by the rule: the longest of those it starts with.
fn bom_oracle(s: &[u8]) -> (utf8_encoding, usize) {
    marks()
        .into_iter()
        .filter(|(m, _, _)| s.starts_with(m))
        .max_by_key(|(m, _, _)| m.len())
        .map_or((UTF8_ENCODING_NONE, 0), |(m, e, _)| (e, m.len()))
}

#[test]
#[cfg_attr(miri, ignore = "16 million inputs: too slow to interpret")]
fn every_input_of_one_to_three_bytes() {
    for len in 1..=3usize {
        for n in (0..1u32 << (8 * len)).step_by(sweep_step()) {
            let s = &n.to_le_bytes()[..len];
            assert_eq!(detect(s), oracle(s), "{s:02X?}");
            assert_eq!(bom(s), bom_oracle(s), "{s:02X?}");
        }
    }
}

#[test]
#[cfg_attr(miri, ignore = "a third of a million inputs: too slow to interpret")]
fn four_byte_inputs_sampled() {
    // Every combination of the bytes where the rules change, then random ones.
    let edges = [
        0x00, 0x01, 0x0F, 0x10, 0x11, 0x41, 0x7F, 0x80, 0xBB, 0xBF, 0xC2, 0xD7, 0xD8, 0xDB, 0xDC,
        0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFE, 0xFF,
    ];
    for &a in &edges {
        for &b in &edges {
            for &c in &edges {
                for &d in &edges {
                    let s = [a, b, c, d];
                    assert_eq!(detect(&s), oracle(&s), "{s:02X?}");
                    assert_eq!(bom(&s), bom_oracle(&s), "{s:02X?}");
                }
            }
        }
    }
    let mut rng = Rng::new(0xDE7EC7);
    for _ in 0..iterations(1 << 20) {
        let s = (rng.next() as u32).to_le_bytes();
        assert_eq!(detect(&s), oracle(&s), "{s:02X?}");
    }
}

/// Random text of at least `len` bytes in `encoding` (a bit), valid there.
fn text_in(rng: &mut Rng, encoding: u32, len: usize) -> Vec<u8> {
    let mut out = Vec::new();
    while out.len() < len {
        let c = rng.scalar();
        match encoding {
            UTF8 => out.extend_from_slice(c.to_string().as_bytes()),
            UTF16LE | UTF16BE => {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    let b = if encoding == UTF16LE {
                        u.to_le_bytes()
                    } else {
                        u.to_be_bytes()
                    };
                    out.extend_from_slice(&b);
                }
            }
            _ => {
                let v = c as u32;
                let b = if encoding == UTF32LE {
                    v.to_le_bytes()
                } else {
                    v.to_be_bytes()
                };
                out.extend_from_slice(&b);
            }
        }
    }
    out
}

#[test]
#[cfg_attr(
    miri,
    ignore = "tens of thousands of inputs: too slow to interpret; random_inputs runs the same paths"
)]
fn errors_at_every_offset_around_the_blocks() {
    let mut rng = Rng::new(45);
    for encoding in [UTF8, UTF16LE, UTF16BE, UTF32LE, UTF32BE] {
        for len in [60, 64, 68, 124, 128, 132, 200] {
            let text = text_in(&mut rng, encoding, len);
            assert_ne!(detect(&text) & encoding, 0, "{text:02X?}");
            assert_eq!(detect(&text), oracle(&text), "{text:02X?}");
            for at in 0..text.len() {
                // A byte that breaks each encoding somewhere: a UTF-8 continuation byte, a
                // surrogate's high byte, a UTF-32 unit above 0x10FFFF.
                for bad in [0x80u8, 0xD8, 0xDC, 0xDF, 0x11, 0xFF] {
                    let mut s = text.clone();
                    s[at] = bad;
                    assert_eq!(detect(&s), oracle(&s), "{s:02X?}");
                }
                // Cut there: an odd length, a truncated character or pair.
                assert_eq!(detect(&text[..at]), oracle(&text[..at]));
                assert_eq!(detect(&text[at..]), oracle(&text[at..]));
            }
        }
    }
}

#[test]
fn random_inputs() {
    let mut rng = Rng::new(7);
    for _ in 0..iterations(20_000) {
        let encoding = 1 << rng.below(5);
        let len = rng.below(300);
        let mut s = text_in(&mut rng, encoding, len);
        if rng.below(2) == 0 {
            rng.mutate(&mut s);
        }
        assert_eq!(detect(&s), oracle(&s), "{s:02X?}");
    }
}
