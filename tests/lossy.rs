//! utf8_replace_invalid against two independent oracles of lossy decoding: Rust's
//! `String::from_utf8_lossy`, and Python's `bytes.decode('utf-8', 'replace')` through
//! c-tests/lossy_oracle.py (as the C harness uses it), over exhaustive short inputs, random and
//! adversarial input, inside long text (SIMD blocks), and Markus Kuhn's stress test.

mod common;

use core::ptr;
use std::path::Path;
use std::process::Command;

use common::Rng;
use utf8::ffi::utf8_replace_invalid;
use utf8::ffi::utf8_status::*;

/// utf8_replace_invalid through the C function, after a size query, into a buffer of exactly
/// the size it reported. Its output is compared with the oracles by the callers (`check`, and
/// the Python and Unicode Standard tests).
fn replace(s: &[u8]) -> Vec<u8> {
    let mut needed = usize::MAX;
    // SAFETY: (NULL, 0) is a size query; `s` and `needed` are live.
    let status = unsafe {
        utf8_replace_invalid(s.as_ptr().cast(), s.len(), ptr::null_mut(), 0, &mut needed)
    };
    assert_eq!(
        status,
        if needed == 0 {
            UTF8_OK
        } else {
            UTF8_ERR_BUFFER_TOO_SMALL
        }
    );
    let mut out = vec![0u8; needed];
    let mut n = usize::MAX;
    // SAFETY: `out` has `needed` writable bytes.
    let status = unsafe {
        utf8_replace_invalid(
            s.as_ptr().cast(),
            s.len(),
            out.as_mut_ptr().cast(),
            needed,
            &mut n,
        )
    };
    assert_eq!((status, n), (UTF8_OK, needed), "{s:02X?}");
    out
}

fn check(s: &[u8]) {
    assert_eq!(
        replace(s),
        String::from_utf8_lossy(s).as_bytes(),
        "{s:02X?}"
    );
}

#[test]
#[cfg_attr(
    miri,
    ignore = "exhaustive: too slow to interpret; the sampled tests run the same paths"
)]
fn every_input_of_one_and_two_bytes_and_three_after_each_lead_class() {
    check(&[]);
    for a in 0..=255u8 {
        check(&[a]);
        for b in 0..=255u8 {
            check(&[a, b]);
        }
    }
    for a in [
        0x41, 0x80, 0xC2, 0xDF, 0xE0, 0xE1, 0xED, 0xEF, 0xF0, 0xF1, 0xF4, 0xF5, 0xFF,
    ] {
        for b in 0..=255u8 {
            for c in 0..=255u8 {
                check(&[a, b, c]);
            }
        }
    }
}

/// Random bytes, mostly high ones, and mutated text of every width, long enough for the SIMD
/// kernels to see whole blocks.
fn adversarial(rng: &mut Rng) -> Vec<u8> {
    match rng.below(3) {
        0 => {
            let len = rng.below(50);
            (0..len)
                .map(|_| rng.next() as u8 | if rng.below(4) == 0 { 0 } else { 0x80 })
                .collect()
        }
        1 => {
            let chars = rng.below(200);
            let mut t = rng.text(chars);
            rng.mutate(&mut t);
            t
        }
        _ => {
            // Long valid stretches with an error every so often, at any block offset.
            let len = rng.below(400);
            let mut t = rng.text_of_len(len);
            for _ in 0..rng.below(4) {
                let at = rng.below(t.len() + 1);
                let bad: &[u8] = [
                    &b"\xff"[..],
                    b"\xe0\x80",
                    b"\xf4\x90\x80",
                    b"\xed\xa0\x80",
                    b"\xc3",
                    b"\x80\x80",
                ][rng.below(6)];
                t.splice(at..at, bad.iter().copied());
            }
            t
        }
    }
}

#[test]
fn random_and_adversarial_input_against_from_utf8_lossy() {
    let mut rng = Rng::new(0x5EED_1001);
    for _ in 0..common::iterations(20_000) {
        check(&adversarial(&mut rng));
    }
}

