//! Escaping arbitrary bytes (file names, arguments) for terminals and shells, and back.
//!
//! Both styles write valid UTF-8 with no C0 or C1 control, no DEL and no bidirectional
//! embedding, override or isolate control: nothing a terminal interprets, nothing that
//! reorders whole stretches of the text around it (the implicit marks LRM, RLM and ALM, which
//! can only move neutral characters next to them, are text like any other). Input is
//! cut into pieces by the fast validator: well-formed stretches with no byte the style must
//! look at are copied in bulk; the rest goes one character or one maximal subpart at a time.

use crate::scalar::decode::decode_next;
use crate::scalar::encode::encode;
use crate::sink::Sink;
use crate::validate::validate;

/// How [`escape`] writes its output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EscapeStyle {
    /// C-like escapes that [`unescape`] reverses: `\\`, `\n`, `\t`, `\r`, `\a`, `\b`, `\f`,
    /// `\v`, `\xHH` (each byte of an ill-formed sequence, other C0 controls, DEL) and
    /// `\u{HHHH}` (C1 and bidirectional controls), hex digits in lower case.
    C,
    /// A word a shell with POSIX.1-2024's `$'...'` (bash, ksh93, mksh, busybox sh, zsh as sh; not
    /// dash) reads back as the original bytes, as GNU `ls --quoting-style=shell-escape` writes it.
    Shell,
}

/// Whether a terminal or a bidirectional text renderer acts on the scalar value `cp`: C0
/// controls, DEL, C1 controls, and the bidirectional embedding, override and isolate controls
/// (U+202A..U+202E, U+2066..U+2069; Unicode Standard Annex #9).
pub fn is_terminal_control(cp: u32) -> bool {
    matches!(cp, 0..=0x1F | 0x7F..=0x9F | 0x202A..=0x202E | 0x2066..=0x2069)
}

