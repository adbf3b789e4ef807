//! The x86_64 kernels: SSE4.2 ([`sse42`]), AVX2 ([`avx2`]) and AVX-512 ([`avx512`], where the
//! compiler has it), each the algorithms of `crate::algorithms` instantiated with its
//! registers; what more than one of them uses is in [`shared`], so that no instruction-set
//! file imports another. The converters of an implementation are defined by one macro,
//! [`transcoders`].

pub(crate) mod avx2;
// Only where the compiler has AVX-512's target features and intrinsics (see build.rs), which
// became stable in Rust 1.89: the module may use all that 1.89 has.
#[cfg(libutf8_avx512)]
#[clippy::msrv = "1.89"]
pub(crate) mod avx512;
pub(crate) mod shared;
pub(crate) mod sse42;

/// Defines, in an x86 kernel file, the converters compiled for its instruction set, validating
/// UTF-8 with its kernel and converting it with the `from_utf8` kernel, whose runs of ASCII it
/// widens with its registers, and converting into UTF-8 with its registers of units (see
/// `crate::algorithms::to_utf8`): `transcoders!("avx2,popcnt", validate::<true>, Avx2,
/// Avx2StepRegister)`. The loops are those of `crate::engine::convert_from_utf8` and
/// `convert_to_utf8`, inlined here; the converters from UTF-8 are [`from_utf8_converter`]'s.
/// Past its leading blocks of ASCII, the SIMD converter from UTF-8 is a function of its own
/// (`convert_rest`, see `from_utf8::convert_ascii_first`), and so is the SIMD loop from UTF-32
/// (`fast`), whose registers LLVM allocates for it alone: LLVM inlined it into the exact path's
/// loop, where it shared that loop's registers and reloaded its constants on every step, which
/// made text of 3-byte characters slower (see BENCHMARKS.md). The loop from UTF-16 is left to
/// LLVM, which does not inline it there.
///
/// The SIMD work that the engine's loops call is in functions with the instruction set's target
/// features, not in closures: Rust before 1.86 (Cargo.toml's rust-version is older) compiles a
/// closure without its function's target features, so that every intrinsic in it was a call,
/// its vectors passed through memory. The closures handed to the engine only call them.
macro_rules! transcoders {
    ($features:literal, $kernel:path, $registers:ty, $units:ty) => {
        use crate::engine::{Mode, Progress, utf16, utf32};

        /// `from_utf8::convert` compiled for this instruction set: the converter from UTF-8
        /// past the leading blocks of ASCII (see `from_utf8::convert_ascii_first`).
        ///
        /// # Safety
        /// The CPU has the instruction set; `src` starts a character, or `valid` is 0.
        #[target_feature(enable = $features)]
        #[inline(never)]
        unsafe fn convert_rest<T: crate::algorithms::from_utf8::OutputUnit>(
            src: &[u8],
            valid: usize,
            dst: &mut [core::mem::MaybeUninit<T>],
        ) -> (usize, usize) {
            // SAFETY: by the caller; the kernel needs SSE4.1 and SSSE3, which every x86_64
            // instruction set of `crate::kernels::x86` includes.
            unsafe {
                crate::algorithms::from_utf8::convert::<
                    $registers,
                    T,
                    crate::algorithms::from_utf8::NoBlockConverter,
                >(src, valid, dst)
            }
        }

        /// `from_utf8::staged_tail` compiled for this instruction set, out of line: inlined,
        /// its buffer and registers made the converter's frame larger for every call.
        ///
        /// # Safety
        /// The CPU has the instruction set; `src` is well-formed UTF-8.
        #[target_feature(enable = $features)]
        #[inline(never)]
        unsafe fn staged_tail<T: crate::algorithms::from_utf8::OutputUnit>(
            src: &[u8],
            dst: &mut [core::mem::MaybeUninit<T>],
        ) -> (usize, usize) {
            // SAFETY: by the caller.
            unsafe { crate::algorithms::from_utf8::staged_tail::<$registers, T>(src, dst) }
        }

        // Tested in `tail`, so that other lengths pay for no call.
        crate::kernels::x86::from_utf8_converter!(
            /// `crate::transcode::utf16::utf8_to_utf16` compiled for this instruction set, into
            /// UTF-16 of the machine's byte order (`u16`) or of the other (`U16Swapped`).
            ///
            /// # Safety
            /// The CPU has the instruction set.
            features: $features,
            utf8_to_utf16<T: crate::algorithms::from_utf8::Utf16Output> -> T,
            utf16::utf8_to_utf16_with,
            kernel: $kernel, registers: $registers, rest: convert_rest, prelude(src, dst) {},
            tail: |s: &[u8], d: &mut [core::mem::MaybeUninit<T>]| {
                if crate::algorithms::from_utf8::STAGED_TAIL.contains(&s.len()) {
                    // SAFETY: the instruction set as above; `convert_from_utf8` hands `tail`
                    // well-formed input.
                    unsafe { staged_tail(s, d) }
                } else {
                    (0, 0)
                }
            }
        );

        /// `crate::transcode::utf16::utf16_to_utf8` compiled for this instruction set, from
        /// UTF-16 of the machine's byte order (`u16`) or of the other (`U16Swapped`).
        ///
        /// # Safety
        /// The CPU has the instruction set.
        #[target_feature(enable = $features)]
        pub(crate) unsafe fn utf16_to_utf8<S: crate::algorithms::to_utf8::Utf16Source>(
            src: &[S],
            dst: &mut [core::mem::MaybeUninit<u8>],
            mode: Mode,
        ) -> Progress {
            /// # Safety
            /// The CPU has the instruction set.
            #[target_feature(enable = $features)]
            #[inline]
            unsafe fn fast<S: crate::algorithms::to_utf8::Utf16Source>(
                s: &[S],
                d: &mut [core::mem::MaybeUninit<u8>],
            ) -> (usize, usize) {
                // SAFETY: the registers need the instruction set, which the CPU has.
                unsafe {
                    crate::algorithms::to_utf8::utf16_to_utf8::<
                        $units,
                        crate::algorithms::to_utf8::NoCompressSteps<$units>,
                        S,
                    >(s, d)
                }
            }
            // SAFETY: the CPU has the instruction set by our contract.
            utf16::utf16_to_utf8_using(src, dst, mode, |s, d| unsafe { fast(s, d) })
        }

        crate::kernels::x86::from_utf8_converter!(
            /// `crate::transcode::utf32::utf8_to_utf32` compiled for this instruction set.
            ///
            /// # Safety
            /// The CPU has the instruction set.
            features: $features,
            utf8_to_utf32 -> u32, utf32::utf8_to_utf32_with,
            kernel: $kernel, registers: $registers, rest: convert_rest, prelude(src, dst) {},
            tail: |s: &[u8], d: &mut [core::mem::MaybeUninit<u32>]| {
                if crate::algorithms::from_utf8::STAGED_TAIL.contains(&s.len()) {
                    // SAFETY: the instruction set as above; `convert_from_utf8` hands `tail`
                    // well-formed input.
                    unsafe { staged_tail(s, d) }
                } else {
                    (0, 0)
                }
            }
        );

        /// `crate::transcode::utf32::utf32_to_utf8` compiled for this instruction set.
        ///
        /// # Safety
        /// The CPU has the instruction set.
        #[target_feature(enable = $features)]
        pub(crate) unsafe fn utf32_to_utf8(
            src: &[u32],
            dst: &mut [core::mem::MaybeUninit<u8>],
            mode: Mode,
        ) -> Progress {
            /// # Safety
            /// The CPU has the instruction set.
            #[target_feature(enable = $features)]
            #[inline(never)]
            unsafe fn fast(s: &[u32], d: &mut [core::mem::MaybeUninit<u8>]) -> (usize, usize) {
                // SAFETY: the registers need the instruction set, which the CPU has.
                unsafe {
                    crate::algorithms::to_utf8::utf32_to_utf8::<
                        $units,
                        crate::algorithms::to_utf8::NoCompressSteps<$units>,
                    >(s, d)
                }
            }
            // SAFETY: the CPU has the instruction set by our contract.
            utf32::utf32_to_utf8_using(src, dst, mode, |s, d| unsafe { fast(s, d) })
        }

        /// `shared::latin1_blocks` compiled for the instruction set, for `latin1_to_utf8` and
        /// `cp1252_to_utf8`.
        ///
        /// # Safety
        /// The CPU has the instruction set.
        #[target_feature(enable = $features)]
        #[inline]
        unsafe fn latin1_blocks<const CP1252: bool>(
            src: &[u8],
            dst: &mut [core::mem::MaybeUninit<u8>],
        ) -> (usize, usize) {
            // SAFETY: the instruction set has SSSE3, which the CPU has.
            unsafe { crate::kernels::x86::shared::latin1_blocks::<$registers, CP1252>(src, dst) }
        }

        /// `crate::engine::latin1::latin1_to_utf8_with` compiled for the instruction set,
        /// converting blocks with `shared::latin1_blocks`.
        ///
        /// # Safety
        /// The CPU has the instruction set.
        #[target_feature(enable = $features)]
        pub(crate) unsafe fn latin1_to_utf8(
            src: &[u8],
            dst: &mut [core::mem::MaybeUninit<u8>],
        ) -> Progress {
            // SAFETY: the CPU has the instruction set by our contract.
            crate::engine::latin1::latin1_to_utf8_with(src, dst, |s, d| unsafe {
                latin1_blocks::<false>(s, d)
            })
        }

        /// `crate::engine::latin1::cp1252_to_utf8_with` compiled for the instruction set,
        /// converting blocks with no byte of 0x80..0x9F with `shared::latin1_blocks`.
        ///
        /// # Safety
        /// The CPU has the instruction set.
        #[target_feature(enable = $features)]
        pub(crate) unsafe fn cp1252_to_utf8(
            src: &[u8],
            dst: &mut [core::mem::MaybeUninit<u8>],
        ) -> Progress {
            // SAFETY: the CPU has the instruction set by our contract.
            crate::engine::latin1::cp1252_to_utf8_with(src, dst, |s, d| unsafe {
                latin1_blocks::<true>(s, d)
            })
        }

        /// `crate::engine::latin1::utf8_to_latin1_with` compiled for the instruction set,
        /// converting blocks with `shared::utf8_to_latin1_blocks`.
        ///
        /// # Safety
        /// The CPU has the instruction set.
        #[target_feature(enable = $features)]
        pub(crate) unsafe fn utf8_to_latin1(
            src: &[u8],
            dst: &mut [core::mem::MaybeUninit<u8>],
            mode: Mode,
        ) -> Progress {
            /// # Safety
            /// The CPU has the instruction set.
            #[target_feature(enable = $features)]
            #[inline]
            unsafe fn blocks(
                s: &[u8],
                d: &mut [core::mem::MaybeUninit<u8>],
            ) -> (usize, usize) {
                // SAFETY: the instruction set has SSE4.1 and SSSE3, which the CPU has.
                unsafe { crate::kernels::x86::shared::utf8_to_latin1_blocks::<$registers>(s, d) }
            }
            // SAFETY: the CPU has the instruction set by our contract.
            crate::engine::latin1::utf8_to_latin1_with(src, dst, mode, |s, d| unsafe {
                blocks(s, d)
            })
        }
    };
}
pub(crate) use transcoders;

