//! utf8_escape and utf8_unescape: the round trip over random bytes, the output's safety checked
//! character by character, the shell style parsed back by bash (and by zsh, mksh, ksh93 and
//! busybox sh where installed) and compared with GNU ls, and each control a terminal acts on
//! written as the issue specifies.

mod common;

use core::ffi::c_char;
use core::ptr;
use std::process::Command;

use common::Rng;
use utf8::ffi::utf8_status::{self, *};
use utf8::ffi::{EscapeStyleArg, utf8_escape, utf8_unescape};

const C: i32 = 0;
const SHELL: i32 = 1;

/// utf8_escape through the C function: a size query, then a buffer of exactly that size.
fn escape(s: &[u8], style: i32) -> Vec<u8> {
    let mut needed = usize::MAX;
    // SAFETY: (NULL, 0) is a size query; `s` and `needed` are live.
    let status = unsafe {
        utf8_escape(
            s.as_ptr().cast(),
            s.len(),
            EscapeStyleArg(style),
            ptr::null_mut(),
            0,
            &mut needed,
        )
    };
    let expected_query = if needed == 0 {
        UTF8_OK
    } else {
        UTF8_ERR_BUFFER_TOO_SMALL
    };
    assert_eq!(status, expected_query, "size query for {s:02X?}");
    let mut out = vec![0u8; needed];
    let mut n = usize::MAX;
    // SAFETY: `out` has `needed` writable bytes.
    let status = unsafe {
        utf8_escape(
            s.as_ptr().cast(),
            s.len(),
            EscapeStyleArg(style),
            out.as_mut_ptr().cast(),
            out.len(),
            &mut n,
        )
    };
    assert_eq!((status, n), (UTF8_OK, needed), "escape of {s:02X?}");
    // The shell style's oracles are below: examples as GNU ls writes them, shells reading the
    // words back, and GNU ls itself where installed.
    if style == C {
        let expected = c_style_oracle(s);
        assert!(
            out == expected,
            "escape of {s:02X?}: {:?}, expected {:?}",
            String::from_utf8_lossy(&out),
            String::from_utf8_lossy(&expected)
        );
    }
    out
}

/// UTF8_ESCAPE_C as include/libutf8.h and libutf8(3) specify it, written without the library:
/// `core::str::from_utf8` tells the characters from the bytes of ill-formed sequences.
fn c_style_oracle(s: &[u8]) -> Vec<u8> {
    use core::fmt::Write;
    let mut out = String::new();
    let mut rest = s;
    while !rest.is_empty() {
        let (good, bad) = match core::str::from_utf8(rest) {
            Ok(_) => (rest.len(), 0),
            Err(e) => (
                e.valid_up_to(),
                e.error_len().unwrap_or(rest.len() - e.valid_up_to()),
            ),
        };
        for c in core::str::from_utf8(&rest[..good]).unwrap().chars() {
            match c {
                '\\' => out.push_str(r"\\"),
                '\n' => out.push_str(r"\n"),
                '\t' => out.push_str(r"\t"),
                '\r' => out.push_str(r"\r"),
                '\u{07}' => out.push_str(r"\a"),
                '\u{08}' => out.push_str(r"\b"),
                '\u{0C}' => out.push_str(r"\f"),
                '\u{0B}' => out.push_str(r"\v"),
                // Any other C0 control, and DEL.
                '\0'..='\u{1F}' | '\u{7F}' => write!(out, r"\x{:02x}", u32::from(c)).unwrap(),
                // C1 controls, and the bidirectional embeddings, overrides and isolates.
                '\u{80}'..='\u{9F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' => {
                    write!(out, r"\u{{{:04x}}}", u32::from(c)).unwrap();
                }
                _ => out.push(c),
            }
        }
        for b in &rest[good..good + bad] {
            write!(out, r"\x{b:02x}").unwrap();
        }
        rest = &rest[good + bad..];
    }
    out.into_bytes()
}