/// A piece of the input, in order.
#[derive(Clone, Copy)]
enum Piece<'a> {
    /// Well-formed text none of whose bytes the style flags.
    Plain(&'a [u8]),
    /// A well-formed character whose first byte the style flags, and its scalar value.
    Char(&'a [u8], u32),
    /// The maximal subpart of an ill-formed sequence.
    Bad(&'a [u8]),
}

/// Cuts `s` into pieces: runs of well-formed text with no byte in `flagged`, each character
/// that starts with one, and each maximal subpart of an ill-formed sequence.
fn for_each_piece(s: &[u8], flagged: &[bool; 256], mut f: impl FnMut(Piece<'_>)) {
    let mut rest = s;
    while !rest.is_empty() {
        let (valid, bad) = match validate(rest) {
            Ok(()) => (rest.len(), 0),
            Err(e) => (e.valid_up_to, e.error_len.max(1)),
        };
        let (mut text, tail) = rest.split_at(valid.min(rest.len()));
        while !text.is_empty() {
            let plain = text
                .iter()
                .position(|&b| flagged[usize::from(b)])
                .unwrap_or(text.len());
            let (run, flagged_char) = text.split_at(plain);
            if !run.is_empty() {
                f(Piece::Plain(run));
            }
            // `text` is well-formed, so this decodes one character.
            let (cp, width) = decode_next(flagged_char).unwrap_or((0, flagged_char.len()));
            let (c, after) = flagged_char.split_at(width.min(flagged_char.len()));
            if !c.is_empty() {
                f(Piece::Char(c, cp));
            }
            text = after;
        }
        let (b, after) = tail.split_at(bad.min(tail.len()));
        if !b.is_empty() {
            f(Piece::Bad(b));
        }
        rest = after;
    }
}

/// A table of the bytes in `bytes`, the C0 controls, DEL, and the lead bytes of the C1
/// controls (C2) and of the bidirectional controls (E2).
const fn flag_table(bytes: &[u8]) -> [bool; 256] {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 0x20 {
        t[i] = true;
        i += 1;
    }
    t[0x7F] = true;
    t[0xC2] = true;
    t[0xE2] = true;
    let mut j = 0;
    while j < bytes.len() {
        t[bytes[j] as usize] = true;
        j += 1;
    }
    t
}

/// The bytes [`EscapeStyle::C`] looks at.
static C_FLAGGED: [bool; 256] = flag_table(b"\\");

/// The characters a POSIX shell (or bash) treats specially somewhere in a word, as GNU quotearg
/// lists them, but the space: these force quoting (`#` and `~` only first, `{` and `}` only
/// alone or around a brace expansion). A space forces quoting too, but is harmless in double
/// quotes: it is looked for apart, so that runs of text with spaces stay whole.
const SHELL_SPECIAL: &[u8] = b"!\"#$&'()*;<=>?[\\^`{|}~";

/// The bytes [`EscapeStyle::Shell`] looks at to choose the quoting.
static SHELL_FLAGGED: [bool; 256] = flag_table(SHELL_SPECIAL);

/// The bytes [`EscapeStyle::Shell`] looks at inside single quotes.
static SINGLE_QUOTED_FLAGGED: [bool; 256] = flag_table(b"'");

/// The C0 controls with a named C escape, as both styles write them: (control, name).
const NAMED: [(u8, u8); 7] = [
    (0x07, b'a'),
    (0x08, b'b'),
    (0x09, b't'),
    (0x0A, b'n'),
    (0x0B, b'v'),
    (0x0C, b'f'),
    (0x0D, b'r'),
];

/// The name of the C escape of `control`, if it has one.
fn named_escape(control: u8) -> Option<u8> {
    NAMED.iter().find(|&&(c, _)| c == control).map(|&(_, n)| n)
}

const HEX: &[u8; 16] = b"0123456789abcdef";

/// Writes `s` escaped in `style` to `out`.
pub fn escape(s: &[u8], style: EscapeStyle, out: &mut Sink<'_, u8>) {
    match style {
        EscapeStyle::C => escape_c(s, out),
        EscapeStyle::Shell => escape_shell(s, out),
    }
}

fn escape_c(s: &[u8], out: &mut Sink<'_, u8>) {
    let hex_byte = |out: &mut Sink<'_, u8>, b: u8| {
        out.push(&[
            b'\\',
            b'x',
            HEX[usize::from(b >> 4)],
            HEX[usize::from(b & 15)],
        ]);
    };
    for_each_piece(s, &C_FLAGGED, |piece| match piece {
        Piece::Plain(run) => out.push(run),
        Piece::Char(b"\\", _) => out.push(b"\\\\"),
        Piece::Char(&[byte], _) if byte < 0x20 || byte == 0x7F => match named_escape(byte) {
            Some(name) => out.push(&[b'\\', name]),
            None => hex_byte(out, byte),
        },
        Piece::Char(_, cp) if is_terminal_control(cp) => {
            let digit = |shift: u32| HEX[(cp >> shift & 15) as usize];
            out.push(&[
                b'\\',
                b'u',
                b'{',
                digit(12),
                digit(8),
                digit(4),
                digit(0),
                b'}',
            ]);
        }
        Piece::Char(c, _) => out.push(c),
        Piece::Bad(bytes) => bytes.iter().for_each(|&b| hex_byte(out, b)),
    });
}

/// Writes `s` as a shell word, in the least quoting that serves: as it is if no character
/// needs quoting; in double quotes if it holds `'` and nothing else a shell treats specially
/// but spaces, and `#`, `~`, `{`, `}` where they are special (`{` and `}` alone, or around a
/// `,` or `..`: a brace expansion); otherwise in single quotes, with
/// `'\''` for each `'` and `$'...'` segments for what a terminal would act on or is not UTF-8.
fn escape_shell(s: &[u8], out: &mut Sink<'_, u8>) {
    if s.is_empty() {
        out.push(b"''");
        return;
    }
    // Quotes are needed for a special character (`#` and `~` only first, `{` and `}` only
    // alone or around a brace expansion), a control or an ill-formed sequence. Double quotes serve if the word holds `'`
    // and nothing else special but spaces and `#`, `~`, `{`, `}` where they are special: as
    // quotearg decides, a `#` that needs no quotes still rules them out.
    let brace_expansion = may_brace_expand(s);
    let (mut needs_quotes, mut double_ok, mut single_quote) = (s.contains(&b' '), true, false);
    let mut offset = 0;
    for_each_piece(s, &SHELL_FLAGGED, |piece| {
        let (len, needs, compatible) = match piece {
            Piece::Plain(run) => (run.len(), false, true),
            Piece::Char(b"'", _) => {
                single_quote = true;
                (1, true, true)
            }
            Piece::Char(b"#" | b"~", _) => (1, offset == 0, offset == 0),
            Piece::Char(b"{" | b"}", _) => {
                let special = s.len() == 1 || brace_expansion;
                (1, special, special)
            }
            Piece::Char(c, cp) => {
                let special = matches!(c, &[b] if SHELL_SPECIAL.contains(&b));
                let quote = special || is_terminal_control(cp);
                (c.len(), quote, !quote)
            }
            Piece::Bad(bytes) => (bytes.len(), true, false),
        };
        offset += len;
        needs_quotes |= needs;
        double_ok &= compatible;
    });
    if !needs_quotes {
        out.push(s);
    } else if single_quote && double_ok {
        out.push(b"\"");
        out.push(s);
        out.push(b"\"");
    } else {
        escape_shell_single(s, out);
    }
}

/// Whether bash, zsh or mksh could read `s`, unquoted, as a brace expansion: a `{` followed by
/// a `,` or `..` and then a `}` (`x{a,b}` is two words, `xa xb`, and `{1..3}` three). GNU ls
/// leaves such words unquoted; this quotes them. A lone `{}` or `a{b` stays as it is.
fn may_brace_expand(s: &[u8]) -> bool {
    let open = s.iter().position(|&b| b == b'{');
    let close = s.iter().rposition(|&b| b == b'}');
    let inside = match (open, close) {
        (Some(open), Some(close)) => s.get(open + 1..close).unwrap_or_default(),
        _ => return false,
    };
    inside.contains(&b',') || inside.windows(2).any(|w| w == b"..")
}

/// `s` in single quotes, with `'\''` for `'` and `$'...'` segments of C escapes (octal, as
/// GNU ls writes them) for each byte of what must not appear literally.
///
/// GNU ls (coreutils 9.1) differs in two slips, both for words that hold `'` and need a `$'...'`
/// segment, where its quotearg reuses state from a first scan: a redundant leading `''` when
/// the word ends in an escape, and, when it also starts with one, that escape written inside
/// plain single quotes (`'\001''a'\'''$'\n'` for 01 61 27 0A, which a shell reads with a literal
/// backslash). This writes what ls means there: `'\''` and `$'...'` as everywhere else.
fn escape_shell_single(s: &[u8], out: &mut Sink<'_, u8>) {
    // Whether a `$'...'` segment is open; literal text then needs a new `'...'` segment.
    let mut in_dollar = false;
    out.push(b"'");
    let literal = |out: &mut Sink<'_, u8>, in_dollar: &mut bool, text: &[u8]| {
        if *in_dollar {
            out.push(b"''");
            *in_dollar = false;
        }
        out.push(text);
    };
    let escaped = |out: &mut Sink<'_, u8>, in_dollar: &mut bool, bytes: &[u8]| {
        if !*in_dollar {
            out.push(b"'$'");
            *in_dollar = true;
        }
        for &b in bytes {
            match named_escape(b) {
                Some(name) => out.push(&[b'\\', name]),
                None => out.push(&[b'\\', b'0' + (b >> 6), b'0' + (b >> 3 & 7), b'0' + (b & 7)]),
            }
        }
    };
    for_each_piece(s, &SINGLE_QUOTED_FLAGGED, |piece| match piece {
        Piece::Plain(run) => literal(out, &mut in_dollar, run),
        Piece::Char(b"'", _) => {
            // Closes the open segment, whichever it is, and opens a '...' one.
            out.push(b"'\\''");
            in_dollar = false;
        }
        Piece::Char(c, cp) if is_terminal_control(cp) => escaped(out, &mut in_dollar, c),
        Piece::Char(c, _) => literal(out, &mut in_dollar, c),
        Piece::Bad(bytes) => escaped(out, &mut in_dollar, bytes),
    });
    out.push(b"'");
}

