//! The converters (utf8_to_utf16, utf8_to_utf32, utf16_to_utf8, utf32_to_utf8) and their length
//! functions, through the C API, against the standard library: `str::from_utf8` and
//! `str::encode_utf16`, `String::from_utf8_lossy`, `char::decode_utf16`,
//! `String::from_utf16_lossy` and `char::from_u32`.
//!
//! The first byte of the input chooses the direction (low two bits) and a small output capacity
//! (the rest); the other bytes are the input (16- and 32-bit units little-endian), used once as
//! they are and once widened to several SIMD blocks (`fuzz_common::widen`). Each conversion runs
//! strict and with UTF8_REPLACE: once into a buffer of exactly the size the length function
//! gives (AddressSanitizer catches a write past it), which must hold exactly the oracle's
//! output; then resumed through a buffer of the small capacity, flushed after each call, which
//! must give the same output and stop at the same place. UTF-16 input also goes to WTF-8
//! (UTF8_WTF8) and back, which must give it again. The C functions run the implementation the
//! library picks; the same checks then run each implementation the CPU supports
//! (`utf8::internals::Isa`), so that every kernel is fuzzed on a machine that has it. Last, with
//! every flag combination, the input converted in chunks (UTF8_MORE on all but the last, the
//! units a UTF8_ERR_TRUNCATED result leaves carried over) must give what one call gives. The
//! UTF-16 converters also run with UTF8_UTF16BE and UTF8_UTF16LE, against the oracle's units
//! put in that byte order by `u16::to_be` and `u16::to_le`.

#![no_main]

use fuzz_common::convert::{Expected, check, chunked_equals_whole};
use fuzz_common::{classify, hex, widen};
use libfuzzer_sys::fuzz_target;
use utf8::ErrorKind;
use utf8::ffi::utf8_status::*;
use utf8::ffi::{
    UTF8_REPLACE, UTF8_UTF16BE, UTF8_UTF16LE, UTF8_WTF8, utf8_length_from_utf16,
    utf8_length_from_utf16_flags, utf8_length_from_utf32, utf8_result, utf8_to_utf16,
    utf8_to_utf32, utf16_length_from_utf8, utf16_length_from_utf8_flags, utf16_to_utf8,
    utf32_length_from_utf8, utf32_to_utf8,
};
use utf8::internals::Isa;
use utf8::transcode::{Mode, Replacement};

fuzz_target!(|data: &[u8]| {
    let Some((&control, input)) = data.split_first() else {
        return;
    };
    let cap = 1 + usize::from(control >> 2);
    let wide = widen(data).unwrap_or_default();
    for bytes in [input, &wide[..]] {
        match control & 3 {
            0 => from_utf8(bytes, cap),
            1 => from_utf16(bytes, cap),
            _ => from_utf32(bytes, cap),
        }
    }
});

