//! latin1_to_utf8, cp1252_to_utf8 and utf8_to_latin1, and their length functions, against
//! oracles that share no code with them: for Latin-1 the standard library (`b as char` is
//! ISO-8859-1, `core::str::from_utf8`, `String::from_utf8_lossy`, `char::encode_utf8`), for
//! Windows-1252 testkit's table of the WHATWG index (checked against Python's `cp1252` by
//! `tools/check-cp1252.py`). Exhaustive over every input of 1 to 3 bytes; errors at every
//! offset around the word and block widths; every output capacity below the needed one,
//! resumed; chunks of a stream cut everywhere (UTF8_MORE); every implementation the CPU runs.

mod common;

use common::{Rng, iterations, oracle, sweep_step};
use utf8::ErrorKind;
use utf8::internals::Isa;
use utf8::transcode::latin1::{
    cp1252_to_utf8, latin1_length_from_utf8, latin1_to_utf8, utf8_length_from_cp1252,
    utf8_length_from_latin1, utf8_to_latin1,
};
use utf8::transcode::{Mode, Progress, Replacement, Stop};

type Convert = fn(&[u8], &mut [u8], Mode) -> Progress;

const STRICT: Mode = Mode {
    replace: false,
    wtf8: false,
    more: false,
    replacement: Replacement::Fffd,
};
const REPLACE: Mode = Mode {
    replace: true,
    wtf8: false,
    more: false,
    replacement: Replacement::Fffd,
};

/// The strict conversion of `s` into Latin-1 as the standard library sees it: the bytes of the
/// characters before the first one above U+00FF or the first ill-formed sequence, and where
/// and why it stops.
fn strict_latin1(s: &[u8]) -> (Vec<u8>, Option<(usize, Stop)>) {
    let (valid, error) = match oracle(s) {
        Ok(()) => (s.len(), None),
        Err((at, kind, _)) => (at, Some((at, Stop::Malformed(kind)))),
    };
    let text = core::str::from_utf8(&s[..valid]).unwrap();
    let mut out = Vec::new();
    for (i, c) in text.char_indices() {
        match u8::try_from(c) {
            Ok(b) => out.push(b),
            Err(_) => return (out, Some((i, Stop::Unrepresentable))),
        }
    }
    (out, error)
}

/// Runs `convert` on `s` into a buffer of exactly `cap` bytes, checking that nothing past what
/// it reports written changed: the progress and the output.
fn run(convert: Convert, s: &[u8], cap: usize, mode: Mode) -> (Progress, Vec<u8>) {
    run_with(|s, d| convert(s, d, mode), s, cap)
}

/// [`run`] of any converter.
fn run_with(
    convert: impl Fn(&[u8], &mut [u8]) -> Progress,
    s: &[u8],
    cap: usize,
) -> (Progress, Vec<u8>) {
    run_at(convert, s, cap, 0)
}

/// `isa`'s converter from Windows-1252 if `cp`, else from Latin-1.
fn from_single_byte(isa: Isa, cp: bool) -> impl Fn(&[u8], &mut [u8]) -> Progress {
    move |s, d| {
        if cp {
            isa.cp1252_to_utf8(s, d)
        } else {
            isa.latin1_to_utf8(s, d)
        }
        .unwrap()
    }
}

/// [`run_with`] into a buffer that starts `offset` bytes into an allocation (the SIMD
/// converters align their stores of runs of ASCII to the output).
fn run_at(
    convert: impl Fn(&[u8], &mut [u8]) -> Progress,
    s: &[u8],
    cap: usize,
    offset: usize,
) -> (Progress, Vec<u8>) {
    let mut buf = vec![0xA5u8; offset + cap + 16];
    let p = convert(s, &mut buf[offset..offset + cap]);
    assert!(p.read <= s.len() && p.written <= cap, "{p:?}");
    assert!(
        buf[..offset].iter().all(|&b| b == 0xA5),
        "changed bytes before its output: {s:02X?} cap {cap} {p:?}"
    );
    assert!(
        buf[offset + p.written..].iter().all(|&b| b == 0xA5),
        "changed bytes past its output: {s:02X?} cap {cap} {p:?}"
    );
    (p, buf[offset..offset + p.written].to_vec())
}

/// Checks every converter and length function on `s` against the oracles.
fn check(s: &[u8]) {
    let latin1 = testkit::latin1_to_utf8(s);
    assert_eq!(utf8_length_from_latin1(s), latin1.len(), "{s:02X?}");
    let (p, out) = run(latin1_to_utf8, s, latin1.len(), STRICT);
    assert_eq!(
        (p.read, p.stop, &out),
        (s.len(), None, &latin1),
        "latin1 {s:02X?}"
    );

    let cp1252 = testkit::windows_1252_to_utf8(s);
    assert_eq!(utf8_length_from_cp1252(s), cp1252.len(), "{s:02X?}");
    let (p, out) = run(cp1252_to_utf8, s, cp1252.len(), STRICT);
    assert_eq!(
        (p.read, p.stop, &out),
        (s.len(), None, &cp1252),
        "cp1252 {s:02X?}"
    );

    let lossy = testkit::utf8_to_latin1_lossy(s);
    assert_eq!(latin1_length_from_utf8(s), lossy.len(), "{s:02X?}");
    let (p, out) = run(utf8_to_latin1, s, lossy.len(), REPLACE);
    assert_eq!(
        (p.read, p.stop, &out),
        (s.len(), None, &lossy),
        "lossy {s:02X?}"
    );

    let (want, stop) = strict_latin1(s);
    let (p, out) = run(utf8_to_latin1, s, lossy.len(), STRICT);
    let got = p.stop.map(|why| (p.read, why));
    assert_eq!((got, &out), (stop, &want), "strict {s:02X?}");
    if stop.is_none() {
        assert_eq!(p.read, s.len());
    }
}

