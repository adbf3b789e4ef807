//! Converting a stream in chunks (issue 47, item 2): with UTF8_MORE on every chunk but the
//! last, and the units a UTF8_ERR_TRUNCATED result leaves carried over to the next chunk, the
//! four converters give exactly what one call on the whole stream gives: the same output units,
//! the same final status, at the same offset in the stream. That is the property tested here,
//! for every flag combination, over every input of 1 to 3 bytes, structured inputs of 4 to 6
//! bytes, UTF-16 and UTF-32 inputs built from the units where the converters' decisions
//! change, and random inputs, each split at every position (and random ones in many chunks).
//! The one-call result is the reference only there, in the comparison that is the property;
//! the explicit cases at the end take their expected values from the WTF-8 specification
//! (<https://simonsapin.github.io/wtf-8/>), RFC 3629 and The Unicode Standard.

mod common;

use common::{Rng, iterations, or_under_miri};
use utf8::ffi::utf8_status::{self, *};
use utf8::ffi::{
    UTF8_MORE, UTF8_REPLACE, UTF8_WTF8, utf8_to_utf16, utf8_to_utf32, utf16_to_utf8, utf32_to_utf8,
};
use utf8::internals::Isa;
use utf8::transcode::{Mode, Progress, Replacement, Stop};

/// The result of converting a stream: the final status, its offset in the stream (the length
/// on UTF8_OK) and all the output.
type Outcome<T> = (utf8_status, usize, Vec<T>);

/// A converter as the tests call it: the input, the flags; the status, `read`, the output.
type Convert<S, T> = fn(&[S], u32) -> (utf8_status, usize, Vec<T>);

/// Calls a C converter with room for any output (4 units per input unit suffice for all).
macro_rules! c_converter {
    ($name:ident, $f:ident, $s:ty, $t:ty) => {
        fn $name(src: &[$s], flags: u32) -> (utf8_status, usize, Vec<$t>) {
            let mut out = vec![0 as $t; 4 * src.len() + 4];
            // SAFETY: `src` and `out` are live buffers of the lengths passed.
            let r = unsafe {
                $f(
                    src.as_ptr().cast(),
                    src.len(),
                    out.as_mut_ptr().cast(),
                    out.len(),
                    flags,
                )
            };
            assert!(r.read <= src.len() && r.written <= out.len());
            out.truncate(r.written);
            (r.status, r.read, out)
        }
    };
}
c_converter!(c_8_16, utf8_to_utf16, u8, u16);
c_converter!(c_8_32, utf8_to_utf32, u8, u32);
c_converter!(c_16_8, utf16_to_utf8, u16, u8);
c_converter!(c_32_8, utf32_to_utf8, u32, u8);

/// One call on the whole stream.
fn whole<S: Copy, T>(convert: Convert<S, T>, src: &[S], flags: u32) -> Outcome<T> {
    convert(src, flags)
}

/// The stream cut at `cuts` (increasing offsets inside it), each chunk but the last converted
/// with UTF8_MORE (if `more`) and the units a UTF8_ERR_TRUNCATED result leaves carried over to
/// the next; without `more`, the way a caller could before UTF8_MORE existed: each chunk as
/// one call, carrying over only after UTF8_ERR_TRUNCATED. At most `max_carry` units are
/// carried over with UTF8_MORE (what its documentation promises).
fn chunked<S: Copy, T>(
    convert: Convert<S, T>,
    src: &[S],
    cuts: &[usize],
    flags: u32,
    more: bool,
    max_carry: usize,
) -> Outcome<T> {
    let mut out = Vec::new();
    let mut carry: Vec<S> = Vec::new();
    // The offset in the stream of the first unit of `carry`.
    let mut base = 0;
    let ends = cuts.iter().copied().chain([src.len()]);
    let mut from = 0;
    for end in ends {
        let last = end == src.len();
        let mut buf = std::mem::take(&mut carry);
        buf.extend_from_slice(&src[from..end]);
        from = end;
        let flags = if more && !last {
            flags | UTF8_MORE
        } else {
            flags
        };
        let (status, read, written) = convert(&buf, flags);
        out.extend(written);
        if status == UTF8_ERR_TRUNCATED && !last {
            if more {
                assert!(
                    buf.len() - read <= max_carry,
                    "carried {} units",
                    buf.len() - read
                );
            }
            carry = buf[read..].to_vec();
            base += read;
            continue;
        }
        if status != UTF8_OK {
            return (status, base + read, out);
        }
        assert_eq!(read, buf.len());
        base += read;
    }
    (UTF8_OK, base, out)
}

