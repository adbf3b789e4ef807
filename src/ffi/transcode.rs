//! The C functions converting between UTF-8 and UTF-16 or UTF-32 (since 1.2), and from
//! Latin-1 and Windows-1252 and into Latin-1 (since 1.3).

use core::ffi::c_char;
use core::mem::MaybeUninit;

use super::utf8_status::{self, *};
use super::{input, output, units};
use crate::transcode::{
    Direction, FromUtf8, IntoUtf8, Mode, Progress, Replacement, ShortCall, Stop, latin1, utf16,
    utf32,
};
#[cfg(all(target_arch = "x86_64", libutf8_avx512))]
use crate::transcode::{FromUtf8Avx512, IntoUtf8Avx512, Narrow, avx512_in_use, choose_now, chosen};

/// Flag of the conversion functions: replace each ill-formed sequence of the input with U+FFFD
/// and go on, instead of stopping there.
pub const UTF8_REPLACE: u32 = 1;

/// Flag of utf8_to_utf16 and utf16_to_utf8: the UTF-8 side is WTF-8 (UTF8_FORM_WTF8), so that
/// UTF-16 with lone surrogates, such as Windows file names, round-trips through it.
pub const UTF8_WTF8: u32 = 2;

/// Flag of the conversion functions (since 1.3): more input follows, as when converting a stream a
/// chunk at a time. The conversion stops before the units at the end of the input whose meaning the
/// next input could change, with UTF8_ERR_TRUNCATED and `read` where they start, everything before
/// them converted: a UTF-8 sequence that the input ends inside (at most 3 bytes); with UTF8_WTF8
/// also a lead surrogate's 3 bytes, at the end or before such a sequence (at most 5 bytes in all);
/// a UTF-16 high surrogate as the last unit. So it does with UTF8_REPLACE, which does not replace
/// them. Carry the `len - read` units over to the start of the next input: each chunk converted so,
/// and the last one without UTF8_MORE (its end is the end of the stream), the outputs and the final
/// status (at the same offset in the stream) are those of one call on the whole stream. An error or
/// a full buffer before those units is reported as without the flag. utf32_to_utf8 accepts it, and
/// nothing changes there.
pub const UTF8_MORE: u32 = 4;

/// Flag of utf8_to_utf16 and utf16_to_utf8 (since 1.3): the UTF-16 side is UTF-16LE, each unit
/// stored low byte first, whatever the machine's byte order. Without UTF8_UTF16LE or
/// UTF8_UTF16BE, units are in the machine's order.
pub const UTF8_UTF16LE: u32 = 8;

/// Flag of utf8_to_utf16 and utf16_to_utf8 (since 1.3): the UTF-16 side is UTF-16BE, each unit
/// stored high byte first, whatever the machine's byte order. Passing both UTF8_UTF16LE and
/// UTF8_UTF16BE gives UTF8_ERR_INVALID_ARGUMENT.
pub const UTF8_UTF16BE: u32 = 16;

/// The flags that choose a byte order.
const BYTE_ORDER: u32 = UTF8_UTF16LE | UTF8_UTF16BE;

/// Whether `flags` ask for UTF-16 in the other byte order than the machine's.
const fn swapped(flags: u32) -> bool {
    let foreign = if cfg!(target_endian = "little") {
        UTF8_UTF16BE
    } else {
        UTF8_UTF16LE
    };
    flags & BYTE_ORDER == foreign
}

/// Flag of utf8_to_utf16, utf8_to_utf32, utf16_to_utf8 and utf32_to_utf8 (since 1.3): UTF-8B,
/// Python's `errors='surrogateescape'` (PEP 383), a lossless way to carry any byte string
/// (a Unix file name, say) through UTF-16 or UTF-32. From UTF-8, each byte of an ill-formed
/// sequence (every byte of each maximal subpart) becomes the lone surrogate U+DC80 + (byte -
/// 0x80), one unit per byte, exactly as `b.decode('utf-8', 'surrogateescape')`, and the
/// conversion never stops on bad input (UTF8_REPLACE beside it changes nothing). Into UTF-8,
/// each lone U+DC80..U+DCFF becomes its byte 0x80..0xFF again; any other lone surrogate (or
/// UTF-32 value above 0x10FFFF) is treated as without the flag: an error, or U+FFFD with
/// UTF8_REPLACE. So every byte string comes back unchanged from UTF-16 or UTF-32, the output
/// into UTF-8 being then not always valid UTF-8. UTF-8 cannot hold a lone surrogate: the lossy
/// copy (utf8_replace_invalid_flags) refuses the flag, as do UTF8_WTF8 beside it (its
/// surrogates and the escapes would be the same) and another strategy flag:
/// UTF8_ERR_UNSUPPORTED_STRATEGY.
pub const UTF8_SURROGATEESCAPE: u32 = 32;

/// Flag of utf8_to_utf16, utf8_to_utf32 and utf8_replace_invalid_flags (since 1.3): each byte of
/// an ill-formed sequence becomes its character in ISO-8859-1 (Latin-1), U+0080..U+00FF, one
/// character per byte, and the conversion never stops on bad input: the fallback of converters
/// that read text which is mostly UTF-8 with stray Latin-1. The converters into UTF-8 (which
/// have no byte to fall back from), UTF8_WTF8 beside it and another strategy flag give
/// UTF8_ERR_UNSUPPORTED_STRATEGY.
pub const UTF8_FALLBACK_LATIN1: u32 = 64;

/// Flag of utf8_to_utf16, utf8_to_utf32 and utf8_replace_invalid_flags (since 1.3): as
/// UTF8_FALLBACK_LATIN1, each byte of an ill-formed sequence becoming its character in
/// Windows-1252 as the WHATWG Encoding Standard's index-windows-1252 defines it (as for
/// cp1252_to_utf8: 0x80 is U+20AC, 0x9F U+0178, and 0x81, 0x8D, 0x8F, 0x90, 0x9D are U+0081,
/// U+008D, U+008F, U+0090, U+009D).
pub const UTF8_FALLBACK_CP1252: u32 = 128;

/// The strategy flags: at most one of them in a call.
const STRATEGIES: u32 = UTF8_SURROGATEESCAPE | UTF8_FALLBACK_LATIN1 | UTF8_FALLBACK_CP1252;

/// The mode of `flags`, or why a converter whose flags are `known_flags` refuses them:
/// UTF8_ERR_INVALID_ARGUMENT for a bit outside them that is no strategy flag (UTF8_WTF8 where
/// it is not known, with a strategy flag or not), or both byte orders;
/// UTF8_ERR_UNSUPPORTED_STRATEGY for a strategy flag outside them, two strategy flags, or one
/// with UTF8_WTF8.
pub(super) fn mode_of(flags: u32, known_flags: u32) -> Result<Mode, utf8_status> {
    let strategy = flags & STRATEGIES;
    if flags & !known_flags & !STRATEGIES != 0 || flags & BYTE_ORDER == BYTE_ORDER {
        return Err(UTF8_ERR_INVALID_ARGUMENT);
    }
    if strategy & !known_flags != 0
        || strategy & strategy.wrapping_sub(1) != 0
        || (strategy != 0 && flags & UTF8_WTF8 != 0)
    {
        return Err(UTF8_ERR_UNSUPPORTED_STRATEGY);
    }
    let replacement = match strategy {
        UTF8_SURROGATEESCAPE => Replacement::Escape,
        UTF8_FALLBACK_LATIN1 => Replacement::Latin1,
        UTF8_FALLBACK_CP1252 => Replacement::Cp1252,
        _ => Replacement::Fffd,
    };
    Ok(Mode {
        replace: flags & UTF8_REPLACE != 0,
        wtf8: flags & UTF8_WTF8 != 0,
        more: flags & UTF8_MORE != 0,
        replacement,
    })
}

