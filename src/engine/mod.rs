//! The conversion engine: the loops every converter between UTF-8 and UTF-16 or UTF-32
//! (native-endian code units) runs, whichever implementation it is compiled for.
//!
//! Every converter has one exact path, [`convert_until`]: decode a character of the source,
//! encode it into the target, stop at the first ill-formed input (or replace it with U+FFFD and
//! go on), or stop before a character that does not fit. Around it, fast paths that trust
//! their input and give the same results: from UTF-8 ([`convert_from_utf8`]), stretches found
//! well-formed by the implementation's validator, decoded with no checks; into UTF-8
//! ([`convert_to_utf8`]), what a SIMD kernel (`crate::algorithms::to_utf8`), or for the scalar
//! implementation [`encode_blocks`], finds well-formed, encoded as it checks. Runs of ASCII are
//! copied a block at a time. The kernels (`crate::kernels`) pass their validators and
//! converters in and compile all of it once per instruction set, so that those copies use the
//! widest registers the CPU has; `crate::dispatch` picks the one to run at run time.
//!
//! The engine calls nothing above it: it is given the validator and the SIMD converters as
//! arguments. The public functions are in `crate::transcode`.
//!
//! The converters write into units that may be uninitialised (a C caller's fresh buffer; see
//! [`crate::sink`]), and read none of them but bytes they store back unchanged.

pub(crate) mod latin1;
mod more;
pub(crate) mod short;
pub(crate) mod utf16;
pub(crate) mod utf32;

use core::mem::MaybeUninit;

use crate::scalar::error::{ErrorKind, Malformed, REPLACEMENT};
pub use crate::scalar::replacement::Replacement;
use crate::sink::write_units;

/// How a conversion treats ill-formed input, and the end of its input.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Mode {
    /// Replace each ill-formed sequence with U+FFFD and go on, instead of stopping there.
    pub replace: bool,
    /// UTF-8 is WTF-8 ([`crate::form::Form::Wtf8`]): lone surrogates of UTF-16 are written as
    /// their 3-byte sequences and read back as themselves. For the UTF-16 converters only.
    pub wtf8: bool,
    /// More input follows (a stream converted a chunk at a time, as WHATWG's `stream: true`
    /// or ICU's `flush = false`): the conversion stops with [`ErrorKind::Truncated`] before the
    /// units at the end of the input whose meaning the next input could change (a UTF-8
    /// sequence the input ends inside; with [`Mode::wtf8`], a lead surrogate's 3 bytes before
    /// it or at the end; a UTF-16 high surrogate as the last unit), even with
    /// [`Mode::replace`], having converted everything before them, so that converting them
    /// again followed by the next input gives what one conversion of the whole gives. Without
    /// it, the end of the input is the end of the stream. Nothing changes from UTF-32.
    pub more: bool,
    /// What ill-formed input becomes. [`Replacement::Fffd`] (the default): U+FFFD with
    /// [`Mode::replace`], else the conversion stops. Any other, from UTF-8 into UTF-16 or
    /// UTF-32: each byte of an ill-formed sequence becomes one unit, its character under that
    /// strategy, and the conversion never stops on bad input, whatever [`Mode::replace`]. Into
    /// UTF-8, [`Replacement::Escape`] turns each lone U+DC80..U+DCFF back into its byte, every
    /// other error being treated as with [`Replacement::Fffd`]; the fallbacks, which have no
    /// byte to fall back from there, change nothing (the C functions refuse them), nor does any
    /// strategy into Latin-1. With [`Mode::wtf8`] the C functions refuse them all.
    pub replacement: Replacement,
}

/// Why a conversion stopped before the end of its input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// Ill-formed input at `read`: why.
    Malformed(ErrorKind),
    /// The character at `read` does not fit in the rest of the output.
    OutputFull,
    /// The character at `read` has no encoding in the target (above U+00FF, into Latin-1).
    Unrepresentable,
}

/// How far a conversion got: code units read and written, and why it stopped early, if it did.
///
/// Everything before `read` has been converted into the first `written` units of the output,
/// which never end inside a character, so a caller can continue from `read`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    pub read: usize,
    pub written: usize,
    pub stop: Option<Stop>,
}

/// A code unit of UTF-8, UTF-16 or UTF-32 as the conversion engine reads and writes it, generic
/// over the three: its value, and the unit holding an ASCII byte.
pub(crate) trait CodeUnit: Copy {
    /// The unit as a number.
    fn value(self) -> u32;
    /// The unit holding the ASCII value `b`.
    fn from_ascii(b: u8) -> Self;
    /// The unit holding `v`, which the caller knows fits (a replacement unit).
    fn from_value(v: u32) -> Self;
    /// The one unit of the other side of the conversion that this unit of an ill-formed
    /// sequence becomes under `r`, if `r` replaces it so: as a source unit of UTF-8, its
    /// character ([`Replacement::char_of_byte`], one unit of UTF-16 or UTF-32); of UTF-16 or
    /// UTF-32, its byte ([`Replacement::byte_of_unit`], one byte of UTF-8).
    fn replaced(self, r: Replacement) -> Option<u32>;
}

