//! Latin-1 (ISO-8859-1) and Windows-1252 to UTF-8, and UTF-8 to Latin-1: the engine's loops.
//!
//! Runs of ASCII are copied a word at a time ([`copy_ascii_words`]); every other character
//! goes one at a time, through the same exact steps whether it fits or not, so that where a
//! conversion stops does not depend on the room left but for the character that does not fit.

use core::mem::MaybeUninit;

use super::more;
use super::{Mode, Progress, Stop, decode_utf8, encode_utf8};
use crate::scalar::error::ErrorKind;
use crate::scalar::latin1::cp1252_char;

/// Bytes tested and copied at a time in a run of ASCII: one 64-bit word.
const WORD: usize = 8;

/// The high bit of every byte of a word: a word of ASCII has none of them set.
const HIGH_BITS: u64 = 0x8080_8080_8080_8080;

/// Copies the run of ASCII at the start of `src` into `dst`, as far as both allow, a word at a
/// time, then a byte at a time: the number of bytes copied.
#[inline(always)]
pub(crate) fn copy_ascii_words(src: &[u8], dst: &mut [MaybeUninit<u8>]) -> usize {
    let mut n = 0;
    while let (Some(word), Some(out)) = (
        src.get(n..).and_then(|s| s.first_chunk::<WORD>()),
        dst.get_mut(n..).and_then(|d| d.first_chunk_mut::<WORD>()),
    ) {
        if u64::from_ne_bytes(*word) & HIGH_BITS != 0 {
            break;
        }
        *out = word.map(MaybeUninit::new);
        n += WORD;
    }
    for (o, &b) in dst
        .get_mut(n..)
        .unwrap_or_default()
        .iter_mut()
        .zip(src.get(n..).unwrap_or_default())
    {
        if b >= 0x80 {
            break;
        }
        o.write(b);
        n += 1;
    }
    n
}

/// `crate::transcode::latin1::latin1_to_utf8`: each byte is the code point of its value; those
/// from 0x80 become two bytes, C2 or C3 then `0x80 | (b & 0x3F)`. Never stops but where the
/// output is full.
/// `fast` (a SIMD kernel's, or nothing) converts blocks of the input first (see
/// [`single_byte_to_utf8`]).
#[inline(always)]
pub(crate) fn latin1_to_utf8_with(
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
    fast: impl Fn(&[u8], &mut [MaybeUninit<u8>]) -> (usize, usize),
) -> Progress {
    single_byte_to_utf8(src, dst, fast, |b, out| {
        let two = [0xC0 | (b >> 6), 0x80 | (b & 0x3F)];
        *out.first_chunk_mut::<2>()? = two.map(MaybeUninit::new);
        Some(2)
    })
}

/// `crate::transcode::latin1::cp1252_to_utf8`: each byte is its character in Windows-1252
/// ([`cp1252_char`]). Never stops but where the output is full.
/// `fast` as for [`latin1_to_utf8_with`], stopping at the bytes 0x80..0x9F.
#[inline(always)]
pub(crate) fn cp1252_to_utf8_with(
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
    fast: impl Fn(&[u8], &mut [MaybeUninit<u8>]) -> (usize, usize),
) -> Progress {
    single_byte_to_utf8(src, dst, fast, |b, out| encode_utf8(cp1252_char(b), out))
}

/// The `fast` of an implementation that has none: converts nothing.
#[inline(always)]
pub(crate) fn no_blocks(_: &[u8], _: &mut [MaybeUninit<u8>]) -> (usize, usize) {
    (0, 0)
}

/// Bytes of input the exact path of [`single_byte_to_utf8`] converts (a run of ASCII aside)
/// before `fast` tries again.
const EXACT_STEP: usize = 16;