#[test]
fn examples() {
    // ISO-8859-1: "café" and its UTF-8; the whole upper half.
    check(b"caf\xE9");
    assert_eq!(testkit::latin1_to_utf8(b"caf\xE9"), "café".as_bytes());
    // Windows-1252: the euro sign, curly quotes, the five undefined bytes.
    assert_eq!(
        testkit::windows_1252_to_utf8(b"\x80\x93x\x94\x81\x8D\x8F\x90\x9D"),
        "€\u{201C}x\u{201D}\u{81}\u{8D}\u{8F}\u{90}\u{9D}".as_bytes()
    );
    // Into Latin-1: U+20AC stops the strict conversion and is `?` with replacement, as is
    // each maximal subpart (E2 82 cut by `x` is one).
    let (p, out) = run(utf8_to_latin1, "é€".as_bytes(), 8, STRICT);
    assert_eq!(
        (p.read, p.written, p.stop, out),
        (2, 1, Some(Stop::Unrepresentable), vec![0xE9])
    );
    let (_, out) = run(
        utf8_to_latin1,
        b"\xC3\xA9\xE2\x82x\xFF\xE2\x82\xAC",
        8,
        REPLACE,
    );
    assert_eq!(out, b"\xE9?x??");
    let all: Vec<u8> = (0..=255).collect();
    check(&all);
}

#[test]
#[cfg_attr(miri, ignore = "16 million inputs: too slow interpreted")]
fn every_input_of_one_to_three_bytes() {
    let step = sweep_step();
    for a in 0..=255u8 {
        check(&[a]);
        for b in 0..=255u8 {
            check(&[a, b]);
            for c in (0..=255u8).step_by(step) {
                check(&[a, b, c]);
            }
        }
    }
}

/// The inputs an error is placed in: runs of ASCII and of Latin-1 of every length around the
/// word (8 bytes) and the kernels' blocks (64 bytes).
fn around_blocks(rng: &mut Rng, len: usize) -> Vec<u8> {
    (0..len)
        .map(|_| match rng.below(4) {
            0 => 0x80 + rng.below(0x80) as u8,
            _ => b' ' + rng.below(0x5F) as u8,
        })
        .collect()
}

#[test]
fn errors_at_every_offset_around_the_blocks() {
    let mut rng = Rng::new(0x1A71);
    let bad: [&[u8]; 6] = [
        b"\x80",
        b"\xE2\x82",
        b"\xF0\x9F\x98",
        b"\xC0\xAF",
        b"\xFF",
        "€".as_bytes(),
    ];
    // Under Miri, a few short inputs, each error at a third of the offsets.
    let max = common::or_under_miri(140, 5);
    for len in 0..max {
        let latin = around_blocks(&mut rng, len);
        // As Latin-1 and Windows-1252 input: every byte is a character.
        check(&latin);
        let text = testkit::latin1_to_utf8(&latin);
        check(&text);
        for at in (0..=text.len()).filter(|&i| i == text.len() || text[i] & 0xC0 != 0x80) {
            for err in bad
                .iter()
                .skip(common::or_under_miri(0, at % 3))
                .step_by(common::or_under_miri(1, 3))
            {
                let mut s = text[..at].to_vec();
                s.extend_from_slice(err);
                s.extend_from_slice(&text[at..]);
                check(&s);
            }
        }
    }
}

/// Converts `s` into buffers of `cap` bytes, resuming after each full one: the whole output,
/// and the progress of the call that ended (its `read` counted from the start of `s`).
fn resumed(convert: Convert, s: &[u8], cap: usize, mode: Mode) -> (Vec<u8>, Option<Stop>, usize) {
    let mut out = Vec::new();
    let mut read = 0;
    let mut cap = cap;
    loop {
        let (p, o) = run(convert, &s[read..], cap, mode);
        out.extend_from_slice(&o);
        read += p.read;
        match p.stop {
            Some(Stop::OutputFull) => {
                // A character that does not fit at all: the next buffer is larger.
                if p.written == 0 {
                    cap += 1;
                }
            }
            stop => return (out, stop, read),
        }
    }
}

