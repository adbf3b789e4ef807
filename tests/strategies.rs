//! The replacement strategies (UTF8_SURROGATEESCAPE, UTF8_FALLBACK_LATIN1,
//! UTF8_FALLBACK_CP1252) of the converters from UTF-8, of the way back into UTF-8 and of the
//! lossy copy, against two oracles that share no code with the library: Rust's
//! `core::str::from_utf8` (its `valid_up_to` and `error_len` give the maximal subparts, whose
//! bytes are mapped by the strategy's rule: U+DC80 + b - 0x80, `b as char`, testkit's table of
//! WHATWG's index-windows-1252), and Python's codecs (`surrogateescape`, and per-byte handlers
//! for Latin-1 and Windows-1252) through c-tests/strategies_oracle.py.

mod common;

use core::ptr;
use std::path::Path;
use std::process::Command;

use common::{Rng, implementations, iterations, or_under_miri, sampled_bytes};
use utf8::ffi::utf8_status::*;
use utf8::ffi::{
    UTF8_FALLBACK_CP1252, UTF8_FALLBACK_LATIN1, UTF8_MORE, UTF8_REPLACE, UTF8_SURROGATEESCAPE,
    UTF8_UTF16BE, UTF8_UTF16LE, UTF8_WTF8, utf8_length_from_utf16, utf8_length_from_utf16_flags,
    utf8_length_from_utf32, utf8_length_from_utf32_flags, utf8_replace_invalid,
    utf8_replace_invalid_flags, utf8_result, utf8_to_utf16, utf8_to_utf32, utf16_length_from_utf8,
    utf16_length_from_utf8_flags, utf16_to_utf8, utf32_length_from_utf8,
    utf32_length_from_utf8_flags, utf32_to_utf8,
};
use utf8::internals::Isa;
use utf8::transcode::{Mode, Progress, Replacement, Stop};

/// The three strategies and their flags.
const STRATEGIES: [(Replacement, u32); 3] = [
    (Replacement::Escape, UTF8_SURROGATEESCAPE),
    (Replacement::Latin1, UTF8_FALLBACK_LATIN1),
    (Replacement::Cp1252, UTF8_FALLBACK_CP1252),
];

fn mode(replacement: Replacement) -> Mode {
    Mode {
        replacement,
        ..Mode::default()
    }
}

/// The code points (lone surrogates included) that strategy `r` makes of `s`, by testkit's
/// oracle: the standard library's maximal subparts, each byte mapped by the strategy's rule.
fn oracle(s: &[u8], r: Replacement) -> Vec<u32> {
    let fallback = match r {
        Replacement::Escape => testkit::Fallback::Escape,
        Replacement::Latin1 => testkit::Fallback::Latin1,
        Replacement::Cp1252 => testkit::Fallback::Cp1252,
        Replacement::Fffd => unreachable!("U+FFFD is no strategy of these tests"),
    };
    testkit::fallback_code_points(s, fallback)
}

/// UTF-8 of scalar values.
fn utf8_of(cps: &[u32]) -> Vec<u8> {
    cps.iter()
        .map(|&cp| char::from_u32(cp).unwrap())
        .collect::<String>()
        .into_bytes()
}

const PATTERN16: u16 = 0xA5A5;
const PATTERN32: u32 = 0xA5A5_A5A5;
const PATTERN8: u8 = 0xA5;

/// A C converter from UTF-8 into a buffer of `cap` units followed by 8 units of a pattern,
/// which must stay.
fn c_from_utf8<T: Copy + PartialEq + core::fmt::Debug>(
    convert: unsafe extern "C" fn(
        *const core::ffi::c_char,
        usize,
        *mut T,
        usize,
        u32,
    ) -> utf8_result,
    src: &[u8],
    cap: usize,
    flags: u32,
    pattern: T,
) -> (utf8_result, Vec<T>) {
    let mut out = vec![pattern; cap + 8];
    // SAFETY: `src` and `out` are live buffers of at least the lengths passed.
    let r = unsafe { convert(src.as_ptr().cast(), src.len(), out.as_mut_ptr(), cap, flags) };
    assert!(
        out[cap..].iter().all(|&u| u == pattern),
        "past the output, flags {flags}"
    );
    out.truncate(r.written);
    (r, out)
}

fn c_into_utf8<S: Copy>(
    convert: unsafe extern "C" fn(
        *const S,
        usize,
        *mut core::ffi::c_char,
        usize,
        u32,
    ) -> utf8_result,
    src: &[S],
    cap: usize,
    flags: u32,
) -> (utf8_result, Vec<u8>) {
    let mut out = vec![PATTERN8; cap + 8];
    // SAFETY: `src` and `out` are live buffers of at least the lengths passed.
    let r = unsafe { convert(src.as_ptr(), src.len(), out.as_mut_ptr().cast(), cap, flags) };
    assert!(out[cap..].iter().all(|&u| u == PATTERN8), "past the output");
    out.truncate(r.written);
    (r, out)
}

fn ok(read: usize, written: usize) -> utf8_result {
    utf8_result {
        status: UTF8_OK,
        read,
        written,
    }
}