/// Where [`unescape`] found something that is not an escape sequence [`escape`] writes: the
/// offset of its backslash.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InvalidEscape {
    /// The offset in the input of the backslash that starts the bad escape.
    pub at: usize,
}

/// Writes to `out` the bytes that `s`, written by [`escape`] in [`EscapeStyle::C`], stands
/// for: `unescape(escape(x)) == x` for every byte string `x`.
///
/// Escapes are read as [`EscapeStyle::C`] writes them, with either case of hex digit: `\\`,
/// `\n`, `\t`, `\r`, `\a`, `\b`, `\f`, `\v`, `\x` and exactly two hex digits (any byte),
/// `\u{` exactly four hex digits `}` (any scalar value of the BMP but a surrogate, written as
/// UTF-8). Any other byte after a backslash, or a short or bad escape, is an
/// [`InvalidEscape`]. Bytes that are not part of an escape are copied as they are, ill-formed
/// UTF-8 and controls included.
pub fn unescape(s: &[u8], out: &mut Sink<'_, u8>) -> Result<(), InvalidEscape> {
    let mut at = 0;
    while at < s.len() {
        let rest = s.get(at..).unwrap_or_default();
        let plain = rest.iter().position(|&b| b == b'\\').unwrap_or(rest.len());
        out.push(rest.get(..plain).unwrap_or_default());
        at += plain;
        let Some(escape) = s.get(at..).filter(|e| !e.is_empty()) else {
            break;
        };
        let bad = InvalidEscape { at };
        let hex = |digits: &[u8]| -> Option<u32> {
            digits
                .iter()
                .try_fold(0u32, |v, &d| Some(v << 4 | char::from(d).to_digit(16)?))
        };
        let len = match escape.get(1).copied() {
            Some(b'\\') => {
                out.push(b"\\");
                2
            }
            Some(b'x') => {
                let value = escape.get(2..4).and_then(hex).ok_or(bad)?;
                out.push(&[value as u8]);
                4
            }
            Some(b'u') => {
                let value = match escape.get(2..8) {
                    Some([b'{', digits @ .., b'}']) => hex(digits),
                    _ => None,
                };
                let encoded = value.and_then(|v| encode(v).ok()).ok_or(bad)?;
                out.push(encoded.as_bytes());
                8
            }
            // A named control (\n, \t, ...); not an `if let` guard, which needs Rust 1.95.
            Some(name) => {
                let &(control, _) = NAMED.iter().find(|&&(_, n)| n == name).ok_or(bad)?;
                out.push(&[control]);
                2
            }
            None => return Err(bad),
        };
        at += len;
    }
    Ok(())
}