#[test]
fn every_capacity_below_the_needed_one() {
    let mut rng = Rng::new(0xCA9);
    for _ in 0..iterations(300) {
        let len = rng.below(common::or_under_miri(100, 30));
        let mut s = if rng.below(2) == 0 {
            around_blocks(&mut rng, len)
        } else {
            rng.text_of_len(len)
        };
        if rng.below(3) == 0 {
            rng.mutate(&mut s);
        }
        let cases: [(Convert, Vec<u8>, Mode); 3] = [
            (latin1_to_utf8, testkit::latin1_to_utf8(&s), STRICT),
            (cp1252_to_utf8, testkit::windows_1252_to_utf8(&s), STRICT),
            (utf8_to_latin1, testkit::utf8_to_latin1_lossy(&s), REPLACE),
        ];
        // Under Miri, a sample of the capacities: resuming from each is quadratic.
        let step = common::or_under_miri(1, 7);
        for (convert, want, mode) in cases {
            for cap in (0..want.len()).step_by(step) {
                let (p, out) = run(convert, &s, cap, mode);
                assert_eq!(p.stop, Some(Stop::OutputFull), "{s:02X?} cap {cap}");
                assert_eq!(out[..], want[..p.written], "{s:02X?} cap {cap}");
                let (all, stop, read) = resumed(convert, &s, cap, mode);
                assert_eq!(
                    (all, stop, read),
                    (want.clone(), None, s.len()),
                    "{s:02X?} cap {cap}"
                );
            }
        }
        // Strict into Latin-1: a full buffer before the first error, then the error itself.
        let (want, stop) = strict_latin1(&s);
        for cap in (0..=want.len()).step_by(step) {
            let (all, got, read) = resumed(utf8_to_latin1, &s, cap, STRICT);
            assert_eq!(all, want, "{s:02X?} cap {cap}");
            assert_eq!(stop, got.map(|why| (read, why)), "{s:02X?} cap {cap}");
        }
    }
}

/// UTF8_MORE: `s` cut into two chunks at every offset, the bytes held back by the first
/// carried over to the second, gives the output and final status that the oracles give for
/// one call on the whole.
#[test]
fn chunks_cut_everywhere_give_one_call() {
    let mut rng = Rng::new(0x5EA);
    let more = |mode: Mode| Mode { more: true, ..mode };
    for _ in 0..iterations(300) {
        let len = rng.below(40);
        let mut s = rng.text_of_len(len);
        if rng.below(2) == 0 {
            rng.mutate(&mut s);
        }
        for mode in [STRICT, REPLACE] {
            // What one call on the whole gives, from the oracles.
            let (whole, whole_read, whole_stop) = if mode.replace {
                (testkit::utf8_to_latin1_lossy(&s), s.len(), None)
            } else {
                let (want, stop) = strict_latin1(&s);
                (
                    want,
                    stop.map_or(s.len(), |(at, _)| at),
                    stop.map(|(_, why)| why),
                )
            };
            for cut in 0..=s.len() {
                let (p, first) = run(utf8_to_latin1, &s[..cut], cut, more(mode));
                let mut out = first;
                let (read, stop) = match p.stop {
                    Some(Stop::Malformed(ErrorKind::Truncated)) => {
                        assert!(cut - p.read <= 3, "{s:02X?} cut {cut}");
                        let (q, second) = run(utf8_to_latin1, &s[p.read..], s.len(), mode);
                        out.extend_from_slice(&second);
                        (p.read + q.read, q.stop)
                    }
                    None => {
                        let (q, second) = run(utf8_to_latin1, &s[cut..], s.len(), mode);
                        out.extend_from_slice(&second);
                        (cut + q.read, q.stop)
                    }
                    stop => (p.read, stop),
                };
                assert_eq!(out, whole[..out.len()], "{s:02X?} cut {cut} {mode:?}");
                assert_eq!((read, stop), (whole_read, whole_stop), "{s:02X?} cut {cut}");
                if stop.is_none() {
                    assert_eq!(out, whole, "{s:02X?} cut {cut}");
                }
            }
        }
    }
}