/// utf8_replace_invalid_flags after a size query, into a buffer of exactly that size.
fn replace_flags(s: &[u8], flags: u32) -> Vec<u8> {
    let mut needed = usize::MAX;
    // SAFETY: (NULL, 0) is a size query; `s` and `needed` are live.
    let status = unsafe {
        utf8_replace_invalid_flags(
            s.as_ptr().cast(),
            s.len(),
            ptr::null_mut(),
            0,
            flags,
            &mut needed,
        )
    };
    let full = if needed == 0 {
        UTF8_OK
    } else {
        UTF8_ERR_BUFFER_TOO_SMALL
    };
    assert_eq!(status, full, "{s:02X?} {flags}");
    let (status, n, out) = replace_into(s, flags, needed);
    assert_eq!((status, n), (UTF8_OK, needed), "{s:02X?} {flags}");
    out
}

/// utf8_replace_invalid_flags into a buffer of `cap` bytes, checked to be written nowhere past
/// them: the status, `*out_len` and the `cap` bytes.
fn replace_into(s: &[u8], flags: u32, cap: usize) -> (utf8::ffi::utf8_status, usize, Vec<u8>) {
    let mut out = vec![PATTERN8; cap + 8];
    let mut n = usize::MAX;
    // SAFETY: `s` is live; `out` has `cap` writable bytes (and more).
    let status = unsafe {
        utf8_replace_invalid_flags(
            s.as_ptr().cast(),
            s.len(),
            out.as_mut_ptr().cast(),
            cap,
            flags,
            &mut n,
        )
    };
    assert!(out[cap..].iter().all(|&b| b == PATTERN8), "{s:02X?} {cap}");
    out.truncate(cap);
    (status, n, out)
}

/// Every C function of the strategies on `s`, against the oracle: the converters into an
/// output of exactly the size the length functions give (into UTF-16 also in each explicit
/// byte order), the way back of the escapes, the lossy copy, and UTF8_REPLACE beside a strategy
/// changing nothing.
fn check(s: &[u8]) {
    for (r, flag) in STRATEGIES {
        let cps = oracle(s, r);
        let want16 = testkit::utf16_of_code_points(&cps);
        let want32 = cps.clone();
        // SAFETY: `s` is live.
        let (len16, len32) = unsafe {
            (
                utf16_length_from_utf8_flags(s.as_ptr().cast(), s.len(), flag),
                utf32_length_from_utf8_flags(s.as_ptr().cast(), s.len(), flag),
            )
        };
        assert_eq!(
            (len16, len32),
            (want16.len(), want32.len()),
            "{s:02X?} {r:?}"
        );
        for flags in [flag, flag | UTF8_REPLACE] {
            let (res, out) = c_from_utf8(utf8_to_utf16, s, len16, flags, PATTERN16);
            assert_eq!(
                (res, &out),
                (ok(s.len(), len16), &want16),
                "{s:02X?} {flags}"
            );
            let (res, out) = c_from_utf8(utf8_to_utf32, s, len32, flags, PATTERN32);
            assert_eq!(
                (res, &out),
                (ok(s.len(), len32), &want32),
                "{s:02X?} {flags}"
            );
        }
        // UTF-16LE and UTF-16BE: the same units, each stored in that byte order; the escapes
        // come back from them too.
        for order in [UTF8_UTF16LE, UTF8_UTF16BE] {
            let stored = |u: u16| {
                if order == UTF8_UTF16LE {
                    u.to_le()
                } else {
                    u.to_be()
                }
            };
            let want: Vec<u16> = want16.iter().map(|&u| stored(u)).collect();
            let (res, out) = c_from_utf8(utf8_to_utf16, s, len16, flag | order, PATTERN16);
            assert_eq!(
                (res, &out),
                (ok(s.len(), len16), &want),
                "{s:02X?} {r:?} {order}"
            );
            if r == Replacement::Escape {
                // SAFETY: `want` is live.
                let len = unsafe {
                    utf8_length_from_utf16_flags(want.as_ptr(), want.len(), flag | order)
                };
                assert_eq!(len, s.len(), "{s:02X?} {order}");
                let (res, back) = c_into_utf8(utf16_to_utf8, &want, s.len(), flag | order);
                assert_eq!(
                    (res, &back[..]),
                    (ok(want.len(), s.len()), s),
                    "{s:02X?} {order}"
                );
            }
        }
        match r {
            Replacement::Escape => round_trip(s, &want16, &want32),
            _ => assert_eq!(replace_flags(s, flag), utf8_of(&cps), "{s:02X?} {r:?}"),
        }
    }
}

/// The way back of UTF8_SURROGATEESCAPE: `units16` and `units32`, what `s` became, give back
/// `s`, into an output of exactly the size the length functions give.
fn round_trip(s: &[u8], units16: &[u16], units32: &[u32]) {
    // SAFETY: the units are live.
    let (len16, len32) = unsafe {
        (
            utf8_length_from_utf16_flags(units16.as_ptr(), units16.len(), UTF8_SURROGATEESCAPE),
            utf8_length_from_utf32_flags(units32.as_ptr(), units32.len(), UTF8_SURROGATEESCAPE),
        )
    };
    assert_eq!((len16, len32), (s.len(), s.len()), "{s:02X?}");
    for flags in [UTF8_SURROGATEESCAPE, UTF8_SURROGATEESCAPE | UTF8_REPLACE] {
        let (res, out) = c_into_utf8(utf16_to_utf8, units16, s.len(), flags);
        assert_eq!((res, &out[..]), (ok(units16.len(), s.len()), s), "{s:02X?}");
        let (res, out) = c_into_utf8(utf32_to_utf8, units32, s.len(), flags);
        assert_eq!((res, &out[..]), (ok(units32.len(), s.len()), s), "{s:02X?}");
    }
}