/// utf8_unescape through the C function: the status, and the output or the reported offset.
fn unescape(s: &[u8]) -> Result<Vec<u8>, (utf8_status, usize)> {
    let mut needed = usize::MAX;
    // SAFETY: (NULL, 0) is a size query; `s` and `needed` are live.
    let status =
        unsafe { utf8_unescape(s.as_ptr().cast(), s.len(), ptr::null_mut(), 0, &mut needed) };
    if status == UTF8_ERR_INVALID_ESCAPE {
        return Err((status, needed));
    }
    let mut out = vec![0u8; needed];
    let mut n = usize::MAX;
    // SAFETY: `out` has `needed` writable bytes.
    let status = unsafe {
        utf8_unescape(
            s.as_ptr().cast(),
            s.len(),
            out.as_mut_ptr().cast(),
            out.len(),
            &mut n,
        )
    };
    assert_eq!((status, n), (UTF8_OK, needed), "unescape of {s:02X?}");
    Ok(out)
}

/// The issue's safety requirement, checked independently of the library: valid UTF-8
/// (`core::str::from_utf8`), and no C0 or C1 control, DEL or bidirectional control.
fn assert_terminal_safe(escaped: &[u8], input: &[u8]) {
    let text = core::str::from_utf8(escaped)
        .unwrap_or_else(|e| panic!("escape of {input:02X?} is not UTF-8: {e}"));
    for c in text.chars() {
        let bidi = ('\u{202A}'..='\u{202E}').contains(&c) || ('\u{2066}'..='\u{2069}').contains(&c);
        assert!(
            !c.is_control() && !bidi,
            "{c:?} in the escape of {input:02X?}: {text:?}"
        );
    }
}

/// Random bytes, mostly the ones that need care: controls, backslashes, quotes, high bytes.
fn hostile_bytes(rng: &mut Rng, len: usize) -> Vec<u8> {
    const PICKS: &[u8] =
        b"\\'\" $`!\n\t\x1b\x7f\x00\x01\xc2\x9b\x85\xe2\x80\xae\xa6\xff\xc3\xa9\xf0\x9fa~#{}";
    (0..len)
        .map(|_| match rng.below(3) {
            0 => rng.next() as u8,
            _ => PICKS[rng.below(PICKS.len())],
        })
        .collect()
}

#[test]
fn c_style_round_trips_over_random_bytes_and_text() {
    let mut rng = Rng::new(0x5EED_E001);
    for _ in 0..common::iterations(20_000) {
        let len = rng.below(40);
        let s = match rng.below(3) {
            0 => hostile_bytes(&mut rng, len),
            1 => (0..len).map(|_| rng.next() as u8).collect(),
            _ => {
                let mut t = rng.text(len);
                rng.mutate(&mut t);
                t
            }
        };
        let escaped = escape(&s, C);
        assert_terminal_safe(&escaped, &s);
        assert_eq!(
            unescape(&escaped),
            Ok(s.clone()),
            "{s:02X?} escaped as {escaped:02X?}"
        );
        assert_terminal_safe(&escape(&s, SHELL), &s);
    }
}

#[test]
fn valid_printable_text_is_unchanged() {
    let mut rng = Rng::new(0x5EED_E002);
    for _ in 0..common::iterations(2_000) {
        let text: String = (0..rng.below(200))
            .map(|_| rng.scalar())
            .filter(|&c| {
                !c.is_control()
                    && c != '\\'
                    && !('\u{202A}'..='\u{202E}').contains(&c)
                    && !('\u{2066}'..='\u{2069}').contains(&c)
            })
            .collect();
        assert_eq!(escape(text.as_bytes(), C), text.as_bytes());
    }
}

