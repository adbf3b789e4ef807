//! Short strings of ASCII converted with no kernel: every mode converts ASCII alike, unit for
//! unit, and a kernel's setup (its constants loaded, registers saved) costs more than the copy
//! of a short string. On x86_64, SSE2 registers (the baseline), 16 units at a time, the last
//! 16 again where the length is not a multiple (the loads and stores overlap, and no loop
//! takes the rest): from UTF-8, strings of up to 128 bytes, tested whole first (as
//! `utf8_validate` does), then widened; into UTF-8, strings of up to 256 units whose first two
//! are ASCII, up to 32 tested whole, longer ones each 16 tested and narrowed before the next
//! are read. Elsewhere, plain loops.
//!
//! The bounds: up to 128 units, these loops beat the kernels on ASCII strings both ways and
//! cost other strings next to nothing; at 256 units the kernels beat them from UTF-8 (and
//! AVX-512's short converter from 65 bytes, see `dispatch`). Where AVX-512 is in use, the C
//! functions widen strings of 65-256 bytes into UTF-16 and 33-64 into UTF-32 with it instead,
//! compiled into a function of their own (`dispatch::FromUtf8Avx512`). From UTF-8, the plain loop
//! widened as well, but LLVM's vectorised loop tested first whether the output overlaps the
//! input, which cost short strings more than the widening itself. The measurements are in
//! BENCHMARKS.md.

use core::mem::MaybeUninit;

use super::ascii::{SHORT_ASCII, is_short_ascii};
use crate::engine::{CodeUnit, Progress, U16Swapped};

/// A unit of UTF-16 (of either byte order) or UTF-32 as short strings of ASCII are converted from it into UTF-8: 16 of
/// them into 16 bytes of ASCII.
pub(crate) trait ShortAsciiUnit: CodeUnit {
    /// The OR of the 16 units in a register, in lanes of the unit's width.
    #[cfg(target_arch = "x86_64")]
    fn or(units: &[Self; 16]) -> core::arch::x86_64::__m128i;
    /// The 16 units, ASCII, as bytes.
    #[cfg(target_arch = "x86_64")]
    fn narrow(units: &[Self; 16]) -> core::arch::x86_64::__m128i;
    /// The bits that are not ASCII, in each lane of [`ShortAsciiUnit::or`]'s register.
    #[cfg(target_arch = "x86_64")]
    const NOT_ASCII: core::arch::x86_64::__m128i;
    /// Stores the 16 bytes of ASCII `bytes` as units at `out`.
    #[cfg(target_arch = "x86_64")]
    fn widen(bytes: core::arch::x86_64::__m128i, out: &mut [MaybeUninit<Self>; 16]);
}

#[cfg(target_arch = "x86_64")]
mod sse2 {
    use core::arch::x86_64::*;
    use core::mem::MaybeUninit;

    /// The 16 bytes at `p`.
    ///
    /// # Safety
    /// `p` has 16 readable bytes.
    #[inline(always)]
    pub(crate) unsafe fn load(p: *const u8) -> __m128i {
        // SAFETY: by the caller; SSE2 is part of the x86_64 baseline.
        unsafe { _mm_loadu_si128(p.cast()) }
    }

    /// Stores `reg` at `out`.
    #[inline(always)]
    pub(crate) fn store(reg: __m128i, out: &mut [MaybeUninit<u8>; 16]) {
        // SAFETY: `out` has the 16 bytes; SSE2 is part of the x86_64 baseline.
        unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), reg) };
    }

    /// Stores `first` and `second` at `out`, units of 32 bytes in all.
    #[inline(always)]
    pub(crate) fn store_units<T, const N: usize>(
        first: __m128i,
        second: __m128i,
        out: &mut [MaybeUninit<T>; N],
    ) {
        const { assert!(N * core::mem::size_of::<T>() == 32) };
        let p = out.as_mut_ptr().cast::<__m128i>();
        // SAFETY: `out` has the 32 bytes; SSE2 is part of the x86_64 baseline.
        unsafe {
            _mm_storeu_si128(p, first);
            _mm_storeu_si128(p.add(1), second);
        }
    }
}

#[cfg(target_arch = "x86_64")]
impl ShortAsciiUnit for u16 {
    #[inline(always)]
    fn or(units: &[u16; 16]) -> core::arch::x86_64::__m128i {
        use core::arch::x86_64::*;
        let p = units.as_ptr().cast::<u8>();
        // SAFETY: `units` has 32 bytes; SSE2 is part of the x86_64 baseline.
        unsafe { _mm_or_si128(sse2::load(p), sse2::load(p.add(16))) }
    }

