//! The end of a chunk of a stream ([`Mode::more`]): the converters run on the input without
//! the units whose meaning the next input could change, then stop before those
//! ([`held_back`]).

use core::mem::MaybeUninit;

use super::{CodeUnit, Mode, Progress, Stop, convert_until};
use crate::scalar::error::{ErrorKind, Malformed};

/// The conversion of `src` with [`Mode::more`]: `convert` (a whole converter, which holds
/// nothing back) runs on `src` up to `tail(src)`, where the units start whose meaning more
/// input could change, then [`finish_held_back`] says how far the conversion of all of `src`
/// got. The converters know nothing of the flag: called from here, their frames and that of
/// the exact path's second copy in [`finish_held_back`] are on the stack one after the other,
/// not one above the other, and the flag adds no test to their code.
#[inline(always)]
pub(super) fn held_back<S: CodeUnit, T: CodeUnit>(
    src: &[S],
    dst: &mut [MaybeUninit<T>],
    mode: Mode,
    tail: impl FnOnce(&[S]) -> usize,
    convert: impl FnOnce(&[S], &mut [MaybeUninit<T>], Mode) -> Progress,
    codec: (
        &impl Fn(&[S]) -> Result<(u32, usize), Malformed>,
        &impl Fn(u32, &mut [MaybeUninit<T>]) -> Option<usize>,
    ),
) -> Progress {
    let keep = tail(src).min(src.len());
    let at = convert(src.get(..keep).unwrap_or(src), &mut *dst, mode);
    finish_held_back(src, dst, mode, (at, keep), codec)
}

/// How far the conversion of `src` got, the converter having got to `at` on `src[..keep]`
/// (see [`held_back`]): [`ErrorKind::Truncated`] at `keep` if the units from there were held
/// back.
///
/// Only the end of that shorter input can convert differently from the whole of `src`: a
/// sequence cut there by the end of the input (which the conversion stops at, or replaces
/// with one U+FFFD) is followed in `src` by a unit that cannot continue it (the first of the
/// tail: a lead byte, or a high surrogate), so that it is an error of the same length. A
/// strict conversion that stops there is taken on with the exact path, [`convert_until`],
/// reading `src` itself (`decode` and `encode` are the converter's), which gives that error
/// (or, in WTF-8, the lead surrogate that the cut trail made truncated and the error after it).
/// Out of line, so that its frame is not on the stack below the converter's.
#[inline(never)]
fn finish_held_back<S: CodeUnit, T: CodeUnit>(
    src: &[S],
    dst: &mut [MaybeUninit<T>],
    mode: Mode,
    (at, keep): (Progress, usize),
    (decode, encode): (
        &impl Fn(&[S]) -> Result<(u32, usize), Malformed>,
        &impl Fn(u32, &mut [MaybeUninit<T>]) -> Option<usize>,
    ),
) -> Progress {
    let at = match at.stop {
        Some(Stop::Malformed(ErrorKind::Truncated)) if at.read < keep => {
            let from = Progress { stop: None, ..at };
            convert_until(src, dst, mode, from, (keep, 0), decode, encode).0
        }
        _ => at,
    };
    if at.stop.is_some() || at.read >= src.len() {
        return at;
    }
    Progress {
        stop: Some(Stop::Malformed(ErrorKind::Truncated)),
        ..at
    }
}

/// Where the units of UTF-8 (or, with `wtf8`, WTF-8) `s` start whose meaning more input could
/// change, `s.len()` if none: a sequence `s` ends inside (its lead byte is the last byte that
/// is not a continuation byte, one of the last three, and `decode` finds it truncated), and in
/// WTF-8 a lead surrogate (ED A0..AF 80..BF) at the end or followed by ED or ED B0..BF, which
/// more input can make the first half of a pair byte sequence, which WTF-8 refuses.
///
/// Those bytes start a character of every conversion of `s`: the last character before them
/// cannot take in their lead byte (a sequence that does is an error that ends before it), nor
/// the lead surrogate (only the pair error spans two characters, and its second half is a
/// trail surrogate).
#[inline(never)]
pub(super) fn utf8_tail(
    s: &[u8],
    decode: &impl Fn(&[u8]) -> Result<(u32, usize), Malformed>,
    wtf8: bool,
) -> usize {
    let len = s.len();
    let truncated = |k: usize| {
        matches!(
            decode(s.get(k..).unwrap_or_default()),
            Err(Malformed {
                kind: ErrorKind::Truncated,
                ..
            })
        )
    };
    let keep = match (len.saturating_sub(3)..len)
        .rev()
        .find(|&k| s.get(k).is_some_and(|&b| b & 0xC0 != 0x80))
    {
        Some(k) if truncated(k) => k,
        _ => len,
    };
    let Some(lead) = keep.checked_sub(3).filter(|_| wtf8) else {
        return keep;
    };
    let may_pair = matches!(s.get(keep..), Some([] | [0xED] | [0xED, 0xB0..=0xBF]));
    if may_pair && matches!(s.get(lead..keep), Some([0xED, 0xA0..=0xAF, 0x80..=0xBF])) {
        lead
    } else {
        keep
    }
}

/// Where the units of UTF-16 `s` start whose meaning more input could change: before a high
/// surrogate that ends `s`, which the next unit may pair; else `s.len()`.
#[inline(always)]
pub(super) fn utf16_tail<S: CodeUnit>(s: &[S]) -> usize {
    match s.split_last() {
        Some((last, rest)) if (0xD800..=0xDBFF).contains(&last.value()) => rest.len(),
        _ => s.len(),
    }
}