/// The property for one input and one set of flags (UTF8_MORE excluded): split at every
/// position, with UTF8_MORE, the chunks give what one call gives; and so do the chunks
/// converted the old way where that can work: without UTF8_REPLACE (which replaces a sequence
/// cut by the end of a chunk, that end being the end of the stream for it), and unless the
/// first chunk ends with what UTF8_WTF8 converts as a lone surrogate though the next input
/// could pair it (`pairs_at(cut)`): the case that no converter could get right without knowing
/// that more input follows.
fn check_splits<S: Copy + std::fmt::Debug, T: PartialEq + std::fmt::Debug>(
    convert: Convert<S, T>,
    src: &[S],
    flags: u32,
    max_carry: usize,
    pairs_at: impl Fn(usize) -> bool,
) {
    let want = whole(convert, src, flags);
    for cut in 0..=src.len() {
        let got = chunked(convert, src, &[cut], flags, true, max_carry);
        assert_eq!(
            got, want,
            "{src:02X?} cut at {cut}, flags {flags} | UTF8_MORE"
        );
        if flags & UTF8_REPLACE == 0 && !(flags & UTF8_WTF8 != 0 && pairs_at(cut)) {
            let got = chunked(convert, src, &[cut], flags, false, usize::MAX);
            assert_eq!(
                got, want,
                "{src:02X?} cut at {cut}, flags {flags}, the old way"
            );
        }
    }
}

/// Whether UTF-8 `s` cut at `cut` ends with a lead surrogate's three bytes (ED A0..AF 80..BF).
fn lead_surrogate_before(s: &[u8], cut: usize) -> bool {
    cut >= 3 && matches!(s[cut - 3..cut], [0xED, 0xA0..=0xAF, 0x80..=0xBF])
}

/// Whether UTF-16 `s` cut at `cut` ends with a high surrogate.
fn high_surrogate_before(s: &[u16], cut: usize) -> bool {
    cut >= 1 && (0xD800..=0xDBFF).contains(&s[cut - 1])
}

/// The flags of the converters from UTF-8 (UTF8_WTF8 for UTF-16 only), UTF8_MORE apart.
const FLAGS_16: [u32; 4] = [0, UTF8_REPLACE, UTF8_WTF8, UTF8_REPLACE | UTF8_WTF8];
const FLAGS_32: [u32; 2] = [0, UTF8_REPLACE];

fn check_utf8(s: &[u8]) {
    for flags in FLAGS_16 {
        let max = if flags & UTF8_WTF8 != 0 { 5 } else { 3 };
        check_splits(c_8_16, s, flags, max, |cut| lead_surrogate_before(s, cut));
    }
    for flags in FLAGS_32 {
        check_splits(c_8_32, s, flags, 3, |_| false);
    }
}

fn check_utf16(s: &[u16]) {
    for flags in FLAGS_16 {
        check_splits(c_16_8, s, flags, 1, |cut| high_surrogate_before(s, cut));
    }
}

fn check_utf32(s: &[u32]) {
    for flags in FLAGS_32 {
        check_splits(c_32_8, s, flags, 0, |_| false);
    }
}

/// Bytes where UTF-8 and WTF-8 decisions change: ASCII, the edges of the continuation
/// ranges, and lead bytes of each width, around ED (surrogates) and F4 (U+10FFFF).
const INTERESTING: [u8; 20] = [
    0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xAF, 0xB0, 0xBF, 0xC2, 0xDF, 0xE0, 0xED, 0xEF,
    0xF0, 0xF4, 0xF5, 0xFF,
];

#[test]
#[cfg_attr(miri, ignore = "millions of conversions: too slow to interpret")]
fn every_input_of_one_and_two_bytes_and_of_three_ending_in_each_class_converts_alike_in_chunks() {
    let mut s = [0u8; 3];
    for len in 1..=3 {
        for n in (0..1u32 << (8 * len)).step_by(common::sweep_step()) {
            for (i, b) in s[..len].iter_mut().enumerate() {
                *b = (n >> (8 * i)) as u8;
            }
            // A first byte that is a character or an error of its own (ASCII; 80..BF, C0, C1
            // and F5..FF, which no byte can continue) is followed by a 2-byte input, all of
            // which were checked: a few such bytes stand for the others there. A third byte
            // decides only by its class, which one byte of INTERESTING stands for (the
            // character it completes is compared whole, as every other): 3-byte inputs end in
            // one of those, a thirteenth of them.
            let alone = s[0] < 0xC2 || s[0] > 0xF4;
            if len == 3
                && (alone && ![0x00, 0x41, 0x7F, 0x80, 0xBF, 0xC0, 0xF5, 0xFF].contains(&s[0])
                    || !INTERESTING.contains(&s[2]))
            {
                continue;
            }
            check_utf8(&s[..len]);
        }
    }
}

