//! The run-time choice of implementation: which kernels run, chosen once from the CPU's
//! features (`cpu`) or from `LIBUTF8_FORCE_ISA` (`env`, for testing), and the entry points
//! the public functions call.
//!
//! Each implementation is a table of kernels (`Kernels`), built from the kernel modules of
//! `crate::kernels`: validation and counting, which say whether the whole input is good or how
//! long a prefix of whole blocks is, and the four converters, each compiled for its
//! instruction set. Where a kernel found an error, the scalar code, the reference, locates and
//! classifies it exactly.
//!
//! The implementation is chosen once, on the first call that needs one, and cached in an
//! atomic pointer, as the `simdutf8` crate does; later calls pay one relaxed load and an
//! indirect call.

mod count;
#[cfg(target_arch = "x86_64")]
mod cpu;
mod env;

use core::marker::PhantomData;
use core::mem::MaybeUninit;
use core::ptr;
use core::sync::atomic::{AtomicPtr, Ordering};

use crate::algorithms::ascii::{SHORT_ASCII, is_short_ascii};
use crate::algorithms::lengths::Lengths;
use crate::algorithms::lookup::Blocks;
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
use crate::algorithms::lookup::{CHARS, UTF16_UNITS};
use crate::algorithms::short_ascii::{self, ShortAsciiUnit};
use crate::engine::short::ShortCall;
use crate::engine::{Mode, Progress, Replacement, U16Swapped, short, utf16, utf32};
#[cfg(target_arch = "aarch64")]
use crate::kernels::aarch64::neon;
#[cfg(all(target_arch = "x86_64", libutf8_avx512))]
use crate::kernels::x86::avx512;
#[cfg(target_arch = "x86_64")]
use crate::kernels::x86::{avx2, sse42};
use crate::kernels::{Validator, scalar, validate_kernel};
use crate::scalar::error::Utf8Error;
use crate::scalar::validate::{Prefix, char_start_at_or_before, scalar_prefix};
#[cfg(any(test, feature = "internals"))]
use crate::sink::as_uninit;
pub(crate) use count::count_chars_with;
use count::count_units_with;

/// An implementation: the scalar reference or one SIMD kernel. Public only to the tests and
/// fuzz targets (`crate::internals`), which alone call the methods that run one
/// implementation's kernels. Non-exhaustive, so that their matches still build when an
/// instruction set or tuning is added (as `Avx512Zen4` was).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Isa {
    /// The portable scalar code: the reference every kernel must agree with.
    Scalar,
    /// x86_64 with SSE4.2 and POPCNT.
    Sse42,
    /// x86_64 with AVX2 and POPCNT.
    Avx2,
    /// x86_64 with AVX-512F, BW, VL, VBMI and VBMI2 (Intel from Ice Lake, AMD from Zen 4),
    /// AVX2, POPCNT, LZCNT and BMI2.
    Avx512,
    /// [`Isa::Avx512`]'s kernels tuned for AMD Zen 4 (no software prefetch for long input, and
    /// UTF-16 to UTF-8 looks for ASCII as AVX2's converter does), which CPUs of AMD's family 19h
    /// run by default: the same instructions, so any CPU that runs `Avx512` runs it.
    Avx512Zen4,
    /// [`Isa::Avx512`]'s kernels tuned for AMD Zen 5 (the Latin-1 converters copy runs of ASCII
    /// with their loads, not their stores, aligned), which CPUs of AMD's family 1Ah run by
    /// default: the same instructions, as for `Avx512Zen4`.
    Avx512Zen5,
    /// aarch64 with NEON (Advanced SIMD), which every aarch64 Linux system has.
    Neon,
}

/// A counting kernel; see [`Blocks`].
type Counter = unsafe fn(&[u8]) -> Blocks;

/// A converter from code units `S` to code units `T` (see [`crate::transcode`]).
type Converter<S, T> = unsafe fn(&[S], &mut [MaybeUninit<T>], Mode) -> Progress;

/// A converter from a single-byte encoding into UTF-8, which has no mode.
type SingleByte = unsafe fn(&[u8], &mut [MaybeUninit<u8>]) -> Progress;

/// The kernels of one implementation.
struct Kernels {
    // Read by `active_isa` alone, which only the tests call; kept in every build, so that the
    // tables and the code that reads them are the same with the feature and without.
    #[cfg_attr(not(any(test, feature = "internals")), allow(dead_code))]
    isa: Isa,
    validate: Validator,
    /// Validation that counts characters, and the same counting their UTF-16 units.
    count: Counter,
    count_utf16: Counter,
    utf8_to_utf16: Converter<u8, u16>,
    utf16_to_utf8: Converter<u16, u8>,
    /// The two converters of UTF-16 in the other byte order than the machine's.
    utf8_to_utf16_swapped: Converter<u8, U16Swapped>,
    utf16_swapped_to_utf8: Converter<U16Swapped, u8>,
    utf8_to_utf32: Converter<u8, u32>,
    utf32_to_utf8: Converter<u32, u8>,
    latin1_to_utf8: SingleByte,
    cp1252_to_utf8: SingleByte,
    utf8_to_latin1: Converter<u8, u8>,
    short: ShortConverters,
    /// The sums of the length functions, compiled for the instruction set.
    lengths: Lengths,
}

/// The converters of short strings of an implementation that has them (see [`Direction`]).
/// From UTF-8 they are tried before the plain loops of `engine::short` and the converters
/// (after the SSE2 loop of ASCII, which most short strings are); into UTF-8, after the leading
/// ASCII and before the plain loops and the converters.
#[derive(Clone, Copy)]
struct ShortConverters {
    utf8_to_utf16: Option<ShortConverter<u8, u16>>,
    utf8_to_utf16_swapped: Option<ShortConverter<u8, U16Swapped>>,
    utf8_to_utf32: Option<ShortConverter<u8, u32>>,
    utf16_to_utf8: Option<ShortConverter<u16, u8>>,
    utf16_swapped_to_utf8: Option<ShortConverter<U16Swapped, u8>>,
    utf32_to_utf8: Option<ShortConverter<u32, u8>>,
}

impl ShortConverters {
    /// None: short strings go to the plain loops and the converters.
    const NONE: Self = Self {
        utf8_to_utf16: None,
        utf8_to_utf16_swapped: None,
        utf8_to_utf32: None,
        utf16_to_utf8: None,
        utf16_swapped_to_utf8: None,
        utf32_to_utf8: None,
    };
}

