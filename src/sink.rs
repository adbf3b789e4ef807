//! An output buffer that keeps counting once it is full.
//!
//! The C functions that write a variable amount of output report, when it does not fit, the
//! size it needs. Writing through a [`Sink`] gives both in one pass: bytes are stored while
//! they fit, and [`Sink::len`] counts every byte written, stored or not.

/// A fixed buffer, and the length of everything written to it so far.
pub struct Sink<'a, T> {
    buf: &'a mut [T],
    len: usize,
}

#[expect(
    clippy::len_without_is_empty,
    reason = "no caller asks whether nothing was written"
)]
impl<'a, T: Copy> Sink<'a, T> {
    /// A sink writing into `buf` from its start.
    pub fn new(buf: &'a mut [T]) -> Self {
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
            dst.copy_from_slice(units);
        }
        self.len = self.len.saturating_add(units.len());
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
