//! libutf8's C library: every `extern "C"` function of the codec crate (`src/ffi`), linked
//! without the standard library, which the codec does not use. The library is then a third of
//! the size (`libutf8.so`; `libutf8.a` a fifth), and needs no system library but libc.

#![no_std]
// (Built as a test, by `cargo test --lib` or clippy, it links the standard library and its
// panic handler.)

// Linking the codec crate brings its exported functions, which are all the library exports.
use codec as _;

// libc: the codec calls getenv, strlen and write (to read and report LIBUTF8_FORCE_ISA), and the
// compiler's code memcpy and memset. Named here so that libutf8.so records its dependency on
// libc.so, and so that rustc lists -lc for the static library.
#[link(name = "c")]
unsafe extern "C" {}

/// No path of the library panics: `make check-abi` finds no panic code in a program that uses
/// every function. Were one added, it would abort, as `panic = "abort"` makes every panic do:
/// a panic must not unwind into C.
#[cfg(not(test))]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    unsafe extern "C" {
        fn abort() -> !;
    }
    // SAFETY: abort takes no argument and does not return.
    unsafe { abort() }
}