/// Each implementation's converters from Latin-1 and Windows-1252 (the SIMD ones take blocks of
/// 16 to 64 bytes, the last ones whole while another follows and the room holds what their
/// whole-register stores write, the very last masked): text of every length up to three
/// blocks of AVX-512 and more, mostly ASCII, mostly Latin-1, with the bytes 0x80..0x9F, or
/// ASCII but for one byte, into every capacity from none to the size needed and more, and one
/// with room to spare, against the oracles, with nothing changed past the output.
#[test]
fn every_implementation_converts_from_latin1_and_cp1252() {
    let mut rng = Rng::new(0x1A7);
    let max = common::or_under_miri(200, 20);
    for len in (0..max).step_by(common::or_under_miri(1, 5)) {
        for kind in 0..4 {
            let mut s: Vec<u8> = (0..len)
                .map(|_| match (kind, rng.below(8)) {
                    (0, 0) | (1, 0..=5) => 0xA0 + rng.below(0x60) as u8,
                    (2, 0..=1) => 0x80 + rng.below(0x20) as u8,
                    (2, 2..=3) => 0xA0 + rng.below(0x60) as u8,
                    _ => b' ' + rng.below(0x5F) as u8,
                })
                .collect();
            // ASCII but for one byte: runs of ASCII of every length, before and after it.
            if kind == 3 && len > 0 {
                s[rng.below(len)] = 0x80 + rng.below(0x80) as u8;
            }
            let latin1 = testkit::latin1_to_utf8(&s);
            let cp1252 = testkit::windows_1252_to_utf8(&s);
            let step = common::or_under_miri(1, 23);
            for isa in common::implementations() {
                let cases = [(&latin1, false), (&cp1252, true)];
                for (want, cp) in cases {
                    let convert = from_single_byte(isa, cp);
                    let roomy = want.len() + 256;
                    for cap in (0..want.len() + 40).step_by(step).chain([roomy]) {
                        let (p, out) = run_with(&convert, &s, cap);
                        let name = isa.name();
                        assert_eq!(out[..], want[..p.written], "{name} {s:02X?} cap {cap}");
                        if cap >= want.len() {
                            assert_eq!((p.read, p.stop), (s.len(), None), "{name} cap {cap}");
                        } else {
                            assert_eq!(p.stop, Some(Stop::OutputFull), "{name} cap {cap}");
                            // Stopped at the first character that does not fit.
                            let next = if cp {
                                testkit::windows_1252(s[p.read]).len_utf8()
                            } else {
                                (s[p.read] as char).len_utf8()
                            };
                            assert!(p.written + next > cap, "{name} {s:02X?} cap {cap}");
                        }
                    }
                }
            }
        }
    }
}

/// Text mostly of ASCII and of U+0080..U+00FF, `len` characters, with now and then a character
/// above U+00FF or an ill-formed sequence: what the SIMD blocks into Latin-1 take, and where
/// they stop.
fn latin1_text(rng: &mut Rng, len: usize, odd_one_in: usize) -> Vec<u8> {
    let mut s = Vec::new();
    for _ in 0..len {
        match rng.below(odd_one_in) {
            0 => match rng.below(4) {
                0 => s.extend_from_slice("€".as_bytes()),
                1 => s.extend_from_slice(b"\xC3"),
                2 => s.extend_from_slice(b"\x80"),
                _ => s.extend_from_slice("\u{1F600}".as_bytes()),
            },
            k if k % 2 == 0 => s.push(b' ' + rng.below(0x5F) as u8),
            _ => {
                let c = char::from_u32(0x80 + rng.below(0x80) as u32).unwrap();
                s.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
            }
        }
    }
    s
}

/// Each implementation's converter into Latin-1 (the SIMD ones take runs of ASCII, and blocks
/// of 16 bytes of ASCII and 2-byte characters, a lead in the last byte left for the next, with
/// 16 bytes of room, one or two after a run on x86, with NEON up to one of ASCII),
/// strict and with replacement, into every capacity, against the oracles, with nothing
/// changed past the output.
#[test]
fn every_implementation_converts_into_latin1() {
    let mut rng = Rng::new(0x1A711);
    for _ in 0..iterations(400) {
        let len = rng.below(120);
        let odd = [3, 20, 1000][rng.below(3)];
        let s = latin1_text(&mut rng, len, odd);
        let lossy = testkit::utf8_to_latin1_lossy(&s);
        let (strict_out, strict_stop) = strict_latin1(&s);
        let step = common::or_under_miri(1, 9);
        for isa in common::implementations() {
            let name = isa.name();
            for cap in (0..lossy.len() + 40).step_by(step) {
                let convert = |s: &[u8], d: &mut [u8]| isa.utf8_to_latin1(s, d, REPLACE).unwrap();
                let (p, out) = run_with(convert, &s, cap);
                assert_eq!(out[..], lossy[..p.written], "{name} {s:02X?} cap {cap}");
                if cap >= lossy.len() {
                    assert_eq!((p.read, p.stop), (s.len(), None), "{name} {s:02X?}");
                } else {
                    assert_eq!((p.written, p.stop), (cap, Some(Stop::OutputFull)), "{name}");
                }
                let convert = |s: &[u8], d: &mut [u8]| isa.utf8_to_latin1(s, d, STRICT).unwrap();
                let (p, out) = run_with(convert, &s, cap);
                assert_eq!(
                    out[..],
                    strict_out[..p.written],
                    "{name} {s:02X?} cap {cap}"
                );
                if cap >= strict_out.len() {
                    assert_eq!(
                        p.stop.map(|why| (p.read, why)),
                        strict_stop,
                        "{name} {s:02X?}"
                    );
                } else {
                    assert_eq!((p.written, p.stop), (cap, Some(Stop::OutputFull)), "{name}");
                }
            }
        }
    }
}

/// The length into Latin-1 counts characters with the implementation in use; each of the
/// others the CPU runs counts the same.
#[test]
fn every_implementation_counts_the_latin1_length() {
    let mut rng = Rng::new(0x15A);
    for _ in 0..iterations(200) {
        let len = rng.below(300);
        let mut s = rng.text_of_len(len);
        rng.mutate(&mut s);
        let want = testkit::utf8_to_latin1_lossy(&s).len();
        assert_eq!(latin1_length_from_utf8(&s), want);
        for isa in common::implementations() {
            assert_eq!(isa.count_chars(&s), Some(want), "{}", isa.name());
        }
    }
}

