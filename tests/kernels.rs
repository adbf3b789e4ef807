//! Every validation kernel this CPU supports (not only the one the dispatcher picks) against
//! the oracle, `core::str::from_utf8`: the same status, position and error length on every input.

mod common;

use common::{Rng, oracle};
use utf8::simd::{BLOCK, GROUP, Isa};

/// Checks every supported kernel on `s`: validation against `core::str::from_utf8`, and the
/// character count against that of `String::from_utf8_lossy`, which replaces each maximal
/// subpart with one U+FFFD.
fn check(s: &[u8]) {
    let expected_chars = String::from_utf8_lossy(s).chars().count();
    for isa in Isa::supported() {
        assert_eq!(
            isa.count_chars(s),
            Some(expected_chars),
            "{} count_chars({s:02X?})",
            isa.name()
        );
    }
    assert_eq!(
        utf8::count_chars(s),
        expected_chars,
        "count_chars({s:02X?})"
    );
    let expected = oracle(s);
    for isa in Isa::supported() {
        let got = isa
            .validate(s)
            .expect("supported")
            .map_err(|e| (e.valid_up_to, e.kind, e.error_len));
        assert_eq!(
            got,
            expected,
            "{} on {} bytes: {s:02X?}",
            isa.name(),
            s.len()
        );
    }
    let got = utf8::validate(s).map_err(|e| (e.valid_up_to, e.kind, e.error_len));
    assert_eq!(got, expected, "dispatched validate on {s:02X?}");
}

/// One ill-formed sequence of each error class, and the ways a sequence can be cut short.
const BAD: &[&[u8]] = &[
    b"\x80",
    b"\xBF", // unexpected continuation
    b"\xC0\x80",
    b"\xC1\xBF",
    b"\xE0\x80\x80",
    b"\xE0\x9F\xBF",
    b"\xF0\x80\x80\x80",
    b"\xF0\x8F\xBF\xBF", // overlong
    b"\xED\xA0\x80",
    b"\xED\xBF\xBF", // surrogates
    b"\xF4\x90\x80\x80",
    b"\xF5\x80\x80\x80",
    b"\xF7\xBF\xBF\xBF", // above U+10FFFF
    b"\xF8\x88\x80\x80\x80",
    b"\xFE",
    b"\xFF", // never UTF-8
    b"\xC2A",
    b"\xE2A",
    b"\xE2\x82A",
    b"\xF0\x9F\x98A",
    b"\xF0A", // missing continuation
    b"\xC2\x80\x80",
    b"\xE2\x82\xAC\x80",
    b"\xF0\x9F\x98\x80\x80", // one continuation too many
    b"\xC2",
    b"\xE2\x82",
    b"\xF0\x9F\x98", // truncated (when nothing follows)
];

/// `len` bytes of characters of `width` bytes, padded at the front with ASCII, so that the
/// bytes just before the end are whole characters of that width.
fn prefix(width: usize, len: usize) -> Vec<u8> {
    let sample = ['a', '\u{E9}', '\u{20AC}', '\u{1F600}'][width - 1].to_string();
    let mut s = vec![b'-'; len % width];
    s.extend(sample.repeat(len / width).bytes());
    s
}

#[test]
fn kernels_are_tested_here() {
    let names: Vec<_> = Isa::supported().map(Isa::name).collect();
    eprintln!("kernels supported by this CPU and tested: {names:?}");
    assert!(names.contains(&"scalar"));
}

/// The kernels themselves, not only the results: a kernel must accept all of a valid text
/// (else it silently falls back to scalar speed) and never a block past an error.
#[test]
fn kernels_accept_every_good_block_and_none_past_an_error() {
    let mut rng = Rng::new(0x5EED_1004);
    let text = rng.text(common::or_under_miri(5_000, 100));
    for isa in Isa::supported().filter(|isa| *isa != Isa::Scalar) {
        // All of it, the tail shorter than a block included.
        let accepted = isa.valid_blocks_len(&text);
        assert_eq!(accepted, Some(text.len()), "{} on valid text", isa.name());
        for at in (0..text.len().min(1000)).step_by(common::or_under_miri(7, 61)) {
            for bad in BAD {
                let mut s = text.clone();
                s.splice(at..at, bad.iter().copied());
                let Err((valid_up_to, _, _)) = oracle(&s) else {
                    unreachable!("BAD sequences are ill-formed in any context")
                };
                let accepted = isa.valid_blocks_len(&s).unwrap();
                // Only a sequence cut off by the end of the accepted prefix may be in it.
                assert!(
                    accepted <= valid_up_to + 3,
                    "{} accepted {accepted} bytes, error at {valid_up_to}: {bad:02X?}",
                    isa.name()
                );
                // Blocks are checked in groups, and a group with an error is rejected whole.
                assert!(
                    accepted + GROUP * BLOCK > valid_up_to,
                    "{} rejected a group of blocks before the error",
                    isa.name()
                );
            }
        }
    }
}

