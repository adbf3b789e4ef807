//! SIMD validation kernels, one file per instruction set, all running the algorithm of
//! [`lookup`], and the run-time choice among them.
//!
//! A kernel checks whole 64-byte blocks and returns the length of the prefix it found good;
//! the scalar validator, the reference, then locates and classifies the first error exactly
//! and checks the tail shorter than a block.
//!
//! The kernel is chosen once, on the first call that needs one, from the CPU's features (or
//! from `LIBUTF8_FORCE_ISA`, for testing), and cached in an atomic function pointer, as the
//! `simdutf8` crate does; later calls pay one relaxed load and an indirect call.

#[cfg(target_arch = "x86_64")]
mod avx2;
pub(crate) mod lookup;
#[cfg(target_arch = "x86_64")]
mod sse42;

use core::sync::atomic::{AtomicPtr, Ordering};

use crate::error::Utf8Error;
use crate::validate::{char_start_at_or_before, scalar_from};

/// An implementation of validation: the scalar reference or one SIMD kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Isa {
    /// The portable scalar code: the reference every kernel must agree with.
    Scalar,
    /// x86_64 with SSE4.2.
    Sse42,
    /// x86_64 with AVX2.
    Avx2,
}

/// Returns the length of the prefix of its input, in whole blocks, that is well-formed except
/// perhaps for a sequence cut off at its end.
type Kernel = unsafe fn(&[u8]) -> usize;

/// The scalar implementation's "kernel": it checks no block.
fn no_blocks(_: &[u8]) -> usize {
    0
}

/// Validates `s` given the length of a prefix that a kernel found good.
fn finish(s: &[u8], valid_blocks_len: usize) -> Result<(), Utf8Error> {
    scalar_from(s, char_start_at_or_before(s, valid_blocks_len))
}

impl Isa {
    /// Every implementation, best last.
    pub const ALL: [Isa; 3] = [Isa::Scalar, Isa::Sse42, Isa::Avx2];

    /// The name `LIBUTF8_FORCE_ISA` accepts.
    pub fn name(self) -> &'static str {
        match self {
            Isa::Scalar => "scalar",
            Isa::Sse42 => "sse4.2",
            Isa::Avx2 => "avx2",
        }
    }

    /// Whether this CPU can run it.
    pub fn is_supported(self) -> bool {
        match self {
            Isa::Scalar => true,
            #[cfg(target_arch = "x86_64")]
            Isa::Sse42 => std::is_x86_feature_detected!("sse4.2"),
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => std::is_x86_feature_detected!("avx2"),
            #[cfg(not(target_arch = "x86_64"))]
            _ => false,
        }
    }

    /// The implementations this CPU can run, best last.
    pub fn supported() -> impl Iterator<Item = Isa> {
        Isa::ALL.into_iter().filter(|isa| isa.is_supported())
    }

    /// Validates `s` with this implementation, or `None` if the CPU cannot run it.
    pub fn validate(self, s: &[u8]) -> Option<Result<(), Utf8Error>> {
        Some(finish(s, self.valid_blocks_len(s)?))
    }

    /// The length of the prefix of `s`, in whole 64-byte blocks, that this implementation's
    /// kernel accepts (0 for the scalar one), or `None` if the CPU cannot run it.
    pub fn valid_blocks_len(self, s: &[u8]) -> Option<usize> {
        let kernel = self.kernel()?;
        // SAFETY: `kernel` returns only kernels whose ISA the CPU supports.
        Some(unsafe { kernel(s) })
    }

    /// The kernel, if the CPU can run it.
    fn kernel(self) -> Option<Kernel> {
        if !self.is_supported() {
            return None;
        }
        match self {
            Isa::Scalar => Some(no_blocks as Kernel),
            #[cfg(target_arch = "x86_64")]
            Isa::Sse42 => Some(sse42::valid_blocks_len as Kernel),
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => Some(avx2::valid_blocks_len as Kernel),
            #[cfg(not(target_arch = "x86_64"))]
            _ => None,
        }
    }

    /// The implementation to use: `LIBUTF8_FORCE_ISA` if set, else the best supported.
    ///
    /// A forced implementation that is unknown or that this CPU lacks is reported on standard
    /// error and ignored, so that the library never runs an instruction the CPU lacks.
    pub fn selected() -> Isa {
        let best = Isa::supported().last().unwrap_or(Isa::Scalar);
        let Some(forced) = std::env::var_os("LIBUTF8_FORCE_ISA") else {
            return best;
        };
        match Isa::ALL.into_iter().find(|isa| forced == isa.name()) {
            Some(isa) if isa.is_supported() => isa,
            found => {
                let reason = if found.is_some() {
                    "not supported by this CPU"
                } else {
                    "unknown"
                };
                let names: Vec<_> = Isa::supported().map(Isa::name).collect();
                eprintln!(
                    "libutf8: LIBUTF8_FORCE_ISA={} is {reason}; using {} (supported: {})",
                    forced.to_string_lossy(),
                    best.name(),
                    names.join(", ")
                );
                best
            }
        }
    }
}

/// The cached kernel; until the first call, a function that chooses it.
static KERNEL: AtomicPtr<()> = AtomicPtr::new(choose_and_run as Kernel as *mut ());

/// Chooses the kernel, caches it, and runs it on `s`.
///
/// # Safety
/// None beyond the `Kernel` type's: it only runs a kernel the CPU supports.
unsafe fn choose_and_run(s: &[u8]) -> usize {
    let kernel = Isa::selected().kernel().unwrap_or(no_blocks as Kernel);
    KERNEL.store(kernel as *mut (), Ordering::Relaxed);
    // SAFETY: `kernel` is supported by this CPU.
    unsafe { kernel(s) }
}

/// Validates `s` with the cached kernel.
#[inline]
pub(crate) fn validate(s: &[u8]) -> Result<(), Utf8Error> {
    let kernel = KERNEL.load(Ordering::Relaxed);
    // SAFETY: KERNEL only ever holds `choose_and_run` or a kernel whose ISA this CPU
    // supports, all of type `Kernel`; racing first calls store the same value.
    let kernel: Kernel = unsafe { core::mem::transmute::<*mut (), Kernel>(kernel) };
    // SAFETY: as above.
    finish(s, unsafe { kernel(s) })
}
