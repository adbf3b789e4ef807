//! `libutf8-isa`: prints the implementation libutf8 chooses on this CPU (`avx512`, `avx2`, ...),
//! `LIBUTF8_FORCE_ISA` included; bench/run.sh asks it which kernels to measure. A program of its
//! own, since asking links the library's dispatch in, and with it every kernel, which the
//! harness must not hold (see src/capi.rs). The library's code is the same as libutf8.so's,
//! built from the same sources, so it chooses as the shared library does.

fn main() {
    println!("{}", utf8::internals::active_isa().name());
}
