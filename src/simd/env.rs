//! `LIBUTF8_FORCE_ISA`, read and reported through the C library directly: std's `env::var_os`
//! allocates and `eprintln!` can panic, and the library promises neither.

use core::ffi::{CStr, c_char, c_int, c_void};

unsafe extern "C" {
    fn getenv(name: *const c_char) -> *const c_char;
    fn write(fd: c_int, buf: *const c_void, count: usize) -> isize;
}

/// The value of `LIBUTF8_FORCE_ISA`, if set.
pub(super) fn forced_isa() -> Option<&'static [u8]> {
    // SAFETY: getenv takes a NUL-terminated name and returns NULL or a NUL-terminated string
    // in the environment, which stays valid until the program changes that variable; the
    // library reads it once, on its first call, before any use of the result.
    let value = unsafe { getenv(c"LIBUTF8_FORCE_ISA".as_ptr()) };
    // SAFETY: non-null, so a NUL-terminated string from getenv (see above).
    (!value.is_null()).then(|| unsafe { CStr::from_ptr(value) }.to_bytes())
}

/// Writes `parts` to standard error, best effort: a library has nowhere to report a failure.
pub(super) fn report(parts: &[&[u8]]) {
    for part in parts {
        // SAFETY: `part` is a readable slice of `part.len()` bytes.
        let _ = unsafe { write(2, part.as_ptr().cast(), part.len()) };
    }
}
