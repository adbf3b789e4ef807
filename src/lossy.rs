//! Lossy copies: ill-formed sequences replaced by U+FFFD, or byte for byte by a fallback
//! encoding's characters.

use crate::scalar::decode::{decode_by_grammar, decode_well_formed};
use crate::scalar::replacement::Replacement;
use crate::scalar::validate::scalar_prefix;
use crate::sink::Sink;
use crate::validate::validate;

/// U+FFFD REPLACEMENT CHARACTER in UTF-8.
pub const REPLACEMENT_UTF8: [u8; 3] = [0xEF, 0xBF, 0xBD];

/// Writes `s` to `out` with each maximal subpart of an ill-formed sequence replaced by one
/// U+FFFD, as the Unicode Standard (chapter 3), WHATWG, Python and Rust's
/// `String::from_utf8_lossy` do. Well-formed stretches, found by the fast validator, are
/// copied whole.
pub fn replace_invalid(s: &[u8], out: &mut Sink<'_, u8>) {
    replace_invalid_with(s, Replacement::Fffd, out);
}

/// Writes `s` to `out` with its ill-formed sequences replaced under `replacement` (since 1.3):
/// as [`replace_invalid`] for [`Replacement::Fffd`]; with [`Replacement::Latin1`] or
/// [`Replacement::Cp1252`], each byte of an ill-formed sequence becomes the UTF-8 of its
/// character in that encoding (2 bytes, or 3 for some of Windows-1252's), so that the output is
/// valid UTF-8 whose text is that of a file mostly in UTF-8 with stray legacy bytes.
/// [`Replacement::Escape`]'s lone surrogates have no UTF-8: it is taken as
/// [`Replacement::Fffd`] here (the C function refuses it).
pub fn replace_invalid_with(s: &[u8], replacement: Replacement, out: &mut Sink<'_, u8>) {
    let mut rest = s;
    // After an error that came less than `DENSE_GAP` bytes after the one before, the bytes
    // that far again past it, twice as many and some: the scalar code looks there first.
    let mut window = 0;
    // The well-formed bytes since the last error (or the start).
    let mut gap = 0;
    loop {
        if window > 0 {
            // Most of a dense stretch: the scalar loop copies and replaces as it decodes.
            let end = dense_copy(rest, window, gap, replacement, out);
            rest = rest.get(end.used..).unwrap_or_default();
            (window, gap) = (end.window, end.gap);
        }
        let dense = if window > 0 {
            dense_prefix(rest, window)
        } else {
            Dense::Clean(0)
        };
        let (valid_up_to, error_len) = match dense {
            Dense::Error(at, len) => (at, len),
            Dense::Clean(len) => {
                // No error that the window shows for certain: its well-formed prefix is
                // copied, and the kernel looks at the rest.
                if len > 0 {
                    let (good, after) = rest.split_at(len.min(rest.len()));
                    out.push(good);
                    gap += good.len();
                    rest = after;
                }
                match validate(rest) {
                    Ok(()) => {
                        out.push(rest);
                        return;
                    }
                    Err(e) => (e.valid_up_to, e.error_len),
                }
            }
        };
        let (good, bad) = rest.split_at(valid_up_to.min(rest.len()));
        out.push(good);
        // A maximal subpart is at least one byte long.
        let (ill, after) = bad.split_at(error_len.max(1).min(bad.len()));
        push_replacement(ill, replacement, out);
        rest = after;
        gap += good.len();
        window = next_window(window, gap);
        gap = 0;
    }
}

/// The window after an error that came `gap` well-formed bytes after the one before, when the
/// one before left `window`.
///
/// Errors that close are expected to stay so: the kernel's call and its return to the scalar
/// code, which locates the error from the start of its block, cost more than decoding so short
/// a stretch. Sparser errors keep the kernel alone. An error within a character's length of
/// the last (mostly the rest of one broken character: a lead byte, an ASCII byte that was a
/// continuation, the continuations left) changes nothing.
#[inline(always)]
fn next_window(window: usize, gap: usize) -> usize {
    match gap {
        0..4 => window,
        4..DENSE_GAP => 2 * gap + 32,
        _ => 0,
    }
}