impl CodeUnit for u8 {
    #[inline(always)]
    fn value(self) -> u32 {
        u32::from(self)
    }
    #[inline(always)]
    fn from_ascii(b: u8) -> Self {
        b
    }
    #[inline(always)]
    fn from_value(v: u32) -> Self {
        v as u8
    }
    #[inline(always)]
    fn replaced(self, r: Replacement) -> Option<u32> {
        r.char_of_byte(self)
    }
}

impl CodeUnit for u16 {
    #[inline(always)]
    fn value(self) -> u32 {
        u32::from(self)
    }
    #[inline(always)]
    fn from_ascii(b: u8) -> Self {
        u16::from(b)
    }
    #[inline(always)]
    fn from_value(v: u32) -> Self {
        v as u16
    }
    #[inline(always)]
    fn replaced(self, r: Replacement) -> Option<u32> {
        r.byte_of_unit(self.value()).map(u32::from)
    }
}

impl CodeUnit for u32 {
    #[inline(always)]
    fn value(self) -> u32 {
        self
    }
    #[inline(always)]
    fn from_ascii(b: u8) -> Self {
        u32::from(b)
    }
    #[inline(always)]
    fn from_value(v: u32) -> Self {
        v
    }
    #[inline(always)]
    fn replaced(self, r: Replacement) -> Option<u32> {
        r.byte_of_unit(self).map(u32::from)
    }
}

/// A unit of UTF-16 in the other byte order than the machine's (UTF-16BE on a little-endian
/// machine): the bytes as they are in memory, read and written by [`CodeUnit`] in the
/// machine's order, so that the engine's loops, the SIMD converters and the short strings'
/// paths convert it as they convert `u16`, swapping its bytes where they load or store it.
/// The public functions take `u16` buffers, seen as these ([`U16Swapped::units`],
/// [`U16Swapped::units_mut`]).
#[repr(transparent)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct U16Swapped(u16);

impl U16Swapped {
    /// `units`, units in the other byte order, as such.
    #[inline(always)]
    pub(crate) fn units(units: &[u16]) -> &[U16Swapped] {
        // SAFETY: `U16Swapped` is `repr(transparent)` over `u16`: the same layout, and any
        // bits are a value of either.
        unsafe { core::slice::from_raw_parts(units.as_ptr().cast(), units.len()) }
    }

    /// `units`, the room for units in the other byte order, as such.
    #[inline(always)]
    pub(crate) fn units_mut(units: &mut [MaybeUninit<u16>]) -> &mut [MaybeUninit<U16Swapped>] {
        // SAFETY: as for `units`; `MaybeUninit<T>` has the layout of `T`.
        unsafe { core::slice::from_raw_parts_mut(units.as_mut_ptr().cast(), units.len()) }
    }
}

impl CodeUnit for U16Swapped {
    #[inline(always)]
    fn value(self) -> u32 {
        u32::from(self.0.swap_bytes())
    }
    #[inline(always)]
    fn from_ascii(b: u8) -> Self {
        U16Swapped(u16::from(b).swap_bytes())
    }
    #[inline(always)]
    fn from_value(v: u32) -> Self {
        U16Swapped((v as u16).swap_bytes())
    }
    #[inline(always)]
    fn replaced(self, r: Replacement) -> Option<u32> {
        r.byte_of_unit(self.value()).map(u32::from)
    }
}

/// For the unit tests' canaries: the unit holding `b`.
#[cfg(test)]
impl From<u8> for U16Swapped {
    fn from(b: u8) -> Self {
        U16Swapped(u16::from(b))
    }
}

/// A unit of UTF-16, in the machine's byte order (`u16`) or in the other ([`U16Swapped`]): the
/// units that the UTF-16 loops of [`utf16`] read and write.
pub(crate) trait Utf16Unit: CodeUnit {}

impl Utf16Unit for u16 {}
impl Utf16Unit for U16Swapped {}

/// Units copied at a time in a run of ASCII: enough for the compiler to use whole vector
/// registers (32 bytes of UTF-8 widen to two AVX2 registers of UTF-16, or one of AVX-512).
const ASCII_BLOCK: usize = 32;

