//! `utf8::encode` and the C `utf8_encode`, against `char::from_u32` and `char::encode_utf8`,
//! for the 32-bit values the input holds (four bytes each, little-endian), each also with its
//! top 11 bits cleared so that about half the values are scalar values.
//!
//! The C function is called with every capacity from 0 to 5, in arrays of exactly that size
//! (AddressSanitizer's redzones catch a write past the end), with and without `out_len`, and
//! must behave as libutf8.h documents: the encoding and its length; or BUFFER_TOO_SMALL with
//! the length needed and the buffer untouched; or SURROGATE / TOO_LARGE with length 0 and the
//! buffer untouched; `(NULL, 0)` is a size query; NULL with a capacity is NULL_POINTER.

#![no_main]

use core::ptr;

use fuzz_common::status;
use libfuzzer_sys::fuzz_target;
use utf8::ErrorKind;
use utf8::ffi::utf8_encode;

/// What the buffer holds before the call: bytes the call must leave alone.
const UNTOUCHED: u8 = 0xA5;

fuzz_target!(|data: &[u8]| {
    for word in data.chunks_exact(4) {
        let v = u32::from_le_bytes(word.try_into().expect("four bytes"));
        check(v);
        check(v & 0x1F_FFFF);
    }
});

fn check(v: u32) {
    let mut buf = [0u8; 4];
    let expected: Result<&[u8], ErrorKind> = match char::from_u32(v) {
        Some(c) => Ok(c.encode_utf8(&mut buf).as_bytes()),
        None if (0xD800..=0xDFFF).contains(&v) => Err(ErrorKind::Surrogate),
        None => Err(ErrorKind::TooLarge),
    };
    let encoded = utf8::encode(v);
    assert_eq!(
        encoded.as_ref().map(|e| e.as_bytes()).map_err(|k| *k),
        expected,
        "encode({v:#X})"
    );

    // The encoding decodes back to v and is valid.
    if let Ok(bytes) = expected {
        assert_eq!(
            utf8::decode_next(bytes),
            Ok((v, bytes.len())),
            "decode(encode({v:#X}))"
        );
        assert_eq!(utf8::validate(bytes), Ok(()), "validate(encode({v:#X}))");
    }

    // What utf8_encode must do, given the capacity: (status, *out_len, bytes written).
    let want = |cap: usize| -> (i32, usize, &[u8]) {
        match expected {
            Err(ErrorKind::Surrogate) => (status::SURROGATE, 0, &[]),
            Err(_) => (status::TOO_LARGE, 0, &[]),
            Ok(bytes) if bytes.len() > cap => (status::BUFFER_TOO_SMALL, bytes.len(), &[]),
            Ok(bytes) => (status::OK, bytes.len(), bytes),
        }
    };
    check_c::<1>(v, want(1));
    check_c::<2>(v, want(2));
    check_c::<3>(v, want(3));
    check_c::<4>(v, want(4));
    check_c::<5>(v, want(5));

    // Capacity 0: a size query with NULL, and nothing written through a real pointer.
    let (want_status, want_len, _) = want(0);
    for with_buffer in [false, true] {
        let mut one = [UNTOUCHED];
        let out = if with_buffer {
            one.as_mut_ptr().cast()
        } else {
            ptr::null_mut()
        };
        let mut out_len = usize::MAX;
        // SAFETY: a capacity of 0 claims no byte of `out`; `out_len` is writable.
        let st = unsafe { utf8_encode(v, out, 0, &mut out_len) };
        assert_eq!(
            (st as i32, out_len, one[0]),
            (want_status, want_len, UNTOUCHED),
            "utf8_encode({v:#X}, {}, 0)",
            if with_buffer { "buffer" } else { "NULL" }
        );
    }

    // NULL with a capacity: refused, out_len untouched.
    let mut out_len = usize::MAX;
    // SAFETY: NULL with a non-zero capacity is documented to be refused untouched.
    let st = unsafe { utf8_encode(v, ptr::null_mut(), 4, &mut out_len) };
    assert_eq!(
        (st as i32, out_len),
        (status::NULL_POINTER, usize::MAX),
        "utf8_encode({v:#X}, NULL, 4)"
    );
}

/// `utf8_encode(v, out, CAP, &out_len)` with `out` an array of exactly `CAP` bytes, and again
/// with a NULL `out_len`: `(status, *out_len, bytes written)` must be `want`, and the rest of
/// the array untouched.
fn check_c<const CAP: usize>(v: u32, want: (i32, usize, &[u8])) {
    let (want_status, want_len, want_written) = want;
    for with_out_len in [true, false] {
        let mut out = [UNTOUCHED; CAP];
        let mut out_len = usize::MAX;
        let out_len_ptr = if with_out_len {
            &raw mut out_len
        } else {
            ptr::null_mut()
        };
        // SAFETY: `out` is CAP writable bytes; `out_len_ptr` is NULL or writable.
        let st = unsafe { utf8_encode(v, out.as_mut_ptr().cast(), CAP, out_len_ptr) };
        let got_len = if with_out_len { out_len } else { want_len };
        assert_eq!(
            (st as i32, got_len),
            (want_status, want_len),
            "utf8_encode({v:#X}, cap {CAP}): status, *out_len (out_len given: {with_out_len})"
        );
        let (written, rest) = out.split_at(want_written.len());
        assert_eq!(
            written, want_written,
            "utf8_encode({v:#X}, cap {CAP}): bytes written"
        );
        assert!(
            rest.iter().all(|&b| b == UNTOUCHED),
            "utf8_encode({v:#X}, cap {CAP}): wrote past the encoding: {out:02X?}"
        );
    }
}
