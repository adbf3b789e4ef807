//! Output buffers, which may be uninitialised: a C caller's fresh `malloc` buffer is.
//!
//! The C functions write into memory the caller gives, which Rust may only see as
//! `[MaybeUninit<T>]`: a `&mut [u8]` over bytes nothing has written would promise values that
//! are not there (`slice::from_raw_parts_mut` requires initialised elements). Everything that
//! writes output takes such slices and writes initialised units into them, and reads none as
//! values (the SIMD converters copy the bytes just past their output, as `MaybeUninit`, to
//! store them back unchanged).
//!
//! The C functions that write a variable amount of output report, when it does not fit, the
//! size it needs. Writing through a [`Sink`] gives both in one pass: units are stored while
//! they fit, and [`Sink::len`] counts every unit written, stored or not.

use core::mem::MaybeUninit;

/// A fixed buffer, and the length of everything written to it so far.
pub struct Sink<'a, T> {
    buf: &'a mut [MaybeUninit<T>],
    len: usize,
}

#[expect(
    clippy::len_without_is_empty,
    reason = "no caller asks whether nothing was written"
)]
impl<'a, T: Copy> Sink<'a, T> {
    /// A sink writing into `buf` from its start.
    pub fn new(buf: &'a mut [T]) -> Self {
        // SAFETY: a sink writes only the units pushed into it, initialised values.
        Sink::new_uninit(unsafe { as_uninit(buf) })
    }

    /// A sink writing into `buf`, which may be uninitialised (`Vec::spare_capacity_mut`), from
    /// its start. If everything written was stored ([`Sink::fits`]), the first [`Sink::len`]
    /// units of `buf` are initialised.
    pub fn new_uninit(buf: &'a mut [MaybeUninit<T>]) -> Self {
        Sink { buf, len: 0 }
    }

    /// Writes `units`: stored if they all fit after what is there, only counted otherwise, so
    /// that the stored output never ends inside a unit group (a character, an escape).
    #[inline]
    pub fn push(&mut self, units: &[T]) {
        // Two steps, so that the compiler sees the lengths match and links no panic path.
        if let Some(dst) = self
            .buf
            .get_mut(self.len..)
            .and_then(|b| b.get_mut(..units.len()))
        {
            write_units(dst, units);
        }
        self.len = self.len.saturating_add(units.len());
    }

    /// Writes the first `n` of `units` as [`Sink::push`] does, in one store of all of them
    /// where they all fit (the compiler makes it a single move of `N` units): the units after
    /// the first `n` are then stored too, past what is written. The caller promises that what
    /// it writes next covers them, so that they are gone from an output that fits; an output
    /// that does not fit promises nothing past its stored part. `n` is at most `N`.
    #[inline(always)]
    pub(crate) fn push_partial<const N: usize>(&mut self, units: [T; N], n: usize) {
        let n = n.min(N);
        if let Some(dst) = self
            .buf
            .get_mut(self.len..)
            .and_then(|b| b.first_chunk_mut::<N>())
        {
            write_units(dst, &units);
            self.len += n;
        } else {
            self.push(units.get(..n).unwrap_or_default());
        }
    }

    /// The room after what is stored: empty once something did not fit.
    #[inline(always)]
    pub(crate) fn spare(&mut self) -> &mut [MaybeUninit<T>] {
        self.buf.get_mut(self.len..).unwrap_or_default()
    }

    /// Counts as written the first `n` units of [`Sink::spare`].
    ///
    /// # Safety
    /// They are initialised: the caller wrote them since it took the slice (so that the
    /// promise of [`Sink::new_uninit`] holds), and `n` is at most its length.
    #[inline(always)]
    pub(crate) unsafe fn commit(&mut self, n: usize) {
        debug_assert!(self.len + n <= self.buf.len());
        self.len += n;
    }

    /// The length of everything written, stored or not.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether everything written was stored.
    pub fn fits(&self) -> bool {
        self.len <= self.buf.len()
    }
}

/// Writes `src` at the start of `dst`, as far as both go (the callers pass slices of one
/// length): `copy_from_slice` for a buffer that may be uninitialised, which is the same copy
/// (`<[MaybeUninit<T>]>::write_copy_of_slice` is stable since Rust 1.93, after our 1.89).
#[inline(always)]
pub(crate) fn write_units<T: Copy>(dst: &mut [MaybeUninit<T>], src: &[T]) {
    debug_assert_eq!(dst.len(), src.len());
    let n = src.len().min(dst.len());
    // SAFETY: both slices have at least `n` elements, `MaybeUninit<T>` has the layout of `T`,
    // and a `&mut` slice does not overlap a shared one.
    unsafe { core::ptr::copy_nonoverlapping(src.as_ptr(), dst.as_mut_ptr().cast::<T>(), n) };
}

/// `buf`, initialised units, seen as units that may be uninitialised: the view the writers of
/// output take, for a Rust caller's initialised buffer.
///
/// # Safety
/// Nothing writes an uninitialised unit through the view (the writers of this crate write
/// values, or store back bytes they read from the same place), so that `buf` stays
/// initialised.
#[inline(always)]
pub(crate) unsafe fn as_uninit<T>(buf: &mut [T]) -> &mut [MaybeUninit<T>] {
    // SAFETY: `MaybeUninit<T>` has the size and alignment of `T`, so the slice of as many of
    // them covers the same memory; the caller keeps the units initialised.
    unsafe { &mut *(core::ptr::from_mut::<[T]>(buf) as *mut [MaybeUninit<T>]) }
}