/// Converts `src` into `dst` from `at` (which has not stopped) until it has read `limit` units
/// or more, and `after_error` units past the start of each ill-formed sequence it replaces:
/// the exact path, one character at a time (runs of ASCII a block at a time), which every
/// error goes through. `decode` reads one character (its value and length in source units, or
/// why the units at the start of its argument are ill-formed), `encode` writes one (its length
/// in target units, or `None` if it does not fit).
///
/// A character is decoded from all of the rest of `src`, never from `src[..limit]`, so that
/// where a conversion stops and why do not depend on `limit` or `after_error`. Returns how far
/// it got, and the limit as the errors left it.
#[inline(always)]
pub(super) fn convert_until<S: CodeUnit, T: CodeUnit>(
    src: &[S],
    dst: &mut [MaybeUninit<T>],
    mode: Mode,
    at: Progress,
    (limit, after_error): (usize, usize),
    decode: &impl Fn(&[S]) -> Result<(u32, usize), Malformed>,
    encode: &impl Fn(u32, &mut [MaybeUninit<T>]) -> Option<usize>,
) -> (Progress, usize) {
    let (mut at, mut limit) = (at, limit);
    loop {
        let error_len;
        (at, limit, error_len) =
            exact_until(src, dst, mode, at, (limit, after_error), decode, encode);
        let Some(Stop::Malformed(kind)) = at.stop else {
            return (at, limit);
        };
        if mode.replacement == Replacement::Fffd {
            return (at, limit);
        }
        let m = Malformed {
            kind,
            len: error_len,
        };
        let error_at = at.read;
        at = replace_one(src, dst, mode, at, m, encode);
        limit = limit.max(error_at + after_error);
        if at.stop.is_some() || at.read >= limit || at.read >= src.len() {
            return (at, limit);
        }
    }
}

/// Under a strategy other than [`Replacement::Fffd`], the ill-formed sequence `m` at `at`,
/// where [`exact_until`] stopped, replaced by [`replace_units`] (or, if the strategy does not
/// replace it, as [`Mode::replace`] says): how far the conversion got, with no stop if it goes on.
/// Out of line and cold: the loop of [`exact_until`], which well-formed input and U+FFFD
/// replacement run, stays as it was, with no call in it.
#[cold]
#[inline(never)]
fn replace_one<S: CodeUnit, T: CodeUnit>(
    src: &[S],
    dst: &mut [MaybeUninit<T>],
    mode: Mode,
    at: Progress,
    m: Malformed,
    encode: &impl Fn(u32, &mut [MaybeUninit<T>]) -> Option<usize>,
) -> Progress {
    let rest = src.get(at.read..).unwrap_or_default();
    let out = dst.get_mut(at.written..).unwrap_or_default();
    let full = Progress {
        stop: Some(Stop::OutputFull),
        ..at
    };
    let (read, written) = match replace_units(rest, m, mode.replacement, out) {
        Replaced::Units(n) => (n, n),
        Replaced::Full => return full,
        Replaced::Not if mode.replace => match encode(REPLACEMENT, out) {
            Some(n) => (m.len.max(1), n),
            None => return full,
        },
        Replaced::Not => return at,
    };
    Progress {
        read: at.read + read,
        written: at.written + written,
        stop: None,
    }
}

/// The loop of [`convert_until`]: every character, and every ill-formed sequence replaced with
/// U+FFFD ([`Mode::replace`] with [`Replacement::Fffd`]) or stopped at; under another strategy,
/// every ill-formed sequence of one unit that it replaces, replaced, and any other stopped at;
/// with the limit, moved on by the errors replaced, and the length of the ill-formed sequence
/// it stopped at (else 0).
#[inline(always)]
fn exact_until<S: CodeUnit, T: CodeUnit>(
    src: &[S],
    dst: &mut [MaybeUninit<T>],
    mode: Mode,
    at: Progress,
    (limit, after_error): (usize, usize),
    decode: &impl Fn(&[S]) -> Result<(u32, usize), Malformed>,
    encode: &impl Fn(u32, &mut [MaybeUninit<T>]) -> Option<usize>,
) -> (Progress, usize, usize) {
    let (mut read, mut written, mut limit) = (at.read, at.written, limit);
    let stop = |read, written, stop| Progress {
        read,
        written,
        stop: Some(stop),
    };
    while let Some(rest) = src.get(read..).filter(|r| !r.is_empty() && read < limit) {
        let out = dst.get_mut(written..).unwrap_or_default();
        if rest.first().is_some_and(|u| u.value() < 0x80) {
            let n = copy_ascii(rest, out);
            read += n;
            written += n;
            if n > 0 {
                continue;
            }
        }
        let (value, len) = match decode(rest) {
            Ok(decoded) => decoded,
            // A maximal subpart is at least one unit long where there is input.
            Err(m) if mode.replace && mode.replacement == Replacement::Fffd => {
                limit = limit.max(read + after_error);
                (REPLACEMENT, m.len.max(1))
            }
            Err(m) => {
                // Under another strategy, an ill-formed sequence of one unit that it replaces
                // becomes its one unit here, as `replace_units` would write it (the errors of
                // text that is mostly well-formed are nearly all of one byte); any other, the
                // caller replaces (see `convert_until`).
                if mode.replacement != Replacement::Fffd && m.len <= 1 {
                    if let Some(v) = rest.first().and_then(|u| u.replaced(mode.replacement)) {
                        let Some(o) = out.first_mut() else {
                            return (stop(read, written, Stop::OutputFull), limit, 0);
                        };
                        o.write(T::from_value(v));
                        limit = limit.max(read + after_error);
                        read += 1;
                        written += 1;
                        continue;
                    }
                }
                return (stop(read, written, Stop::Malformed(m.kind)), limit, m.len);
            }
        };
        let Some(units) = encode(value, out) else {
            return (stop(read, written, Stop::OutputFull), limit, 0);
        };
        read += len;
        written += units;
    }
    let done = Progress {
        read,
        written,
        stop: None,
    };
    (done, limit, 0)
}

