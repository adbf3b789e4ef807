//! Test support shared by the integration tests: the oracle's view of an input in libutf8's
//! types (the oracles themselves are in testkit/, shared with the fuzz targets, as is the
//! generator of random text), and the implementations this CPU runs.

#![allow(dead_code)] // each test crate uses its own part of this module

use utf8::ErrorKind;

/// What `core::str::from_utf8` says of `s`, with the error kind the classification table gives
/// for the first ill-formed sequence: `Ok(())`, or `(valid_up_to, kind, error_len)`
/// (`testkit::validate`).
pub fn oracle(s: &[u8]) -> Result<(), (usize, ErrorKind, usize)> {
    testkit::validate(s).map_err(|(at, class, len)| (at, testkit::kind_of!(class, ErrorKind), len))
}

/// The classification table of the C API (libutf8(3), "STATUS CODES"), for input known to start
/// with an ill-formed, complete sequence (`testkit::classify`).
pub fn classify(s: &[u8]) -> ErrorKind {
    testkit::kind_of!(testkit::classify(s), ErrorKind)
}

/// `n` iterations of a randomized test, or a few under Miri, which interprets every
/// instruction: the same code paths, sampled less. A [`sweep_step`] above 1 divides `n` too.
pub fn iterations(n: usize) -> usize {
    or_under_miri(n.div_ceil(sweep_step()), n.div_ceil(500).min(4))
}

/// The stride of the exhaustive sweeps: 1, every input, unless `LIBUTF8_TEST_SWEEP_STEP`
/// says otherwise (`make check-msrv` and the QEMU runs of `make check-full` sample them so:
/// the same tests, on another compiler or under emulation, in a fraction of the time).
pub fn sweep_step() -> usize {
    std::env::var("LIBUTF8_TEST_SWEEP_STEP")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&step| step > 0)
        .unwrap_or(1)
}

/// Every byte value, or with a [`sweep_step`] above 1 every step-th one, starting where `key`
/// says: an exhaustive loop nested in others samples its bytes so, `key` taken from the outer
/// loops' values, and every value still comes up under some of them.
pub fn sampled_bytes(key: usize) -> impl Iterator<Item = u8> {
    let step = sweep_step();
    (0..=255u8).skip(key % step).step_by(step)
}

/// Whether a sweep takes the input its loops' `keys` number: every one, or with a [`sweep_step`]
/// above 1 those whose keys add up to a multiple of it, so that every value of each key still
/// comes up, beside some of the others' values.
pub fn takes(keys: &[usize]) -> bool {
    keys.iter().sum::<usize>() % sweep_step() == 0
}

/// `normal`, or the smaller `miri` when interpreted by Miri.
pub fn or_under_miri<T>(normal: T, miri: T) -> T {
    if cfg!(miri) { miri } else { normal }
}

pub use testkit::Rng;

/// `text` with the error `bad(k)` inserted after the `k`-th gap of `gaps` (taken in turn, `count`
/// of them), each counted in bytes of `text` from the error before and moved on to where a
/// character starts.
pub fn errors_at_gaps<'a>(
    text: &[u8],
    gaps: &[usize],
    count: usize,
    mut bad: impl FnMut(usize) -> &'a [u8],
) -> Vec<u8> {
    let mut s = Vec::new();
    let mut at = 0;
    for (k, gap) in gaps.iter().cycle().take(count).enumerate() {
        let mut next = (at + gap).min(text.len());
        while next < text.len() && text[next] & 0xC0 == 0x80 {
            next += 1;
        }
        s.extend_from_slice(&text[at..next]);
        s.extend_from_slice(bad(k));
        at = next;
    }
    s.extend_from_slice(&text[at..]);
    s
}

/// A copy of `s` that starts `offset` bytes after a 64-byte boundary (`offset` below 64): a
/// buffer and the range of the copy in it. The AVX-512 kernel reads blocks from 64-byte
/// boundaries, and the bytes before the first one apart; tests place input at each distance.
pub fn at_offset(s: &[u8], offset: usize) -> (Vec<u8>, core::ops::Range<usize>) {
    let mut buf = vec![0u8; s.len() + 128];
    let start = buf.as_ptr().align_offset(64) + offset;
    buf[start..start + s.len()].copy_from_slice(s);
    (buf, start..start + s.len())
}

/// The implementations this CPU can run, in the order of `utf8::internals::Isa::ALL`, by their
/// names in `LIBUTF8_FORCE_ISA`: the standard library's feature detection and the features
/// each one needs as the documentation of `utf8::internals::Isa` lists them, not the library's own
/// detector. AVX-512's two only where the build compiled them in (the cfg `libutf8_avx512`,
/// which the build script sets for the tests too).
pub fn isas_of_this_cpu() -> Vec<&'static str> {
    // Mutated only on the architectures with SIMD implementations.
    #[cfg_attr(
        not(any(target_arch = "x86_64", target_arch = "aarch64")),
        allow(unused_mut)
    )]
    let mut isas = vec!["scalar"];
    #[cfg(target_arch = "x86_64")]
    {
        use std::is_x86_feature_detected as has;
        let popcnt = has!("popcnt");
        // SSE4.2 with the SSSE3 and SSE4.1 it implies.
        if has!("ssse3") && has!("sse4.1") && has!("sse4.2") && popcnt {
            isas.push("sse4.2");
        }
        if has!("avx2") && popcnt {
            isas.push("avx2");
        }
        let avx512 = has!("avx512f")
            && has!("avx512bw")
            && has!("avx512vl")
            && has!("avx512vbmi")
            && has!("avx512vbmi2");
        // Only where the compiler had AVX-512 to compile the kernels with (see build.rs).
        if cfg!(libutf8_avx512) && avx512 && has!("avx2") && popcnt && has!("lzcnt") {
            // The same instructions in three tunings.
            isas.push("avx512");
            isas.push("avx512-zen4");
            isas.push("avx512-zen5");
        }
    }
    #[cfg(target_arch = "aarch64")]
    if std::arch::is_aarch64_feature_detected!("neon") {
        isas.push("neon");
    }
    isas
}

