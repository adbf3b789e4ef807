//! libutf8 against peers that share no code with it (issue 45): simdutf for Latin-1, UTF-16 in
//! either byte order and the detection of encodings and byte-order marks; encoding_rs, the
//! WHATWG Encoding Standard's implementation in Firefox, for Windows-1252. `make check-peers`
//! runs them, a stage of `make check-full` (the peers come from crates.io, so not of the offline
//! `make check`; docs/TESTING.md).
//!
//! libutf8 is called through its C functions (`utf8::ffi`), as a C program calls them, with the
//! implementation the library picks on this machine; the peers with theirs. The sweeps are
//! exhaustive where that is cheap (every input of 1 and 2 bytes) and sampled elsewhere, so that
//! the stage, its compilation included, costs CI about a minute of CPU.
//!
//! Where libutf8's documented rules and a peer's differ, only what both define is compared, and
//! the difference is stated where it is handled (see `check_detection`).

use std::ffi::c_char;
use std::path::PathBuf;

use encoding_rs::WINDOWS_1252;
use simdutf::ErrorCode;
use utf8::ffi::{self, utf8_result, utf8_status};

// ---------------------------------------------------------------------------------------------
// Inputs

use testkit::Rng;

/// Lengths around the widths of the SIMD blocks (16, 32, 64 and 128 bytes, in libutf8 and in
/// simdutf), and a few longer ones.
fn lengths() -> Vec<usize> {
    let mut n: Vec<usize> = (0..=20).collect();
    for w in [16, 32, 64, 128, 192, 256] {
        n.extend(w - 3..=w + 3);
    }
    n.extend([500, 1000, 4099]);
    n.sort_unstable();
    n.dedup();
    n
}

/// Bytes of which most are ASCII: runs of them keep the SIMD paths busy, and the others fall
/// at random offsets of the blocks.
fn mostly_ascii(rng: &mut Rng, n: usize, per_256: usize) -> Vec<u8> {
    (0..n)
        .map(|_| {
            if rng.below(256) < per_256 {
                0x80 | rng.next() as u8
            } else {
                rng.next() as u8 & 0x7F
            }
        })
        .collect()
}

/// The corpus files (`LIBUTF8_CORPUS`, or ../shared/corpus beside the clone), or none, said on
/// standard error, if it is absent.
fn corpus() -> Vec<(String, Vec<u8>)> {
    let dir = std::env::var_os("LIBUTF8_CORPUS").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus"),
        PathBuf::from,
    );
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!(
            "peers: no corpus at {} (set LIBUTF8_CORPUS): its comparisons are skipped",
            dir.display()
        );
        return Vec::new();
    };
    let mut files: Vec<(String, Vec<u8>)> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".utf8.txt"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            let bytes = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            (name, bytes)
        })
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no *.utf8.txt in {}", dir.display());
    files
}

/// A corpus text with every character above U+00FF removed, in Latin-1 (one byte per
/// character), as bench/src/encodings.rs makes the Latin-1 inputs.
fn latin1_of(text: &[u8]) -> Vec<u8> {
    String::from_utf8_lossy(text)
        .chars()
        .filter(|&c| u32::from(c) <= 0xFF)
        .map(|c| c as u8)
        .collect()
}

// ---------------------------------------------------------------------------------------------
// libutf8, through its C functions

/// An input in a failure's message: its first bytes and its length.
struct Shown<'a>(&'a [u8]);

impl std::fmt::Debug for Shown<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s = self.0;
        write!(f, "{:02X?}", &s[..s.len().min(32)])?;
        if s.len() > 32 {
            write!(f, "... ({} bytes)", s.len())?;
        }
        Ok(())
    }
}

/// Asserts that libutf8's output equals the peer's, naming the first unit where they differ.
fn same<T: PartialEq + std::fmt::Debug>(ours: &[T], theirs: &[T], what: std::fmt::Arguments) {
    if ours != theirs {
        let at = ours.iter().zip(theirs).take_while(|(a, b)| a == b).count();
        let window = |v: &[T]| format!("{:02X?}", &v[at..v.len().min(at + 8)]);
        panic!(
            "{what}: libutf8 wrote {} units, the peer {}; first difference at {at}: {} against {}",
            ours.len(),
            theirs.len(),
            window(ours),
            window(theirs)
        );
    }
}

fn ptr(s: &[u8]) -> *const c_char {
    s.as_ptr().cast()
}