/// What [`replace_units`] did with an ill-formed sequence.
pub(super) enum Replaced {
    /// The strategy does not replace it: the conversion treats it as with
    /// [`Replacement::Fffd`].
    Not,
    /// Replaced unit for unit: as many units read as written.
    Units(usize),
    /// Its replacement does not fit in the room left; nothing written.
    Full,
}

/// Writes the replacement of the ill-formed sequence `m` at the start of `rest` into `out` under
/// `r` (not [`Replacement::Fffd`]): one unit per unit of the sequence (see
/// [`CodeUnit::replaced`]), all of them or none, so that an output too short stops before the
/// sequence, as before a character. Out of line and cold, as its caller [`replace_one`].
#[cold]
#[inline(never)]
pub(super) fn replace_units<S: CodeUnit, T: CodeUnit>(
    rest: &[S],
    m: Malformed,
    r: Replacement,
    out: &mut [MaybeUninit<T>],
) -> Replaced {
    // A maximal subpart is at least one unit long where there is input. The strategies
    // replace every byte of ill-formed UTF-8, or not at all the one unit of an error of UTF-16
    // or UTF-32: the first unit tells.
    let ill = rest.get(..m.len.max(1)).unwrap_or(rest);
    if ill.first().is_some_and(|u| u.replaced(r).is_none()) {
        return Replaced::Not;
    }
    let Some(out) = out.get_mut(..ill.len()) else {
        return Replaced::Full;
    };
    for (o, u) in out.iter_mut().zip(ill) {
        o.write(T::from_value(u.replaced(r).unwrap_or(0xFFFD)));
    }
    Replaced::Units(ill.len())
}

/// The bytes at a time that the `fast` converters of [`convert_from_utf8`] take (the SIMD
/// kernels' blocks; `crate::algorithms::from_utf8` checks that it is theirs): of less input
/// they convert nothing, and are not called, which short strings gain from (see
/// BENCHMARKS.md).
pub(crate) const FAST_BLOCK: usize = 64;

/// Bytes of UTF-8 validated at a time by [`convert_from_utf8`]: small enough that a stretch is
/// still in the cache when it is converted, large enough that a validator call is amortised
/// and that few blocks go in steps at its end.
const STRETCH: usize = 8192;

/// Errors closer than this to the one before are dense (see [`after_error`]).
const DENSE_GAP: usize = 192;

/// The bytes after an error, `gap` bytes after the start of the one before, that
/// [`convert_from_utf8`] leaves to the exact path, counted again from each error it meets
/// there. Where errors are dense, a return to the validator and the kernels costs more than
/// the exact path over the bytes they would take: twice the gap and some, so that errors as
/// dense as these two go through the exact path as they come. Sparser errors (and the first)
/// leave it a few bytes on, where the rest of a broken character mostly gives more.
#[inline(always)]
fn after_error(gap: usize) -> usize {
    if gap < DENSE_GAP { 2 * gap + 32 } else { 16 }
}

