//! Streaming validation (utf8_stream_*) against `core::str::from_utf8` on the whole input:
//! every input of the core tests, fed in every split into two chunks, in one-byte chunks and
//! in random chunks, through the Rust API and the C functions. After each chunk the status is
//! that of the bytes seen so far: an error as soon as they cannot begin well-formed UTF-8.

mod common;

use core::ffi::c_char;
use core::ptr;

use common::{Rng, oracle};
use utf8::ffi::utf8_status::{self, *};
use utf8::ffi::{utf8_stream, utf8_stream_feed, utf8_stream_finish, utf8_stream_init};
use utf8::{ErrorKind, StreamState};

/// What a stream over `s` must report after its first `e` bytes, from the oracle's view of the
/// whole: OK and the end of the last complete character, or the first error once it is proven.
struct Expected<'a> {
    s: &'a [u8],
    /// The well-formed prefix of `s`, as the oracle sees it.
    valid: &'a str,
    /// The first error that more input cannot repair: status, offset, and the prefix length
    /// from which it is proven.
    error: Option<(utf8_status, usize, usize)>,
}

impl<'a> Expected<'a> {
    fn new(s: &'a [u8]) -> Self {
        let (valid_len, error) = match oracle(s) {
            Ok(()) => (s.len(), None),
            Err((at, ErrorKind::Truncated, _)) => (at, None),
            Err((at, kind, len)) => {
                // A maximal subpart that could still begin a character is proven wrong only by
                // the byte after it; one that could not (F8, C0, a stray 80) by itself.
                let incomplete =
                    core::str::from_utf8(&s[at..at + len]).is_err_and(|e| e.error_len().is_none());
                (
                    at,
                    Some((kind.into(), at, at + len + usize::from(incomplete))),
                )
            }
        };
        let valid = core::str::from_utf8(&s[..valid_len]).unwrap();
        Expected { s, valid, error }
    }

    /// After `e` bytes: the status and position utf8_stream_feed reports.
    fn after(&self, e: usize) -> (utf8_status, usize) {
        if let Some((status, at, proven)) = self.error {
            if e >= proven {
                return (status, at);
            }
        }
        let mut b = e.min(self.valid.len());
        while !self.valid.is_char_boundary(b) {
            b -= 1;
        }
        (UTF8_OK, b)
    }

    /// At the end: what utf8_validate says of the whole.
    fn at_end(&self) -> (utf8_status, usize) {
        match oracle(self.s) {
            Ok(()) => (UTF8_OK, self.s.len()),
            Err((at, kind, _)) => (kind.into(), at),
        }
    }
}

fn feed_c(st: &mut utf8_stream, chunk: &[u8]) -> (utf8_status, usize) {
    let mut at = usize::MAX;
    // SAFETY: `st` is a live stream, `chunk` a live slice, `at` a live local.
    let status =
        unsafe { utf8_stream_feed(st, chunk.as_ptr().cast::<c_char>(), chunk.len(), &mut at) };
    (status, at)
}

fn finish_c(st: &mut utf8_stream) -> (utf8_status, usize) {
    let mut at = usize::MAX;
    // SAFETY: `st` is a live stream, `at` a live local.
    let status = unsafe { utf8_stream_finish(st, &mut at) };
    (status, at)
}

fn rust_result(r: Result<u64, utf8::StreamError>) -> (utf8_status, usize) {
    match r {
        Ok(n) => (UTF8_OK, n as usize),
        Err(e) => (e.kind.into(), e.valid_up_to as usize),
    }
}

/// Feeds `s` cut at `cuts` (increasing offsets) through both APIs, checking every step.
fn check_chunks(s: &[u8], cuts: &[usize]) {
    let expected = Expected::new(s);
    let mut st = utf8_stream::default();
    let mut rust = StreamState::new();
    let mut start = 0;
    for &end in cuts.iter().chain([&s.len()]) {
        let chunk = &s[start..end];
        let want = expected.after(end);
        assert_eq!(
            feed_c(&mut st, chunk),
            want,
            "C feed to {end} of {s:02X?} cut at {cuts:?}"
        );
        assert_eq!(
            rust_result(rust.feed(chunk)),
            want,
            "Rust feed to {end} of {s:02X?}"
        );
        start = end;
    }
    let want = expected.at_end();
    assert_eq!(
        finish_c(&mut st),
        want,
        "finish of {s:02X?} cut at {cuts:?}"
    );
    assert_eq!(rust_result(rust.finish()), want, "Rust finish of {s:02X?}");
    // Errors are kept, TRUNCATED from finish included.
    if want.0 != UTF8_OK {
        assert_eq!(feed_c(&mut st, b"a"), want);
        assert_eq!(finish_c(&mut st), want);
    }
}

