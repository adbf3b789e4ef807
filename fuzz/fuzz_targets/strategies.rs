//! The replacement strategies (UTF8_SURROGATEESCAPE, UTF8_FALLBACK_LATIN1,
//! UTF8_FALLBACK_CP1252) against the standard library: `core::str::from_utf8` walks the input
//! (its `valid_up_to` and `error_len` give the maximal subparts) and each byte of an error is
//! mapped by the strategy's rule (U+DC80 + b - 0x80; `b as char`; testkit's Windows-1252).
//! Through the C functions (the implementation the library picks) and `Isa`'s converters for
//! every implementation the CPU supports: utf8_to_utf16 and utf8_to_utf32 into an output of
//! exactly the size the `_flags` length functions give, and resumed through a small capacity
//! (the input's first byte chooses it), which must give the same output; the round trip of
//! every input through UTF-16 and UTF-32 with UTF8_SURROGATEESCAPE, and the sizes its way back
//! needs; utf8_replace_invalid_flags with each fallback.

#![no_main]

use core::ptr;

use fuzz_common::{exact_copy, hex};
use libfuzzer_sys::fuzz_target;
use utf8::ffi::utf8_status::*;
use utf8::ffi::{
    UTF8_FALLBACK_CP1252, UTF8_FALLBACK_LATIN1, UTF8_SURROGATEESCAPE, utf8_length_from_utf16_flags,
    utf8_length_from_utf32_flags, utf8_replace_invalid_flags, utf8_to_utf16, utf8_to_utf32,
    utf16_length_from_utf8_flags, utf16_to_utf8, utf32_length_from_utf8_flags, utf32_to_utf8,
};
use utf8::internals::Isa;
use utf8::transcode::{Mode, Replacement};

fuzz_target!(|data: &[u8]| {
    let cap = data.first().map_or(1, |&b| 1 + usize::from(b % 7));
    let s = exact_copy(data.get(1..).unwrap_or_default());
    for (r, flag) in [
        (Replacement::Escape, UTF8_SURROGATEESCAPE),
        (Replacement::Latin1, UTF8_FALLBACK_LATIN1),
        (Replacement::Cp1252, UTF8_FALLBACK_CP1252),
    ] {
        check(&s, r, flag, cap);
    }
});

/// The code points (lone surrogates included) that strategy `r` makes of `s`, by testkit's
/// oracle: the standard library's maximal subparts, each byte mapped by the strategy's rule.
fn oracle(s: &[u8], r: Replacement) -> Vec<u32> {
    let fallback = match r {
        Replacement::Escape => testkit::Fallback::Escape,
        Replacement::Latin1 => testkit::Fallback::Latin1,
        Replacement::Cp1252 => testkit::Fallback::Cp1252,
        Replacement::Fffd => unreachable!("U+FFFD is no strategy of these tests"),
    };
    testkit::fallback_code_points(s, fallback)
}

/// The whole output of `convert` resumed through buffers of `cap` units (one more when not
/// even one unit fits), and whether it ended well.
fn resumed<T: Copy + Default>(
    s: &[u8],
    cap: usize,
    convert: impl Fn(&[u8], &mut [T]) -> (i32, usize, usize),
) -> (Vec<T>, i32) {
    let (mut out, mut read, mut cap) = (Vec::new(), 0, cap);
    loop {
        let mut buf = vec![T::default(); cap];
        let (status, r, w) = convert(&s[read..], &mut buf);
        out.extend_from_slice(&buf[..w]);
        read += r;
        if status != UTF8_ERR_BUFFER_TOO_SMALL as i32 {
            assert_eq!(read, s.len());
            return (out, status);
        }
        if w == 0 {
            cap += 1;
        }
    }
}

