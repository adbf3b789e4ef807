//! utf8_stream_feed and utf8_stream_finish, with the input cut into chunks chosen by the
//! fuzzer, against `core::str::from_utf8` on the whole (`fuzz_common::StreamOracle`): after
//! every chunk, the status and position of the bytes seen so far; at the end, those of
//! validating the whole; and the error kept by every later call.
//!
//! The first byte chooses the chunking: two chunks cut at a point, one-byte chunks, or chunk
//! lengths drawn from the bytes that follow it. The input is checked as it is and widened (see
//! `fuzz_common::widen`) so that the SIMD validator runs on the chunks; each chunk is copied
//! into an allocation of exactly its length for AddressSanitizer.

#![no_main]

use fuzz_common::{StreamOracle, exact_copy, hex, widen};
use libfuzzer_sys::fuzz_target;
use utf8::ffi::{utf8_stream, utf8_stream_feed, utf8_stream_finish};

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    check(rest, mode);
    if let Some(wide) = widen(rest) {
        check(&wide, mode);
    }
});

/// The chunk ends for `s` that `mode` picks.
fn cuts(s: &[u8], mode: u8) -> Vec<usize> {
    match mode % 4 {
        0 => vec![usize::from(mode / 4) * s.len() / 64],
        1 => (1..s.len()).collect(),
        _ => {
            // Lengths 0..=15 from the input's own bytes, so that the fuzzer steers them.
            let mut at = 0;
            let mut out = vec![];
            let mut k = usize::from(mode);
            // Empty chunks too, but a bounded number of them: the lengths may all be 0.
            while at < s.len() && out.len() <= 2 * s.len() {
                at = (at + usize::from(s[k % s.len()] >> 4)).min(s.len());
                k += 7;
                out.push(at);
            }
            out
        }
    }
}

fn check(s: &[u8], mode: u8) {
    let oracle = StreamOracle::new(s);
    let mut st = utf8_stream::default();
    let mut from = 0;
    for end in cuts(s, mode).into_iter().chain([s.len()]) {
        let end = end.clamp(from, s.len());
        let chunk = exact_copy(&s[from..end]);
        let mut at = usize::MAX;
        // SAFETY: `st` is a live stream, `chunk` a live buffer, `at` a live local.
        let status =
            unsafe { utf8_stream_feed(&mut st, chunk.as_ptr().cast(), chunk.len(), &mut at) };
        assert_eq!(
            (status as i32, at),
            oracle.after(end),
            "feed to {end} of {}",
            hex(s)
        );
        from = end;
    }
    let mut at = usize::MAX;
    // SAFETY: as above.
    let status = unsafe { utf8_stream_finish(&mut st, &mut at) };
    let end = oracle.at_end();
    assert_eq!((status as i32, at), end, "finish of {}", hex(s));
    if end.0 != 0 {
        // SAFETY: as above.
        let again = unsafe { utf8_stream_feed(&mut st, b"a".as_ptr().cast(), 1, &mut at) };
        assert_eq!(
            (again as i32, at),
            end,
            "feed after the error of {}",
            hex(s)
        );
    }
}
