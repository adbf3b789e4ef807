//! The Rust harness of libutf8's benchmark suite (`make bench`; see bench/README.md).
//!
//! Two commands:
//!
//! - `libutf8-bench gen DATA_DIR [CORPUS_DIR]` writes the generated inputs (pure ASCII and random
//!   mixed 1..4-byte text at 64 KiB, 1 MiB and 64 MiB; ASCII with an emoji now and then at 64
//!   KiB; pools of short strings of 16, 64, 100, 256 and 1000 bytes, and of ASCII with one other
//!   character at 300 and 1000) from a fixed seed; pools of short strings of 16 and 64 bytes cut
//!   from three corpus files ([`SNIPPET_FILES`]); for each corpus file, its *fresh text* (a pool
//!   of copies of it, its lines in a new order in each: see [`shuffled_copies`]); and
//!   `DATA_DIR/manifest.tsv`, the list of every input: those files and the corpus files. The C
//!   harness (bench/c/bench.c) reads the same manifest, so both harnesses measure the same bytes.
//! - `libutf8-bench run MANIFEST OUT_CSV` measures libutf8 (through its exported C functions) and
//!   the Rust peers on every input of the manifest, and writes one CSV row per input and
//!   implementation.
//!
//! The method is the C harness's: each implementation first runs once and its result is checked
//! (validators must accept every input; decoders must sum the same code points as `core::str`);
//! then a repetition count is calibrated so that one sample lasts at least `SAMPLE_MS`; then the
//! samples are taken round-robin over the implementations (the order rotating each round), so that
//! a noisy neighbour slows them all alike. Rows give the median, minimum and maximum time per call,
//! and, for an implementation paired with another (`encodings::paired_baseline`), the median over
//! the rounds of its time over the other's in the same round (`paired_ratio`; empty elsewhere).

// libutf8's C API, declared as a C program declares it (include/libutf8.h) and resolved by the
// linker. `extern crate` links the library in; the constants below check, at compile time, that
// each declaration has the type of the library's definition.
//
// The calls go through `opaque`: the package is built with link-time optimisation, as the library
// is (Cargo.toml), and without it LLVM could inline a libutf8 function into the measuring loop,
// which a C program calling libutf8.a or libutf8.so never gets. An indirect call through a pointer
// the optimiser cannot see costs what a direct call costs, and is never inlined.
extern crate utf8;

use std::ffi::c_char;
use std::fmt::Write as _;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Instant;
use std::{env, fs, process};

use utf8::ffi::{utf8_result, utf8_status};

unsafe extern "C" {
    fn utf8_validate(s: *const c_char, len: usize, valid_up_to: *mut usize) -> utf8_status;
    fn utf8_decode_next(
        s: *const c_char,
        len: usize,
        cp: *mut u32,
        used: *mut usize,
    ) -> utf8_status;
    fn utf8_count_chars(s: *const c_char, len: usize) -> usize;
    fn utf8_to_utf16(
        s: *const c_char,
        len: usize,
        out: *mut u16,
        cap: usize,
        flags: u32,
    ) -> utf8_result;
    fn utf8_to_utf32(
        s: *const c_char,
        len: usize,
        out: *mut u32,
        cap: usize,
        flags: u32,
    ) -> utf8_result;
    fn utf16_to_utf8(
        s: *const u16,
        len: usize,
        out: *mut c_char,
        cap: usize,
        flags: u32,
    ) -> utf8_result;
    fn utf32_to_utf8(
        s: *const u32,
        len: usize,
        out: *mut c_char,
        cap: usize,
        flags: u32,
    ) -> utf8_result;
}

type ValidateFn = unsafe extern "C" fn(*const c_char, usize, *mut usize) -> utf8_status;
type DecodeFn = unsafe extern "C" fn(*const c_char, usize, *mut u32, *mut usize) -> utf8_status;
const _: [ValidateFn; 2] = [utf8_validate, utf8::ffi::utf8_validate];
const _: [DecodeFn; 2] = [utf8_decode_next, utf8::ffi::utf8_decode_next];
type CountFn = unsafe extern "C" fn(*const c_char, usize) -> usize;
const _: [CountFn; 2] = [utf8_count_chars, utf8::ffi::utf8_count_chars];
type ToUtf16Fn = unsafe extern "C" fn(*const c_char, usize, *mut u16, usize, u32) -> utf8_result;
type ToUtf32Fn = unsafe extern "C" fn(*const c_char, usize, *mut u32, usize, u32) -> utf8_result;
type FromUtf16Fn = unsafe extern "C" fn(*const u16, usize, *mut c_char, usize, u32) -> utf8_result;
type FromUtf32Fn = unsafe extern "C" fn(*const u32, usize, *mut c_char, usize, u32) -> utf8_result;
const _: [ToUtf16Fn; 2] = [utf8_to_utf16, utf8::ffi::utf8_to_utf16];
const _: [ToUtf32Fn; 2] = [utf8_to_utf32, utf8::ffi::utf8_to_utf32];
const _: [FromUtf16Fn; 2] = [utf16_to_utf8, utf8::ffi::utf16_to_utf8];
const _: [FromUtf32Fn; 2] = [utf32_to_utf8, utf8::ffi::utf32_to_utf8];

/// `f`, as a value the optimiser knows nothing about: calling it is a real, indirect call.
#[inline(always)]
fn opaque<F: Copy>(f: F) -> F {
    black_box(f)
}