/// The loop of the single-byte encodings into UTF-8: `fast` converts what it can (whole
/// blocks: the bytes read and written), then the exact path [`EXACT_STEP`] bytes, or up to
/// where the output is full: runs of ASCII copied, and each other byte written by `encode`
/// (its length, or `None` if it does not fit in `out`). `fast` may store past its output only
/// over bytes that the conversion writes later (see `crate::kernels::x86::shared`).
#[inline(always)]
fn single_byte_to_utf8(
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
    fast: impl Fn(&[u8], &mut [MaybeUninit<u8>]) -> (usize, usize),
    encode: impl Fn(u8, &mut [MaybeUninit<u8>]) -> Option<usize>,
) -> Progress {
    // At most what it was given, even from a kernel that erred.
    let (r, w) = fast(src, dst);
    let (mut read, mut written) = (r.min(src.len()), w.min(dst.len()));
    let mut limit = read + EXACT_STEP;
    while let Some(rest) = src.get(read..).filter(|r| !r.is_empty()) {
        if read >= limit {
            let (r, w) = fast(rest, dst.get_mut(written..).unwrap_or_default());
            read += r.min(rest.len());
            written = (written + w).min(dst.len());
            limit = read + EXACT_STEP;
            continue;
        }
        let out = dst.get_mut(written..).unwrap_or_default();
        let n = copy_ascii_words(rest, out);
        if n > 0 {
            read += n;
            written += n;
            continue;
        }
        // Not ASCII, or ASCII with no room left.
        let units = match rest.first() {
            Some(&b) if b >= 0x80 => encode(b, out),
            _ => None,
        };
        let Some(units) = units else {
            return Progress {
                read,
                written,
                stop: Some(Stop::OutputFull),
            };
        };
        read += 1;
        written += units;
    }
    Progress {
        read,
        written,
        stop: None,
    }
}

/// `crate::transcode::latin1::utf8_to_latin1`: each character up to U+00FF becomes the byte of
/// its value. A character above it stops the conversion ([`Stop::Unrepresentable`]) and an
/// ill-formed sequence ([`Stop::Malformed`], classified as everywhere), or with
/// [`Mode::replace`] each becomes one `?`, a maximal subpart of an ill-formed sequence as one
/// character. With [`Mode::more`] the sequence the input ends inside is left, as the other
/// converters from UTF-8 leave it.
///
/// `fast` (a SIMD kernel's, or nothing) converts what it can of well-formed input up to the
/// held-back tail first, then the exact path [`EXACT_STEP`] bytes, and so on; it may store past
/// its output only over bytes that the conversion writes next (see
/// `crate::kernels::x86::shared`).
#[inline(always)]
pub(crate) fn utf8_to_latin1_with(
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
    mode: Mode,
    fast: impl Fn(&[u8], &mut [MaybeUninit<u8>]) -> (usize, usize),
) -> Progress {
    // The held-back tail, as `more::held_back` leaves it for the other converters; this loop
    // stops there itself, decoding each character from all of `src` (below).
    let keep = if mode.more {
        more::utf8_tail(src, &decode_utf8, false)
    } else {
        src.len()
    };
    let (mut read, mut written) = (0, 0);
    let mut limit = 0;
    let stop = |read, written, stop| Progress {
        read,
        written,
        stop: Some(stop),
    };
    while read < keep {
        if read >= limit {
            let rest = src.get(read..keep).unwrap_or_default();
            let (r, w) = fast(rest, dst.get_mut(written..).unwrap_or_default());
            // At most what it was given, even from a kernel that erred.
            read += r.min(rest.len());
            written = (written + w).min(dst.len());
            limit = read + EXACT_STEP;
            continue;
        }
        let out = dst.get_mut(written..).unwrap_or_default();
        let n = copy_ascii_words(src.get(read..keep).unwrap_or_default(), out);
        if n > 0 {
            read += n;
            written += n;
            continue;
        }
        // Decoded from all of the rest, not from `src[..keep]`: a sequence before the held-back
        // tail is cut by the tail's lead byte, the error it is in the whole input. Neither it
        // nor a character reaches into the tail, which starts with a lead byte.
        let (byte, len) = match decode_utf8(src.get(read..).unwrap_or_default()) {
            Ok((value, len)) => match u8::try_from(value) {
                Ok(b) => (b, len),
                Err(_) if mode.replace => (b'?', len),
                Err(_) => return stop(read, written, Stop::Unrepresentable),
            },
            // A maximal subpart is at least one byte long where there is input.
            Err(m) if mode.replace => (b'?', m.len.max(1)),
            Err(m) => return stop(read, written, Stop::Malformed(m.kind)),
        };
        let Some(o) = out.first_mut() else {
            return stop(read, written, Stop::OutputFull);
        };
        o.write(byte);
        read += len;
        written += 1;
    }
    if read < src.len() {
        // Only with `Mode::more`: the held-back tail.
        return stop(read, written, Stop::Malformed(ErrorKind::Truncated));
    }
    Progress {
        read,
        written,
        stop: None,
    }
}