/// A converter of short strings (up to [`SHORT_UTF8`] bytes of UTF-8, or
/// [`SHORT_INTO_UTF8_BYTES`] bytes of UTF-16 or UTF-32 into UTF-8): all of a well-formed string
/// whose output fits, `Ok` with the units written; else `Err` with the number of leading units
/// converted, ASCII (from UTF-8, whole steps of it; else 0), the rest being the converter's.
/// Into UTF-8 it may also have written the bytes of a well-formed prefix, which the converter
/// then writes again alike.
type ShortConverter<S, T> = unsafe fn(&mut ShortCall<'_, S, T>) -> Result<usize, usize>;

/// The longest string of UTF-8 given to a [`ShortConverter`]: AVX-512's four or five steps
/// (of up to one register each, ending where a character ends).
const SHORT_UTF8: usize = 256;

/// Strings of ASCII whose units take up to this many bytes go to the SSE2 loop before a
/// [`ShortConverter`] (128 bytes into UTF-16, 64 into UTF-32): it converts them in fewer
/// instructions than the call, from 17 bytes with no branch on their length within each
/// power of two (see BENCHMARKS.md).
const SHORT_ASCII_FIRST_OUT: usize = 256;

/// The longest string of UTF-16 or UTF-32, in bytes, given to a [`ShortConverter`] into
/// UTF-8: AVX-512's eight steps, 256 units of UTF-16 or 128 of UTF-32.
const SHORT_INTO_UTF8_BYTES: usize = 512;

static SCALAR: Kernels = Kernels {
    isa: Isa::Scalar,
    lengths: scalar::LENGTHS,
    validate: scalar::no_validation,
    count: scalar::no_count,
    count_utf16: scalar::no_count,
    utf8_to_utf16: scalar::utf8_to_utf16,
    utf16_to_utf8: scalar::utf16_to_utf8,
    utf8_to_utf16_swapped: scalar::utf8_to_utf16,
    utf16_swapped_to_utf8: scalar::utf16_to_utf8,
    utf8_to_utf32: scalar::utf8_to_utf32,
    utf32_to_utf8: scalar::utf32_to_utf8,
    latin1_to_utf8: scalar::latin1_to_utf8,
    cp1252_to_utf8: scalar::cp1252_to_utf8,
    utf8_to_latin1: scalar::utf8_to_latin1,
    short: ShortConverters::NONE,
};
/// Validation and counting in 16-byte registers; the converters of UTF-16 and UTF-32 are the
/// scalar loops, those from UTF-8 validating with this kernel; those of Latin-1 and
/// Windows-1252 copy runs of ASCII and convert blocks in the same registers.
#[cfg(target_arch = "aarch64")]
static NEON: Kernels = Kernels {
    isa: Isa::Neon,
    validate: neon::validate::<true>,
    count: neon::count::<true, CHARS>,
    count_utf16: neon::count::<true, UTF16_UNITS>,
    utf8_to_utf16: neon::utf8_to_utf16,
    utf8_to_utf16_swapped: neon::utf8_to_utf16,
    utf8_to_utf32: neon::utf8_to_utf32,
    latin1_to_utf8: neon::latin1_to_utf8,
    cp1252_to_utf8: neon::cp1252_to_utf8,
    utf8_to_latin1: neon::utf8_to_latin1,
    ..SCALAR
};

#[cfg(target_arch = "x86_64")]
static SSE42: Kernels = Kernels {
    isa: Isa::Sse42,
    lengths: sse42::LENGTHS,
    validate: sse42::validate::<true>,
    count: sse42::count::<true, CHARS>,
    count_utf16: sse42::count::<true, UTF16_UNITS>,
    utf8_to_utf16: sse42::utf8_to_utf16,
    utf16_to_utf8: sse42::utf16_to_utf8,
    utf8_to_utf16_swapped: sse42::utf8_to_utf16,
    utf16_swapped_to_utf8: sse42::utf16_to_utf8,
    utf8_to_utf32: sse42::utf8_to_utf32,
    utf32_to_utf8: sse42::utf32_to_utf8,
    latin1_to_utf8: sse42::latin1_to_utf8,
    cp1252_to_utf8: sse42::cp1252_to_utf8,
    utf8_to_latin1: sse42::utf8_to_latin1,
    short: ShortConverters::NONE,
};
#[cfg(target_arch = "x86_64")]
static AVX2: Kernels = Kernels {
    isa: Isa::Avx2,
    lengths: avx2::LENGTHS,
    validate: avx2::validate::<true>,
    count: avx2::count::<true, CHARS>,
    count_utf16: avx2::count::<true, UTF16_UNITS>,
    utf8_to_utf16: avx2::utf8_to_utf16,
    utf16_to_utf8: avx2::utf16_to_utf8,
    utf8_to_utf16_swapped: avx2::utf8_to_utf16,
    utf16_swapped_to_utf8: avx2::utf16_to_utf8,
    utf8_to_utf32: avx2::utf8_to_utf32,
    utf32_to_utf8: avx2::utf32_to_utf8,
    latin1_to_utf8: avx2::latin1_to_utf8,
    cp1252_to_utf8: avx2::cp1252_to_utf8,
    utf8_to_latin1: avx2::utf8_to_latin1,
    short: ShortConverters::NONE,
};
/// Validation and counting in 64-byte registers; UTF-16 of either byte order into UTF-8 with
/// steps of 32 units below U+0800 and of 32 of any other characters, and runs of ASCII only
/// from 96 units; UTF-32 into UTF-8 with a run of the steps of 32 units below U+0800 and of 16
/// units of any other scalar values; and UTF-8 into UTF-16 of either byte order and UTF-32
/// with runs of blocks of 1-3 byte characters, each block in one register, and steps of
/// characters of any lengths (text with 4-byte characters), up to 32 into UTF-16 and a whole
/// block's into UTF-32. The
/// loop of UTF-8 into UTF-32 is AVX2's compiled for AVX2 alone, which calls this kernel's
/// validation, runs and steps (compiled with AVX-512 enabled, it was slower on AMD Zen 4; see
/// BENCHMARKS.md). Latin-1 and Windows-1252 into UTF-8 and UTF-8 into Latin-1 in blocks of 64
/// bytes, whose bytes VBMI2 compresses.
#[cfg(all(target_arch = "x86_64", libutf8_avx512))]
static AVX512: Kernels = Kernels {
    isa: Isa::Avx512,
    lengths: Lengths {
        utf8_from_utf16: avx512::lengths::utf8_length_from_utf16::<u16>,
        utf8_from_utf16_swapped: avx512::lengths::utf8_length_from_utf16::<U16Swapped>,
        utf8_from_utf32: avx512::lengths::utf8_length_from_utf32,
        ..avx512::LENGTHS
    },
    validate: avx512::validate::<true>,
    count: avx512::count::<true, CHARS>,
    count_utf16: avx512::count::<true, UTF16_UNITS>,
    utf8_to_utf16: avx512::from_utf8::utf8_to_utf16,
    utf8_to_utf32: avx512::from_utf8::utf8_to_utf32,
    utf16_to_utf8: avx512::to_utf8::utf16_to_utf8::<true, _>,
    utf32_to_utf8: avx512::to_utf8::utf32_to_utf8,
    utf8_to_utf16_swapped: avx512::from_utf8::utf8_to_utf16,
    utf16_swapped_to_utf8: avx512::to_utf8::utf16_to_utf8::<true, _>,
    latin1_to_utf8: avx512::latin1::latin1_to_utf8::<avx512::latin1::Generic>,
    cp1252_to_utf8: avx512::latin1::cp1252_to_utf8::<avx512::latin1::Generic>,
    utf8_to_latin1: avx512::latin1::utf8_to_latin1::<avx512::latin1::Generic>,
    short: ShortConverters {
        utf8_to_utf16: Some(avx512::from_utf8::short_utf8::<u16>),
        utf8_to_utf16_swapped: Some(avx512::from_utf8::short_utf8::<U16Swapped>),
        utf8_to_utf32: Some(avx512::from_utf8::short_utf8::<u32>),
        utf16_to_utf8: Some(avx512::to_utf8::short_to_utf8::<u16>),
        utf16_swapped_to_utf8: Some(avx512::to_utf8::short_to_utf8::<U16Swapped>),
        utf32_to_utf8: Some(avx512::to_utf8::short_to_utf8::<u32>),
    },
};
/// AVX512's kernels, but validation and counting never prefetch (see `lookup::STREAM_FROM`),
/// UTF-16 of either byte order into UTF-8 leaves its steps for ASCII as AVX2's loop does (see
/// `avx512::to_utf8::utf16_to_utf8`), and the converters into UTF-8 of Latin-1 and Windows-1252
/// make their compressions' masks by PDEP and, as the one from UTF-8 into Latin-1, copy runs of
/// ASCII after sixteen blocks (`avx512::latin1::Zen4`): the choices of AVX512, measured on
/// Intel, that Zen 4 runs slower or that were not measured there. (The converters from UTF-8
/// into UTF-16 and UTF-32, whose validation costs less than their conversion, keep AVX512's.)
#[cfg(all(target_arch = "x86_64", libutf8_avx512))]
static AVX512_ZEN4: Kernels = Kernels {
    isa: Isa::Avx512Zen4,
    validate: avx512::validate::<false>,
    count: avx512::count::<false, CHARS>,
    count_utf16: avx512::count::<false, UTF16_UNITS>,
    utf16_to_utf8: avx512::to_utf8::utf16_to_utf8::<false, _>,
    utf16_swapped_to_utf8: avx512::to_utf8::utf16_to_utf8::<false, _>,
    latin1_to_utf8: avx512::latin1::latin1_to_utf8::<avx512::latin1::Zen4>,
    cp1252_to_utf8: avx512::latin1::cp1252_to_utf8::<avx512::latin1::Zen4>,
    utf8_to_latin1: avx512::latin1::utf8_to_latin1::<avx512::latin1::Zen4>,
    ..AVX512
};
/// AVX512's kernels, but the Latin-1 converters copy runs of ASCII from loads aligned to the
/// input, their stores split where the output's offset in a cache line differs, and a block at
/// a steady pace where input and output outgrow L1 but not L2 (`avx512::latin1::Zen5`): on
/// AMD Zen 5 a split store costs less than a split load, on Intel more. (Zen 5 runs AVX512's
/// other choices faster than Zen 4's: BENCHMARKS.md.)
#[cfg(all(target_arch = "x86_64", libutf8_avx512))]
static AVX512_ZEN5: Kernels = Kernels {
    isa: Isa::Avx512Zen5,
    latin1_to_utf8: avx512::latin1::latin1_to_utf8::<avx512::latin1::Zen5>,
    cp1252_to_utf8: avx512::latin1::cp1252_to_utf8::<avx512::latin1::Zen5>,
    utf8_to_latin1: avx512::latin1::utf8_to_latin1::<avx512::latin1::Zen5>,
    ..AVX512
};

impl Isa {
    /// Every implementation, best last among those of one architecture (but for the three
    /// tunings of AVX-512, of which [`Isa::best`] picks the CPU's).
    pub const ALL: [Isa; 7] = [
        Isa::Scalar,
        Isa::Sse42,
        Isa::Avx2,
        Isa::Avx512,
        Isa::Avx512Zen4,
        Isa::Avx512Zen5,
        Isa::Neon,
    ];

    /// The name `LIBUTF8_FORCE_ISA` accepts.
    pub fn name(self) -> &'static str {
        match self {
            Isa::Scalar => "scalar",
            Isa::Sse42 => "sse4.2",
            Isa::Avx2 => "avx2",
            Isa::Avx512 => "avx512",
            Isa::Avx512Zen4 => "avx512-zen4",
            Isa::Avx512Zen5 => "avx512-zen5",
            Isa::Neon => "neon",
        }
    }

    /// Whether this CPU can run it.
    pub fn is_supported(self) -> bool {
        match self {
            Isa::Scalar => true,
            #[cfg(target_arch = "x86_64")]
            Isa::Sse42 => cpu::has(cpu::SSE42 | cpu::POPCNT),
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => cpu::has(cpu::AVX2 | cpu::POPCNT),
            // VBMI too: the first CPUs with AVX-512 (Skylake-SP) lack it, and lower their clock
            // while they run 512-bit code. simdutf likewise keeps its AVX-512 kernel for Ice
            // Lake and later. The converters permute bytes with VBMI and compress them with
            // VBMI2, count leading zeros with LZCNT and deposit bits with BMI2, which every CPU
            // with VBMI2 has.
            #[cfg(all(target_arch = "x86_64", libutf8_avx512))]
            Isa::Avx512 | Isa::Avx512Zen4 | Isa::Avx512Zen5 => {
                cpu::has(cpu::AVX512 | cpu::AVX2 | cpu::POPCNT | cpu::LZCNT | cpu::BMI2)
            }
            // Part of the aarch64 baseline, which the code is compiled for.
            #[cfg(target_arch = "aarch64")]
            Isa::Neon => cfg!(target_feature = "neon"),
            #[cfg(not(target_arch = "x86_64"))]
            Isa::Sse42 | Isa::Avx2 => false,
            // Not compiled in: x86_64 built with a compiler that lacks AVX-512 (see build.rs),
            // or another architecture.
            #[cfg(not(all(target_arch = "x86_64", libutf8_avx512)))]
            Isa::Avx512 | Isa::Avx512Zen4 | Isa::Avx512Zen5 => false,
            #[cfg(not(target_arch = "aarch64"))]
            Isa::Neon => false,
        }
    }

    /// The implementations this CPU can run, in the order of [`Isa::ALL`].
    pub fn supported() -> impl Iterator<Item = Isa> {
        Isa::ALL.into_iter().filter(|isa| isa.is_supported())
    }

    /// The implementation this CPU runs best: the last it supports, but of the three tunings
    /// of AVX-512, `Avx512Zen4` on AMD's family 19h (Zen 4), `Avx512Zen5` on its family 1Ah
    /// (Zen 5) and `Avx512` elsewhere.
    pub fn best() -> Isa {
        #[cfg(target_arch = "x86_64")]
        let tuning = if cpu::has(cpu::AMD_FAMILY_19H) {
            Isa::Avx512Zen4
        } else if cpu::has(cpu::AMD_FAMILY_1AH) {
            Isa::Avx512Zen5
        } else {
            Isa::Avx512
        };
        #[cfg(not(target_arch = "x86_64"))]
        let tuning = Isa::Avx512;
        Isa::best_of(Isa::supported(), tuning)
    }

    /// [`Isa::best`] of `supported` (in the order of [`Isa::ALL`]), on a CPU whose tuning of
    /// AVX-512 is `tuning`.
    fn best_of(supported: impl Iterator<Item = Isa>, tuning: Isa) -> Isa {
        let tuned_for_another = |isa: &Isa| {
            matches!(isa, Isa::Avx512 | Isa::Avx512Zen4 | Isa::Avx512Zen5) && *isa != tuning
        };
        supported
            .filter(|isa| !tuned_for_another(isa))
            .last()
            .unwrap_or(Isa::Scalar)
    }

    /// The implementation to use: `LIBUTF8_FORCE_ISA` if set and not empty, else
    /// [`Isa::best`].
    ///
    /// A forced implementation that is unknown or that this CPU lacks is reported on standard
    /// error (once per process) and ignored, so that the library never runs an instruction the
    /// CPU lacks.
    pub fn selected() -> Isa {
        let best = Isa::best();
        env::with_forced_isa(|forced| {
            let forced = forced.filter(|value| !value.is_empty())?;
            match Isa::ALL
                .into_iter()
                .find(|isa| forced == isa.name().as_bytes())
            {
                Some(isa) if isa.is_supported() => Some(isa),
                found => {
                    let reason: &[u8] = if found.is_some() {
                        b" is not supported by this CPU; using "
                    } else {
                        b" is unknown; using "
                    };
                    env::report_ignored(forced, reason, best.name());
                    None
                }
            }
        })
        .unwrap_or(best)
    }

    /// Validates `s` with this implementation, or `None` if the CPU cannot run it.
    #[cfg(any(test, feature = "internals"))]
    pub fn validate(self, s: &[u8]) -> Option<Result<(), Utf8Error>> {
        Some(validate_with(self.kernels()?, s))
    }

    /// Counts the characters of `s` as [`crate::count_chars`] does, with this implementation,
    /// or `None` if the CPU cannot run it.
    #[cfg(any(test, feature = "internals"))]
    pub fn count_chars(self, s: &[u8]) -> Option<usize> {
        let kernels = self.kernels()?;
        Some(count_chars_with(s, |rest| count_prefix_with(kernels, rest)))
    }

    /// The UTF-16 units of the lossy conversion of `s` under `replacement`, as
    /// [`crate::transcode::utf16::utf16_length_from_utf8_with`] gives them, with this
    /// implementation, or `None` if the CPU cannot run it.
    #[cfg(any(test, feature = "internals"))]
    pub fn utf16_length_from_utf8(self, s: &[u8], replacement: Replacement) -> Option<usize> {
        Some(utf16_length_from_utf8_with(self.kernels()?, s, replacement))
    }

    /// The UTF-32 units of the lossy conversion of `s` under `replacement`, as
    /// [`crate::transcode::utf32::utf32_length_from_utf8_with`] gives them, with this
    /// implementation, or `None` if the CPU cannot run it.
    #[cfg(any(test, feature = "internals"))]
    pub fn utf32_length_from_utf8(self, s: &[u8], replacement: Replacement) -> Option<usize> {
        let kernels = self.kernels()?;
        let prefix = |rest: &[u8]| count_prefix_with(kernels, rest);
        Some(count_units_with(s, prefix, |_| 0, error_units(replacement)))
    }

    /// The UTF-8 bytes of the lossy conversion of `s` under `replacement`, of UTF-16 in the
    /// machine's byte order or, if `swapped`, in the other one, with this implementation, or
    /// `None` if the CPU cannot run it.
    #[cfg(any(test, feature = "internals"))]
    pub fn utf8_length_from_utf16(
        self,
        s: &[u16],
        swapped: bool,
        replacement: Replacement,
    ) -> Option<usize> {
        let lengths = self.kernels()?.lengths;
        let f = if swapped {
            lengths.utf8_from_utf16_swapped
        } else {
            lengths.utf8_from_utf16
        };
        // SAFETY: `Kernels` tables are only handed out for ISAs the CPU supports.
        Some(unsafe { f(s, replacement) })
    }

    /// The UTF-8 bytes of the lossy conversion of `s` (UTF-32) under `replacement`, with this
    /// implementation, or `None` if the CPU cannot run it.
    #[cfg(any(test, feature = "internals"))]
    pub fn utf8_length_from_utf32(self, s: &[u32], replacement: Replacement) -> Option<usize> {
        // SAFETY: `Kernels` tables are only handed out for ISAs the CPU supports.
        Some(unsafe { (self.kernels()?.lengths.utf8_from_utf32)(s, replacement) })
    }

    /// The length of the prefix of `s` that this implementation's kernel accepts: all of `s`
    /// if it is well-formed, else whole 64-byte blocks (from a 64-byte boundary in a long
    /// input; 0 for the scalar implementation), or `None` if the CPU cannot run it. For tests:
    /// a kernel that rejected good blocks would be exact but slow.
    #[cfg(any(test, feature = "internals"))]
    pub fn valid_blocks_len(self, s: &[u8]) -> Option<usize> {
        let kernels = self.kernels()?;
        // SAFETY: `kernels` returns only kernels whose ISA the CPU supports.
        Some(unsafe { (kernels.validate)(s) }.map_or_else(|len| len, |()| s.len()))
    }

    /// Converts UTF-8 to UTF-16 with this implementation (its converter of short strings
    /// first, as the library does), or `None` if the CPU cannot run it.
    #[cfg(any(test, feature = "internals"))]
    pub fn utf8_to_utf16(self, src: &[u8], dst: &mut [u16], mode: Mode) -> Option<Progress> {
        let k = self.kernels()?;
        // SAFETY: `kernels` returns only kernels whose ISA the CPU supports; the converters
        // write units, and store back only units they read from `dst`.
        Some(unsafe {
            let dst = as_uninit(dst);
            short_kernel_first::<FromUtf8<u16>>(
                k.short.utf8_to_utf16,
                SHORT_UTF8,
                k.utf8_to_utf16,
                src,
                dst,
                mode,
            )
        })
    }

    /// Converts UTF-16 to UTF-8 with this implementation (its converter of short strings
    /// first, as the library does after the leading ASCII), or `None` if the CPU cannot run
    /// it.
    #[cfg(any(test, feature = "internals"))]
    pub fn utf16_to_utf8(self, src: &[u16], dst: &mut [u8], mode: Mode) -> Option<Progress> {
        let k = self.kernels()?;
        // SAFETY: `kernels` returns only kernels whose ISA the CPU supports; the converters
        // write units, and store back only units they read from `dst`.
        Some(unsafe {
            let dst = as_uninit(dst);
            let (short, convert) = (k.short.utf16_to_utf8, k.utf16_to_utf8);
            short_kernel_first::<IntoUtf8<u16>>(
                short,
                SHORT_INTO_UTF8_BYTES,
                convert,
                src,
                dst,
                mode,
            )
        })
    }

    /// Converts UTF-8 to UTF-16 in the other byte order than the machine's with this
    /// implementation, or `None` if the CPU cannot run it.
    #[cfg(any(test, feature = "internals"))]
    pub fn utf8_to_utf16_swapped(
        self,
        src: &[u8],
        dst: &mut [u16],
        mode: Mode,
    ) -> Option<Progress> {
        let k = self.kernels()?;
        // SAFETY: `kernels` returns only kernels whose ISA the CPU supports; the converters
        // write units, and store back only units they read from `dst`.
        Some(unsafe {
            let dst = U16Swapped::units_mut(as_uninit(dst));
            short_kernel_first::<FromUtf8<U16Swapped>>(
                k.short.utf8_to_utf16_swapped,
                SHORT_UTF8,
                k.utf8_to_utf16_swapped,
                src,
                dst,
                mode,
            )
        })
    }

    /// Converts UTF-16 in the other byte order than the machine's to UTF-8 with this
    /// implementation, or `None` if the CPU cannot run it.
    #[cfg(any(test, feature = "internals"))]
    pub fn utf16_swapped_to_utf8(
        self,
        src: &[u16],
        dst: &mut [u8],
        mode: Mode,
    ) -> Option<Progress> {
        let (k, src) = (self.kernels()?, U16Swapped::units(src));
        // SAFETY: as for `utf8_to_utf16_swapped`.
        Some(unsafe {
            let dst = as_uninit(dst);
            let (short, convert) = (k.short.utf16_swapped_to_utf8, k.utf16_swapped_to_utf8);
            short_kernel_first::<IntoUtf8<U16Swapped>>(
                short,
                SHORT_INTO_UTF8_BYTES,
                convert,
                src,
                dst,
                mode,
            )
        })
    }

    /// Converts UTF-8 to UTF-32 with this implementation, or `None` if the CPU cannot run it.
    #[cfg(any(test, feature = "internals"))]
    pub fn utf8_to_utf32(self, src: &[u8], dst: &mut [u32], mode: Mode) -> Option<Progress> {
        let k = self.kernels()?;
        // SAFETY: `kernels` returns only kernels whose ISA the CPU supports; the converters
        // write units, and store back only units they read from `dst`.
        Some(unsafe {
            let dst = as_uninit(dst);
            short_kernel_first::<FromUtf8<u32>>(
                k.short.utf8_to_utf32,
                SHORT_UTF8,
                k.utf8_to_utf32,
                src,
                dst,
                mode,
            )
        })
    }

    /// Converts UTF-32 to UTF-8 with this implementation, or `None` if the CPU cannot run it.
    #[cfg(any(test, feature = "internals"))]
    pub fn utf32_to_utf8(self, src: &[u32], dst: &mut [u8], mode: Mode) -> Option<Progress> {
        let k = self.kernels()?;
        // SAFETY: `kernels` returns only kernels whose ISA the CPU supports; the converters
        // write units, and store back only units they read from `dst`.
        Some(unsafe {
            let dst = as_uninit(dst);
            let (short, convert) = (k.short.utf32_to_utf8, k.utf32_to_utf8);
            short_kernel_first::<IntoUtf8<u32>>(
                short,
                SHORT_INTO_UTF8_BYTES,
                convert,
                src,
                dst,
                mode,
            )
        })
    }

    /// Converts Latin-1 to UTF-8 with this implementation, or `None` if the CPU cannot run it.
    #[cfg(any(test, feature = "internals"))]
    pub fn latin1_to_utf8(self, src: &[u8], dst: &mut [u8]) -> Option<Progress> {
        // SAFETY: `kernels` returns only kernels whose ISA the CPU supports; the converters
        // write bytes, and read none of `dst`.
        Some(unsafe { (self.kernels()?.latin1_to_utf8)(src, as_uninit(dst)) })
    }

    /// Converts Windows-1252 to UTF-8 with this implementation, or `None` if the CPU cannot run
    /// it.
    #[cfg(any(test, feature = "internals"))]
    pub fn cp1252_to_utf8(self, src: &[u8], dst: &mut [u8]) -> Option<Progress> {
        // SAFETY: as for `latin1_to_utf8`.
        Some(unsafe { (self.kernels()?.cp1252_to_utf8)(src, as_uninit(dst)) })
    }

    /// Converts UTF-8 to Latin-1 with this implementation, or `None` if the CPU cannot run it.
    #[cfg(any(test, feature = "internals"))]
    pub fn utf8_to_latin1(self, src: &[u8], dst: &mut [u8], mode: Mode) -> Option<Progress> {
        // SAFETY: as for `latin1_to_utf8`.
        Some(unsafe { (self.kernels()?.utf8_to_latin1)(src, as_uninit(dst), mode) })
    }

    /// The kernels, if the CPU can run them.
    fn kernels(self) -> Option<&'static Kernels> {
        if !self.is_supported() {
            return None;
        }
        match self {
            Isa::Scalar => Some(&SCALAR),
            #[cfg(target_arch = "x86_64")]
            Isa::Sse42 => Some(&SSE42),
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => Some(&AVX2),
            #[cfg(all(target_arch = "x86_64", libutf8_avx512))]
            Isa::Avx512 => Some(&AVX512),
            #[cfg(all(target_arch = "x86_64", libutf8_avx512))]
            Isa::Avx512Zen4 => Some(&AVX512_ZEN4),
            #[cfg(all(target_arch = "x86_64", libutf8_avx512))]
            Isa::Avx512Zen5 => Some(&AVX512_ZEN5),
            #[cfg(target_arch = "aarch64")]
            Isa::Neon => Some(&NEON),
            #[cfg(not(target_arch = "x86_64"))]
            Isa::Sse42 | Isa::Avx2 => None,
            #[cfg(not(all(target_arch = "x86_64", libutf8_avx512)))]
            Isa::Avx512 | Isa::Avx512Zen4 | Isa::Avx512Zen5 => None,
            #[cfg(not(target_arch = "aarch64"))]
            Isa::Neon => None,
        }
    }
}