/// The flags of utf8_to_utf16, of utf16_to_utf8, of utf8_to_utf32 and of utf32_to_utf8.
const FROM_UTF8_TO_UTF16: u32 = UTF8_REPLACE | UTF8_WTF8 | UTF8_MORE | STRATEGIES | BYTE_ORDER;
const TO_UTF8_FROM_UTF16: u32 =
    UTF8_REPLACE | UTF8_WTF8 | UTF8_MORE | UTF8_SURROGATEESCAPE | BYTE_ORDER;
const FROM_UTF8_TO_UTF32: u32 = UTF8_REPLACE | UTF8_MORE | STRATEGIES;
const TO_UTF8_FROM_UTF32: u32 = UTF8_REPLACE | UTF8_MORE | UTF8_SURROGATEESCAPE;

/// How far a conversion function got.
///
/// `read` and `written` count code units of the input and the output (bytes for UTF-8, 16-bit
/// units for UTF-16, 32-bit units for UTF-32, in the byte order the flags choose). The first
/// `read` units of the input have been converted into the first `written` units of the output,
/// which never end inside a character, so that a caller can continue from `in + read`.
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct utf8_result {
    /// UTF8_OK if the whole input was converted, else why the conversion stopped at `read`.
    pub status: utf8_status,
    /// Input units consumed: the input's length on UTF8_OK, else the offset of the character
    /// that was ill-formed or did not fit.
    pub read: usize,
    /// Output units written.
    pub written: usize,
}

impl utf8_result {
    /// A call refused before reading anything.
    const fn refused(status: utf8_status) -> Self {
        utf8_result {
            status,
            read: 0,
            written: 0,
        }
    }
}

impl From<Progress> for utf8_result {
    fn from(p: Progress) -> Self {
        let status = match p.stop {
            None => UTF8_OK,
            Some(Stop::Malformed(kind)) => kind.into(),
            Some(Stop::OutputFull) => UTF8_ERR_BUFFER_TOO_SMALL,
            Some(Stop::Unrepresentable) => UTF8_ERR_UNREPRESENTABLE,
        };
        utf8_result {
            status,
            read: p.read,
            // Opaque to the optimiser, so that the counts are not copied together: the
            // converters store them one at a time just before, and a 16-byte load of two 8-byte
            // stores is not forwarded from them: a stall on every call, which short strings feel.
            written: core::hint::black_box(p.written),
        }
    }
}

/// Runs `convert` on `[src, src + len)` and `[out, out + cap)` after checking the flags
/// (those outside `known_flags` are refused, and the combinations [`mode_of`] refuses) and the
/// pointers (NULL, or misaligned for their units, with a non-zero length).
///
/// # Safety
/// `src` is NULL or points to `len` readable units; `out` is NULL or points to `cap` writable
/// units that do not overlap the input.
// Inlined into each C function (into `run_out_of_line` for those of UTF-16 and UTF-32), so that
// `convert` is a direct call there, itself inlined where the optimiser judges it worth it.
#[inline(always)]
unsafe fn run<S, T>(
    src: *const S,
    len: usize,
    out: *mut T,
    cap: usize,
    (flags, known_flags): (u32, u32),
    convert: impl FnOnce(&[S], &mut [MaybeUninit<T>], Mode) -> Progress,
) -> utf8_result {
    // A misaligned uint16_t or uint32_t pointer, which C does not allow either, cannot be a
    // slice.
    let misaligned = (len > 0 && !src.is_aligned()) || (cap > 0 && !out.is_aligned());
    // No flags, the common case, is the default mode whatever the converter: tested first, it
    // spares short strings the decoding of the flags.
    let mode = if misaligned {
        Err(UTF8_ERR_INVALID_ARGUMENT)
    } else if flags == 0 {
        Ok(Mode::default())
    } else {
        mode_of(flags, known_flags)
    };
    let mode = match mode {
        Ok(mode) => mode,
        Err(status) => return utf8_result::refused(status),
    };
    // SAFETY: the caller's contract for `src`, `len`, `out` and `cap` is the one `units` and
    // `output` need.
    let (Some(src), Some(dst)) = (unsafe { units(src, len) }, unsafe { output(out, cap) }) else {
        return utf8_result::refused(UTF8_ERR_NULL_POINTER);
    };
    convert(src, dst, mode).into()
}

/// [`run`] out of line: the C functions of UTF-16 and UTF-32 run their common call
/// ([`plain_call`]) by [`short_first`] (into UTF-8, [`into_utf8_first`]) and every other one
/// by this. (With UTF-16 of both byte orders in one function, the optimiser chose the
/// converter at run time and called it indirectly.)
///
/// # Safety
/// As for [`run`].
#[inline(never)]
unsafe fn run_out_of_line<S, T>(
    src: *const S,
    len: usize,
    out: *mut T,
    cap: usize,
    flags: (u32, u32),
    convert: impl FnOnce(&[S], &mut [MaybeUninit<T>], Mode) -> Progress,
) -> utf8_result {
    // SAFETY: the caller's contract is passed on unchanged.
    unsafe { run(src, len, out, cap, flags, convert) }
}

/// The input and output of the common call, as slices: no flags, a non-empty input and output
/// at pointers that are not NULL and are aligned; `None` for any other call (for [`run`] to
/// check in full).
///
/// # Safety
/// `src` is NULL or points to `len` readable units; `out` is NULL or points to `cap` writable
/// units that do not overlap the input.
#[inline(always)]
unsafe fn plain_call<'a, S, T>(
    src: *const S,
    len: usize,
    out: *mut T,
    cap: usize,
    flags: u32,
) -> Option<(&'a [S], &'a mut [MaybeUninit<T>])> {
    let plain = flags == 0
        && len > 0
        && cap > 0
        && !src.is_null()
        && src.is_aligned()
        && !out.is_null()
        && out.is_aligned();
    // SAFETY: the pointers are checked above, the lengths are the caller's contract;
    // `MaybeUninit<T>` has the layout of `T` and needs no initialised value.
    plain.then(|| unsafe {
        (
            core::slice::from_raw_parts(src, len),
            core::slice::from_raw_parts_mut(out.cast::<MaybeUninit<T>>(), cap),
        )
    })
}

