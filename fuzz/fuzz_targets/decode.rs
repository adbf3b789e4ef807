//! `utf8::decode_next` and the C `utf8_decode_next`, step by step over the input, against
//! `core::str::from_utf8` and the classification table at each step; the decoding loop that
//! replaces each error with U+FFFD against `String::from_utf8_lossy`.

#![no_main]

use core::ptr;

use fuzz_common::{hex, oracle_decode, status, status_of};
use libfuzzer_sys::fuzz_target;
use utf8::ffi::utf8_decode_next;

const REPLACEMENT: u32 = 0xFFFD;

fuzz_target!(|data: &[u8]| {
    let mut lossy = String::with_capacity(data.len() * 3);
    let mut at = 0;
    let mut steps = 0;
    while at < data.len() {
        // `data` is an exact allocation, so a read past its end is an AddressSanitizer report.
        let rest = &data[at..];
        let decoded = utf8::decode_next(rest);
        let expected = oracle_decode(rest);
        assert_eq!(
            decoded.map_err(|m| (m.kind, m.len)),
            expected,
            "decode_next at {at} of {}",
            hex(data)
        );
        let (cp, used) = match decoded {
            Ok((value, n)) => (value, n),
            Err(m) => (REPLACEMENT, m.len),
        };
        assert!(
            used >= 1,
            "decode_next made no progress at {at} of {}",
            hex(data)
        );
        lossy.push(char::from_u32(cp).expect("a scalar value"));

        // The C function gives the same, with U+FFFD and the maximal subpart on error.
        let expected_status = decoded.map_or_else(|m| status_of(m.kind), |_| status::OK);
        let (mut c_cp, mut c_used) = (u32::MAX, usize::MAX);
        // SAFETY: `rest` is `rest.len()` readable bytes; both out-parameters are writable.
        let st =
            unsafe { utf8_decode_next(rest.as_ptr().cast(), rest.len(), &mut c_cp, &mut c_used) };
        assert_eq!(
            (st as i32, c_cp, c_used),
            (expected_status, cp, used),
            "utf8_decode_next at {at} of {}",
            hex(data)
        );
        // SAFETY: as above; NULL out-parameters are allowed.
        let st = unsafe {
            utf8_decode_next(
                rest.as_ptr().cast(),
                rest.len(),
                ptr::null_mut(),
                ptr::null_mut(),
            )
        };
        assert_eq!(
            st as i32, expected_status,
            "utf8_decode_next(.., NULL, NULL) at {at}"
        );

        at += used;
        steps += 1;
    }
    assert_eq!(at, data.len(), "the decoding loop overran {}", hex(data));
    assert_eq!(
        lossy,
        String::from_utf8_lossy(data),
        "decoding loop against from_utf8_lossy, of {}",
        hex(data)
    );
    assert_eq!(
        utf8::count_chars(data),
        steps,
        "count_chars of {}",
        hex(data)
    );

    // The end of the input: Truncated with nothing consumed, in Rust and in C, with a real
    // pointer or NULL.
    assert_eq!(
        utf8::decode_next(&data[data.len()..]).map_err(|m| (m.kind, m.len)),
        Err((utf8::ErrorKind::Truncated, 0))
    );
    for p in [data[data.len()..].as_ptr(), ptr::null()] {
        let (mut c_cp, mut c_used) = (u32::MAX, usize::MAX);
        // SAFETY: a zero-length buffer; both out-parameters are writable.
        let st = unsafe { utf8_decode_next(p.cast(), 0, &mut c_cp, &mut c_used) };
        assert_eq!(
            (st as i32, c_cp, c_used),
            (status::TRUNCATED, REPLACEMENT, 0)
        );
    }

    // A NULL buffer with a non-zero length touches nothing.
    let (mut c_cp, mut c_used) = (u32::MAX, usize::MAX);
    // SAFETY: NULL with a non-zero length is documented to be refused untouched.
    let st = unsafe { utf8_decode_next(ptr::null(), data.len().max(1), &mut c_cp, &mut c_used) };
    assert_eq!(
        (st as i32, c_cp, c_used),
        (status::NULL_POINTER, u32::MAX, usize::MAX)
    );
});