/// Validates `s` with `kernels`: the scalar code only runs where the kernel found an error.
fn validate_with(kernels: &Kernels, s: &[u8]) -> Result<(), Utf8Error> {
    // SAFETY: `Kernels` tables are only handed out for ISAs the CPU supports.
    unsafe { validate_kernel(kernels.validate, s) }
}

/// The longest well-formed prefix of `s` with its characters counted, using `kernels`.
///
/// Out of line, as it was while the tests' `Isa::count_chars` was compiled into every build and
/// also called it: inlined into [`count_prefix`], its one caller in the C library, it left that
/// too long to be inlined into the counting loop, which changed `utf8_count_chars`'s code.
#[inline(never)]
fn count_prefix_with(kernels: &Kernels, s: &[u8]) -> Prefix {
    prefix_counted_by(kernels.count, s, |_| 1, |_| 0)
}

/// The longest well-formed prefix of `s`, with what `counter` (a kernel of a [`Kernels`] table)
/// counts in it: the kernel's whole blocks, then the scalar code from the last character that
/// starts in them, which counts characters, `more(stretch)` adding what the characters of its
/// stretch take besides. A sequence cut off at the end of the blocks was counted there by its
/// lead byte, `lead_units(lead)` units, and is counted again after them.
#[inline(always)]
fn prefix_counted_by(
    counter: Counter,
    s: &[u8],
    lead_units: impl Fn(u8) -> usize,
    more: impl Fn(&[u8]) -> usize,
) -> Prefix {
    // SAFETY: `Kernels` tables are only handed out for ISAs the CPU supports.
    let blocks = unsafe { counter(s) };
    if blocks.valid {
        return Prefix {
            len: s.len(),
            chars: blocks.chars,
            error: None,
        };
    }
    let resume = char_start_at_or_before(s, blocks.len);
    let cut = if resume < blocks.len {
        lead_units(s.get(resume).copied().unwrap_or_default())
    } else {
        0
    };
    let after = s.get(resume..).unwrap_or_default();
    let rest = scalar_prefix(after);
    let more = more(after.get(..rest.len).unwrap_or(after));
    Prefix {
        len: resume + rest.len,
        chars: blocks.chars.saturating_sub(cut) + rest.chars + more,
        error: rest.error,
    }
}

