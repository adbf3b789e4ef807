//! The converters between UTF-8 and UTF-16 / UTF-32, every implementation this CPU supports
//! and the C functions, against Rust's own codecs as the oracle: `str::from_utf8`,
//! `str::encode_utf16`, `char::decode_utf16`, `String::from_utf8_lossy`,
//! `String::from_utf16_lossy` and `char::from_u32`.
//!
//! The oracle splits the input into steps (a character, or one ill-formed sequence and the
//! U+FFFD that replaces it), from which the exact result for every output capacity follows:
//! where a strict conversion stops, how much fits, and what the lossy output is.

mod common;

use common::{Rng, classify, oracle};
use utf8::ErrorKind;
use utf8::ffi::utf8_status::{self, *};
use utf8::ffi::{
    UTF8_REPLACE, UTF8_UTF16BE, UTF8_UTF16LE, UTF8_WTF8, utf8_length_from_utf16,
    utf8_length_from_utf32, utf8_result, utf8_to_utf16, utf8_to_utf32, utf16_length_from_utf8,
    utf16_to_utf8, utf32_length_from_utf8, utf32_to_utf8,
};
use utf8::internals::Isa;
use utf8::transcode::{Mode, Progress, Replacement, Stop};

const REPLACE: Mode = Mode {
    replace: true,
    wtf8: false,
    more: false,
    replacement: Replacement::Fffd,
};

/// One step of a conversion, as the oracle sees it: `read` input units give `out`, the
/// character's encoding or U+FFFD for an ill-formed sequence of kind `error`.
#[derive(Clone, Debug)]
struct Step<T> {
    read: usize,
    out: Vec<T>,
    error: Option<ErrorKind>,
}

const FFFD_UTF8: &[u8] = "\u{FFFD}".as_bytes();

/// The steps of decoding UTF-8 `s`: `str::from_utf8` finds each ill-formed sequence (its
/// maximal subpart, `error_len`, or the truncated rest) and `common::oracle` classifies it.
fn utf8_steps<T>(s: &[u8], encode: impl Fn(char) -> Vec<T>) -> Vec<Step<T>> {
    let mut steps = Vec::new();
    let mut at = 0;
    while at < s.len() {
        let rest = &s[at..];
        let (good, bad) = match oracle(rest) {
            Ok(()) => (rest.len(), None),
            Err((good, kind, len)) => (good, Some((kind, len))),
        };
        let text = core::str::from_utf8(&rest[..good]).expect("oracle's valid prefix");
        for c in text.chars() {
            steps.push(Step {
                read: c.len_utf8(),
                out: encode(c),
                error: None,
            });
        }
        at += good;
        if let Some((kind, len)) = bad {
            steps.push(Step {
                read: len,
                out: encode('\u{FFFD}'),
                error: Some(kind),
            });
            at += len;
        }
    }
    steps
}

fn utf16_of(c: char) -> Vec<u16> {
    c.encode_utf16(&mut [0; 2]).to_vec()
}

fn utf8_of(c: char) -> Vec<u8> {
    c.to_string().into_bytes()
}

/// The steps of decoding UTF-16 `s` with `char::decode_utf16`: a lone surrogate is an error,
/// of kind Truncated if it is a high surrogate that ends the input.
fn utf16_steps(s: &[u16]) -> Vec<Step<u8>> {
    let mut steps = Vec::new();
    let mut at = 0;
    for item in char::decode_utf16(s.iter().copied()) {
        let step = match item {
            Ok(c) => Step {
                read: c.len_utf16(),
                out: utf8_of(c),
                error: None,
            },
            Err(e) => {
                let u = e.unpaired_surrogate();
                let truncated = (0xD800..=0xDBFF).contains(&u) && at + 1 == s.len();
                Step {
                    read: 1,
                    out: FFFD_UTF8.to_vec(),
                    error: Some(if truncated {
                        ErrorKind::Truncated
                    } else {
                        ErrorKind::Surrogate
                    }),
                }
            }
        };
        at += step.read;
        steps.push(step);
    }
    steps
}

/// The steps of decoding UTF-32 `s` with `char::from_u32`.
fn utf32_steps(s: &[u32]) -> Vec<Step<u8>> {
    s.iter()
        .map(|&v| match char::from_u32(v) {
            Some(c) => Step {
                read: 1,
                out: utf8_of(c),
                error: None,
            },
            None => Step {
                read: 1,
                out: FFFD_UTF8.to_vec(),
                error: Some(if v > 0x10_FFFF {
                    ErrorKind::TooLarge
                } else {
                    ErrorKind::Surrogate
                }),
            },
        })
        .collect()
}

/// What a conversion of the steps' input into `cap` units must give: its progress and output.
fn expected<T: Clone>(steps: &[Step<T>], cap: usize, mode: Mode) -> (Progress, Vec<T>) {
    let progress = expected_progress(steps, cap, mode);
    let out = steps.iter().flat_map(|s| s.out.iter().cloned());
    (progress, out.take(progress.written).collect())
}

/// The progress of [`expected`]; its output is the first `written` units of the steps'.
fn expected_progress<T>(steps: &[Step<T>], cap: usize, mode: Mode) -> Progress {
    let (mut read, mut written) = (0, 0);
    for step in steps {
        let stop = if let (Some(kind), false) = (step.error, mode.replace) {
            Some(Stop::Malformed(kind))
        } else if written + step.out.len() > cap {
            Some(Stop::OutputFull)
        } else {
            None
        };
        if stop.is_some() {
            return Progress {
                read,
                written,
                stop,
            };
        }
        read += step.read;
        written += step.out.len();
    }
    Progress {
        read,
        written,
        stop: None,
    }
}

/// The lossy output of the steps: what the length functions must count.
fn lossy_len<T>(steps: &[Step<T>]) -> usize {
    steps.iter().map(|s| s.out.len()).sum()
}

/// A value no converter writes, to check that nothing is written past `written`.
trait Sentinel: Copy + PartialEq + core::fmt::Debug {
    const UNTOUCHED: Self;
}
impl Sentinel for u8 {
    const UNTOUCHED: u8 = 0xA5; // a continuation byte never ends an encoding that starts at 0
}
impl Sentinel for u16 {
    const UNTOUCHED: u16 = 0xA5A5;
}
impl Sentinel for u32 {
    const UNTOUCHED: u32 = 0xA5A5_A5A5;
}

type Convert<S, T> = fn(Isa, &[S], &mut [T], Mode) -> Option<Progress>;

/// Converts `src` strictly with every supported implementation into an output of `cap` units
/// filled with `pattern(i)` at index `i`, and checks that what follows the units written is still
/// the pattern, unit for unit: a sentinel of one value would not tell units put back from the
/// wrong place. (Only the stores are checked here; the output itself is checked by [`check`].)
fn check_put_back<S: core::fmt::Debug, T: PartialEq>(
    name: &str,
    src: &[S],
    cap: usize,
    pattern: impl Fn(usize) -> T,
    convert: Convert<S, T>,
) {
    for isa in common::implementations() {
        let mut dst: Vec<T> = (0..cap).map(&pattern).collect();
        let got = convert(isa, src, &mut dst, Mode::default()).expect("supported");
        assert!(
            (got.written..cap).all(|i| dst[i] == pattern(i)),
            "{name} {} cap {cap}: {got:?} for {src:X?}",
            isa.name()
        );
    }
}

/// Checks `convert`, with every supported implementation, on `src` against the oracle's
/// `steps`, in both modes, for each capacity in `caps` (and always the exact size of the
/// output, and one more): progress, output, and the rest of the buffer untouched. Then, for
/// the smaller capacities, the caller's loop of resuming into a fresh buffer of the same size
/// must give the output of one call.
fn check<S: Copy + core::fmt::Debug, T: Sentinel>(
    name: &str,
    src: &[S],
    steps: &[Step<T>],
    convert: Convert<S, T>,
    caps: impl Iterator<Item = usize> + Clone,
) {
    let isas: Vec<Isa> = common::implementations().collect();
    check_with(&isas, name, src, steps, convert, caps);
}

/// [`check`] with the implementations `isas`: one, for a converter that does not take one.
fn check_with<S: Copy + core::fmt::Debug, T: Sentinel>(
    isas: &[Isa],
    name: &str,
    src: &[S],
    steps: &[Step<T>],
    convert: Convert<S, T>,
    caps: impl Iterator<Item = usize> + Clone,
) {
    let (_, lossy_out) = expected(steps, usize::MAX, REPLACE);
    for mode in [Mode::default(), REPLACE] {
        let full = expected_progress(steps, usize::MAX, mode);
        let full_out = &lossy_out[..full.written];
        let exact = full.written;
        // Every capacity of `caps`, the exact one and one to spare; under Miri, the exact one
        // (a store past the output is an out-of-bounds write there) in strict mode and those
        // of `caps` with UTF8_REPLACE.
        let (caps, exact_and_spare) = match (cfg!(miri), mode == REPLACE) {
            (false, _) => (Some(caps.clone()), vec![exact, exact + 1]),
            (true, false) => (None, vec![exact]),
            (true, true) => (Some(caps.clone()), vec![]),
        };
        for cap in caps.into_iter().flatten().chain(exact_and_spare) {
            let want = expected_progress(steps, cap, mode);
            let want_out = &lossy_out[..want.written];
            for &isa in isas {
                let mut dst = vec![T::UNTOUCHED; cap];
                let got = convert(isa, src, &mut dst, mode).expect("supported");
                assert_eq!(
                    got,
                    want,
                    "{name} {} {mode:?} cap {cap}: {src:X?}",
                    isa.name()
                );
                assert_eq!(
                    &dst[..got.written.min(cap)],
                    want_out,
                    "{name} {} {mode:?} cap {cap}: output of {src:X?}",
                    isa.name()
                );
                assert!(
                    dst[got.written.min(cap)..]
                        .iter()
                        .all(|&u| u == T::UNTOUCHED),
                    "{name} {} {mode:?} cap {cap}: wrote past `written` for {src:X?}",
                    isa.name()
                );
                // (Not under Miri: these calls run the converters' paths again, from later
                // offsets of the same input, and would double its time.)
                if cap > 0 && cap < exact && !cfg!(miri) {
                    assert_eq!(
                        resumed(isa, src, cap, mode, convert),
                        (full, full_out.to_vec()),
                        "{name} {} {mode:?}: resumed with cap {cap} on {src:X?}",
                        isa.name()
                    );
                }
            }
        }
    }
}

/// Converts `src` as a caller with a buffer of `cap` units does: convert, flush what was
/// written, continue from `read`; growing the buffer only when one character does not fit in
/// an empty one. Returns the progress over the whole input and everything flushed.
fn resumed<S, T: Sentinel>(
    isa: Isa,
    src: &[S],
    cap: usize,
    mode: Mode,
    convert: Convert<S, T>,
) -> (Progress, Vec<T>) {
    let (mut read, mut out) = (0, Vec::new());
    let mut buf = vec![T::UNTOUCHED; cap];
    loop {
        let p = convert(isa, &src[read..], &mut buf, mode).expect("supported");
        out.extend_from_slice(&buf[..p.written]);
        read += p.read;
        match p.stop {
            Some(Stop::OutputFull) => {
                if p.written == 0 {
                    buf.resize(buf.len() + 1, T::UNTOUCHED);
                }
            }
            stop => {
                let written = out.len();
                return (
                    Progress {
                        read,
                        written,
                        stop,
                    },
                    out,
                );
            }
        }
    }
}

fn to_utf16(isa: Isa, s: &[u8], d: &mut [u16], m: Mode) -> Option<Progress> {
    isa.utf8_to_utf16(s, d, m)
}
fn to_utf32(isa: Isa, s: &[u8], d: &mut [u32], m: Mode) -> Option<Progress> {
    isa.utf8_to_utf32(s, d, m)
}
fn from_utf16(isa: Isa, s: &[u16], d: &mut [u8], m: Mode) -> Option<Progress> {
    isa.utf16_to_utf8(s, d, m)
}
fn from_utf32(isa: Isa, s: &[u32], d: &mut [u8], m: Mode) -> Option<Progress> {
    isa.utf32_to_utf8(s, d, m)
}

/// Every capacity from 0 to the largest output of the input's steps, or a sample of them for
/// long inputs; under Miri, half of it (with the exact one that [`check`] adds, an output
/// that ends inside the input and one that does not).
fn caps<T>(steps: &[Step<T>]) -> impl Iterator<Item = usize> + Clone {
    let max: usize = steps.iter().map(|s| s.out.len()).sum();
    let (first, stride) = common::or_under_miri((0, (max / 64).max(1)), (max / 2, max.max(1)));
    (first..max).step_by(stride)
}

/// UTF-8 input: both converters, and both length functions.
fn check_utf8(s: &[u8]) {
    let steps16 = utf8_steps(s, utf16_of);
    let steps32 = utf8_steps(s, |c| vec![u32::from(c)]);
    // The oracle's steps against the standard library's own lossy decoding (not under Miri,
    // where this check of the tests' own code would take a third of their time).
    if !cfg!(miri) {
        let lossy = String::from_utf8_lossy(s);
        let steps_out: Vec<u16> = steps16.iter().flat_map(|s| s.out.iter().copied()).collect();
        assert_eq!(steps_out, lossy.encode_utf16().collect::<Vec<_>>());
        assert_eq!(steps32.len(), lossy.chars().count());
    }
    check("utf8_to_utf16", s, &steps16, to_utf16, caps(&steps16));
    check("utf8_to_utf32", s, &steps32, to_utf32, caps(&steps32));
    assert_eq!(
        utf8::transcode::utf16::utf16_length_from_utf8(s),
        lossy_len(&steps16),
        "utf16_length_from_utf8({s:X?})"
    );
    assert_eq!(
        utf8::transcode::utf32::utf32_length_from_utf8(s),
        lossy_len(&steps32),
        "utf32_length_from_utf8({s:X?})"
    );
}

/// Room for 4 bytes of UTF-8 a unit of `len`, and the 16 bytes a SIMD step stores past its
/// output: the fast paths into UTF-8 check room for the widest output once per call, and from
/// UTF-16 they never start within the smaller capacities of [`caps`] for short inputs.
fn roomy(len: usize) -> usize {
    4 * len + 64
}

/// [`roomy`], natively: under Miri the exact capacity of [`check`] reaches the fast paths
/// too, and a call more per input would lengthen `make check` by a minute.
fn roomy_natively(len: usize) -> Option<usize> {
    common::or_under_miri(Some(roomy(len)), None)
}

/// UTF-16 input: the converter and the length function.
fn check_utf16(s: &[u16]) {
    let steps = utf16_steps(s);
    // As in `check_utf8`.
    if !cfg!(miri) {
        let steps_out: Vec<u8> = steps.iter().flat_map(|s| s.out.iter().copied()).collect();
        assert_eq!(steps_out, String::from_utf16_lossy(s).into_bytes());
    }
    check(
        "utf16_to_utf8",
        s,
        &steps,
        from_utf16,
        caps(&steps).chain(roomy_natively(s.len())),
    );
    assert_eq!(
        utf8::transcode::utf16::utf8_length_from_utf16(s),
        lossy_len(&steps),
        "utf8_length_from_utf16({s:X?})"
    );
}

/// UTF-32 input: the converter and the length function.
fn check_utf32(s: &[u32]) {
    let steps = utf32_steps(s);
    check(
        "utf32_to_utf8",
        s,
        &steps,
        from_utf32,
        caps(&steps).chain(roomy_natively(s.len())),
    );
    assert_eq!(
        utf8::transcode::utf32::utf8_length_from_utf32(s),
        lossy_len(&steps),
        "utf8_length_from_utf32({s:X?})"
    );
}

#[test]
fn implementations_are_tested_here() {
    let names = common::check_the_implementations_found();
    eprintln!("implementations supported by this CPU and tested: {names:?}");
}

/// Every scalar value alone, in every direction, with every output capacity up to its size.
/// The values are shared out among threads, one per core, every `threads`-th to each: on one
/// thread this test alone took two thirds of the file's time in `make check`.
#[test]
#[cfg_attr(miri, ignore = "1.1 million values: too slow interpreted")]
fn every_scalar_value_alone() {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    std::thread::scope(|scope| {
        for first in 0..threads {
            scope.spawn(move || {
                for c in (0..=0x10_FFFF)
                    .skip(first * common::sweep_step())
                    .step_by(threads * common::sweep_step())
                    .filter_map(char::from_u32)
                {
                    let s = c.to_string();
                    check_utf8(s.as_bytes());
                    let units: Vec<u16> = s.encode_utf16().collect();
                    check_utf16(&units);
                    check_utf32(&[u32::from(c)]);
                }
            });
        }
    });
}