// ---------------------------------------------------------------------------------------------
// The implementations

/// What an implementation computes, and so how its result is checked.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Group {
    /// Validation: the result is the length of the well-formed prefix (all of a valid input).
    Validate,
    /// Decoding every character: the result is the sum of the code points.
    Decode,
    /// Counting the characters of valid input: the result is their number.
    Count,
    /// UTF-8 to UTF-16 (strict, validating): the result is the number of units written.
    ToUtf16,
    /// UTF-8 to UTF-32 (strict, validating): the result is the number of units written.
    ToUtf32,
    /// UTF-16 (the input, converted beforehand) to UTF-8: the result is the bytes written.
    FromUtf16,
    /// UTF-32 (the input, converted beforehand) to UTF-8: the result is the bytes written.
    FromUtf32,
    // The groups of `encodings`, each on its own inputs: the result is the units written.
    /// Latin-1 text made from the corpus to UTF-8.
    Latin1ToUtf8,
    /// The same text read as Windows-1252, to UTF-8.
    Cp1252ToUtf8,
    /// That text in UTF-8, to Latin-1 (strict, validating).
    Utf8ToLatin1,
    /// UTF-8 to UTF-16BE, and to UTF-16 in the machine's order (strict, validating).
    ToUtf16Be,
    /// UTF-16BE (the input, converted beforehand) to UTF-8, and UTF-16 in the machine's order.
    FromUtf16Be,
}

impl Group {
    fn name(self) -> &'static str {
        match self {
            Group::Validate => "validate",
            Group::Decode => "decode",
            Group::Count => "count",
            Group::ToUtf16 => "utf8_to_utf16",
            Group::ToUtf32 => "utf8_to_utf32",
            Group::FromUtf16 => "utf16_to_utf8",
            Group::FromUtf32 => "utf32_to_utf8",
            Group::Latin1ToUtf8 => "latin1_to_utf8",
            Group::Cp1252ToUtf8 => "cp1252_to_utf8",
            Group::Utf8ToLatin1 => "utf8_to_latin1",
            Group::ToUtf16Be => "utf8_to_utf16be",
            Group::FromUtf16Be => "utf16be_to_utf8",
        }
    }
}

/// One implementation. `bulk` calls it `iters` times on one buffer; `pool` calls it on each
/// string of a pool (strings of `len` bytes, back to back), `iters` times over. Both are
/// instantiated per implementation by `entry!`, so the measuring loop calls it directly.
struct Entry {
    name: &'static str,
    group: Group,
    bulk: fn(&[u8], u64) -> u64,
    pool: fn(&[u8], usize, u64) -> u64,
}

/// `entry!(name, group, |s| body)`: an implementation whose one call on the bytes `s` is `body`,
/// an expression of type u64 (see [`Group`] for what it must return).
macro_rules! entry {
    ($name:expr, $group:expr, |$s:ident| $body:expr) => {{
        #[inline(always)]
        fn call($s: &[u8]) -> u64 {
            $body
        }
        fn bulk(s: &[u8], iters: u64) -> u64 {
            let mut acc = 0u64;
            for _ in 0..iters {
                // black_box: the call is made every time, on a buffer the optimiser cannot see.
                acc = acc.wrapping_add(call(black_box(s)));
            }
            acc
        }
        fn pool(pool: &[u8], len: usize, iters: u64) -> u64 {
            let mut acc = 0u64;
            for _ in 0..iters {
                for s in pool.chunks_exact(len) {
                    acc = acc.wrapping_add(call(black_box(s)));
                }
            }
            acc
        }
        Entry {
            name: $name,
            group: $group,
            bulk,
            pool,
        }
    }};
}

// Latin-1, Windows-1252 and UTF-16BE: their inputs, implementations and checks.
mod encodings;