/// Writes what the ill-formed sequence `ill` (one maximal subpart) becomes under
/// `replacement`.
#[inline(always)]
fn push_replacement(ill: &[u8], replacement: Replacement, out: &mut Sink<'_, u8>) {
    match (replacement, ill) {
        // A byte alone from 0xA0 (nearly every error of text that is mostly UTF-8) is the same
        // character in Latin-1 and Windows-1252, of 2 bytes.
        (Replacement::Latin1 | Replacement::Cp1252, &[b]) if b >= 0xA0 => {
            out.push(&[0xC0 | (b >> 6), 0x80 | (b & 0x3F)]);
        }
        (Replacement::Latin1 | Replacement::Cp1252, _) => push_fallback(ill, replacement, out),
        _ => out.push(&REPLACEMENT_UTF8),
    }
}

/// Where [`dense_copy`] stopped.
struct DenseEnd {
    /// The bytes it read, whose output it wrote.
    used: usize,
    /// What is left of the window after them: 0 where it ran out (the kernel looks at the
    /// rest).
    window: usize,
    /// The well-formed bytes since the last error.
    gap: usize,
}

/// The scalar loop of a dense stretch: copies `s` to `out` a character or a run of up to 8
/// ASCII bytes at a time, and replaces its ill-formed sequences as it meets them, while the
/// window lasts (`window` bytes after the last error, `gap` of them already passed; each error
/// sets it again as [`next_window`] says), 8 bytes of input are left and the output has room
/// for them. The rest (the input after a window with no error, the last few bytes, what does
/// not fit) is the caller's.
///
/// Each character is stored with the 8 bytes of input it starts, in one store: the bytes past
/// it are written over by the output that follows, since every byte of input gives at least
/// one byte of output and 8 are left. A character is recognised from its first four bytes in
/// a few instructions (`decode_well_formed`, whose branches on the lead byte let the next load
/// start before the test ends); only an ill-formed sequence goes through the grammar, which
/// gives the length of its maximal subpart. Out of line: the loop of sparse errors, around the
/// kernel, stays as it was.
#[inline(never)]
fn dense_copy(
    s: &[u8],
    mut window: usize,
    mut gap: usize,
    replacement: Replacement,
    out: &mut Sink<'_, u8>,
) -> DenseEnd {
    let mut used = 0;
    // Where the window ends, and where the bytes after the last error start (the gap is
    // `gap` more than the bytes since).
    let mut window_end = window.saturating_sub(gap);
    let mut since = 0;
    loop {
        let spare = out.spare();
        // The loop below writes as many bytes as it reads: it stops where the room left would
        // be less than the 8 bytes of a store, and 8 bytes before the input's end.
        let stop = match spare.len().checked_sub(8) {
            Some(room) => window_end
                .min(s.len().saturating_sub(7))
                .min(used + room + 1),
            None => used,
        };
        if used >= stop {
            break;
        }
        let mut o = 0;
        while used < stop {
            // SAFETY: `used + 8 <= s.len()`, since `used < stop <= s.len() - 7`.
            let chunk = unsafe { s.as_ptr().add(used).cast::<[u8; 8]>().read_unaligned() };
            let word = u64::from_le_bytes(chunk);
            let high = word & 0x8080_8080_8080_8080;
            let width = if high & 0x80 == 0 {
                // The ASCII bytes before the first that is not (all 8 where there is none).
                high.trailing_zeros() as usize / 8
            } else {
                match decode_well_formed(word as u32) {
                    Some((_, n)) => n,
                    None => break,
                }
            };
            // SAFETY: `o + 8 <= spare.len()`: `o` is the input read since `stop` was set, less
            // than `stop` minus where `used` was then, which is at most `spare.len() - 7`.
            unsafe {
                spare
                    .as_mut_ptr()
                    .add(o)
                    .cast::<[u8; 8]>()
                    .write_unaligned(chunk)
            };
            used += width;
            o += width;
        }
        // SAFETY: the loop above wrote the first `o` bytes of `spare`.
        unsafe { out.commit(o) };
        if used >= stop {
            if used >= window_end {
                // No error in the window: the kernel looks at the rest.
                return DenseEnd {
                    used,
                    window: 0,
                    gap: gap + used - since,
                };
            }
            // The input's end or the output's: `stop` is set again, and ends the loop there.
            continue;
        }
        // An ill-formed sequence at `used`, 8 bytes or more from the end. The grammar gives
        // its maximal subpart (at least one byte long).
        let rest = s.get(used..).unwrap_or_default();
        let len = match decode_by_grammar(rest) {
            Err(m) => m.len.max(1),
            Ok((_, n)) => {
                // Never: `decode_well_formed` takes every well-formed character that has four
                // bytes of input. Copied as it is, all the same.
                out.push(rest.get(..n).unwrap_or(rest));
                used += n;
                continue;
            }
        };
        let ill = rest.get(..len).unwrap_or(rest);
        match replacement {
            Replacement::Latin1 | Replacement::Cp1252 => push_replacement(ill, replacement, out),
            // The byte after U+FFFD is written over next, as above.
            _ => out.push_partial([0xEF, 0xBF, 0xBD, 0], 3),
        }
        window = next_window(window, gap + used - since);
        used += ill.len();
        (since, gap) = (used, 0);
        window_end = used + window;
    }
    DenseEnd {
        used,
        window: window_end.saturating_sub(used),
        gap: gap + used - since,
    }
}