/// All scalar values in one buffer, so that each passes through the block paths too.
#[test]
#[cfg_attr(miri, ignore = "1.1 million values: too slow interpreted")]
fn all_scalar_values_in_one_buffer() {
    let text: String = (0..=0x10_FFFF).filter_map(char::from_u32).collect();
    let units16: Vec<u16> = text.encode_utf16().collect();
    let units32: Vec<u32> = text.chars().map(u32::from).collect();
    for mode in [Mode::default(), REPLACE] {
        for isa in common::implementations() {
            let mut out16 = vec![0u16; units16.len()];
            let p = isa
                .utf8_to_utf16(text.as_bytes(), &mut out16, mode)
                .unwrap();
            assert_eq!(
                (p.read, p.written, p.stop),
                (text.len(), units16.len(), None)
            );
            assert!(out16 == units16, "{} utf8_to_utf16", isa.name());

            let mut out32 = vec![0u32; units32.len()];
            let p = isa
                .utf8_to_utf32(text.as_bytes(), &mut out32, mode)
                .unwrap();
            assert_eq!(
                (p.read, p.written, p.stop),
                (text.len(), units32.len(), None)
            );
            assert!(out32 == units32, "{} utf8_to_utf32", isa.name());

            for (name, got) in [
                ("utf16_to_utf8", {
                    let mut out = vec![0u8; text.len()];
                    let p = isa.utf16_to_utf8(&units16, &mut out, mode).unwrap();
                    assert_eq!((p.read, p.stop), (units16.len(), None));
                    out.truncate(p.written);
                    out
                }),
                ("utf32_to_utf8", {
                    let mut out = vec![0u8; text.len()];
                    let p = isa.utf32_to_utf8(&units32, &mut out, mode).unwrap();
                    assert_eq!((p.read, p.stop), (units32.len(), None));
                    out.truncate(p.written);
                    out
                }),
            ] {
                assert!(got == text.as_bytes(), "{} {name}", isa.name());
            }
        }
    }
    assert_eq!(
        utf8::transcode::utf16::utf16_length_from_utf8(text.as_bytes()),
        units16.len()
    );
    assert_eq!(
        utf8::transcode::utf32::utf32_length_from_utf8(text.as_bytes()),
        units32.len()
    );
    assert_eq!(
        utf8::transcode::utf16::utf8_length_from_utf16(&units16),
        text.len()
    );
    assert_eq!(
        utf8::transcode::utf32::utf8_length_from_utf32(&units32),
        text.len()
    );
}

/// Every lone surrogate: alone, before and after ASCII, before another lone surrogate, and
/// each high surrogate before each low one (a pair, the only good case).
#[test]
#[cfg_attr(miri, ignore = "exhaustive over the surrogates: too slow interpreted")]
fn every_lone_surrogate() {
    for u in (0xD800..=0xDFFFu16).filter(|&u| common::takes(&[usize::from(u)])) {
        for s in [
            vec![u],
            vec![u, 0x41],
            vec![0x41, u],
            vec![0x41, u, 0x42],
            vec![u, u],
            vec![0xDC00, u],
            vec![u, 0xD800],
        ] {
            check_utf16(&s);
        }
        check_utf32(&[u32::from(u)]);
        check_utf32(&[0x41, u32::from(u), 0x42]);
        // In UTF-8 (ED A0..BF xx): ill-formed, three maximal subparts of one byte each.
        let encoded = [
            0xE0 | (u >> 12) as u8,
            0x80 | ((u >> 6) & 0x3F) as u8,
            0x80 | (u & 0x3F) as u8,
        ];
        check_utf8(&encoded);
    }
    for high in (0xD800..=0xDBFFu16).step_by(7) {
        for low in 0xDC00..=0xDFFFu16 {
            if common::takes(&[usize::from(high), usize::from(low)]) {
                check_utf16(&[high, low]);
            }
        }
    }
}

/// UTF-32 values above 0x10FFFF: the boundary, each bit, and random ones.
#[test]
fn utf32_values_above_the_last_scalar_value() {
    let mut values: Vec<u32> = vec![0x11_0000, 0x11_0001, 0x1F_FFFF, 0x7FFF_FFFF, u32::MAX];
    values.extend((21..32).map(|bit| 1u32 << bit));
    let mut rng = Rng::new(0x5EED_7032);
    values.extend((0..common::iterations(2_000)).map(|_| rng.next() as u32 | 0x11_0000));
    for v in values {
        check_utf32(&[v]);
        check_utf32(&[0x41, v, 0x1F600]);
    }
}

/// Every one- and two-byte input: every error class of the first two bytes of a sequence.
#[test]
#[cfg_attr(miri, ignore = "65 536 inputs: too slow interpreted")]
fn every_input_of_one_and_two_bytes() {
    for a in 0..=255u8 {
        check_utf8(&[a]);
        for b in 0..=255u8 {
            check_utf8(&[a, b]);
        }
    }
}

/// One ill-formed sequence of each error class, and the ways a sequence can be cut short.
const BAD: &[&[u8]] = &[
    b"\x80",
    b"\xBF",
    b"\xC0\x80",
    b"\xC1\xBF",
    b"\xE0\x80\x80",
    b"\xE0\x9F\xBF",
    b"\xF0\x80\x80\x80",
    b"\xF0\x8F\xBF\xBF",
    b"\xED\xA0\x80",
    b"\xED\xBF\xBF",
    b"\xF4\x90\x80\x80",
    b"\xF5\x80\x80\x80",
    b"\xF8\x88\x80\x80\x80",
    b"\xFF",
    b"\xC2A",
    b"\xE2\x82A",
    b"\xF0\x9F\x98A",
    b"\xE2\x82\xAC\x80",
    b"\xC2",
    b"\xE2\x82",
    b"\xF0\x9F\x98",
];

/// `len` bytes of characters of `width` bytes, padded at the front with ASCII.
fn run_of(width: usize, len: usize) -> Vec<u8> {
    let sample = ['a', '\u{E9}', '\u{20AC}', '\u{1F600}'][width - 1].to_string();
    let mut s = vec![b'-'; len % width];
    s.extend(sample.repeat(len / width).bytes());
    s
}

/// Each error class at every offset of the first blocks (every block width up to 64 units,
/// the ASCII block of the converters included), after runs of each width, with text after it.
#[test]
#[cfg_attr(
    miri,
    ignore = "hundreds of inputs, each with every capacity: too slow interpreted; see a_few_inputs_through_every_implementation"
)]
fn every_error_at_every_offset_of_the_first_blocks() {
    let max = common::or_under_miri(100, 40);
    let step = common::or_under_miri(common::sweep_step(), 5);
    for width in 1..=4 {
        for len in (0..=max).step_by(common::or_under_miri(1, 13)) {
            // Sampled (a step above 1): every length, each with a share of the classes.
            for bad in BAD.iter().skip(len % step).step_by(step) {
                let mut s = run_of(width, len);
                s.extend_from_slice(bad);
                check_utf8(&s);
                s.extend_from_slice("x\u{E9}\u{20AC}\u{1F600}".as_bytes());
                s.extend(run_of(1, 40));
                check_utf8(&s);
            }
        }
    }
}

/// Words of 2- and 3-byte scripts between ASCII spaces, as in running text.
fn words_of(len: usize) -> Vec<u8> {
    let words = [
        "\u{928}\u{92E}\u{938}\u{94D}\u{924}\u{947}",
        "\u{43F}\u{440}\u{438}\u{432}\u{435}\u{442}",
        "\u{A0}\u{7FF}\u{800}\u{D7FF}\u{E000}\u{FFFF}",
    ];
    let mut s = Vec::new();
    for word in words.iter().cycle() {
        if s.len() + word.len() >= len {
            break;
        }
        s.extend_from_slice(word.as_bytes());
        s.push(b' ');
    }
    s.resize(len, b'.');
    s
}

/// Blocks of 2- and 3-byte characters past the validated input are validated as they are
/// converted: each error class at every offset of the first three blocks of words, from the
/// start of the input and after a block of ASCII, with text after it (under Miri, a few
/// classes at the start only: a block that fails, then blocks that pass).
#[test]
fn every_error_at_every_offset_of_blocks_of_words() {
    let text = words_of(common::or_under_miri(260, 150));
    for prefix in [0, 64] {
        let step = if prefix == 0 { 1 } else { 5 };
        for at in (0..=192).step_by(common::or_under_miri(step, 200)) {
            let bads = BAD.iter().step_by(common::or_under_miri(1, 8));
            for (i, bad) in bads.take(common::or_under_miri(BAD.len(), 2)).enumerate() {
                if !common::takes(&[at, i]) {
                    continue;
                }
                let mut s = vec![b'a'; prefix];
                s.extend_from_slice(&text[..at]);
                s.extend_from_slice(bad);
                s.extend_from_slice(&text[at..]);
                check_utf8(&s);
            }
        }
    }
}

/// The AVX-512 converter into UTF-16 takes blocks of 1-3 byte characters and of ASCII in runs,
/// 64 bytes at a time whatever the characters, carrying a character cut by a block's end over
/// into the next block: each error class at every offset around a block of ASCII between two
/// of words, so that characters are cut at each end of it (words, then 71 bytes of ASCII, then
/// words again, at every phase of the blocks).
#[test]
#[cfg_attr(
    miri,
    ignore = "thousands of inputs, each with every capacity: too slow interpreted"
)]
fn every_error_around_a_block_of_ascii_among_words() {
    for shift in 0..3 {
        let mut text = words_of(122 + shift);
        text.extend_from_slice(&[b'a'; 71]);
        text.extend(words_of(130));
        for at in (100..230).step_by(3) {
            for (i, bad) in BAD.iter().enumerate() {
                if !common::takes(&[shift, at, i]) {
                    continue;
                }
                let mut s = text[..at].to_vec();
                s.extend_from_slice(bad);
                s.extend_from_slice(&text[at..]);
                check_utf8(&s);
            }
        }
    }
}

/// A 3-byte character cut after its second byte at the end of a block of AVX-512's run, a block
/// of ASCII after it: only the third byte expected from two bytes back says the block is
/// unfinished (its last byte is no lead). Also cuts that leave a lead last; first three blocks.
#[test]
#[cfg_attr(
    miri,
    ignore = "18 inputs, each with every capacity: 4 minutes interpreted, for AVX-512, which Miri does not run"
)]
fn a_character_cut_at_the_end_of_a_block_before_a_block_of_ascii() {
    let cuts: [&[u8]; 6] = [
        b"\xE2\x82",
        b"\xE0\xA0",
        b"\xED\x9F",
        b"\xEF\xBF",
        b"\xE2",
        b"\xC3",
    ];
    for blocks in 0..3 {
        for cut in cuts {
            let mut s = words_of(64 * blocks + 64 - cut.len());
            s.extend_from_slice(cut);
            s.extend_from_slice(&[b'a'; 130]);
            check_utf8(&s);
        }
    }
}

/// Strings of every length up to 65 bytes (AVX-512 converts those up to 64 in one register,
/// where the end of the string stands for the next block) that end with a whole character of
/// each length and class at the edges of the RFC 3629 table, or with a character cut short,
/// or with an overlong or surrogate sequence: the lead's continuation bytes must be inside
/// the string, before byte 64 too. Through each implementation, and through the C functions
/// (where AVX-512 is in use, their own path for strings of one register).
#[test]
#[cfg_attr(
    miri,
    ignore = "1,000 inputs, each with every capacity: too slow interpreted, for AVX-512, which Miri does not run"
)]
fn short_strings_ending_in_every_kind_of_character() {
    let ends: [&[u8]; 16] = [
        b"\xC2\x80",
        b"\xDF\xBF",
        b"\xE0\xA0\x80",
        b"\xED\x9F\xBF",
        b"\xEE\x80\x80",
        b"\xEF\xBF\xBF",
        b"\xF0\x90\x80\x80",
        b"\xC2",
        b"\xE2",
        b"\xE2\x82",
        b"\xF0\x9F\x98",
        b"\xE0\x9F\xBF",
        b"\xED\xA0\x80",
        b"\xC1\xBF",
        b"\xF5\x80",
        b"\x80",
    ];
    for len in 1..=65 {
        for end in ends.iter().filter(|e| e.len() <= len) {
            // ASCII, then 2-byte characters, before the end.
            for filler in ["a", "\u{E9}"] {
                let mut s = filler.repeat(len).into_bytes();
                s.truncate(len - end.len());
                if std::str::from_utf8(&s).is_err() {
                    s.pop();
                    s.push(b'-');
                }
                s.extend_from_slice(end);
                check_utf8(&s);
                check_c_from_utf8(&s);
            }
        }
    }
}

/// U+0000, the only character whose unit is zero, as the first or seventeenth character of a
/// block with 4-byte characters (AVX-512: 16 characters at a time in 32-bit lanes into UTF-16).
#[test]
#[cfg_attr(
    miri,
    ignore = "48 inputs, each with every capacity: too slow interpreted"
)]
fn nul_at_every_character_of_blocks_with_4_byte_characters() {
    for at in 0..48 {
        let text: String = (0..80)
            .map(|i| match i {
                _ if i == at => '\0',
                _ if i % 3 == 2 => '\u{1F600}',
                _ if i % 3 == 1 => '\u{E9}',
                _ => 'a',
            })
            .collect();
        check_utf8(text.as_bytes());
    }
}

/// A table step of six 1-2 byte characters into UTF-32 stores 8 units, 2 past its own: a lone
/// 4-byte character (one unit) after it, then an error, is not enough spare (`Target::SPARE`).
#[test]
#[cfg_attr(miri, ignore = "208 inputs: too slow interpreted")]
fn a_table_step_before_a_4_byte_character_and_an_error() {
    let tail = "z".repeat(70);
    for ascii in 0..16 {
        for two in 0..13 {
            check_well_formed(
                &("a".repeat(ascii) + &"\u{E9}".repeat(two) + "\u{1F600}"),
                &tail,
            );
        }
    }
}

/// After a long run of ASCII, realigned to the output (see the test above), AVX-512 takes the
/// rest of the run and the characters of 1-3 bytes after it in its run of blocks: runs of
/// lengths around the point where that starts and around block ends after it, each followed by
/// other characters, an error of each kind or the end of the input, from each of four offsets
/// of the input; every implementation, both modes and both byte orders of UTF-16, against the
/// oracle's steps.
#[test]
fn long_runs_of_ascii_then_other_text() {
    let tails: [&[u8]; 8] = [
        b"",
        "\u{E9}\u{20AC}x\u{1F600}".as_bytes(),
        &"\u{E9}".repeat(100).into_bytes(),
        b"\xFF and more ASCII after the error",
        b"\xED\xA0\x80",
        b"\xE2\x82",
        b"\xC0\xAF",
        &"\u{4E2D}a".repeat(50).into_bytes(),
    ];
    let lengths = common::or_under_miri(
        &[8 * 64 - 1, 8 * 64, 8 * 64 + 1, 9 * 64 - 1, 12 * 64 + 37][..],
        &[8 * 64 + 1][..],
    );
    for &len in lengths {
        for lead in 0..common::or_under_miri(4, 1) {
            for tail in tails {
                let mut s = vec![b'.'; lead];
                s.extend(core::iter::repeat_n(b'a', len));
                s.extend_from_slice(tail);
                check_utf8(&s);
                check_utf8_swapped(&s);
            }
        }
    }
}