    #[inline(always)]
    fn narrow(units: &[u16; 16]) -> core::arch::x86_64::__m128i {
        use core::arch::x86_64::*;
        let p = units.as_ptr().cast::<u8>();
        // SAFETY: as for `or`.
        unsafe { _mm_packus_epi16(sse2::load(p), sse2::load(p.add(16))) }
    }

    // SAFETY: eight u16 are the 16 bytes of a register, of which any bits are a value.
    const NOT_ASCII: core::arch::x86_64::__m128i =
        unsafe { core::mem::transmute::<[u16; 8], _>([0xFF80; 8]) };

    #[inline(always)]
    fn widen(bytes: core::arch::x86_64::__m128i, out: &mut [MaybeUninit<u16>; 16]) {
        use core::arch::x86_64::*;
        // SAFETY: SSE2 is part of the x86_64 baseline. Each byte becomes the low byte of its
        // unit.
        let (low, high) = unsafe {
            let zero = _mm_setzero_si128();
            (
                _mm_unpacklo_epi8(bytes, zero),
                _mm_unpackhi_epi8(bytes, zero),
            )
        };
        sse2::store_units(low, high, out);
    }
}

#[cfg(target_arch = "x86_64")]
impl ShortAsciiUnit for U16Swapped {
    #[inline(always)]
    fn or(units: &[U16Swapped; 16]) -> core::arch::x86_64::__m128i {
        use core::arch::x86_64::*;
        let p = units.as_ptr().cast::<u8>();
        // SAFETY: as for `u16`.
        unsafe { _mm_or_si128(sse2::load(p), sse2::load(p.add(16))) }
    }

    #[inline(always)]
    fn narrow(units: &[U16Swapped; 16]) -> core::arch::x86_64::__m128i {
        use core::arch::x86_64::*;
        let p = units.as_ptr().cast::<u8>();
        // SAFETY: as for `u16`; each unit's ASCII byte is its high byte, moved down.
        unsafe {
            let low = _mm_srli_epi16::<8>(sse2::load(p));
            let high = _mm_srli_epi16::<8>(sse2::load(p.add(16)));
            _mm_packus_epi16(low, high)
        }
    }

    // SAFETY: as for `u16`: 0xFF80 with its bytes swapped.
    const NOT_ASCII: core::arch::x86_64::__m128i =
        unsafe { core::mem::transmute::<[u16; 8], _>([0xFF80u16.swap_bytes(); 8]) };

    #[inline(always)]
    fn widen(bytes: core::arch::x86_64::__m128i, out: &mut [MaybeUninit<U16Swapped>; 16]) {
        use core::arch::x86_64::*;
        // SAFETY: as for `u16`; each byte becomes the high byte of its unit, stored first.
        let (low, high) = unsafe {
            let zero = _mm_setzero_si128();
            (
                _mm_unpacklo_epi8(zero, bytes),
                _mm_unpackhi_epi8(zero, bytes),
            )
        };
        sse2::store_units(low, high, out);
    }
}

#[cfg(target_arch = "x86_64")]
impl ShortAsciiUnit for u32 {
    #[inline(always)]
    fn or(units: &[u32; 16]) -> core::arch::x86_64::__m128i {
        use core::arch::x86_64::*;
        let [a, b, c, d] = quarters(units);
        // SAFETY: SSE2 is part of the x86_64 baseline.
        unsafe { _mm_or_si128(_mm_or_si128(a, b), _mm_or_si128(c, d)) }
    }

    #[inline(always)]
    fn narrow(units: &[u32; 16]) -> core::arch::x86_64::__m128i {
        use core::arch::x86_64::*;
        let [a, b, c, d] = quarters(units);
        // SAFETY: as for `or`. Signed saturation keeps ASCII values as they are.
        unsafe { _mm_packus_epi16(_mm_packs_epi32(a, b), _mm_packs_epi32(c, d)) }
    }

    // SAFETY: as for UTF-16.
    const NOT_ASCII: core::arch::x86_64::__m128i =
        unsafe { core::mem::transmute::<[u32; 4], _>([0xFFFF_FF80; 4]) };