/// Every implementation measured by this harness. Adding one is adding one entry here (or in
/// `encodings`, for its groups).
fn entries() -> Vec<Entry> {
    use Group::*;
    vec![
        // libutf8, through its C API.
        entry!("libutf8 utf8_validate", Validate, |s| {
            let mut good = 0usize;
            let validate = opaque(utf8_validate as ValidateFn);
            // SAFETY: `s` is a live slice: a pointer to `s.len()` readable bytes.
            let st = unsafe { validate(s.as_ptr().cast(), s.len(), &mut good) };
            if st == utf8_status::UTF8_OK {
                good as u64
            } else {
                u64::MAX
            }
        }),
        entry!("libutf8 utf8_decode_next loop", Decode, |s| {
            let decode = opaque(utf8_decode_next as DecodeFn);
            let (mut p, mut left, mut sum) = (s.as_ptr(), s.len(), 0u64);
            while left > 0 {
                let (mut cp, mut used) = (0u32, 0usize);
                // SAFETY: `p` points to `left` readable bytes of `s`; `used` <= `left`.
                unsafe {
                    decode(p.cast(), left, &mut cp, &mut used);
                    p = p.add(used);
                }
                left -= used;
                sum += u64::from(cp);
            }
            sum
        }),
        entry!("libutf8 utf8_count_chars", Count, |s| {
            let count = opaque(utf8_count_chars as CountFn);
            // SAFETY: `s` is a live slice: a pointer to `s.len()` readable bytes.
            unsafe { count(s.as_ptr().cast(), s.len()) as u64 }
        }),
        // Rust's standard library.
        entry!(
            "core::str::from_utf8",
            Validate,
            |s| match core::str::from_utf8(s) {
                Ok(_) => s.len() as u64,
                Err(e) => e.valid_up_to() as u64,
            }
        ),
        // simdutf8: the fast boolean validator, and the one that locates the error.
        entry!("simdutf8::basic::from_utf8", Validate, |s| {
            match simdutf8::basic::from_utf8(s) {
                Ok(_) => s.len() as u64,
                Err(_) => u64::MAX,
            }
        }),
        entry!("simdutf8::compat::from_utf8", Validate, |s| {
            match simdutf8::compat::from_utf8(s) {
                Ok(_) => s.len() as u64,
                Err(e) => e.valid_up_to() as u64,
            }
        }),
        // simdutf (C++, through the `simdutf` crate's bindings).
        entry!("simdutf validate_utf8", Validate, |s| {
            if simdutf::validate_utf8(s) {
                s.len() as u64
            } else {
                u64::MAX
            }
        }),
        entry!("simdutf validate_utf8_with_errors", Validate, |s| {
            let r = simdutf::validate_utf8_with_errors(s);
            if r.error == simdutf::ErrorCode::Success {
                r.count as u64
            } else {
                u64::MAX
            }
        }),
        entry!("simdutf count_utf8", Count, |s| {
            simdutf::count_utf8(s) as u64
        }),
        // count_utf8 counts valid input only: what a count of untrusted input takes with
        // simdutf.
        entry!("simdutf validate_utf8 + count_utf8", Count, |s| {
            if simdutf::validate_utf8(s) {
                simdutf::count_utf8(s) as u64
            } else {
                u64::MAX
            }
        }),
        // Transcoding, libutf8 strict against simdutf's validating converters. The output
        // buffers are reused from call to call (see `Scratch`).
        entry!("libutf8 utf8_to_utf16", ToUtf16, |s| {
            let convert = opaque(utf8_to_utf16 as ToUtf16Fn);
            Scratch::with(|b| {
                let out = b.units16(s.len());
                // SAFETY: `s` is a live slice; `out` has room for `out.len()` units.
                let r =
                    unsafe { convert(s.as_ptr().cast(), s.len(), out.as_mut_ptr(), out.len(), 0) };
                if r.status == utf8_status::UTF8_OK {
                    r.written as u64
                } else {
                    u64::MAX
                }
            })
        }),
        entry!("simdutf convert_utf8_to_utf16le", ToUtf16, |s| {
            Scratch::with(|b| {
                let out = b.units16(s.len());
                // SAFETY: `out` has room for the at most `s.len()` units of the output.
                unsafe {
                    simdutf::convert_utf8_to_utf16le(s.as_ptr(), s.len(), out.as_mut_ptr()) as u64
                }
            })
        }),
        entry!("libutf8 utf8_to_utf32", ToUtf32, |s| {
            let convert = opaque(utf8_to_utf32 as ToUtf32Fn);
            Scratch::with(|b| {
                let out = b.units32(s.len());
                // SAFETY: `s` is a live slice; `out` has room for `out.len()` units.
                let r =
                    unsafe { convert(s.as_ptr().cast(), s.len(), out.as_mut_ptr(), out.len(), 0) };
                if r.status == utf8_status::UTF8_OK {
                    r.written as u64
                } else {
                    u64::MAX
                }
            })
        }),
        entry!("simdutf convert_utf8_to_utf32", ToUtf32, |s| {
            Scratch::with(|b| {
                let out = b.units32(s.len());
                // SAFETY: `out` has room for the at most `s.len()` units of the output.
                unsafe {
                    simdutf::convert_utf8_to_utf32(s.as_ptr(), s.len(), out.as_mut_ptr()) as u64
                }
            })
        }),
        entry!("libutf8 utf16_to_utf8", FromUtf16, |s| {
            let convert = opaque(utf16_to_utf8 as FromUtf16Fn);
            Scratch::with(|b| {
                let (src, out) = b.utf16_input(s);
                // SAFETY: `src` is a live slice; `out` has room for `out.len()` bytes.
                let r = unsafe {
                    convert(
                        src.as_ptr(),
                        src.len(),
                        out.as_mut_ptr().cast(),
                        out.len(),
                        0,
                    )
                };
                if r.status == utf8_status::UTF8_OK {
                    r.written as u64
                } else {
                    u64::MAX
                }
            })
        }),
        entry!("simdutf convert_utf16le_to_utf8", FromUtf16, |s| {
            Scratch::with(|b| {
                let (src, out) = b.utf16_input(s);
                // SAFETY: `out` has room for the `s.len()` bytes of the output.
                unsafe {
                    simdutf::convert_utf16le_to_utf8(src.as_ptr(), src.len(), out.as_mut_ptr())
                        as u64
                }
            })
        }),
        entry!("libutf8 utf32_to_utf8", FromUtf32, |s| {
            let convert = opaque(utf32_to_utf8 as FromUtf32Fn);
            Scratch::with(|b| {
                let (src, out) = b.utf32_input(s);
                // SAFETY: `src` is a live slice; `out` has room for `out.len()` bytes.
                let r = unsafe {
                    convert(
                        src.as_ptr(),
                        src.len(),
                        out.as_mut_ptr().cast(),
                        out.len(),
                        0,
                    )
                };
                if r.status == utf8_status::UTF8_OK {
                    r.written as u64
                } else {
                    u64::MAX
                }
            })
        }),
        entry!("simdutf convert_utf32_to_utf8", FromUtf32, |s| {
            Scratch::with(|b| {
                let (src, out) = b.utf32_input(s);
                // SAFETY: `out` has room for the `s.len()` bytes of the output.
                unsafe {
                    simdutf::convert_utf32_to_utf8(src.as_ptr(), src.len(), out.as_mut_ptr()) as u64
                }
            })
        }),
        // encoding_rs (Firefox's).
        entry!("encoding_rs utf8_valid_up_to", Validate, |s| {
            encoding_rs::Encoding::utf8_valid_up_to(s) as u64
        }),
    ]
}