#[test]
#[cfg_attr(miri, ignore = "millions of conversions: too slow to interpret")]
fn structured_inputs_of_four_to_six_bytes_convert_alike_in_chunks() {
    let n = INTERESTING.len();
    // Every 4-byte input of the interesting bytes; of 5 and 6 bytes, those that start with a
    // lead surrogate (the only characters that decide on more than 4 bytes, in WTF-8), or end
    // with one and the start of a trail surrogate.
    for len in 4..=6 {
        let starts: &[&[u8]] = if len == 4 {
            &[&[]]
        } else {
            &[&[0xED, 0xA0, 0x80], &[0xED, 0xAF, 0xBF]]
        };
        for start in starts {
            let free = len - start.len();
            for mut k in (0..n.pow(free as u32)).step_by(common::sweep_step()) {
                let mut s = start.to_vec();
                s.extend((0..free).map(|_| {
                    let b = INTERESTING[k % n];
                    k /= n;
                    b
                }));
                check_utf8(&s);
            }
        }
    }
    for before in [&b""[..], b"A", b"\xC2\xA9", b"\xE1\x80", b"\xF0\x90\x80"] {
        for lead in [&b"\xED\xA0\x80"[..], b"\xED\xAF\xBF", b"\xED\xB0\x80"] {
            for after in [
                &b""[..],
                b"\xED",
                b"\xED\xB0",
                b"\xED\xBF\xBF",
                b"\xED\xA0",
                b"\xED\x9F\xBF",
                b"\xED\xED",
                b"A",
                b"\xF0\x9F\x92\xA9",
            ] {
                check_utf8(&[before, lead, after].concat());
            }
        }
    }
}

/// UTF-16 units where the converters' decisions change.
const UNITS_16: [u16; 13] = [
    0x0000, 0x0041, 0x007F, 0x0080, 0x07FF, 0x0800, 0xD7FF, 0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xE000,
    0xFFFF,
];

/// UTF-32 values where the converters' decisions change.
const UNITS_32: [u32; 12] = [
    0x0,
    0x41,
    0x80,
    0x7FF,
    0x800,
    0xD800,
    0xDFFF,
    0xFFFF,
    0x1_0000,
    0x10_FFFF,
    0x11_0000,
    0xFFFF_FFFF,
];

#[test]
#[cfg_attr(miri, ignore = "many conversions: too slow to interpret")]
fn utf16_and_utf32_inputs_of_interesting_units_convert_alike_in_chunks() {
    for len in 1..=4u32 {
        for mut k in 0..UNITS_16.len().pow(len) {
            let s: Vec<u16> = (0..len)
                .map(|_| {
                    let u = UNITS_16[k % UNITS_16.len()];
                    k /= UNITS_16.len();
                    u
                })
                .collect();
            check_utf16(&s);
        }
    }
    for len in 1..=3u32 {
        for mut k in 0..UNITS_32.len().pow(len) {
            let s: Vec<u32> = (0..len)
                .map(|_| {
                    let u = UNITS_32[k % UNITS_32.len()];
                    k /= UNITS_32.len();
                    u
                })
                .collect();
            check_utf32(&s);
        }
    }
}

/// Random WTF-8-ish text: characters of every width, lone surrogates (lead and trail), pairs
/// in 3-byte halves, then a few random mutations.
fn random_utf8(rng: &mut Rng, chars: usize) -> Vec<u8> {
    let mut s = Vec::new();
    for _ in 0..chars {
        match rng.below(8) {
            0 => {
                let unit = 0xD800 + rng.below(0x800) as u32;
                s.extend([
                    0xE0 | (unit >> 12) as u8,
                    0x80 | ((unit >> 6) & 0x3F) as u8,
                    0x80 | (unit & 0x3F) as u8,
                ]);
            }
            1 => s.extend([0xED, 0xA0 + rng.below(16) as u8, 0x80 + rng.below(64) as u8]),
            _ => s.extend(rng.scalar().to_string().bytes()),
        }
    }
    if rng.below(2) == 0 {
        rng.mutate(&mut s);
    }
    s
}