    #[inline(always)]
    fn widen(bytes: core::arch::x86_64::__m128i, out: &mut [MaybeUninit<u32>; 16]) {
        use core::arch::x86_64::*;
        // SAFETY: SSE2 is part of the x86_64 baseline. Bytes to 16-bit lanes, then to 32.
        let [a, b, c, d] = unsafe {
            let zero = _mm_setzero_si128();
            let (low, high) = (
                _mm_unpacklo_epi8(bytes, zero),
                _mm_unpackhi_epi8(bytes, zero),
            );
            [
                _mm_unpacklo_epi16(low, zero),
                _mm_unpackhi_epi16(low, zero),
                _mm_unpacklo_epi16(high, zero),
                _mm_unpackhi_epi16(high, zero),
            ]
        };
        let (first, second) = out.split_at_mut(8);
        if let (Ok(first), Ok(second)) = (
            <&mut [MaybeUninit<u32>; 8]>::try_from(first),
            <&mut [MaybeUninit<u32>; 8]>::try_from(second),
        ) {
            sse2::store_units(a, b, first);
            sse2::store_units(c, d, second);
        }
    }
}

/// The 16 units in four registers.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn quarters(units: &[u32; 16]) -> [core::arch::x86_64::__m128i; 4] {
    let p = units.as_ptr().cast::<u8>();
    // SAFETY: `units` has the 64 bytes loaded.
    [0, 16, 32, 48].map(|at| unsafe { sse2::load(p.add(at)) })
}

#[cfg(not(target_arch = "x86_64"))]
impl ShortAsciiUnit for u16 {}
#[cfg(not(target_arch = "x86_64"))]
impl ShortAsciiUnit for U16Swapped {}
#[cfg(not(target_arch = "x86_64"))]
impl ShortAsciiUnit for u32 {}

/// All of `src`, if it is a string of ASCII of at most half [`SHORT_ASCII`] bytes, converted
/// into `dst` if it fits; else `None`, nothing written.
#[inline(always)]
pub(crate) fn from_utf8<T: ShortAsciiUnit>(
    src: &[u8],
    dst: &mut [MaybeUninit<T>],
) -> Option<Progress> {
    #[cfg(target_arch = "x86_64")]
    if (17..=128).contains(&src.len()) {
        return from_utf8_17_to_128(src, dst);
    }
    if src.len() > SHORT_ASCII / 2 || dst.len() < src.len() || !is_short_ascii(src) {
        return None;
    }
    // Exactly 16 bytes (17 to 128 took `from_utf8_17_to_128`, more are refused above): one
    // register.
    #[cfg(target_arch = "x86_64")]
    if let (Some(bytes), Some(out)) = (src.first_chunk::<16>(), dst.first_chunk_mut::<16>()) {
        // SAFETY: SSE2 is part of the x86_64 baseline; the load reads the array of 16.
        T::widen(unsafe { sse2::load(bytes.as_ptr()) }, out);
        return Some(done(src.len()));
    }
    for (unit, &b) in dst.iter_mut().zip(src) {
        unit.write(T::from_ascii(b));
    }
    Some(done(src.len()))
}

/// [`from_utf8`] for 17 to 128 bytes: 16-byte loads that cover them, at 0 and `n - 16`, from
/// 33 bytes at 16 and `n - 32` too, from 65 bytes at 0, 16, 32, 48 and at as many from the end,
/// tested together and widened from the same registers. Each way takes lengths up to a power
/// of two included: strings of a size and a few bytes shorter (61 to 64 bytes, as a limit of
/// 64 gives them) took two ways before, the branch between them mispredicted, and a loop
/// whose number of turns varies (see BENCHMARKS.md).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn from_utf8_17_to_128<T: ShortAsciiUnit>(
    src: &[u8],
    dst: &mut [MaybeUninit<T>],
) -> Option<Progress> {
    use core::arch::x86_64::{__m128i, _mm_movemask_epi8, _mm_or_si128};
    /// Whether the bytes of `v` are ASCII, and if so each widened into the 16 units of `dst`
    /// from its offset in `at`.
    #[inline(always)]
    fn widen_all<T: ShortAsciiUnit, const N: usize>(
        v: [__m128i; N],
        at: [usize; N],
        dst: &mut [MaybeUninit<T>],
    ) -> bool {
        // SAFETY: SSE2 is part of the x86_64 baseline.
        let or = |a, b| unsafe { _mm_or_si128(a, b) };
        // SAFETY: as above. A fold, which LLVM inlines: `reduce` it called out of line once
        // the C functions reached this code by two paths, which gave them a stack frame.
        if unsafe { _mm_movemask_epi8(v.iter().fold(v[0], |all, &b| or(all, b))) } != 0 {
            return false;
        }
        for (bytes, at) in v.into_iter().zip(at) {
            if let Some(out) = dst.get_mut(at..).and_then(|d| d.first_chunk_mut::<16>()) {
                T::widen(bytes, out);
            }
        }
        true
    }
    let n = src.len();
    if !(17..=128).contains(&n) || dst.len() < n {
        return None;
    }
    // SAFETY: the offsets given are at most `n - 16`: the load reads 16 bytes of `src`.
    let load = |at: usize| unsafe { sse2::load(src.as_ptr().add(at)) };
    let ascii = if n <= 32 {
        widen_all([load(0), load(n - 16)], [0, n - 16], dst)
    } else if n <= 64 {
        let at = [0, 16, n - 32, n - 16];
        widen_all(at.map(load), at, dst)
    } else {
        let at = [0, 16, 32, 48, n - 64, n - 48, n - 32, n - 16];
        widen_all(at.map(load), at, dst)
    };
    ascii.then(|| done(n))
}