/// The buffers of the transcoding entries, kept from call to call so that no call allocates:
/// outputs as large as the largest call needs, and the UTF-16 / UTF-32 form of the UTF-8 input
/// the bench is measuring, converted (by the standard library) by [`Scratch::prepare`] before
/// any entry runs on it.
#[derive(Default)]
struct Scratch {
    out8: Vec<u8>,
    out16: Vec<u16>,
    out32: Vec<u32>,
    in16: Vec<u16>,
    in32: Vec<u32>,
    /// Where each string's units start in `in16` and `in32`, and where the last one ends.
    starts16: Vec<usize>,
    starts32: Vec<usize>,
    /// The address of the input and the length of its strings.
    base: usize,
    call_len: usize,
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::default();
}

impl Scratch {
    fn with<R>(f: impl FnOnce(&mut Scratch) -> R) -> R {
        SCRATCH.with(|b| f(&mut b.borrow_mut()))
    }

    fn units16(&mut self, n: usize) -> &mut [u16] {
        if self.out16.len() < n {
            self.out16.resize(n, 0);
        }
        &mut self.out16[..n]
    }

    fn units32(&mut self, n: usize) -> &mut [u32] {
        if self.out32.len() < n {
            self.out32.resize(n, 0);
        }
        &mut self.out32[..n]
    }

    /// Makes `s`, the input the entries are about to be measured on, in strings of `call_len`
    /// bytes (one, or a pool's), the one that [`Scratch::utf16_input`] and
    /// [`Scratch::utf32_input`] give. Not recognised from the address and length of the slice:
    /// an input freed and the next one, of the same length, allocated in its place would have
    /// been taken for it (the UTF-16 of `ascii-1MiB` was measured as `mixed-1MiB`'s).
    fn prepare(&mut self, s: &[u8], call_len: usize) {
        self.base = s.as_ptr() as usize;
        self.call_len = call_len;
        (self.in16, self.in32) = (Vec::new(), Vec::new());
        (self.starts16, self.starts32) = (vec![0], vec![0]);
        for string in s.chunks(call_len) {
            let text = core::str::from_utf8(string).unwrap_or_default();
            self.in16.extend(text.encode_utf16());
            self.in32.extend(text.chars().map(u32::from));
            self.starts16.push(self.in16.len());
            self.starts32.push(self.in32.len());
        }
        if self.out8.len() < call_len {
            self.out8.resize(call_len, 0);
        }
    }

    /// Which string of the input given to [`Scratch::prepare`] `s` is.
    fn string_of(&self, s: &[u8]) -> usize {
        (s.as_ptr() as usize - self.base) / self.call_len
    }

    /// `s`, a string of the input given to [`Scratch::prepare`] (valid UTF-8), as UTF-16, and an
    /// output buffer of `s.len()` bytes.
    fn utf16_input(&mut self, s: &[u8]) -> (&[u16], &mut [u8]) {
        let k = self.string_of(s);
        let src = &self.in16[self.starts16[k]..self.starts16[k + 1]];
        (src, &mut self.out8[..s.len()])
    }

    /// `s`, a string of the input given to [`Scratch::prepare`] (valid UTF-8), as UTF-32, and an
    /// output buffer of `s.len()` bytes.
    fn utf32_input(&mut self, s: &[u8]) -> (&[u32], &mut [u8]) {
        let k = self.string_of(s);
        let src = &self.in32[self.starts32[k]..self.starts32[k + 1]];
        (src, &mut self.out8[..s.len()])
    }
}

// ---------------------------------------------------------------------------------------------
// Generated inputs

/// SplitMix64 (Guy L. Steele Jr., Doug Lea, Christine H. Flood, "Fast Splittable Pseudorandom
/// Number Generators", OOPSLA 2014), with the output function of Sebastiano Vigna's published
/// `splitmix64` (David Stafford's "Mix13" constants): small, well distributed, portable.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A value in `lo..=hi` (the modulo bias is negligible for these small ranges).
    fn range(&mut self, lo: u32, hi: u32) -> u32 {
        lo + (self.next() % u64::from(hi - lo + 1)) as u32
    }
}

/// The fixed seed of every generated input: "libutf8" in ASCII.
const SEED: u64 = 0x6C69_6275_7466_3800;

/// Printable ASCII with a line break now and then, as in text.
fn ascii_char(rng: &mut SplitMix64) -> u8 {
    if rng.next().is_multiple_of(64) {
        b'\n'
    } else {
        rng.range(0x20, 0x7E) as u8
    }
}

/// A character of `width` bytes, its scalar value uniform over those of that width (no NUL:
/// GLib's validator stops at one).
fn char_of_width(rng: &mut SplitMix64, width: u32) -> char {
    let (lo, hi) = match width {
        1 => (0x01, 0x7F),
        2 => (0x80, 0x7FF),
        3 => (0x800, 0xFFFF),
        _ => (0x1_0000, 0x10_FFFF),
    };
    loop {
        // Redraws the surrogates, which are not scalar values.
        if let Some(c) = char::from_u32(rng.range(lo, hi)) {
            return c;
        }
    }
}