/// Each implementation's converters where the SIMD ones change paths: runs of ASCII around the
/// 16-, 32-, 64- (NEON) and 128-byte (x86) pieces that they test and copy, with one or two
/// other characters at every offset (a Latin-1 byte from 0x80; into Latin-1 a 2-byte
/// character, which may be cut by a block's end, or one above U+00FF), into the size needed
/// and every capacity up to 20 bytes below it (under Miri, every fifth from the size needed),
/// with nothing changed past the output, which starts at offsets from 0 to 31 of an allocation
/// (x86 copies the pieces from where their stores are aligned).
#[test]
fn every_implementation_around_runs_of_ascii() {
    let mut rng = Rng::new(0xA5C1);
    let lens = common::or_under_miri(
        &[
            15, 16, 17, 31, 32, 33, 63, 64, 65, 97, 128, 130, 160, 161, 200, 290, 300,
        ][..],
        &[40, 70, 170][..],
    );
    // Under Miri, every ninth offset, and past the first piece of 128 bytes the first offset
    // alone (before a run that reaches the pieces); every fifth capacity.
    let cap_step = common::or_under_miri(1, 5);
    for &len in lens {
        let step = common::or_under_miri(1, if len > 128 { len } else { 9 });
        for at in (0..len).step_by(step) {
            let offset = (at * 7 + len) % 32;
            let mut s: Vec<u8> = (0..len).map(|_| b' ' + rng.below(0x5F) as u8).collect();
            s[at] = 0x80 + rng.below(0x80) as u8;
            if rng.below(2) == 0 {
                let other = rng.below(len);
                s[other] = 0x80 + rng.below(0x80) as u8;
            }
            let text = testkit::latin1_to_utf8(&s);
            let mut above = text.clone();
            // The first character from U+0080, after ASCII: at the same offset in both.
            let i = text.iter().position(|&b| b >= 0x80).unwrap();
            above.splice(i..i + 2, "€".bytes());
            let latin1_out = testkit::utf8_to_latin1_lossy(&above);
            for isa in common::implementations() {
                let name = isa.name();
                for cap in (text.len().saturating_sub(20)..=text.len())
                    .rev()
                    .step_by(cap_step)
                {
                    let (p, out) =
                        run_at(|s, d| isa.latin1_to_utf8(s, d).unwrap(), &s, cap, offset);
                    assert_eq!(out[..], text[..p.written], "{name} {s:02X?} cap {cap}");
                    let done = (p.read == s.len()) == (cap == text.len());
                    assert!(done, "{name} {s:02X?} cap {cap} {p:?}");
                }
                for cap in (s.len().saturating_sub(20)..=s.len())
                    .rev()
                    .step_by(cap_step)
                {
                    let convert =
                        |s: &[u8], d: &mut [u8]| isa.utf8_to_latin1(s, d, STRICT).unwrap();
                    let (p, out) = run_at(convert, &text, cap, offset);
                    assert_eq!(out[..], s[..p.written], "{name} {text:02X?} cap {cap}");
                    let done = (p.read == text.len()) == (cap == s.len());
                    assert!(done, "{name} {text:02X?} cap {cap} {p:?}");
                    let convert =
                        |s: &[u8], d: &mut [u8]| isa.utf8_to_latin1(s, d, REPLACE).unwrap();
                    let (p, out) = run_at(convert, &above, cap, offset);
                    assert_eq!(
                        out[..],
                        latin1_out[..p.written],
                        "{name} {above:02X?} cap {cap}"
                    );
                }
                let convert = |s: &[u8], d: &mut [u8]| isa.utf8_to_latin1(s, d, STRICT).unwrap();
                let (p, out) = run_at(convert, &above, s.len(), offset);
                assert_eq!(
                    (out, p.read, p.stop),
                    (s[..i].to_vec(), i, Some(Stop::Unrepresentable)),
                    "{name} {above:02X?}"
                );
            }
        }
    }
}

/// Each implementation's converters from Latin-1 and Windows-1252 on inputs of every length up
/// to three blocks of AVX-512 and more, ASCII or with one byte from 0x80, cut from the middle of
/// ASCII text, into outputs of the size needed and larger, 64 bytes into an allocation, with
/// nothing changed before or past them: x86 reads and writes the end of an input that is ASCII
/// as a whole block, over the bytes converted just before it, which would reach before the
/// input and the output if the input were shorter than a block.
#[test]
fn every_implementation_at_the_end_of_inputs_inside_ascii() {
    let mut rng = Rng::new(0xE4D);
    let text: Vec<u8> = (0..400).map(|_| b' ' + rng.below(0x5F) as u8).collect();
    // Under Miri, the lengths around the first block widths.
    let lens: Vec<usize> = common::or_under_miri(
        (0..200).collect(),
        [0..=8, 15..=17, 31..=33, 63..=66]
            .into_iter()
            .flatten()
            .collect(),
    );
    for len in lens {
        for with_letter in [false, true] {
            let mut buf = text.clone();
            if with_letter && len > 0 {
                buf[100 + rng.below(len)] = 0x80 + rng.below(0x80) as u8;
            }
            let s = &buf[100..100 + len];
            for isa in common::implementations() {
                for cp in [false, true] {
                    let want = if cp {
                        testkit::windows_1252_to_utf8(s)
                    } else {
                        testkit::latin1_to_utf8(s)
                    };
                    for cap in [want.len(), want.len() + 256] {
                        let (p, out) = run_at(from_single_byte(isa, cp), s, cap, 64);
                        let name = isa.name();
                        assert_eq!((p.read, &out), (len, &want), "{name} {s:02X?} cap {cap}");
                    }
                }
            }
        }
    }
}