/// The implementation in use: [`UNCHOSEN`] until the first call that needs one. A pointer that
/// is never null, so that the functions that call through it test nothing first: a null test
/// with an out-of-line call to [`choose`] made every converter save six registers per call,
/// and `utf8_validate` three.
static ACTIVE: AtomicPtr<Kernels> = AtomicPtr::new(ptr::from_ref(&UNCHOSEN).cast_mut());

/// The table in [`ACTIVE`] before the first call: each kernel chooses the implementation, then
/// runs its kernel.
static UNCHOSEN: Kernels = Kernels {
    // Never read: `active_isa` chooses first.
    isa: Isa::Scalar,
    // SAFETY: `Kernels` tables are only handed out for ISAs the CPU supports.
    validate: |s| unsafe { (choose().validate)(s) },
    // SAFETY: as above.
    count: |s| unsafe { (choose().count)(s) },
    // SAFETY: as above.
    count_utf16: |s| unsafe { (choose().count_utf16)(s) },
    // SAFETY: as above.
    utf8_to_utf16: |s, d, m| unsafe { (choose().utf8_to_utf16)(s, d, m) },
    // SAFETY: as above.
    utf16_to_utf8: |s, d, m| unsafe { (choose().utf16_to_utf8)(s, d, m) },
    // SAFETY: as above.
    utf8_to_utf16_swapped: |s, d, m| unsafe { (choose().utf8_to_utf16_swapped)(s, d, m) },
    // SAFETY: as above.
    utf16_swapped_to_utf8: |s, d, m| unsafe { (choose().utf16_swapped_to_utf8)(s, d, m) },
    // SAFETY: as above.
    utf8_to_utf32: |s, d, m| unsafe { (choose().utf8_to_utf32)(s, d, m) },
    // SAFETY: as above.
    utf32_to_utf8: |s, d, m| unsafe { (choose().utf32_to_utf8)(s, d, m) },
    // SAFETY: as above.
    latin1_to_utf8: |s, d| unsafe { (choose().latin1_to_utf8)(s, d) },
    // SAFETY: as above.
    cp1252_to_utf8: |s, d| unsafe { (choose().cp1252_to_utf8)(s, d) },
    // SAFETY: as above.
    utf8_to_latin1: |s, d, m| unsafe { (choose().utf8_to_latin1)(s, d, m) },
    lengths: Lengths {
        // SAFETY: as above.
        four_byte_leads: |s| unsafe { (choose().lengths.four_byte_leads)(s) },
        // SAFETY: as above.
        utf8_from_utf16: |s, r| unsafe { (choose().lengths.utf8_from_utf16)(s, r) },
        // SAFETY: as above.
        utf8_from_utf16_swapped: |s, r| unsafe { (choose().lengths.utf8_from_utf16_swapped)(s, r) },
        // SAFETY: as above.
        utf8_from_utf32: |s, r| unsafe { (choose().lengths.utf8_from_utf32)(s, r) },
    },
    // The short converters choose too: a program that converts only short strings of ASCII
    // would otherwise never reach a kernel that chooses, and never use them.
    short: ShortConverters {
        // SAFETY: as above.
        utf8_to_utf16: Some(|call| unsafe {
            choose().short.utf8_to_utf16.map_or(Err(0), |f| f(call))
        }),
        // SAFETY: as above.
        utf8_to_utf16_swapped: Some(|call| unsafe {
            choose()
                .short
                .utf8_to_utf16_swapped
                .map_or(Err(0), |f| f(call))
        }),
        // SAFETY: as above.
        utf8_to_utf32: Some(|call| unsafe {
            choose().short.utf8_to_utf32.map_or(Err(0), |f| f(call))
        }),
        // SAFETY: as above.
        utf16_to_utf8: Some(|call| unsafe {
            choose().short.utf16_to_utf8.map_or(Err(0), |f| f(call))
        }),
        // SAFETY: as above.
        utf16_swapped_to_utf8: Some(|call| unsafe {
            choose()
                .short
                .utf16_swapped_to_utf8
                .map_or(Err(0), |f| f(call))
        }),
        // SAFETY: as above.
        utf32_to_utf8: Some(|call| unsafe {
            choose().short.utf32_to_utf8.map_or(Err(0), |f| f(call))
        }),
    },
};