/// Pure ASCII text of exactly `n` bytes.
fn ascii_text(rng: &mut SplitMix64, n: usize) -> Vec<u8> {
    (0..n).map(|_| ascii_char(rng)).collect()
}

/// Valid UTF-8 of exactly `n` bytes: characters of 1, 2, 3 and 4 bytes equally likely (the last
/// ones narrower where a wide one would not fit).
fn mixed_text(rng: &mut SplitMix64, n: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(n);
    let mut buf = [0u8; 4];
    while out.len() < n {
        let room = (n - out.len()).min(4) as u32;
        let width = rng.range(1, 4).min(room);
        out.extend_from_slice(char_of_width(rng, width).encode_utf8(&mut buf).as_bytes());
    }
    debug_assert_eq!(out.len(), n);
    out
}

/// ASCII text of exactly `n` bytes (at least 2) but for one "é" at a random place.
fn accent_text(rng: &mut SplitMix64, n: usize) -> Vec<u8> {
    let mut out = ascii_text(rng, n);
    let at = rng.range(0, (n - 2) as u32) as usize;
    out[at..at + 2].copy_from_slice("\u{E9}".as_bytes());
    out
}

/// ASCII text of exactly `n` bytes with an emoji (U+1F300..U+1F64F, four bytes, a surrogate
/// pair in UTF-16) instead of one character in 40 or so, as in chat messages: a shape of real
/// text the corpus lacks, whose UTF-16 mixes surrogate pairs into steps of other characters.
fn emoji_text(rng: &mut SplitMix64, n: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(n);
    let mut buf = [0u8; 4];
    while out.len() < n {
        if n - out.len() >= 4 && rng.next().is_multiple_of(40) {
            let emoji = char::from_u32(rng.range(0x1_F300, 0x1_F64F)).unwrap_or('?');
            out.extend_from_slice(emoji.encode_utf8(&mut buf).as_bytes());
        } else {
            out.push(ascii_char(rng));
        }
    }
    out
}

/// The least number of bytes of a pool of a corpus file's text in different orders (see
/// [`shuffled_copies`]): more than the branch predictors learn, and little enough that the pool
/// stays in a core's L2 cache.
const FRESH_BYTES: usize = 1 << 20;

/// A corpus file's `text` again and again, with its lines in a different random order each time
/// after the first, to at least [`FRESH_BYTES`] bytes: a pool whose every string is the file's
/// text and has its length, which a harness processes one after the other, so that no call sees
/// what the calls just before it saw. Processed again and again, one file of a few hundred KB is
/// partly learned by the branch predictors, better for one build's code than for another's (see
/// bench/README.md); text a program reads once is not. A last line with no line break stays
/// last, so that every string is valid UTF-8 (lines are split at 0A bytes, which never occur
/// inside a character). The order comes from the file's name alone.
fn shuffled_copies(text: &[u8], name: &str) -> Vec<u8> {
    let mut lines: Vec<&[u8]> = text.split_inclusive(|&b| b == b'\n').collect();
    let fixed_last = usize::from(!text.ends_with(b"\n"));
    let shuffled = lines.len() - fixed_last;
    // FNV-1a of the name: a seed of its own, so that no other input changes with the corpus.
    let seed = name.bytes().fold(0xCBF2_9CE4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01B3)
    });
    let mut rng = SplitMix64(SEED ^ seed);
    let copies = FRESH_BYTES.div_ceil(text.len().max(1)).max(2);
    let mut pool = Vec::with_capacity(copies * text.len());
    pool.extend_from_slice(text);
    for _ in 1..copies {
        // Fisher-Yates.
        for i in (1..shuffled).rev() {
            let j = (rng.next() % (i as u64 + 1)) as usize;
            lines.swap(i, j);
        }
        lines.iter().for_each(|line| pool.extend_from_slice(line));
    }
    pool
}

/// Strings per pool of short strings: enough that branch predictors cannot learn one string.
const POOL: usize = 1024;

/// Corpus files cut into pools of short strings (`short-LABEL-16` and `-64`): text of a 2-byte
/// script, of a 3-byte one, and Latin text with accents, as C programs convert short strings
/// (names, labels, words), which random 1-4 byte text does not resemble: its characters' widths
/// change at every character, real text's at spaces and punctuation.
const SNIPPET_FILES: [(&str, &str); 3] = [
    ("lipsum_Russian-Lipsum", "russian"),
    ("lipsum_Chinese-Lipsum", "chinese"),
    ("wikipedia_mars_french", "french"),
];

/// [`POOL`] strings of `len` bytes cut from `text`, each from a character at random, as many
/// whole characters as fit, then spaces to `len`.
fn snippets(rng: &mut SplitMix64, text: &str, len: usize) -> Vec<u8> {
    let starts: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
    if starts.is_empty() {
        return vec![b' '; POOL * len];
    }
    let mut pool = Vec::with_capacity(POOL * len);
    for _ in 0..POOL {
        let from = starts[(rng.next() % starts.len() as u64) as usize];
        let mut end = from;
        for c in text[from..].chars() {
            if end + c.len_utf8() > from + len {
                break;
            }
            end += c.len_utf8();
        }
        pool.extend_from_slice(&text.as_bytes()[from..end]);
        pool.resize(pool.len() + from + len - end, b' ');
    }
    pool
}