/// The implementation the library should run on this CPU, of those `isas` gives: the last, but
/// of the three tunings of AVX-512, "avx512-zen4" on AMD's family 19h (Zen 4) only,
/// "avx512-zen5" on its family 1Ah (Zen 5) only, which Linux's /proc/cpuinfo tells (`None`
/// where it is absent and needed). Under Miri, which reads no files here, the library reads no
/// CPUID either and takes the features it is compiled for, never AMD's family.
pub fn best_of_this_cpu(isas: &[&'static str]) -> Option<&'static str> {
    let tunings = ["avx512", "avx512-zen4", "avx512-zen5"];
    let tuning = if isas.contains(&"avx512") && !cfg!(miri) {
        let info = std::fs::read_to_string("/proc/cpuinfo").ok()?;
        let field = |name: &str| {
            info.lines()
                .find(|line| line.split(':').next().map(str::trim) == Some(name))
                .and_then(|line| line.split(':').nth(1))
                .map(str::trim)
        };
        match (field("vendor_id"), field("cpu family")) {
            (Some("AuthenticAMD"), Some("25")) => "avx512-zen4",
            (Some("AuthenticAMD"), Some("26")) => "avx512-zen5",
            _ => "avx512",
        }
    } else {
        "avx512"
    };
    isas.iter()
        .copied()
        .rfind(|&isa| !tunings.contains(&isa) || isa == tuning)
}

/// The implementations a test runs: every one this CPU supports. Under Miri, one SIMD
/// implementation a call, taken in an order with no period, so that a test's inputs go through
/// each kernel at the cost of one (Miri looks for undefined behaviour, which a kernel's code
/// shows on some input, not for disagreements between kernels, which the native run finds);
/// and not the scalar implementation, the engine's loops with no kernel, the same loops the
/// SIMD ones run around their blocks, which Miri runs there.
pub fn implementations() -> impl Iterator<Item = utf8::internals::Isa> {
    use std::sync::atomic::{AtomicU64, Ordering};
    use utf8::internals::Isa;
    let isas: Vec<Isa> = Isa::supported().collect();
    if !cfg!(miri) {
        return isas.into_iter();
    }
    let simd: Vec<Isa> = isas.into_iter().filter(|&isa| isa != Isa::Scalar).collect();
    // Fibonacci hashing of the call's number (Knuth, TAOCP vol. 3, 6.4): the fraction of
    // `call` times 1/φ, in 32 bits, scaled to the number of implementations. Its sequence has
    // no period, so that calls made in a fixed pattern (two for each input, say) do not always
    // meet the same implementation, as taking them in turn would.
    static CALLS: AtomicU64 = AtomicU64::new(0);
    let call = CALLS.fetch_add(1, Ordering::Relaxed);
    let fraction = call.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32;
    let pick = ((fraction * simd.len() as u64) >> 32) as usize;
    simd.get(pick)
        .copied()
        .into_iter()
        .collect::<Vec<_>>()
        .into_iter()
}

/// Checks that the library finds the implementations `isas_of_this_cpu` gives, so that the
/// tests that run each supported one skip none, and that the library runs the best of them
/// unless `LIBUTF8_FORCE_ISA` chooses another. Returns their names.
pub fn check_the_implementations_found() -> Vec<&'static str> {
    let found: Vec<_> = utf8::internals::Isa::supported()
        .map(utf8::internals::Isa::name)
        .collect();
    let expected = isas_of_this_cpu();
    assert_eq!(
        found, expected,
        "implementations found, and by std's detection"
    );
    let active = utf8::internals::active_isa().name();
    // An empty value is documented as unset.
    match std::env::var("LIBUTF8_FORCE_ISA") {
        Ok(forced) if !forced.is_empty() => {
            eprintln!("LIBUTF8_FORCE_ISA={forced}: {active} in use, not checked")
        }
        _ => match best_of_this_cpu(&expected) {
            Some(best) => assert_eq!(active, best, "implementation in use"),
            None => eprintln!("no /proc/cpuinfo: {active} in use, not checked"),
        },
    }
    found
}

/// Markus Kuhn's UTF-8 decoder stress test, from the shared test data: `$SHARED/testdata/`, as
/// docs/TESTING.md promises (`make SHARED=/path/to/shared`, which make passes on to
/// `cargo test`; a relative path is from the clone's root, as for make), else `../shared`
/// beside the clone, as in CI. `None`, said on standard error, when it is absent (cargo test
/// shows that only for a failed test; `make check-rust` says the skip itself).
pub fn kuhn_stress_test() -> Option<Vec<u8>> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let shared = std::env::var_os("SHARED").filter(|s| !s.is_empty());
    let path = root
        .join(shared.as_deref().unwrap_or("../shared".as_ref()))
        .join("testdata/UTF-8-test.txt");
    match std::fs::read(&path) {
        Ok(text) => Some(text),
        Err(e) => {
            eprintln!("{}: {e}: skipped", path.display());
            None
        }
    }
}
