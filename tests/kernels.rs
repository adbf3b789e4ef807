//! Every validation kernel this CPU supports (not only the one the dispatcher picks) against
//! the oracle, `core::str::from_utf8`: the same status, position and error length on every input.

mod common;

use common::{Rng, at_offset, oracle};
use utf8::internals::{ALIGN_FROM, BLOCK, GROUP, Isa};

/// Checks every supported kernel on `s`: validation against `core::str::from_utf8`, and the
/// character count against that of `String::from_utf8_lossy`, which replaces each maximal
/// subpart with one U+FFFD. The input is checked where it is and, if long enough for the
/// kernels to read it from a 64-byte boundary (`ALIGN_FROM`), also at a distance from one that
/// depends on its bytes, so that the many inputs of a test meet every distance.
fn check(s: &[u8]) {
    check_here(s);
    if s.len() < ALIGN_FROM {
        return;
    }
    let offset = s
        .iter()
        .fold(s.len(), |h, &b| h.wrapping_mul(31).wrapping_add(b.into()))
        % 64;
    let (buf, range) = at_offset(s, offset);
    check_here(&buf[range]);
}

/// `check` of `s` where it is.
fn check_here(s: &[u8]) {
    let expected_chars = String::from_utf8_lossy(s).chars().count();
    for isa in common::implementations() {
        assert_eq!(
            isa.count_chars(s),
            Some(expected_chars),
            "{} count_chars({s:02X?})",
            isa.name()
        );
    }
    // The dispatched functions run one of the kernels above again: not under Miri, which
    // would take a third longer.
    if !cfg!(miri) {
        assert_eq!(
            utf8::count_chars(s),
            expected_chars,
            "count_chars({s:02X?})"
        );
    }
    let expected = oracle(s);
    for isa in common::implementations() {
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
    if !cfg!(miri) {
        let got = utf8::validate(s).map_err(|e| (e.valid_up_to, e.kind, e.error_len));
        assert_eq!(got, expected, "dispatched validate on {s:02X?}");
    }
}

/// Every kernel (the scalar code aside) accepts all of `s`, which is well-formed.
fn assert_kernels_accept_all(s: &[u8]) {
    for isa in Isa::supported().filter(|isa| *isa != Isa::Scalar) {
        assert_eq!(
            isa.valid_blocks_len(s),
            Some(s.len()),
            "{} on {} bytes: {s:02X?}",
            isa.name(),
            s.len()
        );
    }
}

/// Every kernel (the scalar code aside) stops at the group of blocks that holds the first
/// error of `s`, at `error_at`: only a sequence cut off by the end of the prefix it accepts may
/// be in that prefix, and the group it rejects is rejected whole, so it starts less than
/// `GROUP` blocks before the error.
fn assert_kernels_stop_at_the_error(s: &[u8], error_at: usize) {
    for isa in Isa::supported().filter(|isa| *isa != Isa::Scalar) {
        let accepted = isa.valid_blocks_len(s).unwrap();
        assert!(
            accepted <= error_at + 3 && accepted + GROUP * BLOCK > error_at,
            "{} accepted {accepted} bytes, error at {error_at}: {s:02X?}",
            isa.name()
        );
    }
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
    let names = common::check_the_implementations_found();
    eprintln!("kernels supported by this CPU and tested: {names:?}");
}

/// The kernels themselves, not only the results: a kernel must accept all of a valid text
/// (else it silently falls back to scalar speed) and never a block past an error.
#[test]
fn kernels_accept_every_good_block_and_none_past_an_error() {
    let mut rng = Rng::new(0x5EED_1004);
    let text = rng.text(common::or_under_miri(5_000, 100));
    // All of it, the tail shorter than a block included.
    assert_kernels_accept_all(&text);
    for at in (0..text.len().min(1000)).step_by(common::or_under_miri(7, 61)) {
        for bad in BAD {
            let mut s = text.clone();
            s.splice(at..at, bad.iter().copied());
            let Err((valid_up_to, _, _)) = oracle(&s) else {
                unreachable!("BAD sequences are ill-formed in any context")
            };
            assert_kernels_stop_at_the_error(&s, valid_up_to);
        }
    }
}

/// Whole blocks of ASCII between blocks of other text, which a kernel skips unchecked when the
/// text before them ends between characters (or, AVX-512, checks inside a group that starts
/// with a block of other text): a kernel must accept all of such text, and find an error in the
/// blocks after the ASCII ones.
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
        assert_kernels_accept_all(&text);
        // An error in each block after the ASCII ones.
        let ascii_end = text.iter().rposition(|&b| b == b'a').unwrap() + 1;
        for at in (ascii_end..text.len()).step_by(common::or_under_miri(BLOCK / 2, 2 * BLOCK)) {
            let mut s = text.clone();
            s[at] = 0xFF;
            check(&s);
            let Err((valid_up_to, _, _)) = oracle(&s) else {
                unreachable!("FF is ill-formed anywhere")
            };
            assert_kernels_stop_at_the_error(&s, valid_up_to);
        }
    }
}

