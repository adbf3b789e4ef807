//! Build script: compiles the AVX-512 kernels in only where the compiler has AVX-512.
//!
//! The oldest Rust the library supports (Cargo.toml's rust-version) is older than the Rust that
//! made AVX-512's target features and intrinsics stable (1.89). On x86_64 this script compiles
//! a probe, a function that enables those features and calls their intrinsics, with the
//! compiler cargo builds the library with; where the probe compiles, it sets the cfg
//! `libutf8_avx512`, on which `src/kernels/x86/avx512/` and everything that names it depend.
//! Without it the library has every other implementation, and `Isa::Avx512` and
//! `Isa::Avx512Zen4` are unsupported on any CPU.
//!
//! A probe rather than the version that `$RUSTC --version` prints: the version says what a
//! stable release has, not what a nightly or beta of the same number has (AVX-512 became stable
//! during 1.89's nightlies), nor what a distribution's patched compiler has; compiling what the
//! kernels use asks the compiler itself. No build dependency: the library needs no crate to
//! build.

use std::env;
use std::ffi::OsString;
use std::fs;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// The probe: the target features the AVX-512 kernels enable, and intrinsics of each (VBMI's
/// byte permutation, VBMI2's byte compression, BW's and VL's masked byte operations). An
/// `unsafe fn`, as Rust before 1.86 requires of a function with target features.
const PROBE: &str = r#"
#![no_std]
use core::arch::x86_64::*;

#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2")]
pub unsafe fn probe(a: __m512i, b: __m512i, c: __m256i, k: u64) -> (__m512i, __m256i) {
    unsafe {
        let p = _mm512_permutexvar_epi8(a, b);
        let q = _mm512_maskz_compress_epi8(k, p);
        let r = _mm256_maskz_mov_epi8(k as u32, c);
        (_mm512_mask_blend_epi8(_mm512_cmpeq_epi8_mask(q, a), q, b), r)
    }
}
"#;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=RUSTC");
    println!("cargo:rerun-if-env-changed=CARGO_ENCODED_RUSTFLAGS");
    // Declared on every target, so that `cfg(libutf8_avx512)` is a known name everywhere.
    println!("cargo::rustc-check-cfg=cfg(libutf8_avx512)");
    // Only x86_64 has these kernels: no probe for any other target.
    if env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("x86_64") && compiler_has_avx512() {
        println!("cargo::rustc-cfg=libutf8_avx512");
    }
}

/// Whether the compiler cargo uses compiles [`PROBE`] for the target being built.
fn compiler_has_avx512() -> bool {
    let out_dir = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let source = out_dir.join("avx512_probe.rs");
    fs::write(&source, PROBE).expect("OUT_DIR is writable");
    let rustc = env::var_os("RUSTC").unwrap_or_else(|| OsString::from("rustc"));
    let target = env::var_os("TARGET").expect("cargo sets TARGET");
    let mut command = Command::new(rustc);
    command
        .args([
            "--crate-type=lib",
            "--crate-name=libutf8_avx512_probe",
            "--edition=2021",
        ])
        .args(["--emit=obj", "--cap-lints=allow", "-Cdebuginfo=0"])
        .arg("--target")
        .arg(&target)
        .arg("--out-dir")
        .arg(&out_dir)
        .arg(&source);
    // The flags the library is compiled with (a sysroot, for one), as cargo passes them.
    if let Ok(flags) = env::var("CARGO_ENCODED_RUSTFLAGS") {
        command.args(flags.split('\x1f').filter(|flag| !flag.is_empty()));
    }
    // The compiler's refusal is the expected answer on an older Rust: not shown.
    command
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success())
}
