//! Security regressions, each named for the attack it guards against (RFC 3629 section 10,
//! RFC 2279 section 6, Unicode chapter 3). Every check runs through every implementation this
//! CPU supports, in short inputs (scalar path) and inside long ones (SIMD blocks).

mod common;

use utf8::{ErrorKind, count_chars, decode_next};

/// Lossy decoding with a `decode_next` loop: U+FFFD for each maximal subpart.
fn lossy(s: &[u8]) -> String {
    let mut out = String::new();
    let mut rest = s;
    while !rest.is_empty() {
        let (c, n) = match decode_next(rest) {
            Ok((cp, n)) => (
                char::from_u32(cp).expect("decode_next yields scalar values"),
                n,
            ),
            Err(m) => ('\u{FFFD}', m.len),
        };
        assert!(n >= 1, "a decode step on {rest:02X?} did not advance");
        out.push(c);
        rest = &rest[n..];
    }
    out
}

/// `bad` alone, and at block boundaries inside long ASCII and multi-byte text (under Miri, just
/// before and after one, and far from it).
fn contexts(bad: &[u8]) -> Vec<(usize, Vec<u8>)> {
    let mut all = vec![(0, bad.to_vec())];
    for filler in ["a", "\u{E9}", "\u{20AC}"] {
        for &at in common::or_under_miri(&[63, 64, 65, 127, 200][..], &[63, 65, 200]) {
            let mut s = filler.repeat(at / filler.len()).into_bytes();
            let offset = s.len();
            s.extend_from_slice(bad);
            s.extend_from_slice("tail text after the sequence ".repeat(4).as_bytes());
            all.push((offset, s));
        }
    }
    all
}

fn assert_refused_everywhere(bad: &[u8], kind: ErrorKind) {
    for (offset, s) in contexts(bad) {
        for isa in common::implementations() {
            let e = isa
                .validate(&s)
                .unwrap()
                .expect_err("accepted an ill-formed sequence");
            assert_eq!(
                (e.valid_up_to, e.kind),
                (offset, kind),
                "{} on {bad:02X?}",
                isa.name()
            );
        }
    }
}

#[test]
fn overlong_slash_dot_and_nul_are_refused_and_never_decoded() {
    // Overlong '/', '.', NUL: the path-traversal and NUL-smuggling encodings of RFC 3629
    // section 10 and RFC 2279 section 6 ("2F C0 AE 2E 2F" for "/../").
    let overlongs: [(&[u8], u8); 5] = [
        (b"\xC0\xAF", b'/'),
        (b"\xE0\x80\xAF", b'/'),
        (b"\xF0\x80\x80\xAF", b'/'),
        (b"\xC0\xAE", b'.'),
        (b"\xC0\x80", 0),
    ];
    for (bad, smuggled) in overlongs {
        assert_refused_everywhere(bad, ErrorKind::Overlong);
        let decoded = lossy(bad);
        assert!(
            !decoded.as_bytes().contains(&smuggled),
            "{bad:02X?} decoded to {decoded:?}"
        );
        assert!(
            decoded.chars().all(|c| c == '\u{FFFD}'),
            "{bad:02X?} decoded to {decoded:?}"
        );
    }
    assert_eq!(lossy(b"\x2F\xC0\xAE\x2E\x2F"), "/\u{FFFD}\u{FFFD}./");
}

#[test]
fn byte_after_an_invalid_lead_is_never_swallowed() {
    // A decoder that skips the length its lead byte announces would eat the '<' and let
    // markup through a filter that checked the decoded text.
    for bad in [
        &b"\xC0<"[..],
        b"\xE2\x82<",
        b"\xF0\x9F\x98<",
        b"\xC2<",
        b"\xF4\x8F<",
    ] {
        let decoded = lossy(bad);
        assert!(decoded.ends_with('<'), "{bad:02X?} decoded to {decoded:?}");
        assert_eq!(decoded, String::from_utf8_lossy(bad), "{bad:02X?}");
        assert_eq!(count_chars(bad), decoded.chars().count());
    }
}

#[test]
fn cesu8_surrogate_pairs_are_refused_in_strict_mode() {
    // U+1F4A9 as a CESU-8 surrogate pair (ED A0 BD ED B2 A9), and RFC 3629 section 3's
    // example ED A1 8C ED BE B4, which a naive decoder turns into U+233B4.
    for pair in [
        &b"\xED\xA0\xBD\xED\xB2\xA9"[..],
        b"\xED\xA1\x8C\xED\xBE\xB4",
    ] {
        assert_refused_everywhere(pair, ErrorKind::Surrogate);
        assert_eq!(lossy(pair), "\u{FFFD}".repeat(6), "{pair:02X?}");
    }
}

#[test]
fn every_decode_step_advances_at_least_one_byte() {
    let mut rng = common::Rng::new(0x5EC_0001);
    for _ in 0..common::iterations(50_000) {
        let len = rng.below(12);
        let s: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        lossy(&s); // asserts progress on every step
    }
}

#[test]
fn values_above_u10ffff_and_invalid_bytes_are_refused() {
    assert_refused_everywhere(b"\xF4\x90\x80\x80", ErrorKind::TooLarge);
    assert_refused_everywhere(b"\xF5\x80\x80\x80", ErrorKind::TooLarge);
    assert_refused_everywhere(b"\xF8\x88\x80\x80\x80", ErrorKind::InvalidByte);
    assert_refused_everywhere(b"\xFE\xFF", ErrorKind::InvalidByte);
}
