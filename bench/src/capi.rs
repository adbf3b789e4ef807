//! libutf8's C functions as the harness calls them: from libutf8.so, the shared library `make`
//! builds, opened at run time and each function found by name in it (`dlopen`, then `dlsym` on
//! its handle), so that each call is a call into the library a C program loads, through a
//! pointer the optimiser cannot see into (never inlined into the measuring loop).
//!
//! The library's code is not linked into this binary. Linked in, it lay before simdutf's (the
//! `simdutf` crate's static library comes last), and any change to its size moved every
//! simdutf function to another offset in its page, which moved simdutf's speed by up to a
//! quarter on single inputs (BENCHMARKS.md, the Latin-1 entry of 2026-12-02's fourteenth
//! session): an A/B run of two builds of libutf8 compared two placements of its peer as well.
//! Now the binary, and every peer in it, is the same whatever libutf8's code.
//!
//! The library crate stays a dependency for its types (`utf8_result`, `utf8_status`: no code)
//! and for the checks below that each pointer type is the type of the library's definition;
//! none of its code is linked in (`libutf8-isa`, src/isa.rs, links the dispatch, apart).

use std::ffi::{CStr, CString, c_char, c_int, c_void};
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;
use std::sync::OnceLock;

pub use utf8::ffi::{utf8_result, utf8_status};

pub type ValidateFn = unsafe extern "C" fn(*const c_char, usize, *mut usize) -> utf8_status;
pub type DecodeFn = unsafe extern "C" fn(*const c_char, usize, *mut u32, *mut usize) -> utf8_status;
pub type CountFn = unsafe extern "C" fn(*const c_char, usize) -> usize;
pub type ToUtf16Fn =
    unsafe extern "C" fn(*const c_char, usize, *mut u16, usize, u32) -> utf8_result;
pub type ToUtf32Fn =
    unsafe extern "C" fn(*const c_char, usize, *mut u32, usize, u32) -> utf8_result;
pub type FromUtf16Fn =
    unsafe extern "C" fn(*const u16, usize, *mut c_char, usize, u32) -> utf8_result;
pub type FromUtf32Fn =
    unsafe extern "C" fn(*const u32, usize, *mut c_char, usize, u32) -> utf8_result;
/// Between single bytes (Latin-1, Windows-1252) and UTF-8.
pub type ByteConvertFn =
    unsafe extern "C" fn(*const c_char, usize, *mut c_char, usize, u32) -> utf8_result;

// Each type is the type of the library's definition (checked at compile time; the constants
// are never used, and link nothing in).
const _: ValidateFn = utf8::ffi::utf8_validate;
const _: DecodeFn = utf8::ffi::utf8_decode_next;
const _: CountFn = utf8::ffi::utf8_count_chars;
const _: ToUtf16Fn = utf8::ffi::utf8_to_utf16;
const _: ToUtf32Fn = utf8::ffi::utf8_to_utf32;
const _: FromUtf16Fn = utf8::ffi::utf16_to_utf8;
const _: FromUtf32Fn = utf8::ffi::utf32_to_utf8;
const _: [ByteConvertFn; 3] = [
    utf8::ffi::latin1_to_utf8,
    utf8::ffi::cp1252_to_utf8,
    utf8::ffi::utf8_to_latin1,
];

/// The functions measured, each under its C name.
pub struct Libutf8 {
    pub utf8_validate: ValidateFn,
    pub utf8_decode_next: DecodeFn,
    pub utf8_count_chars: CountFn,
    pub utf8_to_utf16: ToUtf16Fn,
    pub utf8_to_utf32: ToUtf32Fn,
    pub utf16_to_utf8: FromUtf16Fn,
    pub utf32_to_utf8: FromUtf32Fn,
    pub latin1_to_utf8: ByteConvertFn,
    pub cp1252_to_utf8: ByteConvertFn,
    pub utf8_to_latin1: ByteConvertFn,
}

unsafe extern "C" {
    fn dlopen(filename: *const c_char, flags: c_int) -> *mut c_void;
    fn dlsym(handle: *mut c_void, symbol: *const c_char) -> *mut c_void;
    fn dlerror() -> *const c_char;
}

/// `dlopen`'s flags: every symbol resolved now; none made global.
const RTLD_NOW: c_int = 2;

/// The shared library measured: `$LIBUTF8_SO` (bench/run.sh sets it to the one `make` built),
/// else target/release/libutf8.so of this checkout.
pub fn library_path() -> PathBuf {
    std::env::var_os("LIBUTF8_SO").map_or_else(
        || {
            PathBuf::from(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../target/release/libutf8.so"
            ))
        },
        PathBuf::from,
    )
}

/// The last `dlerror` message.
fn dl_error() -> String {
    // SAFETY: dlerror returns NULL or a NUL-terminated message, valid until the next dl call.
    let msg = unsafe { dlerror() };
    if msg.is_null() {
        "unknown error".into()
    } else {
        // SAFETY: non-null, so a NUL-terminated string (above).
        unsafe { CStr::from_ptr(msg) }
            .to_string_lossy()
            .into_owned()
    }
}

/// The library's functions, opened once.
pub fn libutf8() -> &'static Libutf8 {
    static LIBRARY: OnceLock<Libutf8> = OnceLock::new();
    LIBRARY.get_or_init(|| {
        open().unwrap_or_else(|msg| {
            eprintln!("bench: {msg}");
            std::process::exit(1)
        })
    })
}

/// Loads the library at [`library_path`] and finds its functions.
fn open() -> Result<Libutf8, String> {
    let path = library_path();
    let c_path = CString::new(path.as_os_str().as_bytes()).map_err(|e| e.to_string())?;
    // SAFETY: `c_path` is NUL-terminated; the file is loaded as a C program loads libutf8.so.
    let handle = unsafe { dlopen(c_path.as_ptr(), RTLD_NOW) };
    if handle.is_null() {
        return Err(format!(
            "cannot load {} (run 'make' first, or set LIBUTF8_SO): {}",
            path.display(),
            dl_error()
        ));
    }
    /// The function `$name` of the library, as a `$type`.
    macro_rules! function {
        ($name:ident: $type:ty) => {{
            let name = concat!(stringify!($name), "\0");
            // SAFETY: `handle` is the library's, `name` NUL-terminated.
            let f = unsafe { dlsym(handle, name.as_ptr().cast()) };
            if f.is_null() {
                return Err(format!(
                    "{}: no {} ({})",
                    path.display(),
                    stringify!($name),
                    dl_error()
                ));
            }
            // SAFETY: `f` is the library's definition of `$name`, a function of type `$type`
            // (checked above against the definition in the library's source); a function
            // pointer and a data pointer have the same size here.
            unsafe { std::mem::transmute::<*mut c_void, $type>(f) }
        }};
    }
    Ok(Libutf8 {
        utf8_validate: function!(utf8_validate: ValidateFn),
        utf8_decode_next: function!(utf8_decode_next: DecodeFn),
        utf8_count_chars: function!(utf8_count_chars: CountFn),
        utf8_to_utf16: function!(utf8_to_utf16: ToUtf16Fn),
        utf8_to_utf32: function!(utf8_to_utf32: ToUtf32Fn),
        utf16_to_utf8: function!(utf16_to_utf8: FromUtf16Fn),
        utf32_to_utf8: function!(utf32_to_utf8: FromUtf32Fn),
        latin1_to_utf8: function!(latin1_to_utf8: ByteConvertFn),
        cp1252_to_utf8: function!(cp1252_to_utf8: ByteConvertFn),
        utf8_to_latin1: function!(utf8_to_latin1: ByteConvertFn),
    })
}