const KIB: usize = 1024;
const MIB: usize = 1024 * 1024;

fn size_name(n: usize) -> String {
    if n >= MIB {
        format!("{}MiB", n / MIB)
    } else {
        format!("{}KiB", n / KIB)
    }
}

fn generate(data: &Path, corpus: Option<&Path>) -> Result<(), String> {
    fs::create_dir_all(data).map_err(|e| format!("{}: {e}", data.display()))?;
    // Absolute paths in the manifest, so that it can be read from anywhere.
    let data = &fs::canonicalize(data).map_err(|e| format!("{}: {e}", data.display()))?;
    let mut manifest = String::new();
    // The texts of SNIPPET_FILES, for the pools cut from them last.
    let mut snippet_texts: Vec<(&str, String)> = Vec::new();
    let write = |name: &str, bytes: &[u8]| -> Result<PathBuf, String> {
        let path = data.join(name);
        fs::write(&path, bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(path)
    };

    // The corpus first, in name order.
    match corpus {
        Some(dir) if dir.is_dir() => {
            let mut files: Vec<PathBuf> = fs::read_dir(dir)
                .map_err(|e| format!("{}: {e}", dir.display()))?
                .filter_map(|d| d.ok().map(|d| d.path()))
                .filter(|p| p.to_string_lossy().ends_with(".utf8.txt"))
                .collect();
            files.sort();
            if files.is_empty() {
                eprintln!(
                    "bench: no *.utf8.txt file in {}: the corpus rows are skipped",
                    dir.display()
                );
            }
            let mut fresh = String::new();
            let mut latin1 = String::new();
            for path in files {
                let file = path
                    .file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .into_owned();
                let name = file.trim_end_matches(".utf8.txt");
                let size = fs::metadata(&path)
                    .map_err(|e| format!("{}: {e}", path.display()))?
                    .len();
                let abs =
                    fs::canonicalize(&path).map_err(|e| format!("{}: {e}", path.display()))?;
                writeln!(manifest, "corpus\t{name}\t{}\t{size}", abs.display()).unwrap();
                let text = fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
                if let Some(&(_, label)) = SNIPPET_FILES.iter().find(|(file, _)| *file == name) {
                    snippet_texts.push((label, String::from_utf8_lossy(&text).into_owned()));
                }
                encodings::latin1_inputs(data, name, &text, &mut latin1)?;
                let pool = shuffled_copies(&text, name);
                let pool_path = write(&format!("fresh-{name}.pool"), &pool)?;
                writeln!(
                    fresh,
                    "fresh\tfresh-{name}\t{}\t{size}",
                    pool_path.display()
                )
                .unwrap();
            }
            manifest.push_str(&fresh);
            manifest.push_str(&latin1);
        }
        _ => eprintln!(
            "bench: corpus folder {} not found (set LIBUTF8_CORPUS to point at it): the corpus rows \
             are skipped",
            corpus.map_or_else(|| "(none given)".into(), |d| d.display().to_string())
        ),
    }

    // Each input has its own generator, seeded from SEED and its name's position, so that
    // changing one input does not change the others.
    let mut stream = 0u64;
    let mut rng = || {
        stream += 1;
        SplitMix64(SEED ^ stream.wrapping_mul(0x9E37_79B9_7F4A_7C15))
    };
    for size in [64 * KIB, MIB, 64 * MIB] {
        for (kind, text) in [
            ("ascii", ascii_text(&mut rng(), size)),
            ("mixed", mixed_text(&mut rng(), size)),
        ] {
            assert!(
                core::str::from_utf8(&text).is_ok(),
                "the generator makes valid UTF-8"
            );
            let name = format!("{kind}-{}", size_name(size));
            let path = write(&format!("{name}.txt"), &text)?;
            writeln!(manifest, "generated\t{name}\t{}\t{size}", path.display()).unwrap();
        }
    }
    // 16, 64 and 256 are the lengths of the project's goals; 100, a multiple of neither 16 nor
    // 64, takes the paths for the bytes after the last whole register and block, and 1000 those
    // of strings too long for one tail and too short for the aligned block loop.
    for len in [16, 64, 100, 256, 1000] {
        for kind in ["ascii", "mixed"] {
            let mut r = rng();
            let mut pool = Vec::with_capacity(POOL * len);
            for _ in 0..POOL {
                let s = if kind == "ascii" {
                    ascii_text(&mut r, len)
                } else {
                    mixed_text(&mut r, len)
                };
                pool.extend_from_slice(&s);
            }
            let name = format!("short-{kind}-{len}");
            let path = write(&format!("{name}.pool"), &pool)?;
            writeln!(manifest, "short\t{name}\t{}\t{len}", path.display()).unwrap();
        }
    }
    // ASCII with one 2-byte character at a random place, at lengths between one tail and the
    // aligned block loop: the kernels skip the ASCII blocks before it, then check the rest.
    // With it early, 300 bytes took 1.4-1.65x simdutf's time (AVX-512) when this was added.
    for len in [300, 1000] {
        let mut r = rng();
        let mut pool = Vec::with_capacity(POOL * len);
        for _ in 0..POOL {
            pool.extend_from_slice(&accent_text(&mut r, len));
        }
        let name = format!("short-accent-{len}");
        let path = write(&format!("{name}.pool"), &pool)?;
        writeln!(manifest, "short\t{name}\t{}\t{len}", path.display()).unwrap();
    }
    // Last, so that the inputs above keep their generators.
    let text = emoji_text(&mut rng(), 64 * KIB);
    let path = write("emoji-64KiB.txt", &text)?;
    writeln!(
        manifest,
        "generated\temoji-64KiB\t{}\t{}",
        path.display(),
        text.len()
    )
    .unwrap();
    // Short strings of real text, after those, when the corpus is there.
    for (label, text) in &snippet_texts {
        for len in [16, 64] {
            let name = format!("short-{label}-{len}");
            let path = write(&format!("{name}.pool"), &snippets(&mut rng(), text, len))?;
            writeln!(manifest, "short\t{name}\t{}\t{len}", path.display()).unwrap();
        }
    }
    let path = data.join("manifest.tsv");
    fs::write(&path, manifest).map_err(|e| format!("{}: {e}", path.display()))?;
    eprintln!("bench: inputs written to {}", data.display());
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Measuring

/// One line of the manifest.
struct Input {
    kind: String,
    name: String,
    path: String,
    /// Bytes per call: the whole file, or the length of each string of a pool.
    call_len: usize,
}

impl Input {
    /// Whether each call processes one string of the file (short strings, and the copies of a
    /// corpus file of `fresh`), not the whole file.
    fn is_pool(&self) -> bool {
        self.kind == "short" || self.kind == "fresh"
    }
}

fn read_manifest(path: &Path) -> Result<Vec<Input>, String> {
    let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut inputs = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let f: Vec<&str> = line.split('\t').collect();
        let [kind, name, file, call_len] = f[..] else {
            return Err(format!("{}: bad line {line:?}", path.display()));
        };
        let call_len = call_len
            .parse()
            .map_err(|_| format!("bad length in {line:?}"))?;
        inputs.push(Input {
            kind: kind.into(),
            name: name.into(),
            path: file.into(),
            call_len,
        });
    }
    Ok(inputs)
}

/// The bytes of an input, 64-byte aligned (as in the C harness), read when measured.
struct Loaded {
    block: Vec<u8>,
    start: usize,
    len: usize,
}

impl Loaded {
    fn read(input: &Input) -> Result<Loaded, String> {
        let data = fs::read(&input.path).map_err(|e| format!("{}: {e}", input.path))?;
        if input.call_len == 0 || data.len() % input.call_len != 0 {
            return Err(format!(
                "{}: size is not a multiple of {}",
                input.path, input.call_len
            ));
        }
        let mut block = vec![0u8; data.len() + 64];
        let start = block.as_ptr().align_offset(64);
        block[start..start + data.len()].copy_from_slice(&data);
        Ok(Loaded {
            block,
            start,
            len: data.len(),
        })
    }

    fn bytes(&self) -> &[u8] {
        &self.block[self.start..self.start + self.len]
    }
}

/// Settings, from the environment (the same variables as the C harness's).
struct Settings {
    /// Samples per input and implementation (an odd number gives a true median).
    samples: usize,
    /// Samples for inputs of 16 MiB or more, whose every call takes milliseconds.
    samples_large: usize,
    /// Minimum duration of one sample, in nanoseconds.
    sample_ns: f64,
}

fn env_num(name: &str, default: f64) -> f64 {
    match env::var(name) {
        Ok(v) => v.parse().unwrap_or_else(|_| {
            eprintln!("bench: {name}={v:?} is not a number");
            process::exit(2)
        }),
        Err(_) => default,
    }
}

impl Settings {
    fn from_env() -> Settings {
        let quick = env::var("LIBUTF8_BENCH_QUICK").is_ok_and(|v| !v.is_empty() && v != "0");
        let (s, l, ms) = if quick {
            (3.0, 1.0, 2.0)
        } else {
            (15.0, 5.0, 10.0)
        };
        Settings {
            samples: env_num("LIBUTF8_BENCH_SAMPLES", s).max(1.0) as usize,
            samples_large: env_num("LIBUTF8_BENCH_LARGE_SAMPLES", l).max(1.0) as usize,
            sample_ns: env_num("LIBUTF8_BENCH_SAMPLE_MS", ms) * 1e6,
        }
    }
}

/// What the first call of an implementation must return on `input`, or None when the
/// implementation does not apply to that input.
fn expected(group: Group, input: &Input, bytes: &[u8]) -> Option<u64> {
    if let Some(want) = encodings::expected(group, input, bytes) {
        return want;
    }
    let short = input.kind == "short";
    let text = core::str::from_utf8(bytes).ok()?;
    match group {
        // On a pool: the sum over its strings of their lengths.
        Group::Validate => Some(bytes.len() as u64),
        // Short strings: validation and transcoding.
        Group::Decode if !short => Some(text.chars().map(u64::from).sum()),
        Group::Count if !short => Some(text.chars().count() as u64),
        // Transcoding: on a pool, the sums over its strings (each string is valid UTF-8).
        Group::ToUtf16 => Some(text.encode_utf16().count() as u64),
        Group::ToUtf32 => Some(text.chars().count() as u64),
        Group::FromUtf16 | Group::FromUtf32 => Some(bytes.len() as u64),
        _ => None,
    }
}

/// Runs `e` `iters` times on `input`: the elapsed nanoseconds and the result of the calls.
fn run(e: &Entry, input: &Input, bytes: &[u8], iters: u64) -> (f64, u64) {
    encodings::before_run(e);
    let t0 = Instant::now();
    let r = if input.is_pool() {
        (e.pool)(bytes, input.call_len, iters)
    } else {
        (e.bulk)(bytes, iters)
    };
    let ns = t0.elapsed().as_nanos() as f64;
    (ns, black_box(r))
}

struct Stats {
    median: f64,
    min: f64,
    max: f64,
}

fn stats(mut v: Vec<f64>) -> Stats {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    let median = if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    };
    Stats {
        median,
        min: v[0],
        max: v[n - 1],
    }
}