/// `s` copied to `offset` bytes (below 64) past a 64-byte boundary of a new allocation: the
/// allocation and where `s` starts in it.
fn placed(s: &[u8], offset: usize) -> (Vec<u8>, usize) {
    let mut buf = vec![0; s.len() + 128];
    let start = (64 - buf.as_ptr().addr() % 64) % 64 + offset;
    buf[start..start + s.len()].copy_from_slice(s);
    (buf, start)
}

/// Each implementation's converters across long runs of ASCII, which AVX-512 copies four
/// blocks at a time after sixteen blocks of ASCII in a row (from Latin-1, after one at the
/// input's start), with its loads aligned to the input (`avx512-zen5`) or its stores to the
/// output (`avx512`, `avx512-zen4`), from a point backed up to a multiple of 64 bytes of the
/// one or the other: runs of 1 to 3 KiB, from the start or after a few other characters,
/// ended by a character from 0x80 (into Latin-1: U+0080..U+00FF, or one above U+00FF) at every
/// offset of the blocks where the copy may stop,
/// from inputs and into outputs at every offset from a 64-byte boundary, of the size needed,
/// one byte less, and a few hundred less (where the copy stops for the room), with nothing
/// changed past them.
#[test]
#[cfg_attr(miri, ignore = "AVX-512's copy of runs, which Miri does not run")]
fn every_implementation_across_long_runs_of_ascii() {
    for (n, &len) in [1100, 1333, 1700, 3000].iter().enumerate() {
        across_a_run_of_ascii(n, len, 900..len);
    }
}

/// The same across runs of 25 to 40 KB, which `avx512-zen5` copies a block a step at a pace
/// (`copy_paced`: inputs of 24 KiB to 192 KiB), ended at every offset of the three blocks
/// after 24,000 bytes and of the last 300 bytes (where the copy stops for the end of the
/// input, which the blocks loaded ahead need).
#[test]
#[cfg_attr(miri, ignore = "AVX-512's copy of runs, which Miri does not run")]
fn every_implementation_across_runs_of_ascii_held_in_l2() {
    for (n, &len) in [25_000, 40_000].iter().enumerate() {
        across_a_run_of_ascii(n, len, 24_000..24_200);
        across_a_run_of_ascii(n, len, len - 300..len);
    }
}

/// The converters of every implementation on `len` bytes of ASCII, and a few other characters
/// at the start of every other input, with a character from 0x80 at each offset of `ends`
/// (see `every_implementation_across_long_runs_of_ascii`); `n` varies the placements.
fn across_a_run_of_ascii(n: usize, len: usize, ends: core::ops::Range<usize>) {
    let mut rng = Rng::new(0x10A5C ^ len as u64);
    for at in ends {
        let offset = (at * 13 + n) % 64;
        let mut s: Vec<u8> = (0..len).map(|_| b' ' + rng.below(0x5F) as u8).collect();
        // Every other input has other characters near its start, before the run.
        if at % 2 == 0 {
            for _ in 0..3 {
                s[rng.below(200)] = 0x80 + rng.below(0x80) as u8;
            }
        }
        s[at] = 0x80 + rng.below(0x80) as u8;
        let latin1 = testkit::latin1_to_utf8(&s);
        let cp1252 = testkit::windows_1252_to_utf8(&s);
        let mut above = latin1.clone();
        // The last character from U+0080, at `at` in `s`, above U+00FF.
        let i = latin1.len() - (len - at) - 1;
        above.splice(i..i + 2, "\u{20AC}".bytes());
        let lossy = testkit::utf8_to_latin1_lossy(&above);
        // The inputs, each at an offset of its own from a 64-byte boundary.
        let input_offset = (at * 7 + n) % 64;
        let (s_buf, s_at) = placed(&s, input_offset);
        let (latin1_buf, latin1_at) = placed(&latin1, (input_offset + 1) % 64);
        let (above_buf, above_at) = placed(&above, (input_offset + 2) % 64);
        let s_in = &s_buf[s_at..s_at + s.len()];
        let latin1_in = &latin1_buf[latin1_at..latin1_at + latin1.len()];
        let above_in = &above_buf[above_at..above_at + above.len()];
        for isa in common::implementations() {
            let name = isa.name();
            for (cp, want) in [(false, &latin1), (true, &cp1252)] {
                for less in [0, 1, 300, 700] {
                    let cap = want.len() - less;
                    let (p, out) = run_at(from_single_byte(isa, cp), s_in, cap, offset);
                    assert_eq!(out[..], want[..p.written], "{name} {at} cap {cap}");
                    let done = (p.read, p.stop) == (s.len(), None);
                    assert_eq!(done, less == 0, "{name} {at} cap {cap} {p:?}");
                }
            }
            for less in [0, 1, 300, 700] {
                let cap = s.len() - less;
                let convert = |t: &[u8], d: &mut [u8]| isa.utf8_to_latin1(t, d, STRICT).unwrap();
                let (p, out) = run_at(convert, latin1_in, cap, offset);
                assert_eq!(out[..], s[..p.written], "{name} {at} cap {cap}");
                let done = (p.read, p.stop) == (latin1.len(), None);
                assert_eq!(done, less == 0, "{name} {at} cap {cap} {p:?}");
                let convert = |t: &[u8], d: &mut [u8]| isa.utf8_to_latin1(t, d, REPLACE).unwrap();
                let (p, out) = run_at(convert, above_in, cap, offset);
                assert_eq!(out[..], lossy[..p.written], "{name} {at} cap {cap}");
            }
            let convert = |t: &[u8], d: &mut [u8]| isa.utf8_to_latin1(t, d, STRICT).unwrap();
            let (p, out) = run_at(convert, above_in, s.len(), offset);
            assert_eq!(
                (&out[..], p.read, p.stop),
                (&s[..at], i, Some(Stop::Unrepresentable)),
                "{name} {at}"
            );
        }
    }
}