#[test]
fn examples() {
    // Python: b'a\xffb'.decode('utf-8', 'surrogateescape') == 'a\udcffb'
    let s = b"a\xFFb\xE2\x82\xF0\x9F\x98\x80\xED\xA0\x80";
    assert_eq!(
        oracle(s, Replacement::Escape),
        [
            0x61, 0xDCFF, 0x62, 0xDCE2, 0xDC82, 0x1F600, 0xDCED, 0xDCA0, 0xDC80
        ]
    );
    assert_eq!(
        oracle(b"\x80\x81\x9F\xE9", Replacement::Cp1252),
        [0x20AC, 0x81, 0x178, 0xE9]
    );
    assert_eq!(
        oracle(b"\x80\x81\x9F\xE9", Replacement::Latin1),
        [0x80, 0x81, 0x9F, 0xE9]
    );
    check(s);
    check(b"");
    check(b"\xC3\xA9t\xE9");
    // An escape after a high surrogate of a pair is still an escape: never paired with it.
    check("\u{10000}".as_bytes());
    check(b"\xF0\x90\x80\x80\xA0");
}

/// Every input of 1 and 2 bytes, and of 3 bytes every one whose first byte can start a
/// sequence of more than one byte. A first byte that is a character or an error of its own
/// (ASCII; 80..BF, C0, C1 and F5..FF, which no byte continues) is followed by a 2-byte input,
/// all of which were checked: a few such bytes stand for the others there, as in
/// tests/chunks.rs (the 3-byte inputs were 16.7 million, each converted about 25 times).
#[test]
#[cfg_attr(miri, ignore = "millions of inputs: too slow interpreted")]
fn every_input_of_one_to_three_bytes() {
    for a in 0..=255u8 {
        check(&[a]);
        let alone = !(0xC2..=0xF4).contains(&a);
        let stands_for_others = [0x00, 0x41, 0x7F, 0x80, 0x9D, 0xBF, 0xC0, 0xF5, 0xFF].contains(&a);
        for b in 0..=255u8 {
            check(&[a, b]);
            if alone && !stands_for_others {
                continue;
            }
            for c in sampled_bytes(usize::from(a) * 256 + usize::from(b)) {
                check(&[a, b, c]);
            }
        }
    }
}

/// Every implementation's four converters on `s` with each strategy, into outputs of exactly
/// the size needed, against the oracle (found once for all of them), and the escapes back.
fn check_implementations(s: &[u8]) {
    for (r, _) in STRATEGIES {
        let cps = oracle(s, r);
        let want16 = testkit::utf16_of_code_points(&cps);
        for isa in implementations() {
            check_isa(isa, s, r, &cps, &want16);
        }
    }
}

/// One implementation's converters on `s` with strategy `r`, whose output is `cps`, or
/// `want16` in UTF-16.
fn check_isa(isa: Isa, s: &[u8], r: Replacement, cps: &[u32], want16: &[u16]) {
    let mut out16 = vec![PATTERN16; want16.len() + 8];
    let p = isa
        .utf8_to_utf16(s, &mut out16[..want16.len()], mode(r))
        .unwrap();
    assert_eq!(
        p,
        done(s.len(), want16.len()),
        "{} {s:02X?} {r:?}",
        isa.name()
    );
    assert_eq!(out16[..want16.len()], want16[..], "{} {s:02X?}", isa.name());
    assert!(out16[want16.len()..].iter().all(|&u| u == PATTERN16));
    let mut out32 = vec![PATTERN32; cps.len() + 8];
    let p = isa
        .utf8_to_utf32(s, &mut out32[..cps.len()], mode(r))
        .unwrap();
    assert_eq!(p, done(s.len(), cps.len()), "{} {s:02X?} {r:?}", isa.name());
    assert_eq!(out32[..cps.len()], cps[..], "{} {s:02X?}", isa.name());
    assert!(out32[cps.len()..].iter().all(|&u| u == PATTERN32));
    if r == Replacement::Escape {
        let mut back = vec![PATTERN8; s.len() + 8];
        let p = isa
            .utf16_to_utf8(want16, &mut back[..s.len()], mode(r))
            .unwrap();
        assert_eq!(p, done(want16.len(), s.len()), "{} {s:02X?}", isa.name());
        assert_eq!(&back[..s.len()], s, "{}", isa.name());
        let p = isa
            .utf32_to_utf8(cps, &mut back[..s.len()], mode(r))
            .unwrap();
        assert_eq!(p, done(cps.len(), s.len()), "{} {s:02X?}", isa.name());
        assert_eq!(&back[..s.len()], s, "{}", isa.name());
        assert!(back[s.len()..].iter().all(|&u| u == PATTERN8));
    }
}

fn done(read: usize, written: usize) -> Progress {
    Progress {
        read,
        written,
        stop: None,
    }
}

#[test]
#[cfg_attr(
    miri,
    ignore = "65,000 inputs per implementation: too slow interpreted"
)]
fn every_implementation_on_every_input_of_one_and_two_bytes() {
    for a in 0..=255u8 {
        check_implementations(&[a]);
        for b in 0..=255u8 {
            check_implementations(&[a, b]);
        }
    }
}

/// Ill-formed sequences of every kind, and one well-formed character to cut.
const BAD: [&[u8]; 9] = [
    b"\x80",
    b"\xE2\x82",
    b"\xF0\x9F\x98",
    b"\xC0\xAF",
    b"\xED\xA0\x80",
    b"\xF4\x90\x80\x80",
    b"\xFF",
    b"\x9D\x81\x8D",
    b"\xE0\x80",
];

