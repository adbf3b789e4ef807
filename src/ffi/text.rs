//! Safe text for Unix tools (since 1.2): streaming validation, escaping, lossy copies and
//! character boundaries.

use core::ffi::{c_char, c_int};

use super::transcode::{UTF8_FALLBACK_CP1252, UTF8_FALLBACK_LATIN1, UTF8_REPLACE, mode_of};
use super::utf8_status::{self, *};
use super::{input, output, put, written};
use crate::escape::{self, EscapeStyle};
use crate::sink::Sink;
use crate::stream::{StreamError, StreamState};

/// The state of a streaming validation (utf8_stream_init, utf8_stream_feed,
/// utf8_stream_finish), allocated by the caller: no heap, no cleanup. Its contents are private.
/// A zero-filled struct (`utf8_stream st = {0};`, memset) is a stream at its start, exactly as
/// utf8_stream_init leaves it. Copying the struct copies the stream. A struct never written (an
/// uninitialised local, fresh malloc memory) is not a stream: its bytes are not even values to
/// check, so set it with one of those before the first utf8_stream_feed.
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct utf8_stream {
    /// Private: the position so far, the up to three bytes of a character split across chunks,
    /// and the first error.
    pub opaque: [u64; 2],
}

/// Sets `*st` to a stream at its start (all zero) (since 1.2). Does nothing if `st` is NULL.
///
/// # Safety
/// `st` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn utf8_stream_init(st: *mut utf8_stream) {
    // SAFETY: `st` is NULL or writable, by the caller's contract.
    unsafe { put(st, utf8_stream::default()) };
}

/// Runs `step` on the stream state at `st` and reports its result.
///
/// # Safety
/// `st` is NULL or valid for reads and writes, its bytes written; `valid_up_to` is NULL or
/// writable.
unsafe fn stream_step(
    st: *mut utf8_stream,
    valid_up_to: *mut usize,
    step: impl FnOnce(&mut StreamState) -> Result<u64, StreamError>,
) -> utf8_status {
    // SAFETY: `st` is NULL or valid for reads and writes, and its bytes initialised, by the
    // caller's contract.
    let Some(st) = (unsafe { st.as_mut() }) else {
        return UTF8_ERR_NULL_POINTER;
    };
    let Some(mut state) = StreamState::from_words(st.opaque) else {
        return UTF8_ERR_INVALID_ARGUMENT;
    };
    let (status, at) = match step(&mut state) {
        Ok(at) => (UTF8_OK, at),
        Err(e) => (utf8_status::from(e.kind), e.valid_up_to),
    };
    st.opaque = state.to_words();
    // SAFETY: `valid_up_to` is NULL or writable, by the caller's contract.
    unsafe { put(valid_up_to, usize::try_from(at).unwrap_or(usize::MAX)) };
    status
}

/// Validates the next `len` bytes at `chunk` of the stream `*st` (since 1.2).
///
/// Fails as soon as the bytes seen so far cannot begin well-formed UTF-8, with the status and
/// position utf8_validate would report for the whole stream. A character split across chunks
/// is not an error until it is proven one: a chunk that ends in F4 is fine, F4 then a chunk
/// starting with 90 is UTF8_ERR_TOO_LARGE. Every call after an error, utf8_stream_finish
/// included, returns that error and position again; utf8_stream_init starts over.
///
/// `*valid_up_to` is counted from the start of the stream: on UTF8_OK, the end of the last
/// complete character seen; on error, the offset of the ill-formed sequence. A position that
/// does not fit in size_t (a stream above 4 GiB on a 32-bit system) is reported as SIZE_MAX.
///
/// A NULL `st`, or a NULL `chunk` with `len > 0`, gives UTF8_ERR_NULL_POINTER and changes
/// nothing; `(NULL, 0)` is an empty chunk. A `*st` holding bytes that neither
/// utf8_stream_init, zeroing, nor these functions left (a state overwritten by mistake) gives
/// UTF8_ERR_INVALID_ARGUMENT and is left as it is (a check over its 16 bytes lets through one
/// such state in 2^24). A `*st` never written at all must not be passed (see utf8_stream).
///
/// # Safety
/// `st` is NULL or valid for reads and writes, its bytes written; `chunk` is NULL or points
/// to `len` readable bytes; `valid_up_to` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn utf8_stream_feed(
    st: *mut utf8_stream,
    chunk: *const c_char,
    len: usize,
    valid_up_to: *mut usize,
) -> utf8_status {
    // SAFETY: the caller's contract for `chunk` and `len` is the one `input` needs.
    let Some(bytes) = (unsafe { input(chunk, len) }) else {
        return UTF8_ERR_NULL_POINTER;
    };
    // SAFETY: the caller's contract for `st` and `valid_up_to` is the one `stream_step` needs.
    unsafe { stream_step(st, valid_up_to, |s| s.feed(bytes)) }
}