/// A byte converter of libutf8 into an output of `cap` bytes: its result and the bytes written.
fn convert_bytes(
    f: unsafe extern "C" fn(*const c_char, usize, *mut c_char, usize, u32) -> utf8_result,
    s: &[u8],
    cap: usize,
    flags: u32,
) -> (utf8_result, Vec<u8>) {
    let shown = Shown(s);
    let mut out = vec![0u8; cap];
    // SAFETY: `s` is readable for its length, `out` writable for `cap` bytes, and they are two
    // allocations.
    let r = unsafe { f(ptr(s), s.len(), out.as_mut_ptr().cast(), cap, flags) };
    assert!(r.written <= cap && r.read <= s.len(), "{r:?} on {shown:?}");
    out.truncate(r.written);
    (r, out)
}

/// libutf8's `utf8_to_utf16` of `s` with `flags`: the result and the units, each as read from
/// memory in the machine's order.
fn ours_to_utf16(s: &[u8], flags: u32) -> (utf8_result, Vec<u16>) {
    let shown = Shown(s);
    // One unit per byte at most, whatever the strategy.
    let cap = s.len();
    let mut out = vec![0u16; cap];
    // SAFETY: as in `convert_bytes`, `out` holding `cap` units.
    let r = unsafe { ffi::utf8_to_utf16(ptr(s), s.len(), out.as_mut_ptr(), cap, flags) };
    assert!(r.written <= cap && r.read <= s.len(), "{r:?} on {shown:?}");
    out.truncate(r.written);
    (r, out)
}

// ---------------------------------------------------------------------------------------------
// Latin-1 against simdutf

/// `latin1_to_utf8` and `utf8_length_from_latin1` against simdutf's `convert_latin1_to_utf8`
/// and `utf8_length_from_latin1`, then the output back through `check_utf8_to_latin1`.
fn check_latin1(s: &[u8]) {
    let shown = Shown(s);
    let (r, ours) = convert_bytes(ffi::latin1_to_utf8, s, 2 * s.len(), 0);
    assert_eq!(r.status, utf8_status::UTF8_OK, "{shown:?}");
    assert_eq!(r.read, s.len());
    let mut theirs = vec![0u8; 2 * s.len()];
    // SAFETY: simdutf writes at most two bytes per Latin-1 byte; the pointers are non-null
    // (a Vec's, dangling but aligned when empty).
    let n = unsafe { simdutf::convert_latin1_to_utf8(s.as_ptr(), s.len(), theirs.as_mut_ptr()) };
    theirs.truncate(n);
    same(&ours, &theirs, format_args!("latin1_to_utf8 of {shown:?}"));
    // SAFETY: `s` is readable for its length.
    let length = unsafe { ffi::utf8_length_from_latin1(ptr(s), s.len()) };
    assert_eq!(length, simdutf::utf8_length_from_latin1(s), "{shown:?}");
    check_utf8_to_latin1(&ours);
}

/// Strict `utf8_to_latin1` against simdutf's validating `convert_utf8_to_latin1_with_errors`:
/// the same inputs accepted, the same bytes written, the same offset of the first error (the
/// start of the character above U+00FF or of the ill-formed sequence); and, on well-formed
/// input, where simdutf defines it, `latin1_length_from_utf8` against its
/// `latin1_length_from_utf8`.
fn check_utf8_to_latin1(s: &[u8]) {
    let shown = Shown(s);
    let (r, ours) = convert_bytes(ffi::utf8_to_latin1, s, s.len(), 0);
    let mut theirs = vec![0u8; s.len()];
    // SAFETY: at most one byte per input byte; non-null pointers as above.
    let t = unsafe {
        simdutf::convert_utf8_to_latin1_with_errors(s.as_ptr(), s.len(), theirs.as_mut_ptr())
    };
    let accepted = r.status == utf8_status::UTF8_OK;
    assert_eq!(
        accepted,
        t.error == ErrorCode::Success,
        "utf8_to_latin1 of {shown:?}: ours {r:?}, simdutf {t:?}"
    );
    if accepted {
        assert_eq!(r.read, s.len());
        theirs.truncate(t.count);
        same(&ours, &theirs, format_args!("utf8_to_latin1 of {shown:?}"));
    } else {
        assert_eq!(
            r.read, t.count,
            "error offset, {shown:?}: ours {r:?}, simdutf {t:?}"
        );
        // What simdutf wrote before its error is not specified: libutf8's output is compared
        // with simdutf's conversion of the prefix before the error, which is well-formed.
        let prefix = &s[..r.read];
        // SAFETY: as above, for the prefix.
        let n = unsafe {
            simdutf::convert_utf8_to_latin1(prefix.as_ptr(), prefix.len(), theirs.as_mut_ptr())
        };
        assert_eq!(
            n == 0,
            prefix.is_empty(),
            "simdutf refused the prefix of {shown:?}"
        );
        same(
            &ours,
            &theirs[..n],
            format_args!("utf8_to_latin1 of {shown:?} before its error"),
        );
    }
    if std::str::from_utf8(s).is_ok() {
        // SAFETY: `s` is readable for its length.
        let length = unsafe { ffi::latin1_length_from_utf8(ptr(s), s.len()) };
        assert_eq!(length, simdutf::latin1_length_from_utf8(s), "{shown:?}");
    }
}