#[test]
fn c_style_writes_each_terminal_control_as_specified() {
    let cases: &[(&[u8], &str)] = &[
        (b"\x1b", r"\x1b"),
        (b"\x1b[31mred", r"\x1b[31mred"),
        (b"\xc2\x9b31m", r"\u{009b}31m"),
        (b"\x9b31m", r"\x9b31m"),
        (b"\x07", r"\a"),
        (b"\r", r"\r"),
        (b"\x08", r"\b"),
        (b"\x7f", r"\x7f"),
        (b"a\\b", r"a\\b"),
        (b"it's \"a\" b\nc", r#"it's "a" b\nc"#),
        (b"\x00\t\x0b\x0c", r"\x00\t\v\f"),
        ("\u{202E}evil\u{2066}".as_bytes(), r"\u{202e}evil\u{2066}"),
        (
            "caf\u{E9} \u{20AC} \u{1F600}".as_bytes(),
            "caf\u{E9} \u{20AC} \u{1F600}",
        ),
        // Each byte of each maximal subpart: E0 80 is two subparts, F4 90 80 80 four.
        (
            b"\xe0\x80x\xf4\x90\x80\x80\xed\xa0\x80\xf0\x9f\x98",
            r"\xe0\x80x\xf4\x90\x80\x80\xed\xa0\x80\xf0\x9f\x98",
        ),
    ];
    for &(input, expected) in cases {
        assert_eq!(
            String::from_utf8(escape(input, C)).unwrap(),
            expected,
            "{input:02X?}"
        );
    }
    let named = [
        (7, 'a'),
        (8, 'b'),
        (9, 't'),
        (10, 'n'),
        (11, 'v'),
        (12, 'f'),
        (13, 'r'),
    ];
    for byte in (0u8..0x20).chain([0x7F]) {
        let expected = match named.iter().find(|&&(b, _)| b == byte) {
            Some(&(_, name)) => format!("\\{name}"),
            None => format!("\\x{byte:02x}"),
        };
        assert_eq!(escape(&[byte], C), expected.as_bytes());
    }
    for cp in (0x80..=0x9F).chain(0x202A..=0x202E).chain(0x2066..=0x2069) {
        let c = char::from_u32(cp).unwrap();
        assert_eq!(
            escape(c.to_string().as_bytes(), C),
            format!("\\u{{{cp:04x}}}").as_bytes()
        );
    }
}

#[test]
fn unescape_reads_the_documented_escapes_and_copies_other_bytes() {
    let ok: &[(&[u8], &[u8])] = &[
        (br"\\\n\t\r\a\b\f\v", b"\\\n\t\r\x07\x08\x0c\x0b"),
        (br"\x41\xFF\xfe\x00", b"A\xff\xfe\x00"),
        (
            br"\u{00e9}\u{202E}\u{FFFD}",
            "\u{E9}\u{202E}\u{FFFD}".as_bytes(),
        ),
        // Lenient outside escapes: raw ill-formed bytes and controls pass through.
        (b"\xff\x01\x1b[\xc3", b"\xff\x01\x1b[\xc3"),
        (b"", b""),
    ];
    for &(input, expected) in ok {
        assert_eq!(unescape(input), Ok(expected.to_vec()), "{input:02X?}");
    }
    let bad: &[(&[u8], usize)] = &[
        (br"\", 0),
        (br"ab\q", 2),
        (br"\X41", 0),
        (br"\x4", 0),
        (br"\xg1", 0),
        (br"ok\x41\u{12}", 6),
        (br"\u{d800}", 0),
        (br"\u{DFFF}", 0),
        (br"\u1234", 0),
        (br"\u{12345}", 0),
        (br"\u{1234", 0),
        (br"\0", 0),
        (br"\e", 0),
        (b"\\\xc3\xa9", 0),
    ];
    for &(input, at) in bad {
        assert_eq!(
            unescape(input),
            Err((UTF8_ERR_INVALID_ESCAPE, at)),
            "{input:02X?}"
        );
    }
}

/// Runs `words` through the shell `command` (its program and arguments, before `-c`), each as
/// an argument of `printf %s`, and returns what the shell printed for each; `None` if it is not
/// installed.
fn shell_words(command: &[&str], words: &[Vec<u8>]) -> Option<Vec<Vec<u8>>> {
    use std::os::unix::ffi::OsStrExt;
    if !on_path(command[0]) {
        return None;
    }
    let mut script = b"set -eu\n".to_vec();
    for w in words {
        script.extend_from_slice(b"printf '%s\\0' ");
        script.extend_from_slice(w);
        script.push(b'\n');
    }
    let out = Command::new(command[0])
        .args(&command[1..])
        .arg("-c")
        .arg(std::ffi::OsStr::from_bytes(&script))
        .env("LC_ALL", "C")
        .env_remove("ENV")
        .output()
        .ok()?;
    assert!(
        out.status.success(),
        "{}: {}",
        command.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
    let mut parts: Vec<Vec<u8>> = out.stdout.split(|&b| b == 0).map(<[u8]>::to_vec).collect();
    assert_eq!(parts.pop(), Some(Vec::new()), "output ends with a NUL");
    Some(parts)
}

/// Whether `program` is a file in one of `PATH`'s directories. Looked up before the spawn:
/// under QEMU's user-mode emulation (the big-endian tests), spawning a program that is not
/// installed does not fail; the child exits with status 127, which would pass for the shell's
/// own failure.
fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join(program).is_file()))
}