/// The kernels of the implementation in use, or [`UNCHOSEN`]'s.
#[inline]
fn active() -> &'static Kernels {
    // SAFETY: ACTIVE holds a pointer to one of the `static` Kernels tables.
    unsafe { &*ACTIVE.load(Ordering::Relaxed) }
}

/// Whether the implementation in use is AVX-512's (any tuning): false before the first choice
/// too (see [`chosen`]).
#[cfg(all(target_arch = "x86_64", libutf8_avx512))]
#[inline(always)]
pub(crate) fn avx512_in_use() -> bool {
    is_avx512(active())
}

/// Whether `kernels` are one of AVX-512's tunings ([`UNCHOSEN`]'s say scalar).
#[cfg(all(target_arch = "x86_64", libutf8_avx512))]
#[inline(always)]
fn is_avx512(kernels: &Kernels) -> bool {
    matches!(kernels.isa, Isa::Avx512 | Isa::Avx512Zen4 | Isa::Avx512Zen5)
}

/// Whether the implementation has been chosen (see [`choose_now`]).
#[cfg(all(target_arch = "x86_64", libutf8_avx512))]
#[inline(always)]
pub(crate) fn chosen() -> bool {
    !ptr::eq(active(), &UNCHOSEN)
}

/// Chooses the implementation, for a caller that asks [`avx512_in_use`] before any kernel has.
#[cfg(all(target_arch = "x86_64", libutf8_avx512))]
#[cold]
#[inline(never)]
pub(crate) fn choose_now() {
    choose();
}

/// A unit of UTF-16 or UTF-32 into which the C functions convert short strings from UTF-8 by
/// AVX-512's code compiled into their own functions, not called through the tables: strings of
/// ASCII of some lengths, which it widens faster in registers of 32 and 64 bytes than the SSE2
/// loop or the short converter, and strings of other text (up to 256 bytes into UTF-16, 64 into
/// UTF-32), for which the call through the tables (the input and output handed over in memory,
/// an indirect call) cost about as much as the conversion (see `ffi::transcode`).
#[cfg(all(target_arch = "x86_64", libutf8_avx512))]
pub(crate) trait FromUtf8Avx512: avx512::from_utf8::RunStore {
    /// The lengths of input taken, in bytes.
    const LENGTHS: core::ops::RangeInclusive<usize>;
    /// The longest input of [`FromUtf8Avx512::narrow_avx512`], in bytes: one register.
    const BLOCK: usize = crate::algorithms::from_utf8::BLOCK;
    /// All of `src`, of [`FromUtf8Avx512::LENGTHS`], if it is ASCII, widened into `dst`: `Ok` with
    /// the units written, else `Err(0)`, having written nothing (see
    /// `avx512::from_utf8::widen_if_ascii`).
    ///
    /// # Safety
    /// The CPU has AVX-512F and BW.
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    unsafe fn widen_avx512(src: &[u8], dst: &mut [MaybeUninit<Self>]) -> Result<usize, usize> {
        // SAFETY: by the caller.
        unsafe { avx512::from_utf8::widen_if_ascii(src, dst) }
    }

    /// All of `src` (up to 256 bytes) converted into `dst` by AVX-512's short converter:
    /// `Ok` with the units written, else `Err` with the units of leading ASCII converted (see
    /// `avx512::from_utf8::short_utf8`).
    ///
    /// # Safety
    /// The CPU has AVX-512F, BW, VBMI, VBMI2, LZCNT, POPCNT and BMI2, and the caller is compiled
    /// for them (the code is inlined into it).
    #[inline(always)]
    unsafe fn short_avx512(src: &[u8], dst: &mut [MaybeUninit<Self>]) -> Result<usize, usize> {
        // SAFETY: by the caller.
        unsafe { avx512::from_utf8::short_utf8_of(src, dst) }
    }

    /// All of `src` (up to 64 bytes) converted into `dst` if it is well-formed text of
    /// characters of one and two bytes and fits, else what stopped it (see
    /// `avx512::from_utf8::narrow_block`).
    ///
    /// # Safety
    /// The CPU has AVX-512F, BW, VBMI, VBMI2, POPCNT and BMI2, and the caller is compiled for
    /// them (the code is inlined into it).
    #[inline(always)]
    unsafe fn narrow_avx512(src: &[u8], dst: &mut [MaybeUninit<Self>]) -> Narrow {
        // SAFETY: by the caller.
        unsafe { avx512::from_utf8::narrow_block(src, dst) }
    }

    /// All of `src` (1 to 64 bytes, with a byte from E0) converted into `dst` if it is
    /// well-formed and fits: `Ok` with the units written, else `Err(0)` (see
    /// `avx512::from_utf8::wide_block`).
    ///
    /// # Safety
    /// As for [`FromUtf8Avx512::narrow_avx512`].
    #[inline(always)]
    unsafe fn wide_avx512(src: &[u8], dst: &mut [MaybeUninit<Self>]) -> Result<usize, usize> {
        // SAFETY: by the caller.
        unsafe { avx512::from_utf8::wide_block(avx512::from_utf8::Loaded::new(src), dst) }
    }
}

/// From 65 bytes (the SSE2 loop is as fast up to 64) to 256, where the short converter, called
/// through the tables, would take them.
#[cfg(all(target_arch = "x86_64", libutf8_avx512))]
impl FromUtf8Avx512 for u16 {
    const LENGTHS: core::ops::RangeInclusive<usize> = 65..=256;
}

/// From 33 bytes, whose units the SSE2 loop stores in 16 stores of 16 bytes; up to 64, beyond
/// which strings go to the short converter, and those of other text to it at once.
#[cfg(all(target_arch = "x86_64", libutf8_avx512))]
impl FromUtf8Avx512 for u32 {
    const LENGTHS: core::ops::RangeInclusive<usize> = 33..=64;
}

/// A unit of UTF-16 or UTF-32 whose short strings of other than ASCII the C functions convert
/// into UTF-8 by AVX-512's short converter compiled into their own code, not called through
/// the tables: the call through the tables (the input and output handed over in memory, an
/// indirect call) cost such a string more than its conversion (see `ffi::transcode`).
#[cfg(all(target_arch = "x86_64", libutf8_avx512))]
pub(crate) trait IntoUtf8Avx512: avx512::to_utf8::TailStepUnit {
    /// All of `src` converted into `dst` by AVX-512's short converter if it is one or two
    /// registers of units below U+0800: `Some` of `Ok` with the bytes written, or of `Err(0)`
    /// if they do not fit; else `None` (see `avx512::to_utf8::narrow_string_to_utf8`).
    ///
    /// # Safety
    /// The CPU has AVX-512F, BW, VBMI and VBMI2, AVX2, POPCNT and BMI2, and the caller is
    /// compiled for them (the code is inlined into it).
    #[inline(always)]
    unsafe fn narrow_avx512(
        src: &[Self],
        dst: &mut [MaybeUninit<u8>],
    ) -> Option<Result<usize, usize>> {
        // SAFETY: by the caller.
        unsafe { avx512::to_utf8::narrow_string_to_utf8(src, dst) }
    }

    /// All of `src`, a string that [`IntoUtf8Avx512::narrow_avx512`] does not take, converted
    /// into `dst` by AVX-512's short converter if it takes the string: `Ok` with the bytes
    /// written, else `Err(0)` (see `avx512::to_utf8::short_to_utf8`).
    ///
    /// # Safety
    /// As for [`IntoUtf8Avx512::narrow_avx512`].
    #[inline(always)]
    unsafe fn wide_avx512(src: &[Self], dst: &mut [MaybeUninit<u8>]) -> Result<usize, usize> {
        // SAFETY: by the caller.
        unsafe { avx512::to_utf8::wide_string_to_utf8(src, dst) }
    }
}

#[cfg(all(target_arch = "x86_64", libutf8_avx512))]
impl IntoUtf8Avx512 for u16 {}

#[cfg(all(target_arch = "x86_64", libutf8_avx512))]
impl IntoUtf8Avx512 for u32 {}

/// What AVX-512's conversion of a short string of narrow characters made of it.
#[cfg(all(target_arch = "x86_64", libutf8_avx512))]
pub(crate) use avx512::from_utf8::Narrow;