#[test]
fn latin1_every_input_of_one_and_two_bytes() {
    check_latin1(b"");
    check_utf8_to_latin1(b"");
    for a in 0..=255u8 {
        check_latin1(&[a]);
        check_utf8_to_latin1(&[a]);
        for b in 0..=255u8 {
            check_latin1(&[a, b]);
            check_utf8_to_latin1(&[a, b]);
        }
    }
}

#[test]
fn utf8_to_latin1_a_sample_of_three_bytes() {
    // Every 3-byte input whose first byte is one of those where UTF-8's rules change (the
    // leads of each width and their edges, and a byte from every other class), and a random
    // sample of the rest.
    let firsts = [
        0x00, 0x41, 0x7F, 0x80, 0xBF, 0xC0, 0xC1, 0xC2, 0xC3, 0xC4, 0xDF, 0xE0, 0xE1, 0xED, 0xEF,
        0xF0, 0xF4, 0xF5, 0xFF,
    ];
    for a in firsts {
        for b in 0..=255u8 {
            for c in 0..=255u8 {
                check_utf8_to_latin1(&[a, b, c]);
            }
        }
    }
    let mut rng = Rng::new(3);
    for _ in 0..100_000 {
        check_utf8_to_latin1(&[rng.next() as u8, rng.next() as u8, rng.next() as u8]);
    }
}

#[test]
fn latin1_random_inputs_around_the_blocks() {
    let mut rng = Rng::new(1);
    for n in lengths() {
        for per_256 in [0, 4, 64, 256] {
            for _ in 0..8 {
                check_latin1(&mostly_ascii(&mut rng, n, per_256));
            }
        }
        // Text with a character above U+00FF, or an ill-formed sequence, at a random offset:
        // what strict utf8_to_latin1 refuses.
        for _ in 0..16 {
            let latin1 = mostly_ascii(&mut rng, n, 16);
            let at = rng.below(latin1.len() + 1);
            let insert: Vec<u8> = match rng.below(3) {
                0 => rng.scalar().to_string().into_bytes(),
                1 => vec![0x80 | rng.next() as u8],
                _ => {
                    let mut c = rng.scalar().to_string().into_bytes();
                    c.pop();
                    c
                }
            };
            let mut text = Vec::new();
            for (i, &b) in latin1.iter().enumerate() {
                if i == at {
                    text.extend_from_slice(&insert);
                }
                text.extend_from_slice((b as char).to_string().as_bytes());
            }
            if at == latin1.len() {
                text.extend_from_slice(&insert);
            }
            check_utf8_to_latin1(&text);
        }
    }
}

#[test]
fn latin1_the_corpus() {
    for (name, text) in corpus() {
        let latin1 = latin1_of(&text);
        eprintln!("peers: {name}: {} bytes of Latin-1", latin1.len());
        check_latin1(&latin1);
        check_cp1252(&latin1);
        // The file itself: refused at its first character above U+00FF, if it has one.
        check_utf8_to_latin1(&text);
    }
}

// ---------------------------------------------------------------------------------------------
// Windows-1252 against encoding_rs

/// encoding_rs's WHATWG windows-1252 decoder (0x81, 0x8D, 0x8F, 0x90, 0x9D the C1 controls).
fn whatwg_1252(s: &[u8]) -> String {
    let shown = Shown(s);
    let (text, had_errors) = WINDOWS_1252.decode_without_bom_handling(s);
    assert!(
        !had_errors,
        "encoding_rs: an error in windows-1252 {shown:?}"
    );
    text.into_owned()
}

