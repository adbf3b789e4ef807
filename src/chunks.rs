//! A slice as arrays of `N` elements and the elements after the last whole array: core's
//! `<[T]>::as_chunks` and `as_chunks_mut`, stable since Rust 1.88, for the oldest Rust the
//! library supports (1.85). The same code as core's: the split at the last whole array,
//! unchecked since it is never past the end, and the arrays as a slice over the same memory,
//! with core's run-time assertion on `N` (a constant, so none is left in the code; an inline
//! `const` block instead changed the code generated for the kernels). No bounds check, no
//! panic: the kernels call them in their loops.

use core::slice;

/// `s` as `s.len() / N` arrays of `N` elements, then the `s.len() % N` elements left.
#[inline]
pub(crate) fn as_chunks<const N: usize, T>(s: &[T]) -> (&[[T; N]], &[T]) {
    assert!(N != 0, "chunk size must be non-zero");
    let len_rounded_down = s.len() / N * N;
    // SAFETY: `len_rounded_down` is at most `s.len()`.
    let (whole, rest) = unsafe { s.split_at_unchecked(len_rounded_down) };
    // SAFETY: `whole` is `s.len() / N` times `N` elements, and `[T; N]` is `N` elements with
    // neither padding nor an alignment of its own, so that many arrays cover exactly its
    // memory, which they borrow as `s` lends it.
    let arrays = unsafe { slice::from_raw_parts(whole.as_ptr().cast::<[T; N]>(), s.len() / N) };
    (arrays, rest)
}

/// `s` as `s.len() / N` arrays of `N` elements, then the `s.len() % N` elements left, to
/// write. (Only x86_64's code writes arrays: elsewhere the tests alone call it.)
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
#[inline]
pub(crate) fn as_chunks_mut<const N: usize, T>(s: &mut [T]) -> (&mut [[T; N]], &mut [T]) {
    assert!(N != 0, "chunk size must be non-zero");
    let arrays = s.len() / N;
    // SAFETY: `arrays * N` is at most `s.len()`.
    let (whole, rest) = unsafe { s.split_at_mut_unchecked(arrays * N) };
    // SAFETY: as in `as_chunks`; the two parts do not overlap, and `whole` is given up for
    // the arrays.
    let arrays = unsafe { slice::from_raw_parts_mut(whole.as_mut_ptr().cast::<[T; N]>(), arrays) };
    (arrays, rest)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The arrays and the rest of `s` that `chunks_exact` gives, over the same memory.
    fn check<const N: usize, T: PartialEq + core::fmt::Debug>(s: &[T]) {
        let (arrays, rest) = as_chunks::<N, T>(s);
        let exact = s.chunks_exact(N);
        assert_eq!(rest, exact.remainder());
        assert_eq!(rest.as_ptr(), s[s.len() - rest.len()..].as_ptr());
        assert_eq!(arrays.len(), exact.len());
        for (array, chunk) in arrays.iter().zip(exact) {
            assert_eq!(array.as_slice(), chunk);
            assert_eq!(array.as_ptr(), chunk.as_ptr());
        }
    }

    /// At every length around a few multiples of 4, 16 and 64 (under Miri, every seventh), and
    /// over arrays.
    #[test]
    fn splits_as_chunks_exact_does() {
        let bytes: [u8; 200] = core::array::from_fn(|i| i as u8);
        for len in (0..=bytes.len()).step_by(if cfg!(miri) { 7 } else { 1 }) {
            let s = &bytes[..len];
            check::<1, _>(s);
            check::<4, _>(s);
            check::<16, _>(s);
            check::<64, _>(s);
        }
        check::<4, _>(&[[7u8; 64]; 9]);
    }

    /// Writes through the arrays and the rest reach every element of the slice, in order.
    #[test]
    fn mut_splits_as_chunks_exact_does() {
        for len in 0..=70 {
            let mut buf = [0usize; 70];
            let (arrays, rest) = as_chunks_mut::<16, _>(&mut buf[..len]);
            assert_eq!((arrays.len(), rest.len()), (len / 16, len % 16));
            let mut n = 0;
            for unit in arrays.iter_mut().flatten().chain(rest) {
                n += 1;
                *unit = n;
            }
            let expected: [usize; 70] = core::array::from_fn(|i| if i < len { i + 1 } else { 0 });
            assert_eq!(buf, expected);
        }
    }
}
