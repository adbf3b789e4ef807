//! `LIBUTF8_FORCE_ISA`, read and reported through libc directly: the library is built without
//! the standard library (whose `env::var_os` allocates and `eprintln!` can panic).

use core::ffi::{CStr, c_char, c_int, c_void};

unsafe extern "C" {
    fn getenv(name: *const c_char) -> *const c_char;
    fn write(fd: c_int, buf: *const c_void, count: usize) -> isize;
}

/// Calls `f` with the value of `LIBUTF8_FORCE_ISA`, if set, borrowed from the environment for
/// that call only.
pub(super) fn with_forced_isa<R>(f: impl FnOnce(Option<&[u8]>) -> R) -> R {
    // SAFETY: getenv takes a NUL-terminated name and returns NULL or a NUL-terminated string
    // in the environment, which stays valid until the program changes that variable: the
    // value is used only during `f` (a program that changes the variable meanwhile, from
    // another thread, races with this as with any getenv).
    let value = unsafe { getenv(c"LIBUTF8_FORCE_ISA".as_ptr()) };
    // SAFETY: non-null, so a NUL-terminated string from getenv (see above).
    f((!value.is_null()).then(|| unsafe { CStr::from_ptr(value) }.to_bytes()))
}

/// Writes `parts` to standard error, best effort: a library has nowhere to report a failure.
pub(super) fn report(parts: &[&[u8]]) {
    for part in parts {
        // SAFETY: `part` is a readable slice of `part.len()` bytes.
        let _ = unsafe { write(2, part.as_ptr().cast(), part.len()) };
    }
}