/// Escapes the hostile names in the shell style and has the shell `command` read each word
/// back, which must give the name. False if the shell is not installed.
fn shell_reads_back(command: &[&str]) -> bool {
    let names = hostile_names();
    let words: Vec<Vec<u8>> = names.iter().map(|n| escape(n, SHELL)).collect();
    for (n, w) in names.iter().zip(&words) {
        assert_terminal_safe(w, n);
    }
    let Some(parsed) = shell_words(command, &words) else {
        return false;
    };
    assert_eq!(parsed.len(), names.len(), "{}", command.join(" "));
    for ((name, word), back) in names.iter().zip(&words).zip(&parsed) {
        assert_eq!(
            back,
            name,
            "{}: {name:02X?} written as {}",
            command.join(" "),
            String::from_utf8_lossy(word)
        );
    }
    true
}

fn hostile_names() -> Vec<Vec<u8>> {
    let mut names: Vec<Vec<u8>> = [
        &b"plain"[..],
        b"",
        b"a b",
        b"it's",
        b"a\"b",
        b"a$b",
        b"a\\b",
        b"a\nb",
        b"\x1b[31m",
        b"\xc2\x9b",
        b"\x9b",
        b"\x07\x08\r\x7f",
        b"'",
        b"''",
        b"a'\n",
        b"\x01a'\n",
        b"\n'",
        b"'!",
        b"#x",
        b"x#",
        b"~x",
        b"{",
        b"}",
        b"{}",
        b"x{a,b}",
        b"{1..3}",
        b"a{,}b",
        b"}{a,b",
        b"-n",
        b"--",
        b"a=b",
        b"*",
        b"?",
        b"[a]",
        b"$(reboot)",
        b"`id`",
        b"a;b|c&d",
        b"\xff\xfe",
        b"caf\xc3\xa9",
        b"\xe2\x80\xae.txt",
        b"\xe2\x81\xa6x\xe2\x81\xa9",
        b"\xc3",
        b"e\xcc\x81",
        b" ",
        b"\t",
        b"!",
        b"a'b\"c",
    ]
    .iter()
    .map(|n| n.to_vec())
    .collect();
    names.extend((1u8..0x20).map(|b| vec![b]));
    names.extend((0x80u32..0xA0).map(|cp| char::from_u32(cp).unwrap().to_string().into_bytes()));
    names.extend(
        (0x202Au32..=0x202E)
            .chain(0x2066..=0x2069)
            .map(|cp| format!("a{}b", char::from_u32(cp).unwrap()).into_bytes()),
    );
    let mut rng = Rng::new(0x5EED_E003);
    for _ in 0..common::or_under_miri(3_000, 0) {
        let len = 1 + rng.below(12);
        let mut n = hostile_bytes(&mut rng, len);
        n.retain(|&b| b != 0);
        names.push(n);
    }
    names
}

#[test]
#[cfg_attr(miri, ignore = "runs bash")]
fn shell_style_is_parsed_back_by_bash_into_the_original_bytes() {
    if !shell_reads_back(&["bash", "--norc"]) {
        eprintln!("bash not found: skipped");
    }
}

/// The shells besides bash that read `$'...'` (POSIX.1-2024's dollar-single-quotes), as the
/// documentation of UTF8_ESCAPE_SHELL names them. Not dash (0.5.12 has no `$'...'`), nor `ksh`,
/// a name some systems give to a shell without it.
/// zsh runs in sh emulation, as documented: natively it takes a `}` ending a word for the end
/// of a group.
const OTHER_SHELLS: &[&[&str]] = &[
    &["zsh", "--emulate", "sh", "-f"],
    &["mksh"],
    &["ksh93"],
    &["busybox", "sh"],
];

#[test]
#[cfg_attr(miri, ignore = "runs shells")]
fn shell_style_is_parsed_back_by_the_other_shells_with_dollar_single_quotes() {
    let mut found = 0;
    for command in OTHER_SHELLS {
        if shell_reads_back(command) {
            found += 1;
        } else {
            eprintln!("{} not found: skipped", command.join(" "));
        }
    }
    if found == 0 {
        eprintln!("none of zsh, mksh, ksh93, busybox installed: read back by bash alone");
    }
}