fn from_utf8(s: &[u8], cap: usize) {
    let lossy = String::from_utf8_lossy(s);
    let (good, status) = match core::str::from_utf8(s) {
        Ok(_) => (s.len(), UTF8_OK),
        Err(e) => {
            let at = e.valid_up_to();
            let kind = match e.error_len() {
                None => ErrorKind::Truncated,
                Some(_) => classify(&s[at..]),
            };
            (at, kind.into())
        }
    };
    let text = core::str::from_utf8(&s[..good]).expect("the valid prefix");
    let to16 = Expected {
        status,
        read: good,
        strict: text.encode_utf16().collect(),
        lossy: lossy.encode_utf16().collect(),
    };
    let to32 = Expected {
        status,
        read: good,
        strict: text.chars().map(u32::from).collect(),
        lossy: lossy.chars().map(u32::from).collect(),
    };
    // SAFETY: `s` is a live buffer of `s.len()` bytes.
    let (len16, len32) = unsafe {
        (
            utf16_length_from_utf8(s.as_ptr().cast(), s.len()),
            utf32_length_from_utf8(s.as_ptr().cast(), s.len()),
        )
    };
    assert_eq!(
        len16,
        to16.lossy.len(),
        "utf16_length_from_utf8({})",
        hex(s)
    );
    assert_eq!(
        len32,
        to32.lossy.len(),
        "utf32_length_from_utf8({})",
        hex(s)
    );
    check(
        "utf8_to_utf16",
        s,
        &to16,
        cap,
        Isa::utf8_to_utf16,
        |src, out, flags| {
            // SAFETY: `src` and `out` are live buffers of the lengths passed.
            unsafe {
                utf8_to_utf16(
                    src.as_ptr().cast(),
                    src.len(),
                    out.as_mut_ptr(),
                    out.len(),
                    flags,
                )
            }
        },
    );
    to_utf16_in_each_order(s, &to16);
    chunked_equals_whole(
        s,
        cap,
        &[
            0,
            UTF8_REPLACE,
            UTF8_WTF8,
            UTF8_REPLACE | UTF8_WTF8,
            UTF8_UTF16BE | UTF8_REPLACE,
        ],
        |src, out: &mut [u16], flags| {
            // SAFETY: `src` and `out` are live buffers of the lengths passed.
            unsafe {
                utf8_to_utf16(
                    src.as_ptr().cast(),
                    src.len(),
                    out.as_mut_ptr(),
                    out.len(),
                    flags,
                )
            }
        },
    );
    chunked_equals_whole(s, cap, &[0, UTF8_REPLACE], |src, out: &mut [u32], flags| {
        // SAFETY: `src` and `out` are live buffers of the lengths passed.
        unsafe {
            utf8_to_utf32(
                src.as_ptr().cast(),
                src.len(),
                out.as_mut_ptr(),
                out.len(),
                flags,
            )
        }
    });
    check(
        "utf8_to_utf32",
        s,
        &to32,
        cap,
        Isa::utf8_to_utf32,
        |src, out, flags| {
            // SAFETY: `src` and `out` are live buffers of the lengths passed.
            unsafe {
                utf8_to_utf32(
                    src.as_ptr().cast(),
                    src.len(),
                    out.as_mut_ptr(),
                    out.len(),
                    flags,
                )
            }
        },
    );
}

fn from_utf16(bytes: &[u8], cap: usize) {
    let units: Vec<u16> = bytes
        .chunks_exact(2)
        .map(|b| u16::from_le_bytes([b[0], b[1]]))
        .collect();
    let (mut strict, mut read, mut status) = (String::new(), 0, UTF8_OK);
    for item in char::decode_utf16(units.iter().copied()) {
        match item {
            Ok(c) => {
                strict.push(c);
                read += c.len_utf16();
            }
            Err(e) => {
                // A high surrogate that ends the input could be completed by more input.
                let high = (0xD800..=0xDBFF).contains(&e.unpaired_surrogate());
                status = if high && read + 1 == units.len() {
                    UTF8_ERR_TRUNCATED
                } else {
                    UTF8_ERR_SURROGATE
                };
                break;
            }
        }
    }
    let want = Expected {
        status,
        read,
        strict: strict.into_bytes(),
        lossy: String::from_utf16_lossy(&units).into_bytes(),
    };
    // SAFETY: `units` is a live buffer of `units.len()` units.
    let len = unsafe { utf8_length_from_utf16(units.as_ptr(), units.len()) };
    assert_eq!(len, want.lossy.len(), "utf8_length_from_utf16({units:X?})");
    check(
        "utf16_to_utf8",
        &units,
        &want,
        cap,
        Isa::utf16_to_utf8,
        |src, out, flags| {
            // SAFETY: `src` and `out` are live buffers of the lengths passed.
            unsafe {
                utf16_to_utf8(
                    src.as_ptr(),
                    src.len(),
                    out.as_mut_ptr().cast(),
                    out.len(),
                    flags,
                )
            }
        },
    );
    wtf8_round_trip(&units, len);
    from_utf16_in_each_order(&units, &want);
    let flags = [0, UTF8_REPLACE, UTF8_WTF8, UTF8_REPLACE | UTF8_WTF8];
    chunked_equals_whole(&units, cap, &flags, |src, out: &mut [u8], flags| {
        // SAFETY: `src` and `out` are live buffers of the lengths passed.
        unsafe {
            utf16_to_utf8(
                src.as_ptr(),
                src.len(),
                out.as_mut_ptr().cast(),
                out.len(),
                flags,
            )
        }
    });
}

/// The byte-order flags of the UTF-16 converters, and how the standard library puts a native
/// unit in that order.
const ORDERS: [(u32, fn(u16) -> u16); 2] = [(UTF8_UTF16BE, u16::to_be), (UTF8_UTF16LE, u16::to_le)];