/// Every implementation, with an error of each kind at every character boundary of text of
/// every length up to a few blocks of the kernels (64 bytes) and their ASCII runs (32 units),
/// mostly ASCII or mixed widths.
#[test]
fn errors_at_every_offset_around_the_blocks() {
    let mut rng = Rng::new(0x5E5C);
    // Under Miri, four lengths (0, 23, 46 and 69 bytes) and one pair of start and error in 29.
    let max = or_under_miri(140, 70);
    let step = or_under_miri(1, 23);
    let sample = or_under_miri(common::sweep_step(), 29);
    for len in (0..max).step_by(step) {
        let text = if rng.below(2) == 0 {
            (0..len).map(|_| b' ' + rng.below(0x5F) as u8).collect()
        } else {
            rng.text_of_len(len)
        };
        let starts = (0..=len).filter(|&i| i == len || text[i] & 0xC0 != 0x80);
        for (k, at) in starts.enumerate() {
            for (j, err) in BAD.iter().enumerate() {
                // Every error at every start, or, sampled, one pair in `sample`.
                if (k + j) % sample != 0 {
                    continue;
                }
                let mut s = text[..at].to_vec();
                s.extend_from_slice(err);
                s.extend_from_slice(&text[at..]);
                check_implementations(&s);
                if !cfg!(miri) {
                    check(&s);
                }
            }
        }
    }
}

/// Long text with errors near the converters' stretches (8 KiB) and at random places, every
/// implementation.
#[test]
fn long_text_with_errors() {
    let mut rng = Rng::new(0x10E6);
    for _ in 0..iterations(40) {
        let len = or_under_miri(8192 + rng.below(200) - 100, 100 + rng.below(100));
        let mut s = if rng.below(2) == 0 {
            rng.text_of_len(len)
        } else {
            (0..len).map(|_| b' ' + rng.below(0x5F) as u8).collect()
        };
        for _ in 0..1 + rng.below(8) {
            let at = rng.below(s.len());
            let err = BAD[rng.below(BAD.len())];
            s.splice(at..at, err.iter().copied());
        }
        check_implementations(&s);
        check(&s);
    }
}

/// Errors at gaps of 1 to 700 bytes, dense and sparse in turn (the converters leave more of
/// the bytes after an error to the exact path where errors are within 192 bytes of the one
/// before), every implementation.
#[test]
fn errors_dense_and_sparse() {
    let mut rng = Rng::new(0xDE25);
    let gaps = [
        1, 2, 5, 17, 90, 191, 192, 193, 260, 700, 9, 185, 195, 31, 600,
    ];
    for _ in 0..iterations(6) {
        let text = if rng.below(2) == 0 {
            rng.text_of_len(or_under_miri(6000, 200))
        } else {
            vec![b'a'; or_under_miri(6000, 200)]
        };
        let s = common::errors_at_gaps(&text, &gaps, 30, |k| {
            BAD[(k + rng.below(BAD.len())) % BAD.len()]
        });
        check_implementations(&s);
        check(&s);
    }
}

/// Every byte string comes back from UTF-16 and UTF-32 with UTF8_SURROGATEESCAPE: random
/// bytes, and text with a few mutations.
#[test]
fn random_bytes_round_trip() {
    let mut rng = Rng::new(0xB17E);
    for _ in 0..iterations(2000) {
        // Under Miri, shorter: random bytes are mostly errors, each replaced by the cold path.
        let len = rng.below(or_under_miri(300, 60));
        let s: Vec<u8> = if rng.below(2) == 0 {
            (0..len).map(|_| rng.next() as u8).collect()
        } else {
            let mut s = rng.text_of_len(len);
            rng.mutate(&mut s);
            s
        };
        for isa in implementations() {
            let mut units16 = vec![0u16; s.len()];
            let p = isa
                .utf8_to_utf16(&s, &mut units16, mode(Replacement::Escape))
                .unwrap();
            assert_eq!((p.read, p.stop), (s.len(), None), "{s:02X?}");
            units16.truncate(p.written);
            let mut units32 = vec![0u32; s.len()];
            let p = isa
                .utf8_to_utf32(&s, &mut units32, mode(Replacement::Escape))
                .unwrap();
            assert_eq!((p.read, p.stop), (s.len(), None), "{s:02X?}");
            units32.truncate(p.written);
            for (back, p) in [
                {
                    let mut b = vec![0u8; s.len()];
                    let p = isa.utf16_to_utf8(&units16, &mut b, mode(Replacement::Escape));
                    (b, p.unwrap())
                },
                {
                    let mut b = vec![0u8; s.len()];
                    let p = isa.utf32_to_utf8(&units32, &mut b, mode(Replacement::Escape));
                    (b, p.unwrap())
                },
            ] {
                assert_eq!(p.stop, None, "{} {s:02X?}", isa.name());
                assert_eq!(back[..p.written], s[..], "{} {s:02X?}", isa.name());
            }
        }
        check(&s);
    }
}