/// A long run of blocks of ASCII goes on from a 64-byte boundary of the output, writing some
/// units twice (see `from_utf8::convert`): the same input into the output at every offset of a
/// 64-byte line, checked against the standard library's decoding, with the units around the
/// output untouched. (Ten blocks: the converters take their first four before the loop that
/// realigns, which then counts four more.)
#[test]
fn ascii_blocks_into_outputs_at_every_offset() {
    let mut s = vec![b'a'; 64 * 10 + 5];
    s.extend_from_slice("\u{E9}\u{20AC}".as_bytes());
    s.extend(run_of(1, 64 * 3));
    let text = core::str::from_utf8(&s).unwrap();
    let want32: Vec<u32> = text.chars().map(u32::from).collect();
    let want16: Vec<u16> = text.encode_utf16().collect();
    for isa in common::implementations() {
        for offset in (0..16).step_by(common::or_under_miri(1, 5)) {
            let mut buffer = vec![u32::UNTOUCHED; want32.len() + 16];
            let dst = &mut buffer[offset..offset + want32.len()];
            let got = to_utf32(isa, &s, dst, Mode::default()).expect("supported");
            assert_eq!(
                (got.read, got.written),
                (s.len(), want32.len()),
                "{}",
                isa.name()
            );
            assert_eq!(&buffer[offset..offset + want32.len()], &want32[..]);
            assert!(buffer[..offset].iter().all(|&u| u == u32::UNTOUCHED));
            assert!(
                buffer[offset + want32.len()..]
                    .iter()
                    .all(|&u| u == u32::UNTOUCHED)
            );
        }
        for offset in (0..32).step_by(common::or_under_miri(1, 7)) {
            let mut buffer = vec![u16::UNTOUCHED; want16.len() + 32];
            let dst = &mut buffer[offset..offset + want16.len()];
            let got = to_utf16(isa, &s, dst, Mode::default()).expect("supported");
            assert_eq!(
                (got.read, got.written),
                (s.len(), want16.len()),
                "{}",
                isa.name()
            );
            assert_eq!(&buffer[offset..offset + want16.len()], &want16[..]);
            assert!(buffer[..offset].iter().all(|&u| u == u16::UNTOUCHED));
            assert!(
                buffer[offset + want16.len()..]
                    .iter()
                    .all(|&u| u == u16::UNTOUCHED)
            );
        }
    }
}

/// The converters from UTF-8 validate their input a stretch of 8 KiB at a time (less where the
/// output buffer has less room) and convert well-formed stretches without checks: each error
/// class and the end of the input at every offset around the ends of the first two stretches,
/// after runs of each width, with capacities around those ends too.
#[test]
#[cfg_attr(
    miri,
    ignore = "inputs of 16 KiB, each with dozens of capacities: too slow interpreted"
)]
fn errors_and_capacities_around_the_validated_stretches() {
    for width in 1..=4 {
        for end in [8192, 16384] {
            for len in end - 6..=end + 2 {
                let near_ends = (8186..8196).chain(16378..16388);
                let mut s = run_of(width, len);
                let steps16 = utf8_steps(&s, utf16_of);
                let steps32 = utf8_steps(&s, |c| vec![u32::from(c)]);
                let some_caps = caps(&steps16).step_by(8).chain(near_ends.clone());
                check("utf8_to_utf16", &s, &steps16, to_utf16, some_caps.clone());
                check("utf8_to_utf32", &s, &steps32, to_utf32, some_caps);
                // A third of the classes at each length, a different third at the next.
                let step = 3 * common::sweep_step();
                for bad in BAD.iter().skip(len % step).step_by(step) {
                    s.truncate(len);
                    s.extend_from_slice(bad);
                    s.extend_from_slice("x\u{E9}\u{20AC}\u{1F600}".as_bytes());
                    let steps16 = utf8_steps(&s, utf16_of);
                    let steps32 = utf8_steps(&s, |c| vec![u32::from(c)]);
                    let some_caps = caps(&steps16).step_by(16).chain(near_ends.clone());
                    check("utf8_to_utf16", &s, &steps16, to_utf16, some_caps.clone());
                    check("utf8_to_utf32", &s, &steps32, to_utf32, some_caps);
                }
            }
        }
    }
}

/// Gaps between errors, dense and sparse in turn, around 192 bytes (see
/// [`errors_dense_and_sparse`]).
const ERROR_GAPS: [usize; 24] = [
    1, 2, 3, 5, 17, 40, 90, 150, 191, 192, 193, 200, 260, 400, 700, 64, 9, 1, 185, 195, 180, 300,
    31, 600,
];

/// `text` with an error of each class in turn at each gap of [`ERROR_GAPS`] in turn.
fn errors_at_gaps(text: &[u8]) -> Vec<u8> {
    common::errors_at_gaps(text, &ERROR_GAPS, 40, |k| BAD[k % BAD.len()])
}

/// Errors at gaps of 1 to 700 bytes, dense and sparse in turn, after runs of each width and in
/// words: the converters from UTF-8 leave more of the bytes after an error to the exact path
/// where errors come close together (within 192 bytes of the one before), and return to the
/// validator and the kernels after sparser ones.
#[test]
#[cfg_attr(
    miri,
    ignore = "inputs of 8 KiB with dozens of capacities: too slow interpreted"
)]
fn errors_dense_and_sparse() {
    for width in 1..=4 {
        check_utf8(&errors_at_gaps(&run_of(width, 8000)));
    }
    check_utf8(&errors_at_gaps(&words_of(8000)));
}

/// Lone surrogates and invalid UTF-32 values at every offset of the first blocks.
#[test]
#[cfg_attr(
    miri,
    ignore = "hundreds of inputs, each with every capacity: too slow interpreted; see a_few_inputs_through_every_implementation"
)]
fn every_bad_unit_at_every_offset_of_the_first_blocks() {
    let max = common::or_under_miri(100, 40);
    for width in 1..=4 {
        for len in (0..=max).step_by(common::or_under_miri(1, 13)) {
            let text = String::from_utf8(run_of(width, len)).unwrap();
            for bad in [0xD800u16, 0xDBFF, 0xDC00, 0xDFFF] {
                let mut s: Vec<u16> = text.encode_utf16().collect();
                s.push(bad);
                check_utf16(&s);
                s.extend("x\u{E9}\u{20AC}\u{1F600}".encode_utf16());
                s.extend(std::iter::repeat_n(u16::from(b'a'), 40));
                check_utf16(&s);
            }
            for bad in [0xD800u32, 0xDFFF, 0x11_0000, u32::MAX] {
                let mut s: Vec<u32> = text.chars().map(u32::from).collect();
                s.push(bad);
                s.extend(std::iter::repeat_n(u32::from(b'a'), 40));
                check_utf32(&s);
            }
        }
    }
}

/// A few inputs across the converters' 32-unit ASCII blocks, with an error at the block's edge:
/// the coverage Miri runs, where the sweeps are too slow.
#[test]
fn a_few_inputs_through_every_implementation() {
    let mut text = "a".repeat(31);
    text.push_str("\u{E9}\u{20AC}\u{1F600}");
    text.push_str(&"b".repeat(33));
    let utf8 = text.as_bytes();
    check_utf8(utf8);
    check_utf8(&[&utf8[..31], b"\xE2\x82", &utf8[31..]].concat());
    check_utf8(&[&utf8[..32], b"\xFF"].concat());
    let units16: Vec<u16> = text.encode_utf16().collect();
    check_utf16(&units16);
    check_utf16(&[&units16[..31], &[0xDC00], &units16[31..]].concat());
    check_wtf8_round_trip(&[&units16[..32], &[0xD800]].concat());
    let units32: Vec<u32> = text.chars().map(u32::from).collect();
    check_utf32(&units32);
    check_utf32(&[&units32[..32], &[0x11_0000], &units32[32..]].concat());
    // A run of ASCII of two blocks, ended by a step of other characters or by an error.
    let text = "a".repeat(64) + "\u{E9}\u{20AC}\u{1F600}" + &"b".repeat(48);
    let units16: Vec<u16> = text.encode_utf16().collect();
    check_utf16(&units16);
    check_utf16(&[&units16[..64], &[0xDC00], &units16[64..]].concat());
    let units32: Vec<u32> = text.chars().map(u32::from).collect();
    check_utf32(&units32);
    check_utf32(&[&units32[..64], &[0xD800], &units32[64..]].concat());
}

/// Random text of mixed widths, mutated, in every direction.
#[test]
fn random_text_with_random_mutations() {
    let mut rng = Rng::new(0x5EED_7C0D);
    for _ in 0..common::iterations(3_000) {
        let chars = rng.below(common::or_under_miri(150, 12));
        let mut s = if rng.below(2) == 0 {
            rng.text(chars)
        } else {
            vec![b'a'; chars]
        };
        let text = String::from_utf8(s.clone()).unwrap();
        rng.mutate(&mut s);
        check_utf8(&s);

        let mut units16: Vec<u16> = text.encode_utf16().collect();
        let mut units32: Vec<u32> = text.chars().map(u32::from).collect();
        for _ in 0..rng.below(3) {
            if !units16.is_empty() {
                let i = rng.below(units16.len());
                units16[i] = 0xD800 + rng.below(0x800) as u16;
            }
            if !units32.is_empty() {
                let i = rng.below(units32.len());
                units32[i] = [0xD800 + rng.below(0x800) as u32, rng.next() as u32][rng.below(2)];
            }
        }
        check_utf16(&units16);
        check_utf32(&units32);
    }
}

/// Adversarial UTF-8: nothing but errors, every other byte an error, truncations everywhere.
#[test]
#[cfg_attr(
    miri,
    ignore = "hundreds of inputs, each with every capacity: too slow interpreted; see a_few_inputs_through_every_implementation"
)]
fn adversarial_utf8() {
    let mut inputs: Vec<Vec<u8>> = vec![
        vec![0xFF; 200],
        vec![0x80; 200],
        b"\xF0\x9F\x98".repeat(70),
        b"\xEDa".repeat(100),
        b"a\xC2".repeat(100),
    ];
    for bad in BAD {
        inputs.push(bad.repeat(40));
        inputs.push([&b"\xE2\x82\xAC"[..], bad].concat().repeat(20));
    }
    for mut s in inputs {
        s.truncate(common::or_under_miri(usize::MAX, 24));
        check_utf8(&s);
    }
}

// ---------------------------------------------------------------------------------------------
// UTF-16 in the other byte order than the machine's (UTF8_UTF16BE on a little-endian machine)

/// The converters of UTF-16 in the other byte order, each implementation's (its kernels swap
/// the bytes in their registers).
fn to_utf16_swapped(isa: Isa, s: &[u8], d: &mut [u16], m: Mode) -> Option<Progress> {
    isa.utf8_to_utf16_swapped(s, d, m)
}
fn from_utf16_swapped(isa: Isa, s: &[u16], d: &mut [u8], m: Mode) -> Option<Progress> {
    isa.utf16_swapped_to_utf8(s, d, m)
}

/// UTF-8 input into swapped UTF-16: the oracle's units with their bytes swapped by
/// `u16::swap_bytes`.
fn check_utf8_swapped(s: &[u8]) {
    let steps: Vec<Step<u16>> = utf8_steps(s, |c| {
        utf16_of(c).into_iter().map(u16::swap_bytes).collect()
    });
    check(
        "utf8_to_utf16 swapped",
        s,
        &steps,
        to_utf16_swapped,
        caps(&steps),
    );
}

/// Swapped UTF-16 input, made from `native`, whose oracle's steps it must give; and its length.
fn check_utf16_swapped(native: &[u16]) {
    let steps = utf16_steps(native);
    let s: Vec<u16> = native.iter().map(|u| u.swap_bytes()).collect();
    let caps = caps(&steps).chain(roomy_natively(s.len()));
    check(
        "utf16_to_utf8 swapped",
        &s,
        &steps,
        from_utf16_swapped,
        caps,
    );
    assert_eq!(
        utf8::transcode::utf16::utf8_length_from_utf16_swapped_with(&s, Replacement::Fffd),
        lossy_len(&steps),
        "utf8_length_from_utf16_swapped({native:X?})"
    );
}

/// Short inputs: every input of one byte and a sample of those of two, each scalar value's
/// width and each error class.
#[test]
fn short_inputs_in_the_other_byte_order() {
    // Under Miri, a few: every byte's path is the native converter's, tested there.
    for a in (0..=255u8).step_by(common::or_under_miri(1, 37)) {
        check_utf8_swapped(&[a]);
        for b in common::sampled_bytes(usize::from(a)).step_by(common::or_under_miri(7, 256)) {
            check_utf8_swapped(&[a, b]);
        }
    }
    for bad in BAD.iter().step_by(common::or_under_miri(1, 5)) {
        check_utf8_swapped(&[b"x\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80", *bad].concat());
    }
    let text = "a\u{E9}\u{20AC}\u{1F600}\u{FFFF}\u{10FFFF}";
    let units: Vec<u16> = text.encode_utf16().collect();
    check_utf16_swapped(&units);
    for lone in [0xD800, 0xDC00, 0xDBFF, 0xDFFF]
        .iter()
        .take(common::or_under_miri(4, 2))
    {
        for at in (0..=units.len()).step_by(common::or_under_miri(1, 4)) {
            check_utf16_swapped(&[&units[..at], &[*lone], &units[at..]].concat());
        }
    }
}

/// The swapped converters took the input in pieces (4096 bytes of UTF-8, 256 units of UTF-16)
/// before they swapped in their registers: each character width, error class and lone
/// surrogate at every offset around those pieces' ends, where characters, pairs and errors
/// were cut by them (and around 8 KiB, the end of the first validated stretch).
#[test]
#[cfg_attr(
    miri,
    ignore = "inputs of kilobytes, each with every capacity: too slow interpreted"
)]
fn pieces_of_the_other_byte_order() {
    let step = common::sweep_step();
    for end in [4096, 8192] {
        for width in 1..=4 {
            for at in (end - 6..end + 2).step_by(step) {
                let mut s = run_of(width, at);
                for bad in BAD.iter().skip(at % 3).step_by(3) {
                    let mut t = s.clone();
                    t.extend_from_slice(bad);
                    t.extend(run_of(width, 40));
                    check_utf8_swapped(&t);
                }
                s.extend(run_of(width, 40));
                check_utf8_swapped(&s);
            }
        }
    }
    for end in [256, 512] {
        for at in (end - 3..end + 2).step_by(step) {
            let mut units: Vec<u16> = "a".repeat(at).encode_utf16().collect();
            units.extend("\u{1F600}\u{E9}".encode_utf16());
            check_utf16_swapped(&units);
            for lone in [0xD800, 0xDC00] {
                let mut with_lone: Vec<u16> = "a".repeat(at).encode_utf16().collect();
                with_lone.push(lone);
                check_utf16_swapped(&with_lone);
                with_lone.extend("bc".encode_utf16());
                check_utf16_swapped(&with_lone);
            }
        }
    }
}

/// The public functions of the other byte order run the implementation in use.
#[test]
fn the_other_byte_order_through_the_public_functions() {
    let text = "a\u{E9}\u{20AC}\u{1F600}".repeat(common::or_under_miri(40, 3));
    let want: Vec<u16> = text.encode_utf16().map(u16::swap_bytes).collect();
    let mut out = vec![0u16; want.len()];
    let p = utf8::transcode::utf16::utf8_to_utf16_swapped(text.as_bytes(), &mut out, REPLACE);
    assert_eq!((p.read, p.written, p.stop), (text.len(), want.len(), None));
    assert_eq!(out, want);
    let mut back = vec![0u8; text.len()];
    let p = utf8::transcode::utf16::utf16_swapped_to_utf8(&want, &mut back, REPLACE);
    assert_eq!((p.read, p.written, p.stop), (want.len(), text.len(), None));
    assert_eq!(back, text.as_bytes());
}

/// Each error class at every offset of the first blocks, after runs of each width, with text
/// after it, into the other byte order (as `every_error_at_every_offset_of_the_first_blocks`):
/// each kernel's swapped stores of every kind of block and step.
#[test]
#[cfg_attr(
    miri,
    ignore = "hundreds of inputs, each with every capacity: too slow interpreted; see short_inputs_in_the_other_byte_order"
)]
fn every_error_at_every_offset_of_the_first_blocks_in_the_other_byte_order() {
    let step = common::sweep_step();
    for width in 1..=4 {
        for len in 0..=100 {
            for bad in BAD.iter().skip(len % step).step_by(step) {
                let mut s = run_of(width, len);
                s.extend_from_slice(bad);
                check_utf8_swapped(&s);
                s.extend_from_slice("x\u{E9}\u{20AC}\u{1F600}".as_bytes());
                s.extend(run_of(1, 40));
                check_utf8_swapped(&s);
            }
        }
    }
}