fn measure(manifest: &Path, out: &Path) -> Result<(), String> {
    let settings = Settings::from_env();
    let inputs = read_manifest(manifest)?;
    // LIBUTF8_BENCH_GROUPS=utf8_to_utf16,count,... measures those groups only.
    let only = env::var("LIBUTF8_BENCH_GROUPS").unwrap_or_default();
    let entries: Vec<Entry> = entries()
        .into_iter()
        .chain(encodings::entries())
        .filter(|e| only.is_empty() || only.split(',').any(|g| g == e.group.name()))
        .collect();
    let mut csv = String::from(
        "harness,group,kind,input,impl,bytes_per_call,median_ns,min_ns,max_ns,samples,calls_per_sample,\
         paired_ratio\n",
    );
    let mut failed = false;
    for input in &inputs {
        let loaded = Loaded::read(input)?;
        let bytes = loaded.bytes();
        Scratch::with(|b| b.prepare(bytes, input.call_len));
        encodings::prepare(input, bytes);
        let calls_per_iter = (bytes.len() / input.call_len) as u64;
        // The implementations that apply, each checked on a first call, then calibrated.
        let mut plan: Vec<(&Entry, u64)> = Vec::new();
        for e in &entries {
            let Some(want) = expected(e.group, input, bytes) else {
                continue;
            };
            let got = run(e, input, bytes, 1).1;
            if got != want {
                eprintln!(
                    "bench: {} on {} returned {got}, expected {want}: not measured",
                    e.name, input.name
                );
                failed = true;
                continue;
            }
            if let Err(msg) = encodings::check_output(e, input, bytes, got) {
                eprintln!("bench: {msg}: not measured");
                failed = true;
                continue;
            }
            let mut iters = 1u64;
            loop {
                let ns = run(e, input, bytes, iters).0.max(1.0);
                if ns >= settings.sample_ns {
                    break;
                }
                let scale = (settings.sample_ns * 1.05 / ns).clamp(1.5, 100.0);
                iters = ((iters as f64) * scale).ceil() as u64;
            }
            plan.push((e, iters));
        }
        let samples = if bytes.len() >= 16 * MIB {
            settings.samples_large
        } else {
            settings.samples
        };
        eprintln!(
            "bench[rust]: {:<40} {:>9} bytes, {} implementations x {samples} samples",
            input.name,
            bytes.len(),
            plan.len()
        );
        let mut times = vec![Vec::with_capacity(samples); plan.len()];
        for round in 0..samples {
            for k in 0..plan.len() {
                let i = (k + round) % plan.len();
                let (e, iters) = plan[i];
                let ns = run(e, input, bytes, iters).0;
                times[i].push(ns / (iters * calls_per_iter) as f64);
            }
        }
        // The paired ratios: the median over the rounds of each paired implementation's time
        // over its baseline's in the same round. Both are sampled in every round, so a burst of
        // load slows both alike, where it would move one median and not the other.
        let paired: Vec<String> = plan
            .iter()
            .enumerate()
            .map(|(i, (e, _))| {
                let base = encodings::paired_baseline(e.name)?;
                let j = plan.iter().position(|(p, _)| p.name == base)?;
                let ratios = times[i].iter().zip(&times[j]).map(|(a, b)| a / b);
                Some(format!("{:.4}", stats(ratios.collect()).median))
            })
            .map(Option::unwrap_or_default)
            .collect();
        for (((e, iters), t), paired) in plan.iter().zip(times).zip(paired) {
            let s = stats(t);
            writeln!(
                csv,
                "rust,{},{},{},{},{},{:.3},{:.3},{:.3},{samples},{},{paired}",
                e.group.name(),
                input.kind,
                input.name,
                e.name,
                input.call_len,
                s.median,
                s.min,
                s.max,
                iters * calls_per_iter
            )
            .unwrap();
        }
    }
    fs::write(out, csv).map_err(|e| format!("{}: {e}", out.display()))?;
    if failed {
        return Err("some implementations returned a wrong result (see above)".into());
    }
    Ok(())
}

fn main() {
    let args: Vec<String> = env::args().collect();
    let result = match args.get(1).map(String::as_str) {
        Some("gen") if args.len() == 3 || args.len() == 4 => {
            generate(Path::new(&args[2]), args.get(3).map(Path::new))
        }
        Some("run") if args.len() == 4 => measure(Path::new(&args[2]), Path::new(&args[3])),
        // The implementation the library chooses on this CPU (LIBUTF8_FORCE_ISA included).
        Some("isa") if args.len() == 2 => {
            println!("{}", utf8::internals::active_isa().name());
            Ok(())
        }
        _ => Err(
            "usage: libutf8-bench gen DATA_DIR [CORPUS_DIR] | run MANIFEST OUT_CSV | isa".into(),
        ),
    };
    if let Err(msg) = result {
        eprintln!("bench: {msg}");
        process::exit(1);
    }
}