/// Texts to follow an error so that the input reaches the block loop (`ALIGN_FROM` bytes):
/// characters of every width, or ASCII.
fn long_suffixes() -> [Vec<u8>; 2] {
    [
        "\u{E9}\u{20AC}\u{1F600}z"
            .repeat(ALIGN_FROM.div_ceil(10))
            .into_bytes(),
        b"an ASCII tail after the error, ".repeat(ALIGN_FROM.div_ceil(31)),
    ]
}

/// An error in each block of a long run of ASCII, which the block loop tests a block at a time
/// for four blocks, then several at once (see `ascii_blocks` in src/algorithms/lookup.rs): the run at the
/// start of the input and after a block of other text, each bad sequence at the start, inside
/// and across the end of a block, in input long enough for the block loop (`ALIGN_FROM`), with
/// other text or ASCII after it.
#[test]
#[cfg_attr(
    miri,
    ignore = "exhaustive: too slow to interpret; the sampled tests run the same paths"
)]
fn an_error_in_every_block_of_a_long_ascii_run() {
    let suffixes = long_suffixes();
    for before in [Vec::new(), "\u{E9}".repeat(BLOCK / 2).into_bytes()] {
        // Up to three groups of four blocks after the first four.
        for blocks in 0..=16 {
            for within in [0, 1, 33, BLOCK - 2, BLOCK - 1] {
                for bad in BAD {
                    for suffix in &suffixes {
                        let mut s = before.clone();
                        s.resize(s.len() + blocks * BLOCK + within, b'a');
                        s.extend_from_slice(bad);
                        s.extend_from_slice(suffix);
                        check(&s);
                    }
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

/// Each kind of error in and around the bytes before the first 64-byte boundary of a long
/// input, which the kernels check apart, and the first block after it, at every distance of the
/// input from a boundary; then blocks of other text, or of ASCII, which the kernels skip after
/// a character boundary.
#[test]
#[cfg_attr(
    miri,
    ignore = "exhaustive: too slow to interpret; the sampled tests run the same paths"
)]
fn every_error_class_near_the_start_at_every_distance_from_a_64_byte_boundary() {
    let suffixes = long_suffixes();
    let step = common::sweep_step();
    for offset in 0..64 {
        for at in (0..=BLOCK + 8).skip(offset % step).step_by(step) {
            for width in 1..=4 {
                for bad in BAD {
                    for suffix in &suffixes {
                        let mut s = prefix(width, at);
                        s.extend_from_slice(bad);
                        s.extend_from_slice(suffix);
                        assert!(s.len() >= ALIGN_FROM);
                        let (buf, range) = at_offset(&s, offset);
                        check_here(&buf[range]);
                    }
                }
            }
        }
    }
}

/// Long input at distances from a 64-byte boundary, valid, or with an error just before the
/// first boundary or just after it; also under Miri, which checks that the kernels read no
/// byte outside the input (the AVX-512 kernel's first load has an address before it).
#[test]
fn long_input_at_distances_from_a_64_byte_boundary() {
    let mut rng = Rng::new(0x5EED_1005);
    let text = rng.text(ALIGN_FROM + 100);
    for offset in (1..64).step_by(common::or_under_miri(1, 62)) {
        // Under Miri, the input with an error only: its reads are the valid one's and more.
        if !cfg!(miri) {
            let (buf, range) = at_offset(&text, offset);
            check_here(&buf[range]);
        }
        let head = 64 - offset;
        for at in [head - 1, head]
            .into_iter()
            .skip(common::or_under_miri(0, 1))
        {
            let mut s = text.clone();
            s[at] = 0xFF;
            let (buf, range) = at_offset(&s, offset);
            check_here(&buf[range]);
        }
    }
}

#[test]
fn valid_text_of_every_length_up_to_several_blocks() {
    let mut rng = Rng::new(0x5EED_1001);
    for len in (0..600).step_by(common::or_under_miri(1, 97)) {
        let text = rng.text(len);
        check(&text);
        for width in (1..=4).step_by(common::or_under_miri(1, 3)) {
            check(&prefix(width, len));
        }
    }
}

#[test]
fn random_text_with_random_mutations() {
    // A thousand strings of every 1..4-byte mix, up to 1024 bytes, times a thousand
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
    for bad in BAD.iter().step_by(common::or_under_miri(1, 3)) {
        let ats = [text.len() / 2, text.len() - 70, text.len() - 1];
        for at in ats.into_iter().step_by(common::or_under_miri(1, 2)) {
            let mut s = text[..at].to_vec();
            s.extend_from_slice(bad);
            s.extend_from_slice(&text[at..]);
            check(&s);
        }
    }
}

/// Input long enough for the kernels' block loop for long input (`STREAM_FROM` bytes; x86_64
/// only, elsewhere there is none), which prefetches but in `avx512-zen4`: valid, and with an
/// error in its first group of blocks, in the middle, and in its last block and its tail; then
/// all ASCII, with an error in each block of a run after its first four.
#[test]
#[cfg(target_arch = "x86_64")]
#[cfg_attr(miri, ignore = "megabytes are too slow to interpret")]
fn input_long_enough_for_the_prefetching_loop() {
    let mut rng = Rng::new(0x5EED_1006);
    let text = rng.text_of_len(utf8::internals::STREAM_FROM + 1000);
    check(&text);
    let middle = utf8::internals::STREAM_FROM / 2;
    for bad in [&b"\xF4\x90\x80\x80"[..], b"\xE0\x80", b"\xBF"] {
        for at in [200, middle - 1, middle + 1, text.len() - 70, text.len() - 1] {
            let at = (0..=at).rev().find(|&i| text[i] & 0xC0 != 0x80).unwrap();
            let mut s = text[..at].to_vec();
            s.extend_from_slice(bad);
            s.extend_from_slice(&text[at..]);
            check(&s);
        }
    }
    // Runs of ASCII, which this loop tests two blocks at a time (see `ascii_blocks` in
    // src/algorithms/lookup.rs): an error in each of the blocks after the first four of a run, at
    // the start of the input and in the middle.
    let ascii = vec![b'a'; utf8::internals::STREAM_FROM + 1000];
    check(&ascii);
    for start in [0, middle - middle % BLOCK] {
        for at in (start + 4 * BLOCK..start + 12 * BLOCK).step_by(BLOCK / 2) {
            let mut s = ascii.clone();
            s[at] = 0xFF;
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
        for at in (0..len).step_by(common::or_under_miri(1, 41)) {
            let mut s = vec![0; len];
            s[at] = byte;
            check(&s);
        }
    }
}

/// ASCII but for one character, good or bad, at each position, in input longer than kernels
/// check as one tail (`GROUP` blocks) and shorter than `ALIGN_FROM`: kernels test such input
/// for ASCII, four blocks at a time and then the last 64 bytes, before their block loop, and
/// after ASCII blocks check a block followed by nothing but ASCII as a tail of its own. The
/// character lies inside a block, across a block boundary or at the end; cut off, it leaves a
/// sequence open at the end of a block or of the input.
#[test]
#[cfg_attr(
    miri,
    ignore = "17,000 inputs; a lone byte among NUL bytes runs this path"
)]
fn one_character_that_is_not_ascii_at_each_position_before_the_block_loop() {
    let characters: [&[u8]; 6] = [
        "\u{E9}".as_bytes(),
        "\u{20AC}".as_bytes(),
        "\u{1F600}".as_bytes(),
        &[0x80],
        &[0xE2, 0x82],
        &[0xF0],
    ];
    for len in [GROUP * BLOCK + 1, 8 * BLOCK + 1, ALIGN_FROM - 1] {
        for character in characters {
            for at in 0..=len - character.len() {
                let mut s = vec![b'a'; len];
                s[at..at + character.len()].copy_from_slice(character);
                check(&s);
            }
        }
    }
}

/// ASCII blocks, then other text from a block boundary on, in input longer than kernels check
/// as one tail and shorter than `ALIGN_FROM`: a kernel skips the blocks its ASCII test found
/// ASCII and checks the rest as one tail or with its block loop, by the rest's length. Every
/// such boundary, in three lengths, good and with an error at places in the rest; the counts
/// must include the ASCII skipped.
#[test]
#[cfg_attr(
    miri,
    ignore = "2,000 inputs; a lone byte among NUL bytes runs the tail after ASCII"
)]
fn other_text_after_ascii_blocks_found_by_the_ascii_test() {
    let other = "\u{E9}\u{20AC}\u{1F600}z".repeat(ALIGN_FROM / 10);
    for len in [GROUP * BLOCK + 7, 12 * BLOCK + 33, ALIGN_FROM - 1] {
        for ascii in 0..len / BLOCK {
            let start = ascii * BLOCK;
            let mut s = vec![b'a'; start];
            let rest = other.as_bytes();
            // Whole characters, padded with ASCII to the length.
            let cut = (0..=len - start)
                .rev()
                .find(|&n| other.is_char_boundary(n))
                .unwrap();
            s.extend_from_slice(&rest[..cut]);
            s.resize(len, b'z');
            check(&s);
            for at in [
                start,
                start + 1,
                start + BLOCK - 1,
                start + BLOCK + 2,
                len - 1,
            ] {
                if at < len {
                    let mut bad = s.clone();
                    bad[at] = 0xFF;
                    check(&bad);
                }
            }
        }
    }
}