/// Blocks of 2- and 3-byte characters, validated as they are converted, into the other byte
/// order: each error class at every offset of the first three blocks of words (under Miri, a
/// block that fails, then blocks that pass).
#[test]
fn every_error_at_every_offset_of_blocks_of_words_in_the_other_byte_order() {
    let text = words_of(common::or_under_miri(260, 150));
    for at in (0..=192).step_by(common::or_under_miri(1, 200)) {
        let bads = BAD.iter().step_by(common::or_under_miri(1, 8));
        for (i, bad) in bads.take(common::or_under_miri(BAD.len(), 1)).enumerate() {
            if !common::takes(&[at, i]) {
                continue;
            }
            let mut s = text[..at].to_vec();
            s.extend_from_slice(bad);
            s.extend_from_slice(&text[at..]);
            check_utf8_swapped(&s);
        }
    }
}

/// Lone surrogates at every offset of the first blocks of UTF-16 in the other byte order, after
/// runs of each width, with text after them: each kernel's swapped loads, of whole steps and of
/// the short ones at the end.
#[test]
#[cfg_attr(
    miri,
    ignore = "hundreds of inputs, each with every capacity: too slow interpreted; see short_inputs_in_the_other_byte_order"
)]
fn every_bad_unit_at_every_offset_of_the_first_blocks_in_the_other_byte_order() {
    for width in 1..=4 {
        for len in 0..=100 {
            let text = String::from_utf8(run_of(width, len)).unwrap();
            for bad in [0xD800u16, 0xDBFF, 0xDC00, 0xDFFF] {
                let mut s: Vec<u16> = text.encode_utf16().collect();
                s.push(bad);
                check_utf16_swapped(&s);
                s.extend("x\u{E9}\u{20AC}\u{1F600}".encode_utf16());
                s.extend(std::iter::repeat_n(u16::from(b'a'), 40));
                check_utf16_swapped(&s);
            }
        }
    }
}

/// Characters whose units in the other byte order, read in the machine's, are ASCII (U+0100,
/// U+4E00: a low byte of zero, a high byte below 0x80), alone and among ASCII, in runs long
/// enough for each kernel's tests for a run of ASCII, which read the units as loaded, before
/// their bytes are swapped.
#[test]
fn characters_that_look_like_ascii_in_the_other_byte_order() {
    // Under Miri, the first character (swapped, a control character) alone.
    for c in ['\u{100}', '\u{4E00}', '\u{7F00}']
        .into_iter()
        .step_by(common::or_under_miri(1, 3))
    {
        for len in [31, 96, 97, 130, 300]
            .into_iter()
            .step_by(common::or_under_miri(1, 4))
        {
            for ascii in [0, 1, 17, 40]
                .into_iter()
                .step_by(common::or_under_miri(1, 3))
            {
                let mut units: Vec<u16> = "a".repeat(ascii).encode_utf16().collect();
                units.extend(c.to_string().repeat(len).encode_utf16());
                check_utf16_swapped(&units);
                units.extend("b".repeat(ascii).encode_utf16());
                units.extend(c.to_string().repeat(len).encode_utf16());
                check_utf16_swapped(&units);
            }
        }
    }
}

/// A long run of blocks of ASCII into the other byte order, into an output at every offset of
/// a 64-byte line (see `ascii_blocks_into_outputs_at_every_offset`).
#[test]
fn ascii_blocks_into_outputs_at_every_offset_in_the_other_byte_order() {
    let mut s = vec![b'a'; 64 * 10 + 5];
    s.extend_from_slice("\u{E9}\u{20AC}".as_bytes());
    s.extend(run_of(1, 64 * 3));
    let text = core::str::from_utf8(&s).unwrap();
    let want: Vec<u16> = text.encode_utf16().map(u16::swap_bytes).collect();
    for isa in common::implementations() {
        for offset in (0..32).step_by(common::or_under_miri(1, 7)) {
            let mut buffer = vec![u16::UNTOUCHED; want.len() + 32];
            let dst = &mut buffer[offset..offset + want.len()];
            let got = to_utf16_swapped(isa, &s, dst, Mode::default()).expect("supported");
            assert_eq!(
                (got.read, got.written),
                (s.len(), want.len()),
                "{}",
                isa.name()
            );
            assert_eq!(&buffer[offset..offset + want.len()], &want[..]);
            assert!(buffer[..offset].iter().all(|&u| u == u16::UNTOUCHED));
            assert!(
                buffer[offset + want.len()..]
                    .iter()
                    .all(|&u| u == u16::UNTOUCHED)
            );
        }
    }
}

/// All scalar values in one buffer, both ways in the other byte order, with every
/// implementation.
#[test]
#[cfg_attr(miri, ignore = "1.1 million values: too slow interpreted")]
fn all_scalar_values_in_one_buffer_in_the_other_byte_order() {
    let text: String = (0..=0x10_FFFF).filter_map(char::from_u32).collect();
    let units: Vec<u16> = text.encode_utf16().map(u16::swap_bytes).collect();
    for mode in [Mode::default(), REPLACE] {
        for isa in common::implementations() {
            let mut out = vec![0u16; units.len()];
            let p = to_utf16_swapped(isa, text.as_bytes(), &mut out, mode).unwrap();
            assert_eq!((p.read, p.written, p.stop), (text.len(), units.len(), None));
            assert!(out == units, "{} utf8_to_utf16 swapped", isa.name());
            let mut back = vec![0u8; text.len()];
            let p = from_utf16_swapped(isa, &units, &mut back, mode).unwrap();
            assert_eq!((p.read, p.written, p.stop), (units.len(), text.len(), None));
            assert!(
                back == text.as_bytes(),
                "{} utf16_to_utf8 swapped",
                isa.name()
            );
        }
    }
}

/// Random text, mutated, longer than a piece, in both directions.
#[test]
#[cfg_attr(
    miri,
    ignore = "inputs of kilobytes, each with every capacity: too slow interpreted"
)]
fn random_text_in_the_other_byte_order() {
    let mut rng = Rng::new(0x5EED_B16E);
    for _ in 0..common::iterations(40) {
        let chars = rng.below(3000);
        let mut s = rng.text(chars);
        let text = String::from_utf8(s.clone()).unwrap();
        rng.mutate(&mut s);
        check_utf8_swapped(&s);
        let mut units: Vec<u16> = text.encode_utf16().collect();
        if !units.is_empty() && rng.below(2) == 0 {
            let i = rng.below(units.len());
            units[i] = 0xD800 + rng.below(0x800) as u16;
        }
        check_utf16_swapped(&units);
    }
}

// ---------------------------------------------------------------------------------------------
// The C functions

/// The C status of each kind of ill-formed sequence, written by hand: both are documented by the
/// same input bytes (src/error.rs for ErrorKind, include/libutf8.h and libutf8(3) for the
/// statuses), and the library's own `From<ErrorKind>` mapping is what the C tests here check.
fn status(kind: ErrorKind) -> utf8_status {
    match kind {
        ErrorKind::Truncated => UTF8_ERR_TRUNCATED,
        ErrorKind::UnexpectedContinuation => UTF8_ERR_UNEXPECTED_CONTINUATION,
        ErrorKind::MissingContinuation => UTF8_ERR_MISSING_CONTINUATION,
        ErrorKind::Overlong => UTF8_ERR_OVERLONG,
        ErrorKind::Surrogate => UTF8_ERR_SURROGATE,
        ErrorKind::TooLarge => UTF8_ERR_TOO_LARGE,
        ErrorKind::InvalidByte => UTF8_ERR_INVALID_BYTE,
    }
}

/// A conversion's progress as the C functions report it.
fn c_result(p: Progress) -> utf8_result {
    let status = match p.stop {
        None => UTF8_OK,
        Some(Stop::Malformed(kind)) => status(kind),
        Some(Stop::OutputFull) => UTF8_ERR_BUFFER_TOO_SMALL,
        Some(Stop::Unrepresentable) => UTF8_ERR_UNREPRESENTABLE,
    };
    utf8_result {
        status,
        read: p.read,
        written: p.written,
    }
}

/// The C functions on random mutated text, into buffers of exactly the lossy size and of
/// half of it, against the oracle's steps; and the C length functions.
#[test]
fn c_functions_against_the_oracle() {
    let mut rng = Rng::new(0x5EED_C7C0);
    for _ in 0..common::iterations(500) {
        let chars = rng.below(common::or_under_miri(100, 12));
        let mut s = rng.text(chars);
        let text = String::from_utf8(s.clone()).unwrap();
        rng.mutate(&mut s);
        let steps16 = utf8_steps(&s, utf16_of);
        let steps32 = utf8_steps(&s, |c| vec![u32::from(c)]);
        let units16: Vec<u16> = text.encode_utf16().collect();
        let units32: Vec<u32> = text.chars().map(u32::from).collect();
        let from16 = utf16_steps(&units16);
        let from32 = utf32_steps(&units32);
        // SAFETY: every pointer is a live buffer of the length passed with it.
        unsafe {
            assert_eq!(
                utf16_length_from_utf8(s.as_ptr().cast(), s.len()),
                lossy_len(&steps16)
            );
            assert_eq!(
                utf32_length_from_utf8(s.as_ptr().cast(), s.len()),
                lossy_len(&steps32)
            );
            assert_eq!(
                utf8_length_from_utf16(units16.as_ptr(), units16.len()),
                text.len()
            );
            assert_eq!(
                utf8_length_from_utf32(units32.as_ptr(), units32.len()),
                text.len()
            );
        }
        for flags in [0, UTF8_REPLACE] {
            let mode = Mode {
                replace: flags == UTF8_REPLACE,
                ..Mode::default()
            };
            for cap in [lossy_len(&steps16), lossy_len(&steps16) / 2] {
                let mut out = vec![0u16; cap];
                // SAFETY: `s` and `out` are live buffers of the lengths passed.
                let r = unsafe {
                    utf8_to_utf16(s.as_ptr().cast(), s.len(), out.as_mut_ptr(), cap, flags)
                };
                let (want, want_out) = expected(&steps16, cap, mode);
                assert_eq!(r, c_result(want), "utf8_to_utf16({s:X?}, {cap}, {flags})");
                assert_eq!(out[..r.written], want_out[..]);
            }
            for cap in [lossy_len(&steps32), lossy_len(&steps32) / 2] {
                let mut out = vec![0u32; cap];
                // SAFETY: `s` and `out` are live buffers of the lengths passed.
                let r = unsafe {
                    utf8_to_utf32(s.as_ptr().cast(), s.len(), out.as_mut_ptr(), cap, flags)
                };
                let (want, want_out) = expected(&steps32, cap, mode);
                assert_eq!(r, c_result(want), "utf8_to_utf32({s:X?}, {cap}, {flags})");
                assert_eq!(out[..r.written], want_out[..]);
            }
            for cap in [text.len(), text.len() / 2] {
                let mut out = vec![0u8; cap];
                // SAFETY: the input and `out` are live buffers of the lengths passed.
                let r = unsafe {
                    utf16_to_utf8(
                        units16.as_ptr(),
                        units16.len(),
                        out.as_mut_ptr().cast(),
                        cap,
                        flags,
                    )
                };
                let (want, want_out) = expected(&from16, cap, mode);
                assert_eq!(
                    r,
                    c_result(want),
                    "utf16_to_utf8({units16:X?}, {cap}, {flags})"
                );
                assert_eq!(out[..r.written], want_out[..]);
                // SAFETY: the input and `out` are live buffers of the lengths passed.
                let r = unsafe {
                    utf32_to_utf8(
                        units32.as_ptr(),
                        units32.len(),
                        out.as_mut_ptr().cast(),
                        cap,
                        flags,
                    )
                };
                let (want, want_out) = expected(&from32, cap, mode);
                assert_eq!(
                    r,
                    c_result(want),
                    "utf32_to_utf8({units32:X?}, {cap}, {flags})"
                );
                assert_eq!(out[..r.written], want_out[..]);
            }
        }
    }
}

/// The C functions into UTF-8 on strings of 1 to 70 units (around the lengths that the short
/// paths take, up to 64 units of UTF-16 and 32 of UTF-32), of Latin-script text (ASCII, an
/// accented letter now and then, a 3-byte character and a surrogate pair at times), with one
/// ill-formed unit put at each offset in turn (a lone surrogate; in UTF-32 also a value above
/// U+10FFFF), into room for all and for half, strict and with `UTF8_REPLACE`, against the
/// oracle's steps (`char::decode_utf16`, `char::from_u32`); nothing written past `written`.
#[test]
fn c_functions_into_utf8_with_an_error_at_every_offset() {
    let mut rng = Rng::new(0x5EED_0FF5);
    let pieces = [
        "a",
        "a",
        "a",
        "a",
        "a",
        " ",
        "\u{E9}",
        "\u{20AC}",
        "\u{1F600}",
    ];
    let bad16 = [0xD800_u16, 0xDBFF, 0xDC00, 0xDFFF];
    let bad32 = [0xD800_u32, 0xDFFF, 0x11_0000, 0xFFFF_FFFF];
    for len in 1..=common::or_under_miri(70, 18) {
        let text: String = (0..len).map(|_| pieces[rng.below(pieces.len())]).collect();
        // Both `len` units long: each piece is at least one unit (a pair cut at the end of
        // the UTF-16 leaves a lone surrogate, one more error).
        let units16: Vec<u16> = text.encode_utf16().take(len).collect();
        let units32: Vec<u32> = text.chars().map(u32::from).take(len).collect();
        for at in 0..len {
            let mut with16 = units16.clone();
            with16[at] = bad16[rng.below(bad16.len())];
            let mut with32 = units32.clone();
            with32[at] = bad32[rng.below(bad32.len())];
            let steps = [utf16_steps(&with16), utf32_steps(&with32)];
            for flags in [0, UTF8_REPLACE] {
                let mode = Mode {
                    replace: flags == UTF8_REPLACE,
                    ..Mode::default()
                };
                for (k, steps) in steps.iter().enumerate() {
                    for cap in [lossy_len(steps), lossy_len(steps) / 2] {
                        let mut out = vec![u8::UNTOUCHED; cap + 16];
                        // SAFETY: the input and `out` are live buffers of at least the lengths
                        // passed.
                        let r = unsafe {
                            if k == 0 {
                                utf16_to_utf8(
                                    with16.as_ptr(),
                                    with16.len(),
                                    out.as_mut_ptr().cast(),
                                    cap,
                                    flags,
                                )
                            } else {
                                utf32_to_utf8(
                                    with32.as_ptr(),
                                    with32.len(),
                                    out.as_mut_ptr().cast(),
                                    cap,
                                    flags,
                                )
                            }
                        };
                        let (want, want_out) = expected(steps, cap, mode);
                        let input = if k == 0 {
                            format!("{with16:X?}")
                        } else {
                            format!("{with32:X?}")
                        };
                        assert_eq!(r, c_result(want), "{input}, {cap}, {flags}");
                        assert_eq!(out[..r.written], want_out[..], "{input}");
                        assert!(
                            out[r.written..].iter().all(|&b| b == u8::UNTOUCHED),
                            "{input}"
                        );
                    }
                }
            }
        }
    }
}

/// The progress a C function's result reports (the inverse of [`c_result`]).
fn progress_of(r: utf8_result) -> Progress {
    let kinds = [
        ErrorKind::Truncated,
        ErrorKind::UnexpectedContinuation,
        ErrorKind::MissingContinuation,
        ErrorKind::Overlong,
        ErrorKind::Surrogate,
        ErrorKind::TooLarge,
        ErrorKind::InvalidByte,
    ];
    let stop = match r.status {
        UTF8_OK => None,
        UTF8_ERR_BUFFER_TOO_SMALL => Some(Stop::OutputFull),
        UTF8_ERR_UNREPRESENTABLE => Some(Stop::Unrepresentable),
        other => Some(Stop::Malformed(
            *kinds
                .iter()
                .find(|&&k| status(k) == other)
                .expect("a status of the table"),
        )),
    };
    Progress {
        read: r.read,
        written: r.written,
        stop,
    }
}

/// The flags of `mode`, of those the tests below take.
fn flags_of(mode: Mode) -> u32 {
    if mode == REPLACE { UTF8_REPLACE } else { 0 }
}

/// A C conversion function, of `P` units into `Q` units.
type CFunction<P, Q> = unsafe extern "C" fn(*const P, usize, *mut Q, usize, u32) -> utf8_result;

