//! Build script: sets the shared library's soname and generates the C header.
//!
//! The header is written to `$OUT_DIR/libutf8.h` and copied to `include/libutf8.h` under the
//! profile's target directory (`target/release/include/`), where the Makefile compares it with
//! the committed `include/libutf8.h`. Cargo has no stable way to name a build script's output
//! location, so the profile directory is found from `OUT_DIR` (`<profile>/build/<pkg>/out`).

use std::env;
use std::path::PathBuf;

fn main() {
    let major = env::var("CARGO_PKG_VERSION_MAJOR").expect("cargo sets CARGO_PKG_VERSION_MAJOR");
    let minor = env::var("CARGO_PKG_VERSION_MINOR").expect("cargo sets CARGO_PKG_VERSION_MINOR");
    let patch = env::var("CARGO_PKG_VERSION_PATCH").expect("cargo sets CARGO_PKG_VERSION_PATCH");

    // The soname carries the major version: ABI-compatible releases keep libutf8.so.1.
    // ELF platforms only: Apple's linker and Windows name shared libraries differently.
    let family = env::var("CARGO_CFG_TARGET_FAMILY").unwrap_or_default();
    let vendor = env::var("CARGO_CFG_TARGET_VENDOR").unwrap_or_default();
    if family.split(',').any(|f| f == "unix") && vendor != "apple" {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libutf8.so.{major}");
    }

    let crate_dir = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let out_dir = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    let mut config = cbindgen::Config::from_file(crate_dir.join("cbindgen.toml"))
        .expect("cbindgen.toml is readable and valid");
    config.after_includes = Some(format!(
        "\n/* The version of this header; utf8_version() gives the library's. */\n\
         #define LIBUTF8_VERSION_MAJOR {major}\n\
         #define LIBUTF8_VERSION_MINOR {minor}\n\
         #define LIBUTF8_VERSION_PATCH {patch}"
    ));
    let header = out_dir.join("libutf8.h");
    cbindgen::generate_with_config(&crate_dir, config)
        .expect("cbindgen can parse the crate")
        .write_to_file(&header);

    if let Some(profile_dir) = out_dir.ancestors().nth(3) {
        let include = profile_dir.join("include");
        std::fs::create_dir_all(&include).expect("the target directory is writable");
        std::fs::copy(&header, include.join("libutf8.h"))
            .expect("the target directory is writable");
    }

    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=cbindgen.toml");
    println!("cargo:rerun-if-changed=build.rs");
}