/// Chooses the implementation and stores it in ACTIVE.
#[cold]
#[inline(never)]
fn choose() -> &'static Kernels {
    let chosen = Isa::selected().kernels().unwrap_or(&SCALAR);
    // Racing first calls store the same pointer.
    ACTIVE.store(ptr::from_ref(chosen).cast_mut(), Ordering::Relaxed);
    chosen
}

/// The implementation in use (chosen on first use).
#[cfg(any(test, feature = "internals"))]
pub fn active_isa() -> Isa {
    let kernels = active();
    if ptr::eq(kernels, &UNCHOSEN) {
        choose().isa
    } else {
        kernels.isa
    }
}

/// Validates `s` with the implementation in use; a short ASCII string needs no kernel.
#[inline]
pub(crate) fn validate(s: &[u8]) -> Result<(), Utf8Error> {
    if s.len() <= SHORT_ASCII && is_short_ascii(s) {
        return Ok(());
    }
    validate_with(active(), s)
}

/// The longest well-formed prefix of `s` with its characters counted, with the
/// implementation in use; a short ASCII string needs no kernel.
///
/// Short strings of other text go to the kernel too, which counts them faster than the scalar
/// code.
#[inline]
pub(crate) fn count_prefix(s: &[u8]) -> Prefix {
    if s.len() <= SHORT_ASCII && is_short_ascii(s) {
        return Prefix {
            len: s.len(),
            chars: s.len(),
            error: None,
        };
    }
    count_prefix_with(active(), s)
}

/// The number of UTF-16 units of the lossy conversion of `s` under `replacement`, with the
/// implementation in use: the UTF-16 units of each well-formed stretch, counted by its kernel as
/// it validates ([`count_utf16_prefix_with`]), or where the scalar code checks it, its
/// characters and its lead bytes of 4-byte characters (`four_byte_leads`); one unit per
/// ill-formed sequence, or under a strategy other than U+FFFD, one per byte of it. At most
/// `s.len()`.
pub(crate) fn utf16_length_from_utf8(s: &[u8], replacement: Replacement) -> usize {
    utf16_length_from_utf8_with(active(), s, replacement)
}

/// [`utf16_length_from_utf8`] with `kernels`.
#[inline(always)]
fn utf16_length_from_utf8_with(kernels: &Kernels, s: &[u8], replacement: Replacement) -> usize {
    let prefix = |rest: &[u8]| {
        if rest.len() <= SHORT_ASCII && is_short_ascii(rest) {
            Prefix {
                len: rest.len(),
                chars: rest.len(),
                error: None,
            }
        } else {
            count_utf16_prefix_with(kernels, rest)
        }
    };
    // SAFETY: `Kernels` tables are only handed out for ISAs the CPU supports.
    let leads = |good: &[u8]| unsafe { (kernels.lengths.four_byte_leads)(good) };
    count_units_with(s, prefix, leads, error_units(replacement))
}

/// The longest well-formed prefix of `s` with the UTF-16 units of its characters counted (in
/// `chars`; two for each character of 4 bytes), using `kernels`: [`count_prefix_with`] with the
/// kernel that counts UTF-16 units, the 4-byte characters of the part after its blocks, which
/// the scalar code checks, counted by `four_byte_leads`.
#[inline(never)]
fn count_utf16_prefix_with(kernels: &Kernels, s: &[u8]) -> Prefix {
    // SAFETY: `Kernels` tables are only handed out for ISAs the CPU supports.
    let leads = |good: &[u8]| unsafe { (kernels.lengths.four_byte_leads)(good) };
    prefix_counted_by(
        kernels.count_utf16,
        s,
        |lead| 1 + usize::from(lead >= 0xF0),
        leads,
    )
}

/// The number of UTF-32 units of the lossy conversion of `s` under `replacement`, with the
/// implementation in use: its characters, and one unit per ill-formed sequence, or under a
/// strategy other than U+FFFD, one per byte of it. At most `s.len()`.
pub(crate) fn utf32_length_from_utf8(s: &[u8], replacement: Replacement) -> usize {
    count_units_with(s, count_prefix, |_| 0, error_units(replacement))
}

/// The number of bytes of the lossy conversion of `s` (UTF-16 in the machine's byte order)
/// into UTF-8 under `replacement`, with the implementation in use. At most `3 * s.len()`.
pub(crate) fn utf8_length_from_utf16(s: &[u16], replacement: Replacement) -> usize {
    // SAFETY: `Kernels` tables are only handed out for ISAs the CPU supports.
    unsafe { (active().lengths.utf8_from_utf16)(s, replacement) }
}

/// [`utf8_length_from_utf16`] of UTF-16 in the other byte order than the machine's.
pub(crate) fn utf8_length_from_utf16_swapped(s: &[u16], replacement: Replacement) -> usize {
    // SAFETY: `Kernels` tables are only handed out for ISAs the CPU supports.
    unsafe { (active().lengths.utf8_from_utf16_swapped)(s, replacement) }
}

/// The number of bytes of the lossy conversion of `s` (UTF-32) into UTF-8 under
/// `replacement`, with the implementation in use. At most `4 * s.len()`.
pub(crate) fn utf8_length_from_utf32(s: &[u32], replacement: Replacement) -> usize {
    // SAFETY: `Kernels` tables are only handed out for ISAs the CPU supports.
    unsafe { (active().lengths.utf8_from_utf32)(s, replacement) }
}

/// The units an ill-formed sequence of `len` bytes becomes under `replacement`: one U+FFFD, or
/// one unit per byte.
fn error_units(replacement: Replacement) -> impl Fn(usize) -> usize {
    move |len| match replacement {
        Replacement::Fffd => 1,
        _ => len,
    }
}