/// Converts `src` into `dst` in the default mode by `D`'s paths. The call of a short string
/// costs a few instructions more than its conversion, and each one saved shows: the path of
/// ASCII, which calls nothing, is inlined into the C function, which then saves no register
/// and returns at once; the others, which need to, follow out of line.
#[inline(always)]
fn short_first<D: Direction>(src: &[D::Src], dst: &mut [MaybeUninit<D::Dst>]) -> utf8_result {
    match D::ascii(src, dst) {
        Ok(written) => converted(src.len(), written),
        Err(done) => beyond_ascii::<D>(src, dst, done),
    }
}

/// The common call from UTF-8 into units `T` of an input of the lengths that AVX-512 widens
/// as ASCII faster (`FromUtf8Avx512::LENGTHS`): by [`widen_avx512_first`] where AVX-512 is in
/// use, else by [`short_first`].
///
/// The C functions are compiled for the x86_64 baseline, whose SSE2 loop widens 16 bytes at a
/// time. A call into AVX-512's code through the dispatch's tables cost strings of ASCII more
/// than wider registers save; a function compiled for AVX-512, with that code inlined and
/// called directly, runs in about half the instructions of the SSE2 loop (see BENCHMARKS.md).
#[cfg(all(target_arch = "x86_64", libutf8_avx512))]
#[inline(always)]
fn ascii_first_avx512<T: FromUtf8Avx512>(src: &[u8], dst: &mut [MaybeUninit<T>]) -> utf8_result
where
    FromUtf8<T>: Direction<Src = u8, Dst = T>,
{
    if avx512_in_use() {
        // SAFETY: AVX-512 is in use only on CPUs that have it.
        unsafe { widen_avx512_first(src, dst) }
    } else if chosen() {
        short_first::<FromUtf8<T>>(src, dst)
    } else {
        ascii_first_call(src, dst)
    }
}

/// [`ascii_first_avx512`]'s path where AVX-512 is in use: a string of ASCII widened by
/// `FromUtf8Avx512::widen_avx512`, any other by [`steps_avx512_first`].
///
/// # Safety
/// The CPU has AVX-512F and BW.
#[cfg(all(target_arch = "x86_64", libutf8_avx512))]
#[target_feature(enable = "avx512f,avx512bw")]
#[inline(never)]
unsafe fn widen_avx512_first<T: FromUtf8Avx512>(
    src: &[u8],
    dst: &mut [MaybeUninit<T>],
) -> utf8_result
where
    FromUtf8<T>: Direction<Src = u8, Dst = T>,
{
    // SAFETY: the instructions by the caller.
    match unsafe { T::widen_avx512(src, dst) } {
        Ok(written) => converted(src.len(), written),
        // SAFETY: AVX-512 is in use only on CPUs that have it.
        Err(_) => unsafe { steps_avx512_first(src, dst) },
    }
}

/// [`widen_avx512_first`]'s path of a string that is not ASCII: converted by
/// `FromUtf8Avx512::short_avx512`, or by the path after the short converter. As
/// [`narrow_avx512_first`] for one register, without the call through the tables; compiled
/// with LZCNT, as the loop of the short converter's steps is (`avx512::from_utf8::short_steps`),
/// so that the optimiser may inline that loop here. It does not since each step's block is
/// inlined into the loop: one call a string, not one a step.
///
/// # Safety
/// The CPU has AVX-512F, BW, VBMI, VBMI2, LZCNT, POPCNT and BMI2.
#[cfg(all(target_arch = "x86_64", libutf8_avx512))]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,lzcnt,popcnt,bmi2")]
#[inline(never)]
unsafe fn steps_avx512_first<T: FromUtf8Avx512>(
    src: &[u8],
    dst: &mut [MaybeUninit<T>],
) -> utf8_result
where
    FromUtf8<T>: Direction<Src = u8, Dst = T>,
{
    // SAFETY: the instructions by the caller.
    match unsafe { T::short_avx512(src, dst) } {
        Ok(written) => converted(src.len(), written),
        Err(done) => rest_of::<FromUtf8<T>>(src, dst, done),
    }
}

/// [`ascii_first_avx512`]'s path before the implementation is chosen (no kernel chooses for
/// a string of ASCII that the SSE2 loop converts): chooses, then as after.
#[cfg(all(target_arch = "x86_64", libutf8_avx512))]
#[cold]
#[inline(never)]
fn ascii_first_call<T: FromUtf8Avx512>(src: &[u8], dst: &mut [MaybeUninit<T>]) -> utf8_result
where
    FromUtf8<T>: Direction<Src = u8, Dst = T>,
{
    choose_now();
    if avx512_in_use() {
        // SAFETY: AVX-512 is in use only on CPUs that have it.
        unsafe { widen_avx512_first(src, dst) }
    } else {
        short_first::<FromUtf8<T>>(src, dst)
    }
}

/// The common call from UTF-8 into units `T` where AVX-512's code is built: as
/// [`short_first`], but while AVX-512 is in use a string of up to 64 bytes that is not ASCII
/// goes to [`narrow_avx512_first`].
#[cfg(all(target_arch = "x86_64", libutf8_avx512))]
#[inline(always)]
fn from_utf8_first<T: FromUtf8Avx512>(src: &[u8], dst: &mut [MaybeUninit<T>]) -> utf8_result
where
    FromUtf8<T>: Direction<Src = u8, Dst = T>,
{
    match FromUtf8::<T>::ascii(src, dst) {
        Ok(written) => converted(src.len(), written),
        // SAFETY: AVX-512 is in use only on CPUs that have it.
        Err(_) if src.len() <= T::BLOCK && avx512_in_use() => unsafe {
            narrow_avx512_first(src, dst)
        },
        Err(done) => beyond_ascii::<FromUtf8<T>>(src, dst, done),
    }
}

/// The common call from UTF-8 into units `T`: [`short_first`].
#[cfg(not(all(target_arch = "x86_64", libutf8_avx512)))]
#[inline(always)]
fn from_utf8_first<T>(src: &[u8], dst: &mut [MaybeUninit<T>]) -> utf8_result
where
    FromUtf8<T>: Direction<Src = u8, Dst = T>,
{
    short_first::<FromUtf8<T>>(src, dst)
}

/// [`from_utf8_first`]'s path where AVX-512 is in use: a string of up to 64 bytes of
/// characters of one and two bytes converted by `FromUtf8Avx512::narrow_avx512`, one with
/// wider characters by [`wide_avx512_first`], any other by the path after the short converter.
///
/// As into UTF-8 ([`short_avx512_first`]), the call through the tables cost a short string
/// about as much as its conversion; this path takes about three quarters of that one's
/// instructions. Wider characters, whose checks need more registers, go on to a function of
/// their own, so that this one saves none (see BENCHMARKS.md).
///
/// # Safety
/// The CPU has AVX-512F, BW, VBMI, VBMI2, POPCNT and BMI2.
#[cfg(all(target_arch = "x86_64", libutf8_avx512))]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt,bmi2")]
#[inline(never)]
unsafe fn narrow_avx512_first<T: FromUtf8Avx512>(
    src: &[u8],
    dst: &mut [MaybeUninit<T>],
) -> utf8_result
where
    FromUtf8<T>: Direction<Src = u8, Dst = T>,
{
    // SAFETY: the instructions by the caller.
    match unsafe { T::narrow_avx512(src, dst) } {
        Narrow::Converted(written) => converted(src.len(), written),
        // SAFETY: as above.
        Narrow::Wide(_) => unsafe { wide_avx512_first(src, dst) },
        Narrow::Refused => rest_of::<FromUtf8<T>>(src, dst, 0),
    }
}