/// Random UTF-16 with lone surrogates and pairs.
fn random_utf16(rng: &mut Rng, len: usize) -> Vec<u16> {
    (0..len)
        .map(|_| match rng.below(4) {
            0 => 0xD800 + rng.below(0x800) as u16,
            1 => rng.below(0x80) as u16,
            _ => rng.next() as u16,
        })
        .collect()
}

/// Random cuts of `len` units into chunks of 0 to `max` units (empty ones included).
fn random_cuts(rng: &mut Rng, len: usize, max: usize) -> Vec<usize> {
    let mut cuts = Vec::new();
    let mut at = 0;
    loop {
        at += rng.below(max + 1);
        if at >= len {
            return cuts;
        }
        cuts.push(at);
    }
}

#[test]
fn random_inputs_convert_alike_in_chunks() {
    let mut rng = Rng::new(47);
    for _ in 0..iterations(3000) {
        let chars = rng.below(or_under_miri(90, 12));
        let s = random_utf8(&mut rng, chars);
        check_utf8(&s);
        let s16 = random_utf16(&mut rng, chars);
        check_utf16(&s16);
        let s32: Vec<u32> = (0..chars)
            .map(|_| UNITS_32[rng.below(UNITS_32.len())].wrapping_add(rng.below(2) as u32))
            .collect();
        check_utf32(&s32);
        // Many chunks at once, of a few units (one at a time included) or up to 100.
        for max in [1, 5, 100] {
            let cuts = random_cuts(&mut rng, s.len(), max);
            for flags in FLAGS_16 {
                let want = whole(c_8_16, &s, flags);
                assert_eq!(
                    chunked(c_8_16, &s, &cuts, flags, true, 5),
                    want,
                    "{s:02X?} {cuts:?}"
                );
            }
            for flags in FLAGS_32 {
                let want = whole(c_8_32, &s, flags);
                assert_eq!(
                    chunked(c_8_32, &s, &cuts, flags, true, 3),
                    want,
                    "{s:02X?} {cuts:?}"
                );
            }
            let cuts = random_cuts(&mut rng, s16.len(), max);
            for flags in FLAGS_16 {
                let want = whole(c_16_8, &s16, flags);
                let got = chunked(c_16_8, &s16, &cuts, flags, true, 1);
                assert_eq!(got, want, "{s16:04X?} {cuts:?}");
            }
        }
    }
}