/// Defines a converter from UTF-8 into UTF-16 or UTF-32 of an x86 implementation, compiled with
/// the target features `features` (generic over the unit type if given one, as
/// `utf8_to_utf16<T: Utf16Output> -> T`): after `prelude` (a block that may return early,
/// AVX-512's short strings, given the names of the input and the output), the engine's loop
/// (`with`, as `utf16::utf8_to_utf16_with`), validating with `kernel` and converting with
/// `from_utf8::convert_ascii_first` in `registers`, which hands the input past its leading
/// blocks of ASCII to `rest` (an out-of-line function of the implementation's), and what that
/// leaves of a well-formed stretch to `tail`. Every x86 implementation's converters from UTF-8
/// are defined by it: [`transcoders`]'s, and AVX-512's, which have their own `rest`, `tail` and
/// `prelude`.
macro_rules! from_utf8_converter {
    (
        $(#[$attr:meta])*
        features: $features:literal,
        $name:ident $(<$g:ident: $bound:path>)? -> $unit:ty, $with:path,
        kernel: $kernel:expr, registers: $registers:ty, rest: $rest:ident,
        prelude($src:ident, $dst:ident) $prelude:block, tail: $tail:expr
    ) => {
        $(#[$attr])*
        #[target_feature(enable = $features)]
        pub(crate) unsafe fn $name $(<$g: $bound>)? (
            $src: &[u8],
            $dst: &mut [core::mem::MaybeUninit<$unit>],
            mode: crate::engine::Mode,
        ) -> crate::engine::Progress {
            /// `from_utf8::convert_ascii_first` compiled for the instruction set (see
            /// [`transcoders`]: not a closure).
            ///
            /// # Safety
            /// The CPU has the instruction set; `s` starts a character, or `valid` is 0.
            #[target_feature(enable = $features)]
            #[inline]
            unsafe fn ascii_first $(<$g: $bound>)? (
                s: &[u8],
                valid: usize,
                d: &mut [core::mem::MaybeUninit<$unit>],
            ) -> (usize, usize) {
                // SAFETY: the registers need the instruction set, which the CPU has;
                // `convert_ascii_first` hands `rest` the input from a character on.
                unsafe {
                    crate::algorithms::from_utf8::convert_ascii_first::<$registers, $unit>(
                        s,
                        valid,
                        d,
                        |s, v, d| $rest(s, v, d),
                    )
                }
            }
            $prelude
            // SAFETY: the kernel needs the instruction set, which the CPU has by our contract.
            let valid_prefix = |s: &[u8]| unsafe { crate::kernels::valid_prefix($kernel, s) };
            // SAFETY: as above; `engine::convert_from_utf8` hands `fast` input that starts a
            // character (each stretch is cut where one starts).
            let fast = |s: &[u8], valid, d: &mut [core::mem::MaybeUninit<$unit>]| unsafe {
                ascii_first(s, valid, d)
            };
            let tail = $tail;
            $with($src, $dst, mode, valid_prefix, fast, tail)
        }
    };
}
pub(crate) use from_utf8_converter;
