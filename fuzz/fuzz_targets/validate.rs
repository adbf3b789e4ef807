//! `utf8::validate`, every implementation (`utf8::internals::Isa`) and the C `utf8_validate`,
//! against `core::str::from_utf8` and the classification table of RFC 3629's byte ranges.
//!
//! Each input is checked as it is, then widened to several 64-byte blocks (see
//! `fuzz_common::widen`) so that the SIMD kernels run on it at every alignment.

#![no_main]

use core::ptr;

use fuzz_common::{BLOCK, hex, oracle_validate, status, status_of, widen};
use libfuzzer_sys::fuzz_target;
use utf8::ffi::utf8_validate;
use utf8::internals::{GROUP, Isa};

fuzz_target!(|data: &[u8]| {
    check(data);
    if let Some(wide) = widen(data) {
        check(&wide);
    }
});

fn check(s: &[u8]) {
    let expected = oracle_validate(s);
    assert_eq!(utf8::validate(s), expected, "utf8::validate of {}", hex(s));
    assert_eq!(
        utf8::validate::scalar(s),
        expected,
        "utf8::validate::scalar of {}",
        hex(s)
    );

    // Every implementation the CPU runs gives exactly the oracle's result; the others none.
    let valid_up_to = expected.err().map_or(s.len(), |e| e.valid_up_to);
    for isa in Isa::ALL {
        if !isa.is_supported() {
            assert_eq!(isa.validate(s), None, "{isa:?} is not supported");
            continue;
        }
        assert_eq!(isa.validate(s), Some(expected), "{isa:?} on {}", hex(s));

        // What its kernel accepts (`Isa::valid_blocks_len`): all of a well-formed input (the
        // scalar implementation, which has no kernel, accepts nothing); otherwise whole
        // blocks, well-formed up to where the scalar code resumes: the last byte among their
        // last three that is not a continuation (it may start a sequence that the next block
        // completes or breaks), or their end (sound); and every block before the group of
        // blocks, tested together, that holds the first error (complete: rejecting good
        // blocks would be exact but slow).
        let accepted = isa.valid_blocks_len(s).expect("supported");
        if isa != Isa::Scalar {
            let least = match expected {
                Ok(()) => s.len(),
                Err(e) => (e.valid_up_to / BLOCK).saturating_sub(GROUP - 1) * BLOCK,
            };
            assert!(
                accepted >= least,
                "{isa:?} kernel rejected good input: accepted {accepted} bytes, valid up to \
                 {valid_up_to}, of {}",
                hex(s)
            );
        }
        assert!(
            accepted <= s.len() && (expected.is_ok() || accepted % BLOCK == 0),
            "{isa:?} kernel accepted {accepted} bytes of {}",
            hex(s)
        );
        let tail = accepted.saturating_sub(3);
        let resume = s[tail..accepted]
            .iter()
            .rposition(|&b| b & 0xC0 != 0x80)
            .map_or(accepted, |i| tail + i);
        assert!(
            core::str::from_utf8(&s[..resume]).is_ok(),
            "{isa:?} kernel accepted ill-formed input: {accepted} bytes of {}",
            hex(s)
        );
    }

    // The C function: the documented status and *valid_up_to, also with a NULL out-parameter.
    let expected_status = expected.err().map_or(status::OK, |e| status_of(e.kind));
    let mut good = usize::MAX;
    // SAFETY: `s` is `s.len()` readable bytes; `good` is writable.
    let st = unsafe { utf8_validate(s.as_ptr().cast(), s.len(), &mut good) };
    assert_eq!(st as i32, expected_status, "utf8_validate of {}", hex(s));
    assert_eq!(
        good,
        valid_up_to,
        "utf8_validate's valid_up_to, of {}",
        hex(s)
    );
    // SAFETY: as above; a NULL out-parameter is allowed.
    let st = unsafe { utf8_validate(s.as_ptr().cast(), s.len(), ptr::null_mut()) };
    assert_eq!(
        st as i32,
        expected_status,
        "utf8_validate(.., NULL) of {}",
        hex(s)
    );

    // A NULL buffer with a non-zero length touches nothing.
    let mut good = usize::MAX;
    // SAFETY: NULL with a non-zero length is documented to be refused untouched.
    let st = unsafe { utf8_validate(ptr::null(), s.len().max(1), &mut good) };
    assert_eq!((st as i32, good), (status::NULL_POINTER, usize::MAX));
}