#[test]
fn shell_style_examples() {
    // As GNU ls 9.1 --quoting-style=shell-escape writes them (in the C.UTF-8 locale).
    let cases: &[(&[u8], &str)] = &[
        (b"plain", "plain"),
        (b"", "''"),
        (b"a b", "'a b'"),
        (b"it's", "\"it's\""),
        (b"a b'", "\"a b'\""),
        (b"a'b\"c", r#"'a'\''b"c'"#),
        (b"a'$", r"'a'\''$'"),
        (b"'!", r"''\''!'"),
        (b"a\nb", r"'a'$'\n''b'"),
        (b"\x1b[31m", r"''$'\033''[31m'"),
        (b"a\x7fb", r"'a'$'\177''b'"),
        (b"\xff", r"''$'\377'"),
        (b"\xc2\x85", r"''$'\302\205'"),
        (b"\x07\x08\x0c\x0b\x0d", r"''$'\a\b\f\v\r'"),
        (b"\n'", r"''$'\n'\'''"),
        (b"a\n'b", r"'a'$'\n'\''b'"),
        (b"#x", "'#x'"),
        (b"x#", "x#"),
        (b"~x", "'~x'"),
        (b"x~", "x~"),
        (b"{", "'{'"),
        (b"{}", "{}"),
        (b"a{b", "a{b"),
        (b"x=y", "'x=y'"),
        (b"a%+,-./:@]_b", "a%+,-./:@]_b"),
        (b"-n", "-n"),
        (b"#'", "\"#'\""),
        (b"a#'", r"'a#'\'''"),
        (b"a{'", r"'a{'\'''"),
        (b"a]'", "\"a]'\""),
        ("caf\u{E9}".as_bytes(), "caf\u{E9}"),
        ("\u{E9}'".as_bytes(), "\"\u{E9}'\""),
        (b"a\xc3", r"'a'$'\303'"),
        (b"\xc3\xa9\xff", "'\u{E9}'$'\\377'"),
        // Not ls, which leaves them unquoted: words a shell reads as a brace expansion.
        (b"x{a,b}", "'x{a,b}'"),
        (b"{1..3}", "'{1..3}'"),
        (b"it's{a,b}", "\"it's{a,b}\""),
        (b"}{a,b", "}{a,b"),
        // Not ls (which follows the locale's iswprint): bidirectional controls are escaped.
        (b"\xe2\x80\xae", r"''$'\342\200\256'"),
    ];
    for &(input, expected) in cases {
        assert_eq!(
            String::from_utf8(escape(input, SHELL)).unwrap(),
            expected,
            "{input:02X?}"
        );
    }
}

/// GNU ls, where installed, as an oracle: names made of characters that ls and this library
/// treat alike (ls follows the locale, so no bidirectional control or unassigned character).
#[test]
#[cfg_attr(miri, ignore = "runs ls")]
fn shell_style_matches_gnu_ls() {
    use std::os::unix::ffi::OsStrExt;
    let dir = std::env::temp_dir().join(format!("libutf8-escape-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut names: Vec<Vec<u8>> = hostile_names()
        .into_iter()
        .filter(|n| {
            let printable_alike = String::from_utf8_lossy(n)
                .chars()
                .all(|c| c.is_ascii() || matches!(c, '\u{80}'..='\u{9F}' | '\u{E9}' | '\u{FFFD}'));
            // ls leaves brace expansions (`x{a,b}`) unquoted: no name with both braces.
            let braces = n.contains(&b'{') && n.contains(&b'}');
            !n.is_empty()
                && !n.contains(&b'/')
                && n != b"."
                && n != b".."
                && printable_alike
                && !braces
        })
        .collect();
    names.sort();
    names.dedup();
    let mut args = vec![];
    for n in &names {
        let path = dir.join(std::ffi::OsStr::from_bytes(n));
        std::fs::write(&path, b"").unwrap();
        args.push(path);
    }
    // Skipped only where ls lacks the style; once it has it, a failing run fails the test.
    let probe = Command::new("ls")
        .args(["-d", "--quoting-style=shell-escape", "/"])
        .output();
    if !probe.is_ok_and(|o| o.status.success()) {
        std::fs::remove_dir_all(&dir).unwrap();
        eprintln!("no GNU ls with --quoting-style=shell-escape: skipped");
        return;
    }
    let out = Command::new("ls")
        .args(["-1dU", "--quoting-style=shell-escape", "--"])
        .args(&args)
        .env("LC_ALL", "C.UTF-8")
        .output();
    std::fs::remove_dir_all(&dir).unwrap();
    let out = out.expect("ls ran before");
    assert!(out.status.success(), "ls failed: {out:?}");
    // ls quotes the whole path; the directory part is plain, so the name follows it.
    let prefix = format!("{}/", dir.display()).into_bytes();
    let lines: Vec<&[u8]> = out
        .stdout
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .collect();
    assert_eq!(lines.len(), names.len());
    for (name, line) in names.iter().zip(lines) {
        let ours = escape(&[&prefix[..], name].concat(), SHELL);
        // ls sometimes starts with a redundant '' (state left over from its scan for a
        // double-quotable form, when the name holds ' and ends in an escape): the same word.
        let ls = line
            .strip_prefix(b"''")
            .filter(|l| l.starts_with(b"'") && !ours.starts_with(b"''"))
            .unwrap_or(line);
        assert_eq!(
            String::from_utf8_lossy(&ours),
            String::from_utf8_lossy(ls),
            "{name:02X?}"
        );
    }
}

#[test]
fn too_small_buffers_report_the_size_needed_and_bad_arguments_are_refused() {
    let mut rng = Rng::new(0x5EED_E004);
    for _ in 0..common::iterations(300) {
        let len = rng.below(30);
        let s = hostile_bytes(&mut rng, len);
        for style in [C, SHELL] {
            let full = escape(&s, style);
            // Every capacity short of the size (under Miri every 5th, from one short).
            for cap in (0..full.len()).rev().step_by(common::or_under_miri(1, 5)) {
                let mut buf = vec![0u8; cap];
                let mut n = usize::MAX;
                // SAFETY: `buf` has `cap` writable bytes.
                let status = unsafe {
                    utf8_escape(
                        s.as_ptr().cast(),
                        s.len(),
                        EscapeStyleArg(style),
                        buf.as_mut_ptr().cast(),
                        cap,
                        &mut n,
                    )
                };
                assert_eq!((status, n), (UTF8_ERR_BUFFER_TOO_SMALL, full.len()));
            }
        }
        let escaped = escape(&s, C);
        for cap in (0..s.len()).rev().step_by(common::or_under_miri(1, 5)) {
            let mut buf = vec![0u8; cap];
            let mut n = usize::MAX;
            // SAFETY: `buf` has `cap` writable bytes.
            let status = unsafe {
                utf8_unescape(
                    escaped.as_ptr().cast(),
                    escaped.len(),
                    buf.as_mut_ptr().cast(),
                    cap,
                    &mut n,
                )
            };
            assert_eq!((status, n), (UTF8_ERR_BUFFER_TOO_SMALL, s.len()));
        }
    }
    let mut n = 5usize;
    let mut buf = [0u8; 8];
    let a: *const c_char = b"a".as_ptr().cast();
    // SAFETY: the pointers are live or NULL with a length that makes the call refuse them.
    unsafe {
        for bad in [2, -1, i32::MAX] {
            assert_eq!(
                utf8_escape(
                    a,
                    1,
                    EscapeStyleArg(bad),
                    buf.as_mut_ptr().cast(),
                    8,
                    &mut n
                ),
                UTF8_ERR_INVALID_ARGUMENT
            );
        }
        assert_eq!(
            utf8_escape(
                ptr::null(),
                1,
                EscapeStyleArg(C),
                buf.as_mut_ptr().cast(),
                8,
                &mut n
            ),
            UTF8_ERR_NULL_POINTER
        );
        assert_eq!(
            utf8_escape(a, 1, EscapeStyleArg(C), ptr::null_mut(), 8, &mut n),
            UTF8_ERR_NULL_POINTER
        );
        assert_eq!(
            utf8_unescape(ptr::null(), 1, buf.as_mut_ptr().cast(), 8, &mut n),
            UTF8_ERR_NULL_POINTER
        );
        assert_eq!(
            utf8_unescape(a, 1, ptr::null_mut(), 8, &mut n),
            UTF8_ERR_NULL_POINTER
        );
        assert_eq!(n, 5);
        assert_eq!(
            utf8_escape(
                ptr::null(),
                0,
                EscapeStyleArg(SHELL),
                buf.as_mut_ptr().cast(),
                8,
                &mut n
            ),
            UTF8_OK
        );
        assert_eq!((n, &buf[..2]), (2, &b"''"[..]));
        assert_eq!(
            utf8_unescape(ptr::null(), 0, ptr::null_mut(), 0, ptr::null_mut()),
            UTF8_OK
        );
    }
}

/// The worst-case output size of each style for `len` input bytes, as the header's
/// UTF8_ESCAPE_C_MAX_LEN and UTF8_ESCAPE_SHELL_MAX_LEN give it, derived from the escapes
/// libutf8(3) lists, not from the library's output. C: at most 4 bytes per input byte (`\xHH`
/// per ill-formed byte, C0 control or DEL; `\u{HHHH}` for a C1 control of 2 bytes or a
/// bidirectional control of 3). Shell: the 2 quotes around the word, at most 4 bytes per input
/// byte (`\ooo`, or `'\''` for a quote), and 3 (`'$'`) per `$'...'` segment, of which there
/// is at most one per two input bytes.
fn worst_case(style: i32, len: usize) -> usize {
    match style {
        C => 4 * len,
        _ => 2 + 4 * len + 3 * len.div_ceil(2),
    }
}

/// An input of `len` bytes that reaches the bound of `style`: ill-formed bytes (C), or an
/// ill-formed byte and a quote in turn, so that every byte opens a `$'...'` segment or closes
/// one with `'\''` (shell).
fn worst_input(style: i32, len: usize) -> Vec<u8> {
    (0..len)
        .map(|i| {
            if style == SHELL && i % 2 == 1 {
                b'\''
            } else {
                0x80
            }
        })
        .collect()
}

#[test]
fn the_documented_worst_case_sizes_are_reached() {
    for style in [C, SHELL] {
        for len in 0..=common::or_under_miri(300, 7) {
            let s = worst_input(style, len);
            assert_eq!(
                escape(&s, style).len(),
                worst_case(style, len),
                "{style} {s:02X?}"
            );
        }
        // Other inputs that reach the C bound: C0 controls without a name, DEL, C1 controls.
        if style == C {
            for s in [
                &b"\x01\x7F\x1B"[..],
                b"\xC2\x85\xC2\x9B",
                b"\x80\xC2\x80\x00",
            ] {
                assert_eq!(escape(s, C).len(), worst_case(C, s.len()), "{s:02X?}");
            }
        }
    }
}

#[test]
fn no_input_exceeds_the_documented_worst_case_size() {
    let mut rng = Rng::new(0xE5CA9E);
    // Bytes that the styles escape or quote, to make long outputs likely, and any byte.
    let heavy: &[&[u8]] = &[
        b"\x80",
        b"'",
        b"\x01",
        b"\n",
        b"\\",
        b"\xC2\x85",
        b"\xE2\x80\xAE",
        b"\xE2\x80",
        b"a",
        b" ",
        b"$",
        b"#",
        b"{",
        b"}",
        b",",
        b"\xF0\x9F\x98\x80",
        b"\xFF",
        b"\x7F",
    ];
    for _ in 0..common::iterations(20_000) {
        let len = rng.below(80);
        let mut s = Vec::with_capacity(len + 4);
        while s.len() < len {
            if rng.below(4) == 0 {
                s.push(rng.next() as u8);
            } else {
                s.extend_from_slice(heavy[rng.below(heavy.len())]);
            }
        }
        for style in [C, SHELL] {
            let n = escape(&s, style).len();
            assert!(
                n <= worst_case(style, s.len()),
                "{style}: {n} bytes for {s:02X?}"
            );
        }
    }
    // Every input of 1 and 2 bytes, and every sequence of three heavy pieces (not under Miri:
    // too many to interpret).
    if cfg!(miri) {
        return;
    }
    let mut inputs: Vec<Vec<u8>> = (0..1usize << 16)
        .flat_map(|n| [vec![n as u8], vec![n as u8, (n >> 8) as u8]])
        .collect();
    for a in heavy {
        for b in heavy {
            for c in heavy {
                inputs.push([*a, *b, *c].concat());
            }
        }
    }
    for s in &inputs {
        for style in [C, SHELL] {
            let n = escape(s, style).len();
            assert!(
                n <= worst_case(style, s.len()),
                "{style}: {n} bytes for {s:02X?}"
            );
        }
    }
}