fn check(s: &[u8], r: Replacement, flag: u32, cap: usize) {
    let cps = oracle(s, r);
    let want16 = testkit::utf16_of_code_points(&cps);
    // SAFETY: `s` is live.
    let (len16, len32) = unsafe {
        (
            utf16_length_from_utf8_flags(s.as_ptr().cast(), s.len(), flag),
            utf32_length_from_utf8_flags(s.as_ptr().cast(), s.len(), flag),
        )
    };
    assert_eq!(
        (len16, len32),
        (want16.len(), cps.len()),
        "lengths of {}",
        hex(s)
    );
    let c16 = |src: &[u8], out: &mut [u16]| {
        // SAFETY: the slices are live.
        let r = unsafe {
            utf8_to_utf16(
                src.as_ptr().cast(),
                src.len(),
                out.as_mut_ptr(),
                out.len(),
                flag,
            )
        };
        (r.status as i32, r.read, r.written)
    };
    let c32 = |src: &[u8], out: &mut [u32]| {
        // SAFETY: the slices are live.
        let r = unsafe {
            utf8_to_utf32(
                src.as_ptr().cast(),
                src.len(),
                out.as_mut_ptr(),
                out.len(),
                flag,
            )
        };
        (r.status as i32, r.read, r.written)
    };
    for cap in [len16, cap] {
        assert_eq!(
            resumed(s, cap, c16),
            (want16.clone(), 0),
            "{r:?} UTF-16 of {}",
            hex(s)
        );
    }
    for cap in [len32, cap] {
        assert_eq!(
            resumed(s, cap, c32),
            (cps.clone(), 0),
            "{r:?} UTF-32 of {}",
            hex(s)
        );
    }
    let mode = Mode {
        replacement: r,
        ..Mode::default()
    };
    for isa in Isa::supported() {
        let mut out16 = vec![0u16; want16.len()];
        let p = isa.utf8_to_utf16(s, &mut out16, mode).unwrap();
        assert_eq!(
            (p.stop, out16 == want16),
            (None, true),
            "{} {r:?} {}",
            isa.name(),
            hex(s)
        );
        let mut out32 = vec![0u32; cps.len()];
        let p = isa.utf8_to_utf32(s, &mut out32, mode).unwrap();
        assert_eq!(
            (p.stop, out32 == cps),
            (None, true),
            "{} {r:?} {}",
            isa.name(),
            hex(s)
        );
        if r == Replacement::Escape {
            let mut back = vec![0u8; s.len()];
            let p = isa.utf16_to_utf8(&want16, &mut back, mode).unwrap();
            assert_eq!(
                (p.stop, &back[..]),
                (None, s),
                "{} back from UTF-16",
                isa.name()
            );
            let p = isa.utf32_to_utf8(&cps, &mut back, mode).unwrap();
            assert_eq!(
                (p.stop, &back[..]),
                (None, s),
                "{} back from UTF-32",
                isa.name()
            );
        }
    }
    if r == Replacement::Escape {
        let units16 = exact_copy_units(&want16);
        let units32 = exact_copy_units(&cps);
        // SAFETY: the units are live.
        let (n16, n32) = unsafe {
            (
                utf8_length_from_utf16_flags(units16.as_ptr(), units16.len(), flag),
                utf8_length_from_utf32_flags(units32.as_ptr(), units32.len(), flag),
            )
        };
        assert_eq!((n16, n32), (s.len(), s.len()), "sizes back of {}", hex(s));
        let mut back = vec![0u8; s.len()];
        // SAFETY: the buffers are live.
        let (b16, b32) = unsafe {
            let b16 = utf16_to_utf8(
                units16.as_ptr(),
                units16.len(),
                back.as_mut_ptr().cast(),
                back.len(),
                flag,
            );
            let first = back.clone();
            let b32 = utf32_to_utf8(
                units32.as_ptr(),
                units32.len(),
                back.as_mut_ptr().cast(),
                back.len(),
                flag,
            );
            assert_eq!(first, s, "back from UTF-16 of {}", hex(s));
            (b16, b32)
        };
        assert_eq!((b16.status, b16.written), (UTF8_OK, s.len()));
        assert_eq!((b32.status, b32.written, &back[..]), (UTF8_OK, s.len(), s));
    } else {
        let want: String = cps.iter().map(|&c| char::from_u32(c).unwrap()).collect();
        let mut n = usize::MAX;
        // SAFETY: a size query.
        unsafe {
            utf8_replace_invalid_flags(s.as_ptr().cast(), s.len(), ptr::null_mut(), 0, flag, &mut n)
        };
        assert_eq!(n, want.len(), "size of the repair of {}", hex(s));
        let mut out = vec![0u8; n];
        // SAFETY: `out` has `n` bytes.
        let st = unsafe {
            utf8_replace_invalid_flags(
                s.as_ptr().cast(),
                s.len(),
                out.as_mut_ptr().cast(),
                n,
                flag,
                &mut n,
            )
        };
        assert_eq!(
            (st, &out[..]),
            (UTF8_OK, want.as_bytes()),
            "repair of {}",
            hex(s)
        );
    }
}

/// A copy of `units` in an allocation of exactly their size.
fn exact_copy_units<T: Copy>(units: &[T]) -> Box<[T]> {
    units.to_vec().into_boxed_slice()
}