/// Errors close together, where the scalar code looks in a window after each error (twice the
/// gap before it, and 32 bytes more, for gaps of 4 to 31 bytes) before the kernel takes over
/// again: a first error, a gap of lengths that make the errors dense or not, in text of each
/// width, a second error, then text whose length puts the next ill-formed sequence (of every
/// maximal-subpart length, truncated at the end of input too) at every offset around the
/// window's end, so that the window cuts characters and ill-formed sequences at each of their
/// bytes; then a third error, and text or nothing.
#[test]
fn dense_errors_around_the_scalar_window() {
    let bads: [&[u8]; 7] = [
        b"\xff",
        b"\x80",
        b"\xc3",
        b"\xe4\xb8",
        b"\xf0\x9f\x98",
        b"\xe0\x80",
        b"\xed\xa0\x80",
    ];
    // Under Miri, which interprets each of these calls, ASCII and a 3-byte character between
    // the errors, and no tail after the last: the window's ends are the same.
    let fillers = common::or_under_miri(
        &["a", "\u{e9}", "\u{4e2d}", "\u{1f600}"][..],
        &["a", "\u{4e2d}"][..],
    );
    let gaps = common::or_under_miri(&[0usize, 3, 4, 15, 31, 32, 64][..], &[15][..]);
    for (gi, &gap) in gaps.iter().enumerate() {
        let window = 2 * gap + 32;
        let lens = common::or_under_miri(0..window + 8, window - 4..window + 2);
        for len in lens {
            for (fi, filler) in fillers.iter().enumerate() {
                if !common::takes(&[gi, len, fi]) {
                    continue;
                }
                // `len` bytes of whole characters: ASCII, then the filler's.
                let w = filler.len();
                let mut text = vec![b'x'; len % w];
                text.extend(filler.repeat(len / w).bytes());
                for bad in bads {
                    let tails = [&b""[..], b"\xc3 ok \xe4\xb8\xad"];
                    for &tail in &tails[..common::or_under_miri(2, 1)] {
                        let mut s = b"\xff".to_vec();
                        s.extend(filler.repeat(gap / w).bytes());
                        s.extend(vec![b'y'; gap % w]);
                        s.push(0xFF);
                        s.extend(&text);
                        s.extend(bad);
                        s.extend(tail);
                        check(&s);
                    }
                }
            }
        }
    }
}

/// The Rust function through both kinds of `Sink`: over an initialised buffer (`Sink::new`)
/// and over a `Vec`'s spare capacity (`Sink::new_uninit`; under Miri, a read of it before it
/// is written would fail), each with room to spare and one byte short.
#[test]
fn rust_function_writes_through_both_sinks() {
    use utf8::sink::Sink;
    let mut rng = Rng::new(0x5EED_1002);
    for _ in 0..common::iterations(200) {
        let s = adversarial(&mut rng);
        let want = String::from_utf8_lossy(&s).into_owned().into_bytes();
        for cap in [want.len() + 8, want.len().saturating_sub(1)] {
            let mut buf = vec![0x5Au8; cap];
            let mut sink = Sink::new(&mut buf);
            utf8::replace_invalid(&s, &mut sink);
            let (len, fits) = (sink.len(), sink.fits());
            assert_eq!((len, fits), (want.len(), cap >= want.len()), "{s:02X?}");
            if fits {
                assert_eq!(buf[..len], want[..], "{s:02X?}");
                assert!(buf[len..].iter().all(|&b| b == 0x5A), "{s:02X?}");
            }
            let mut spare: Vec<u8> = Vec::with_capacity(cap);
            let mut sink = Sink::new_uninit(&mut spare.spare_capacity_mut()[..cap]);
            utf8::replace_invalid(&s, &mut sink);
            let (len, fits) = (sink.len(), sink.fits());
            assert_eq!((len, fits), (want.len(), cap >= want.len()), "{s:02X?}");
            if fits {
                // SAFETY: everything written was stored: its first `len` bytes are written.
                unsafe { spare.set_len(len) };
                assert_eq!(spare, want, "{s:02X?}");
            }
        }
    }
}

/// Text with an error every few bytes, where the scalar loop of dense errors copies each
/// character with a store of 8 bytes that reaches past it, into every capacity around the
/// output's length, with U+FFFD and with the Latin-1 and Windows-1252 fallbacks: the output
/// exact where it fits, and nothing written after it (the buffer is filled with a pattern);
/// the size needed where it does not.
#[test]
fn dense_errors_into_every_capacity() {
    use utf8::scalar::replacement::Replacement;
    use utf8::sink::Sink;
    let mut rng = Rng::new(0x5EED_1003);
    for _ in 0..common::iterations(300) {
        let len = rng.below(300);
        let mut s = rng.text_of_len(len);
        // The top bit of one byte flipped every 3 to 20 bytes, as the benchmark does.
        let step = 3 + rng.below(18);
        let mut i = rng.below(step);
        while i < s.len() {
            s[i] ^= 0x80;
            i += step;
        }
        let strategies = [
            (Replacement::Fffd, None),
            (Replacement::Latin1, Some(testkit::Fallback::Latin1)),
            (Replacement::Cp1252, Some(testkit::Fallback::Cp1252)),
        ];
        for (replacement, fallback) in strategies {
            let want = match fallback {
                None => String::from_utf8_lossy(&s).into_owned(),
                Some(f) => testkit::fallback_code_points(&s, f)
                    .into_iter()
                    .map(|c| char::from_u32(c).unwrap())
                    .collect(),
            }
            .into_bytes();
            // Under Miri, the capacities next to the length: each call interprets the text.
            let (below, above) = common::or_under_miri((24, 12), (2, 2));
            for cap in want.len().saturating_sub(below)..want.len() + above {
                let mut buf = vec![0x5Au8; cap];
                let mut sink = Sink::new(&mut buf);
                utf8::replace_invalid_with(&s, replacement, &mut sink);
                let (n, fits) = (sink.len(), sink.fits());
                assert_eq!((n, fits), (want.len(), cap >= want.len()), "{s:02X?}");
                if fits {
                    assert_eq!(buf[..n], want[..], "{replacement:?} {s:02X?}");
                    assert!(buf[n..].iter().all(|&b| b == 0x5A), "{s:02X?} {cap}");
                }
            }
        }
    }
}