/// Into UTF-8, UTF8_SURROGATEESCAPE turns only lone U+DC80..U+DCFF into bytes: any other lone
/// surrogate is an error (or U+FFFD with UTF8_REPLACE), a pair is a character, a high
/// surrogate at the end is held back with UTF8_MORE, and UTF-32 values above U+10FFFF are
/// errors.
#[test]
fn only_lone_escapes_become_bytes() {
    let esc = UTF8_SURROGATEESCAPE;
    // A lone U+DC7F and U+DD00 are not escapes.
    for unit in [0xDC7Fu16, 0xDD00, 0xD800, 0xDBFF, 0xDFFF] {
        let src = [0x61, unit, 0x62, 0xDC80];
        let (r, out) = c_into_utf8(utf16_to_utf8, &src, 16, esc);
        assert_eq!(
            (r.status, r.read, &out[..]),
            (UTF8_ERR_SURROGATE, 1, &b"a"[..])
        );
        let (r, out) = c_into_utf8(utf16_to_utf8, &src, 16, esc | UTF8_REPLACE);
        assert_eq!((r, &out[..]), (ok(4, 6), &b"a\xEF\xBF\xBDb\x80"[..]));
        let src32 = src.map(u32::from);
        let (r, out) = c_into_utf8(utf32_to_utf8, &src32, 16, esc);
        assert_eq!(
            (r.status, r.read, &out[..]),
            (UTF8_ERR_SURROGATE, 1, &b"a"[..])
        );
        let (r, out) = c_into_utf8(utf32_to_utf8, &src32, 16, esc | UTF8_REPLACE);
        assert_eq!((r, &out[..]), (ok(4, 6), &b"a\xEF\xBF\xBDb\x80"[..]));
        // SAFETY: the units are live.
        let lens = unsafe {
            (
                utf8_length_from_utf16_flags(src.as_ptr(), 4, esc),
                utf8_length_from_utf32_flags(src32.as_ptr(), 4, esc),
            )
        };
        assert_eq!(lens, (6, 6));
    }
    // A pair whose low half is in U+DC80..U+DCFF is a character.
    let pair = [0xD800u16, 0xDC80];
    let (r, out) = c_into_utf8(utf16_to_utf8, &pair, 8, esc);
    assert_eq!((r, &out[..]), (ok(2, 4), "\u{10080}".as_bytes()));
    // SAFETY: `pair` is live.
    let n = unsafe { utf8_length_from_utf16_flags(pair.as_ptr(), 2, esc) };
    assert_eq!(n, 4);
    // A high surrogate at the end: held back with UTF8_MORE, else an error or U+FFFD.
    let src = [0xDC80u16, 0xD800];
    let (r, out) = c_into_utf8(utf16_to_utf8, &src, 8, esc | UTF8_MORE);
    assert_eq!(
        (r.status, r.read, &out[..]),
        (UTF8_ERR_TRUNCATED, 1, &b"\x80"[..])
    );
    let (r, _) = c_into_utf8(utf16_to_utf8, &src, 8, esc);
    assert_eq!((r.status, r.read), (UTF8_ERR_TRUNCATED, 1));
    let (r, out) = c_into_utf8(utf16_to_utf8, &src, 8, esc | UTF8_REPLACE);
    assert_eq!((r, &out[..]), (ok(2, 4), &b"\x80\xEF\xBF\xBD"[..]));
    // Above U+10FFFF in UTF-32.
    let src = [0xDCFFu32, 0x11_0000];
    let (r, out) = c_into_utf8(utf32_to_utf8, &src, 8, esc);
    assert_eq!(
        (r.status, r.read, &out[..]),
        (UTF8_ERR_TOO_LARGE, 1, &b"\xFF"[..])
    );
}

/// Converts `s` into buffers of `cap` units, resuming after each full one: the whole output
/// and how the last call ended.
fn resumed<T: Copy>(
    convert: impl Fn(&[u8], &mut [T]) -> Progress,
    s: &[u8],
    cap: usize,
    fill: T,
) -> (Vec<T>, Option<Stop>, usize) {
    let mut out = Vec::new();
    let (mut read, mut cap) = (0, cap);
    loop {
        let mut buf = vec![fill; cap];
        let p = convert(&s[read..], &mut buf);
        out.extend_from_slice(&buf[..p.written]);
        read += p.read;
        match p.stop {
            Some(Stop::OutputFull) if p.written == 0 => cap += 1,
            Some(Stop::OutputFull) => {}
            stop => return (out, stop, read),
        }
    }
}

/// Every capacity below the needed one stops with a full output holding the start of the
/// whole one, and resuming from `read` gives the whole output: every implementation, each
/// strategy, both ways.
/// The lossy copy with each fallback into every capacity below the size it needs (which it
/// reports, writing nothing past the capacity), and into that size (the oracle's output).
#[test]
fn the_lossy_copy_into_every_capacity_below_the_needed_one() {
    let mut rng = Rng::new(0xC0B1);
    for _ in 0..iterations(300) {
        let len = rng.below(70);
        let mut s = rng.text_of_len(len);
        rng.mutate(&mut s);
        for (r, flag) in &STRATEGIES[1..] {
            let want = utf8_of(&oracle(&s, *r));
            for cap in 0..=want.len() {
                let (status, n, out) = replace_into(&s, *flag, cap);
                if cap < want.len() {
                    assert_eq!((status, n), (UTF8_ERR_BUFFER_TOO_SMALL, want.len()));
                } else {
                    assert_eq!((status, n, out), (UTF8_OK, cap, want.clone()));
                }
            }
        }
    }
}