/// [`narrow_avx512_first`]'s path of a string with a byte from E0: converted by
/// `FromUtf8Avx512::wide_avx512`, or by the path after the short converter.
///
/// # Safety
/// The CPU has AVX-512F, BW, VBMI, VBMI2, POPCNT and BMI2.
#[cfg(all(target_arch = "x86_64", libutf8_avx512))]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt,bmi2")]
#[inline(never)]
unsafe fn wide_avx512_first<T: FromUtf8Avx512>(
    src: &[u8],
    dst: &mut [MaybeUninit<T>],
) -> utf8_result
where
    FromUtf8<T>: Direction<Src = u8, Dst = T>,
{
    // SAFETY: the instructions by the caller.
    match unsafe { T::wide_avx512(src, dst) } {
        Ok(written) => converted(src.len(), written),
        Err(_) => rest_of::<FromUtf8<T>>(src, dst, 0),
    }
}

/// The common call into UTF-8 from units `S` where AVX-512's code is built: as
/// [`short_first`], but while AVX-512 is in use a string of more than 16 units in one or two
/// registers (up to 128 bytes), and any string that does not start with ASCII (the strings of
/// most other scripts), goes to [`short_avx512_first`]. The test for ASCII first, which a
/// string of Latin-script text fails at its first accented letter, cost strings of 17 to 64
/// units of UTF-16 a branch that their text made unpredictable, more than it saved strings
/// of ASCII alone (see BENCHMARKS.md).
#[cfg(all(target_arch = "x86_64", libutf8_avx512))]
#[inline(always)]
fn into_utf8_first<S: IntoUtf8Avx512>(src: &[S], dst: &mut [MaybeUninit<u8>]) -> utf8_result
where
    IntoUtf8<S>: Direction<Src = S, Dst = u8>,
{
    if src.len() > 16 && size_of_val(src) <= 2 * 64 && avx512_in_use() {
        // SAFETY: AVX-512 is in use only on CPUs that have it.
        return unsafe { short_avx512_first(src, dst) };
    }
    match IntoUtf8::<S>::ascii(src, dst) {
        Ok(written) => converted(src.len(), written),
        // SAFETY: AVX-512 is in use only on CPUs that have it.
        Err(0) if avx512_in_use() => unsafe { short_avx512_first(src, dst) },
        Err(done) => beyond_ascii::<IntoUtf8<S>>(src, dst, done),
    }
}

/// The common call into UTF-8 from units `S`: [`short_first`].
#[cfg(not(all(target_arch = "x86_64", libutf8_avx512)))]
#[inline(always)]
fn into_utf8_first<S>(src: &[S], dst: &mut [MaybeUninit<u8>]) -> utf8_result
where
    IntoUtf8<S>: Direction<Src = S, Dst = u8>,
{
    short_first::<IntoUtf8<S>>(src, dst)
}

/// [`into_utf8_first`]'s path where AVX-512 is in use: a short string of one or two registers
/// of units below U+0800 converted by `IntoUtf8Avx512::narrow_avx512`, any other short string
/// by [`wide_into_utf8_first`], any other string by the path after the short converter.
///
/// Reached through the tables, AVX-512's short converter took the input and output in memory
/// (`ShortCall`), and its caller a stack frame for them; compiled into a function of its own
/// that the C function calls directly, it takes them in registers and the function builds the
/// C result itself. The other strings, whose paths need more registers, go on to a function of
/// their own, so that this one saves none (see BENCHMARKS.md).
///
/// # Safety
/// The CPU has AVX-512F, BW, VBMI and VBMI2, AVX2, POPCNT and BMI2.
#[cfg(all(target_arch = "x86_64", libutf8_avx512))]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,avx2,popcnt,bmi2")]
#[inline(never)]
unsafe fn short_avx512_first<S: IntoUtf8Avx512>(
    src: &[S],
    dst: &mut [MaybeUninit<u8>],
) -> utf8_result
where
    IntoUtf8<S>: Direction<Src = S, Dst = u8>,
{
    // SAFETY: the instructions by the caller.
    match unsafe { S::narrow_avx512(src, dst) } {
        Some(Ok(written)) => converted(src.len(), written),
        Some(Err(_)) => rest_of::<IntoUtf8<S>>(src, dst, 0),
        // SAFETY: as above.
        None => unsafe { wide_into_utf8_first(src, dst) },
    }
}

/// [`short_avx512_first`]'s path of the other short strings: converted by
/// `IntoUtf8Avx512::wide_avx512`, or by the path after the short converter.
///
/// # Safety
/// The CPU has AVX-512F, BW, VBMI and VBMI2, AVX2, POPCNT and BMI2.
#[cfg(all(target_arch = "x86_64", libutf8_avx512))]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,avx2,popcnt,bmi2")]
#[inline(never)]
unsafe fn wide_into_utf8_first<S: IntoUtf8Avx512>(
    src: &[S],
    dst: &mut [MaybeUninit<u8>],
) -> utf8_result
where
    IntoUtf8<S>: Direction<Src = S, Dst = u8>,
{
    // SAFETY: the instructions by the caller.
    match unsafe { S::wide_avx512(src, dst) } {
        Ok(written) => converted(src.len(), written),
        Err(_) => rest_of::<IntoUtf8<S>>(src, dst, 0),
    }
}

/// [`short_first`] after the path of ASCII converted the first `done` units.
#[inline(never)]
fn beyond_ascii<D: Direction>(
    src: &[D::Src],
    dst: &mut [MaybeUninit<D::Dst>],
    done: usize,
) -> utf8_result {
    let mut call = ShortCall { src, dst };
    match D::short(&mut call, done) {
        Ok(written) => converted(call.src.len(), written),
        Err(done) => rest_of::<D>(call.src, call.dst, done),
    }
}

/// The rest of [`beyond_ascii`]'s paths, for what the short converter leaves (an error, no
/// room, a string it does not take): out of line and cold, so that `beyond_ascii` saves fewer
/// registers and sets up no stack frame for a call that a short string seldom makes.
#[cold]
#[inline(never)]
fn rest_of<D: Direction>(
    src: &[D::Src],
    dst: &mut [MaybeUninit<D::Dst>],
    done: usize,
) -> utf8_result {
    D::rest(src, dst, Mode::default(), done).into()
}

/// The result of a conversion of all of `read` units into `written`.
fn converted(read: usize, written: usize) -> utf8_result {
    utf8_result {
        status: UTF8_OK,
        read,
        written,
    }
}