/// `s` in every split into two chunks, and in one-byte chunks.
fn check_splits(s: &[u8]) {
    for cut in 0..=s.len() {
        check_chunks(s, &[cut]);
    }
    let every: Vec<usize> = (1..s.len()).collect();
    check_chunks(s, &every);
}

#[test]
#[cfg_attr(
    miri,
    ignore = "exhaustive: too slow to interpret; the sampled tests run the same paths"
)]
fn every_input_of_one_and_two_bytes_and_three_after_each_lead_class() {
    check_splits(&[]);
    for a in 0..=255u8 {
        check_splits(&[a]);
        for b in 0..=255u8 {
            check_splits(&[a, b]);
        }
    }
    // One lead byte of each row of RFC 3629's table, then every two bytes.
    for a in [
        0x41, 0x80, 0xC2, 0xDF, 0xE0, 0xE1, 0xED, 0xEF, 0xF0, 0xF1, 0xF4, 0xF5, 0xFF,
    ] {
        for b in 0..=255u8 {
            for c in 0..=255u8 {
                check_splits(&[a, b, c]);
            }
        }
    }
}

#[test]
fn four_byte_sequences_and_their_errors_split_everywhere() {
    let mut rng = Rng::new(0x5EED_5001);
    for _ in 0..common::iterations(50_000) {
        let lead = 0xF0 + rng.below(5) as u8;
        let mut s = vec![lead];
        for _ in 0..3 {
            // Mostly continuation bytes, so that the sequences get far.
            s.push(if rng.below(6) == 0 {
                rng.next() as u8
            } else {
                0x80 | (rng.next() as u8 & 0x3F)
            });
        }
        s.push(b'z');
        check_splits(&s);
    }
}

#[test]
fn random_text_and_mutations_in_random_chunks() {
    let mut rng = Rng::new(0x5EED_5002);
    for _ in 0..common::iterations(5_000) {
        // Every split of every input is quadratic: short texts under Miri.
        let chars = rng.below(common::or_under_miri(120, 12));
        let mut s = rng.text(chars);
        if rng.below(2) == 0 {
            rng.mutate(&mut s);
        }
        check_splits(&s);
        let mut cuts = Vec::new();
        let mut at = 0;
        while at < s.len() {
            at += rng.below(9);
            cuts.push(at.min(s.len()));
        }
        check_chunks(&s, &cuts);
    }
}

#[test]
fn long_input_crosses_simd_blocks_in_chunks() {
    // The error, and the split characters, at positions inside and between SIMD blocks.
    let mut rng = Rng::new(0x5EED_5003);
    for _ in 0..common::iterations(300) {
        let len = 1 + rng.below(600);
        let mut s = rng.text_of_len(len);
        if rng.below(3) != 0 {
            rng.mutate(&mut s);
        }
        let mut cuts: Vec<usize> = (0..rng.below(6)).map(|_| rng.below(s.len() + 1)).collect();
        cuts.sort_unstable();
        check_chunks(&s, &cuts);
        let cut = rng.below(s.len() + 1);
        check_chunks(&s, &[cut]);
    }
}

/// Markus Kuhn's UTF-8 decoder stress test, from the shared test data (`$SHARED`, by default
/// `../shared` as in CI); skipped when absent.
#[test]
#[cfg_attr(miri, ignore = "reads a file and is too large to interpret")]
fn kuhn_stress_test_in_every_split_and_byte_by_byte() {
    let Some(text) = common::kuhn_stress_test() else {
        return;
    };
    // The whole file stops at its first error; so does each line that holds one.
    check_splits(&text);
    for line in text.split(|&b| b == b'\n') {
        check_splits(line);
    }
}

#[test]
fn the_issue_examples() {
    let mut st = utf8_stream::default();
    assert_eq!(feed_c(&mut st, b"ab\xF4"), (UTF8_OK, 2));
    assert_eq!(feed_c(&mut st, b"\x90"), (UTF8_ERR_TOO_LARGE, 2));
    assert_eq!(feed_c(&mut st, b"abc"), (UTF8_ERR_TOO_LARGE, 2));
    assert_eq!(finish_c(&mut st), (UTF8_ERR_TOO_LARGE, 2));

    let mut st = utf8_stream::default();
    assert_eq!(feed_c(&mut st, b"\xF4"), (UTF8_OK, 0));
    assert_eq!(feed_c(&mut st, b"\x8F"), (UTF8_OK, 0));
    assert_eq!(feed_c(&mut st, b""), (UTF8_OK, 0));
    assert_eq!(feed_c(&mut st, b"\xBF\xBFx"), (UTF8_OK, 5));
    assert_eq!(finish_c(&mut st), (UTF8_OK, 5));

    let mut st = utf8_stream::default();
    assert_eq!(feed_c(&mut st, b"x\xE2\x82"), (UTF8_OK, 1));
    assert_eq!(finish_c(&mut st), (UTF8_ERR_TRUNCATED, 1));
    assert_eq!(feed_c(&mut st, b"\xAC"), (UTF8_ERR_TRUNCATED, 1));
}

