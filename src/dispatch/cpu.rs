//! What the x86_64 CPU and the operating system support, read with CPUID and XGETBV (Intel 64
//! and IA-32 Architectures Software Developer's Manual, volume 2A, "CPUID"; volume 1, 13.3,
//! "Enabling the XSAVE feature set"). The standard library's `is_x86_feature_detected!` does
//! the same; the C library is built without the standard library, so this module does it.
//!
//! A register extension counts only where the operating system saves it on a context switch:
//! XCR0 says which. The features are read once and cached. Under Miri, which cannot run CPUID,
//! they are those the code is compiled for, as with the standard library's macro.

use core::arch::x86_64::{__cpuid, __cpuid_count, _xgetbv, CpuidResult};
use core::sync::atomic::{AtomicU32, Ordering};

/// One bit per feature that a kernel needs.
pub(super) const SSE42: u32 = 1 << 0; // SSE4.2 with SSSE3 and SSE4.1, which it implies
pub(super) const POPCNT: u32 = 1 << 1;
pub(super) const AVX2: u32 = 1 << 2; // with AVX, and YMM state enabled by the OS
pub(super) const AVX512: u32 = 1 << 3; // F, BW, VL, VBMI and VBMI2, ZMM and mask state enabled
pub(super) const LZCNT: u32 = 1 << 4;
pub(super) const BMI2: u32 = 1 << 6;
/// Not features: an AMD CPU of family 19h, Zen 3 or Zen 4 (of which only Zen 4 has AVX-512),
/// and of family 1Ah, Zen 5, for each of which the AVX-512 kernels have a tuning of their own
/// (see `crate::dispatch::Isa::Avx512Zen4` and `Avx512Zen5`).
pub(super) const AMD_FAMILY_19H: u32 = 1 << 5;
pub(super) const AMD_FAMILY_1AH: u32 = 1 << 7;
/// Set once the others have been read.
const READ: u32 = 1 << 31;

static FEATURES: AtomicU32 = AtomicU32::new(0);

/// Whether the CPU has every feature of `wanted` (a union of the bits above).
pub(super) fn has(wanted: u32) -> bool {
    // Relaxed: racing first calls compute and store the same value.
    let mut features = FEATURES.load(Ordering::Relaxed);
    if features & READ == 0 {
        features = if cfg!(miri) { compiled() } else { read() } | READ;
        FEATURES.store(features, Ordering::Relaxed);
    }
    features & wanted == wanted
}

/// CPUID leaf `leaf`, subleaf `subleaf`.
// `__cpuid_count` is a safe function in recent Rust (1.95), an unsafe one in older Rust.
#[allow(unused_unsafe)]
fn cpuid(leaf: u32, subleaf: u32) -> CpuidResult {
    // SAFETY: every x86_64 CPU has CPUID; a leaf above the highest one returns data, no fault.
    unsafe { __cpuid_count(leaf, subleaf) }
}

/// The highest basic or extended leaf, whichever range `base` (0 or 8000_0000) starts.
#[allow(unused_unsafe)]
fn max_leaf(base: u32) -> u32 {
    // SAFETY: as in `cpuid`.
    unsafe { __cpuid(base) }.eax
}

/// XCR0: the register state the operating system saves.
///
/// # Safety
/// The CPU has XSAVE and the OS has enabled it (CPUID.1:ECX.OSXSAVE).
#[target_feature(enable = "xsave")]
unsafe fn xcr0() -> u64 {
    // SAFETY: by the caller.
    unsafe { _xgetbv(0) }
}

fn bit(register: u32, n: u32) -> bool {
    register >> n & 1 != 0
}

/// The features the code is compiled for (`-C target-feature`).
fn compiled() -> u32 {
    let sse42 = cfg!(all(
        target_feature = "ssse3",
        target_feature = "sse4.1",
        target_feature = "sse4.2"
    ));
    let avx512 = cfg!(all(
        target_feature = "avx512f",
        target_feature = "avx512bw",
        target_feature = "avx512vl",
        target_feature = "avx512vbmi",
        target_feature = "avx512vbmi2"
    ));
    [
        (sse42, SSE42),
        (cfg!(target_feature = "popcnt"), POPCNT),
        (cfg!(target_feature = "avx2"), AVX2),
        (avx512, AVX512),
        (cfg!(target_feature = "lzcnt"), LZCNT),
        (cfg!(target_feature = "bmi2"), BMI2),
    ]
    .iter()
    .filter(|(on, _)| *on)
    .fold(0, |features, (_, bit)| features | bit)
}