/// Converts the `len` bytes of UTF-8 at `src` into UTF-16 at `out`, which has room for `cap`
/// units.
///
/// Returns UTF8_OK with `read == len` when all the input is converted, `written` units. It
/// stops early, `read` being the offset of the character concerned and everything before it
/// converted into the first `written` units, with:
/// - the status of the table of utf8_status for an ill-formed sequence (without UTF8_REPLACE);
///   UTF8_ERR_TRUNCATED if the input ends inside a character: an error where the input ends
///   the stream, else the bytes from `read` to carry over to the next call, which then gives
///   what one call on the whole stream gives (see UTF8_MORE, which a caller converting a
///   stream passes);
/// - UTF8_ERR_BUFFER_TOO_SMALL if the character does not fit: grow or flush the buffer and
///   continue from `src + read` (utf16_length_from_utf8 gives the size needed).
///
/// With UTF8_REPLACE in `flags`, each maximal subpart of an ill-formed sequence becomes one
/// U+FFFD, as utf8_decode_next replaces, and the conversion never stops on bad input.
///
/// With UTF8_WTF8 in `flags`, the input is WTF-8 (UTF8_FORM_WTF8, as utf8_decode_next_form
/// reads it): the 3-byte sequence of a surrogate becomes that surrogate, a lone UTF-16 unit;
/// errors are those of that form. A lead surrogate followed by ED or ED B0..BF at the end of the
/// input is UTF8_ERR_TRUNCATED at the lead surrogate, since the next bytes could make the two a
/// pair, which WTF-8 refuses (with UTF8_REPLACE and without UTF8_MORE, the lead surrogate is
/// converted and the rest replaced). utf16_length_from_utf8 is then an upper bound, not the
/// exact size: WTF-8 replaces fewer bytes than UTF-8 does.
///
/// With UTF8_MORE in `flags`, more input follows: the conversion stops with UTF8_ERR_TRUNCATED
/// before a sequence the input ends inside (with UTF8_WTF8, before a lead surrogate at the end
/// or before such a sequence), even with UTF8_REPLACE, and the caller carries those `len -
/// read` bytes (at most 3; 5 with UTF8_WTF8) over to the next call (see UTF8_MORE).
///
/// With UTF8_UTF16LE or UTF8_UTF16BE in `flags` (since 1.3), the units are written in that byte
/// order (as for a file or a network protocol), otherwise in the machine's; everything else is
/// the same, and `written` still counts units.
///
/// With UTF8_SURROGATEESCAPE, UTF8_FALLBACK_LATIN1 or UTF8_FALLBACK_CP1252 in `flags` (since
/// 1.3; at most one of them, and not with UTF8_WTF8), each byte of an ill-formed sequence
/// becomes one unit: the lone surrogate U+DC80 + (byte - 0x80), as Python's `surrogateescape`;
/// or its character in ISO-8859-1; or in Windows-1252, as cp1252_to_utf8 reads it. The
/// conversion never stops on bad input, UTF8_REPLACE beside them changes nothing, UTF8_MORE
/// holds back a cut sequence as with UTF8_REPLACE, and an output too short for all the units of
/// an ill-formed sequence stops before it (UTF8_ERR_BUFFER_TOO_SMALL).
/// utf16_length_from_utf8_flags gives the size needed.
///
/// Two strategy flags, or a strategy flag with UTF8_WTF8, give UTF8_ERR_UNSUPPORTED_STRATEGY;
/// other flag bits, both UTF8_UTF16LE and UTF8_UTF16BE, and an `out` with `cap > 0` not
/// aligned for uint16_t, give UTF8_ERR_INVALID_ARGUMENT; a NULL `src` with `len > 0` or NULL
/// `out` with `cap > 0` gives UTF8_ERR_NULL_POINTER; both with `read == written == 0`.
///
/// # Safety
/// `src` is NULL or points to `len` readable bytes; `out` is NULL or points to `cap` writable
/// units that do not overlap the input.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn utf8_to_utf16(
    src: *const c_char,
    len: usize,
    out: *mut u16,
    cap: usize,
    flags: u32,
) -> utf8_result {
    // SAFETY: the caller's contract is passed on unchanged.
    unsafe {
        if let Some((src, dst)) = plain_call(src.cast::<u8>(), len, out, cap, flags) {
            #[cfg(all(target_arch = "x86_64", libutf8_avx512))]
            if <u16 as FromUtf8Avx512>::LENGTHS.contains(&src.len()) {
                return ascii_first_avx512(src, dst);
            }
            from_utf8_first(src, dst)
        } else if swapped(flags) {
            run_out_of_line(
                src.cast::<u8>(),
                len,
                out,
                cap,
                (flags, FROM_UTF8_TO_UTF16),
                utf16::utf8_to_utf16_swapped_uninit,
            )
        } else {
            run_out_of_line(
                src.cast::<u8>(),
                len,
                out,
                cap,
                (flags, FROM_UTF8_TO_UTF16),
                utf16::utf8_to_utf16_uninit,
            )
        }
    }
}

/// Converts the `len` bytes of UTF-8 at `src` into UTF-32 at `out`, which has room for `cap`
/// units: as utf8_to_utf16, one unit per character (utf32_length_from_utf8 gives the size
/// needed), `out` aligned for uint32_t, UTF8_REPLACE and UTF8_MORE as there, and
/// UTF8_SURROGATEESCAPE, UTF8_FALLBACK_LATIN1 and UTF8_FALLBACK_CP1252 as there (one unit per
/// byte of an ill-formed sequence; utf32_length_from_utf8_flags gives the size needed).
/// UTF8_WTF8 is not accepted here: UTF8_ERR_INVALID_ARGUMENT, with a strategy flag or without
/// one, as for any flag the function does not take.
///
/// # Safety
/// `src` is NULL or points to `len` readable bytes; `out` is NULL or points to `cap` writable
/// units that do not overlap the input.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn utf8_to_utf32(
    src: *const c_char,
    len: usize,
    out: *mut u32,
    cap: usize,
    flags: u32,
) -> utf8_result {
    // SAFETY: the caller's contract is passed on unchanged.
    unsafe {
        if let Some((src, dst)) = plain_call(src.cast::<u8>(), len, out, cap, flags) {
            #[cfg(all(target_arch = "x86_64", libutf8_avx512))]
            if <u32 as FromUtf8Avx512>::LENGTHS.contains(&src.len()) {
                return ascii_first_avx512(src, dst);
            }
            from_utf8_first(src, dst)
        } else {
            run_out_of_line(
                src.cast::<u8>(),
                len,
                out,
                cap,
                (flags, FROM_UTF8_TO_UTF32),
                utf32::utf8_to_utf32_uninit,
            )
        }
    }
}

