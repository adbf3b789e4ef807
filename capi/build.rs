//! Build script: sets the shared library's soname.
//!
//! The C header is not generated here but by `tools/gen-header` (`make header`), so that
//! building the library needs no crate at all.

use std::env;

fn main() {
    let major = env::var("CARGO_PKG_VERSION_MAJOR").expect("cargo sets CARGO_PKG_VERSION_MAJOR");

    // The soname carries the major version: ABI-compatible releases keep libutf8.so.1.
    // ELF platforms only: Apple's linker and Windows name shared libraries differently.
    let family = env::var("CARGO_CFG_TARGET_FAMILY").unwrap_or_default();
    let vendor = env::var("CARGO_CFG_TARGET_VENDOR").unwrap_or_default();
    if family.split(',').any(|f| f == "unix") && vendor != "apple" {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libutf8.so.{major}");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