/// utf8_to_utf16 with UTF8_UTF16BE and UTF8_UTF16LE, strict and with UTF8_REPLACE, into
/// exactly the lossy size: the oracle's units, each put in that order by the standard library;
/// the length function with that order's flag gives that size.
fn to_utf16_in_each_order(s: &[u8], want: &Expected<u16>) {
    for (order, put) in ORDERS {
        // SAFETY: `s` is live.
        let len = unsafe { utf16_length_from_utf8_flags(s.as_ptr().cast(), s.len(), order) };
        assert_eq!(
            len,
            want.lossy.len(),
            "utf16_length_from_utf8_flags({order:#x})"
        );
        for (flags, units, stop) in [
            (order, &want.strict, (want.status, want.read)),
            (order | UTF8_REPLACE, &want.lossy, (UTF8_OK, s.len())),
        ] {
            let mut out = vec![0u16; want.lossy.len()].into_boxed_slice();
            // SAFETY: `s` and `out` are live buffers of the lengths passed.
            let r = unsafe {
                utf8_to_utf16(
                    s.as_ptr().cast(),
                    s.len(),
                    out.as_mut_ptr(),
                    out.len(),
                    flags,
                )
            };
            let ordered: Vec<u16> = units.iter().map(|&u| put(u)).collect();
            assert_eq!(
                (r.status, r.read, &out[..r.written.min(out.len())]),
                (stop.0, stop.1, &ordered[..]),
                "utf8_to_utf16 flags {flags:#x} of {}",
                hex(s)
            );
        }
    }
}

/// utf16_to_utf8 of `units` put in each byte order by the standard library, with that order's
/// flag, strict and with UTF8_REPLACE, into exactly the lossy size: what the machine's order
/// gives; the length function with that order's flag gives that size.
fn from_utf16_in_each_order(units: &[u16], want: &Expected<u8>) {
    for (order, put) in ORDERS {
        let ordered: Vec<u16> = units.iter().map(|&u| put(u)).collect();
        // SAFETY: `ordered` is live.
        let len = unsafe { utf8_length_from_utf16_flags(ordered.as_ptr(), ordered.len(), order) };
        assert_eq!(
            len,
            want.lossy.len(),
            "utf8_length_from_utf16_flags({order:#x})"
        );
        for (flags, bytes, stop) in [
            (order, &want.strict, (want.status, want.read)),
            (order | UTF8_REPLACE, &want.lossy, (UTF8_OK, units.len())),
        ] {
            let mut out = vec![0u8; want.lossy.len()].into_boxed_slice();
            // SAFETY: `ordered` and `out` are live buffers of the lengths passed.
            let r = unsafe {
                utf16_to_utf8(
                    ordered.as_ptr(),
                    ordered.len(),
                    out.as_mut_ptr().cast(),
                    out.len(),
                    flags,
                )
            };
            assert_eq!(
                (r.status, r.read, &out[..r.written.min(out.len())]),
                (stop.0, stop.1, &bytes[..]),
                "utf16_to_utf8 flags {flags:#x} of {units:X?}"
            );
        }
    }
}

/// UTF-16 to WTF-8 (a lone surrogate in its three bytes, 1110xxxx 10xxxxxx 10xxxxxx, as Simon
/// Sapin's "The WTF-8 encoding" defines it) into exactly `len` bytes, then back to `units`:
/// through the C functions, then with every implementation the CPU supports.
fn wtf8_round_trip(units: &[u16], len: usize) {
    let mut want = Vec::new();
    for item in char::decode_utf16(units.iter().copied()) {
        match item {
            Ok(c) => want.extend_from_slice(c.to_string().as_bytes()),
            Err(e) => {
                let u = e.unpaired_surrogate();
                want.extend([
                    0xE0 | (u >> 12) as u8,
                    0x80 | ((u >> 6) & 0x3F) as u8,
                    0x80 | (u & 0x3F) as u8,
                ]);
            }
        }
    }
    wtf8_check(
        "C",
        units,
        len,
        &want,
        |units, out| {
            // SAFETY: `units` and `out` are live buffers of the lengths passed.
            unsafe {
                utf16_to_utf8(
                    units.as_ptr(),
                    units.len(),
                    out.as_mut_ptr().cast(),
                    out.len(),
                    UTF8_WTF8,
                )
            }
        },
        |wtf8, back| {
            // SAFETY: `wtf8` and `back` are live buffers of the lengths passed.
            unsafe {
                utf8_to_utf16(
                    wtf8.as_ptr().cast(),
                    wtf8.len(),
                    back.as_mut_ptr(),
                    back.len(),
                    UTF8_WTF8,
                )
            }
        },
    );
    let mode = Mode {
        replace: false,
        wtf8: true,
        more: false,
        replacement: Replacement::Fffd,
    };
    for isa in Isa::supported() {
        wtf8_check(
            isa.name(),
            units,
            len,
            &want,
            |units, out| {
                isa.utf16_to_utf8(units, out, mode)
                    .expect("supported")
                    .into()
            },
            |wtf8, back| {
                isa.utf8_to_utf16(wtf8, back, mode)
                    .expect("supported")
                    .into()
            },
        );
    }
}