/// Ends the stream `*st` (since 1.2): UTF8_OK if everything fed is well-formed UTF-8, with
/// `*valid_up_to` its total length; UTF8_ERR_TRUNCATED if it ends inside a character, with
/// `*valid_up_to` the offset of that character; the first error again if there was one. The
/// TRUNCATED error is kept like any other. After UTF8_OK the stream is unchanged.
///
/// A NULL `st` gives UTF8_ERR_NULL_POINTER; a `*st` holding bytes that neither
/// utf8_stream_init, zeroing, nor these functions left gives UTF8_ERR_INVALID_ARGUMENT and is
/// left as it is (but for one such state in 2^24, as for utf8_stream_feed); one never written
/// must not be passed.
///
/// # Safety
/// `st` is NULL or valid for reads and writes, its bytes written; `valid_up_to` is NULL or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn utf8_stream_finish(
    st: *mut utf8_stream,
    valid_up_to: *mut usize,
) -> utf8_status {
    // SAFETY: the caller's contract for `st` and `valid_up_to` is the one `stream_step` needs.
    unsafe { stream_step(st, valid_up_to, StreamState::finish) }
}

/// How utf8_escape writes its output.
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum utf8_escape_style {
    /// C-like escapes, reversed by utf8_unescape.
    UTF8_ESCAPE_C = 0,
    /// A word for a shell with POSIX.1-2024's `$'...'` (bash, ksh93, mksh, busybox sh, zsh as sh;
    /// not dash), as GNU `ls --quoting-style=shell-escape` writes it.
    UTF8_ESCAPE_SHELL = 1,
}

/// A utf8_escape_style as C passes it: any int, since C enums can hold other values.
#[repr(transparent)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EscapeStyleArg(pub c_int);

impl EscapeStyleArg {
    fn style(self) -> Option<EscapeStyle> {
        match self.0 {
            0 => Some(EscapeStyle::C),
            1 => Some(EscapeStyle::Shell),
            _ => None,
        }
    }
}