/// Errors less than this many bytes apart are dense: the stretch after the second is decoded
/// by the scalar code first (see [`dense_prefix`]).
const DENSE_GAP: usize = 32;

/// What the scalar code found in a window at the start of some input.
enum Dense {
    /// The input's first error: where it starts, and the length of its maximal subpart.
    Error(usize, usize),
    /// No error for certain: the length of the well-formed prefix found.
    Clean(usize),
}

/// The first error in the first `window` bytes of `s`, found by the scalar code, or the
/// well-formed prefix before any error there is not certain of: one that reaches the window's
/// end (a sequence it cuts, or a maximal subpart that may continue past it), which the bytes
/// after it could change.
#[inline]
fn dense_prefix(s: &[u8], window: usize) -> Dense {
    let w = s.get(..window).unwrap_or(s);
    let p = scalar_prefix(w);
    match p.error {
        // An error inside the window is the input's there: the bytes it was classified by are
        // all in the window. At the end of `s` itself the window is all of `s`.
        Some(m) if w.len() == s.len() || p.len + m.len < w.len() => Dense::Error(p.len, m.len),
        _ => Dense::Clean(p.len),
    }
}

/// Writes the characters of the bytes `ill` under `replacement` in UTF-8: all of them are
/// below U+10000 (2 bytes from U+0080, 3 from U+0800; an ASCII byte, which an ill-formed
/// sequence never holds, stays itself), each pushed as an array of its length, which the
/// compiler stores without a call to `memcpy`. Out of line: the loop of well-formed input stays
/// as it was.
#[cold]
#[inline(never)]
fn push_fallback(ill: &[u8], replacement: Replacement, out: &mut Sink<'_, u8>) {
    for &b in ill {
        let c = replacement.char_of_byte(b).unwrap_or(0xFFFD);
        let tail = 0x80 | (c & 0x3F) as u8;
        if c < 0x80 {
            out.push(&[c as u8]);
        } else if c < 0x800 {
            out.push(&[0xC0 | (c >> 6) as u8, tail]);
        } else {
            out.push(&[0xE0 | (c >> 12) as u8, 0x80 | ((c >> 6) & 0x3F) as u8, tail]);
        }
    }
}