/// Each implementation's converters on inputs of 32 KiB to 192 KiB, whose runs of ASCII
/// `avx512-zen5` copies a block a step at a pace rather than four at a time (their input and
/// output outgrow the L1 cache, not the L2), and one just past them: text of runs of ASCII of
/// up to 8 KiB between characters from U+0080, in Latin-1 into UTF-8 from Latin-1 and from
/// Windows-1252, and in UTF-8 (two bytes, some cut by a block's end) into Latin-1, with one
/// character above U+00FF near its end (strict: where it stops) or none, into the size needed,
/// one byte less and 5,000 less, at five offsets into an allocation, against the standard
/// library and the WHATWG index.
#[test]
#[cfg_attr(
    miri,
    ignore = "inputs of 32 KiB and more; the same steps as the tests above"
)]
fn every_implementation_on_inputs_held_in_l2() {
    let mut rng = Rng::new(0x12C0);
    for (n, len) in [33_000, 70_000, 140_000, 191_000, 200_000]
        .into_iter()
        .enumerate()
    {
        let mut text = Vec::with_capacity(len + 8);
        while text.len() < len {
            let run = rng.below(8192);
            text.extend((0..run).map(|_| b' ' + rng.below(0x5F) as u8));
            let c = char::from_u32(0x80 + rng.below(0x80) as u32).unwrap();
            text.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
        }
        let mut above = text.clone();
        let at = text.len() - 100 - rng.below(1000);
        above.splice(at..at, "\u{20AC}".bytes());
        let want = strict_latin1(&text).0;
        let (want_above, stop_above) = strict_latin1(&above);
        let cp1252 = testkit::windows_1252_to_utf8(&want);
        let offset = (n * 23) % 64;
        for isa in common::implementations() {
            let name = isa.name();
            for (cp, utf8) in [(false, &text), (true, &cp1252)] {
                for less in [0, 1, 5000] {
                    let cap = utf8.len() - less;
                    let (p, out) = run_at(from_single_byte(isa, cp), &want, cap, offset);
                    assert_eq!(out[..], utf8[..p.written], "{name} {cp} {len} cap {cap}");
                    let done = (p.read, p.stop) == (want.len(), None);
                    assert_eq!(done, less == 0, "{name} {cp} {len} cap {cap} {p:?}");
                }
            }
            let convert = |t: &[u8], d: &mut [u8]| isa.utf8_to_latin1(t, d, STRICT).unwrap();
            for less in [0, 1, 5000] {
                let cap = want.len() - less;
                let (p, out) = run_at(convert, &text, cap, offset);
                assert_eq!(out[..], want[..p.written], "{name} {len} cap {cap}");
                let done = (p.read, p.stop) == (text.len(), None);
                assert_eq!(done, less == 0, "{name} {len} cap {cap} {p:?}");
            }
            let (p, out) = run_at(convert, &above, above.len(), offset);
            assert_eq!(out, want_above, "{name} {len}");
            assert_eq!(Some((p.read, p.stop.unwrap())), stop_above, "{name} {len}");
        }
    }
}

