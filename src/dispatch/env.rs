//! `LIBUTF8_FORCE_ISA`, read and reported through libc directly: the library is built without
//! the standard library (whose `env::var_os` allocates and `eprintln!` can panic).

use core::ffi::{CStr, c_char, c_int, c_void};
use core::sync::atomic::{AtomicBool, Ordering};

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

/// Whether a forced implementation was reported: threads racing through their first call each
/// choose, but only one reports.
static REPORTED: AtomicBool = AtomicBool::new(false);

/// Reports on standard error, once per process, that the forced implementation `value` is not
/// used (`reason`, then the name of the one used), best effort: a library has nowhere to report
/// a failure. One `write`, so that the line is not cut by another thread's output; `value`
/// escaped (it is the environment's, and may hold a terminal's controls) and cut short if long.
/// Out of line, so that the line's buffer is on the stack only while reporting.
#[cold]
#[inline(never)]
pub(super) fn report_ignored(value: &[u8], reason: &[u8], used: &str) {
    if REPORTED.swap(true, Ordering::Relaxed) {
        return;
    }
    let mut line = Line::default();
    line.push(b"libutf8: LIBUTF8_FORCE_ISA=");
    for &b in value.iter().take(MAX_SHOWN) {
        if b.is_ascii_graphic() && b != b'\\' {
            line.push(&[b]);
        } else {
            let hex = b"0123456789abcdef";
            line.push(&[
                b'\\',
                b'x',
                hex[usize::from(b >> 4)],
                hex[usize::from(b & 15)],
            ]);
        }
    }
    if value.len() > MAX_SHOWN {
        line.push(b"...");
    }
    line.push(reason);
    line.push(used.as_bytes());
    line.push(b"\n");
    // SAFETY: the line's first `len` bytes are initialised and readable.
    let _ = unsafe { write(2, line.bytes.as_ptr().cast(), line.len) };
}

/// The bytes of a forced value shown: more says nothing more about a mistyped name.
const MAX_SHOWN: usize = 32;

/// The report being written: its longest is 27 + 4 * 32 + 3 bytes of prefix, value and "...",
/// 37 of the longest reason, 11 of the longest names ("avx512-zen4", "avx512-zen5") and the
/// newline: 207.
struct Line {
    bytes: [u8; 256],
    len: usize,
}

impl Default for Line {
    fn default() -> Self {
        Line {
            bytes: [0; 256],
            len: 0,
        }
    }
}

impl Line {
    /// Appends `part`, or as much of it as fits.
    fn push(&mut self, part: &[u8]) {
        for &b in part {
            if let Some(slot) = self.bytes.get_mut(self.len) {
                *slot = b;
                self.len += 1;
            }
        }
    }
}