/// Converts the `len` units of UTF-16 at `src` into UTF-8 at `out`, which has room for `cap`
/// bytes.
///
/// Returns UTF8_OK with `read == len` when all the input is converted, `written` bytes. It
/// stops early, `read` being the offset of the unit concerned and everything before it
/// converted into the first `written` bytes, with:
/// - UTF8_ERR_SURROGATE for a lone surrogate (without UTF8_REPLACE), except a high surrogate
///   that ends the input: UTF8_ERR_TRUNCATED (without UTF8_REPLACE and UTF8_WTF8, and with
///   UTF8_MORE whatever the other flags), so that a caller converting a stream can carry it
///   over;
/// - UTF8_ERR_BUFFER_TOO_SMALL if the character does not fit: grow or flush the buffer and
///   continue from `src + read` (utf8_length_from_utf16 gives the size needed).
///
/// With UTF8_REPLACE in `flags`, each lone surrogate becomes U+FFFD (EF BF BD) and the
/// conversion never stops on bad input.
///
/// With UTF8_WTF8 in `flags`, the output is WTF-8 (UTF8_FORM_WTF8): each lone surrogate is
/// written as its 3-byte sequence (ED A0..BF 80..BF), the same size as U+FFFD, so
/// utf8_length_from_utf16 is exact; a high surrogate that ends the input is lone too. Nothing
/// is refused, and utf8_to_utf16 with UTF8_WTF8 gives back the input. A caller converting a
/// stream in pieces passes UTF8_MORE for all but the last: without it, a pair cut between its
/// two halves would be written as two lone surrogates.
///
/// With UTF8_MORE in `flags`, more input follows: a high surrogate that ends the input is left
/// (UTF8_ERR_TRUNCATED, `read == len - 1`), not written as a lone surrogate nor replaced nor
/// refused, and the caller carries it over to the next call (see UTF8_MORE).
///
/// With UTF8_UTF16LE or UTF8_UTF16BE in `flags` (since 1.3), the units are read in that byte
/// order (as from a file or a network protocol), otherwise in the machine's; offsets and
/// statuses are the same (utf8_length_from_utf16_flags takes the same flag).
///
/// With UTF8_SURROGATEESCAPE in `flags` (since 1.3), each lone U+DC80..U+DCFF becomes the one
/// byte 0x80..0xFF it escapes (see UTF8_SURROGATEESCAPE), so that what utf8_to_utf16 wrote with
/// that flag comes back byte for byte, whatever the bytes were; any other lone surrogate is as
/// without it (UTF8_ERR_SURROGATE, or U+FFFD with UTF8_REPLACE), and UTF8_MORE still holds back
/// a high surrogate at the end. utf8_length_from_utf16_flags gives the size needed.
///
/// UTF8_FALLBACK_LATIN1 and UTF8_FALLBACK_CP1252 (there is no byte to fall back from) and
/// UTF8_SURROGATEESCAPE with UTF8_WTF8 give UTF8_ERR_UNSUPPORTED_STRATEGY; other flag bits,
/// both UTF8_UTF16LE and UTF8_UTF16BE, and a `src` with `len > 0` not aligned for uint16_t,
/// give UTF8_ERR_INVALID_ARGUMENT; a NULL `src` with `len > 0` or NULL `out` with `cap > 0`
/// gives UTF8_ERR_NULL_POINTER; both with `read == written == 0`.
///
/// # Safety
/// `src` is NULL or points to `len` readable units; `out` is NULL or points to `cap` writable
/// bytes that do not overlap the input.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn utf16_to_utf8(
    src: *const u16,
    len: usize,
    out: *mut c_char,
    cap: usize,
    flags: u32,
) -> utf8_result {
    // SAFETY: the caller's contract is passed on unchanged.
    unsafe {
        if let Some((src, dst)) = plain_call(src, len, out.cast::<u8>(), cap, flags) {
            into_utf8_first(src, dst)
        } else if swapped(flags) {
            run_out_of_line(
                src,
                len,
                out.cast::<u8>(),
                cap,
                (flags, TO_UTF8_FROM_UTF16),
                utf16::utf16_swapped_to_utf8_uninit,
            )
        } else {
            run_out_of_line(
                src,
                len,
                out.cast::<u8>(),
                cap,
                (flags, TO_UTF8_FROM_UTF16),
                utf16::utf16_to_utf8_uninit,
            )
        }
    }
}

/// Converts the `len` units of UTF-32 at `src` into UTF-8 at `out`, which has room for `cap`
/// bytes.
///
/// As utf16_to_utf8, where a surrogate value gives UTF8_ERR_SURROGATE and a value above
/// 0x10FFFF UTF8_ERR_TOO_LARGE, as for utf8_encode (each one U+FFFD with UTF8_REPLACE);
/// utf8_length_from_utf32 gives the size needed; `src` aligned for uint32_t. UTF8_MORE is
/// accepted and changes nothing: a unit of UTF-32 is complete. With UTF8_SURROGATEESCAPE (since
/// 1.3), each U+DC80..U+DCFF becomes its byte 0x80..0xFF, as for utf16_to_utf8
/// (utf8_length_from_utf32_flags gives the size needed). UTF8_WTF8 is not accepted here
/// (UTF8_ERR_INVALID_ARGUMENT), nor are UTF8_FALLBACK_LATIN1 and UTF8_FALLBACK_CP1252
/// (UTF8_ERR_UNSUPPORTED_STRATEGY).
///
/// # Safety
/// `src` is NULL or points to `len` readable units; `out` is NULL or points to `cap` writable
/// bytes that do not overlap the input.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn utf32_to_utf8(
    src: *const u32,
    len: usize,
    out: *mut c_char,
    cap: usize,
    flags: u32,
) -> utf8_result {
    // SAFETY: the caller's contract is passed on unchanged.
    unsafe {
        if let Some((src, dst)) = plain_call(src, len, out.cast::<u8>(), cap, flags) {
            into_utf8_first(src, dst)
        } else {
            run_out_of_line(
                src,
                len,
                out.cast::<u8>(),
                cap,
                (flags, TO_UTF8_FROM_UTF32),
                utf32::utf32_to_utf8_uninit,
            )
        }
    }
}

/// The number of UTF-16 units utf8_to_utf16 writes for the `len` bytes at `src` with
/// UTF8_REPLACE: exact for any input, and so also for strict conversion of well-formed input.
/// At most `len`. 0 for `(NULL, any)`.
///
/// # Safety
/// `src` is NULL or points to `len` readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn utf16_length_from_utf8(src: *const c_char, len: usize) -> usize {
    // SAFETY: the caller's contract for `src` and `len` is the one `input` needs.
    unsafe { input(src, len) }.map_or(0, utf16::utf16_length_from_utf8)
}

/// The number of UTF-32 units utf8_to_utf32 writes for the `len` bytes at `src` with
/// UTF8_REPLACE (the number of characters, as utf8_count_chars counts them): exact for any
/// input. At most `len`. 0 for `(NULL, any)`.
///
/// # Safety
/// `src` is NULL or points to `len` readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn utf32_length_from_utf8(src: *const c_char, len: usize) -> usize {
    // SAFETY: the caller's contract for `src` and `len` is the one `input` needs.
    unsafe { input(src, len) }.map_or(0, utf32::utf32_length_from_utf8)
}

/// The number of bytes utf16_to_utf8 writes for the `len` units at `src` with UTF8_REPLACE:
/// exact for any input. At most `3 * len`, which does not overflow: the buffer's `2 * len`
/// bytes are at most PTRDIFF_MAX (see the conventions). 0 for `(NULL, any)` and for a `src` not
/// aligned for uint16_t.
///
/// # Safety
/// `src` is NULL or points to `len` readable units.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn utf8_length_from_utf16(src: *const u16, len: usize) -> usize {
    // SAFETY: the caller's contract for `src` and `len` is the one `units` needs.
    unsafe { units(src, len) }.map_or(0, utf16::utf8_length_from_utf16)
}