/// Converts from UTF-8 into units of which a character takes at most one per byte of its
/// UTF-8 (UTF-16, UTF-32), validating first and converting well-formed input without checks.
///
/// The input is taken a stretch at a time, cut where a character starts and at most four bytes
/// per unit of room left in `dst` (all the input whose output could fit). `valid_prefix` (the
/// SIMD validator of the instruction set) gives the length of the stretch's well-formed prefix,
/// which `fast` (a SIMD kernel, or nothing) converts as far as it can, given the whole rest of
/// the input to read ahead in and the length of the well-formed prefix not to convert past
/// (except whole blocks it validates itself, ASCII or others, which it may convert anywhere,
/// and before any validation), then, where the stretch ends the input or an error,
/// [`convert_valid`] to its end or until `dst` is full (else the next stretch starts where
/// `fast` stopped), trusting its input; from the first error or the first character that does
/// not fit, the exact path, [`convert_until`], runs, so that results are the same as its: for
/// that character, or for the error and the bytes after it that [`after_error`] gives, counted
/// again from each error it meets; then the next stretch starts. (It ran to the stretch's end
/// before: with an error every kilobyte, most of the text took the exact path, several times
/// slower than the kernels.) What `fast` leaves of the well-formed prefix goes to `tail` first
/// (a SIMD kernel's converter of well-formed UTF-8 of any length, which converts as far as it
/// fits, or nothing), then to [`convert_valid`].
///
/// Stretches took one byte per unit of room before: into an output of exactly the size needed
/// (as the length functions give it, and as libutf8(3) says to allocate), a stretch then ended
/// after a few characters near the output's end, each with its calls to the validator and to
/// `fast`.
#[inline(always)]
pub(crate) fn convert_from_utf8<T: CodeUnit>(
    src: &[u8],
    dst: &mut [MaybeUninit<T>],
    mode: Mode,
    valid_prefix: impl Fn(&[u8]) -> usize,
    (fast, tail): (
        impl Fn(&[u8], usize, &mut [MaybeUninit<T>]) -> (usize, usize),
        impl Fn(&[u8], &mut [MaybeUninit<T>]) -> (usize, usize),
    ),
    decode: impl Fn(&[u8]) -> Result<(u32, usize), Malformed>,
    encode: impl Fn(u32, &mut [MaybeUninit<T>]) -> Option<usize>,
) -> Progress {
    let mut at = Progress {
        read: 0,
        written: 0,
        stop: None,
    };
    // Where the last error the exact path met started (the first is taken as sparse).
    let mut last_error = usize::MAX;
    while let Some(rest) = src.get(at.read..).filter(|r| !r.is_empty()) {
        let out = dst.get_mut(at.written..).unwrap_or_default();
        // Blocks that `fast` validates itself (ASCII, and those of the SIMD kernels) need
        // no validation first; nor does a run of ASCII in less than a block, which `fast`
        // does not take (all of an ASCII string, which would otherwise go through this loop
        // and the validator).
        let (checked_read, checked_written) = if rest.len() >= FAST_BLOCK {
            fast(rest, 0, out)
        } else if rest.first().is_some_and(|&b| b < 0x80) {
            let n = copy_short_ascii(rest, out);
            (n, n)
        } else {
            (0, 0)
        };
        if checked_read > 0 {
            at.read += checked_read;
            at.written += checked_written;
            continue;
        }
        // A unit of UTF-16 or UTF-32 comes from four bytes at most: a stretch that long is all
        // the input the room left can take, and no more than four times what it converts.
        let room = STRETCH.min(out.len().saturating_mul(4));
        let end = if room >= rest.len() {
            rest.len()
        } else {
            crate::scalar::validate::char_start_at_or_before(rest, room)
        };
        let stretch = rest.get(..end).unwrap_or_default();
        let good = valid_prefix(stretch).min(stretch.len());
        // `fast` may store past its units, over those of the rest of its well-formed input
        // (see `OutputUnit::SPARE`), which are written next. Where they may not all fit (more
        // bytes than units of room), the conversion still writes every unit of `dst` but the
        // last one, which a surrogate pair that does not fit leaves: that one is kept from
        // `fast`. (Its steps store no further than a block's 57th unit of room, see
        // `convert_block`, so this only keeps it so; it cost nothing measurable.)
        let fast_room = if good > out.len() {
            out.len().saturating_sub(1)
        } else {
            out.len()
        };
        let fast_out = out.get_mut(..fast_room).unwrap_or_default();
        let (fast_read, fast_written) = if rest.len() >= FAST_BLOCK {
            fast(rest, good, fast_out)
        } else {
            (0, 0)
        };
        // A stretch well-formed to its end with more input after it: the few bytes `fast` left
        // are validated again with the next stretch, and converted there in blocks, rather
        // than here one character at a time.
        if good == stretch.len() && end < rest.len() && fast_read > 0 {
            at.read += fast_read;
            at.written += fast_written;
            continue;
        }
        let (fast_read, fast_written) = match tail(
            stretch.get(fast_read..good).unwrap_or_default(),
            out.get_mut(fast_written..).unwrap_or_default(),
        ) {
            (0, _) => (fast_read, fast_written),
            (read, written) => (fast_read + read, fast_written + written),
        };
        let (read, written) = convert_valid(
            stretch.get(fast_read..good).unwrap_or_default(),
            out.get_mut(fast_written..).unwrap_or_default(),
            &encode,
        );
        let (read, written) = (fast_read + read, fast_written + written);
        at.read += read;
        at.written += written;
        // Blocks of ASCII may take `fast` past the stretch.
        if read >= stretch.len() && read > 0 {
            continue;
        }
        // At least one character, so that the loop advances or stops, and after an error as
        // many bytes as [`after_error`] says, counted again from each error met there.
        let after_error = after_error(at.read.checked_sub(last_error).unwrap_or(usize::MAX));
        let limit;
        (at, limit) = convert_until(
            src,
            dst,
            mode,
            at,
            (at.read + 1, after_error),
            &decode,
            &encode,
        );
        last_error = limit.saturating_sub(after_error);
        if at.stop.is_some() {
            return at;
        }
    }
    at
}

/// The `tail` of [`convert_from_utf8`] of an implementation that has none: converts nothing.
#[inline(always)]
pub(crate) fn no_tail<T>(_: &[u8], _: &mut [MaybeUninit<T>]) -> (usize, usize) {
    (0, 0)
}