/// Escapes the `len` bytes at `in` (any bytes: a file name, an argument) into `out` (since
/// 1.2), so that they can be printed safely: the output is valid UTF-8 and holds no C0 or C1
/// control, no DEL and no bidirectional embedding, override or isolate control (U+202A..U+202E,
/// U+2066..U+2069), nothing a terminal acts on. Well-formed printable text, ASCII or not, is
/// copied unchanged, and so are the implicit marks U+200E, U+200F and U+061C, which can only
/// move the neutral characters next to them.
///
/// UTF8_ESCAPE_C: `\` becomes `\\`; each byte of an ill-formed sequence becomes `\xHH`; a C0
/// control or DEL becomes `\n`, `\t`, `\r`, `\a`, `\b`, `\f`, `\v` or `\xHH`; a C1 or
/// bidirectional control becomes `\u{HHHH}`; hex digits are lower case. utf8_unescape reverses
/// it exactly, for every input.
///
/// UTF8_ESCAPE_SHELL: a word that a shell reads back as exactly the input, as GNU
/// `ls --quoting-style=shell-escape` writes it: unchanged if no character needs quoting (the
/// shell specials are space and ``!"$&'()*;<=>?[\^`|``, `#` and `~` first, `{` and `}` alone);
/// in double quotes if it holds `'` and no other special character but spaces and a first `#`
/// or `~` (as ls decides, a `#`, `~`, `{` or `}` elsewhere rules them out though it needs no
/// quoting there); otherwise in single quotes, with `'\''` for `'` and `$'...'` segments for
/// controls and ill-formed bytes (`\n`, `\t`, `\r`, `\a`, `\b`, `\f`, `\v` or three octal
/// digits per byte: `$'\033'`, `$'\377'`, `$'\342\200\256'`). The empty string gives `''`.
/// A NUL byte gives the segment `$'\000'`, which no shell can hold in a word. Unlike ls, the
/// result does not depend on the locale: C1 and bidirectional controls are always escaped,
/// every other valid character never; and it does not start with the redundant `''` that ls
/// puts before some words holding `'` and a control (ls writes `'''a'\'''$'\033'` for `a'`
/// and ESC, this function `'a'\'''$'\033'`: the shell reads both back the same); and it
/// quotes a word that a shell would read as a brace expansion, a `{` followed by `,` or `..`
/// and a `}` (`'x{a,b}'`, `'{1..3}'`), which ls leaves as it is.
///
/// The `$'...'` segments are POSIX.1-2024's dollar-single-quotes, which bash, ksh93, mksh,
/// busybox sh and zsh read, but not dash (Debian's /bin/sh; 0.5.12 has none) nor a shell that
/// follows only an earlier POSIX: there a word with such a segment reads back as other bytes, a
/// `$` and the escapes as written; a word without one (no control, no ill-formed byte) reads
/// back in dash too. zsh reads every word back in sh emulation (run as sh, or with `--emulate
/// sh`) only: otherwise it takes a `}` ending a word, which is left unquoted as ls leaves it,
/// for the end of a group.
///
/// Returns UTF8_OK with `*out_len` the output length. If it does not fit in `cap` bytes:
/// UTF8_ERR_BUFFER_TOO_SMALL with `*out_len` the size needed, and nothing promised in `out`,
/// so `(NULL, 0)` is a size query. Without a query, UTF8_ESCAPE_MAX_LEN(style, len) bytes
/// always suffice: 4 * len for UTF8_ESCAPE_C, 2 + 4 * len + 3 * ceil(len / 2) for
/// UTF8_ESCAPE_SHELL (see the macros). A `style` other than UTF8_ESCAPE_C and UTF8_ESCAPE_SHELL
/// gives UTF8_ERR_INVALID_ARGUMENT; a NULL `in` with `len > 0` or a NULL `out` with `cap > 0`
/// gives UTF8_ERR_NULL_POINTER; `*out_len` is then not written. The output is not
/// NUL-terminated.
///
/// # Safety
/// `in` is NULL or points to `len` readable bytes; `out` is NULL or points to `cap` writable
/// bytes that do not overlap the input; `out_len` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn utf8_escape(
    r#in: *const c_char,
    len: usize,
    style: EscapeStyleArg,
    out: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> utf8_status {
    // SAFETY: the caller's contract for `in`, `len`, `out` and `cap` is the one `input` and
    // `output` need.
    let (Some(bytes), Some(buf)) = (unsafe { (input(r#in, len), output(out.cast::<u8>(), cap)) })
    else {
        return UTF8_ERR_NULL_POINTER;
    };
    let Some(style) = style.style() else {
        return UTF8_ERR_INVALID_ARGUMENT;
    };
    let mut sink = Sink::new_uninit(buf);
    escape::escape(bytes, style, &mut sink);
    let (status, n) = written(&sink);
    // SAFETY: `out_len` is NULL or writable, by the caller's contract.
    unsafe { put(out_len, n) };
    status
}

/// Reverses utf8_escape with UTF8_ESCAPE_C (since 1.2): writes to `out` the bytes that the
/// `len` bytes at `in` stand for; `utf8_unescape(utf8_escape(x)) == x` for every byte string x.
///
/// Escapes are read as utf8_escape writes them, hex digits in either case: `\\`, `\n`, `\t`,
/// `\r`, `\a`, `\b`, `\f`, `\v`, `\x` and exactly two hex digits (any byte), `\u{` exactly four
/// hex digits `}` (any character of U+0000..U+FFFF but a surrogate, written as UTF-8). Bytes
/// outside escapes are copied as they are: the function is lenient there, and accepts
/// ill-formed UTF-8, controls and text that utf8_escape would have escaped.
///
/// Returns UTF8_OK with `*out_len` the output length. A backslash followed by anything else,
/// or a short or bad `\x` or `\u{...}` escape, gives UTF8_ERR_INVALID_ESCAPE with `*out_len`
/// the offset in the input of that backslash (like a valid_up_to), and nothing promised in
/// `out`. If the output does not fit in `cap` bytes: UTF8_ERR_BUFFER_TOO_SMALL with `*out_len`
/// the size needed, so `(NULL, 0)` is a size query (an invalid escape is reported first). A
/// NULL `in` with `len > 0` or a NULL `out` with `cap > 0` gives UTF8_ERR_NULL_POINTER, and
/// `*out_len` is not written. The output is never longer than the input and not
/// NUL-terminated.
///
/// # Safety
/// `in` is NULL or points to `len` readable bytes; `out` is NULL or points to `cap` writable
/// bytes that do not overlap the input; `out_len` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn utf8_unescape(
    r#in: *const c_char,
    len: usize,
    out: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> utf8_status {
    // SAFETY: the caller's contract for `in`, `len`, `out` and `cap` is the one `input` and
    // `output` need.
    let (Some(bytes), Some(buf)) = (unsafe { (input(r#in, len), output(out.cast::<u8>(), cap)) })
    else {
        return UTF8_ERR_NULL_POINTER;
    };
    let mut sink = Sink::new_uninit(buf);
    let (status, n) = match escape::unescape(bytes, &mut sink) {
        Ok(()) => written(&sink),
        Err(e) => (UTF8_ERR_INVALID_ESCAPE, e.at),
    };
    // SAFETY: `out_len` is NULL or writable, by the caller's contract.
    unsafe { put(out_len, n) };
    status
}

/// Copies the `len` bytes at `in` to `out` with each maximal subpart of an ill-formed sequence
/// replaced by one U+FFFD (EF BF BD) (since 1.2): the lossy decoding of the Unicode Standard
/// (chapter 3), WHATWG, Python's `errors='replace'` and a utf8_decode_next loop. The output is
/// always valid UTF-8; valid input is copied unchanged.
///
/// Returns UTF8_OK whenever the whole output fits, whether or not anything was replaced (call
/// utf8_validate to find out), with `*out_len` its length. If it does not fit in `cap` bytes:
/// UTF8_ERR_BUFFER_TOO_SMALL with `*out_len` the size needed, and nothing promised in `out`,
/// so `(NULL, 0)` is a size query; the size needed is at most 3 * `len` (SIZE_MAX where that
/// does not fit in size_t, from 1.4 GB on a 32-bit system). A NULL `in` with
/// `len > 0` or a NULL `out` with `cap > 0` gives UTF8_ERR_NULL_POINTER, and `*out_len` is not
/// written. The output is not NUL-terminated.
///
/// # Safety
/// `in` is NULL or points to `len` readable bytes; `out` is NULL or points to `cap` writable
/// bytes that do not overlap the input; `out_len` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn utf8_replace_invalid(
    r#in: *const c_char,
    len: usize,
    out: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> utf8_status {
    // SAFETY: the caller's contract for `in`, `len`, `out` and `cap` is the one `input` and
    // `output` need.
    let (Some(bytes), Some(buf)) = (unsafe { (input(r#in, len), output(out.cast::<u8>(), cap)) })
    else {
        return UTF8_ERR_NULL_POINTER;
    };
    let mut sink = Sink::new_uninit(buf);
    crate::lossy::replace_invalid(bytes, &mut sink);
    let (status, n) = written(&sink);
    // SAFETY: `out_len` is NULL or writable, by the caller's contract.
    unsafe { put(out_len, n) };
    status
}

/// Copies the `len` bytes at `in` to `out` with the ill-formed sequences replaced as `flags`
/// says (since 1.3): the repair of a file that is mostly UTF-8.
///
/// With `flags` 0 or UTF8_REPLACE, exactly utf8_replace_invalid: each maximal subpart of an
/// ill-formed sequence becomes one U+FFFD. With UTF8_FALLBACK_LATIN1, each byte of an ill-formed
/// sequence becomes the UTF-8 of its character in ISO-8859-1 (two bytes, C2 or C3 then
/// `0x80 | (b & 0x3F)`); with UTF8_FALLBACK_CP1252, of its character in Windows-1252 as
/// cp1252_to_utf8 reads it (two bytes, or three for the characters from U+0800 of 0x80..0x9F,
/// such as 0x80, U+20AC, E2 82 AC). UTF8_REPLACE beside a fallback changes nothing. The output is
/// always valid UTF-8, and valid input is copied unchanged.
///
/// The size needed is at most 3 * `len` with U+FFFD, 2 * `len` with UTF8_FALLBACK_LATIN1 and
/// 3 * `len` with UTF8_FALLBACK_CP1252 (SIZE_MAX where 3 * `len` does not fit in size_t).
/// UTF8_SURROGATEESCAPE gives UTF8_ERR_UNSUPPORTED_STRATEGY: UTF-8 cannot hold the lone
/// surrogates it writes (use utf8_to_utf16 or utf8_to_utf32); so do two fallbacks together;
/// any other bit (UTF8_WTF8 and UTF8_MORE among them) gives UTF8_ERR_INVALID_ARGUMENT;
/// `*out_len` is then not written.
/// Otherwise as utf8_replace_invalid: UTF8_OK whenever the whole output fits, with `*out_len`
/// its length; UTF8_ERR_BUFFER_TOO_SMALL with `*out_len` the size needed, and nothing promised
/// in `out`, so `(NULL, 0)` is a size query; a NULL `in` with `len > 0` or a NULL `out` with
/// `cap > 0` gives UTF8_ERR_NULL_POINTER, `*out_len` not written. The output is not
/// NUL-terminated.
///
/// # Safety
/// `in` is NULL or points to `len` readable bytes; `out` is NULL or points to `cap` writable
/// bytes that do not overlap the input; `out_len` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn utf8_replace_invalid_flags(
    r#in: *const c_char,
    len: usize,
    out: *mut c_char,
    cap: usize,
    flags: u32,
    out_len: *mut usize,
) -> utf8_status {
    let known = UTF8_REPLACE | UTF8_FALLBACK_LATIN1 | UTF8_FALLBACK_CP1252;
    let mode = match mode_of(flags, known) {
        Ok(mode) => mode,
        Err(status) => return status,
    };
    // SAFETY: the caller's contract for `in`, `len`, `out` and `cap` is the one `input` and
    // `output` need.
    let (Some(bytes), Some(buf)) = (unsafe { (input(r#in, len), output(out.cast::<u8>(), cap)) })
    else {
        return UTF8_ERR_NULL_POINTER;
    };
    let mut sink = Sink::new_uninit(buf);
    crate::lossy::replace_invalid_with(bytes, mode.replacement, &mut sink);
    let (status, n) = written(&sink);
    // SAFETY: `out_len` is NULL or writable, by the caller's contract.
    unsafe { put(out_len, n) };
    status
}

/// The start of the character that holds byte `i` of the `len` bytes at `s` (since 1.2): the
/// largest character boundary at or before `i`; `len` if `i >= len`; 0 for `(NULL, any)`.
///
/// In ill-formed input each maximal subpart of an ill-formed sequence is one character, so the
/// boundaries are those of a utf8_decode_next loop from the start of the buffer, of
/// utf8_count_chars and of lossy decoding (utf8_replace_invalid), whatever `i`. Every byte that
/// is not a continuation byte (80..BF) starts a character, so the function reads at most three
/// bytes before `i` (and three after it), never outside the buffer: it works from any point of
/// a long buffer in constant time.
///
/// # Safety
/// `s` is NULL or points to `len` readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn utf8_char_start(s: *const c_char, len: usize, i: usize) -> usize {
    // SAFETY: the caller's contract for `s` and `len` is the one `input` needs.
    match unsafe { input(s, len) } {
        Some(bytes) => crate::char_start(bytes, i),
        None => 0,
    }
}

/// The length of the longest prefix of the `len` bytes at `s` that is at most `max` bytes long
/// and splits no character (since 1.2): `len` if `max >= len`, otherwise
/// `utf8_char_start(s, len, max)`; 0 for `(NULL, any)`.
///
/// Characters are those of utf8_char_start: each maximal subpart of an ill-formed sequence is
/// one, so a buffer that ends inside a character is not shortened when `max >= len`, and
/// ill-formed bytes are kept or dropped whole as utf8_decode_next sees them. Reads at most four
/// bytes around `max`, never outside the buffer.
///
/// # Safety
/// `s` is NULL or points to `len` readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn utf8_truncate(s: *const c_char, len: usize, max: usize) -> usize {
    // SAFETY: the caller's contract for `s` and `len` is the one `input` needs.
    match unsafe { input(s, len) } {
        Some(bytes) => crate::truncate(bytes, max),
        None => 0,
    }
}
