//! Writes libutf8's C header from the library's Rust sources with cbindgen, configured by the
//! crate's `cbindgen.toml`, adding the version macros from its `Cargo.toml`.
//!
//! `make header` writes `include/libutf8.h`, which is committed and installed; `make check`
//! writes a copy under `build/` and fails if it differs. The library's own build does not run
//! this, so that building it needs no crate at all.
//!
//! Usage: `libutf8-gen-header CRATE_DIR OUTPUT`

use std::env;
use std::fs;
use std::path::Path;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = env::args().skip(1).collect();
    let [crate_dir, output] = args.as_slice() else {
        eprintln!("usage: libutf8-gen-header CRATE_DIR OUTPUT");
        return ExitCode::from(2);
    };
    match generate(Path::new(crate_dir), Path::new(output)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("libutf8-gen-header: {e}");
            ExitCode::FAILURE
        }
    }
}

fn generate(crate_dir: &Path, output: &Path) -> Result<(), String> {
    let manifest = crate_dir.join("Cargo.toml");
    let text = fs::read_to_string(&manifest).map_err(|e| format!("{}: {e}", manifest.display()))?;
    let version = package_version(&text)
        .ok_or_else(|| format!("{}: no version in [workspace.package]", manifest.display()))?;
    let [major, minor, patch] = version;
    let mut config = cbindgen::Config::from_file(crate_dir.join("cbindgen.toml"))?;
    config.after_includes = Some(format!(
        "\n/* The version of this header; utf8_version() gives the library's. */\n\
         #define LIBUTF8_VERSION_MAJOR {major}\n\
         #define LIBUTF8_VERSION_MINOR {minor}\n\
         #define LIBUTF8_VERSION_PATCH {patch}"
    ));
    cbindgen::generate_with_config(crate_dir, config)
        .map_err(|e| format!("cbindgen: {e}"))?
        .write_to_file(output);
    Ok(())
}

/// The `version = "MAJOR.MINOR.PATCH"` of the `[workspace.package]` table, which the library's
/// packages share, as three numbers.
fn package_version(manifest: &str) -> Option<[u32; 3]> {
    let mut in_table = false;
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            in_table = line == "[workspace.package]";
        } else if in_table
            && let Some(value) = line.strip_prefix("version")
            && let Some(value) = value.trim_start().strip_prefix('=')
        {
            let parts: Result<Vec<u32>, _> = value
                .trim()
                .trim_matches('"')
                .split('.')
                .map(str::parse)
                .collect();
            return parts.ok()?.try_into().ok();
        }
    }
    None
}