/// Converts `s`, well-formed UTF-8, into `out`: each character is decoded by its lead byte
/// alone, with no check. Returns the bytes read and units written: all of `s`, or up to the
/// first character that does not fit in `out`.
#[inline(always)]
fn convert_valid<T: CodeUnit>(
    s: &[u8],
    out: &mut [MaybeUninit<T>],
    encode: &impl Fn(u32, &mut [MaybeUninit<T>]) -> Option<usize>,
) -> (usize, usize) {
    let (mut read, mut written) = (0, 0);
    while let Some(&lead) = s.get(read) {
        let out = out.get_mut(written..).unwrap_or_default();
        if lead < 0x80 {
            let n = copy_ascii(s.get(read..).unwrap_or_default(), out);
            if n == 0 {
                break;
            }
            read += n;
            written += n;
            continue;
        }
        // The character's bytes, padded with zeros past the end of `s`, which a well-formed
        // character never reaches.
        let b = match s.get(read..).and_then(|r| r.first_chunk::<4>()) {
            Some(&bytes) => bytes,
            None => core::array::from_fn(|k| s.get(read + k).copied().unwrap_or(0)),
        };
        let tail = |k: usize| u32::from(b[k] & 0x3F);
        let (value, len) = if lead < 0xE0 {
            ((u32::from(lead & 0x1F) << 6) | tail(1), 2)
        } else if lead < 0xF0 {
            ((u32::from(lead & 0x0F) << 12) | (tail(1) << 6) | tail(2), 3)
        } else {
            let v = (u32::from(lead & 0x07) << 18) | (tail(1) << 12) | (tail(2) << 6) | tail(3);
            (v, 4)
        };
        // Never true of the well-formed input this is given, unless another thread changed it
        // since it was validated: then the exact path takes over, and `read` stays within `s`.
        if len > s.len() - read {
            break;
        }
        let Some(units) = encode(value, out) else {
            break;
        };
        read += len;
        written += units;
    }
    (read, written)
}

/// Units of UTF-16 or UTF-32 taken at a time by [`encode_blocks`], and by the exact path of
/// [`convert_to_utf8`] between two tries of its fast path.
const TO_UTF8_BLOCK: usize = 16;

/// Converts into UTF-8 from UTF-16 or UTF-32. `fast` converts, trusting nothing, the longest
/// prefix of its input that it can into its output (the units read and bytes written):
/// well-formed characters that fit. From where it stops, the exact path, [`convert_until`],
/// converts a block of [`TO_UTF8_BLOCK`] units (or stops), then `fast` tries again, so that
/// results are the same as the exact path's.
#[inline(always)]
pub(crate) fn convert_to_utf8<S: CodeUnit>(
    src: &[S],
    dst: &mut [MaybeUninit<u8>],
    mode: Mode,
    fast: impl Fn(&[S], &mut [MaybeUninit<u8>]) -> (usize, usize),
    decode: impl Fn(&[S]) -> Result<(u32, usize), Malformed>,
    encode: impl Fn(u32, &mut [MaybeUninit<u8>]) -> Option<usize>,
) -> Progress {
    let mut at = Progress {
        read: 0,
        written: 0,
        stop: None,
    };
    while at.read < src.len() {
        let (read, written) = fast(
            src.get(at.read..).unwrap_or_default(),
            dst.get_mut(at.written..).unwrap_or_default(),
        );
        at.read += read;
        at.written += written;
        if at.read >= src.len() {
            break;
        }
        let limit = at.read + TO_UTF8_BLOCK;
        at = convert_until(src, dst, mode, at, (limit, 0), &decode, &encode).0;
        if at.stop.is_some() {
            return at;
        }
    }
    at
}

/// The fast path of [`convert_to_utf8`] in plain Rust (the scalar implementation's): a block
/// of [`TO_UTF8_BLOCK`] units at a time where the block holds only scalar values (no
/// surrogate, nothing above U+10FFFF: one character per unit), which one comparison per unit
/// tells, without an early exit, so that it vectorises. Such a block is encoded into a buffer
/// of its own with no check, then copied whole if it fits; runs of ASCII are copied whole. It
/// stops at a block mostly of ASCII (the exact path, which copies the runs of ASCII between
/// the other characters, is faster there), at any other block and at the one that does not
/// fit.
#[inline(always)]
pub(crate) fn encode_blocks<S: CodeUnit>(src: &[S], dst: &mut [MaybeUninit<u8>]) -> (usize, usize) {
    let (mut read, mut written) = (0, 0);
    while let Some(block) = src
        .get(read..)
        .and_then(|r| r.first_chunk::<TO_UTF8_BLOCK>())
        .filter(|b| b.iter().fold(true, |ok, u| ok & is_scalar(*u)))
    {
        let out = dst.get_mut(written..).unwrap_or_default();
        // A run of ASCII, which may be long, is copied as the exact path does; it may end
        // anywhere in the block.
        if block[0].value() < 0x80 {
            let n = copy_ascii(src.get(read..).unwrap_or_default(), out);
            if n > 0 {
                read += n;
                written += n;
                continue;
            }
        }
        let ascii = block.iter().filter(|u| u.value() < 0x80).count();
        if ascii >= TO_UTF8_BLOCK / 2 {
            break;
        }
        let Some(n) = encode_scalars(block, out) else {
            break;
        };
        read += TO_UTF8_BLOCK;
        written += n;
    }
    (read, written)
}