/// A conversion between UTF-8 and UTF-16 (of either byte order) or UTF-32 with the
/// implementation in use, by three paths, each taking over where the one before it stopped
/// (`Err` with the units it converted, all ASCII, one unit for one): a short string of ASCII
/// by the SSE2 loop; a short string of other well-formed text by the table's short
/// converter; anything else by the plain loop or the table's converter. [`convert`] takes them
/// in turn; the C functions take them apart for their common call (see `ffi::transcode`), the
/// first inlined and the others out of line. Short strings convert alike in every mode.
pub(crate) trait Direction {
    /// A unit of the input.
    type Src;
    /// A unit of the output.
    type Dst;
    /// All of a short string of ASCII converted by the SSE2 loop: `Ok` with the units written;
    /// else `Err` with the leading units converted.
    fn ascii(src: &[Self::Src], dst: &mut [MaybeUninit<Self::Dst>]) -> Result<usize, usize>;
    /// All of a short string of well-formed text, the input and output of `call`, converted by
    /// the table's short converter, after [`Direction::ascii`] converted the first `done`
    /// units: `Ok` with the units written; else `Err(done)`. (The caller reads the input and
    /// output of `call` again after it: see [`ShortCall`].)
    fn short(call: &mut ShortCall<'_, Self::Src, Self::Dst>, done: usize) -> Result<usize, usize>;
    /// The conversion of the rest, after the first `done` units: the plain loop for a short
    /// string, else the table's converter.
    fn rest(
        src: &[Self::Src],
        dst: &mut [MaybeUninit<Self::Dst>],
        mode: Mode,
        done: usize,
    ) -> Progress;
    /// All of `src` converted by the table's converter.
    fn table(src: &[Self::Src], dst: &mut [MaybeUninit<Self::Dst>], mode: Mode) -> Progress;
    /// The conversion with [`Mode::more`], by `convert` (a converter, which holds nothing back)
    /// on the input without the units that more input could change (`engine::more`).
    fn held_back(
        src: &[Self::Src],
        dst: &mut [MaybeUninit<Self::Dst>],
        mode: Mode,
        convert: impl FnOnce(&[Self::Src], &mut [MaybeUninit<Self::Dst>], Mode) -> Progress,
    ) -> Progress;
}

/// UTF-8 into units `T`.
pub(crate) struct FromUtf8<T>(PhantomData<T>);

/// Units `S` into UTF-8.
pub(crate) struct IntoUtf8<S>(PhantomData<S>);

/// A unit of UTF-16 (of either byte order) or UTF-32 as the kernel tables convert it.
trait TableUnit: ShortAsciiUnit {
    /// The plain loop of short strings from UTF-8 (`engine::short`).
    fn plain_from_utf8(src: &[u8], dst: &mut [MaybeUninit<Self>]) -> Option<Progress>;
    /// The table's converter and short converter from UTF-8.
    fn from_utf8(k: &Kernels) -> (Converter<u8, Self>, Option<ShortConverter<u8, Self>>);
    /// The table's converter and short converter into UTF-8.
    fn into_utf8(k: &Kernels) -> (Converter<Self, u8>, Option<ShortConverter<Self, u8>>);
    /// The plain loop of short strings into UTF-8 (`engine::short`).
    fn plain_into_utf8(src: &[Self], dst: &mut [MaybeUninit<u8>]) -> Option<Progress>;
    /// [`Direction::held_back`] from UTF-8.
    fn from_utf8_held_back(
        src: &[u8],
        dst: &mut [MaybeUninit<Self>],
        mode: Mode,
        convert: impl FnOnce(&[u8], &mut [MaybeUninit<Self>], Mode) -> Progress,
    ) -> Progress;
    /// [`Direction::held_back`] into UTF-8.
    fn into_utf8_held_back(
        src: &[Self],
        dst: &mut [MaybeUninit<u8>],
        mode: Mode,
        convert: impl FnOnce(&[Self], &mut [MaybeUninit<u8>], Mode) -> Progress,
    ) -> Progress;
}

impl TableUnit for u16 {
    #[inline(always)]
    fn plain_from_utf8(src: &[u8], dst: &mut [MaybeUninit<u16>]) -> Option<Progress> {
        short::from_utf8::<_, true>(src, dst)
    }
    #[inline(always)]
    fn from_utf8(k: &Kernels) -> (Converter<u8, u16>, Option<ShortConverter<u8, u16>>) {
        (k.utf8_to_utf16, k.short.utf8_to_utf16)
    }
    #[inline(always)]
    fn into_utf8(k: &Kernels) -> (Converter<u16, u8>, Option<ShortConverter<u16, u8>>) {
        (k.utf16_to_utf8, k.short.utf16_to_utf8)
    }
    #[inline(always)]
    fn plain_into_utf8(src: &[u16], dst: &mut [MaybeUninit<u8>]) -> Option<Progress> {
        short::utf16_to_utf8(src, dst)
    }
    #[inline(always)]
    fn from_utf8_held_back(
        src: &[u8],
        dst: &mut [MaybeUninit<Self>],
        mode: Mode,
        convert: impl FnOnce(&[u8], &mut [MaybeUninit<Self>], Mode) -> Progress,
    ) -> Progress {
        utf16::utf8_to_utf16_held_back(src, dst, mode, convert)
    }
    #[inline(always)]
    fn into_utf8_held_back(
        src: &[Self],
        dst: &mut [MaybeUninit<u8>],
        mode: Mode,
        convert: impl FnOnce(&[Self], &mut [MaybeUninit<u8>], Mode) -> Progress,
    ) -> Progress {
        utf16::utf16_to_utf8_held_back(src, dst, mode, convert)
    }
}

impl TableUnit for U16Swapped {
    #[inline(always)]
    fn plain_from_utf8(src: &[u8], dst: &mut [MaybeUninit<U16Swapped>]) -> Option<Progress> {
        short::from_utf8::<_, true>(src, dst)
    }
    #[inline(always)]
    fn from_utf8(
        k: &Kernels,
    ) -> (
        Converter<u8, U16Swapped>,
        Option<ShortConverter<u8, U16Swapped>>,
    ) {
        (k.utf8_to_utf16_swapped, k.short.utf8_to_utf16_swapped)
    }
    #[inline(always)]
    fn into_utf8(
        k: &Kernels,
    ) -> (
        Converter<U16Swapped, u8>,
        Option<ShortConverter<U16Swapped, u8>>,
    ) {
        (k.utf16_swapped_to_utf8, k.short.utf16_swapped_to_utf8)
    }
    #[inline(always)]
    fn plain_into_utf8(src: &[U16Swapped], dst: &mut [MaybeUninit<u8>]) -> Option<Progress> {
        short::utf16_to_utf8(src, dst)
    }
    #[inline(always)]
    fn from_utf8_held_back(
        src: &[u8],
        dst: &mut [MaybeUninit<Self>],
        mode: Mode,
        convert: impl FnOnce(&[u8], &mut [MaybeUninit<Self>], Mode) -> Progress,
    ) -> Progress {
        utf16::utf8_to_utf16_held_back(src, dst, mode, convert)
    }
    #[inline(always)]
    fn into_utf8_held_back(
        src: &[Self],
        dst: &mut [MaybeUninit<u8>],
        mode: Mode,
        convert: impl FnOnce(&[Self], &mut [MaybeUninit<u8>], Mode) -> Progress,
    ) -> Progress {
        utf16::utf16_to_utf8_held_back(src, dst, mode, convert)
    }
}

impl TableUnit for u32 {
    #[inline(always)]
    fn plain_from_utf8(src: &[u8], dst: &mut [MaybeUninit<u32>]) -> Option<Progress> {
        short::from_utf8::<_, false>(src, dst)
    }
    #[inline(always)]
    fn from_utf8(k: &Kernels) -> (Converter<u8, u32>, Option<ShortConverter<u8, u32>>) {
        (k.utf8_to_utf32, k.short.utf8_to_utf32)
    }
    #[inline(always)]
    fn into_utf8(k: &Kernels) -> (Converter<u32, u8>, Option<ShortConverter<u32, u8>>) {
        (k.utf32_to_utf8, k.short.utf32_to_utf8)
    }
    #[inline(always)]
    fn plain_into_utf8(src: &[u32], dst: &mut [MaybeUninit<u8>]) -> Option<Progress> {
        short::utf32_to_utf8(src, dst)
    }
    #[inline(always)]
    fn from_utf8_held_back(
        src: &[u8],
        dst: &mut [MaybeUninit<u32>],
        mode: Mode,
        convert: impl FnOnce(&[u8], &mut [MaybeUninit<u32>], Mode) -> Progress,
    ) -> Progress {
        utf32::utf8_to_utf32_held_back(src, dst, mode, convert)
    }
    /// (No unit of UTF-32 waits for the next: the flag changes nothing.)
    #[inline(always)]
    fn into_utf8_held_back(
        src: &[u32],
        dst: &mut [MaybeUninit<u8>],
        mode: Mode,
        convert: impl FnOnce(&[u32], &mut [MaybeUninit<u8>], Mode) -> Progress,
    ) -> Progress {
        convert(src, dst, mode)
    }
}

impl<T: TableUnit> Direction for FromUtf8<T> {
    type Src = u8;
    type Dst = T;

    /// Strings of up to [`SHORT_ASCII_FIRST_OUT`] bytes of units, or up to half
    /// [`SHORT_ASCII`] bytes where the table has no short converter.
    #[inline(always)]
    fn ascii(src: &[u8], dst: &mut [MaybeUninit<T>]) -> Result<usize, usize> {
        let first = SHORT_ASCII_FIRST_OUT / size_of::<T>();
        if src.len() <= first || T::from_utf8(active()).1.is_none() {
            if let Some(done) = short_ascii::from_utf8(src, dst) {
                return Ok(done.written);
            }
        }
        Err(0)
    }

    /// (From UTF-8, `done` is 0: the SSE2 loop converts all or nothing.)
    #[inline(always)]
    fn short(call: &mut ShortCall<'_, u8, T>, _: usize) -> Result<usize, usize> {
        // SAFETY: `Kernels` tables are only handed out for ISAs the CPU supports.
        unsafe { short_converted(T::from_utf8(active()).1, call, SHORT_UTF8) }
    }

    #[inline(always)]
    fn rest(src: &[u8], dst: &mut [MaybeUninit<T>], mode: Mode, ascii: usize) -> Progress {
        if ascii == 0 {
            if let Some(done) = T::plain_from_utf8(src, dst) {
                return done;
            }
        }
        let (src, out) = (
            src.get(ascii..).unwrap_or_default(),
            dst.get_mut(ascii..).unwrap_or_default(),
        );
        // SAFETY: `Kernels` tables are only handed out for ISAs the CPU supports.
        after_ascii(ascii, unsafe { (T::from_utf8(active()).0)(src, out, mode) })
    }

    #[inline(always)]
    fn table(src: &[u8], dst: &mut [MaybeUninit<T>], mode: Mode) -> Progress {
        // SAFETY: `Kernels` tables are only handed out for ISAs the CPU supports.
        unsafe { (T::from_utf8(active()).0)(src, dst, mode) }
    }

    #[inline(always)]
    fn held_back(
        src: &[u8],
        dst: &mut [MaybeUninit<T>],
        mode: Mode,
        convert: impl FnOnce(&[u8], &mut [MaybeUninit<T>], Mode) -> Progress,
    ) -> Progress {
        T::from_utf8_held_back(src, dst, mode, convert)
    }
}

impl<S: TableUnit> Direction for IntoUtf8<S> {
    type Src = S;
    type Dst = u8;

    /// Strings of up to [`SHORT_ASCII`] units, 16 at a time as far as they are ASCII.
    #[inline(always)]
    fn ascii(src: &[S], dst: &mut [MaybeUninit<u8>]) -> Result<usize, usize> {
        short_ascii::into_utf8(src, dst).map(|done| done.written)
    }

    #[inline(always)]
    fn short(call: &mut ShortCall<'_, S, u8>, ascii: usize) -> Result<usize, usize> {
        let short_kernel = S::into_utf8(active()).1;
        // Most strings of other scripts start with other than ASCII: the call's own input and
        // output.
        if ascii == 0 {
            // SAFETY: `Kernels` tables are only handed out for ISAs the CPU supports.
            return unsafe { short_converted(short_kernel, call, SHORT_INTO_UTF8_BYTES) };
        }
        let mut rest = ShortCall {
            src: call.src.get(ascii..).unwrap_or_default(),
            dst: call.dst.get_mut(ascii..).unwrap_or_default(),
        };
        // What a run of ASCII leaves of a short string, if a few units, the plain loop
        // converts faster than the call (accented Latin text; see BENCHMARKS.md).
        let short_kernel = short_kernel.filter(|_| rest.src.len() > short::SHORT_INTO_UTF8);
        // SAFETY: as above.
        match unsafe { short_converted(short_kernel, &mut rest, SHORT_INTO_UTF8_BYTES) } {
            Ok(written) => Ok(ascii + written),
            Err(_) => Err(ascii),
        }
    }

    #[inline(always)]
    fn rest(src: &[S], dst: &mut [MaybeUninit<u8>], mode: Mode, ascii: usize) -> Progress {
        let (src, out) = (
            src.get(ascii..).unwrap_or_default(),
            dst.get_mut(ascii..).unwrap_or_default(),
        );
        let rest = match S::plain_into_utf8(src, out) {
            Some(done) => done,
            // SAFETY: `Kernels` tables are only handed out for ISAs the CPU supports.
            None => unsafe { (S::into_utf8(active()).0)(src, out, mode) },
        };
        after_ascii(ascii, rest)
    }

