//! Build script of the benchmark suite: detects the C functions that libutf8 defines.
//!
//! `utf8_count_chars` is measured (and its goal evaluated) as soon as the library defines it:
//! this sets `cfg(libutf8_count_chars)` when `../src/ffi.rs`, the source of the library this
//! package links, declares that function. Its signature is then checked at compile time against
//! the one src/main.rs declares.

use std::fs;

fn main() {
    let ffi = "../src/ffi.rs";
    println!("cargo::rerun-if-changed={ffi}");
    println!("cargo::rustc-check-cfg=cfg(libutf8_count_chars)");
    let source = fs::read_to_string(ffi).unwrap_or_default();
    if source.contains("extern \"C\" fn utf8_count_chars(") {
        println!("cargo::rustc-cfg=libutf8_count_chars");
    }
}