/// `to_wtf8` of `units` into exactly `len` bytes must give `want`, and `from_wtf8` of that
/// `units` again; `by` names the implementation.
fn wtf8_check(
    by: &str,
    units: &[u16],
    len: usize,
    want: &[u8],
    to_wtf8: impl Fn(&[u16], &mut [u8]) -> utf8_result,
    from_wtf8: impl Fn(&[u8], &mut [u16]) -> utf8_result,
) {
    let mut wtf8 = vec![0u8; len].into_boxed_slice();
    let r = to_wtf8(units, &mut wtf8);
    assert_eq!(
        (r.status, r.read, r.written),
        (UTF8_OK, units.len(), want.len()),
        "WTF-8 of {units:X?} ({by})"
    );
    assert_eq!(&wtf8[..], want, "WTF-8 of {units:X?} ({by})");
    let mut back = vec![0u16; units.len()].into_boxed_slice();
    let r = from_wtf8(&wtf8, &mut back);
    assert_eq!(
        (r.status, r.read, r.written),
        (UTF8_OK, wtf8.len(), units.len()),
        "back from {} ({by})",
        hex(&wtf8)
    );
    assert_eq!(&back[..], units, "back from {} ({by})", hex(&wtf8));
}

fn from_utf32(bytes: &[u8], cap: usize) {
    let units: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        // Half the values in the scalar range, so that most inputs are not all errors.
        .map(|v| {
            if v & 0x8000_0000 != 0 {
                v & 0x1F_FFFF
            } else {
                v
            }
        })
        .collect();
    let (mut strict, mut lossy, mut status) = (String::new(), String::new(), UTF8_OK);
    let mut read = units.len();
    for (i, &v) in units.iter().enumerate() {
        let c = char::from_u32(v);
        lossy.push(c.unwrap_or('\u{FFFD}'));
        match c {
            Some(c) if status == UTF8_OK => strict.push(c),
            Some(_) => {}
            None if status == UTF8_OK => {
                status = if v > 0x10_FFFF {
                    UTF8_ERR_TOO_LARGE
                } else {
                    UTF8_ERR_SURROGATE
                };
                read = i;
            }
            None => {}
        }
    }
    let want = Expected {
        status,
        read,
        strict: strict.into_bytes(),
        lossy: lossy.into_bytes(),
    };
    // SAFETY: `units` is a live buffer of `units.len()` units.
    let len = unsafe { utf8_length_from_utf32(units.as_ptr(), units.len()) };
    assert_eq!(len, want.lossy.len(), "utf8_length_from_utf32({units:X?})");
    chunked_equals_whole(
        &units,
        cap,
        &[0, UTF8_REPLACE],
        |src, out: &mut [u8], flags| {
            // SAFETY: `src` and `out` are live buffers of the lengths passed.
            unsafe {
                utf32_to_utf8(
                    src.as_ptr(),
                    src.len(),
                    out.as_mut_ptr().cast(),
                    out.len(),
                    flags,
                )
            }
        },
    );
    check(
        "utf32_to_utf8",
        &units,
        &want,
        cap,
        Isa::utf32_to_utf8,
        |src, out, flags| {
            // SAFETY: `src` and `out` are live buffers of the lengths passed.
            unsafe {
                utf32_to_utf8(
                    src.as_ptr(),
                    src.len(),
                    out.as_mut_ptr().cast(),
                    out.len(),
                    flags,
                )
            }
        },
    );
}