#[test]
fn init_equals_zero_and_restarts() {
    let mut st = utf8_stream {
        opaque: [7, 0x0102],
    };
    // SAFETY: `st` is a live local.
    unsafe { utf8_stream_init(&mut st) };
    assert_eq!(st.opaque, [0, 0]);
    assert_eq!(feed_c(&mut st, b"\xFF"), (UTF8_ERR_INVALID_BYTE, 0));
    // SAFETY: as above; NULL is ignored.
    unsafe {
        utf8_stream_init(&mut st);
        utf8_stream_init(ptr::null_mut());
    }
    assert_eq!(feed_c(&mut st, b"ok"), (UTF8_OK, 2));
}

#[test]
fn null_and_corrupt_states_are_refused_and_left_alone() {
    let mut st = utf8_stream::default();
    assert_eq!(feed_c(&mut st, b"\xC3"), (UTF8_OK, 0));
    let before = st.opaque;
    let mut at = 77usize;
    // SAFETY: a NULL chunk with a length and a NULL stream are refused before any access.
    unsafe {
        assert_eq!(
            utf8_stream_feed(&mut st, ptr::null(), 3, &mut at),
            UTF8_ERR_NULL_POINTER
        );
        assert_eq!(
            utf8_stream_feed(ptr::null_mut(), b"a".as_ptr().cast(), 1, &mut at),
            UTF8_ERR_NULL_POINTER
        );
        assert_eq!(
            utf8_stream_finish(ptr::null_mut(), &mut at),
            UTF8_ERR_NULL_POINTER
        );
        assert_eq!(
            utf8_stream_feed(&mut st, ptr::null(), 0, ptr::null_mut()),
            UTF8_OK
        );
    }
    assert_eq!((st.opaque, at), (before, 77));
    // States these functions never write: a pending count above 3, an unknown error code,
    // pending bytes that are not the start of a character, stray high bytes.
    for corrupt in [
        [0, 4 << 24],
        [0, 9 << 32],
        [0, 0x41 | 1 << 24],
        [0, 1 << 40],
        [0, 0x80 | 1 << 24],
    ] {
        assert_refused_and_left_alone(corrupt);
    }
}

/// Checks that feeding and finishing the stream state `corrupt` give
/// UTF8_ERR_INVALID_ARGUMENT and leave it as it is.
fn assert_refused_and_left_alone(corrupt: [u64; 2]) {
    let mut st = utf8_stream { opaque: corrupt };
    assert_eq!(
        feed_c(&mut st, b"a"),
        (UTF8_ERR_INVALID_ARGUMENT, usize::MAX),
        "{corrupt:X?}"
    );
    assert_eq!(finish_c(&mut st), (UTF8_ERR_INVALID_ARGUMENT, usize::MAX));
    assert_eq!(st.opaque, corrupt);
}

/// The documented promise, for the part of a state the checks of its fields cannot see: a
/// `utf8_stream` whose position is garbage (one bit changed, random words, the review's
/// `{0xDEADBEEF, 0}`), its other bytes those of a real state, is refused and left alone.
#[test]
fn states_with_a_wrong_position_are_refused() {
    let mut real = Vec::new();
    for (text, cut) in [("", 0), ("h\u{20AC}", 3), ("abc", 3), ("a\u{1F600}", 3)] {
        let mut st = utf8_stream::default();
        assert_eq!(feed_c(&mut st, &text.as_bytes()[..cut]).0, UTF8_OK);
        real.push(st.opaque);
    }
    let mut failed = utf8_stream::default();
    assert_eq!(feed_c(&mut failed, b"ab\xFF").0, UTF8_ERR_INVALID_BYTE);
    real.push(failed.opaque);
    let mut rng = Rng::new(0x5EED_5004);
    for [pos, fields] in real {
        let flipped = (0..64).map(|bit| pos ^ 1 << bit);
        let random = (0..common::iterations(1000)).map(|_| rng.next());
        for wrong in flipped.chain(random).chain([0xDEAD_BEEF]) {
            if wrong == pos {
                continue;
            }
            assert_refused_and_left_alone([wrong, fields]);
        }
    }
}

#[test]
fn a_copied_state_continues_independently() {
    let mut a = utf8_stream::default();
    assert_eq!(
        feed_c(&mut a, "h\u{20AC}".as_bytes().split_at(3).0),
        (UTF8_OK, 1)
    );
    let mut b = a;
    assert_eq!(feed_c(&mut a, b"\xAC"), (UTF8_OK, 4));
    assert_eq!(feed_c(&mut b, b"z"), (UTF8_ERR_MISSING_CONTINUATION, 1));
}