/// `f` on `s` into `d` with the flags of `m`, as a converter of the tests.
fn c_call<S, T, P, Q>(f: CFunction<P, Q>, s: &[S], d: &mut [T], m: Mode) -> Option<Progress> {
    // SAFETY: `s` and `d` are live buffers of the lengths passed, of units of the sizes the
    // callers below pair with `f`'s.
    let r = unsafe {
        f(
            s.as_ptr().cast(),
            s.len(),
            d.as_mut_ptr().cast(),
            d.len(),
            flags_of(m),
        )
    };
    Some(progress_of(r))
}

// The four C functions as converters of the tests: without flags, a call takes the C
// functions' own path for short strings (`ffi::transcode::plain_call`).
fn c_to_utf16(_: Isa, s: &[u8], d: &mut [u16], m: Mode) -> Option<Progress> {
    c_call(utf8_to_utf16, s, d, m)
}
fn c_to_utf32(_: Isa, s: &[u8], d: &mut [u32], m: Mode) -> Option<Progress> {
    c_call(utf8_to_utf32, s, d, m)
}
fn c_from_utf16(_: Isa, s: &[u16], d: &mut [u8], m: Mode) -> Option<Progress> {
    c_call(utf16_to_utf8, s, d, m)
}
fn c_from_utf32(_: Isa, s: &[u32], d: &mut [u8], m: Mode) -> Option<Progress> {
    c_call(utf32_to_utf8, s, d, m)
}

/// UTF-8 `s` into UTF-16 and UTF-32 through the C functions: every capacity, both modes,
/// against the oracle's steps.
fn check_c_from_utf8(s: &[u8]) {
    let steps16 = utf8_steps(s, utf16_of);
    let steps32 = utf8_steps(s, |c| vec![u32::from(c)]);
    check_with(
        &PUBLIC,
        "C utf8_to_utf16",
        s,
        &steps16,
        c_to_utf16,
        caps(&steps16),
    );
    check_with(
        &PUBLIC,
        "C utf8_to_utf32",
        s,
        &steps32,
        c_to_utf32,
        caps(&steps32),
    );
}

/// `text` as UTF-16 and UTF-32 into UTF-8 through the C functions: every capacity, both
/// modes, against the oracle's steps.
fn check_c_into_utf8(text: &str) {
    let units16: Vec<u16> = text.encode_utf16().collect();
    let units32: Vec<u32> = text.chars().map(u32::from).collect();
    let (from16, from32) = (utf16_steps(&units16), utf32_steps(&units32));
    check_with(
        &PUBLIC,
        "C utf16_to_utf8",
        &units16,
        &from16,
        c_from_utf16,
        caps(&from16),
    );
    check_with(
        &PUBLIC,
        "C utf32_to_utf8",
        &units32,
        &from32,
        c_from_utf32,
        caps(&from32),
    );
}

/// The C functions' path for short strings, which composes the dispatch's paths itself (the
/// SSE2 loop of ASCII inline, then the table's short converter, then the rest): ASCII strings
/// of every length to past the longest those paths take (256 bytes), alone, with a 2-byte
/// character last, and around the 64-byte blocks of AVX-512's loop of ASCII with a 2-byte
/// character or an ill-formed byte at every offset (that loop stores the blocks before the
/// one that fails it); then their UTF-16 and UTF-32. Every capacity, both modes, against the
/// oracle's steps, and nothing written past the output reported.
#[test]
fn short_strings_through_the_c_functions() {
    let mut rng = Rng::new(0xC5_4087);
    let ascii =
        |rng: &mut Rng, len: usize| -> Vec<u8> { (0..len).map(|_| rng.below(128) as u8).collect() };
    let mut inputs: Vec<Vec<u8>> = Vec::new();
    let lens: Vec<usize> = common::or_under_miri((0..=300).collect(), vec![0, 16, 33, 65, 129]);
    for &len in &lens {
        inputs.push(ascii(&mut rng, len));
        let mut s = ascii(&mut rng, len.saturating_sub(2));
        s.extend_from_slice("\u{E9}".as_bytes());
        inputs.push(s);
    }
    // Not under Miri, which does not run AVX-512.
    let around: Vec<usize> = common::or_under_miri(
        vec![63, 64, 65, 127, 128, 129, 191, 192, 193, 255, 256, 257],
        vec![],
    );
    for &len in &around {
        for at in 0..len - 1 {
            for odd in [&b"\xC3\xA9"[..], b"\xFF"] {
                let mut s = ascii(&mut rng, len);
                s.splice(at..at + odd.len(), odd.iter().copied());
                inputs.push(s);
            }
        }
    }
    for s in &inputs {
        check_c_from_utf8(s);
        if let Ok(text) = std::str::from_utf8(s) {
            check_c_into_utf8(text);
        }
    }
}

/// ASCII strings of every length to past 256 bytes (the C functions convert those up to 128
/// bytes into UTF-16, 64 into UTF-32, with 16-byte loads that overlap, tested together, before
/// any kernel, and where AVX-512 is in use those of 65 to 256 bytes into UTF-16 and 33 to 64
/// into UTF-32 with loads of 64 or 32 bytes that overlap, as AVX-512's short converter does)
/// with one other byte or character at each position (from 137 bytes, at every fifth counted
/// back from the last, a different fifth for each length): a load that missed a byte would
/// convert it as ASCII.
/// The strings that are UTF-8 back from their UTF-16 and UTF-32 as well (up to 32 units, the
/// first and last 16 tested together; the first two units tested alone first). Every capacity,
/// both modes, against the oracle's steps.
#[test]
fn ascii_with_one_other_byte_at_each_position_through_the_c_functions() {
    // Under Miri, a length just past each of the first block widths, every 32nd position.
    let lens: Vec<usize> = common::or_under_miri((1..=264).collect(), vec![17, 65, 129]);
    for len in lens {
        let every = if len > 136 { 5 } else { 1 };
        let step = common::or_under_miri(common::sweep_step() * every, 32);
        // Counted back from the last position, which every sample takes: there the character
        // of two bytes is cut by the end of the input.
        for at in (0..len).rev().step_by(step) {
            for odd in [&b"\xFF"[..], "\u{E9}".as_bytes()] {
                let mut s = vec![b'a'; len];
                s.splice(at..(at + odd.len()).min(len), odd.iter().copied());
                check_c_from_utf8(&s);
                if let Ok(text) = std::str::from_utf8(&s) {
                    check_c_into_utf8(text);
                }
            }
        }
    }
}

/// Short strings of text of every width through the C functions, of one register (where
/// AVX-512 is in use, the C functions' own path: characters of one and two bytes in one
/// function, wider ones in another) and longer (AVX-512's short converter takes them in steps
/// of up to 64 bytes, each ending where a character ends, after its blocks of ASCII): mixed
/// text with an ill-formed byte at every offset, and with a character of 2, 3 and 4 bytes
/// across every 64-byte boundary, at every offset, so that a step stops before it; from 65
/// bytes, one ASCII block first, or not (a step that fails after others that were not ASCII
/// leaves nothing converted). Every capacity, both modes, against the oracle's steps.
#[test]
#[cfg_attr(miri, ignore = "AVX-512's paths, which Miri does not run")]
fn short_strings_of_every_width_in_steps_through_the_c_functions() {
    let mut rng = Rng::new(0x5E_9507);
    let widths = ['a', '\u{E9}', '\u{416}', '\u{4E2D}', '\u{1F600}'];
    // Characters of random widths up to `len` bytes (spaces where the next would not fit).
    let fill = |rng: &mut Rng, s: &mut Vec<u8>, len: usize| {
        while s.len() < len {
            let c = widths[rng.below(widths.len())];
            if s.len() + c.len_utf8() <= len {
                s.extend_from_slice(c.to_string().as_bytes());
            } else {
                s.push(b' ');
            }
        }
    };
    let text = |rng: &mut Rng, len: usize, ascii_first: bool| -> Vec<u8> {
        let mut s: Vec<u8> = if ascii_first {
            vec![b'x'; 64]
        } else {
            Vec::new()
        };
        fill(rng, &mut s, len);
        s
    };
    let mut inputs: Vec<Vec<u8>> = Vec::new();
    let lens = [
        1, 2, 3, 4, 5, 16, 31, 32, 33, 48, 63, 64, 65, 100, 127, 128, 129, 191, 192, 193, 255, 256,
    ];
    for len in lens {
        for ascii_first in [false, true].into_iter().filter(|&a| !a || len > 64) {
            for at in 0..len {
                let mut s = text(&mut rng, len, ascii_first);
                s[at] = 0xFF;
                inputs.push(s);
            }
            for boundary in (64..len).step_by(64) {
                for c in &widths[1..] {
                    for back in 1..c.len_utf8() {
                        let at = boundary - back;
                        if at + c.len_utf8() > len {
                            continue;
                        }
                        let mut s = text(&mut rng, at, ascii_first && at >= 64);
                        s.extend_from_slice(c.to_string().as_bytes());
                        fill(&mut rng, &mut s, len);
                        inputs.push(s);
                    }
                }
            }
        }
    }
    for s in &inputs {
        check_c_from_utf8(s);
    }
}

/// UTF-16 and UTF-32 of 1- and 2-byte characters into UTF-8 (AVX-512 converts a string of
/// up to one register of UTF-16 below U+0800 in one compression, of up to four in one each),
/// of every length to past four registers, the characters at the edges of those widths
/// (U+007F, U+0080, U+07FF) and, last, one of three bytes (U+0800) or not: every capacity,
/// through each implementation and through the C functions.
#[test]
#[cfg_attr(miri, ignore = "AVX-512's paths, which Miri does not run")]
fn short_strings_of_one_and_two_byte_characters_into_utf8() {
    let mut rng = Rng::new(0x07FF_0080);
    let chars = ['a', '\u{7F}', '\u{80}', '\u{E9}', '\u{416}', '\u{7FF}'];
    for len in 1..=136 {
        for last in [None, Some('\u{800}')] {
            let mut text: String = (0..len).map(|_| chars[rng.below(chars.len())]).collect();
            text.extend(last);
            check_utf16(&text.encode_utf16().collect::<Vec<u16>>());
            check_utf32(&text.chars().map(u32::from).collect::<Vec<u32>>());
            check_c_into_utf8(&text);
        }
    }
}

/// UTF-16 and UTF-32 of five to eight steps into UTF-8 (AVX-512 converts strings of up to 256
/// units of UTF-16, 128 of UTF-32, in steps of one register: each step of units below U+0800
/// in one compression, and from the first other step on as steps of any characters): 1- and
/// 2-byte characters, and with a 3-byte character, a surrogate pair, a lone surrogate or (in
/// UTF-32) a value above U+10FFFF at offsets in every step. Every capacity, through each
/// implementation, and the well-formed ones through the C functions.
#[test]
#[cfg_attr(miri, ignore = "AVX-512's paths, which Miri does not run")]
fn strings_of_five_to_eight_steps_into_utf8() {
    let mut rng = Rng::new(0x0800_0100);
    let chars = ['a', '\u{7F}', '\u{80}', '\u{E9}', '\u{416}', '\u{7FF}'];
    let lens = [65, 100, 128, 129, 160, 192, 193, 255, 256, 257];
    let odd16: [&[u16]; 4] = [&[0x800], &[0xD83D, 0xDE00], &[0xD800], &[0xDC00]];
    let odd32 = [0x800, 0x1_F600, 0xD800, 0x11_0000];
    for len in lens {
        let text: String = (0..len).map(|_| chars[rng.below(chars.len())]).collect();
        let units16: Vec<u16> = text.encode_utf16().collect();
        let units32: Vec<u32> = text.chars().map(u32::from).collect();
        check_utf16(&units16);
        check_utf32(&units32);
        check_c_into_utf8(&text);
        let step = common::sweep_step().max(5);
        for at in (0..len).skip(len % step).step_by(step) {
            for odd in odd16 {
                let mut s = units16.clone();
                s.splice(at..(at + odd.len()).min(len), odd.iter().copied());
                check_utf16(&s);
                if let Ok(text) = String::from_utf16(&s) {
                    check_c_into_utf8(&text);
                }
            }
            for odd in odd32 {
                let mut s = units32.clone();
                s[at] = odd;
                check_utf32(&s);
            }
        }
    }
}

/// A C caller's output buffer may be fresh from `malloc`, never written. The SIMD converters
/// store whole registers past their output and put back what was there, which they must copy
/// without reading it as values: under Miri (`make check-miri`, AVX2's converters) a load of
/// uninitialised bytes as an integer vector is undefined behaviour; natively this checks the
/// output. Through the C functions, so with the implementation in use. The text has an ASCII
/// run (the run's end saves the bytes after it), steps of 2-byte characters (a step saves the
/// 16 bytes after its output) and blocks of them from UTF-8 (a block saves the units its
/// shuffles overwrite), and wider characters.
#[test]
fn converters_write_into_uninitialised_buffers() {
    let text = "a".repeat(70) + &"\u{E9}".repeat(70) + "\u{20AC}\u{1F600}" + &"b".repeat(20);
    let units16: Vec<u16> = text.encode_utf16().collect();
    let units32: Vec<u32> = text.chars().map(u32::from).collect();
    let cap = 4 * text.len() + 64;
    let done = |r: utf8_result, read, written| {
        assert_eq!((r.status, r.read, r.written), (UTF8_OK, read, written));
    };
    let mut out8: Vec<u8> = Vec::with_capacity(cap);
    // SAFETY: the inputs are live; `out8` has `cap` bytes of capacity, uninitialised, which is
    // what a C caller may pass; only the `written` ones are read after each call.
    unsafe {
        let r = utf16_to_utf8(
            units16.as_ptr(),
            units16.len(),
            out8.as_mut_ptr().cast(),
            cap,
            0,
        );
        done(r, units16.len(), text.len());
        out8.set_len(r.written);
        assert_eq!(out8, text.as_bytes());
        out8.set_len(0);
        let r = utf32_to_utf8(
            units32.as_ptr(),
            units32.len(),
            out8.as_mut_ptr().cast(),
            cap,
            0,
        );
        done(r, units32.len(), text.len());
        out8.set_len(r.written);
        assert_eq!(out8, text.as_bytes());
    }
    let mut out16: Vec<u16> = Vec::with_capacity(cap);
    let mut out32: Vec<u32> = Vec::with_capacity(cap);
    // SAFETY: as above.
    unsafe {
        let r = utf8_to_utf16(text.as_ptr().cast(), text.len(), out16.as_mut_ptr(), cap, 0);
        done(r, text.len(), units16.len());
        out16.set_len(r.written);
        let r = utf8_to_utf32(text.as_ptr().cast(), text.len(), out32.as_mut_ptr(), cap, 0);
        done(r, text.len(), units32.len());
        out32.set_len(r.written);
    }
    assert_eq!(out16, units16);
    assert_eq!(out32, units32);
}

/// The Rust functions for a buffer that may be uninitialised, into `Vec::spare_capacity_mut`
/// (under Miri, no byte of it may be read before it is written), with the implementation in
/// use: a lossy conversion of ill-formed input each way, against `String::from_utf8_lossy` and
/// `char::decode_utf16`.
#[test]
fn rust_converters_write_into_spare_capacity() {
    use core::mem::MaybeUninit;
    use utf8::transcode::{utf16, utf32};
    /// Converts the whole of `src` (`read` units) into a new vector's spare capacity, `cap`
    /// units: the vector of what the converter wrote.
    fn into_spare<T>(
        read: usize,
        cap: usize,
        convert: impl FnOnce(&mut [MaybeUninit<T>]) -> Progress,
    ) -> Vec<T> {
        let mut out = Vec::with_capacity(cap);
        let p = convert(out.spare_capacity_mut());
        assert_eq!((p.read, p.stop), (read, None));
        // SAFETY: the converter wrote its first `written` units.
        unsafe { out.set_len(p.written) };
        out
    }
    let mut bytes = ("a".repeat(70) + &"\u{E9}".repeat(70) + "\u{20AC}\u{1F600}").into_bytes();
    bytes.extend_from_slice(b"\xF0\x9F\x98 \xED\xA0\x80 \xC3");
    let text = String::from_utf8_lossy(&bytes);
    let units16: Vec<u16> = text.encode_utf16().collect();
    let units32: Vec<u32> = text.chars().map(u32::from).collect();
    let n = bytes.len();
    let out16 = into_spare(n, n, |d| utf16::utf8_to_utf16_uninit(&bytes, d, REPLACE));
    assert_eq!(out16, units16);
    let out32 = into_spare(n, n, |d| utf32::utf8_to_utf32_uninit(&bytes, d, REPLACE));
    assert_eq!(out32, units32);

    let mut lone = units16.clone();
    lone.extend([0xDC00, 0x62, 0xD800]);
    let lossy: String = char::decode_utf16(lone.iter().copied())
        .map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER))
        .collect();
    let (n, cap) = (lone.len(), 3 * lone.len());
    let out8 = into_spare(n, cap, |d| utf16::utf16_to_utf8_uninit(&lone, d, REPLACE));
    assert_eq!(out8, lossy.as_bytes());
    let (n, cap) = (units32.len(), 4 * units32.len());
    let strict = Mode::default();
    let out8 = into_spare(n, cap, |d| utf32::utf32_to_utf8_uninit(&units32, d, strict));
    assert_eq!(out8, text.as_bytes());
}

