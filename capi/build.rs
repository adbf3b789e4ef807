//! Build script: sets the shared library's soname and its symbol versions.
//!
//! The C header is not generated here but by `tools/gen-header` (`make header`), so that
//! building the library needs no crate at all.

use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    let major = env::var("CARGO_PKG_VERSION_MAJOR").expect("cargo sets CARGO_PKG_VERSION_MAJOR");

    // The soname carries the major version: ABI-compatible releases keep libutf8.so.1.
    // ELF platforms only: Apple's linker and Windows name shared libraries differently.
    let family = env::var("CARGO_CFG_TARGET_FAMILY").unwrap_or_default();
    let vendor = env::var("CARGO_CFG_TARGET_VENDOR").unwrap_or_default();
    if family.split(',').any(|f| f == "unix") && vendor != "apple" {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libutf8.so.{major}");
        version_symbols();
    }
    println!("cargo:rerun-if-changed=build.rs");
}

/// Versions the exported functions through libutf8.map: a node per minor release that added
/// functions (LIBUTF8_1.0, 1.1, 1.2), which `readelf -V` and dpkg-gensymbols read.
///
/// rustc links every cdylib with a version script of its own, an anonymous node that makes
/// the exported functions global and everything else local. A second script cannot give those
/// functions a version: GNU ld refuses an anonymous node beside named ones ("anonymous version
/// tag cannot be combined with other version tags"), and lld keeps the first node a symbol
/// matches (warning "attempt to reassign symbol"), so every function stays unversioned. So
/// rustc's script is replaced rather than added to: the link runs through a wrapper of gcc's
/// collect2 (found through -B, since rustc's own -B directory has no collect2) that drops every
/// version script but libutf8.map, whose `local: *` hides what rustc's hid. Whatever linker
/// collect2 then runs (ld.bfd, or the rust-lld that rustc selects) reads libutf8.map alone.
///
/// Where the linker driver is not gcc (clang has no collect2) the library is built without
/// versions and cargo prints a warning; `make check-abi` fails on such a library.
fn version_symbols() {
    let manifest_dir = env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let map = Path::new(&manifest_dir).join("libutf8.map");
    println!("cargo:rerun-if-changed=libutf8.map");
    println!("cargo:rerun-if-env-changed=RUSTC_LINKER");

    // The linker driver rustc runs: the configured linker if any, otherwise cc.
    let driver = env::var("RUSTC_LINKER").unwrap_or_else(|_| "cc".to_owned());
    let collect2 = Command::new(&driver)
        .arg("-print-prog-name=collect2")
        .output()
        .ok()
        .filter(|out| out.status.success())
        .map(|out| String::from_utf8_lossy(&out.stdout).trim().to_owned())
        .filter(|path| Path::new(path).is_absolute());
    let Some(collect2) = collect2 else {
        println!(
            "cargo:warning=libutf8.so is built without symbol versions: the linker driver \
             {driver} is not gcc (no collect2 to wrap; see capi/build.rs)"
        );
        return;
    };

    let out_dir = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    let wrapper_dir = out_dir.join("versioned-link");
    if let Err(err) = write_wrapper(&wrapper_dir, &map, &collect2) {
        println!("cargo:warning=libutf8.so is built without symbol versions: {err}");
        return;
    }
    println!("cargo:rustc-cdylib-link-arg=-B{}/", wrapper_dir.display());
    println!(
        "cargo:rustc-cdylib-link-arg=-Wl,--version-script={}",
        map.display()
    );
}

/// Writes `dir/collect2`: collect2 with every `--version-script=` argument but `map`'s removed.
/// (rustc passes its script as one `-Wl,--version-script=PATH`, which gcc hands to collect2 as
/// one argument. Were the link's arguments passed in a response file, @FILE, the wrapper would
/// not see rustc's script, and the link would fail with GNU ld or leave the functions
/// unversioned with lld, which `make check-abi` reports.)
fn write_wrapper(dir: &Path, map: &Path, collect2: &str) -> Result<(), String> {
    let quote = |s: &str| format!("'{}'", s.replace('\'', r"'\''"));
    let map = map
        .to_str()
        .ok_or("the path of capi/libutf8.map is not UTF-8")?;
    let script = format!(
        "#!/bin/sh\n\
         # Written by capi/build.rs: runs collect2 with libutf8.map as the only version script.\n\
         keep={keep}\n\
         for arg do\n\
         \x20 shift\n\
         \x20 case $arg in --version-script=*) [ \"$arg\" = \"$keep\" ] || continue ;; esac\n\
         \x20 set -- \"$@\" \"$arg\"\n\
         done\n\
         exec {collect2} \"$@\"\n",
        keep = quote(&format!("--version-script={map}")),
        collect2 = quote(collect2),
    );
    let path = dir.join("collect2");
    fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    fs::write(&path, script).map_err(|e| format!("{}: {e}", path.display()))?;
    make_executable(&path)
}

#[cfg(unix)]
fn make_executable(path: &Path) -> Result<(), String> {
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(path, fs::Permissions::from_mode(0o755))
        .map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(not(unix))]
fn make_executable(_: &Path) -> Result<(), String> {
    Err("the build host is not Unix: no shell script can wrap collect2".to_owned())
}
