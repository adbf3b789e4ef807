//! The text functions of the C API against independent oracles: utf8_replace_invalid against
//! `String::from_utf8_lossy`; utf8_escape in both styles for terminal safety (valid UTF-8, no
//! control, DEL or bidirectional control, by `char` methods) and within the worst-case sizes
//! that the header's macros give, and utf8_unescape for the round trip of the C style;
//! utf8_unescape on the raw input (never longer than it); utf8_char_start and utf8_truncate
//! against the unit starts of `utf8_chunks`.
//!
//! Each input is checked as it is and widened (see `fuzz_common::widen`) so that the SIMD
//! validator finds the well-formed stretches; every buffer is exactly allocated for
//! AddressSanitizer.

#![no_main]

use core::ffi::c_char;
use core::ptr;

use fuzz_common::{exact_copy, hex, status, widen};
use libfuzzer_sys::fuzz_target;
use utf8::ffi::{
    EscapeStyleArg, utf8_char_start, utf8_escape, utf8_replace_invalid, utf8_truncate,
    utf8_unescape,
};

fuzz_target!(|data: &[u8]| {
    check(data);
    if let Some(wide) = widen(data) {
        check(&wide);
    }
});

type OutputFn<'a> = dyn Fn(*const c_char, usize, *mut c_char, usize, *mut usize) -> i32 + 'a;

/// Calls an output function with a size query, then with a buffer of exactly that size.
fn sized(s: &[u8], f: &OutputFn<'_>) -> Result<Vec<u8>, (i32, usize)> {
    let input = exact_copy(s);
    let mut needed = usize::MAX;
    let st = f(
        input.as_ptr().cast(),
        input.len(),
        ptr::null_mut(),
        0,
        &mut needed,
    );
    if st != status::OK && st != status::BUFFER_TOO_SMALL {
        return Err((st, needed));
    }
    assert_eq!(st == status::OK, needed == 0, "size query of {}", hex(s));
    let mut out = vec![0u8; needed].into_boxed_slice();
    let mut n = usize::MAX;
    let st = f(
        input.as_ptr().cast(),
        input.len(),
        out.as_mut_ptr().cast(),
        needed,
        &mut n,
    );
    assert_eq!((st, n), (status::OK, needed), "{}", hex(s));
    if needed > 0 {
        // One byte short: refused, with the same size.
        let mut short = vec![0u8; needed - 1].into_boxed_slice();
        let st = f(
            input.as_ptr().cast(),
            input.len(),
            short.as_mut_ptr().cast(),
            needed - 1,
            &mut n,
        );
        assert_eq!((st, n), (status::BUFFER_TOO_SMALL, needed), "{}", hex(s));
    }
    Ok(out.into_vec())
}

fn escape(s: &[u8], style: i32) -> Vec<u8> {
    // SAFETY: `sized` passes live buffers of the lengths it gives.
    sized(
        s,
        &|i, l, o, c, n| unsafe { utf8_escape(i, l, EscapeStyleArg(style), o, c, n) } as i32,
    )
    .expect("escape never fails")
}

fn unescape(s: &[u8]) -> Result<Vec<u8>, (i32, usize)> {
    // SAFETY: `sized` passes live buffers of the lengths it gives.
    sized(s, &|i, l, o, c, n| unsafe { utf8_unescape(i, l, o, c, n) }
        as i32)
}

fn assert_terminal_safe(out: &[u8], s: &[u8]) {
    let text =
        core::str::from_utf8(out).unwrap_or_else(|_| panic!("not UTF-8: escape of {}", hex(s)));
    for c in text.chars() {
        let bidi = matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}');
        assert!(
            !c.is_control() && !bidi,
            "{c:?} in the escape of {}",
            hex(s)
        );
    }
}

fn check(s: &[u8]) {
    // SAFETY: `sized` passes live buffers of the lengths it gives.
    let lossy = sized(
        s,
        &|i, l, o, c, n| unsafe { utf8_replace_invalid(i, l, o, c, n) } as i32,
    );
    assert_eq!(
        lossy.as_deref(),
        Ok(String::from_utf8_lossy(s).as_bytes()),
        "{}",
        hex(s)
    );

    let c = escape(s, 0);
    assert_terminal_safe(&c, s);
    assert_eq!(unescape(&c).as_deref(), Ok(s), "round trip of {}", hex(s));
    let shell = escape(s, 1);
    assert_terminal_safe(&shell, s);
    // The header's UTF8_ESCAPE_C_MAX_LEN and UTF8_ESCAPE_SHELL_MAX_LEN, as libutf8(3) states
    // them: 4 per byte; 2 + 4 per byte + 3 per two bytes, rounded up.
    assert!(
        c.len() <= 4 * s.len(),
        "C escape of {} past its bound",
        hex(s)
    );
    let shell_bound = 2 + 4 * s.len() + 3 * s.len().div_ceil(2);
    assert!(
        shell.len() <= shell_bound,
        "shell escape of {} past its bound",
        hex(s)
    );
    match unescape(s) {
        Ok(out) => assert!(out.len() <= s.len(), "unescape of {} grew", hex(s)),
        Err((st, at)) => {
            assert_eq!(st, status::INVALID_ESCAPE);
            assert_eq!(
                s.get(at),
                Some(&b'\\'),
                "bad escape reported at {at} of {}",
                hex(s)
            );
        }
    }

    let input = exact_copy(s);
    let starts = testkit::unit_starts(s);
    for i in 0..=s.len() {
        let want = starts.get(i).copied().unwrap_or(s.len());
        // SAFETY: `input` is a live buffer of `s.len()` bytes.
        let (start, cut) = unsafe {
            (
                utf8_char_start(input.as_ptr().cast(), input.len(), i),
                utf8_truncate(input.as_ptr().cast(), input.len(), i),
            )
        };
        assert_eq!(
            (start, cut),
            (want, want),
            "char_start/truncate at {i} of {}",
            hex(s)
        );
    }
}
