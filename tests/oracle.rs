//! The codec against independent oracles: `core::str::from_utf8` for validity, position and
//! error length, `char::encode_utf8` for encoding, and the classification table of RFC 3629
//! byte ranges (testkit/) for the error kind.

mod common;

use common::{Rng, oracle};
use utf8::{ErrorKind, count_chars, decode_next, encode, validate};

/// Checks `validate`, `decode_next` and `count_chars` on `s` against the oracles.
fn check(s: &[u8]) {
    check_decoding(s);
    // Each maximal subpart is one U+FFFD in lossy decoding, and one character for count_chars.
    let lossy_chars = String::from_utf8_lossy(s).chars().count();
    assert_eq!(count_chars(s), lossy_chars, "count_chars({s:02X?})");
}

/// Checks `validate` and `decode_next` on `s` against `core::str::from_utf8`.
fn check_decoding(s: &[u8]) {
    let expected = oracle(s);
    let got = validate(s).map_err(|e| (e.valid_up_to, e.kind, e.error_len));
    assert_eq!(got, expected, "validate({s:02X?})");

    // decode_next at the start: the first character, or the maximal subpart of the error.
    let decoded = decode_next(s).map_err(|m| (m.kind, m.len));
    match expected {
        _ if s.is_empty() => assert_eq!(decoded, Err((ErrorKind::Truncated, 0))),
        Err((0, kind, len)) => assert_eq!(decoded, Err((kind, len)), "decode_next({s:02X?})"),
        _ => {
            let valid = core::str::from_utf8(&s[..oracle_valid_len(s)]).unwrap();
            let c = valid.chars().next().unwrap();
            assert_eq!(
                decoded,
                Ok((u32::from(c), c.len_utf8())),
                "decode_next({s:02X?})"
            );
        }
    }
}

fn oracle_valid_len(s: &[u8]) -> usize {
    match core::str::from_utf8(s) {
        Ok(_) => s.len(),
        Err(e) => e.valid_up_to(),
    }
}

#[test]
#[cfg_attr(
    miri,
    ignore = "exhaustive: too slow to interpret; the sampled tests run the same paths"
)]
fn every_input_of_one_to_three_bytes() {
    check(&[]);
    for a in 0..=255u8 {
        check(&[a]);
        for b in 0..=255u8 {
            check(&[a, b]);
            for c in common::sampled_bytes(usize::from(a) + usize::from(b)) {
                check(&[a, b, c]);
            }
        }
    }
}

#[test]
#[cfg_attr(
    miri,
    ignore = "exhaustive: too slow to interpret; the sampled tests run the same paths"
)]
fn every_three_bytes_before_a_fourth_of_each_class() {
    // With four or more bytes left, decoding takes a word-at-a-time path: cover it for every
    // three-byte start, followed by an ASCII byte, a continuation and a lead byte.
    for a in 0..=255u8 {
        for b in 0..=255u8 {
            for c in common::sampled_bytes(usize::from(a) + usize::from(b)) {
                for d in [b'z', 0x80, 0xBF, 0xC3] {
                    check_decoding(&[a, b, c, d]);
                }
            }
        }
    }
}

#[test]
#[cfg_attr(
    miri,
    ignore = "exhaustive: too slow to interpret; the sampled tests run the same paths"
)]
fn every_four_byte_input_starting_f0_to_f4() {
    for a in 0xF0..=0xF4u8 {
        for b in 0..=255u8 {
            for c in 0..=255u8 {
                for d in common::sampled_bytes(usize::from(b) + usize::from(c)) {
                    // 84 million inputs: the lossy-count oracle's allocation would dominate.
                    check_decoding(&[a, b, c, d]);
                }
            }
        }
    }
}

#[test]
#[cfg_attr(
    miri,
    ignore = "exhaustive: too slow to interpret; the sampled tests run the same paths"
)]
fn every_lead_byte_before_every_byte_after_ascii_and_multibyte_prefixes() {
    // The error position must be exact after prefixes of every width, not only at offset 0.
    let prefixes: [&[u8]; 5] = [
        b"",
        b"abc",
        "\u{E9}".as_bytes(),
        "\u{20AC}".as_bytes(),
        "\u{1F600}".as_bytes(),
    ];
    for prefix in prefixes {
        for a in 0..=255u8 {
            for b in 0..=255u8 {
                let mut s = prefix.to_vec();
                s.extend_from_slice(&[a, b, b'z']);
                check(&s);
            }
        }
    }
}

