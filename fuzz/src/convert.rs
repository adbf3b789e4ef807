//! What the targets of the converters share (`transcode`, `latin1`): the oracle's view of a
//! conversion, and the checks that run a converter through the C API and each implementation
//! into exactly the size its length function gives, resumed through a small buffer, and in
//! chunks with UTF8_MORE.

use utf8::ffi::utf8_result;
use utf8::ffi::utf8_status::{self, *};
use utf8::ffi::{UTF8_MORE, UTF8_REPLACE};
use utf8::internals::Isa;
use utf8::transcode::{Mode, Progress, Replacement};

/// The oracle's view of a conversion: the strict result (status, read, and output up to there)
/// and the lossy output.
pub struct Expected<T> {
    pub status: utf8_status,
    pub read: usize,
    pub strict: Vec<T>,
    pub lossy: Vec<T>,
}

/// One implementation's converter, as `Isa` offers it.
pub type IsaConverter<S, T> = fn(Isa, &[S], &mut [T], Mode) -> Option<Progress>;

/// [`check_one`] for the C function `c`, then for `by_isa` with every implementation the CPU
/// supports.
pub fn check<S: core::fmt::Debug, T: Copy + Default + PartialEq + core::fmt::Debug>(
    name: &str,
    src: &[S],
    want: &Expected<T>,
    cap: usize,
    by_isa: IsaConverter<S, T>,
    c: impl Fn(&[S], &mut [T], u32) -> utf8_result,
) {
    check_one(name, src, want, cap, c);
    for isa in Isa::supported() {
        let name = format!("{name} ({})", isa.name());
        check_one(&name, src, want, cap, |src, out, flags| {
            let mode = Mode {
                replace: flags & UTF8_REPLACE != 0,
                wtf8: false,
                more: false,
                replacement: Replacement::Fffd,
            };
            by_isa(isa, src, out, mode).expect("supported").into()
        });
    }
}

/// `convert` strict and lossy, into a buffer of exactly the lossy size, then resumed through a
/// buffer of `cap` units.
pub fn check_one<S: core::fmt::Debug, T: Copy + Default + PartialEq + core::fmt::Debug>(
    name: &str,
    src: &[S],
    want: &Expected<T>,
    cap: usize,
    convert: impl Fn(&[S], &mut [T], u32) -> utf8_result,
) {
    for flags in [0, UTF8_REPLACE] {
        let (status, read, out) = if flags == 0 {
            (want.status, want.read, &want.strict)
        } else {
            (UTF8_OK, src.len(), &want.lossy)
        };
        // Exactly the size the length function gives: a boxed slice, so that ASan sees its end.
        let mut dst = vec![T::default(); want.lossy.len()].into_boxed_slice();
        let r = convert(src, &mut dst, flags);
        assert_eq!(
            (r.status, r.read, r.written),
            (status, read, out.len()),
            "{name} flags {flags}: {src:X?}"
        );
        assert_eq!(
            &dst[..r.written],
            &out[..],
            "{name} flags {flags}: {src:X?}"
        );

        // Resumed through a small buffer, flushed after each call; grown only when one character
        // does not fit in it empty.
        let mut buf = vec![T::default(); cap];
        let (mut at, mut got) = (0, Vec::new());
        let last = loop {
            let r = convert(&src[at..], &mut buf, flags);
            assert!(
                r.written <= buf.len() && r.read <= src.len() - at,
                "{name}: {r:?}"
            );
            got.extend_from_slice(&buf[..r.written]);
            at += r.read;
            if r.status != UTF8_ERR_BUFFER_TOO_SMALL {
                break r.status;
            }
            if r.written == 0 {
                assert!(
                    buf.len() < 4,
                    "{name}: no character needs {} units",
                    buf.len()
                );
                buf.push(T::default());
            }
        };
        assert_eq!(
            (last, at, &got[..]),
            (status, read, &out[..]),
            "{name} flags {flags} resumed with cap {cap}: {src:X?}"
        );
    }
}

/// `src` converted in chunks with each of `flags` and UTF8_MORE on all but the last chunk, the
/// units a UTF8_ERR_TRUNCATED result leaves carried over to the next, gives the output, final
/// status and offset of one call: cut at `cap`, in the middle, and (short inputs) a unit at a
/// time.
pub fn chunked_equals_whole<
    S: Copy + core::fmt::Debug,
    T: Copy + Default + PartialEq + core::fmt::Debug,
>(
    src: &[S],
    cap: usize,
    flags: &[u32],
    convert: impl Fn(&[S], &mut [T], u32) -> utf8_result,
) {
    let run = |src: &[S], flags: u32| {
        let mut out = vec![T::default(); 4 * src.len() + 4];
        let r = convert(src, &mut out, flags);
        out.truncate(r.written);
        (r.status, r.read, out)
    };
    let every: Vec<usize> = (1..src.len()).collect();
    let mut cut_sets = vec![vec![cap.min(src.len())], vec![src.len() / 2]];
    if src.len() <= 64 {
        cut_sets.push(every);
    }
    for &flags in flags {
        let want = run(src, flags);
        for cuts in &cut_sets {
            let (mut out, mut carry, mut base, mut from) = (Vec::new(), Vec::new(), 0, 0);
            let mut got = None;
            for end in cuts.iter().copied().chain([src.len()]) {
                let last = end == src.len();
                let mut buf: Vec<S> = core::mem::take(&mut carry);
                buf.extend_from_slice(&src[from..end]);
                from = end;
                let (status, read, o) = run(&buf, if last { flags } else { flags | UTF8_MORE });
                out.extend(o);
                if status == UTF8_ERR_TRUNCATED && !last {
                    carry = buf[read..].to_vec();
                    base += read;
                } else if status != UTF8_OK {
                    got = Some((status, base + read));
                    break;
                } else {
                    base += read;
                }
            }
            let got = got.unwrap_or((UTF8_OK, base));
            assert_eq!(
                (got.0, got.1, &out),
                (want.0, want.1, &want.2),
                "{src:X?} cut at {cuts:?}, flags {flags}"
            );
        }
    }
}
