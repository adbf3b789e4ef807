//! utf8_char_start and utf8_truncate against the boundaries of lossy decoding as the standard
//! library sees them (`<[u8]>::utf8_chunks`: valid characters, then one maximal subpart), and
//! against a utf8_decode_next loop and utf8_count_chars.

mod common;

use core::ptr;

use common::Rng;
use utf8::ffi::{utf8_char_start, utf8_count_chars, utf8_decode_next, utf8_truncate};

fn char_start(s: &[u8], i: usize) -> usize {
    // SAFETY: `s` is a live slice.
    unsafe { utf8_char_start(s.as_ptr().cast(), s.len(), i) }
}

fn truncate(s: &[u8], max: usize) -> usize {
    // SAFETY: `s` is a live slice.
    unsafe { utf8_truncate(s.as_ptr().cast(), s.len(), max) }
}

fn check(s: &[u8]) {
    let starts = testkit::unit_starts(s);
    for (i, &start) in starts.iter().enumerate() {
        assert_eq!(char_start(s, i), start, "char_start({s:02X?}, {i})");
        assert_eq!(utf8::char_start(s, i), start);
        assert_eq!(truncate(s, i), start, "truncate({s:02X?}, {i})");
        assert_eq!(utf8::truncate(s, i), start);
    }
    for beyond in [s.len(), s.len() + 1, usize::MAX] {
        assert_eq!(char_start(s, beyond), s.len());
        assert_eq!(truncate(s, beyond), s.len());
    }
}

/// The boundaries a utf8_decode_next loop steps on, and that utf8_count_chars counts.
fn check_against_decode_loop(s: &[u8]) {
    let mut at = 0;
    let mut units = 0;
    while at < s.len() {
        let mut n = 0usize;
        // SAFETY: `s[at..]` is a live slice; the out-parameters are locals.
        unsafe {
            utf8_decode_next(
                s[at..].as_ptr().cast(),
                s.len() - at,
                ptr::null_mut(),
                &mut n,
            )
        };
        for i in at..at + n {
            assert_eq!(char_start(s, i), at, "{s:02X?} at {i}");
        }
        at += n;
        units += 1;
    }
    assert_eq!(
        // SAFETY: `s` is a live slice: `s.len()` readable bytes at its pointer.
        unsafe { utf8_count_chars(s.as_ptr().cast(), s.len()) },
        units
    );
}

#[test]
#[cfg_attr(
    miri,
    ignore = "exhaustive: too slow to interpret; the sampled tests run the same paths"
)]
fn every_input_of_one_to_two_bytes_and_three_and_four_after_each_lead_class() {
    check(&[]);
    for a in 0..=255u8 {
        check(&[a]);
        for b in 0..=255u8 {
            check(&[a, b]);
        }
    }
    for a in [0x41, 0x80, 0xC2, 0xE0, 0xE1, 0xED, 0xF0, 0xF1, 0xF4, 0xF5] {
        for b in 0..=255u8 {
            for c in 0..=255u8 {
                check(&[a, b, c]);
                check(&[0x80, a, b, c]);
                check(&[a, b, c, 0x80, 0xBF]);
            }
        }
    }
}

#[test]
fn random_and_mutated_text() {
    let mut rng = Rng::new(0x5EED_B001);
    for _ in 0..common::iterations(20_000) {
        let chars = rng.below(80);
        let mut s = rng.text(chars);
        if rng.below(3) != 0 {
            rng.mutate(&mut s);
        }
        if rng.below(4) == 0 {
            // Runs of continuation bytes, longer than any character.
            let at = rng.below(s.len() + 1);
            let run = rng.below(9);
            s.splice(
                at..at,
                std::iter::repeat_n(0x80 | rng.next() as u8 & 0x3F, run),
            );
        }
        check(&s);
        check_against_decode_loop(&s);
    }
}

#[test]
fn examples() {
    let s = "a\u{E9}\u{20AC}\u{1F600}".as_bytes(); // 61 | C3 A9 | E2 82 AC | F0 9F 98 80
    let starts = [0, 1, 1, 3, 3, 3, 6, 6, 6, 6];
    for (i, &start) in starts.iter().enumerate() {
        assert_eq!(char_start(s, i), start);
    }
    assert_eq!(truncate(s, 5), 3);
    assert_eq!(truncate(s, 9), 6);
    assert_eq!(truncate(s, 10), 10);
    // E0 80: E0 cannot be followed by 80, so both are one-byte units; F0 9F 98 then 'x': the
    // three bytes are one maximal subpart.
    let bad = b"\xE0\x80\xF0\x9F\x98x\x80\x80\x80\x80\x80";
    let starts = [0, 1, 2, 2, 2, 5, 6, 7, 8, 9, 10];
    for (i, &start) in starts.iter().enumerate() {
        assert_eq!(char_start(bad, i), start, "{i}");
    }
    // A truncated character at the end is one unit: kept whole when everything fits.
    assert_eq!(truncate(b"ab\xE2\x82", 3), 2);
    assert_eq!(truncate(b"ab\xE2\x82", 4), 4);
}

#[test]
fn null_gives_zero() {
    // SAFETY: NULL is never read.
    unsafe {
        assert_eq!(utf8_char_start(ptr::null(), 0, 0), 0);
        assert_eq!(utf8_char_start(ptr::null(), 10, 5), 0);
        assert_eq!(utf8_truncate(ptr::null(), 10, 5), 0);
        assert_eq!(utf8_truncate(ptr::null(), 0, usize::MAX), 0);
    }
}