/// The documented refusals: unknown flags, NULL buffers with a length; and `(NULL, 0)` as the
/// empty buffer.
#[test]
fn c_functions_refuse_bad_arguments() {
    use core::ptr::{null, null_mut};
    let refused = |status| utf8_result {
        status,
        read: 0,
        written: 0,
    };
    let ok_empty = refused(UTF8_OK);
    let (s, w16, w32) = (b"ab", [0x61u16, 0x62], [0x61u32, 0x62]);
    let (mut o8, mut o16, mut o32) = ([0u8; 4], [0u16; 4], [0u32; 4]);
    // SAFETY: each pointer is NULL or a live buffer of at least the length passed with it.
    unsafe {
        let bad = refused(UTF8_ERR_INVALID_ARGUMENT);
        // Both byte orders at once too.
        for flags in [0x100, 1 << 31, u32::MAX, UTF8_UTF16LE | UTF8_UTF16BE] {
            let r = utf8_to_utf16(s.as_ptr().cast(), 2, o16.as_mut_ptr(), 4, flags);
            assert_eq!(r, bad);
            let r = utf16_to_utf8(w16.as_ptr(), 2, o8.as_mut_ptr().cast(), 4, flags);
            assert_eq!(r, bad);
        }
        // UTF8_WTF8 is for the UTF-16 converters only.
        for flags in [
            UTF8_WTF8,
            UTF8_UTF16LE,
            UTF8_UTF16BE,
            0x100,
            1 << 31,
            u32::MAX,
        ] {
            let r = utf8_to_utf32(s.as_ptr().cast(), 2, o32.as_mut_ptr(), 4, flags);
            assert_eq!(r, bad);
            let r = utf32_to_utf8(w32.as_ptr(), 2, o8.as_mut_ptr().cast(), 4, flags);
            assert_eq!(r, bad);
        }
        let refused_null = refused(UTF8_ERR_NULL_POINTER);
        assert_eq!(
            utf8_to_utf16(null(), 2, o16.as_mut_ptr(), 4, 0),
            refused_null
        );
        assert_eq!(
            utf8_to_utf16(s.as_ptr().cast(), 2, null_mut(), 4, 0),
            refused_null
        );
        assert_eq!(
            utf8_to_utf32(null(), 2, o32.as_mut_ptr(), 4, 0),
            refused_null
        );
        assert_eq!(
            utf8_to_utf32(s.as_ptr().cast(), 2, null_mut(), 4, 0),
            refused_null
        );
        assert_eq!(
            utf16_to_utf8(null(), 2, o8.as_mut_ptr().cast(), 4, 0),
            refused_null
        );
        assert_eq!(
            utf16_to_utf8(w16.as_ptr(), 2, null_mut(), 4, 0),
            refused_null
        );
        assert_eq!(
            utf32_to_utf8(null(), 2, o8.as_mut_ptr().cast(), 4, 0),
            refused_null
        );
        assert_eq!(
            utf32_to_utf8(w32.as_ptr(), 2, null_mut(), 4, 0),
            refused_null
        );
        assert_eq!(utf8_to_utf16(null(), 0, null_mut(), 0, 0), ok_empty);
        assert_eq!(utf8_to_utf32(null(), 0, null_mut(), 0, 0), ok_empty);
        assert_eq!(utf16_to_utf8(null(), 0, null_mut(), 0, 0), ok_empty);
        assert_eq!(utf32_to_utf8(null(), 0, null_mut(), 0, 0), ok_empty);
        // A size query: nothing fits in (NULL, 0).
        let small = utf8_result {
            status: UTF8_ERR_BUFFER_TOO_SMALL,
            read: 0,
            written: 0,
        };
        assert_eq!(utf8_to_utf16(s.as_ptr().cast(), 2, null_mut(), 0, 0), small);
        assert_eq!(utf16_length_from_utf8(null(), 5), 0);
        assert_eq!(utf32_length_from_utf8(null(), 5), 0);
        assert_eq!(utf8_length_from_utf16(null(), 5), 0);
        assert_eq!(utf8_length_from_utf32(null(), 5), 0);
    }
    // UTF-16 and UTF-32 buffers one byte off their alignment, which C does not allow either:
    // refused, nothing read or written (sentinels), and 0 from the length functions; empty
    // ones are fine wherever they point. One byte into words, so that the pointer is
    // misaligned for both (one byte into a byte array was sometimes 2-aligned under Miri,
    // whose addresses are random).
    let mut raw = [0x5A5A_5A5Au32; 8];
    let base = raw.as_mut_ptr().cast::<u8>();
    let (odd16, odd32) = (
        base.wrapping_add(1).cast::<u16>(),
        base.wrapping_add(1).cast::<u32>(),
    );
    // SAFETY: as above: the misaligned pointers are refused before any access (and have 8
    // bytes of `raw` behind them), the others are live buffers of the lengths passed.
    unsafe {
        let bad = refused(UTF8_ERR_INVALID_ARGUMENT);
        assert_eq!(utf8_to_utf16(s.as_ptr().cast(), 2, odd16, 4, 0), bad);
        assert_eq!(utf8_to_utf32(s.as_ptr().cast(), 2, odd32, 4, 0), bad);
        assert_eq!(utf16_to_utf8(odd16, 2, o8.as_mut_ptr().cast(), 4, 0), bad);
        assert_eq!(utf32_to_utf8(odd32, 2, o8.as_mut_ptr().cast(), 4, 0), bad);
        assert_eq!(utf8_length_from_utf16(odd16, 2), 0);
        assert_eq!(utf8_length_from_utf32(odd32, 2), 0);
        assert_eq!(utf8_to_utf16(null(), 0, odd16, 0, 0), ok_empty);
        assert_eq!(utf16_to_utf8(odd16, 0, null_mut(), 0, 0), ok_empty);
    }
    assert_eq!(raw, [0x5A5A_5A5A; 8]);
    assert_eq!(o8, [0; 4]);
}

/// The classification table of the C API holds for the converters: one case per status,
/// written from RFC 3629 section 4 (common::classify) and checked against it.
#[test]
fn strict_conversion_stops_with_the_documented_status() {
    let cases: &[(&[u8], utf8_status, usize)] = &[
        (b"ab\x80", UTF8_ERR_UNEXPECTED_CONTINUATION, 2),
        (b"ab\xC0\x80", UTF8_ERR_OVERLONG, 2),
        (b"ab\xED\xA0\x80", UTF8_ERR_SURROGATE, 2),
        (b"ab\xF4\x90\x80\x80", UTF8_ERR_TOO_LARGE, 2),
        (b"ab\xFF", UTF8_ERR_INVALID_BYTE, 2),
        (b"ab\xE2\x82A", UTF8_ERR_MISSING_CONTINUATION, 2),
        (b"ab\xF0\x9F\x98", UTF8_ERR_TRUNCATED, 2),
    ];
    for &(s, want, at) in cases {
        if want != UTF8_ERR_TRUNCATED {
            assert_eq!(status(classify(&s[at..])), want);
        }
        let mut out = [0u16; 8];
        // SAFETY: `s` and `out` are live buffers of the lengths passed.
        let r = unsafe { utf8_to_utf16(s.as_ptr().cast(), s.len(), out.as_mut_ptr(), 8, 0) };
        assert_eq!(
            (r.status, r.read, r.written, &out[..2]),
            (want, at, 2, &[0x61, 0x62][..])
        );
    }
}

// ---------------------------------------------------------------------------------------------
// WTF-8 (UTF8_WTF8): UTF-16 with lone surrogates and back

/// The WTF-8 of a code point (Simon Sapin, "The WTF-8 encoding": generalized UTF-8, a
/// surrogate in three bytes with RFC 3629's bit layout, 1110xxxx 10xxxxxx 10xxxxxx).
fn wtf8_of(u: u32) -> Vec<u8> {
    match char::from_u32(u) {
        Some(c) => utf8_of(c),
        None => vec![
            0xE0 | (u >> 12) as u8,
            0x80 | ((u >> 6) & 0x3F) as u8,
            0x80 | (u & 0x3F) as u8,
        ],
    }
}

/// The steps of UTF-16 `s` to WTF-8, from `char::decode_utf16`: a lone surrogate is a code
/// point of its own; nothing is an error.
fn utf16_wtf8_steps(s: &[u16]) -> Vec<Step<u8>> {
    char::decode_utf16(s.iter().copied())
        .map(|item| match item {
            Ok(c) => Step {
                read: c.len_utf16(),
                out: utf8_of(c),
                error: None,
            },
            Err(e) => Step {
                read: 1,
                out: wtf8_of(u32::from(e.unpaired_surrogate())),
                error: None,
            },
        })
        .collect()
}

/// The steps of the WTF-8 of UTF-16 `s` back to UTF-16: each character's or lone surrogate's
/// bytes give its units again.
fn wtf8_utf16_steps(s: &[u16]) -> Vec<Step<u16>> {
    char::decode_utf16(s.iter().copied())
        .map(|item| match item {
            Ok(c) => Step {
                read: c.len_utf8(),
                out: utf16_of(c),
                error: None,
            },
            Err(e) => Step {
                read: 3,
                out: vec![e.unpaired_surrogate()],
                error: None,
            },
        })
        .collect()
}

fn from_utf16_wtf8(isa: Isa, s: &[u16], d: &mut [u8], m: Mode) -> Option<Progress> {
    isa.utf16_to_utf8(s, d, Mode { wtf8: true, ..m })
}
fn to_utf16_wtf8(isa: Isa, s: &[u8], d: &mut [u16], m: Mode) -> Option<Progress> {
    isa.utf8_to_utf16(s, d, Mode { wtf8: true, ..m })
}

/// UTF-16 `s` to WTF-8 and back, with every capacity: the WTF-8 is the oracle's, the way back
/// gives `s` again, and utf8_length_from_utf16 is the exact size.
fn check_wtf8_round_trip(s: &[u16]) {
    let steps = utf16_wtf8_steps(s);
    check(
        "utf16_to_utf8 WTF-8",
        s,
        &steps,
        from_utf16_wtf8,
        caps(&steps),
    );
    let wtf8: Vec<u8> = steps.iter().flat_map(|s| s.out.iter().copied()).collect();
    assert_eq!(
        utf8::transcode::utf16::utf8_length_from_utf16(s),
        wtf8.len()
    );
    let back = wtf8_utf16_steps(s);
    assert_eq!(
        back.iter()
            .flat_map(|s| s.out.iter().copied())
            .collect::<Vec<_>>(),
        s
    );
    check(
        "utf8_to_utf16 WTF-8",
        &wtf8,
        &back,
        to_utf16_wtf8,
        caps(&back),
    );
    assert!(utf8::transcode::utf16::utf16_length_from_utf8(&wtf8) >= s.len());
}

/// Every lone surrogate, in every context of `every_lone_surrogate`, round-trips.
#[test]
#[cfg_attr(miri, ignore = "exhaustive over the surrogates: too slow interpreted")]
fn wtf8_round_trips_every_lone_surrogate() {
    for u in (0xD800..=0xDFFFu16).filter(|&u| common::takes(&[usize::from(u)])) {
        for s in [
            vec![u],
            vec![u, 0x41],
            vec![0x41, u],
            vec![u, u],
            vec![0xDC00, u],
            vec![u, 0xD800],
            vec![0xD83D, 0xDE00, u, 0x20AC],
        ] {
            check_wtf8_round_trip(&s);
        }
    }
}

/// Random UTF-16 with lone surrogates, at every offset of the first blocks, round-trips.
#[test]
fn wtf8_round_trips_random_utf16() {
    let mut rng = Rng::new(0x5EED_3F78);
    for _ in 0..common::iterations(2_000) {
        let chars = rng.below(common::or_under_miri(120, 12));
        let text = String::from_utf8(rng.text(chars)).unwrap();
        let mut units: Vec<u16> = text.encode_utf16().collect();
        for _ in 0..rng.below(4) {
            let i = rng.below(units.len() + 1);
            units.insert(i, 0xD800 + rng.below(0x800) as u16);
        }
        check_wtf8_round_trip(&units);
    }
}

/// The UTF-16 that WTF-8 `s` converts to with each error replaced by U+FFFD, one character at a
/// time by `form::decode_next` (itself checked against the grammar oracle in tests/forms.rs):
/// a surrogate's sequence gives that surrogate, one unit.
fn wtf8_lossy_utf16(s: &[u8]) -> Vec<u16> {
    let mut out = vec![];
    let mut rest = s;
    while !rest.is_empty() {
        let (value, len) = match utf8::form::decode_next(rest, utf8::form::Form::Wtf8) {
            Ok(decoded) => decoded,
            Err(m) => (0xFFFD, m.len.max(1)),
        };
        match char::from_u32(value) {
            Some(c) => out.extend(c.encode_utf16(&mut [0; 2]).iter()),
            None => out.push(value as u16),
        }
        rest = &rest[len..];
    }
    out
}