#[test]
fn every_capacity_below_the_needed_one() {
    let mut rng = Rng::new(0xCA95);
    for _ in 0..iterations(150) {
        let len = rng.below(90);
        let mut s = rng.text_of_len(len);
        rng.mutate(&mut s);
        for isa in implementations() {
            for (r, _) in STRATEGIES {
                let cps = oracle(&s, r);
                let want16 = testkit::utf16_of_code_points(&cps);
                let to16 =
                    |src: &[u8], out: &mut [u16]| isa.utf8_to_utf16(src, out, mode(r)).unwrap();
                let to32 =
                    |src: &[u8], out: &mut [u32]| isa.utf8_to_utf32(src, out, mode(r)).unwrap();
                for cap in 0..want16.len() {
                    let mut out = vec![0u16; cap];
                    let p = to16(&s, &mut out);
                    assert_eq!(p.stop, Some(Stop::OutputFull), "{s:02X?} {cap}");
                    assert_eq!(out[..p.written], want16[..p.written], "{s:02X?} {cap}");
                    let all = resumed(to16, &s, cap, 0u16);
                    assert_eq!(all, (want16.clone(), None, s.len()), "{s:02X?} {cap} {r:?}");
                }
                for cap in 0..cps.len() {
                    let all = resumed(to32, &s, cap, 0u32);
                    assert_eq!(all, (cps.clone(), None, s.len()), "{s:02X?} {cap} {r:?}");
                }
                if r == Replacement::Escape {
                    for cap in 0..s.len() {
                        let mut out = vec![0u8; cap];
                        let p = isa.utf16_to_utf8(&want16, &mut out, mode(r)).unwrap();
                        assert_eq!(p.stop, Some(Stop::OutputFull), "{s:02X?} {cap}");
                        assert_eq!(out[..p.written], s[..p.written], "{s:02X?} {cap}");
                        let p = isa.utf32_to_utf8(&cps, &mut out, mode(r)).unwrap();
                        assert_eq!(p.stop, Some(Stop::OutputFull), "{s:02X?} {cap}");
                        assert_eq!(out[..p.written], s[..p.written], "{s:02X?} {cap}");
                    }
                }
            }
        }
    }
}

/// UTF8_MORE with a strategy: `s` cut in two at every offset, the bytes held back carried over,
/// gives one call's output.
#[test]
fn chunks_cut_everywhere_give_one_call() {
    let mut rng = Rng::new(0xC4C);
    for _ in 0..iterations(300) {
        let len = rng.below(40);
        let mut s = rng.text_of_len(len);
        rng.mutate(&mut s);
        for (r, flag) in STRATEGIES {
            let want = testkit::utf16_of_code_points(&oracle(&s, r));
            for cut in 0..=s.len() {
                let (p, mut out) =
                    c_from_utf8(utf8_to_utf16, &s[..cut], cut, flag | UTF8_MORE, 0u16);
                let from = match p.status {
                    UTF8_ERR_TRUNCATED => {
                        assert!(cut - p.read <= 3, "{s:02X?} cut {cut}");
                        p.read
                    }
                    status => {
                        assert_eq!((status, p.read), (UTF8_OK, cut), "{s:02X?} cut {cut}");
                        cut
                    }
                };
                let (q, second) = c_from_utf8(utf8_to_utf16, &s[from..], s.len(), flag, 0u16);
                assert_eq!((q.status, q.read), (UTF8_OK, s.len() - from));
                out.extend_from_slice(&second);
                assert_eq!(out, want, "{s:02X?} cut {cut} {r:?}");
            }
        }
    }
}