    #[inline(always)]
    fn table(src: &[S], dst: &mut [MaybeUninit<u8>], mode: Mode) -> Progress {
        // SAFETY: `Kernels` tables are only handed out for ISAs the CPU supports.
        unsafe { (S::into_utf8(active()).0)(src, dst, mode) }
    }

    #[inline(always)]
    fn held_back(
        src: &[S],
        dst: &mut [MaybeUninit<u8>],
        mode: Mode,
        convert: impl FnOnce(&[S], &mut [MaybeUninit<u8>], Mode) -> Progress,
    ) -> Progress {
        S::into_utf8_held_back(src, dst, mode, convert)
    }
}

/// Converts `src` into `dst` by `D`'s paths in turn; with [`Mode::more`], by the table's
/// converter alone, holding back what more input could change (the short strings' paths,
/// inlined into the caller of the converter, would put their frames below it).
#[inline(always)]
fn convert<D: Direction>(src: &[D::Src], dst: &mut [MaybeUninit<D::Dst>], mode: Mode) -> Progress {
    if mode.more {
        return D::held_back(src, dst, mode, D::table);
    }
    let short = |dst: &mut [MaybeUninit<D::Dst>], done| D::short(&mut ShortCall { src, dst }, done);
    match D::ascii(src, dst).or_else(|done| short(dst, done)) {
        Ok(written) => Progress {
            read: src.len(),
            written,
            stop: None,
        },
        Err(done) => D::rest(src, dst, mode, done),
    }
}

/// `short_kernel`'s conversion of the input of `call` into its output (see
/// [`ShortConverter`]), if the table has one and the input is at most `max` bytes long (of
/// any unit); else `Err(0)`.
///
/// # Safety
/// `short_kernel` is from a table of an ISA the CPU supports.
#[inline(always)]
unsafe fn short_converted<S, T>(
    short_kernel: Option<ShortConverter<S, T>>,
    call: &mut ShortCall<'_, S, T>,
    max: usize,
) -> Result<usize, usize> {
    match short_kernel.filter(|_| core::mem::size_of_val(call.src) <= max) {
        // SAFETY: by the caller.
        Some(short_kernel) => unsafe { short_kernel(call) },
        None => Err(0),
    }
}

/// `src` converted by `short_kernel` if it converts all of it, else by `convert` from the
/// start (which writes again alike what the short converter wrote); with [`Mode::more`], by
/// `convert` alone, holding back what `D` holds back: the order of the library's paths, for
/// the tests' entry points of each implementation ([`Isa`]).
///
/// # Safety
/// `short_kernel` and `convert` are from a table of an ISA the CPU supports.
#[cfg(any(test, feature = "internals"))]
unsafe fn short_kernel_first<D: Direction>(
    short_kernel: Option<ShortConverter<D::Src, D::Dst>>,
    max: usize,
    convert: Converter<D::Src, D::Dst>,
    src: &[D::Src],
    dst: &mut [MaybeUninit<D::Dst>],
    mode: Mode,
) -> Progress {
    if mode.more {
        // SAFETY: by the caller.
        return D::held_back(src, dst, mode, |s, d, m| unsafe { convert(s, d, m) });
    }
    let mut call = ShortCall {
        src,
        dst: &mut *dst,
    };
    // SAFETY: by the caller.
    match unsafe { short_converted(short_kernel, &mut call, max) } {
        Ok(written) => Progress {
            read: src.len(),
            written,
            stop: None,
        },
        // SAFETY: by the caller.
        Err(_) => unsafe { convert(src, dst, mode) },
    }
}

/// Converts UTF-8 to UTF-16 with the implementation in use.
#[inline]
pub(crate) fn utf8_to_utf16(src: &[u8], dst: &mut [MaybeUninit<u16>], mode: Mode) -> Progress {
    convert::<FromUtf8<u16>>(src, dst, mode)
}

/// Converts UTF-16 to UTF-8 with the implementation in use.
#[inline]
pub(crate) fn utf16_to_utf8(src: &[u16], dst: &mut [MaybeUninit<u8>], mode: Mode) -> Progress {
    convert::<IntoUtf8<u16>>(src, dst, mode)
}

/// Converts UTF-8 to UTF-16 in the other byte order than the machine's with the implementation
/// in use.
#[inline]
pub(crate) fn utf8_to_utf16_swapped(
    src: &[u8],
    dst: &mut [MaybeUninit<U16Swapped>],
    mode: Mode,
) -> Progress {
    convert::<FromUtf8<U16Swapped>>(src, dst, mode)
}

/// Converts UTF-16 in the other byte order than the machine's to UTF-8 with the implementation
/// in use.
#[inline]
pub(crate) fn utf16_swapped_to_utf8(
    src: &[U16Swapped],
    dst: &mut [MaybeUninit<u8>],
    mode: Mode,
) -> Progress {
    convert::<IntoUtf8<U16Swapped>>(src, dst, mode)
}

/// Converts UTF-8 to UTF-32 with the implementation in use.
#[inline]
pub(crate) fn utf8_to_utf32(src: &[u8], dst: &mut [MaybeUninit<u32>], mode: Mode) -> Progress {
    convert::<FromUtf8<u32>>(src, dst, mode)
}

/// Converts UTF-32 to UTF-8 with the implementation in use.
#[inline]
pub(crate) fn utf32_to_utf8(src: &[u32], dst: &mut [MaybeUninit<u8>], mode: Mode) -> Progress {
    convert::<IntoUtf8<u32>>(src, dst, mode)
}

/// The progress of a conversion whose first `ascii` units, ASCII, were converted before the
/// rest, which gave `rest`: an ASCII unit is one character of one unit on either side,
/// converted alike in every mode, so that the conversion of the rest from there gives the
/// results of the whole.
#[inline(always)]
fn after_ascii(ascii: usize, rest: Progress) -> Progress {
    Progress {
        read: ascii + rest.read,
        written: ascii + rest.written,
        stop: rest.stop,
    }
}

/// Converts Latin-1 to UTF-8 with the implementation in use.
#[inline]
pub(crate) fn latin1_to_utf8(src: &[u8], dst: &mut [MaybeUninit<u8>]) -> Progress {
    // SAFETY: `Kernels` tables are only handed out for ISAs the CPU supports.
    unsafe { (active().latin1_to_utf8)(src, dst) }
}

/// Converts Windows-1252 to UTF-8 with the implementation in use.
#[inline]
pub(crate) fn cp1252_to_utf8(src: &[u8], dst: &mut [MaybeUninit<u8>]) -> Progress {
    // SAFETY: `Kernels` tables are only handed out for ISAs the CPU supports.
    unsafe { (active().cp1252_to_utf8)(src, dst) }
}

/// Converts UTF-8 to Latin-1 with the implementation in use.
#[inline]
pub(crate) fn utf8_to_latin1(src: &[u8], dst: &mut [MaybeUninit<u8>], mode: Mode) -> Progress {
    // SAFETY: `Kernels` tables are only handed out for ISAs the CPU supports.
    unsafe { (active().utf8_to_latin1)(src, dst, mode) }
}

#[cfg(test)]
mod tests {
    use super::Isa;

    /// The choice [`Isa::best`] makes, for either kind of CPU wherever the tests run.
    #[test]
    fn best_takes_the_avx512_tuning_of_the_cpu() {
        let x86 = [Isa::Scalar, Isa::Sse42, Isa::Avx2];
        let avx512 = [Isa::Avx512, Isa::Avx512Zen4, Isa::Avx512Zen5];
        let all = || x86.into_iter().chain(avx512);
        for tuning in avx512 {
            assert_eq!(Isa::best_of(all(), tuning), tuning);
            // Zen 3, and a Zen 4 or 5 whose AVX-512 the OS does not enable: AVX2.
            assert_eq!(Isa::best_of(x86.into_iter(), tuning), Isa::Avx2);
            assert_eq!(Isa::best_of([Isa::Scalar].into_iter(), tuning), Isa::Scalar);
        }
        assert_eq!(
            Isa::best_of([Isa::Scalar, Isa::Neon].into_iter(), Isa::Avx512),
            Isa::Neon
        );
    }

    /// The C functions' own AVX-512 paths for short strings (see `avx512_in_use`) are taken
    /// under every tuning of AVX-512 and no other implementation: the name is the oracle.
    #[cfg(all(target_arch = "x86_64", libutf8_avx512))]
    #[test]
    fn every_avx512_tuning_takes_the_avx512_short_paths() {
        for isa in Isa::ALL {
            if let Some(kernels) = isa.kernels() {
                assert_eq!(
                    super::is_avx512(kernels),
                    isa.name().starts_with("avx512"),
                    "{isa:?}"
                );
            }
        }
        assert!(!super::is_avx512(&super::UNCHOSEN));
    }

    /// AVX-512's three implementations exist only where the build compiled them in (see
    /// build.rs): there a CPU with the features supports them; elsewhere none does, and they
    /// have no kernels, so that a forced `avx512` is reported unsupported.
    #[test]
    fn avx512_only_where_compiled_in() {
        for isa in [Isa::Avx512, Isa::Avx512Zen4, Isa::Avx512Zen5] {
            #[cfg(all(target_arch = "x86_64", libutf8_avx512))]
            {
                use super::cpu;
                let cpu_has = cpu::has(cpu::AVX512 | cpu::AVX2 | cpu::POPCNT | cpu::LZCNT);
                assert_eq!(isa.is_supported(), cpu_has, "{isa:?}");
            }
            #[cfg(not(all(target_arch = "x86_64", libutf8_avx512)))]
            {
                assert!(!isa.is_supported(), "{isa:?}");
                assert!(isa.kernels().is_none(), "{isa:?}");
                assert_eq!(isa.validate(b"text"), None, "{isa:?}");
            }
        }
    }
}