/// Runs c-tests/lossy_oracle.py on `input`; `None` without python3.
fn python_lossy(input: &[u8], name: &str) -> Option<Vec<u8>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let file = std::env::temp_dir().join(format!("libutf8-lossy-{}-{name}", std::process::id()));
    std::fs::write(&file, input).unwrap();
    let out = Command::new("python3")
        .arg(root.join("c-tests/lossy_oracle.py"))
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

#[test]
#[cfg_attr(miri, ignore = "runs python3")]
fn random_and_adversarial_input_against_python() {
    // One Python run for all the inputs, joined by newlines: a newline ends any ill-formed
    // sequence and is never replaced, so the lossy decoding of the whole is the decodings of
    // the parts joined by newlines.
    let mut rng = Rng::new(0x5EED_1002);
    let inputs: Vec<Vec<u8>> = (0..5_000).map(|_| adversarial(&mut rng)).collect();
    let Some(expected) = python_lossy(&inputs.join(&b'\n'), "random") else {
        eprintln!("python3 not found: skipped");
        return;
    };
    let ours: Vec<Vec<u8>> = inputs.iter().map(|s| replace(s)).collect();
    let expected: Vec<&[u8]> = expected.split(|&b| b == b'\n').collect();
    assert_eq!(
        expected.len(),
        inputs.len()
            + inputs
                .iter()
                .map(|s| s.iter().filter(|&&b| b == b'\n').count())
                .sum::<usize>()
    );
    assert_eq!(ours.join(&b'\n'), expected.join(&b'\n'));
}

/// Markus Kuhn's UTF-8 decoder stress test, from the shared test data (`$SHARED`, by default
/// `../shared` as in CI); skipped when absent.
#[test]
#[cfg_attr(miri, ignore = "reads a file and runs python3")]
fn kuhn_stress_test_against_python() {
    let Some(text) = common::kuhn_stress_test() else {
        return;
    };
    check(&text);
    if let Some(expected) = python_lossy(&text, "kuhn") {
        assert_eq!(replace(&text), expected);
    }
}

#[test]
fn examples_from_the_unicode_standard() {
    // Unicode Standard, chapter 3, table 3-8: "61 F1 80 80 E1 80 C2 62 80 63 80 BF 64" becomes
    // a, FFFD, FFFD, FFFD, b, FFFD, c, FFFD, FFFD, d.
    let input = b"\x61\xF1\x80\x80\xE1\x80\xC2\x62\x80\x63\x80\xBF\x64";
    assert_eq!(
        replace(input),
        "a\u{FFFD}\u{FFFD}\u{FFFD}b\u{FFFD}c\u{FFFD}\u{FFFD}d".as_bytes()
    );
    assert_eq!(
        replace("d\u{E9}j\u{E0}".as_bytes()),
        "d\u{E9}j\u{E0}".as_bytes()
    );
}

#[test]
fn too_small_buffers_and_null_pointers() {
    let s = b"ab\xffc\xe2\x82";
    let full = "ab\u{FFFD}c\u{FFFD}".as_bytes();
    for cap in 0..full.len() {
        let mut buf = vec![0u8; cap];
        let mut n = usize::MAX;
        // SAFETY: `buf` has `cap` writable bytes.
        let status = unsafe {
            utf8_replace_invalid(
                s.as_ptr().cast(),
                s.len(),
                buf.as_mut_ptr().cast(),
                cap,
                &mut n,
            )
        };
        assert_eq!((status, n), (UTF8_ERR_BUFFER_TOO_SMALL, full.len()));
    }
    let mut n = 9usize;
    let mut buf = [0u8; 4];
    // SAFETY: NULL buffers with lengths are refused before any access.
    unsafe {
        assert_eq!(
            utf8_replace_invalid(ptr::null(), 1, buf.as_mut_ptr().cast(), 4, &mut n),
            UTF8_ERR_NULL_POINTER
        );
        assert_eq!(
            utf8_replace_invalid(s.as_ptr().cast(), 1, ptr::null_mut(), 4, &mut n),
            UTF8_ERR_NULL_POINTER
        );
        assert_eq!(n, 9);
        assert_eq!(
            utf8_replace_invalid(ptr::null(), 0, ptr::null_mut(), 0, &mut n),
            UTF8_OK
        );
    }
    assert_eq!(n, 0);
}