/// Short ASCII input (up to 256 bytes) is validated and counted without a kernel, by reads that
/// overlap: one byte above 0x7F at each position, in every length up to and past that bound.
#[test]
fn short_ascii_with_one_other_byte_at_each_position() {
    // Under Miri, the lengths where the reads change, and one byte at every 13th position.
    let (lengths, bytes) = common::or_under_miri(
        ((0..=300).collect(), &[0x80, 0xC3, 0xFF][..]),
        (
            vec![0, 3, 4, 7, 8, 15, 16, 31, 32, 63, 64, 65, 127, 257],
            &[0xC3][..],
        ),
    );
    for len in lengths {
        let mut s = vec![b'a'; len];
        check(&s);
        for pos in (0..len).step_by(common::or_under_miri(1, 13)) {
            for &byte in bytes {
                s[pos] = byte;
                check(&s);
            }
            s[pos] = b'a';
        }
    }
}

#[test]
fn random_text_and_mutations() {
    let mut rng = Rng::new(0x5EED_0001);
    for _ in 0..common::iterations(20_000) {
        let chars = rng.below(300);
        let text = rng.text(chars);
        check(&text);
        for _ in 0..common::iterations(10) {
            let mut s = text.clone();
            rng.mutate(&mut s);
            check(&s);
        }
    }
}

#[test]
fn random_bytes() {
    let mut rng = Rng::new(0x5EED_0002);
    for _ in 0..common::iterations(200_000) {
        let len = rng.below(40);
        // Mostly high bytes, where all the errors are.
        let s: Vec<u8> = (0..len)
            .map(|_| {
                let high = if rng.below(4) == 0 { 0 } else { 0x80 };
                rng.next() as u8 | high
            })
            .collect();
        check(&s);
    }
}

#[test]
fn decoding_loop_advances_and_matches_lossy_decoding() {
    // A loop that emits U+FFFD and skips the maximal subpart must equal from_utf8_lossy.
    let mut rng = Rng::new(0x5EED_0003);
    for _ in 0..common::iterations(20_000) {
        let chars = rng.below(64);
        let mut s = rng.text(chars);
        rng.mutate(&mut s);
        let mut out = String::new();
        let mut rest = &s[..];
        while !rest.is_empty() {
            let (c, n) = match decode_next(rest) {
                Ok((cp, n)) => (char::from_u32(cp).unwrap(), n),
                Err(m) => ('\u{FFFD}', m.len),
            };
            assert!(n >= 1, "decode step on {rest:02X?} did not advance");
            out.push(c);
            rest = &rest[n..];
        }
        assert_eq!(
            out,
            String::from_utf8_lossy(&s),
            "lossy decoding of {s:02X?}"
        );
    }
}

#[test]
#[cfg_attr(
    miri,
    ignore = "exhaustive: too slow to interpret; the sampled tests run the same paths"
)]
fn every_scalar_value_round_trips() {
    for v in 0..=0x10_FFFFu32 {
        let Some(c) = char::from_u32(v) else {
            assert_eq!(encode(v), Err(ErrorKind::Surrogate), "U+{v:04X}");
            continue;
        };
        let mut buf = [0u8; 4];
        let expected = c.encode_utf8(&mut buf).as_bytes();
        let encoded = encode(v).unwrap();
        assert_eq!(encoded.as_bytes(), expected, "encode(U+{v:04X})");
        assert_eq!(
            decode_next(expected),
            Ok((v, expected.len())),
            "decode U+{v:04X}"
        );
    }
}

#[test]
fn values_above_u10ffff_are_refused() {
    for v in [0x11_0000, 0x1F_FFFF, 0x7FFF_FFFF, 0x8000_0000, u32::MAX] {
        assert_eq!(encode(v), Err(ErrorKind::TooLarge), "encode({v:#X})");
    }
}