/// The number of bytes utf32_to_utf8 writes for the `len` units at `src` with UTF8_REPLACE:
/// exact for any input. At most `4 * len`, which cannot overflow for a buffer that exists (its
/// `4 * len` bytes fit in a size_t). 0 for `(NULL, any)` and for a `src` not aligned for
/// uint32_t.
///
/// # Safety
/// `src` is NULL or points to `len` readable units.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn utf8_length_from_utf32(src: *const u32, len: usize) -> usize {
    // SAFETY: the caller's contract for `src` and `len` is the one `units` needs.
    unsafe { units(src, len) }.map_or(0, utf32::utf8_length_from_utf32)
}

/// Converts the `len` bytes of Latin-1 (ISO-8859-1) at `src` into UTF-8 at `out`, which has
/// room for `cap` bytes (since 1.3).
///
/// Each byte is the character of its value, U+0000..U+00FF: a byte below 0x80 is copied, any
/// other becomes two bytes (C2 or C3, then `0x80 | (b & 0x3F)`). Every byte string is Latin-1,
/// so this returns UTF8_OK with `read == len`, or UTF8_ERR_BUFFER_TOO_SMALL where a character
/// does not fit, as utf16_to_utf8 does: `read` is its offset, everything before it converted
/// into the first `written` bytes; grow or flush the buffer and continue from `src + read`
/// (utf8_length_from_latin1 gives the size needed). UTF8_REPLACE and UTF8_MORE are accepted
/// and change nothing.
///
/// A strategy flag (UTF8_SURROGATEESCAPE, UTF8_FALLBACK_LATIN1, UTF8_FALLBACK_CP1252: every
/// byte string is Latin-1) gives UTF8_ERR_UNSUPPORTED_STRATEGY, other flag bits
/// UTF8_ERR_INVALID_ARGUMENT; a NULL `src` with `len > 0` or NULL `out` with `cap > 0` gives
/// UTF8_ERR_NULL_POINTER; both with `read == written == 0`.
///
/// # Safety
/// `src` is NULL or points to `len` readable bytes; `out` is NULL or points to `cap` writable
/// bytes that do not overlap the input.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn latin1_to_utf8(
    src: *const c_char,
    len: usize,
    out: *mut c_char,
    cap: usize,
    flags: u32,
) -> utf8_result {
    // SAFETY: the caller's contract is passed on unchanged.
    unsafe {
        run(
            src.cast::<u8>(),
            len,
            out.cast::<u8>(),
            cap,
            (flags, UTF8_REPLACE | UTF8_MORE),
            latin1::latin1_to_utf8_uninit,
        )
    }
}

/// Converts the `len` bytes of Windows-1252 at `src` into UTF-8 at `out`, which has room for
/// `cap` bytes (since 1.3).
///
/// As latin1_to_utf8, each byte being its character in the WHATWG Encoding Standard's
/// index-windows-1252: that of Latin-1 but for 0x80..0x9F, where 0x80 is U+20AC (E2 82 AC),
/// 0x8A U+0160, 0x9F U+0178 and so on, and 0x81, 0x8D, 0x8F, 0x90, 0x9D, which Microsoft's
/// table leaves undefined, are U+0081, U+008D, U+008F, U+0090, U+009D. A byte becomes 1, 2 or
/// 3 bytes (utf8_length_from_cp1252 gives the size needed). Every byte string is valid input.
///
/// Together with utf8_validate this reads a file as UTF-8 when it is UTF-8 and as the legacy
/// encoding when it is not (see "Reading a file that may not be UTF-8" under cp1252_to_utf8
/// in libutf8(3)).
///
/// # Safety
/// `src` is NULL or points to `len` readable bytes; `out` is NULL or points to `cap` writable
/// bytes that do not overlap the input.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cp1252_to_utf8(
    src: *const c_char,
    len: usize,
    out: *mut c_char,
    cap: usize,
    flags: u32,
) -> utf8_result {
    // SAFETY: the caller's contract is passed on unchanged.
    unsafe {
        run(
            src.cast::<u8>(),
            len,
            out.cast::<u8>(),
            cap,
            (flags, UTF8_REPLACE | UTF8_MORE),
            latin1::cp1252_to_utf8_uninit,
        )
    }
}

/// Converts the `len` bytes of UTF-8 at `src` into Latin-1 (ISO-8859-1) at `out`, which has
/// room for `cap` bytes (since 1.3).
///
/// Each character up to U+00FF becomes the byte of its value. Returns UTF8_OK with `read ==
/// len` when all the input is converted, `written` bytes. It stops early, `read` being the
/// offset of the character concerned and everything before it converted into the first
/// `written` bytes, with:
/// - UTF8_ERR_UNREPRESENTABLE for a character above U+00FF (without UTF8_REPLACE): never
///   dropped;
/// - the status of the table of utf8_status for an ill-formed sequence (without UTF8_REPLACE),
///   and UTF8_ERR_TRUNCATED as utf8_to_utf16 gives it (see UTF8_MORE);
/// - UTF8_ERR_BUFFER_TOO_SMALL if the character does not fit: grow or flush the buffer and
///   continue from `src + read` (latin1_length_from_utf8 gives the size needed).
///
/// With UTF8_REPLACE in `flags`, each character above U+00FF and each maximal subpart of an
/// ill-formed sequence becomes one `?` (0x3F), and the conversion never stops on bad input:
/// the output is, byte for byte, Python's `b.decode('utf-8', 'replace').encode('latin-1',
/// 'replace')`.
///
/// With UTF8_MORE in `flags`, more input follows, as for utf8_to_utf16: the conversion stops
/// with UTF8_ERR_TRUNCATED before a sequence the input ends inside (at most 3 bytes), even with
/// UTF8_REPLACE, for the caller to carry over to the next call.
///
/// A strategy flag gives UTF8_ERR_UNSUPPORTED_STRATEGY: Latin-1 has no lone surrogates, and
/// a byte of a fallback would be ambiguous with a character of the same value (UTF8_REPLACE's
/// `?` marks the loss instead). Other flag bits (UTF8_WTF8 among them) give
/// UTF8_ERR_INVALID_ARGUMENT; a NULL `src` with
/// `len > 0` or NULL `out` with `cap > 0` gives UTF8_ERR_NULL_POINTER; both with `read ==
/// written == 0`.
///
/// # Safety
/// `src` is NULL or points to `len` readable bytes; `out` is NULL or points to `cap` writable
/// bytes that do not overlap the input.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn utf8_to_latin1(
    src: *const c_char,
    len: usize,
    out: *mut c_char,
    cap: usize,
    flags: u32,
) -> utf8_result {
    // SAFETY: the caller's contract is passed on unchanged.
    unsafe {
        run(
            src.cast::<u8>(),
            len,
            out.cast::<u8>(),
            cap,
            (flags, UTF8_REPLACE | UTF8_MORE),
            latin1::utf8_to_latin1_uninit,
        )
    }
}