/// Blocks of ASCII ("A") and of other text ("N") in every order, up to six blocks and a tail:
/// a kernel may check an ASCII block inside a group that starts with another block (AVX-512
/// checks a block that is not ASCII with the next two whatever they hold), load the bytes
/// before a block again from memory, or skip a run of ASCII after a group. Each BAD sequence is
/// written over the bytes at every offset from four before to four after each block boundary,
/// so that it cuts or breaks a sequence left open at the end of a group, lies in the one to
/// three bytes before a block, in an ASCII block of a group, or just after a skipped run.
#[test]
#[cfg_attr(
    miri,
    ignore = "exhaustive: too slow to interpret; the sampled tests run the same paths"
)]
fn every_order_of_ascii_and_other_blocks_with_errors_at_block_boundaries() {
    // Blocks of other text in three shapes: characters of 2, 3 and 4 bytes filling exactly 64.
    let others: [Vec<u8>; 3] = [
        "\u{E9}".repeat(32).into_bytes(),
        format!("-{}", "\u{20AC}".repeat(21)).into_bytes(),
        "\u{1F600}".repeat(16).into_bytes(),
    ];
    let tails: [&[u8]; 3] = [
        b"",
        b"z",
        "\u{E9}xyz\u{20AC}abcdefghijklmnopqrstuvwxyz".as_bytes(),
    ];
    for blocks in 1..=6usize {
        for pattern in 0..1u32 << blocks {
            for (t, tail) in tails.iter().enumerate() {
                let mut text = Vec::with_capacity(blocks * BLOCK + tail.len());
                for b in 0..blocks {
                    if pattern >> b & 1 == 1 {
                        text.extend_from_slice(&others[(b + t + pattern as usize) % 3]);
                    } else {
                        text.extend_from_slice(&[b'a'; BLOCK]);
                    }
                }
                text.extend_from_slice(tail);
                assert_eq!(text.len(), blocks * BLOCK + tail.len());
                check(&text);
                assert_kernels_accept_all(&text);
                for boundary in (1..=blocks).map(|b| b * BLOCK) {
                    for at in boundary.saturating_sub(4)..boundary + 4 {
                        for bad in BAD {
                            let mut s = text.clone();
                            let end = (at + bad.len()).min(s.len());
                            if at >= end {
                                continue;
                            }
                            s[at..end].copy_from_slice(&bad[..end - at]);
                            check(&s);
                            let Err((valid_up_to, _, _)) = oracle(&s) else {
                                continue;
                            };
                            assert_kernels_stop_at_the_error(&s, valid_up_to);
                        }
                    }
                }
            }
        }
    }
}