/// Input that is not WTF-8 (a surrogate pair written as two 3-byte sequences, which WTF-8
/// wants in four bytes; any other ill-formed UTF-8) stops the conversion strictly, and with
/// UTF8_REPLACE is replaced as WTF-8 decoding replaces it, never writing more than
/// utf16_length_from_utf8 says.
#[test]
fn wtf8_input_errors_and_the_length_bound() {
    let pair = b"ab\xED\xA0\xBD\xED\xB8\x80";
    let mut out = [0u16; 16];
    // SAFETY: `pair` and `out` are live buffers of the lengths passed.
    let r = unsafe {
        utf8_to_utf16(
            pair.as_ptr().cast(),
            pair.len(),
            out.as_mut_ptr(),
            16,
            UTF8_WTF8,
        )
    };
    assert_eq!((r.status, r.read, r.written), (UTF8_ERR_SURROGATE, 2, 2));
    let mut rng = Rng::new(0x5EED_B0D0);
    for _ in 0..common::iterations(3_000) {
        let chars = rng.below(common::or_under_miri(100, 12));
        let mut s = rng.text(chars);
        let i = rng.below(s.len() + 1);
        s.splice(i..i, wtf8_of(0xD800 + rng.below(0x800) as u32));
        rng.mutate(&mut s);
        let bound = utf8::transcode::utf16::utf16_length_from_utf8(&s);
        for isa in common::implementations() {
            let mut out = vec![0u16; bound];
            let p = to_utf16_wtf8(isa, &s, &mut out, REPLACE).unwrap();
            assert_eq!((p.read, p.stop), (s.len(), None), "{} {s:X?}", isa.name());
            assert_eq!(
                out[..p.written],
                wtf8_lossy_utf16(&s),
                "{} {s:X?}",
                isa.name()
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The SIMD converters from UTF-8 (src/algorithms/from_utf8.rs): steps chosen by the 12 bits of the
// end-of-character mask at their position, special steps of 16 bytes, whole-register stores.

/// A character of each UTF-8 width, with values near the edges of the width's range so that
/// every bit of the lanes is exercised: `rng` picks among them.
fn char_of_width(rng: &mut Rng, width: usize) -> char {
    let edges: [&[u32]; 4] = [
        &[0x00, 0x01, 0x3F, 0x40, 0x7F],
        &[0x80, 0xBF, 0xC0, 0x7C0, 0x7FF],
        &[0x800, 0xFFF, 0x1000, 0xD7FF, 0xE000, 0xFFFD, 0xFFFF],
        &[
            0x1_0000, 0x1_03FF, 0x1_0400, 0x1F600, 0xF_FFFF, 0x10_0000, 0x10_FFFF,
        ],
    ];
    let list = edges[width - 1];
    if rng.below(2) == 0 {
        return char::from_u32(list[rng.below(list.len())]).unwrap();
    }
    loop {
        let c = rng.scalar();
        if c.len_utf8() == width {
            return c;
        }
    }
}

/// Well-formed `s` converted by every implementation into buffers of exactly the right size,
/// with room after them that must stay untouched, against `str::encode_utf16` and `chars()`;
/// then `s` followed by a byte that is never UTF-8 (FF) and `tail`, which a strict conversion
/// converts up to the FF, writing nothing past it even with room for all.
fn check_well_formed(s: &str, tail: &str) {
    let utf16: Vec<u16> = s.encode_utf16().collect();
    let utf32: Vec<u32> = s.chars().map(u32::from).collect();
    let with_error = [s.as_bytes(), b"\xFF", tail.as_bytes()].concat();
    let room = 20 + with_error.len();
    for isa in common::implementations() {
        for (src, cap16, cap32, stop) in [
            (s.as_bytes(), utf16.len(), utf32.len(), None),
            (
                &with_error[..],
                room,
                room,
                Some(Stop::Malformed(ErrorKind::InvalidByte)),
            ),
        ] {
            let want = |written| Progress {
                read: s.len(),
                written,
                stop,
            };
            let mut d16 = vec![u16::UNTOUCHED; room];
            let got = isa.utf8_to_utf16(src, &mut d16[..cap16], Mode::default());
            assert_eq!(got, Some(want(utf16.len())), "{} {src:X?}", isa.name());
            assert_eq!(d16[..utf16.len()], utf16[..], "{} {src:X?}", isa.name());
            assert!(d16[utf16.len()..].iter().all(|&u| u == u16::UNTOUCHED));
            let mut d32 = vec![u32::UNTOUCHED; room];
            let got = isa.utf8_to_utf32(src, &mut d32[..cap32], Mode::default());
            assert_eq!(got, Some(want(utf32.len())), "{} {src:X?}", isa.name());
            assert_eq!(d32[..utf32.len()], utf32[..], "{} {src:X?}", isa.name());
            assert!(d32[utf32.len()..].iter().all(|&u| u == u32::UNTOUCHED));
        }
    }
}

/// Every sequence of character widths (1 to 4 bytes) long enough to fill 12 bytes, which
/// makes every 12-bit end-of-character pattern that well-formed UTF-8 can make, after every
/// length of random text from 0 to 63 bytes (so at every offset of a 64-byte block, and
/// after steps of every kind), with random text after it, long enough for whole blocks, or
/// with an error just after it.
#[test]
#[cfg_attr(
    miri,
    ignore = "300 000 inputs: too slow interpreted; see simd_steps_of_every_kind"
)]
fn every_end_of_character_pattern_at_every_offset() {
    fn widths_filling(bytes: usize, so_far: &mut Vec<usize>, all: &mut Vec<Vec<usize>>) {
        for w in 1..=4 {
            so_far.push(w);
            if w >= bytes {
                all.push(so_far.clone());
            } else {
                widths_filling(bytes - w, so_far, all);
            }
            so_far.pop();
        }
    }
    let mut sequences = Vec::new();
    widths_filling(12, &mut Vec::new(), &mut sequences);
    assert_eq!(sequences.len(), 4819);
    let mut rng = Rng::new(0x0012_B175);
    for (i, widths) in sequences.iter().enumerate() {
        for offset in (0..64).filter(|&offset| common::takes(&[i, offset])) {
            let mut s = String::from_utf8(rng.text_of_len(offset)).unwrap();
            s.extend(widths.iter().map(|&w| char_of_width(&mut rng, w)));
            let tail = String::from_utf8(rng.text_of_len(100)).unwrap();
            // The pattern, then an error just after it, then the whole.
            check_well_formed(&s, &tail);
            s.push_str(&tail);
            check_well_formed(&s, "");
        }
    }
}

/// Runs of each width and of the mixes real text has (Latin, CJK with ASCII punctuation,
/// emoji), long enough for several blocks, after each offset: the special steps of 16 bytes
/// (ASCII, eight 2-byte, four 4-byte characters), four 3-byte characters, and table steps of
/// each kind. Few enough inputs for Miri.
#[test]
fn simd_steps_of_every_kind() {
    let samples = [
        "a",
        "\u{E9}",
        "\u{42F}",
        "\u{20AC}",
        "\u{4E2D}",
        "\u{1F600}",
        "a\u{E9}",
        "ab\u{4E2D}",
        "\u{4E2D}\u{3002}a",
        "\u{1F600}a",
        "\u{10FFFF}\u{E9}",
        "\u{FFFF}\u{80}\u{7FF}\u{800}",
    ];
    let (offsets, len) = common::or_under_miri((0..20, 200), (0..1, 90));
    for sample in samples.iter().step_by(common::or_under_miri(1, 2)) {
        for offset in offsets.clone() {
            let s = "-".repeat(offset) + &sample.repeat(len / sample.len());
            check_well_formed(&s, sample);
            check_well_formed(&s[..s.len() - sample.len()], &s[s.len() - sample.len()..]);
        }
    }
}

/// Output buffers of every size around the stores of the SIMD converters (a register of up to
/// 16 units, written past the units a step means): each conversion stops with the output full
/// exactly where the oracle says, writes nothing past what it reports, and resumes.
#[test]
#[cfg_attr(
    miri,
    ignore = "every capacity of inputs of 200 bytes: too slow interpreted; see simd_steps_of_every_kind"
)]
fn every_capacity_around_the_simd_stores() {
    let mut rng = Rng::new(0x0CA9_AC17);
    let mut inputs: Vec<Vec<u8>> = [
        "\u{E9}",
        "\u{20AC}",
        "\u{1F600}",
        "ab\u{4E2D}",
        "a\u{E9}",
        "\u{42F} ",
    ]
    .iter()
    .map(|s| s.repeat(200 / s.len()).into_bytes())
    .collect();
    inputs.extend((0..4).map(|_| rng.text_of_len(200)));
    for s in inputs {
        let steps16 = utf8_steps(&s, utf16_of);
        let steps32 = utf8_steps(&s, |c| vec![u32::from(c)]);
        let all16 = 0..steps16.iter().map(|s| s.out.len()).sum();
        let all32 = 0..steps32.iter().map(|s| s.out.len()).sum();
        check("utf8_to_utf16", &s, &steps16, to_utf16, all16);
        check("utf8_to_utf32", &s, &steps32, to_utf32, all32);
    }
}

/// Text of 1- to 3-byte characters only, converted a block of 64 bytes at a time with no
/// table step, or of 3-byte characters only, 48 bytes at a time, of every length around a few
/// blocks, ending with an error or not, so that the stores of the last blocks before the end
/// or the error are checked at every position.
#[test]
#[cfg_attr(
    miri,
    ignore = "thousands of inputs: too slow interpreted; see simd_steps_of_every_kind"
)]
fn blocks_without_4_byte_characters_of_every_length() {
    let samples = [
        "\u{E9}",
        "a\u{42F}",
        "ab \u{5D0}\u{7FF}",
        "\u{80}a",
        "\u{4E2D}",
        "\u{915}\u{94D}\u{937} ",
        "\u{FFFF}\u{800}a\u{E9}",
    ];
    for sample in samples {
        let run = sample.repeat(300 / sample.len());
        for len in 0..=run.len() {
            if run.is_char_boundary(len) {
                check_well_formed(&run[..len], sample);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The SIMD paths into UTF-8: steps of 16 units, each converted as a whole by the widest of its
// characters' widths (1, 1-2, 1-3 bytes, surrogate pairs, 4-byte UTF-32), or refused whole.

/// Text of `chars` characters whose widths are drawn from the set `widths` (bit `w - 1` for
/// width `w`), after `offset` ASCII characters, so that the mixes fall at every place of a step.
fn text_of_widths(rng: &mut Rng, widths: usize, offset: usize, chars: usize) -> String {
    let allowed: Vec<usize> = (1..=4).filter(|w| widths & (1 << (w - 1)) != 0).collect();
    let mut s = "-".repeat(offset);
    for _ in 0..chars {
        let width = allowed[rng.below(allowed.len())];
        s.push(char_of_width(rng, width));
    }
    s
}

/// Every set of widths, mixed within steps at every alignment, in UTF-16 and UTF-32, well-formed
/// and with one unit made bad at a random place.
#[test]
fn every_mix_of_widths_at_every_alignment() {
    let mut rng = Rng::new(0x3141_5926);
    // Under Miri: 1-2, 1-3 and 1-4 bytes, at one offset.
    let sets = common::or_under_miri((1..16).collect(), vec![3, 5, 15]);
    let offsets = common::or_under_miri(0..17, 3..4);
    for widths in sets {
        for offset in offsets.clone() {
            let chars = common::or_under_miri(40 + rng.below(40), 18);
            let text = text_of_widths(&mut rng, widths, offset, chars);
            let mut units16: Vec<u16> = text.encode_utf16().collect();
            let mut units32: Vec<u32> = text.chars().map(u32::from).collect();
            check_utf16(&units16);
            check_utf32(&units32);
            let i = rng.below(units16.len());
            units16[i] = [0xD800, 0xDBFF, 0xDC00, 0xDFFF][rng.below(4)];
            check_utf16(&units16);
            let i = rng.below(units32.len());
            units32[i] = [0xD800, 0xDFFF, 0x11_0000, 0x8000_0000][rng.below(4)];
            check_utf32(&units32);
        }
    }
}

/// Runs of ASCII of every length up to 160 between characters of each other width, so that
/// runs start and end at every lane of a step and of the 32 units after one: the run's first
/// 16 units, the 64 and the 32 at a time, and the step that takes the units where a run ends,
/// which may begin with more ASCII; and so that a run follows another character in the same
/// step and is long enough for the AVX-512 loop from UTF-16 to take it apart (96 units of
/// ASCII). Then the same with a bad unit just after the second run.
#[test]
fn runs_of_ascii_of_every_length_between_other_characters() {
    // Under Miri, runs of 96, which the loops of 64 and of 32 units of ASCII both take.
    let lens = common::or_under_miri(0..161, 96..97);
    for other in ['\u{E9}', '\u{4E2D}', '\u{1F600}'] {
        for len in lens.clone() {
            let run: String = (0..len)
                .map(|i| char::from(b'!' + (i % 90) as u8))
                .collect();
            let text = format!("{other}{run}{other}{other}{run}{other}{}", "z".repeat(40));
            let mut units16: Vec<u16> = text.encode_utf16().collect();
            let mut units32: Vec<u32> = text.chars().map(u32::from).collect();
            check_utf16(&units16);
            check_utf32(&units32);
            units16[3 * other.len_utf16() + 2 * len] = 0xDC00;
            units32[3 + 2 * len] = 0x11_0000;
            check_utf16(&units16);
            check_utf32(&units32);
        }
    }
}

/// Surrogate pairs at every offset, so that one falls across every step boundary (its high
/// surrogate last in a step), among ASCII, among 2- and 3-byte characters, and at the end.
#[test]
fn surrogate_pairs_across_every_step_boundary() {
    let offsets = common::or_under_miri(0..48, 15..16);
    for filler in ['a', '\u{E9}', '\u{20AC}'] {
        for offset in offsets.clone() {
            let before: String = std::iter::repeat_n(filler, offset).collect();
            for after in ["", "b\u{1F600}\u{E9}", &"\u{10FFFF}z".repeat(20)] {
                if cfg!(miri) && (filler != 'a' || !after.is_empty()) {
                    continue;
                }
                let text = format!("{before}\u{1F600}{after}{}", filler.to_string().repeat(20));
                check_utf16(&text.encode_utf16().collect::<Vec<_>>());
                let text = format!("{before}\u{1F600}{after}");
                check_utf16(&text.encode_utf16().collect::<Vec<_>>());
            }
        }
    }
}

/// Text of supplementary characters only, whose steps are eight pairs each in place, with a lone
/// surrogate or a pair in the wrong order inserted at every unit of the first steps: where it
/// starts a step, the step holds pairs out of place (low surrogate first) in every lane.
#[test]
fn lone_surrogates_in_text_of_pairs_only() {
    let text = "\u{1F600}\u{10000}\u{10FFFF}\u{1F4A9}".repeat(common::or_under_miri(12, 5));
    let pairs: Vec<u16> = text.encode_utf16().collect();
    for at in common::or_under_miri(0..40, 16..17) {
        for bad in [&[0xDC00u16][..], &[0xDBFF], &[0xDC00, 0xD800]] {
            let mut s = pairs.clone();
            s.splice(at..at, bad.iter().copied());
            check_utf16(&s);
        }
    }
}

/// Each edge value of the 1-, 2- and 3-byte forms at every lane of 32 units of UTF-16 with no
/// surrogate, among 3-byte units (AVX-512's 32-unit step of 32-bit lanes, where U+0000 has no
/// nonzero byte and U+007F/U+0080 and U+07FF/U+0800 are the compares' edges) and among 2-byte
/// units (the 32-unit step below U+0800 where the edge allows it): against the standard
/// library's decoding; and the same values as UTF-32 (whose run of 32-unit steps below U+0800
/// is the same step). 96 units, so that even 2-byte text leaves the steps the room they ask
/// for (3 or 4 bytes a unit and 16 more) at the largest capacities: with 40, no step of
/// 2-byte text was ever taken.
#[test]
#[cfg_attr(
    miri,
    ignore = "576 inputs, each with every capacity: too slow interpreted; see a_few_inputs_through_every_implementation"
)]
fn edge_values_at_every_lane_of_32_units_without_surrogates() {
    for fill in [0x4E2D_u16, 0x0416] {
        for edge in [0x00, 0x01, 0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFFFF] {
            for lane in 0..32 {
                let mut units = vec![fill; 96];
                units[lane] = edge;
                check_utf16(&units);
                check_utf32(&units.iter().map(|&u| u32::from(u)).collect::<Vec<_>>());
            }
        }
    }
}

/// Each edge of the 1- to 4-byte forms at every lane of 32 units among 4-byte characters: steps
/// not all below U+10000 (SSE 4.2/AVX2 `wide_step`, AVX-512 `any_units`, pairs from UTF-16).
/// 4 bytes a unit is the room the UTF-32 steps ask, so they run even at the exact capacity.
#[test]
#[cfg_attr(
    miri,
    ignore = "512 inputs, each with every capacity: too slow interpreted"
)]
fn edge_values_at_every_lane_among_4_byte_characters() {
    for edge in [0x00, 0x7F, 0x80, 0x7FF, 0x800, 0xFFFF, 0x1_0000, 0x10_FFFF] {
        for lane in 0..32 {
            let mut units = vec![0x1_F600_u32; 64];
            units[lane] = edge;
            check_utf32(&units);
            let text: String = units.iter().map(|&u| char::from_u32(u).unwrap()).collect();
            check_utf16(&text.encode_utf16().collect::<Vec<_>>());
        }
    }
}

/// Fifteen units of one byte each and a high surrogate in the last lane of a step: a pair step
/// would write only 15 bytes, fewer than the writer's steps must, so it refuses, and the exact
/// path converts them and finds whether the surrogate is paired. (The text after them makes
/// the capacities tried large enough for the pair step to be taken.)
#[test]
fn a_high_surrogate_in_the_last_lane_after_short_units() {
    for &before in common::or_under_miri(&[0, 16, 17, 32, 48][..], &[0, 17]) {
        for after in [0x41u16, 0xD800, 0xE9] {
            let mut s = vec![0x4E2Du16; before];
            s.extend([0x41; 15]);
            s.extend([0xDBFF, after]);
            s.extend([0x41; 120]);
            check_utf16(&s);
        }
    }
}

/// A lone or misordered surrogate at every lane of the first steps of text full of pairs, so
/// that the pair check refuses the step, and the exact path finds the error.
#[test]
fn lone_surrogates_among_pairs_at_every_lane() {
    let text = "\u{1F600}a\u{10000}\u{E9}\u{10FFFF}\u{20AC}".repeat(common::or_under_miri(8, 4));
    let units: Vec<u16> = text.encode_utf16().collect();
    for lane in common::or_under_miri(0..40, 15..16) {
        for bad in
            common::or_under_miri(&[0xD800u16, 0xDBFF, 0xDC00, 0xDFFF][..], &[0xDBFF, 0xDC00])
        {
            let mut s = units.clone();
            s[lane] = *bad;
            check_utf16(&s);
            check_wtf8_round_trip(&s);
        }
        // A low surrogate then a high one: both lone.
        let mut s = units.clone();
        s.splice(lane..lane, [0xDC00, 0xD800]);
        check_utf16(&s);
    }
}

