//! The conversions between UTF-8 and the other encodings of libutf8 1.3 (see bench/README.md):
//! Latin-1 and Windows-1252 on text made from the corpus, and UTF-16 in big-endian order against
//! the machine's own, with their inputs, checks and buffers. A module of its own so that the
//! rest of the harness only hands over to it: `gen` calls [`latin1_inputs`] for each corpus file,
//! `run` adds [`entries`] to the implementations, asks [`expected`] first, calls [`prepare`] on
//! each input and [`check_output`] after each first call, and pairs the rounds' samples as
//! [`paired_baseline`] says.
//!
//! Inputs, two kinds of manifest line per corpus file whose text keeps at least
//! [`LATIN1_MIN_BYTES`] once every character above U+00FF is removed:
//! - [`LATIN1`] (`latin1-NAME`): that text in Latin-1, one byte per character, the input of
//!   `latin1_to_utf8` and `cp1252_to_utf8`;
//! - [`LATIN1_UTF8`] (`latin1-utf8-NAME`): the same text in UTF-8, the input of
//!   `utf8_to_latin1`.
//!
//! The UTF-16BE groups run on the corpus files themselves, converted once beforehand (by the
//! standard library) into UTF-16 in the machine's order and in big-endian order. libutf8's
//! big-endian rows also get the median over the rounds of their time over the native order's in
//! the same round: a burst of load from other processes slows both alike, where it moves one of
//! the two medians and not the other.

use std::cell::RefCell;
use std::ffi::c_char;
use std::fmt::Write as _;
use std::hint::black_box;
use std::path::Path;

use utf8::ffi::{utf8_result, utf8_status};

use super::{Entry, FromUtf16Fn, Group, Input, ToUtf16Fn, opaque, utf8_to_utf16, utf16_to_utf8};

unsafe extern "C" {
    fn latin1_to_utf8(
        s: *const c_char,
        len: usize,
        out: *mut c_char,
        cap: usize,
        flags: u32,
    ) -> utf8_result;
    fn cp1252_to_utf8(
        s: *const c_char,
        len: usize,
        out: *mut c_char,
        cap: usize,
        flags: u32,
    ) -> utf8_result;
    fn utf8_to_latin1(
        s: *const c_char,
        len: usize,
        out: *mut c_char,
        cap: usize,
        flags: u32,
    ) -> utf8_result;
}

type ByteConvertFn =
    unsafe extern "C" fn(*const c_char, usize, *mut c_char, usize, u32) -> utf8_result;
const _: [ByteConvertFn; 6] = [
    latin1_to_utf8,
    utf8::ffi::latin1_to_utf8,
    cp1252_to_utf8,
    utf8::ffi::cp1252_to_utf8,
    utf8_to_latin1,
    utf8::ffi::utf8_to_latin1,
];

/// The flag of include/libutf8.h: UTF-16 units stored high byte first.
const UTF8_UTF16BE: u32 = 16;

/// The manifest's kind of the Latin-1 text made from a corpus file.
pub const LATIN1: &str = "latin1";
/// The manifest's kind of the same text in UTF-8.
pub const LATIN1_UTF8: &str = "latin1-utf8";
/// The least length of a corpus file's Latin-1 text for it to be measured: text of other
/// scripts keeps only its spaces, digits and punctuation, too little to time a conversion.
const LATIN1_MIN_BYTES: usize = 4096;

/// The implementations of the native-order rows of the UTF-16BE groups, whose output is in the
/// machine's order (the others' is big-endian).
const NATIVE_TO_UTF16: &str = "libutf8 utf8_to_utf16 (native order)";
const NATIVE_FROM_UTF16: &str = "libutf8 utf16_to_utf8 (native order)";
/// libutf8's big-endian conversions, judged against the native-order ones above.
const BE_TO_UTF16: &str = "libutf8 utf8_to_utf16 UTF8_UTF16BE";
const BE_FROM_UTF16: &str = "libutf8 utf16_to_utf8 UTF8_UTF16BE";

