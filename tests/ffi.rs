//! The C API called from Rust: pointer handling, out-parameters and static strings. The C
//! harness (c-tests/test_api.c) covers the same ground from C; these also run under Miri.

use core::ffi::{CStr, c_char};
use core::ptr;
use utf8::ffi::utf8_status::{self, *};
use utf8::ffi::{utf8_decode_next, utf8_encode, utf8_status_str, utf8_validate, utf8_version};

const SENTINEL: usize = 0xDEAD;

fn text(s: &[u8]) -> *const c_char {
    s.as_ptr().cast()
}

#[test]
fn null_with_zero_length_is_the_empty_input() {
    let mut at = SENTINEL;
    let (mut cp, mut n) = (0u32, SENTINEL);
    // SAFETY: (NULL, 0) is a valid empty buffer; the out-parameters are live locals.
    unsafe {
        assert_eq!(utf8_validate(ptr::null(), 0, &mut at), UTF8_OK);
        assert_eq!(
            utf8_decode_next(ptr::null(), 0, &mut cp, &mut n),
            UTF8_ERR_TRUNCATED
        );
    }
    assert_eq!((at, cp, n), (0, 0xFFFD, 0));
}

#[test]
fn null_with_a_length_touches_nothing() {
    let mut at = SENTINEL;
    let (mut cp, mut n) = (7u32, SENTINEL);
    let mut out_len = SENTINEL;
    // SAFETY: a NULL buffer with a length is refused before any access; out-params are locals.
    unsafe {
        assert_eq!(
            utf8_validate(ptr::null(), 5, &mut at),
            UTF8_ERR_NULL_POINTER
        );
        assert_eq!(
            utf8_decode_next(ptr::null(), 5, &mut cp, &mut n),
            UTF8_ERR_NULL_POINTER
        );
        assert_eq!(
            utf8_encode(0x41, ptr::null_mut(), 4, &mut out_len),
            UTF8_ERR_NULL_POINTER
        );
    }
    assert_eq!((at, cp, n, out_len), (SENTINEL, 7, SENTINEL, SENTINEL));
}

#[test]
fn out_parameters_may_be_null() {
    let s = b"\xE2\x82\xAC\xC0";
    let mut out = [0u8; 4];
    // SAFETY: `s` and `out` are live buffers of the lengths given; NULL out-params are allowed.
    unsafe {
        assert_eq!(
            utf8_validate(text(s), s.len(), ptr::null_mut()),
            UTF8_ERR_OVERLONG
        );
        assert_eq!(
            utf8_decode_next(text(s), s.len(), ptr::null_mut(), ptr::null_mut()),
            UTF8_OK
        );
        assert_eq!(
            utf8_encode(0x20AC, out.as_mut_ptr().cast(), 4, ptr::null_mut()),
            UTF8_OK
        );
    }
    assert_eq!(&out[..3], b"\xE2\x82\xAC"); // the Euro sign, RFC 3629 / encyclopedia example
}

#[test]
fn encode_reports_the_size_needed_and_writes_nothing_when_short() {
    // (value, RFC 3629 encoding)
    let cases: [(u32, &[u8]); 4] = [
        (0x24, b"\x24"),
        (0xA2, b"\xC2\xA2"),
        (0x20AC, b"\xE2\x82\xAC"),
        (0x10348, b"\xF0\x90\x8D\x88"),
    ];
    for (cp, bytes) in cases {
        for cap in 0..bytes.len() {
            let mut out = [0x55u8; 4];
            let mut n = SENTINEL;
            // SAFETY: `out` holds 4 >= cap writable bytes.
            let status = unsafe { utf8_encode(cp, out.as_mut_ptr().cast(), cap, &mut n) };
            assert_eq!(
                (status, n, out),
                (UTF8_ERR_BUFFER_TOO_SMALL, bytes.len(), [0x55; 4])
            );
        }
        let mut n = SENTINEL;
        // SAFETY: (NULL, 0) is the documented size query.
        let status = unsafe { utf8_encode(cp, ptr::null_mut(), 0, &mut n) };
        assert_eq!((status, n), (UTF8_ERR_BUFFER_TOO_SMALL, bytes.len()));
    }
}