/// Every implementation this CPU has, through the Rust API and a long input (the SIMD paths
/// run on blocks of 64 bytes and more), in chunks with `Mode::more`.
#[test]
fn every_implementation_converts_alike_in_chunks() {
    let mut rng = Rng::new(4747);
    for _ in 0..iterations(60) {
        let chars = 40 + rng.below(400);
        let s = random_utf8(&mut rng, chars);
        let cuts = random_cuts(&mut rng, s.len(), 150);
        for isa in Isa::ALL.into_iter().filter(|isa| isa.is_supported()) {
            for (replace, wtf8) in [(false, false), (true, false), (false, true), (true, true)] {
                let mode = |more| Mode {
                    replace,
                    wtf8,
                    more,
                    replacement: Replacement::Fffd,
                };
                let convert = |src: &[u8], more: bool| {
                    let mut out = vec![0u16; src.len() + 1];
                    let p = isa.utf8_to_utf16(src, &mut out, mode(more)).unwrap();
                    out.truncate(p.written);
                    (p, out)
                };
                let (want, want_out) = convert(&s, false);
                let (mut out, mut carry, mut base, mut from) = (Vec::new(), Vec::new(), 0, 0);
                let mut got = None;
                for end in cuts.iter().copied().chain([s.len()]) {
                    let last = end == s.len();
                    let mut buf = std::mem::take(&mut carry);
                    buf.extend_from_slice(&s[from..end]);
                    from = end;
                    let (p, o) = convert(&buf, !last);
                    out.extend(o);
                    match p.stop {
                        Some(Stop::Malformed(utf8::ErrorKind::Truncated)) if !last => {
                            carry = buf[p.read..].to_vec();
                            base += p.read;
                        }
                        None => base += p.read,
                        Some(stop) => {
                            got = Some((base + p.read, Some(stop)));
                            break;
                        }
                    }
                }
                let got = got.unwrap_or((base, None));
                let Progress { read, stop, .. } = want;
                assert_eq!(
                    got,
                    (read, stop),
                    "{} {:?} {s:02X?} {cuts:?}",
                    isa.name(),
                    mode(true)
                );
                assert_eq!(out, want_out, "{} {:?}", isa.name(), mode(true));
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Explicit cases

/// UTF-16 units of a string.
fn u16s(s: &str) -> Vec<u16> {
    s.encode_utf16().collect()
}

#[test]
fn wtf8_refuses_a_surrogate_pair_in_3_byte_halves_in_chunks_too() {
    // The WTF-8 specification: a lead surrogate directly followed by a trail surrogate (a
    // "surrogate pair byte sequence") is not well-formed WTF-8; U+10000 is F0 90 80 80.
    let pair = b"\xED\xA0\x80\xED\xB0\x80";
    assert_eq!(c_8_16(pair, UTF8_WTF8), (UTF8_ERR_SURROGATE, 0, vec![]));
    assert_eq!(
        c_8_16(b"\xF0\x90\x80\x80", UTF8_WTF8),
        (UTF8_OK, 4, vec![0xD800, 0xDC00])
    );
    // A lone lead surrogate, and a lone trail one, are well-formed WTF-8: the code point.
    assert_eq!(
        c_8_16(b"\xED\xA0\x80", UTF8_WTF8),
        (UTF8_OK, 3, vec![0xD800])
    );
    assert_eq!(
        c_8_16(b"\xED\xB0\x80", UTF8_WTF8),
        (UTF8_OK, 3, vec![0xDC00])
    );
    // The chunks: the first 5 bytes stop at the lead surrogate, nothing written, so
    // that the carry-over (all 5 bytes) and the last byte are refused as one call refuses.
    for flags in [UTF8_WTF8, UTF8_WTF8 | UTF8_MORE] {
        assert_eq!(c_8_16(&pair[..5], flags), (UTF8_ERR_TRUNCATED, 0, vec![]));
        assert_eq!(c_8_16(&pair[..4], flags), (UTF8_ERR_TRUNCATED, 0, vec![]));
    }
    // 3 + 3: with UTF8_MORE the lead surrogate waits for what follows it.
    assert_eq!(
        c_8_16(&pair[..3], UTF8_WTF8 | UTF8_MORE),
        (UTF8_ERR_TRUNCATED, 0, vec![])
    );
    assert_eq!(
        c_8_16(b"A\xED\xA0\x80", UTF8_WTF8 | UTF8_MORE | UTF8_REPLACE),
        (UTF8_ERR_TRUNCATED, 1, vec![0x41])
    );
    // What follows it is no trail surrogate: the lead surrogate alone (then an error).
    assert_eq!(
        c_8_16(b"\xED\xA0\x80\xED\xED\xA0\x80", UTF8_WTF8 | UTF8_MORE),
        (UTF8_ERR_MISSING_CONTINUATION, 3, vec![0xD800])
    );
    assert_eq!(
        c_8_16(b"\xED\xA0\x80\xED\x9F", UTF8_WTF8 | UTF8_MORE),
        (UTF8_ERR_TRUNCATED, 3, vec![0xD800])
    );
    // Lossy, the end of the input being the end of the stream: the lead surrogate is a code
    // point, and ED B0 a truncated sequence, one U+FFFD (its maximal subpart).
    assert_eq!(
        c_8_16(&pair[..5], UTF8_WTF8 | UTF8_REPLACE),
        (UTF8_OK, 5, vec![0xD800, 0xFFFD])
    );
    assert_eq!(
        c_8_16(&pair[..5], UTF8_WTF8 | UTF8_REPLACE | UTF8_MORE),
        (UTF8_ERR_TRUNCATED, 0, vec![])
    );
}

#[test]
fn utf8_more_leaves_a_cut_sequence_unreplaced() {
    // U+20AC is E2 82 AC (RFC 3629 section 3's example is of the same width).
    for flags in [UTF8_MORE, UTF8_MORE | UTF8_REPLACE] {
        assert_eq!(
            c_8_16(b"A\xE2\x82", flags),
            (UTF8_ERR_TRUNCATED, 1, vec![0x41])
        );
        assert_eq!(
            c_8_32(b"A\xE2\x82", flags),
            (UTF8_ERR_TRUNCATED, 1, vec![0x41])
        );
        assert_eq!(
            c_8_32(b"A\xF0\x9F\x92", flags),
            (UTF8_ERR_TRUNCATED, 1, vec![0x41])
        );
        assert_eq!(c_8_16(b"\xE2\x82\xAC", flags), (UTF8_OK, 3, vec![0x20AC]));
        assert_eq!(c_8_16(b"", flags), (UTF8_OK, 0, vec![]));
    }
    // Without it, the end of the input is the end of the stream: E2 82 is one U+FFFD.
    assert_eq!(
        c_8_16(b"A\xE2\x82", UTF8_REPLACE),
        (UTF8_OK, 3, vec![0x41, 0xFFFD])
    );
    assert_eq!(c_8_16(b"A\xE2\x82", 0), (UTF8_ERR_TRUNCATED, 1, vec![0x41]));
    // An error before the end is reported as without the flag, even one that the end of the
    // chunk would have hidden: E1 then E1 is a missing continuation byte, E1 80 at the end cut.
    assert_eq!(
        c_8_16(b"\xE1\xE1\x80", UTF8_MORE),
        (UTF8_ERR_MISSING_CONTINUATION, 0, vec![])
    );
    assert_eq!(
        c_8_16(b"\xE1\xE1\x80", UTF8_MORE | UTF8_REPLACE),
        (UTF8_ERR_TRUNCATED, 1, vec![0xFFFD])
    );
    assert_eq!(
        c_8_32(b"\xC0\xAFA\xE2", UTF8_MORE),
        (UTF8_ERR_OVERLONG, 0, vec![])
    );
    // A full buffer is reported as without the flag.
    let mut out = [0u16; 1];
    // SAFETY: the buffers are live, of the lengths passed.
    let r = unsafe { utf8_to_utf16(b"AB\xE2".as_ptr().cast(), 3, out.as_mut_ptr(), 1, UTF8_MORE) };
    assert_eq!(
        (r.status, r.read, r.written),
        (UTF8_ERR_BUFFER_TOO_SMALL, 1, 1)
    );
}

#[test]
fn utf16_to_utf8_carries_a_high_surrogate_over_with_utf8_more() {
    // U+1F4A9 is D83D DCA9 in UTF-16 and F0 9F 92 A9 in UTF-8 (and in WTF-8).
    let pile = u16s("A\u{1F4A9}");
    assert_eq!(pile, [0x41, 0xD83D, 0xDCA9]);
    for flags in [0, UTF8_REPLACE, UTF8_WTF8, UTF8_WTF8 | UTF8_REPLACE] {
        let flags = flags | UTF8_MORE;
        assert_eq!(
            c_16_8(&pile[..2], flags),
            (UTF8_ERR_TRUNCATED, 1, b"A".to_vec())
        );
        assert_eq!(
            c_16_8(&pile[1..], flags),
            (UTF8_OK, 2, b"\xF0\x9F\x92\xA9".to_vec())
        );
        // A high surrogate before another is lone, whatever follows.
        let (status, read, _) = c_16_8(&[0xD83D, 0xD83D], flags);
        assert_eq!(
            read,
            if flags & (UTF8_REPLACE | UTF8_WTF8) == 0 {
                0
            } else {
                1
            }
        );
        let want = if read == 0 {
            UTF8_ERR_SURROGATE
        } else {
            UTF8_ERR_TRUNCATED
        };
        assert_eq!(status, want);
    }
    // Without UTF8_MORE, the end of the input ends the stream: a lone high surrogate is
    // TRUNCATED (strict), U+FFFD (UTF8_REPLACE) or ED A0 BD (UTF8_WTF8).
    assert_eq!(
        c_16_8(&pile[..2], 0),
        (UTF8_ERR_TRUNCATED, 1, b"A".to_vec())
    );
    assert_eq!(
        c_16_8(&pile[..2], UTF8_REPLACE),
        (UTF8_OK, 2, "A\u{FFFD}".into())
    );
    assert_eq!(
        c_16_8(&pile[..2], UTF8_WTF8),
        (UTF8_OK, 2, b"A\xED\xA0\xBD".to_vec())
    );
    // UTF-32 has nothing to carry over: the flag changes nothing.
    for flags in [0, UTF8_REPLACE] {
        for s in [&[0x41, 0x1F4A9][..], &[0xD83D], &[0x11_0000, 0x41]] {
            assert_eq!(c_32_8(s, flags | UTF8_MORE), c_32_8(s, flags));
        }
    }
}