/// Whether the unit is a scalar value: not a surrogate, not above U+10FFFF.
#[inline(always)]
fn is_scalar<S: CodeUnit>(unit: S) -> bool {
    let v = unit.value();
    (v & !0x7FF) != 0xD800 && v <= 0x10_FFFF
}

/// Writes the UTF-8 of `block`, scalar values, at the start of `out`: its length, or `None`
/// (and nothing written) if it does not fit.
///
/// Each character is encoded as four bytes (its own, then whatever) into a local buffer at the
/// length so far, with no branch on its length but the choice of its bytes; only the length so
/// far is copied out.
#[inline(always)]
fn encode_scalars<S: CodeUnit>(
    block: &[S; TO_UTF8_BLOCK],
    out: &mut [MaybeUninit<u8>],
) -> Option<usize> {
    // Blocks of one width (runs of Cyrillic, Greek, Hebrew, Arabic; of CJK, Indic, Thai) have
    // their bytes at fixed places, with no dependency from one character to the next.
    let (min, max) = block.iter().fold((u32::MAX, 0), |(min, max), u| {
        (min.min(u.value()), max.max(u.value()))
    });
    if min >= 0x80 && max < 0x800 {
        let out = out.first_chunk_mut::<{ 2 * TO_UTF8_BLOCK }>()?;
        *out = core::array::from_fn(|i| {
            let v = block[i / 2].value();
            MaybeUninit::new(if i % 2 == 0 {
                0xC0 | (v >> 6) as u8
            } else {
                0x80 | (v & 0x3F) as u8
            })
        });
        return Some(2 * TO_UTF8_BLOCK);
    }
    if min >= 0x800 && max < 0x1_0000 {
        let out = out.first_chunk_mut::<{ 3 * TO_UTF8_BLOCK }>()?;
        *out = core::array::from_fn(|i| {
            let v = block[i / 3].value();
            MaybeUninit::new(match i % 3 {
                0 => 0xE0 | (v >> 12) as u8,
                1 => 0x80 | ((v >> 6) & 0x3F) as u8,
                _ => 0x80 | (v & 0x3F) as u8,
            })
        });
        return Some(3 * TO_UTF8_BLOCK);
    }
    let mut buf = [0u8; 4 * TO_UTF8_BLOCK + 4];
    let mut len = 0;
    for u in block {
        let v = u.value();
        // The four candidate encodings as little-endian words, chosen by masks rather than by
        // branches: the widths of real text alternate too often to predict.
        let (b1, b2, b3) = (v & 0x3F, (v >> 6) & 0x3F, (v >> 12) & 0x3F);
        let two = (0xC0 | (v >> 6)) | (0x80 | b1) << 8;
        let three = (0xE0 | (v >> 12)) | (0x80 | b2) << 8 | (0x80 | b1) << 16;
        let four = (0xF0 | (v >> 18)) | (0x80 | b3) << 8 | (0x80 | b2) << 16 | (0x80 | b1) << 24;
        let n = 1 + usize::from(v >= 0x80) + usize::from(v >= 0x800) + usize::from(v >= 0x1_0000);
        let pick = |wider: bool, wide: u32, narrow: u32| {
            let mask = u32::from(wider).wrapping_neg();
            (wide & mask) | (narrow & !mask)
        };
        let word = pick(v >= 0x80, two, v);
        let word = pick(v >= 0x800, three, word);
        let word = pick(v >= 0x1_0000, four, word);
        let bytes = word.to_le_bytes();
        // `len` is at most 4 per unit before this one, at most 60, so the mask changes
        // nothing; it lets the compiler see that the four bytes fit.
        let at = len & (4 * TO_UTF8_BLOCK - 1);
        if let Some(slot) = buf.get_mut(at..).and_then(|b| b.first_chunk_mut::<4>()) {
            *slot = bytes;
        }
        len = at + n;
    }
    let (out, bytes) = (out.get_mut(..len)?, buf.get(..len)?);
    write_units(out, bytes);
    Some(len)
}

/// Copies the run of ASCII at the start of `src` into `dst`, [`ASCII_BLOCK`] units at a time,
/// then one at a time, as far as both allow; returns the number of units copied.
///
/// (Its block loop is [`copy_ascii_block`] written out: calling it cost mixed text time in
/// the loops that call this for every run.)
#[inline(always)]
pub(crate) fn copy_ascii<S: CodeUnit, T: CodeUnit>(src: &[S], dst: &mut [MaybeUninit<T>]) -> usize {
    let mut n = 0;
    while let (Some(block), Some(out)) = (
        src.get(n..).and_then(|s| s.first_chunk::<ASCII_BLOCK>()),
        dst.get_mut(n..)
            .and_then(|d| d.first_chunk_mut::<ASCII_BLOCK>()),
    ) {
        // One test for the whole block, with no early exit, so that it vectorises.
        if block.iter().fold(0, |acc, u| acc | u.value()) >= 0x80 {
            break;
        }
        // Built as a value then stored whole, which the compiler turns into vector stores.
        *out = core::array::from_fn(|i| MaybeUninit::new(T::from_ascii(block[i].value() as u8)));
        n += ASCII_BLOCK;
    }
    copy_ascii_units(src, dst, n)
}