/// The number of bytes latin1_to_utf8 writes for the `len` bytes at `src` (since 1.3): `len`
/// plus the number of bytes from 0x80. At most `2 * len`. 0 for `(NULL, any)`.
///
/// # Safety
/// `src` is NULL or points to `len` readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn utf8_length_from_latin1(src: *const c_char, len: usize) -> usize {
    // SAFETY: the caller's contract for `src` and `len` is the one `input` needs.
    unsafe { input(src, len) }.map_or(0, latin1::utf8_length_from_latin1)
}

/// The number of bytes cp1252_to_utf8 writes for the `len` bytes at `src` (since 1.3): 1 per
/// byte below 0x80, 3 per byte of 0x80..0x9F whose character is from U+0800 (0x80, 0x82,
/// 0x84..0x87, 0x89, 0x8B, 0x91..0x97, 0x99, 0x9B), 2 per other byte. At most `3 * len`
/// (SIZE_MAX where that does not fit in size_t, from 1.4 GB on a 32-bit system).
/// 0 for `(NULL, any)`.
///
/// # Safety
/// `src` is NULL or points to `len` readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn utf8_length_from_cp1252(src: *const c_char, len: usize) -> usize {
    // SAFETY: the caller's contract for `src` and `len` is the one `input` needs.
    unsafe { input(src, len) }.map_or(0, latin1::utf8_length_from_cp1252)
}

/// The number of bytes utf8_to_latin1 writes for the `len` bytes at `src` with UTF8_REPLACE
/// (since 1.3): one per character and per maximal subpart of an ill-formed sequence, as
/// utf8_count_chars counts them; exact for any input, and so also for strict conversion of
/// well-formed input with no character above U+00FF. At most `len`. 0 for `(NULL, any)`.
///
/// # Safety
/// `src` is NULL or points to `len` readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn latin1_length_from_utf8(src: *const c_char, len: usize) -> usize {
    // SAFETY: the caller's contract for `src` and `len` is the one `input` needs.
    unsafe { input(src, len) }.map_or(0, latin1::latin1_length_from_utf8)
}

/// The number of UTF-16 units utf8_to_utf16 writes for the whole of the `len` bytes at `src`
/// with `flags` (since 1.3), no strategy flag counting as UTF8_REPLACE: as
/// utf16_length_from_utf8 (which equals this with `flags` 0); with UTF8_SURROGATEESCAPE,
/// UTF8_FALLBACK_LATIN1 or UTF8_FALLBACK_CP1252, one unit per byte of each ill-formed sequence
/// instead of one per maximal subpart. Exact for any input, and so the size to allocate; with
/// UTF8_WTF8, an upper bound, as utf16_length_from_utf8 is. UTF8_MORE is ignored (the length of
/// the whole input), and so are UTF8_UTF16LE and UTF8_UTF16BE (a unit is a unit in either
/// order). Flags utf8_to_utf16 refuses (an unknown bit, two strategies, a strategy with
/// UTF8_WTF8, both byte orders) give 0. At most `len`. 0 for `(NULL, any)`.
///
/// # Safety
/// `src` is NULL or points to `len` readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn utf16_length_from_utf8_flags(
    src: *const c_char,
    len: usize,
    flags: u32,
) -> usize {
    let Ok(mode) = mode_of(flags, FROM_UTF8_TO_UTF16) else {
        return 0;
    };
    // SAFETY: the caller's contract for `src` and `len` is the one `input` needs.
    unsafe { input(src, len) }.map_or(0, |s| {
        utf16::utf16_length_from_utf8_with(s, mode.replacement)
    })
}

/// The number of UTF-32 units utf8_to_utf32 writes for the whole of the `len` bytes at `src`
/// with `flags` (since 1.3): as utf16_length_from_utf8_flags, one unit per character, and one
/// per maximal subpart of an ill-formed sequence or, with a strategy flag, per byte of it.
/// Exact for any input. UTF8_MORE is ignored; flags utf8_to_utf32 refuses (UTF8_WTF8 among
/// them) give 0. At most `len`. 0 for `(NULL, any)`.
///
/// # Safety
/// `src` is NULL or points to `len` readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn utf32_length_from_utf8_flags(
    src: *const c_char,
    len: usize,
    flags: u32,
) -> usize {
    let Ok(mode) = mode_of(flags, FROM_UTF8_TO_UTF32) else {
        return 0;
    };
    // SAFETY: the caller's contract for `src` and `len` is the one `input` needs.
    unsafe { input(src, len) }.map_or(0, |s| {
        utf32::utf32_length_from_utf8_with(s, mode.replacement)
    })
}

/// The number of bytes utf16_to_utf8 writes for the whole of the `len` units at `src` with
/// `flags` (since 1.3), no strategy flag counting as UTF8_REPLACE: as utf8_length_from_utf16
/// (which equals this with `flags` 0, and with UTF8_WTF8, exact too); with
/// UTF8_SURROGATEESCAPE, one byte instead of three for each lone U+DC80..U+DCFF (other lone
/// surrogates, on which utf16_to_utf8 stops, count as U+FFFD's three); with UTF8_UTF16LE or
/// UTF8_UTF16BE, of the units read in that byte order. Exact for any input.
/// UTF8_MORE is ignored (a high surrogate at the end counts as lone, 3 bytes); flags
/// utf16_to_utf8 refuses (the fallback flags among them) give 0. At most `3 * len`. 0 for
/// `(NULL, any)` and for a `src` not aligned for uint16_t.
///
/// # Safety
/// `src` is NULL or points to `len` readable units.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn utf8_length_from_utf16_flags(
    src: *const u16,
    len: usize,
    flags: u32,
) -> usize {
    let Ok(mode) = mode_of(flags, TO_UTF8_FROM_UTF16) else {
        return 0;
    };
    // SAFETY: the caller's contract for `src` and `len` is the one `units` needs.
    unsafe { units(src, len) }.map_or(0, |s| {
        if swapped(flags) {
            utf16::utf8_length_from_utf16_swapped_with(s, mode.replacement)
        } else {
            utf16::utf8_length_from_utf16_with(s, mode.replacement)
        }
    })
}

/// The number of bytes utf32_to_utf8 writes for the whole of the `len` units at `src` with
/// `flags` (since 1.3), no strategy flag counting as UTF8_REPLACE: as utf8_length_from_utf32
/// (which equals this with `flags` 0); with UTF8_SURROGATEESCAPE, one byte instead of three for
/// each U+DC80..U+DCFF (other surrogates and values above U+10FFFF, on which utf32_to_utf8
/// stops, count as U+FFFD's three). Exact for any input. UTF8_MORE is ignored; flags
/// utf32_to_utf8 refuses give 0. At most `4 * len`. 0 for `(NULL, any)` and for a `src` not
/// aligned for uint32_t.
///
/// # Safety
/// `src` is NULL or points to `len` readable units.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn utf8_length_from_utf32_flags(
    src: *const u32,
    len: usize,
    flags: u32,
) -> usize {
    let Ok(mode) = mode_of(flags, TO_UTF8_FROM_UTF32) else {
        return 0;
    };
    // SAFETY: the caller's contract for `src` and `len` is the one `units` needs.
    unsafe { units(src, len) }.map_or(0, |s| {
        utf32::utf8_length_from_utf32_with(s, mode.replacement)
    })
}