/// The implementation over whose time in the same round the implementation `name` gets a paired
/// ratio (the CSV's `paired_ratio`): for libutf8's big-endian conversions, the same conversion
/// in the machine's order, the goal being the cost of the byte order alone. None for the others.
pub fn paired_baseline(name: &str) -> Option<&'static str> {
    match name {
        BE_TO_UTF16 => Some(NATIVE_TO_UTF16),
        BE_FROM_UTF16 => Some(NATIVE_FROM_UTF16),
        _ => None,
    }
}

/// Writes the Latin-1 inputs of the corpus file `name` whose text is `text` into `data`, and
/// their lines into `manifest`; or, if too little of the text is Latin-1, says so and writes
/// nothing.
pub fn latin1_inputs(
    data: &Path,
    name: &str,
    text: &[u8],
    manifest: &mut String,
) -> Result<(), String> {
    let kept: String = String::from_utf8_lossy(text)
        .chars()
        .filter(|&c| u32::from(c) <= 0xFF)
        .collect();
    let latin1: Vec<u8> = kept.chars().map(|c| c as u8).collect();
    if latin1.len() < LATIN1_MIN_BYTES {
        eprintln!(
            "bench: {name}: {} bytes of Latin-1 text (below {LATIN1_MIN_BYTES}): no Latin-1 input",
            latin1.len()
        );
        return Ok(());
    }
    for (kind, bytes) in [(LATIN1, &latin1[..]), (LATIN1_UTF8, kept.as_bytes())] {
        let path = data.join(format!("{kind}-{name}.txt"));
        std::fs::write(&path, bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        writeln!(
            manifest,
            "{kind}\t{kind}-{name}\t{}\t{}",
            path.display(),
            bytes.len()
        )
        .unwrap();
    }
    Ok(())
}

/// The groups of this module.
fn is_ours(group: Group) -> bool {
    matches!(
        group,
        Group::Latin1ToUtf8
            | Group::Cp1252ToUtf8
            | Group::Utf8ToLatin1
            | Group::ToUtf16Be
            | Group::FromUtf16Be
    )
}

/// What the first call of an implementation of `group` must return on `input`, as
/// `super::expected` gives it, when the group or the kind of input is this module's: `None`
/// when neither is (the harness's other groups on its other inputs).
pub fn expected(group: Group, input: &Input, bytes: &[u8]) -> Option<Option<u64>> {
    let kind = input.kind.as_str();
    if !is_ours(group) && kind != LATIN1 && kind != LATIN1_UTF8 {
        return None;
    }
    let want = match (group, kind) {
        (Group::Latin1ToUtf8, LATIN1) => Some(latin1_reference(bytes).len() as u64),
        (Group::Cp1252ToUtf8, LATIN1) => Some(cp1252_reference(bytes).len() as u64),
        (Group::Utf8ToLatin1, LATIN1_UTF8) => core::str::from_utf8(bytes)
            .ok()
            .map(|t| t.chars().count() as u64),
        (Group::ToUtf16Be, "corpus") => core::str::from_utf8(bytes)
            .ok()
            .map(|t| t.encode_utf16().count() as u64),
        (Group::FromUtf16Be, "corpus") => Some(bytes.len() as u64),
        _ => None,
    };
    Some(want)
}

/// Latin-1 as UTF-8, by the standard library: each byte the character of its value.
fn latin1_reference(bytes: &[u8]) -> Vec<u8> {
    bytes
        .iter()
        .map(|&b| b as char)
        .collect::<String>()
        .into_bytes()
}

/// The characters of 0x80..=0x9F in the WHATWG Encoding Standard's index-windows-1252 (the five
/// bytes that Microsoft's table leaves undefined being the C1 controls of their value); every
/// other byte is its Latin-1 character.
const CP1252_80_9F: [u16; 32] = [
    0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039,
    0x0152, 0x008D, 0x017D, 0x008F, 0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
    0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
];

/// Windows-1252 as UTF-8, from the table above and the standard library.
fn cp1252_reference(bytes: &[u8]) -> Vec<u8> {
    bytes
        .iter()
        .map(|&b| match b {
            0x80..=0x9F => char::from_u32(u32::from(CP1252_80_9F[usize::from(b - 0x80)]))
                .unwrap_or(char::REPLACEMENT_CHARACTER),
            _ => b as char,
        })
        .collect::<String>()
        .into_bytes()
}

/// The output the first call of `e` on `input` (bytes `bytes`) left in the buffers, compared
/// with the standard library's: an error saying where they differ, if they do. Only for this
/// module's groups (the harness's others are checked by their result alone).
pub fn check_output(e: &Entry, input: &Input, bytes: &[u8], written: u64) -> Result<(), String> {
    if !is_ours(e.group) {
        return Ok(());
    }
    let n = written as usize;
    let text = || core::str::from_utf8(bytes).unwrap_or_default();
    Buffers::with(|b| {
        let differs = match e.group {
            Group::Latin1ToUtf8 => b.out8.get(..n) != Some(&latin1_reference(bytes)[..]),
            Group::Cp1252ToUtf8 => b.out8.get(..n) != Some(&cp1252_reference(bytes)[..]),
            Group::Utf8ToLatin1 => {
                let want: Vec<u8> = text().chars().map(|c| c as u8).collect();
                b.out8.get(..n) != Some(&want[..])
            }
            Group::ToUtf16Be => {
                let want: Vec<u16> = if e.name == NATIVE_TO_UTF16 {
                    text().encode_utf16().collect()
                } else {
                    text().encode_utf16().map(u16::to_be).collect()
                };
                b.out16.get(..n) != Some(&want[..])
            }
            Group::FromUtf16Be => b.out8.get(..n) != Some(bytes),
            _ => false,
        };
        if differs {
            Err(format!(
                "{} on {}: its output differs from the standard library's",
                e.name, input.name
            ))
        } else {
            Ok(())
        }
    })
}

/// The buffers of this module's entries, kept from call to call so that no call allocates: the
/// outputs, and the corpus file being measured in UTF-16, in the machine's order and big-endian.
#[derive(Default)]
struct Buffers {
    out8: Vec<u8>,
    out16: Vec<u16>,
    /// The corpus file being measured in UTF-16, in the machine's order or, where
    /// `utf16_swapped`, the other: one copy, its bytes swapped in place between two runs of
    /// entries that read the other order ([`before_run`]), so that the paired ratio of the two
    /// orders measures the byte order, not where two copies happen to be. (With two copies,
    /// each process's ratios of one build moved by up to 30% on some files, either way: the
    /// same code on one copy gave the same time in every process.)
    utf16: Vec<u16>,
    utf16_swapped: bool,
    /// The address and length of the UTF-8 text that `utf16` holds.
    base: usize,
    len: usize,
}

thread_local! {
    static BUFFERS: RefCell<Buffers> = RefCell::default();
}

impl Buffers {
    fn with<R>(f: impl FnOnce(&mut Buffers) -> R) -> R {
        BUFFERS.with(|b| f(&mut b.borrow_mut()))
    }

    /// `s` in UTF-16 in the machine's order (or big-endian) and an output of `s.len()` bytes,
    /// or None if `s` is not the input given to [`prepare`] or is not in that order now (see
    /// [`before_run`]).
    fn utf16_input(&mut self, s: &[u8], big_endian: bool) -> Option<(&[u16], &mut [u8])> {
        if s.as_ptr() as usize != self.base
            || s.len() != self.len
            || self.utf16_swapped != swapped(big_endian)
        {
            return None;
        }
        Some((&self.utf16, &mut self.out8[..s.len()]))
    }
}

/// Puts the UTF-16 of the corpus file being measured in the byte order that `e` reads, before a
/// run of its calls (outside the time measured).
pub fn before_run(e: &Entry) {
    if e.group != Group::FromUtf16Be {
        return;
    }
    let swapped = swapped(e.name != NATIVE_FROM_UTF16);
    Buffers::with(|b| {
        if b.utf16_swapped != swapped {
            for u in &mut b.utf16 {
                *u = u.swap_bytes();
            }
            b.utf16_swapped = swapped;
        }
    });
}

/// Whether UTF-16 big-endian (or else in the machine's order) is in the other order than the
/// machine's.
fn swapped(big_endian: bool) -> bool {
    big_endian && cfg!(target_endian = "little")
}

/// Makes the buffers ready for `input`, whose bytes are `bytes`, before any entry runs on it:
/// outputs large enough for its conversions, and for a corpus file its UTF-16.
pub fn prepare(input: &Input, bytes: &[u8]) {
    Buffers::with(|b| {
        (b.utf16, b.utf16_swapped, b.base, b.len) = (Vec::new(), false, 0, 0);
        let kind = input.kind.as_str();
        if kind != "corpus" && kind != LATIN1 && kind != LATIN1_UTF8 {
            return;
        }
        // Windows-1252 takes up to 3 bytes a byte; encoding_rs asks for a little more.
        let room = encoding_rs::WINDOWS_1252
            .new_decoder_without_bom_handling()
            .max_utf8_buffer_length_without_replacement(bytes.len())
            .unwrap_or(0)
            .max(3 * bytes.len());
        if b.out8.len() < room {
            b.out8.resize(room, 0);
        }
        if b.out16.len() < bytes.len() {
            b.out16.resize(bytes.len(), 0);
        }
        if kind == "corpus"
            && let Ok(text) = core::str::from_utf8(bytes)
        {
            b.utf16 = text.encode_utf16().collect();
            (b.base, b.len) = (bytes.as_ptr() as usize, bytes.len());
        }
    });
}

/// libutf8's result as an entry's: the units written, or u64::MAX for any other status.
fn written(r: utf8_result) -> u64 {
    if r.status == utf8_status::UTF8_OK {
        r.written as u64
    } else {
        u64::MAX
    }
}

/// libutf8's converter `f` between single bytes and UTF-8 on `s`, into the module's output.
#[inline(always)]
fn byte_convert(f: ByteConvertFn, s: &[u8]) -> u64 {
    let convert = opaque(f);
    Buffers::with(|b| {
        let out = &mut b.out8;
        // SAFETY: `s` is a live slice; `out` has room for `out.len()` bytes.
        let r = unsafe {
            convert(
                s.as_ptr().cast(),
                s.len(),
                out.as_mut_ptr().cast(),
                out.len(),
                0,
            )
        };
        written(r)
    })
}

/// libutf8's `utf8_to_utf16` on `s` with `flags`, into the module's output.
#[inline(always)]
fn to_utf16(s: &[u8], flags: u32) -> u64 {
    let convert = opaque(utf8_to_utf16 as ToUtf16Fn);
    Buffers::with(|b| {
        let out = &mut b.out16[..s.len()];
        // SAFETY: `s` is a live slice; `out` has room for `out.len()` units.
        let r = unsafe {
            convert(
                s.as_ptr().cast(),
                s.len(),
                out.as_mut_ptr(),
                out.len(),
                flags,
            )
        };
        written(r)
    })
}

/// libutf8's `utf16_to_utf8` with `flags` on the UTF-16 form of `s` in the order they name.
#[inline(always)]
fn from_utf16(s: &[u8], flags: u32) -> u64 {
    let convert = opaque(utf16_to_utf8 as FromUtf16Fn);
    Buffers::with(|b| {
        let Some((src, out)) = b.utf16_input(s, flags & UTF8_UTF16BE != 0) else {
            return u64::MAX;
        };
        // SAFETY: `src` is a live slice; `out` has room for `out.len()` bytes.
        let r = unsafe {
            convert(
                src.as_ptr(),
                src.len(),
                out.as_mut_ptr().cast(),
                out.len(),
                flags,
            )
        };
        written(r)
    })
}

/// This module's implementations (see [`Group`] for what each returns).
pub fn entries() -> Vec<Entry> {
    use Group::*;
    vec![
        // Latin-1 to UTF-8: every byte string is Latin-1; simdutf's converter validates nothing
        // either.
        entry!("libutf8 latin1_to_utf8", Latin1ToUtf8, |s| byte_convert(
            latin1_to_utf8,
            s
        )),
        entry!("simdutf convert_latin1_to_utf8", Latin1ToUtf8, |s| {
            Buffers::with(|b| {
                let out = &mut b.out8;
                // SAFETY: `out` has room for the at most `2 * s.len()` bytes of the output.
                unsafe {
                    simdutf::convert_latin1_to_utf8(s.as_ptr(), s.len(), out.as_mut_ptr()) as u64
                }
            })
        }),
        // Windows-1252 to UTF-8 (simdutf has none): libutf8, and encoding_rs's WHATWG decoder
        // into a buffer as large as any output (its own bound).
        entry!("libutf8 cp1252_to_utf8", Cp1252ToUtf8, |s| byte_convert(
            cp1252_to_utf8,
            s
        )),
        entry!(
            "encoding_rs windows-1252 decode_to_utf8",
            Cp1252ToUtf8,
            |s| {
                Buffers::with(|b| {
                    let mut decoder = encoding_rs::WINDOWS_1252.new_decoder_without_bom_handling();
                    let (result, read, written) =
                        decoder.decode_to_utf8_without_replacement(s, &mut b.out8, true);
                    if result == encoding_rs::DecoderResult::InputEmpty && read == s.len() {
                        written as u64
                    } else {
                        u64::MAX
                    }
                })
            }
        ),
        // UTF-8 to Latin-1: libutf8 strict, simdutf validating.
        entry!("libutf8 utf8_to_latin1", Utf8ToLatin1, |s| byte_convert(
            utf8_to_latin1,
            s
        )),
        entry!("simdutf convert_utf8_to_latin1", Utf8ToLatin1, |s| {
            Buffers::with(|b| {
                let out = &mut b.out8;
                // SAFETY: `out` has room for the at most `s.len()` bytes of the output.
                unsafe {
                    simdutf::convert_utf8_to_latin1(s.as_ptr(), s.len(), out.as_mut_ptr()) as u64
                }
            })
        }),
        // UTF-8 to UTF-16BE, and libutf8 in the machine's order on the same samples.
        entry!(BE_TO_UTF16, ToUtf16Be, |s| to_utf16(s, UTF8_UTF16BE)),
        entry!(NATIVE_TO_UTF16, ToUtf16Be, |s| to_utf16(s, 0)),
        entry!("simdutf convert_utf8_to_utf16be", ToUtf16Be, |s| {
            Buffers::with(|b| {
                let out = &mut b.out16[..s.len()];
                // SAFETY: `out` has room for the at most `s.len()` units of the output.
                unsafe {
                    simdutf::convert_utf8_to_utf16be(s.as_ptr(), s.len(), out.as_mut_ptr()) as u64
                }
            })
        }),
        // UTF-16BE to UTF-8, and libutf8 from UTF-16 in the machine's order.
        entry!(BE_FROM_UTF16, FromUtf16Be, |s| from_utf16(s, UTF8_UTF16BE)),
        entry!(NATIVE_FROM_UTF16, FromUtf16Be, |s| from_utf16(s, 0)),
        entry!("simdutf convert_utf16be_to_utf8", FromUtf16Be, |s| {
            Buffers::with(|b| {
                let Some((src, out)) = b.utf16_input(s, true) else {
                    return u64::MAX;
                };
                // SAFETY: `out` has room for the `s.len()` bytes of the output.
                unsafe {
                    simdutf::convert_utf16be_to_utf8(src.as_ptr(), src.len(), out.as_mut_ptr())
                        as u64
                }
            })
        }),
    ]
}