/// `cp1252_to_utf8` and `utf8_length_from_cp1252` against encoding_rs.
fn check_cp1252(s: &[u8]) {
    let shown = Shown(s);
    // SAFETY: `s` is readable for its length.
    let length = unsafe { ffi::utf8_length_from_cp1252(ptr(s), s.len()) };
    let (r, ours) = convert_bytes(ffi::cp1252_to_utf8, s, length, 0);
    assert_eq!(r.status, utf8_status::UTF8_OK, "{shown:?}");
    assert_eq!((r.read, r.written), (s.len(), length));
    same(
        &ours,
        &whatwg_1252(s).into_bytes(),
        format_args!("cp1252_to_utf8 of {shown:?}"),
    );
}

/// With UTF8_FALLBACK_CP1252, what `utf8_replace_invalid_flags`, `utf8_to_utf16` and
/// `utf8_to_utf32` (and their `_flags` lengths) make of `s`: its well-formed parts as they
/// are, and each byte of an ill-formed sequence (as `str::Utf8Chunks` cuts them) as encoding_rs
/// decodes it in windows-1252.
fn check_fallback_cp1252(s: &[u8]) {
    let shown = Shown(s);
    let flags = ffi::UTF8_FALLBACK_CP1252;
    let mut want = String::new();
    for chunk in s.utf8_chunks() {
        want.push_str(chunk.valid());
        want.push_str(&whatwg_1252(chunk.invalid()));
    }
    let mut out = vec![0u8; 3 * s.len()];
    let mut out_len = usize::MAX;
    // SAFETY: `s` is readable for its length, `out` writable for its own, `out_len` writable.
    let status = unsafe {
        ffi::utf8_replace_invalid_flags(
            ptr(s),
            s.len(),
            out.as_mut_ptr().cast(),
            out.len(),
            flags,
            &mut out_len,
        )
    };
    assert_eq!(status, utf8_status::UTF8_OK, "{shown:?}");
    same(
        &out[..out_len],
        want.as_bytes(),
        format_args!("lossy copy of {shown:?}"),
    );

    let want16: Vec<u16> = want.encode_utf16().collect();
    let (r, units) = ours_to_utf16(s, flags);
    assert_eq!(r.status, utf8_status::UTF8_OK, "{shown:?}");
    same(&units, &want16, format_args!("utf8_to_utf16 of {shown:?}"));
    // SAFETY: `s` is readable for its length.
    let n16 = unsafe { ffi::utf16_length_from_utf8_flags(ptr(s), s.len(), flags) };
    assert_eq!(n16, want16.len());

    let want32: Vec<u32> = want.chars().map(u32::from).collect();
    let mut out32 = vec![0u32; s.len()];
    // SAFETY: as above, `out32` holding `s.len()` units, one per byte at most.
    let r = unsafe { ffi::utf8_to_utf32(ptr(s), s.len(), out32.as_mut_ptr(), out32.len(), flags) };
    assert_eq!(r.status, utf8_status::UTF8_OK, "{shown:?}");
    same(
        &out32[..r.written],
        &want32[..],
        format_args!("utf8_to_utf32 of {shown:?}"),
    );
    // SAFETY: `s` is readable for its length.
    let n32 = unsafe { ffi::utf32_length_from_utf8_flags(ptr(s), s.len(), flags) };
    assert_eq!(n32, want32.len());
}

#[test]
fn cp1252_every_input_of_one_and_two_bytes() {
    check_cp1252(b"");
    check_fallback_cp1252(b"");
    for a in 0..=255u8 {
        check_cp1252(&[a]);
        check_fallback_cp1252(&[a]);
        for b in 0..=255u8 {
            check_cp1252(&[a, b]);
            check_fallback_cp1252(&[a, b]);
        }
    }
}