#[test]
fn encode_refuses_surrogates_and_large_values_whatever_the_buffer() {
    for (cp, expected) in [
        (0xD800, UTF8_ERR_SURROGATE),
        (0xDFFF, UTF8_ERR_SURROGATE),
        (0x11_0000, UTF8_ERR_TOO_LARGE),
    ] {
        for cap in [0, 4] {
            let mut out = [0x55u8; 4];
            let mut n = SENTINEL;
            // SAFETY: `out` holds 4 >= cap writable bytes.
            let status = unsafe { utf8_encode(cp, out.as_mut_ptr().cast(), cap, &mut n) };
            assert_eq!(
                (status, n, out),
                (expected, 0, [0x55; 4]),
                "U+{cp:04X} cap {cap}"
            );
        }
    }
}

#[test]
fn every_status_has_its_own_description_and_unknown_values_have_one_too() {
    let descriptions: Vec<&CStr> = (-13..=0)
        // SAFETY: utf8_status_str returns a static NUL-terminated string for every int.
        .map(|s| unsafe { CStr::from_ptr(utf8_status_str(s)) })
        .collect();
    for (i, d) in descriptions.iter().enumerate() {
        assert!(!d.is_empty());
        assert!(
            descriptions[..i].iter().all(|other| other != d),
            "{d:?} is not unique"
        );
    }
    for unknown in [1, 42, -14, i32::MIN, i32::MAX] {
        // SAFETY: as above.
        let d = unsafe { CStr::from_ptr(utf8_status_str(unknown)) };
        assert_eq!(d, c"unknown status");
    }
}

/// The status values are ABI: a program compiled against one version's header must get the same
/// numbers from another version's library. Written by hand, in the order of the table of
/// libutf8(3), STATUS CODES.
#[test]
fn status_values_are_the_documented_ones() {
    let documented: [(utf8_status, i32); 14] = [
        (UTF8_OK, 0),
        (UTF8_ERR_UNEXPECTED_CONTINUATION, -2),
        (UTF8_ERR_OVERLONG, -4),
        (UTF8_ERR_SURROGATE, -5),
        (UTF8_ERR_TOO_LARGE, -6),
        (UTF8_ERR_INVALID_BYTE, -7),
        (UTF8_ERR_MISSING_CONTINUATION, -3),
        (UTF8_ERR_TRUNCATED, -1),
        (UTF8_ERR_BUFFER_TOO_SMALL, -8),
        (UTF8_ERR_NULL_POINTER, -9),
        (UTF8_ERR_INVALID_ARGUMENT, -10),
        (UTF8_ERR_INVALID_ESCAPE, -11),
        (UTF8_ERR_UNREPRESENTABLE, -12),
        (UTF8_ERR_UNSUPPORTED_STRATEGY, -13),
    ];
    for (status, value) in documented {
        assert_eq!(status as i32, value, "{status:?}");
    }
    // The psABIs of the supported targets (x86-64 System V, AArch64 AAPCS64) give a C enum
    // whose values all fit an int the size of an int: so must the Rust side.
    assert_eq!(size_of::<utf8_status>(), size_of::<core::ffi::c_int>());
}

/// The committed header, read when the test is compiled (so also under Miri's isolation).
const HEADER: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/include/libutf8.h"));

/// The value of `#define name value` in the header.
fn header_define(name: &str) -> &'static str {
    let mut values = HEADER.lines().filter_map(|line| {
        let rest = line.strip_prefix("#define ")?.trim_start();
        let (macro_name, value) = rest.split_once(char::is_whitespace)?;
        (macro_name == name).then(|| value.trim())
    });
    let value = values
        .next()
        .unwrap_or_else(|| panic!("no #define {name} in the header"));
    assert_eq!(values.next(), None, "#define {name} twice in the header");
    value
}

/// utf8_version() is what the header's LIBUTF8_VERSION_* macros say, as libutf8(3) tells C
/// programs to check: a header not regenerated after a version bump fails here.
#[test]
#[cfg_attr(
    miri,
    ignore = "reads the whole header: slow interpreted, and no unsafe code beyond a static string"
)]
fn version_is_the_headers_version() {
    let [major, minor, patch] = ["MAJOR", "MINOR", "PATCH"].map(|part| {
        let value = header_define(&format!("LIBUTF8_VERSION_{part}"));
        value
            .parse::<u32>()
            .unwrap_or_else(|_| panic!("LIBUTF8_VERSION_{part} is {value:?}"))
    });
    // SAFETY: utf8_version returns a static NUL-terminated string.
    let v = unsafe { CStr::from_ptr(utf8_version()) };
    assert_eq!(v.to_str(), Ok(format!("{major}.{minor}.{patch}").as_str()));
}