/// The refused combinations: two strategies, a strategy with UTF8_WTF8, a fallback into UTF-8,
/// UTF8_SURROGATEESCAPE in the lossy copy (UTF8_ERR_UNSUPPORTED_STRATEGY); an unknown bit, or
/// UTF8_WTF8 where it is not accepted (UTF8_ERR_INVALID_ARGUMENT); the length functions give 0
/// for them. And the lengths without a strategy are those of the old functions.
#[test]
fn refused_flags() {
    let s = b"a\xFF\xC3\xA9";
    let units16 = [0x61u16, 0xDCFF];
    let units32 = [0x61u32, 0xDCFF];
    let refused_as =
        |r: utf8_result, status| assert_eq!((r.status, r.read, r.written), (status, 0, 0));
    let refused = |r: utf8_result| refused_as(r, UTF8_ERR_UNSUPPORTED_STRATEGY);
    let two = [
        UTF8_SURROGATEESCAPE | UTF8_FALLBACK_LATIN1,
        UTF8_SURROGATEESCAPE | UTF8_FALLBACK_CP1252,
        UTF8_FALLBACK_LATIN1 | UTF8_FALLBACK_CP1252,
        UTF8_SURROGATEESCAPE | UTF8_FALLBACK_LATIN1 | UTF8_FALLBACK_CP1252,
    ];
    let with_wtf8 = STRATEGIES.map(|(_, f)| f | UTF8_WTF8);
    for flags in two.into_iter().chain(with_wtf8) {
        refused(c_from_utf8(utf8_to_utf16, s, 8, flags, 0u16).0);
        refused(c_into_utf8(utf16_to_utf8, &units16, 8, flags).0);
        // SAFETY: the buffers are live.
        unsafe {
            assert_eq!(utf16_length_from_utf8_flags(s.as_ptr().cast(), 4, flags), 0);
            assert_eq!(utf8_length_from_utf16_flags(units16.as_ptr(), 2, flags), 0);
        }
    }
    for flags in two {
        refused(c_from_utf8(utf8_to_utf32, s, 8, flags, 0u32).0);
        refused(c_into_utf8(utf32_to_utf8, &units32, 8, flags).0);
        // SAFETY: the buffers are live.
        unsafe {
            assert_eq!(utf32_length_from_utf8_flags(s.as_ptr().cast(), 4, flags), 0);
            assert_eq!(utf8_length_from_utf32_flags(units32.as_ptr(), 2, flags), 0);
        }
    }
    for flags in [UTF8_FALLBACK_LATIN1, UTF8_FALLBACK_CP1252] {
        refused(c_into_utf8(utf16_to_utf8, &units16, 8, flags).0);
        refused(c_into_utf8(utf32_to_utf8, &units32, 8, flags).0);
        // SAFETY: the buffers are live.
        unsafe {
            assert_eq!(utf8_length_from_utf16_flags(units16.as_ptr(), 2, flags), 0);
            assert_eq!(utf8_length_from_utf32_flags(units32.as_ptr(), 2, flags), 0);
        }
    }
    // An unknown bit (256) and UTF8_WTF8 in UTF-32.
    refused_as(
        c_from_utf8(utf8_to_utf16, s, 8, 256, 0u16).0,
        UTF8_ERR_INVALID_ARGUMENT,
    );
    refused_as(
        c_from_utf8(utf8_to_utf32, s, 8, UTF8_WTF8, 0u32).0,
        UTF8_ERR_INVALID_ARGUMENT,
    );
    // A strategy with UTF8_WTF8 in UTF-32, which does not take UTF8_WTF8: the unknown bit.
    refused_as(
        c_from_utf8(utf8_to_utf32, s, 8, UTF8_FALLBACK_LATIN1 | UTF8_WTF8, 0u32).0,
        UTF8_ERR_INVALID_ARGUMENT,
    );
    // The lossy copy: UTF8_SURROGATEESCAPE, two fallbacks, UTF8_WTF8, UTF8_MORE, unknown bits.
    for (flags, want) in [
        (UTF8_SURROGATEESCAPE, UTF8_ERR_UNSUPPORTED_STRATEGY),
        (
            UTF8_FALLBACK_LATIN1 | UTF8_FALLBACK_CP1252,
            UTF8_ERR_UNSUPPORTED_STRATEGY,
        ),
        (UTF8_WTF8, UTF8_ERR_INVALID_ARGUMENT),
        (UTF8_MORE, UTF8_ERR_INVALID_ARGUMENT),
        (256, UTF8_ERR_INVALID_ARGUMENT),
        (UTF8_FALLBACK_LATIN1 | UTF8_WTF8, UTF8_ERR_INVALID_ARGUMENT),
    ] {
        let mut n = 7usize;
        let mut out = [0u8; 16];
        // SAFETY: the buffers are live.
        let status = unsafe {
            utf8_replace_invalid_flags(
                s.as_ptr().cast(),
                4,
                out.as_mut_ptr().cast(),
                16,
                flags,
                &mut n,
            )
        };
        assert_eq!((status, n), (want, 7), "{flags}");
    }
    // No strategy: the old length functions and the old lossy copy.
    let mut rng = Rng::new(0x01D);
    for _ in 0..iterations(500) {
        let len = rng.below(200);
        let mut s = rng.text_of_len(len);
        rng.mutate(&mut s);
        let u16s: Vec<u16> = (0..len)
            .map(|_| rng.next() as u16 | (0xD800 * (rng.below(2) as u16)))
            .collect();
        let u32s: Vec<u32> = u16s
            .iter()
            .map(|&u| u32::from(u) << (rng.below(2) * 5))
            .collect();
        // SAFETY: the buffers are live.
        unsafe {
            let p = s.as_ptr().cast();
            for flags in [0, UTF8_REPLACE, UTF8_MORE] {
                assert_eq!(
                    utf16_length_from_utf8_flags(p, s.len(), flags),
                    utf16_length_from_utf8(p, s.len())
                );
                assert_eq!(
                    utf32_length_from_utf8_flags(p, s.len(), flags),
                    utf32_length_from_utf8(p, s.len())
                );
                assert_eq!(
                    utf8_length_from_utf16_flags(u16s.as_ptr(), len, flags),
                    utf8_length_from_utf16(u16s.as_ptr(), len)
                );
                assert_eq!(
                    utf8_length_from_utf32_flags(u32s.as_ptr(), len, flags),
                    utf8_length_from_utf32(u32s.as_ptr(), len)
                );
            }
            assert_eq!(
                utf8_length_from_utf16_flags(u16s.as_ptr(), len, UTF8_WTF8),
                utf8_length_from_utf16(u16s.as_ptr(), len)
            );
            assert_eq!(
                utf16_length_from_utf8_flags(p, s.len(), UTF8_WTF8),
                utf16_length_from_utf8(p, s.len())
            );
        }
        for flags in [0, UTF8_REPLACE] {
            let mut n = 0;
            // SAFETY: a size query.
            unsafe { utf8_replace_invalid(s.as_ptr().cast(), s.len(), ptr::null_mut(), 0, &mut n) };
            let out = replace_flags(&s, flags);
            assert_eq!(out.len(), n);
            assert_eq!(out, String::from_utf8_lossy(&s).as_bytes());
        }
        // Random units, escapes among them, against the standard library's decoding: each
        // lone U+DC80..U+DCFF its byte, any other lone surrogate (or value above U+10FFFF)
        // U+FFFD; the lengths say as much.
        let esc = UTF8_SURROGATEESCAPE;
        let escaped = |unit: u32, out: &mut Vec<u8>| match unit {
            0xDC80..=0xDCFF => out.push((unit - 0xDC00) as u8),
            _ => out.extend_from_slice("\u{FFFD}".as_bytes()),
        };
        let mut want16 = Vec::new();
        for c in char::decode_utf16(u16s.iter().copied()) {
            match c {
                Ok(c) => want16.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
                Err(e) => escaped(u32::from(e.unpaired_surrogate()), &mut want16),
            }
        }
        let (r, out) = c_into_utf8(utf16_to_utf8, &u16s, 3 * len, esc | UTF8_REPLACE);
        // SAFETY: `u16s` is live.
        let n = unsafe { utf8_length_from_utf16_flags(u16s.as_ptr(), len, esc) };
        assert_eq!((r.status, &out, n), (UTF8_OK, &want16, want16.len()));
        let mut want32 = Vec::new();
        for &u in &u32s {
            match char::from_u32(u) {
                Some(c) => want32.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
                None => escaped(u, &mut want32),
            }
        }
        let (r, out) = c_into_utf8(utf32_to_utf8, &u32s, 4 * len, esc | UTF8_REPLACE);
        // SAFETY: `u32s` is live.
        let n = unsafe { utf8_length_from_utf32_flags(u32s.as_ptr(), len, esc) };
        assert_eq!((r.status, &out, n), (UTF8_OK, &want32, want32.len()));
    }
}