/// Each implementation's converters with every byte from 0x80 at every offset of a block and
/// of the blocks around it: in 64 bytes of ASCII and in 64 of Latin-1 letters, from Latin-1
/// and Windows-1252 (whose blocks must leave 0x80..0x9F, each of them, to the exact path), and
/// into Latin-1 as its character (a 2-byte one from U+0080, cut by a block's end at some
/// offsets), as a byte alone and as a byte followed by a continuation byte (C2 and C3 then
/// characters, other bytes errors: a lead of another length or an overlong C0 or C1, a
/// continuation without its lead, a byte no character has), strict and with replacement, into
/// outputs of the size needed, with nothing changed past them. Not under Miri, whose run of
/// this file the tests above already fill with the same blocks' loads and stores: what this
/// adds is byte values, not memory accesses.
#[test]
#[cfg_attr(
    miri,
    ignore = "the same accesses as the tests above, with every byte value"
)]
fn every_implementation_with_every_byte_at_every_offset_of_a_block() {
    for background in [b'a', 0xE9] {
        for b in 0x80..=0xFFu8 {
            for at in 0..48 {
                let mut s = vec![background; 64];
                s[at] = b;
                let latin1 = testkit::latin1_to_utf8(&s);
                let cp1252 = testkit::windows_1252_to_utf8(&s);
                // Where the character of `b` is in `latin1`: its two bytes.
                let i = if background < 0x80 { at } else { 2 * at };
                let odd: [Vec<u8>; 2] = [&[b][..], &[b, 0xAF]].map(|bytes| {
                    let mut t = latin1.clone();
                    t.splice(i..i + 2, bytes.iter().copied());
                    t
                });
                for isa in common::implementations() {
                    let name = isa.name();
                    for (cp, want) in [(false, &latin1), (true, &cp1252)] {
                        let (p, out) = run_with(from_single_byte(isa, cp), &s, want.len());
                        assert_eq!((p.read, p.stop, &out), (64, None, want), "{name} {s:02X?}");
                    }
                    let into = |mode| {
                        move |s: &[u8], d: &mut [u8]| isa.utf8_to_latin1(s, d, mode).unwrap()
                    };
                    let (p, out) = run_with(into(STRICT), &latin1, 64);
                    let whole = (latin1.len(), None, &s);
                    assert_eq!((p.read, p.stop, &out), whole, "{name} {s:02X?}");
                    for t in &odd {
                        let lossy = testkit::utf8_to_latin1_lossy(t);
                        let (p, out) = run_with(into(REPLACE), t, lossy.len());
                        let whole = (t.len(), None, &lossy);
                        assert_eq!((p.read, p.stop, &out), whole, "{name} {t:02X?}");
                        let (strict, stop) = strict_latin1(t);
                        let (p, out) = run_with(into(STRICT), t, lossy.len());
                        let got = p.stop.map(|why| (p.read, why));
                        assert_eq!((got, &out), (stop, &strict), "{name} {t:02X?}");
                    }
                }
            }
        }
    }
}

/// UTF-8 of every length from 1 to 200 bytes whose last byte is a lead cut by the end (C2 or
/// C3, whose character Latin-1 holds, and E2), after ASCII and 2-byte characters, through every
/// implementation: the characters before it converted and UTF8_ERR_TRUNCATED at it, strict and
/// with UTF8_MORE (with UTF8_REPLACE too), and one `?` for it with UTF8_REPLACE alone, as the
/// oracles give. A block of 64 bytes whose last byte is a lead is the case the block loops
/// carry into the next block, and short inputs of one block convert without them.
#[test]
fn every_implementation_on_a_lead_cut_by_the_end() {
    let mut rng = Rng::new(0xC3);
    let more = |replace| Mode {
        more: true,
        ..if replace { REPLACE } else { STRICT }
    };
    // Under Miri, the lengths around the 16, 32 and 64 bytes the SIMD blocks take.
    let lengths: Vec<usize> = common::or_under_miri(
        (1..=200).collect(),
        vec![1, 2, 16, 17, 32, 33, 63, 64, 65, 128, 129],
    );
    for len in lengths {
        for lead in [0xC2, 0xC3, 0xE2] {
            let mut s = Vec::new();
            while s.len() < len - 1 {
                if len - 1 - s.len() >= 2 && rng.below(3) == 0 {
                    s.extend_from_slice(
                        char::from(0xA0 + rng.below(0x60) as u8)
                            .to_string()
                            .as_bytes(),
                    );
                } else {
                    s.push(b'a' + rng.below(26) as u8);
                }
            }
            s.push(lead);
            let (strict, stop) = strict_latin1(&s);
            assert_eq!(stop, Some((len - 1, Stop::Malformed(ErrorKind::Truncated))));
            let lossy = testkit::utf8_to_latin1_lossy(&s);
            for isa in common::implementations() {
                let name = isa.name();
                let into =
                    |mode| move |s: &[u8], d: &mut [u8]| isa.utf8_to_latin1(s, d, mode).unwrap();
                for mode in [STRICT, more(false), more(true)] {
                    let (p, out) = run_with(into(mode), &s, lossy.len());
                    let got = p.stop.map(|why| (p.read, why));
                    assert_eq!((got, &out), (stop, &strict), "{name} {mode:?} {s:02X?}");
                }
                let (p, out) = run_with(into(REPLACE), &s, lossy.len());
                assert_eq!(
                    (p.read, p.stop, &out),
                    (len, None, &lossy),
                    "{name} {s:02X?}"
                );
            }
        }
    }
}