/// All of `src`, if it is a string of ASCII of at most [`SHORT_ASCII`] units, converted into
/// `dst` if it fits (`Ok`); else the number of its leading units converted, 16 at a time, as
/// far as they are ASCII (`Err`, 0 if nothing was, always 0 up to 32 units), the rest being
/// the caller's to convert.
///
/// Up to 32 units, the first and the last 16 are tested together, and stored if ASCII. Past
/// that, each 16 units are tested and stored before the next are read: a string of Latin text
/// (ASCII with an accented letter now and then) was read whole before, then again by the
/// kernel, which made it slower than simdutf's at every length (see BENCHMARKS.md). The units
/// converted are ASCII, which every mode converts alike, and the caller goes on after them.
#[inline(always)]
pub(crate) fn into_utf8<S: ShortAsciiUnit>(
    src: &[S],
    dst: &mut [MaybeUninit<u8>],
) -> Result<Progress, usize> {
    // Only an input that starts with two units of ASCII is read: reading a mixed string
    // before handing it to the kernel slows it down, and a test of the first unit alone sent
    // strings of other scripts that start with a space this way, a branch mispredicted now and
    // then (the unit after a space is a letter). The two are tested together, in one branch,
    // which a string of another script takes whether or not it starts with a space.
    let first_two = match src {
        [a, b, ..] => a.value() | b.value(),
        [a] => a.value(),
        [] => return Ok(done(0)),
    };
    if src.len() > SHORT_ASCII || dst.len() < src.len() || first_two >= 0x80 {
        return Err(0);
    }
    #[cfg(target_arch = "x86_64")]
    if let Some(last) = src.last_chunk::<16>() {
        use crate::chunks::{as_chunks, as_chunks_mut};
        use core::arch::x86_64::*;
        let is_ascii = |units| {
            // SAFETY: SSE2 is part of the x86_64 baseline.
            unsafe {
                let not_ascii = _mm_and_si128(units, S::NOT_ASCII);
                _mm_movemask_epi8(_mm_cmpeq_epi8(not_ascii, _mm_setzero_si128())) == 0xFFFF
            }
        };
        if let Some(first) = src.first_chunk::<16>().filter(|_| src.len() <= 32) {
            // SAFETY: SSE2 is part of the x86_64 baseline.
            if !is_ascii(unsafe { _mm_or_si128(S::or(first), S::or(last)) }) {
                return Err(0);
            }
            for (units, at) in [(first, 0), (last, src.len() - 16)] {
                if let Some(out) = dst.get_mut(at..).and_then(|d| d.first_chunk_mut::<16>()) {
                    sse2::store(S::narrow(units), out);
                }
            }
            return Ok(done(src.len()));
        }
        let (chunks, _) = as_chunks::<16, _>(src);
        let mut converted = 0;
        for (out, chunk) in as_chunks_mut::<16, _>(dst).0.iter_mut().zip(chunks) {
            if !is_ascii(S::or(chunk)) {
                return Err(converted);
            }
            sse2::store(S::narrow(chunk), out);
            converted += 16;
        }
        // The last 16 units again, where the length is not a multiple of 16.
        if converted < src.len() {
            if !is_ascii(S::or(last)) {
                return Err(converted);
            }
            if let Some(out) = dst
                .get_mut(src.len() - 16..src.len())
                .and_then(|out| out.first_chunk_mut::<16>())
            {
                sse2::store(S::narrow(last), out);
            }
        }
        return Ok(done(src.len()));
    }
    if src.iter().fold(0, |all, s| all | s.value()) >= 0x80 {
        return Err(0);
    }
    for (byte, s) in dst.iter_mut().zip(src) {
        byte.write(s.value() as u8);
    }
    Ok(done(src.len()))
}

/// The progress of a conversion of all of `len` units.
fn done(len: usize) -> Progress {
    Progress {
        read: len,
        written: len,
        stop: None,
    }
}
