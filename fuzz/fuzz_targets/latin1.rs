//! The converters between Latin-1 or Windows-1252 and UTF-8 (latin1_to_utf8, cp1252_to_utf8,
//! utf8_to_latin1) and their length functions, through the C API and each implementation the
//! CPU supports, against the standard library: ISO-8859-1 is `b as char`, byte for byte;
//! Windows-1252 is the same but for 0x80..0x9F, read in testkit's copy of the WHATWG index
//! (`testkit::windows_1252`); UTF-8 into Latin-1 is `core::str::from_utf8`'s valid prefix, each
//! character made a byte by `u8::try_from`, stopping at the first character above U+00FF
//! (UTF8_ERR_UNREPRESENTABLE) or at the first ill-formed sequence (its class, or
//! UTF8_ERR_TRUNCATED at the end), and with UTF8_REPLACE `String::from_utf8_lossy` with `?` for
//! each character above U+00FF, as Python's 'replace' (`testkit::utf8_to_latin1_lossy`).
//!
//! The first byte of the input chooses a small output capacity (its low six bits) and the
//! inputs made of the rest: the rest as it is and widened to several SIMD blocks
//! (`fuzz_common::widen`); with bit 6 set, also after a run of ASCII of 1 to 2 KiB, which the
//! kernels copy in runs of their own, and with bit 7 as well, that repeated to more than 32 KiB,
//! where the AVX-512 loops change (`copies_ascii_runs`). Each input is read as Latin-1 and as
//! Windows-1252, and as UTF-8 into Latin-1; so is the UTF-8 the oracle makes of it from each
//! (well-formed, the first with every character in Latin-1, the second with some above it).
//! Every conversion runs as `transcode`'s do (`fuzz_common::convert`): strict and with
//! UTF8_REPLACE into exactly the size the length function gives (AddressSanitizer catches a
//! write past it), resumed through the small capacity (at least a 32nd of the input, so that
//! long inputs stay quick), and in chunks with UTF8_MORE on all but the last.

#![no_main]

use core::ffi::c_char;
use std::sync::OnceLock;

use fuzz_common::convert::{Expected, IsaConverter, check, check_one, chunked_equals_whole};
use fuzz_common::{classify, hex, widen};
use libfuzzer_sys::fuzz_target;
use utf8::ErrorKind;
use utf8::ffi::utf8_status::*;
use utf8::ffi::{
    UTF8_REPLACE, cp1252_to_utf8, latin1_length_from_utf8, latin1_to_utf8, utf8_length_from_cp1252,
    utf8_length_from_latin1, utf8_result, utf8_to_latin1,
};
use utf8::internals::Isa;

/// The length of input past which the AVX-512 converters run the loops of large inputs.
const LARGE: usize = 32 * 1024 + 1;

fuzz_target!(|data: &[u8]| {
    let Some((&control, rest)) = data.split_first() else {
        return;
    };
    let cap = 1 + usize::from(control & 0x3F);
    // Each input, and whether to check every implementation on it (the large one, which only
    // AVX-512 converts another way, runs through the C API alone, to keep the target quick).
    let mut inputs = vec![
        (rest.to_vec(), true),
        (widen(data).unwrap_or_default().into_vec(), true),
    ];
    if control & 0x40 != 0 {
        let mut run = vec![b'x'; 1024 + 16 * cap];
        run.extend_from_slice(rest);
        if control & 0x80 != 0 {
            let unit = run.clone();
            while run.len() < LARGE {
                run.extend_from_slice(&unit);
            }
        }
        let every = run.len() < LARGE;
        inputs.push((run, every));
    }
    for (input, every) in inputs {
        // In an allocation of exactly its length, for AddressSanitizer.
        let input = input.into_boxed_slice();
        let cap = cap.max(input.len() / 32);
        let from_latin1 = testkit::latin1_to_utf8(&input);
        let from_cp1252 = windows_1252_to_utf8(&input);
        from_single_byte(&input, cap, every, &from_latin1, &from_cp1252);
        for utf8 in [&input[..], &from_latin1, &from_cp1252] {
            to_latin1(&utf8.to_vec().into_boxed_slice(), cap, every);
        }
    }
});

/// A converter of the C API with the signature these three share.
type Converter = unsafe extern "C" fn(*const c_char, usize, *mut c_char, usize, u32) -> utf8_result;

/// The C converter `f` called on slices, as `fuzz_common::convert`'s checks call converters.
fn c_api(f: Converter) -> impl Fn(&[u8], &mut [u8], u32) -> utf8_result + Copy {
    move |src, out, flags| {
        // SAFETY: `src` and `out` are live buffers of the lengths passed.
        unsafe {
            f(
                src.as_ptr().cast(),
                src.len(),
                out.as_mut_ptr().cast(),
                out.len(),
                flags,
            )
        }
    }
}