/// The features of the CPU that runs the code.
fn read() -> u32 {
    let mut features = 0;
    let leaf1 = cpuid(1, 0);
    match amd_family(cpuid(0, 0), leaf1.eax) {
        Some(0x19) => features |= AMD_FAMILY_19H,
        Some(0x1A) => features |= AMD_FAMILY_1AH,
        _ => {}
    }
    if bit(leaf1.ecx, 9) && bit(leaf1.ecx, 19) && bit(leaf1.ecx, 20) {
        features |= SSE42; // SSSE3, SSE4.1, SSE4.2
    }
    if bit(leaf1.ecx, 23) {
        features |= POPCNT;
    }
    if max_leaf(0x8000_0000) >= 0x8000_0001 && bit(cpuid(0x8000_0001, 0).ecx, 5) {
        features |= LZCNT; // LZCNT, which AMD names ABM
    }
    if max_leaf(0) >= 7 && bit(cpuid(7, 0).ebx, 8) {
        features |= BMI2;
    }
    // The wider registers need XSAVE enabled by the OS (OSXSAVE) and AVX.
    if !(bit(leaf1.ecx, 27) && bit(leaf1.ecx, 28)) || max_leaf(0) < 7 {
        return features;
    }
    // SAFETY: OSXSAVE is set.
    let xcr0 = unsafe { xcr0() };
    let leaf7 = cpuid(7, 0);
    // XMM and YMM state (bits 1 and 2).
    if xcr0 & 0b110 != 0b110 {
        return features;
    }
    if bit(leaf7.ebx, 5) {
        features |= AVX2;
    }
    // Mask, upper ZMM0-15 and ZMM16-31 state (bits 5 to 7); F (EBX 16), BW (30), VL (31),
    // VBMI (ECX 1) and VBMI2 (ECX 6).
    let avx512 = [16, 30, 31].iter().all(|&n| bit(leaf7.ebx, n))
        && [1, 6].iter().all(|&n| bit(leaf7.ecx, n));
    if xcr0 & 0b1110_0000 == 0b1110_0000 && avx512 {
        features |= AVX512;
    }
    features
}

/// The family of an AMD CPU from leaf 0 (the vendor) and the EAX of leaf 1 (the version): the
/// base family, plus the extended family where the base is Fh (AMD64 Architecture
/// Programmer's Manual, volume 3, CPUID Fn0000_0001_EAX); `None` for another vendor's.
fn amd_family(leaf0: CpuidResult, version: u32) -> Option<u32> {
    let amd = [leaf0.ebx, leaf0.edx, leaf0.ecx] == [0x6874_7541, 0x6974_6E65, 0x444D_4163];
    let base = version >> 8 & 0xF;
    let extended = if base == 0xF { version >> 20 & 0xFF } else { 0 };
    amd.then_some(base + extended)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The standard library's detection is the oracle.
    #[test]
    fn features_agree_with_the_standard_library() {
        use std::is_x86_feature_detected as std_has;
        let sse42 = std_has!("ssse3") && std_has!("sse4.1") && std_has!("sse4.2");
        let avx512 = std_has!("avx512f")
            && std_has!("avx512bw")
            && std_has!("avx512vl")
            && std_has!("avx512vbmi")
            && std_has!("avx512vbmi2");
        assert_eq!(has(SSE42), sse42);
        assert_eq!(has(POPCNT), std_has!("popcnt"));
        assert_eq!(has(AVX2), std_has!("avx2"));
        assert_eq!(has(AVX512), avx512);
        assert_eq!(has(LZCNT), std_has!("lzcnt"));
        assert_eq!(has(BMI2), std_has!("bmi2"));
    }

    /// Linux's /proc/cpuinfo is the oracle (its "cpu family" is base plus extended family,
    /// in decimal); skipped, saying so, where it is absent.
    #[test]
    #[cfg_attr(miri, ignore = "reads a file, and Miri runs no CPUID")]
    fn amd_families_agree_with_proc_cpuinfo() {
        let Ok(info) = std::fs::read_to_string("/proc/cpuinfo") else {
            std::eprintln!("no /proc/cpuinfo: AMD families 19h and 1Ah not checked");
            return;
        };
        let field = |name: &str| {
            info.lines()
                .find(|line| line.split(':').next().map(str::trim) == Some(name))
                .and_then(|line| line.split(':').nth(1))
                .map(str::trim)
        };
        let amd = field("vendor_id") == Some("AuthenticAMD");
        assert_eq!(
            has(AMD_FAMILY_19H),
            amd && field("cpu family") == Some("25")
        );
        assert_eq!(
            has(AMD_FAMILY_1AH),
            amd && field("cpu family") == Some("26")
        );
    }

    /// The vendor string spelt in the registers' bytes, and families around 19h.
    #[test]
    fn amd_family_from_cpuid_words() {
        let vendor = |name: &[u8; 12]| {
            let word = |i: usize| u32::from_le_bytes(name[i..i + 4].try_into().unwrap());
            CpuidResult {
                eax: 0x10,
                ebx: word(0),
                edx: word(4),
                ecx: word(8),
            }
        };
        let (amd, intel) = (vendor(b"AuthenticAMD"), vendor(b"GenuineIntel"));
        // Family, model and stepping of a Zen 4 (EPYC 9004: 19h, model 11h, stepping 1),
        // a Zen 5 (1Ah) and a Zen 2 (17h).
        let version = |family: u32| 0xF << 8 | (family - 0xF) << 20 | 0x1 << 16 | 0x1 << 4 | 1;
        assert_eq!(amd_family(amd, version(0x19)), Some(0x19));
        assert_eq!(amd_family(amd, version(0x1A)), Some(0x1A));
        assert_eq!(amd_family(amd, version(0x17)), Some(0x17));
        assert_eq!(amd_family(intel, version(0x19)), None);
        // Extended family Ah counts only after base family Fh: with base 6, family 6.
        assert_eq!(amd_family(amd, 0x6 << 8 | 0xA << 20), Some(6));
    }
}