/// Runs c-tests/strategies_oracle.py: `None` without python3.
fn python(strategy: &str, target: &str, input: &[u8], name: &str) -> Option<Vec<u8>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let file = std::env::temp_dir().join(format!(
        "libutf8-strategies-{}-{name}-{strategy}-{target}",
        std::process::id()
    ));
    std::fs::write(&file, input).unwrap();
    let out = Command::new("python3")
        .arg(root.join("c-tests/strategies_oracle.py"))
        .args([strategy, target])
        .arg(&file)
        .output();
    std::fs::remove_file(&file).unwrap();
    let out = out.ok()?;
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(out.stdout)
}

/// The C functions' output on `input` against Python's, for each strategy and each target.
fn against_python(input: &[u8], name: &str) -> bool {
    for (strategy, flag) in [
        ("surrogateescape", UTF8_SURROGATEESCAPE),
        ("latin1", UTF8_FALLBACK_LATIN1),
        ("cp1252", UTF8_FALLBACK_CP1252),
    ] {
        let Some(want16) = python(strategy, "utf-16-le", input, name) else {
            eprintln!("python3 not found: skipped");
            return false;
        };
        let want32 = python(strategy, "utf-32-le", input, name).unwrap();
        let (r, out16) = c_from_utf8(utf8_to_utf16, input, input.len(), flag, 0u16);
        assert_eq!((r.status, r.read), (UTF8_OK, input.len()));
        let got16: Vec<u8> = out16.iter().flat_map(|u| u.to_le_bytes()).collect();
        assert!(
            got16 == want16,
            "{name}: {strategy} UTF-16 differs from Python's"
        );
        let (r, out32) = c_from_utf8(utf8_to_utf32, input, input.len(), flag, 0u32);
        assert_eq!((r.status, r.read), (UTF8_OK, input.len()));
        let got32: Vec<u8> = out32.iter().flat_map(|u| u.to_le_bytes()).collect();
        assert!(
            got32 == want32,
            "{name}: {strategy} UTF-32 differs from Python's"
        );
        if flag == UTF8_SURROGATEESCAPE {
            let (r, back) = c_into_utf8(utf16_to_utf8, &out16, input.len(), flag);
            assert_eq!(
                (r.status, &back[..]),
                (UTF8_OK, input),
                "{name}: round trip"
            );
        } else {
            let want8 = python(strategy, "utf-8", input, name).unwrap();
            assert!(
                replace_flags(input, flag) == want8,
                "{name}: {strategy} lossy copy differs from Python's"
            );
        }
    }
    true
}

#[test]
#[cfg_attr(miri, ignore = "runs python3")]
fn fixed_and_random_inputs_against_python() {
    let fixed: [&[u8]; 4] = [
        b"a\xFFb\xE2\x82\xF0\x9F\x98\x80\xED\xA0\x80",
        b"caf\xE9 \x80 \x81\x8D\x8F\x90\x9D \x9F",
        b"\xC0\xAF\xE0\x80\xAF\xF4\x90\x80\x80\xF5\xF8\xFF",
        b"\xF0\x9F\x98",
    ];
    for (k, s) in fixed.iter().enumerate() {
        if !against_python(s, &format!("fixed{k}")) {
            return;
        }
    }
    // Random inputs, joined into one file per run: each strategy maps byte by byte, so the
    // whole decodes as its parts.
    let mut rng = Rng::new(0x9E7);
    let mut all = Vec::new();
    for _ in 0..2000 {
        let len = rng.below(60);
        let mut s = rng.text_of_len(len);
        rng.mutate(&mut s);
        all.extend_from_slice(&s);
        all.extend((0..rng.below(4)).map(|_| rng.next() as u8));
    }
    against_python(&all, "random");
}

#[test]
#[cfg_attr(miri, ignore = "reads a file and runs python3")]
fn kuhn_stress_test_against_python() {
    let Some(text) = common::kuhn_stress_test() else {
        return;
    };
    if against_python(&text, "kuhn") {
        check(&text);
        check_implementations(&text);
    }
}

/// A strict conversion of the same input still stops at the first maximal subpart, which the
/// strategies replace.
#[test]
fn strict_conversion_unchanged() {
    let (r, _) = c_from_utf8(utf8_to_utf16, b"ab\xE2\x82z", 8, 0, 0u16);
    assert_eq!((r.status, r.read), (UTF8_ERR_MISSING_CONTINUATION, 2));
}