/// The UTF-8 of `s` read as Windows-1252: `testkit::windows_1252` of each byte, looked up in a
/// table made of it once (its own search of the index, traced by the fuzzer's instrumentation,
/// took most of the time of a large input).
fn windows_1252_to_utf8(s: &[u8]) -> Vec<u8> {
    static TABLE: OnceLock<[char; 256]> = OnceLock::new();
    let table = TABLE.get_or_init(|| core::array::from_fn(|b| testkit::windows_1252(b as u8)));
    s.iter()
        .map(|&b| table[usize::from(b)])
        .collect::<String>()
        .into_bytes()
}

/// `check` with every implementation, or `check_one` through the C API alone.
fn check_with(
    every: bool,
    name: &str,
    src: &[u8],
    want: &Expected<u8>,
    cap: usize,
    by_isa: IsaConverter<u8, u8>,
    c: impl Fn(&[u8], &mut [u8], u32) -> utf8_result,
) {
    if every {
        check(name, src, want, cap, by_isa, c);
    } else {
        check_one(name, src, want, cap, c);
    }
}

/// latin1_to_utf8 and cp1252_to_utf8 of `s`, whose UTF-8 is `latin1` and `cp1252`, and their
/// length functions. Every byte string is valid input: UTF8_REPLACE changes nothing.
fn from_single_byte(s: &[u8], cap: usize, every: bool, latin1: &[u8], cp1252: &[u8]) {
    // SAFETY: `s` is a live buffer of `s.len()` bytes.
    let lengths = unsafe {
        (
            utf8_length_from_latin1(s.as_ptr().cast(), s.len()),
            utf8_length_from_cp1252(s.as_ptr().cast(), s.len()),
        )
    };
    assert_eq!(
        lengths,
        (latin1.len(), cp1252.len()),
        "utf8_length_from_latin1 and _cp1252 of {}",
        hex(s)
    );
    let whole = |utf8: &[u8]| Expected {
        status: UTF8_OK,
        read: s.len(),
        strict: utf8.to_vec(),
        lossy: utf8.to_vec(),
    };
    check_with(
        every,
        "latin1_to_utf8",
        s,
        &whole(latin1),
        cap,
        |isa: Isa, src: &[u8], out: &mut [u8], _| isa.latin1_to_utf8(src, out),
        c_api(latin1_to_utf8),
    );
    check_with(
        every,
        "cp1252_to_utf8",
        s,
        &whole(cp1252),
        cap,
        |isa: Isa, src: &[u8], out: &mut [u8], _| isa.cp1252_to_utf8(src, out),
        c_api(cp1252_to_utf8),
    );
    chunked_equals_whole(s, cap, &[0], c_api(latin1_to_utf8));
    chunked_equals_whole(s, cap, &[0], c_api(cp1252_to_utf8));
}

/// utf8_to_latin1 of `s` and latin1_length_from_utf8.
fn to_latin1(s: &[u8], cap: usize, every: bool) {
    let (valid, status) = match core::str::from_utf8(s) {
        Ok(text) => (text, UTF8_OK),
        Err(e) => {
            let at = e.valid_up_to();
            let kind = match e.error_len() {
                None => ErrorKind::Truncated,
                Some(_) => classify(&s[at..]),
            };
            let text = core::str::from_utf8(&s[..at]).expect("the valid prefix");
            (text, kind.into())
        }
    };
    // The characters up to the first above U+00FF, which stops the conversion before the error.
    let mut want = Expected {
        status,
        read: valid.len(),
        strict: Vec::new(),
        lossy: testkit::utf8_to_latin1_lossy(s),
    };
    for (at, c) in valid.char_indices() {
        let Ok(b) = u8::try_from(c) else {
            (want.status, want.read) = (UTF8_ERR_UNREPRESENTABLE, at);
            break;
        };
        want.strict.push(b);
    }
    // SAFETY: `s` is a live buffer of `s.len()` bytes.
    let len = unsafe { latin1_length_from_utf8(s.as_ptr().cast(), s.len()) };
    assert_eq!(len, want.lossy.len(), "latin1_length_from_utf8({})", hex(s));
    let call = c_api(utf8_to_latin1);
    check_with(
        every,
        "utf8_to_latin1",
        s,
        &want,
        cap,
        Isa::utf8_to_latin1,
        call,
    );
    chunked_equals_whole(s, cap, &[0, UTF8_REPLACE], call);
}