#[test]
fn cp1252_random_inputs() {
    let mut rng = Rng::new(2);
    for n in lengths() {
        for per_256 in [0, 8, 128, 256] {
            for _ in 0..4 {
                let s = mostly_ascii(&mut rng, n, per_256);
                check_cp1252(&s);
                check_fallback_cp1252(&s);
            }
        }
        // Well-formed text with bytes broken here and there: the fallback's errors among
        // characters of every width.
        for _ in 0..8 {
            let mut s = Vec::new();
            while s.len() < n {
                s.extend_from_slice(rng.scalar().to_string().as_bytes());
            }
            s.truncate(n);
            for _ in 0..=rng.below(3) {
                if !s.is_empty() {
                    let i = rng.below(s.len());
                    s[i] = rng.next() as u8;
                }
            }
            check_fallback_cp1252(&s);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Detection against simdutf

const UTF8: u32 = 1;
const UTF16LE: u32 = 2;
const UTF16BE: u32 = 4;
const UTF32LE: u32 = 8;
const UTF32BE: u32 = 16;

// simdutf's byte-order-mark functions, which the simdutf crate does not bind: C++ functions of
// C-compatible signatures (pointer and size in, an `encoding_type`, a C++ enum of `int` size,
// out), linked by their Itanium C++ ABI names from the crate's own static library.
unsafe extern "C" {
    /// `simdutf::BOM::check_bom(const uint8_t *, size_t)`.
    #[link_name = "_ZN7simdutf3BOM9check_bomEPKhm"]
    fn simdutf_check_bom(s: *const u8, len: usize) -> u32;
    /// `simdutf::BOM::bom_byte_size(encoding_type)`.
    #[link_name = "_ZN7simdutf3BOM13bom_byte_sizeENS_13encoding_typeE"]
    fn simdutf_bom_byte_size(bom: u32) -> usize;
}

/// `utf8_detect_encodings` and `utf8_detect_bom` of `s` against simdutf:
/// - each bit of `utf8_detect_encodings` against simdutf's validator of that encoding
///   (`validate_utf8`, `validate_utf16le`, `validate_utf16be`, `validate_utf32` of the units
///   read in either order), where the length allows it;
/// - `utf8_detect_bom` and its length against `simdutf::BOM::check_bom` and `bom_byte_size`;
/// - simdutf's `detect_encodings` (the crate's `autodetect_encodings`) against both. It differs
///   from `utf8_detect_encodings` by its documented rules, which libutf8's do not follow:
///   where the input starts with a byte-order mark, it returns that mark's encoding alone,
///   whatever follows; and it never sets the big-endian bits otherwise. So it must be the mark
///   where there is one, and the little-endian and UTF-8 bits of `utf8_detect_encodings`
///   elsewhere.
fn check_detection(s: &[u8]) {
    let shown = Shown(s);
    // SAFETY: `s` is readable for its length.
    let ours = unsafe { ffi::utf8_detect_encodings(ptr(s), s.len()) };
    let mut bom_len = usize::MAX;
    // SAFETY: as above; `bom_len` is writable.
    let bom = unsafe { ffi::utf8_detect_bom(ptr(s), s.len(), &mut bom_len) } as u32;

    let mut want = 0;
    if simdutf::validate_utf8(s) {
        want |= UTF8;
    }
    if s.len().is_multiple_of(2) {
        // The units as they are in memory: simdutf reads them in the order its function names.
        let units: Vec<u16> = s
            .chunks_exact(2)
            .map(|p| u16::from_ne_bytes([p[0], p[1]]))
            .collect();
        if simdutf::validate_utf16le(&units) {
            want |= UTF16LE;
        }
        if simdutf::validate_utf16be(&units) {
            want |= UTF16BE;
        }
    }
    if s.len().is_multiple_of(4) {
        let quad = |q: &[u8]| [q[0], q[1], q[2], q[3]];
        let le: Vec<u32> = s
            .chunks_exact(4)
            .map(|q| u32::from_le_bytes(quad(q)))
            .collect();
        let be: Vec<u32> = s
            .chunks_exact(4)
            .map(|q| u32::from_be_bytes(quad(q)))
            .collect();
        if simdutf::validate_utf32(&le) {
            want |= UTF32LE;
        }
        if simdutf::validate_utf32(&be) {
            want |= UTF32BE;
        }
    }
    assert_eq!(ours, want, "utf8_detect_encodings of {shown:?}");

    // SAFETY: `s` is readable for its length; bom_byte_size takes any encoding_type value.
    let (their_bom, their_len) = unsafe {
        let b = simdutf_check_bom(s.as_ptr(), s.len());
        (b, simdutf_bom_byte_size(b))
    };
    assert_eq!(
        (bom, bom_len),
        (their_bom, their_len),
        "utf8_detect_bom of {shown:?}"
    );

    let detected = simdutf::autodetect_encodings(s).bits();
    let expected = if bom != 0 {
        bom
    } else {
        ours & (UTF8 | UTF16LE | UTF32LE)
    };
    assert_eq!(
        detected, expected,
        "simdutf's detect_encodings of {shown:?} (ours {ours:#x})"
    );
}

/// The bytes where some encoding's rules change: ASCII and U+0000, UTF-8's classes and the
/// edges of each lead byte's second byte, UTF-16's surrogate bytes, UTF-32's plane bytes, and
/// the bytes of the byte-order marks.
const EDGES: [u8; 30] = [
    0x00, 0x01, 0x10, 0x11, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBB, 0xBF, 0xC0, 0xC2, 0xD7,
    0xD8, 0xDB, 0xDC, 0xDF, 0xE0, 0xE1, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFE, 0xFF, 0x20,
];

/// The bytes where UTF-16's and UTF-32's rules change, in either order (U+0000, the surrogates'
/// high bytes, the planes up to 0x10 and above it), with those of the byte-order marks and a
/// byte of UTF-8's every class.
const UNIT_EDGES: [u8; 14] = [
    0x00, 0x10, 0x11, 0x41, 0x80, 0xBB, 0xC2, 0xD7, 0xD8, 0xDC, 0xE0, 0xEF, 0xFE, 0xFF,
];

#[test]
fn detection_every_input_of_up_to_two_bytes() {
    check_detection(b"");
    for a in 0..=255u8 {
        check_detection(&[a]);
        for b in 0..=255u8 {
            check_detection(&[a, b]);
        }
    }
}

#[test]
fn detection_three_and_four_bytes_of_the_edges() {
    // Three bytes: only UTF-8 and its mark can apply, whose rules change at the edge bytes;
    // four: UTF-16 and UTF-32 in both orders too, and every mark, over the edges of each
    // encoding's units (a sample: every 4-byte input of all the edges would cost a minute).
    for a in EDGES {
        for b in EDGES {
            for c in EDGES {
                check_detection(&[a, b, c]);
            }
        }
    }
    for a in UNIT_EDGES {
        for b in UNIT_EDGES {
            for c in UNIT_EDGES {
                for d in UNIT_EDGES {
                    check_detection(&[a, b, c, d]);
                }
            }
        }
    }
    let mut rng = Rng::new(4);
    for _ in 0..50_000 {
        check_detection(&[rng.next() as u8, rng.next() as u8, rng.next() as u8]);
        check_detection(&[
            rng.next() as u8,
            rng.next() as u8,
            rng.next() as u8,
            rng.next() as u8,
        ]);
    }
}

/// `text` in each of the five encodings, with U+FEFF first if `mark`.
fn encoded(text: &[char], mark: bool) -> [Vec<u8>; 5] {
    let chars: Vec<char> = mark
        .then_some('\u{FEFF}')
        .into_iter()
        .chain(text.iter().copied())
        .collect();
    let s: String = chars.iter().collect();
    let u16s: Vec<u16> = s.encode_utf16().collect();
    [
        s.clone().into_bytes(),
        u16s.iter().flat_map(|u| u.to_le_bytes()).collect(),
        u16s.iter().flat_map(|u| u.to_be_bytes()).collect(),
        chars
            .iter()
            .flat_map(|&c| u32::from(c).to_le_bytes())
            .collect(),
        chars
            .iter()
            .flat_map(|&c| u32::from(c).to_be_bytes())
            .collect(),
    ]
}

#[test]
fn detection_text_of_each_encoding_with_errors() {
    let mut rng = Rng::new(5);
    for chars in [
        0, 1, 2, 3, 5, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 200, 1000,
    ] {
        for round in 0..24 {
            // ASCII for the most part, or characters of every width.
            let text: Vec<char> = (0..chars)
                .map(|_| {
                    if round % 2 == 0 && rng.below(8) != 0 {
                        'a'
                    } else {
                        rng.scalar()
                    }
                })
                .collect();
            for (which, bytes) in encoded(&text, round % 3 == 0).into_iter().enumerate() {
                check_detection(&bytes);
                if bytes.is_empty() {
                    continue;
                }
                // An error in that encoding's own terms at a random unit: a lone surrogate
                // (a byte D8..DF where UTF-16's high byte is), a value above U+10FFFF or a
                // surrogate (UTF-32's high bytes), a bad byte (UTF-8); and the text cut short.
                let mut broken = bytes.clone();
                let i = rng.below(bytes.len());
                match which {
                    0 => broken[i] = [0x80, 0xC0, 0xED, 0xF5, 0xFF][rng.below(5)],
                    1 | 2 => {
                        let high = i & !1 | usize::from(which == 1);
                        broken[high] = 0xD8 | rng.next() as u8 & 7;
                    }
                    _ => {
                        let unit = i & !3;
                        let (b2, b1) = if which == 3 {
                            (unit + 2, unit + 1)
                        } else {
                            (unit + 1, unit + 2)
                        };
                        if rng.below(2) == 0 {
                            broken[b2] = 0x11 | rng.next() as u8 & 0xEE;
                        } else {
                            broken[b2] = 0;
                            broken[b1] = 0xD8 | rng.next() as u8 & 7;
                        }
                    }
                }
                check_detection(&broken);
                check_detection(&bytes[..bytes.len() - 1]);
                check_detection(&bytes[1..]);
            }
        }
    }
    // Random bytes, of lengths around the blocks.
    for n in lengths() {
        for _ in 0..16 {
            let s: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
            check_detection(&s);
        }
    }
}

#[test]
fn detection_the_corpus() {
    for (_, text) in corpus() {
        check_detection(&text);
        check_detection(&latin1_of(&text));
        // The other encodings on the first characters of the file: many blocks of text, at
        // less cost than the whole (libutf8 is built without optimisation here).
        let chars: Vec<char> = String::from_utf8_lossy(&text).chars().take(2000).collect();
        for bytes in encoded(&chars, false) {
            check_detection(&bytes);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// UTF-16 in either byte order against simdutf

/// `utf8_to_utf16` with UTF8_UTF16LE and UTF8_UTF16BE against simdutf's validating
/// `convert_utf8_to_utf16le_with_errors` and `convert_utf8_to_utf16be_with_errors`: the same
/// inputs accepted, the same units, and where simdutf reports an error, libutf8 stops there.
fn check_utf16(s: &[u8]) {
    let shown = Shown(s);
    type Convert = unsafe fn(*const u8, usize, *mut u16) -> simdutf::Result;
    let peers: [(u32, Convert); 2] = [
        (
            ffi::UTF8_UTF16LE,
            simdutf::convert_utf8_to_utf16le_with_errors,
        ),
        (
            ffi::UTF8_UTF16BE,
            simdutf::convert_utf8_to_utf16be_with_errors,
        ),
    ];
    for (flags, convert) in peers {
        let order = if flags == ffi::UTF8_UTF16LE {
            "UTF8_UTF16LE"
        } else {
            "UTF8_UTF16BE"
        };
        let (r, ours) = ours_to_utf16(s, flags);
        let mut theirs = vec![0u16; s.len()];
        // SAFETY: at most one unit per input byte; non-null pointers as above.
        let t = unsafe { convert(s.as_ptr(), s.len(), theirs.as_mut_ptr()) };
        let accepted = r.status == utf8_status::UTF8_OK;
        assert_eq!(
            accepted,
            t.error == ErrorCode::Success,
            "{order}, {shown:?}: {r:?}, {t:?}"
        );
        if accepted {
            theirs.truncate(t.count);
            same(
                &ours,
                &theirs,
                format_args!("utf8_to_utf16 ({order}) of {shown:?}"),
            );
        } else {
            assert_eq!(
                r.read, t.count,
                "error offset ({order}), {shown:?}: {r:?}, {t:?}"
            );
            // Before the error: simdutf's conversion of the well-formed prefix.
            let prefix = &s[..r.read];
            // SAFETY: as above, for the prefix.
            let t = unsafe { convert(prefix.as_ptr(), prefix.len(), theirs.as_mut_ptr()) };
            assert_eq!(t.error, ErrorCode::Success, "the prefix of {shown:?}");
            same(
                &ours,
                &theirs[..t.count],
                format_args!("utf8_to_utf16 ({order}) of {shown:?}"),
            );
        }
    }
}

#[test]
fn utf16_both_orders() {
    check_utf16(b"");
    for a in 0..=255u8 {
        check_utf16(&[a]);
        for b in 0..=255u8 {
            check_utf16(&[a, b]);
        }
    }
    let mut rng = Rng::new(6);
    for n in lengths() {
        for _ in 0..8 {
            let mut s = Vec::new();
            while s.len() < n {
                s.extend_from_slice(rng.scalar().to_string().as_bytes());
            }
            check_utf16(&s);
            if !s.is_empty() {
                let i = rng.below(s.len());
                s[i] = rng.next() as u8;
                check_utf16(&s);
            }
        }
    }
    for (_, text) in corpus() {
        check_utf16(&text);
    }
}

/// `utf16_to_utf8` with UTF8_UTF16LE and UTF8_UTF16BE against simdutf's validating
/// `convert_utf16le_to_utf8_with_errors` and `convert_utf16be_to_utf8_with_errors`, on the
/// units as they are in memory: the same inputs accepted, the same bytes, the same offset of
/// the first lone surrogate and the same output before it.
fn check_from_utf16(units: &[u16]) {
    type Convert = unsafe fn(*const u16, usize, *mut u8) -> simdutf::Result;
    let peers: [(u32, Convert); 2] = [
        (
            ffi::UTF8_UTF16LE,
            simdutf::convert_utf16le_to_utf8_with_errors,
        ),
        (
            ffi::UTF8_UTF16BE,
            simdutf::convert_utf16be_to_utf8_with_errors,
        ),
    ];
    let shown = format!("{:04X?}", &units[..units.len().min(16)]);
    for (flags, convert) in peers {
        let order = if flags == ffi::UTF8_UTF16LE {
            "UTF8_UTF16LE"
        } else {
            "UTF8_UTF16BE"
        };
        // At most three bytes per unit.
        let cap = 3 * units.len();
        let mut ours = vec![0u8; cap];
        // SAFETY: `units` is readable for its length, `ours` writable for `cap` bytes.
        let r = unsafe {
            ffi::utf16_to_utf8(
                units.as_ptr(),
                units.len(),
                ours.as_mut_ptr().cast(),
                cap,
                flags,
            )
        };
        assert!(
            r.written <= cap && r.read <= units.len(),
            "{r:?} on {shown}"
        );
        ours.truncate(r.written);
        let mut theirs = vec![0u8; cap];
        // SAFETY: as above, for simdutf's output; non-null pointers as in `check_latin1`.
        let t = unsafe { convert(units.as_ptr(), units.len(), theirs.as_mut_ptr()) };
        let accepted = r.status == utf8_status::UTF8_OK;
        assert_eq!(
            accepted,
            t.error == ErrorCode::Success,
            "{order}, {shown}: {r:?}, {t:?}"
        );
        let upto = if accepted {
            units.len()
        } else {
            assert_eq!(
                r.read, t.count,
                "error offset ({order}), {shown}: {r:?}, {t:?}"
            );
            r.read
        };
        // SAFETY: as above, for the well-formed prefix.
        let t = unsafe { convert(units.as_ptr(), upto, theirs.as_mut_ptr()) };
        assert_eq!(t.error, ErrorCode::Success, "the prefix of {shown}");
        same(
            &ours,
            &theirs[..t.count],
            format_args!("utf16_to_utf8 ({order}) of {shown}"),
        );
    }
}

#[test]
fn from_utf16_both_orders() {
    check_from_utf16(&[]);
    for u in 0..=u16::MAX {
        check_from_utf16(&[u]);
    }
    // Pairs and triples of the units where the rules change, as read in either order.
    let edges: Vec<u16> = [
        0x0000, 0x007F, 0x0080, 0x00FF, 0x07FF, 0x0800, 0xD7FF, 0xD800, 0xDBFF, 0xDC00, 0xDFFF,
        0xE000, 0xFEFF, 0xFFFF,
    ]
    .iter()
    .flat_map(|&u: &u16| [u, u.swap_bytes()])
    .collect();
    for &a in &edges {
        for &b in &edges {
            check_from_utf16(&[a, b]);
            for &c in &edges {
                check_from_utf16(&[a, b, c]);
            }
        }
    }
    // Text of every width in either order, with and without a lone surrogate.
    let mut rng = Rng::new(7);
    for n in lengths() {
        for _ in 0..8 {
            let text: String = (0..n).map(|_| rng.scalar()).collect();
            for big in [false, true] {
                let mut units: Vec<u16> = text
                    .encode_utf16()
                    .take(n)
                    .map(|u| if big { u.to_be() } else { u.to_le() })
                    .collect();
                check_from_utf16(&units);
                if !units.is_empty() {
                    let i = rng.below(units.len());
                    let lone = 0xD800 | rng.below(0x800) as u16;
                    units[i] = if big { lone.to_be() } else { lone.to_le() };
                    check_from_utf16(&units);
                }
            }
        }
    }
    for (_, text) in corpus() {
        let units: Vec<u16> = String::from_utf8_lossy(&text).encode_utf16().collect();
        check_from_utf16(&units.iter().map(|u| u.to_le()).collect::<Vec<_>>());
        check_from_utf16(&units.iter().map(|u| u.to_be()).collect::<Vec<_>>());
    }
}