/// Writes `bytes` into a text of blocks of "\u{E9}" and ASCII at `at`, and replaces with '-' a
/// C3 lead before them or an A9 continuation after them that they cut from its character.
fn put(s: &mut [u8], at: usize, bytes: &[u8]) {
    s[at..at + bytes.len()].copy_from_slice(bytes);
    if at > 0 && s[at - 1] == 0xC3 {
        s[at - 1] = b'-';
    }
    if let Some(after) = s.get_mut(at + bytes.len()) {
        if *after == 0xA9 {
            *after = b'-';
        }
    }
}

/// The shapes of AVX-512's groups of three (a block that is not ASCII with the next two,
/// whatever they hold), one by one; `check` compares with `core::str::from_utf8`.
#[test]
#[cfg_attr(
    miri,
    ignore = "shapes of AVX-512's groups, which Miri does not run; the sampled tests run the rest"
)]
fn groups_of_three_with_ascii_blocks_named_shapes() {
    let n = "\u{E9}".repeat(32).into_bytes(); // a block of 2-byte characters
    let a = vec![b'a'; BLOCK]; // an ASCII block
    let cat = |parts: &[&[u8]]| parts.concat();
    const OPEN: [&[u8]; 6] = [
        b"\xC2",
        b"\xE2\x82",
        b"\xF0\x9F\x98",
        b"\xE2",
        b"\xF0\x9F",
        b"\xF0",
    ];

    // [N open at its end, A, N]: the sequence is cut off by the ASCII block, which the group
    // checks instead of skipping. With no tail, a short one, and a block more.
    for open in OPEN {
        for tail in [&b""[..], b"q", &n[..]] {
            let mut s = cat(&[&n, &a, &n, tail]);
            let at = BLOCK - open.len();
            put(&mut s, at, open);
            check(&s);
            assert_eq!(oracle(&s).unwrap_err().0, at, "{s:02X?}");
        }
    }

    // [N, A, N] with an error in the third block; [N, N, A] with one in the second.
    for at in [2 * BLOCK, 2 * BLOCK + 1, 3 * BLOCK - 1] {
        let mut s = cat(&[&n, &a, &n, &a, &a]);
        s[at] = 0xFF;
        check(&s);
        assert_eq!(oracle(&s).unwrap_err().0, at & !1, "{s:02X?}");
    }
    for at in [BLOCK, BLOCK + 1, 2 * BLOCK - 1] {
        let mut s = cat(&[&n, &n, &a, &a, &a, &n]);
        s[at] = 0xFF;
        check(&s);
        assert_eq!(oracle(&s).unwrap_err().0, at & !1, "{s:02X?}");
    }

    // [N, N open at its end, A], then an ASCII run: the group's ASCII block cuts the sequence.
    for open in OPEN {
        let mut s = cat(&[&n, &n, &a, &a, &a, &n]);
        let at = 2 * BLOCK - open.len();
        put(&mut s, at, open);
        check(&s);
        assert_eq!(oracle(&s).unwrap_err().0, at, "{s:02X?}");
    }

    // A group of three whose third block is ASCII, a skipped ASCII run, then a block whose
    // bytes before are loaded from that run, with an error in its first bytes.
    for bad in [
        &b"\x80"[..],
        b"\xBF\x80",
        b"-\xFF",
        b"--\xC0\x80",
        b"\xE0\x80\x80",
    ] {
        let mut s = cat(&[&n, &n, &a, &a, &a, &n, b"tail"]);
        put(&mut s, 5 * BLOCK, bad);
        check(&s);
        assert!(oracle(&s).unwrap_err().0 >= 5 * BLOCK, "{s:02X?}");
    }

    // An error in the one to three bytes before a block that starts a group, loaded from
    // memory: the group [0, 1, 2] ends with a sequence that block 3 fails to complete, with
    // block 3 not ASCII (a group) or ASCII (a run).
    for open in OPEN {
        for first in [&b"A"[..], b"\xC3\xA9", b"\x80\x80\x80\x80"] {
            for fourth in [&n, &a] {
                let mut s = cat(&[&n, &n, &n, fourth, &n]);
                let at = 3 * BLOCK - open.len();
                put(&mut s, at, open);
                put(&mut s, 3 * BLOCK, first);
                check(&s);
            }
        }
    }

    // Characters of every width across every block boundary, in groups and runs: valid, and
    // accepted whole by every kernel.
    for layout in [
        [&n, &n, &n, &n, &n],
        [&n, &a, &n, &n, &a],
        [&n, &n, &a, &n, &n],
        [&n, &a, &a, &n, &a],
    ] {
        let text = cat(&layout.map(|b| &b[..]));
        for c in ["\u{E9}", "\u{20AC}", "\u{1F600}"] {
            for boundary in (1..layout.len()).map(|b| b * BLOCK) {
                for before in 1..c.len() {
                    let mut s = text.clone();
                    put(&mut s, boundary - before, c.as_bytes());
                    assert!(core::str::from_utf8(&s).is_ok(), "{s:02X?}");
                    check(&s);
                    assert_kernels_accept_all(&s);
                }
            }
        }
    }
}

/// Every pair of bytes across a block boundary, in blocks of 2-byte characters and of ASCII:
/// the bytes before a block, loaded again from memory by AVX-512, of every class, inside a
/// group of three (at 64 and 128) and before the first block of the next group (at 192).
#[test]
#[cfg_attr(
    miri,
    ignore = "exhaustive: too slow to interpret; the sampled tests run the same paths"
)]
fn every_byte_pair_across_a_block_boundary() {
    let n = "\u{E9}".repeat(32).into_bytes();
    let a = vec![b'a'; BLOCK];
    for layout in [
        [&n, &n, &n, &n, &n],
        [&n, &a, &a, &n, &n],
        [&n, &a, &n, &a, &n],
    ] {
        let text = layout.map(|b| &b[..]).concat();
        for boundary in [BLOCK, 2 * BLOCK, 3 * BLOCK] {
            for x in 0..=255u8 {
                for y in common::sampled_bytes(x.into()) {
                    let mut s = text.clone();
                    put(&mut s, boundary - 1, &[x, y]);
                    check(&s);
                }
            }
        }
    }
}
