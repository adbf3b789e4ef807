//! `utf8::count_chars`, every implementation (`utf8::internals::Isa`) and the C `utf8_count_chars`,
//! against the number of characters `String::from_utf8_lossy` gives (each maximal subpart of
//! an error is one U+FFFD).
//!
//! Each input is checked as it is, then widened to several 64-byte blocks (see
//! `fuzz_common::widen`) so that the counting kernels run on it at every alignment.

#![no_main]

use core::ptr;

use fuzz_common::{hex, widen};
use libfuzzer_sys::fuzz_target;
use utf8::ffi::utf8_count_chars;
use utf8::internals::Isa;

fuzz_target!(|data: &[u8]| {
    check(data);
    if let Some(wide) = widen(data) {
        check(&wide);
    }
});

fn check(s: &[u8]) {
    let expected = String::from_utf8_lossy(s).chars().count();
    assert_eq!(utf8::count_chars(s), expected, "count_chars of {}", hex(s));
    for isa in Isa::ALL {
        let want = isa.is_supported().then_some(expected);
        assert_eq!(
            isa.count_chars(s),
            want,
            "{isa:?} count_chars of {}",
            hex(s)
        );
    }
    // SAFETY: `s` is `s.len()` readable bytes.
    let n = unsafe { utf8_count_chars(s.as_ptr().cast(), s.len()) };
    assert_eq!(n, expected, "utf8_count_chars of {}", hex(s));
    // SAFETY: a NULL buffer is documented to count 0, whatever the length.
    assert_eq!(unsafe { utf8_count_chars(ptr::null(), s.len()) }, 0);
}