/// Every output capacity, around the room a step needs (48 bytes from UTF-16, 64 from UTF-32,
/// plus the 16 bytes stored past the output), for steps of each kind.
#[test]
fn every_capacity_around_the_steps() {
    let texts: Vec<String> = [
        "a",
        "\u{E9}",
        "a\u{E9}",
        "\u{20AC}a",
        "\u{1F600}",
        "a\u{1F600}",
    ]
    .iter()
    .map(|t| t.repeat(common::or_under_miri(48, 10)))
    .collect();
    for text in &texts {
        let units16: Vec<u16> = text.encode_utf16().collect();
        let steps = utf16_steps(&units16);
        let max = lossy_len(&steps);
        let caps = common::or_under_miri(0..max, 0..2);
        check("utf16_to_utf8", &units16, &steps, from_utf16, caps.clone());
        let units32: Vec<u32> = text.chars().map(u32::from).collect();
        let steps = utf32_steps(&units32);
        check("utf32_to_utf8", &units32, &steps, from_utf32, caps);
    }
}

/// What follows the output is as it was, byte for byte, not only a uniform sentinel: the SIMD
/// paths into UTF-8 store whole registers past the output and put back the bytes that were
/// there, which a sentinel of one value would not tell from bytes taken from the wrong place.
/// Steps of every kind, stopped by an error or a full output at every place of the first steps.
#[test]
fn what_follows_the_output_is_put_back_exactly() {
    let pattern = |i: usize| (i as u8).wrapping_mul(151) ^ 0x3C;
    let texts = [
        "a\u{E9}bc\u{42F}".repeat(20),
        "\u{4E2D}a\u{20AC}".repeat(20),
        "ab\u{1F600}\u{E9}\u{10FFFF}".repeat(15),
        "plain ASCII, long enough for a run of it, then \u{E9}\u{20AC}".repeat(4),
    ];
    let errors = common::or_under_miri(0..48, 20..21);
    for text in texts.iter().step_by(common::or_under_miri(1, 2)) {
        let units16: Vec<u16> = text.encode_utf16().collect();
        let units32: Vec<u32> = text.chars().map(u32::from).collect();
        // Every capacity up to the roomy one: the fast path from UTF-16 stops for a full
        // output at a place that moves with the capacity, and does not start below ~100.
        let roomiest = roomy(units16.len());
        let caps = common::or_under_miri((0..=roomiest).collect(), vec![61, roomiest]);
        for bad in errors.clone().chain([usize::MAX]) {
            let mut s16 = units16.clone();
            let mut s32 = units32.clone();
            if let Some(u) = s16.get_mut(bad) {
                *u = 0xDC00;
            }
            if let Some(u) = s32.get_mut(bad) {
                *u = 0x11_0000;
            }
            let exact = String::from_utf16_lossy(&s16).len() + 4;
            for &cap in caps.iter().chain(&[exact]) {
                check_put_back("utf16_to_utf8", &s16, cap, pattern, from_utf16);
                check_put_back("utf32_to_utf8", &s32, cap, pattern, from_utf32);
            }
        }
    }
}

/// The step of eight surrogate pairs (supplementary text only) keeps the 16 bytes after its 32,
/// stored back where the fast path stops: pairs stopped by a lone surrogate at every unit of the
/// first steps, into outputs filled with a pattern (a uniform sentinel hides a tail off by one).
#[test]
#[cfg_attr(
    miri,
    ignore = "hundreds of inputs, each with several capacities: too slow interpreted"
)]
fn what_follows_steps_of_pairs_only_is_put_back_exactly() {
    let pattern = |i: usize| (i as u8).wrapping_mul(151) ^ 0x3C;
    let units: Vec<u16> = "\u{1F600}\u{10000}\u{10FFFF}\u{1F4A9}"
        .repeat(20)
        .encode_utf16()
        .collect();
    for bad in 0..96 {
        for bad_unit in [0xDC00, 0xD800] {
            let mut s = units.clone();
            s[bad] = bad_unit;
            let exact = String::from_utf16_lossy(&s).len();
            for cap in [exact, exact + 16, exact + 64, 4 * s.len() + 64] {
                check_put_back("utf16_to_utf8", &s, cap, pattern, from_utf16);
            }
        }
    }
}

/// What follows UTF-16/UTF-32 output is put back unit for unit, not only a uniform sentinel:
/// blocks converted whole store 8 units past their own and put them back. Errors at every byte.
#[test]
#[cfg_attr(miri, ignore = "hundreds of inputs: too slow interpreted")]
fn what_follows_the_utf16_and_utf32_output_is_put_back_exactly() {
    let p16 = |i: usize| (i as u16).wrapping_mul(40_503);
    let p32 = |i: usize| (i as u32).wrapping_mul(2_654_435_761);
    let texts = [
        words_of(260),
        "ab\u{1F600}\u{E9}\u{4E2D}".repeat(24).into_bytes(),
    ];
    for text in &texts {
        for bad in 0..200 {
            let s = [&text[..bad], b"\xFF", &text[bad..]].concat();
            let cap = s.len() + 16;
            check_put_back("utf8_to_utf16", &s, cap, p16, to_utf16);
            check_put_back("utf8_to_utf32", &s, cap, p32, to_utf32);
        }
    }
}

/// Outputs from UTF-8 too short for all of well-formed input, at every capacity of its last 80
/// units: a stretch is then longer than the output, blocks are converted in steps that store
/// past their own units, and the conversion stops where a character does not fit (in UTF-16,
/// a surrogate pair in the last unit). What follows the output is put back unit for unit.
#[test]
#[cfg_attr(miri, ignore = "hundreds of inputs: too slow interpreted")]
fn outputs_from_utf8_too_short_for_the_input_are_put_back_exactly() {
    let p16 = |i: usize| (i as u16).wrapping_mul(40_503);
    let p32 = |i: usize| (i as u32).wrapping_mul(2_654_435_761);
    let mut rng = Rng::new(0x5EED_7A11);
    let mut texts = vec![
        "a\u{E9}bc\u{42F}\u{1F600}".repeat(30).into_bytes(),
        "\u{4E2D}\u{E9}\u{20AC}a\u{1F4A9}".repeat(30).into_bytes(),
        ("\u{E9}\u{42F}".repeat(60) + "\u{1F600}" + &"\u{E9}".repeat(40)).into_bytes(),
    ];
    for _ in 0..20 {
        let chars = 100 + rng.below(150);
        texts.push(rng.text(chars));
    }
    for s in &texts {
        let needed16 = core::str::from_utf8(s).unwrap().encode_utf16().count();
        let needed32 = core::str::from_utf8(s).unwrap().chars().count();
        for cap in needed16.saturating_sub(80)..needed16 {
            check_put_back("utf8_to_utf16", s, cap, p16, to_utf16);
        }
        for cap in needed32.saturating_sub(80)..needed32 {
            check_put_back("utf8_to_utf32", s, cap, p32, to_utf32);
        }
    }
}

/// UTF-32 steps are narrowed to 16 bits with saturation before the checks of 1 to 3 bytes: a
/// value that does not fit (above 0xFFFF, with the top bit set, or not a scalar value at all)
/// at every lane of steps of ASCII, of 1-2 and of 1-3 bytes must make the step refused or
/// converted as the oracle says, never taken as the 16 bits it saturates or wraps to.
#[test]
fn utf32_values_that_do_not_fit_16_bits_at_every_lane() {
    let texts = [
        "a".repeat(48),
        "a\u{E9}\u{42F}".repeat(16),
        "\u{4E2D}a\u{E9}".repeat(16),
    ];
    let values: &[u32] = common::or_under_miri(
        &[
            0x8000_0041,
            0x8000_0000,
            u32::MAX,
            0x1_0041,
            0x1_07FF,
            0x11_0041,
            0xFFFF,
            0xD841,
        ],
        &[0x8000_0041, 0x1_0041],
    );
    let lanes = common::or_under_miri(0..40, 17..18);
    for text in &texts {
        let units: Vec<u32> = text.chars().map(u32::from).collect();
        for lane in lanes.clone() {
            for &value in values {
                let mut s = units.clone();
                s[lane] = value;
                check_utf32(&s);
            }
        }
    }
}

/// The public converters (the implementation in use, as the C functions call it), which take
/// short ASCII strings with no kernel: every length up to past that shortcut's, ASCII alone
/// and with a non-ASCII character last, into outputs of exactly the size needed, one unit
/// more and one less, in both modes, against the standard library.
#[test]
fn short_strings_through_the_public_converters() {
    use utf8::transcode::{utf16, utf32};
    let mut rng = Rng::new(0x5107_A5C1);
    // Under Miri, the lengths around the shortcuts' limits (16 bytes, 8 units) and one past.
    let lens = common::or_under_miri((0..300).collect(), vec![0, 7, 8, 9, 15, 16, 17, 23]);
    for len in lens {
        let ascii: String = (0..len).map(|_| char::from(rng.below(128) as u8)).collect();
        for text in [ascii.clone(), ascii + "é"] {
            let units16: Vec<u16> = text.encode_utf16().collect();
            let units32: Vec<u32> = text.chars().map(u32::from).collect();
            for mode in [Mode::default(), REPLACE] {
                for extra in [0, 1, -1] {
                    let cap = |n: usize| n.checked_add_signed(extra);
                    let Some(cap16) = cap(units16.len()) else {
                        continue;
                    };
                    let fits = extra >= 0;
                    let mut out16 = vec![u16::UNTOUCHED; cap16];
                    let p = utf16::utf8_to_utf16(text.as_bytes(), &mut out16, mode);
                    let w = p.written;
                    assert_eq!((p.read == text.len(), &out16[..w]), (fits, &units16[..w]));
                    assert!(out16[w..].iter().all(|&u| u == u16::UNTOUCHED), "{len}");
                    let mut out32 =
                        vec![u32::UNTOUCHED; units32.len().saturating_add_signed(extra)];
                    let p = utf32::utf8_to_utf32(text.as_bytes(), &mut out32, mode);
                    let w = p.written;
                    assert_eq!((p.read == text.len(), &out32[..w]), (fits, &units32[..w]));
                    assert!(out32[w..].iter().all(|&u| u == u32::UNTOUCHED), "{len}");
                    let Some(cap8) = cap(text.len()) else {
                        continue;
                    };
                    for (read, p, out) in [
                        {
                            let mut out = vec![u8::UNTOUCHED; cap8];
                            let p = utf16::utf16_to_utf8(&units16, &mut out, mode);
                            (units16.len(), p, out)
                        },
                        {
                            let mut out = vec![u8::UNTOUCHED; cap8];
                            let p = utf32::utf32_to_utf8(&units32, &mut out, mode);
                            (units32.len(), p, out)
                        },
                    ] {
                        let w = p.written;
                        assert_eq!((p.read == read, &out[..w]), (fits, &text.as_bytes()[..w]));
                        assert!(out[w..].iter().all(|&u| u == u8::UNTOUCHED), "{len}");
                    }
                }
            }
        }
    }
}

/// The implementation given to the public functions below, which choose their own: one, so
/// that each input is converted once.
const PUBLIC: [Isa; 1] = [Isa::Scalar];

fn public_to_utf16(_: Isa, s: &[u8], d: &mut [u16], m: Mode) -> Option<Progress> {
    Some(utf8::transcode::utf16::utf8_to_utf16(s, d, m))
}
fn public_to_utf32(_: Isa, s: &[u8], d: &mut [u32], m: Mode) -> Option<Progress> {
    Some(utf8::transcode::utf32::utf8_to_utf32(s, d, m))
}
fn public_from_utf16(_: Isa, s: &[u16], d: &mut [u8], m: Mode) -> Option<Progress> {
    Some(utf8::transcode::utf16::utf16_to_utf8(s, d, m))
}
fn public_from_utf32(_: Isa, s: &[u32], d: &mut [u8], m: Mode) -> Option<Progress> {
    Some(utf8::transcode::utf32::utf32_to_utf8(s, d, m))
}

/// The public converter into UTF-8 `convert` on `s`, whose steps are `steps`: every capacity
/// of [`caps`], then the room of `widest` bytes a unit that the short strings' loops need,
/// exactly and more (under Miri, exactly).
fn check_public_into_utf8<S: Copy + core::fmt::Debug>(
    name: &str,
    s: &[S],
    steps: &[Step<u8>],
    convert: Convert<S, u8>,
    widest: usize,
) {
    let exact = widest * s.len();
    let room = common::or_under_miri(vec![exact, roomy(s.len())], vec![exact]);
    let caps = caps(steps).chain(room);
    check_with(&PUBLIC, &format!("public {name}"), s, steps, convert, caps);
}

/// The short strings' paths of the public functions (`engine::short`), which the
/// implementations' own converters above do not run: strings around their lengths (16 bytes of
/// UTF-8, 8 units of UTF-16 or UTF-32), well-formed and with each error class or lone
/// surrogate at every offset, into every capacity and into the room for their widest output,
/// which those paths need.
#[test]
fn short_strings_through_the_public_functions() {
    let check_utf8_public = |s: &[u8]| {
        // The room those loops need, exactly, then more; under Miri, exactly.
        let roomy =
            common::or_under_miri(vec![s.len(), s.len() + 1, roomy(s.len())], vec![s.len()]);
        let steps16 = utf8_steps(s, utf16_of);
        let steps32 = utf8_steps(s, |c| vec![u32::from(c)]);
        let caps16 = caps(&steps16).chain(roomy.clone());
        let caps32 = caps(&steps32).chain(roomy);
        check_with(
            &PUBLIC,
            "public utf8_to_utf16",
            s,
            &steps16,
            public_to_utf16,
            caps16,
        );
        check_with(
            &PUBLIC,
            "public utf8_to_utf32",
            s,
            &steps32,
            public_to_utf32,
            caps32,
        );
    };
    // Under Miri, which is there for the unsafe stores of those loops, strings of the limits'
    // lengths, with one error first and one in the middle (at the first error the loops
    // return, having stored only what came before it).
    let step = common::or_under_miri(1, 7);
    let lens: Vec<usize> = common::or_under_miri((0..=20).collect(), vec![16]);
    for width in 1..=4 {
        for &len in &lens {
            let s = run_of(width, len);
            check_utf8_public(&s);
            check_utf8_public(&words_of(len));
            let ats: Vec<usize> = common::or_under_miri(
                (0..=s.len()).step_by(width).collect(),
                vec![0, s.len() / 2 / width * width],
            );
            let bads = common::or_under_miri(BAD, &BAD[width..=width]);
            for bad in bads {
                for &at in &ats {
                    check_utf8_public(&[&s[..at], bad, &s[at..]].concat());
                }
            }
        }
    }
    let text = "a\u{E9}\u{20AC}\u{1F600}\u{7FF}\u{FFFF}\u{10FFFF}\u{80}";
    let lens: Vec<usize> = common::or_under_miri((0..=12).collect(), vec![8]);
    for &len in &lens {
        let units: Vec<u16> = text.encode_utf16().cycle().take(len).collect();
        let values: Vec<u32> = text.chars().map(u32::from).cycle().take(len).collect();
        let check16 = |s: &[u16]| {
            let steps = utf16_steps(s);
            check_public_into_utf8("utf16_to_utf8", s, &steps, public_from_utf16, 3);
        };
        let check32 = |s: &[u32]| {
            let steps = utf32_steps(s);
            check_public_into_utf8("utf32_to_utf8", s, &steps, public_from_utf32, 4);
        };
        check16(&units);
        check32(&values);
        for at in (0..=len).step_by(step) {
            let lones = common::or_under_miri(&[0xD800, 0xDBFF, 0xDC00, 0xDFFF][..], &[0xDC00]);
            for &lone in lones {
                check16(&[&units[..at], &[lone], &units[at..]].concat());
            }
            let bads = common::or_under_miri(&[0xD800, 0xDFFF, 0x11_0000, u32::MAX][..], &[0xD800]);
            for &bad in bads {
                check32(&[&values[..at], &[bad], &values[at..]].concat());
            }
        }
    }
}
