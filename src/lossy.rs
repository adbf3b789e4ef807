//! Lossy copies: ill-formed sequences replaced by U+FFFD, or byte for byte by a fallback
//! encoding's characters.

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
    let per_byte = matches!(replacement, Replacement::Latin1 | Replacement::Cp1252);
    let mut rest = s;
    // After an error that came less than `DENSE_GAP` bytes after the one before, the bytes
    // that far again past it, twice as many and some: the scalar code looks there first.
    let mut window = 0;
    loop {
        // The well-formed bytes between the last error and the next.
        let mut gap = 0;
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
                    gap = good.len();
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
        if per_byte {
            match ill {
                // A byte alone from 0xA0 (nearly every error of text that is mostly UTF-8) is
                // the same character in Latin-1 and Windows-1252, of 2 bytes.
                &[b] if b >= 0xA0 => out.push(&[0xC0 | (b >> 6), 0x80 | (b & 0x3F)]),
                _ => push_fallback(ill, replacement, out),
            }
        } else {
            out.push(&REPLACEMENT_UTF8);
        }
        rest = after;
        // Errors that close are expected to stay so: the kernel's call and its return to the
        // scalar code, which locates the error from the start of its block, cost more than
        // decoding so short a stretch. Sparser errors keep the kernel alone. An error within
        // a character's length of the last (mostly the rest of one broken character: a lead
        // byte, an ASCII byte that was a continuation, the continuations left) changes nothing.
        gap += good.len();
        if gap >= 4 {
            window = if gap < DENSE_GAP { 2 * gap + 32 } else { 0 };
        }
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