/// [`copy_ascii`] for short input (from UTF-8, shorter than [`FAST_BLOCK`]; into UTF-8, the
/// SSE4.2 and AVX2 tails' runs in fewer than 32 units): 16 units at a time, then one at a
/// time. (Not in [`copy_ascii`], which also copies the runs between other characters, most of
/// them a few units long, where tests of smaller blocks made mixed text slower.)
#[inline(always)]
pub(crate) fn copy_short_ascii<S: CodeUnit, T: CodeUnit>(
    src: &[S],
    dst: &mut [MaybeUninit<T>],
) -> usize {
    let mut n = 0;
    while copy_ascii_block::<S, T, 16>(src, dst, n) {
        n += 16;
    }
    copy_ascii_units(src, dst, n)
}

/// Copies the run of ASCII from `at` one unit at a time, as far as both allow: where it ends.
#[inline(always)]
fn copy_ascii_units<S: CodeUnit, T: CodeUnit>(
    src: &[S],
    dst: &mut [MaybeUninit<T>],
    at: usize,
) -> usize {
    let mut n = at;
    for (o, u) in dst
        .get_mut(n..)
        .unwrap_or_default()
        .iter_mut()
        .zip(src.get(n..).unwrap_or_default())
    {
        if u.value() >= 0x80 {
            break;
        }
        o.write(T::from_ascii(u.value() as u8));
        n += 1;
    }
    n
}

/// Copies the `K` units of `src` from `at` into `dst` at `at` if both have them and they are
/// ASCII: whether it did.
#[inline(always)]
fn copy_ascii_block<S: CodeUnit, T: CodeUnit, const K: usize>(
    src: &[S],
    dst: &mut [MaybeUninit<T>],
    at: usize,
) -> bool {
    let (Some(block), Some(out)) = (
        src.get(at..).and_then(|s| s.first_chunk::<K>()),
        dst.get_mut(at..).and_then(|d| d.first_chunk_mut::<K>()),
    ) else {
        return false;
    };
    // One test for the whole block, with no early exit, so that it vectorises.
    if block.iter().fold(0, |acc, u| acc | u.value()) >= 0x80 {
        return false;
    }
    // Built as a value then stored whole, which the compiler turns into vector stores.
    *out = core::array::from_fn(|i| MaybeUninit::new(T::from_ascii(block[i].value() as u8)));
    true
}

/// Writes the UTF-8 encoding of the scalar value `value` at the start of `out`: its length, or
/// `None` if it does not fit (or, which the decoders never produce, if `value` is not a scalar
/// value).
#[inline(always)]
pub(crate) fn encode_utf8(value: u32, out: &mut [MaybeUninit<u8>]) -> Option<usize> {
    let encoded = crate::scalar::encode::encode(value).ok()?;
    // A store of known size per length: a copy of `bytes.len()` bytes was a call to memcpy
    // per character (short strings of mixed text go through here near the output's end).
    let bytes = encoded.as_bytes();
    match *bytes {
        [a] => *out.first_chunk_mut()? = [a].map(MaybeUninit::new),
        [a, b] => *out.first_chunk_mut()? = [a, b].map(MaybeUninit::new),
        [a, b, c] => *out.first_chunk_mut()? = [a, b, c].map(MaybeUninit::new),
        _ => *out.first_chunk_mut::<4>()? = bytes.first_chunk::<4>()?.map(MaybeUninit::new),
    }
    Some(bytes.len())
}

/// The UTF-8 decoder of the converters: [`crate::decode_next`].
#[inline(always)]
pub(crate) fn decode_utf8(src: &[u8]) -> Result<(u32, usize), Malformed> {
    crate::scalar::decode::decode_next(src)
}

/// The converter of well-formed input given input that is not, as when another thread changes
/// the input after it was validated: it may write any units, but reads and reports no more
/// than it has.
#[cfg(test)]
mod untrusted_input {
    use super::*;
    use crate::test_support::{assert_within_bounds, capacities, lying_inputs};

    #[test]
    fn convert_valid_stays_in_its_buffers_whatever_the_input() {
        let encode = |value: u32, out: &mut [MaybeUninit<u16>]| {
            out.first_mut()?.write(value as u16);
            Some(1)
        };
        for src in lying_inputs().chain([b"\xF0\x9F".to_vec(), b"a\xE4\xB8".to_vec()]) {
            for cap in capacities(src.len()) {
                assert_within_bounds(&src, cap, |d| convert_valid(&src, d, &encode));
            }
        }
    }
}