/// Whole blocks of ASCII between blocks of other text, which the kernels skip unchecked when
/// the text before them ends between characters: a kernel must accept all of such text, and
/// find an error in the blocks after the ASCII ones.
#[test]
fn kernels_accept_ascii_blocks_between_other_text() {
    let texts = [
        format!(
            "{}{}{}",
            "\u{E9}".repeat(32),
            "a".repeat(64),
            "\u{E9}".repeat(32)
        ),
        // A 3-byte character ends the first block exactly.
        format!(
            "-{}{}{}",
            "\u{20AC}".repeat(21),
            "a".repeat(128),
            "\u{1F600}".repeat(16)
        ),
        format!("{}{}", "\u{1F600}".repeat(16), "a".repeat(64)),
        format!("{}{}0123456789", "\u{1F600}".repeat(16), "a".repeat(64)),
        format!(
            "{}{}{}",
            "\u{E9}".repeat(5 * 32),
            "a".repeat(3 * 64),
            "\u{E9}".repeat(5 * 32)
        ),
    ];
    for text in texts {
        let text = text.into_bytes();
        check(&text);
        for isa in Isa::supported().filter(|isa| *isa != Isa::Scalar) {
            assert_eq!(
                isa.valid_blocks_len(&text),
                Some(text.len()),
                "{} on {} bytes",
                isa.name(),
                text.len()
            );
            // An error in each block after the ASCII ones.
            let ascii_end = text.iter().rposition(|&b| b == b'a').unwrap() + 1;
            for at in (ascii_end..text.len()).step_by(common::or_under_miri(BLOCK / 2, 2 * BLOCK)) {
                let mut s = text.clone();
                s[at] = 0xFF;
                check(&s);
                let accepted = isa.valid_blocks_len(&s).unwrap();
                assert!(
                    accepted <= at && accepted + GROUP * BLOCK > at,
                    "{} accepted {accepted} bytes, error at {at}",
                    isa.name()
                );
            }
        }
    }
}

#[test]
#[cfg_attr(
    miri,
    ignore = "exhaustive: too slow to interpret; the sampled tests run the same paths"
)]
fn every_error_class_at_every_offset_around_block_boundaries() {
    let suffixes: [Vec<u8>; 3] = [
        Vec::new(),
        // Whole blocks of ASCII after the error, wherever it ends: the kernels skip them
        // without checking, and must not do so after a sequence cut off at a block's end.
        b"an ASCII tail after the error, ".repeat(5),
        "\u{E9}\u{20AC}\u{1F600}z".repeat(20).into_bytes(),
    ];
    // Every offset up to past two groups of blocks covers 16, 32, 64 and their multiples,
    // +-1, +-3, and an error in each block of a group that follows a group without one.
    for at in 0..=2 * GROUP * BLOCK + 8 {
        for width in 1..=4 {
            let head = prefix(width, at);
            for bad in BAD {
                for suffix in &suffixes {
                    let mut s = head.clone();
                    s.extend_from_slice(bad);
                    s.extend_from_slice(suffix);
                    check(&s);
                }
            }
        }
    }
}

#[test]
fn valid_text_of_every_length_up_to_several_blocks() {
    let mut rng = Rng::new(0x5EED_1001);
    for len in (0..600).step_by(common::or_under_miri(1, 37)) {
        let text = rng.text(len);
        check(&text);
        for width in 1..=4 {
            check(&prefix(width, len));
        }
    }
}

#[test]
fn random_text_with_random_mutations() {
    // Thousands of strings of every 1..4-byte mix, up to 1024 bytes, times a thousand
    // mutations each (byte replacements, bit flips, cuts).
    let mut rng = Rng::new(0x5EED_1002);
    for _ in 0..common::iterations(1_000) {
        let len = rng.below(1025);
        let text = rng.text_of_len(len);
        check(&text);
        for _ in 0..common::iterations(1_000) {
            let mut s = text.clone();
            rng.mutate(&mut s);
            check(&s);
        }
    }
}

#[test]
fn long_inputs_with_one_error_far_from_the_start() {
    let mut rng = Rng::new(0x5EED_1003);
    let text = rng.text(common::or_under_miri(100_000, 100));
    for bad in BAD {
        for at in [text.len() / 2, text.len() - 70, text.len() - 1] {
            let mut s = text[..at].to_vec();
            s.extend_from_slice(bad);
            s.extend_from_slice(&text[at..]);
            check(&s);
        }
    }
}

/// After an error, counting looks at the next block with the scalar code before going back to
/// a kernel: a second error at every distance from the first, and characters of every width cut
/// by the end of that block.
#[test]
#[cfg_attr(
    miri,
    ignore = "exhaustive: too slow to interpret; the sampled tests run the same paths"
)]
fn a_second_error_at_every_distance_from_the_first() {
    let tail = "\u{E9}\u{20AC}\u{1F600}z".repeat(20).into_bytes();
    for gap in 0..=2 * 64 + 8 {
        for width in 1..=4 {
            for (first, second) in [(&b"\xFF"[..], &b"\xE2\x82"[..]), (b"\xF0\x9F\x98", b"\x80")] {
                let mut s = b"lead ".to_vec();
                s.extend_from_slice(first);
                s.extend_from_slice(&prefix(width, gap));
                s.extend_from_slice(second);
                s.extend_from_slice(&tail);
                check(&s);
                s.truncate(s.len() - tail.len() - second.len());
                check(&s);
            }
        }
    }
}

/// One byte that is not ASCII among NUL bytes: the bytes of such a block ORed together are the
/// byte itself, so a kernel that tested "above 0x80" for "not ASCII" would skip a lone 0x80
/// (continuation byte) as ASCII. Every position in five blocks, so that the byte falls in the
/// first, a middle and the last block, and in the tail.
#[test]
fn a_lone_byte_among_nul_bytes_at_every_position() {
    let len = 4 * BLOCK + BLOCK / 2;
    for byte in [0x80, 0xBF, 0xC2, 0xF5, 0xFF] {
        for at in (0..len).step_by(common::or_under_miri(1, 17)) {
            let mut s = vec![0; len];
            s[at] = byte;
            check(&s);
        }
    }
}
