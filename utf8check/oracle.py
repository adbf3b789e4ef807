#!/usr/bin/env python3
"""Inputs and expected results for utf8check's end-to-end test (utf8check/test.sh).

Every expected value comes from Python's own UTF-8 codec (which reports the maximal subpart of
an ill-formed sequence, as the Unicode Standard recommends), from RFC 3629's grammar as the
status table of libutf8(3) classifies it, from Python's latin-1 and cp1252 codecs (cp1252
completed as the WHATWG Encoding Standard completes it) and from Python's str operations: never
from libutf8.

usage: oracle.py gen DIR          write the test inputs, each CASE with CASE.report (the expected
                                  report after "NAME: ", empty if valid), CASE.replaced,
                                  CASE.escaped (-e: newlines and tabs kept) and
                                  CASE.escaped-one-line (-e --one-line), CASE.latin1 and
                                  CASE.cp1252 (-r --legacy=), CASE.fallback-latin1 and
                                  CASE.fallback-cp1252 (-r --fallback=)
       oracle.py replace FILE...  print the files, each decoded with errors='replace', encoded
       oracle.py escape           print standard input escaped as UTF8_ESCAPE_C
       oracle.py report FILE [OFFSET]
                                  print the expected report of FILE from byte OFFSET (after
                                  "NAME: ")
       oracle.py legacy ENCODING FILE [OFFSET]
                                  print FILE from byte OFFSET as -r --legacy=ENCODING copies it
"""

import codecs
import os
import random
import sys

# utf8_status_str's text for each status (the strings libutf8 documents).
REASONS = {
    "truncated": "input ends inside a character",
    "unexpected continuation": "continuation byte where a character must start",
    "missing continuation": "character cut short by a byte that cannot continue it",
    "overlong": "overlong encoding",
    "surrogate": "surrogate code point (U+D800..U+DFFF)",
    "too large": "code point above U+10FFFF",
    "invalid byte": "byte that never appears in UTF-8 (F8..FF)",
}

# utf8check reads 128 KiB at a time, at most 64 KiB from a pipe, and maps a regular file 4 MiB
# at a time: errors and split characters are placed around these multiples, and the test does
# not depend on the exact sizes.
BOUNDARIES = (65536, 131072)
WINDOW = 4 << 20

# Characters of every encoded length, and newlines, for mixed text.
PALETTE = "abc xyz.,;\t" + "éßñ" + "€漢字한" + "\U0001F600\U00010348"


def classify(data, start, reason):
    """The status of the ill-formed sequence at data[start], by its first two bytes."""
    if reason == "unexpected end of data":
        return "truncated"
    b0 = data[start]
    b1 = data[start + 1] if start + 1 < len(data) else None
    if 0x80 <= b0 <= 0xBF:
        return "unexpected continuation"
    if b0 in (0xC0, 0xC1) or (b0 == 0xE0 and b1 is not None and 0x80 <= b1 <= 0x9F) or (
            b0 == 0xF0 and b1 is not None and 0x80 <= b1 <= 0x8F):
        return "overlong"
    if b0 == 0xED and b1 is not None and 0xA0 <= b1 <= 0xBF:
        return "surrogate"
    if (b0 == 0xF4 and b1 is not None and 0x90 <= b1 <= 0xBF) or 0xF5 <= b0 <= 0xF7:
        return "too large"
    if b0 >= 0xF8:
        return "invalid byte"
    return "missing continuation"


# The UTF-16 and UTF-32 byte-order marks (Python's codecs module), UTF-32LE's before
# UTF-16LE's, which it starts with: utf8check names the one an input starts with.
MARKS = (
    (codecs.BOM_UTF32_LE, "UTF-32LE", "UTF-32"),
    (codecs.BOM_UTF32_BE, "UTF-32BE", "UTF-32"),
    (codecs.BOM_UTF16_LE, "UTF-16LE", "UTF-16"),
    (codecs.BOM_UTF16_BE, "UTF-16BE", "UTF-16"),
)


def report(data):
    """The expected report of `data` after "NAME: ", or "" if it is UTF-8."""
    try:
        data.decode("utf-8")
        return ""
    except UnicodeDecodeError as e:
        start, end, reason = e.start, e.end, e.reason
    for mark, name, form in MARKS:
        if data.startswith(mark):
            return "%s byte-order mark: this is %s, not UTF-8\n" % (name, form)
    kind = classify(data, start, reason)
    line = data.count(b"\n", 0, start) + 1
    line_start = data.rfind(b"\n", 0, start) + 1
    column = len(data[line_start:start].decode("utf-8")) + 1
    text = "line %d, column %d, byte %d: %s (bytes %s" % (
        line, column, start, REASONS[kind], " ".join("%02X" % b for b in data[start:end]))
    if kind == "missing continuation":
        text += ", then %02X" % data[end]
    return text + ")\n"


def replaced(data):
    return data.decode("utf-8", "replace").encode("utf-8")


# The named C escapes of C0 controls.
NAMED = {0x07: "a", 0x08: "b", 0x09: "t", 0x0A: "n", 0x0B: "v", 0x0C: "f", 0x0D: "r"}


def _escape_table():
    table = {cp: "\\x%02x" % cp for cp in list(range(0x20)) + [0x7F]}
    table.update({cp: "\\" + name for cp, name in NAMED.items()})
    table[ord("\\")] = "\\\\"
    for cp in list(range(0x80, 0xA0)) + list(range(0x202A, 0x202F)) + list(range(0x2066, 0x206A)):
        table[cp] = "\\u{%04x}" % cp
    # surrogateescape decodes each byte of an ill-formed sequence to U+DC80..U+DCFF.
    table.update({0xDC00 + b: "\\x%02x" % b for b in range(0x80, 0x100)})
    return table


ESCAPES = _escape_table()
# utf8check -e without --one-line: the same, but a newline and a tab stay as they are, as
# `cat -v` keeps them.
ESCAPES_KEEPING_LINES = {cp: e for cp, e in ESCAPES.items() if cp not in (0x09, 0x0A)}


def escaped(data, keep_lines=False):
    """`data` escaped as libutf8(3) documents UTF8_ESCAPE_C: \\\\ for a backslash; \\n, \\t, \\r,
    \\a, \\b, \\f, \\v; \\xHH for other C0 controls, DEL and each byte of an ill-formed sequence;
    \\u{HHHH} for C1 controls and the bidirectional controls U+202A..U+202E, U+2066..U+2069;
    hexadecimal digits in lower case; everything else as it is. With `keep_lines`, newlines
    and tabs as they are (utf8check -e)."""
    table = ESCAPES_KEEPING_LINES if keep_lines else ESCAPES
    return data.decode("utf-8", "surrogateescape").translate(table).encode("utf-8")


# Windows-1252 as the WHATWG Encoding Standard defines it (index-windows-1252): Python's cp1252,
# which leaves five bytes undefined, completed with the C1 controls of their values.
WHATWG_C1 = (0x81, 0x8D, 0x8F, 0x90, 0x9D)


def _whatwg_c1(exc):
    undefined = exc.object[exc.start:exc.end]
    assert all(b in WHATWG_C1 for b in undefined), undefined
    return "".join(chr(b) for b in undefined), exc.end


codecs.register_error("whatwg-c1", _whatwg_c1)


def legacy(data, encoding):
    """-r --legacy=ENCODING: `data` as it is if it is UTF-8, else all of it decoded as Latin-1
    or as WHATWG's Windows-1252."""
    try:
        data.decode("utf-8")
        return data
    except UnicodeDecodeError:
        pass
    if encoding == "latin1":
        return data.decode("latin-1").encode("utf-8")
    return data.decode("cp1252", "whatwg-c1").encode("utf-8")


def _fallback(encoding):
    """An error handler of the UTF-8 decoder that decodes each byte of the ill-formed sequence
    it is given as `encoding` (latin1, or cp1252 as WHATWG completes it)."""
    def handler(exc):
        bad = exc.object[exc.start:exc.end]
        if encoding == "latin1":
            return bad.decode("latin-1"), exc.end
        return bad.decode("cp1252", "whatwg-c1"), exc.end
    return handler


for _encoding in ("latin1", "cp1252"):
    codecs.register_error("fallback-" + _encoding, _fallback(_encoding))


def fallback(data, encoding):
    """-r --fallback=ENCODING: `data` decoded as UTF-8, each byte of each error as its
    character in `encoding`."""
    return data.decode("utf-8", "fallback-" + encoding).encode("utf-8")


def mixed(rng, size, newlines=True):
    """Exactly `size` bytes of valid text mixing characters of 1 to 4 bytes: a random stretch
    of a text made once, cut at character boundaries and padded with ASCII."""
    key = (newlines, id(rng))
    if key not in _TEXTS:
        palette = PALETTE + ("\n" if newlines else "")
        _TEXTS[key] = "".join(rng.choice(palette) for _ in range(200000)).encode("utf-8")
    text = _TEXTS[key]
    out = b""
    while len(out) < size - 4:
        start = rng.randrange(len(text) // 2)
        while 0x80 <= text[start] <= 0xBF:
            start += 1
        piece = text[start:start + size - 4 - len(out)]
        out += piece.decode("utf-8", "ignore").encode("utf-8")
    return out + b"a" * (size - len(out))


_TEXTS = {}


def cases():
    """(name, bytes) for every test input."""
    rng = random.Random(20261122)
    yield "empty", b""
    yield "ascii", b"hello\nworld\n"
    yield "mixed", mixed(rng, 5000)
    yield "crlf-error", b"one\r\ntwo\r\nthr\xc3\xa9\xff\r\n"
    # What --escape must escape: every C0 control, DEL, every C1 control, the bidirectional
    # controls and their neighbours, a backslash.
    controls = "".join(chr(c) for c in list(range(0x20)) + list(range(0x7F, 0xA1)))
    controls += "\u2029\u202a\u202e\u202f\u2065\u2066\u2069\u206a\\ end\n"
    yield "controls", controls.encode("utf-8")
    # Every error class after two lines, with characters of every length before it on its line.
    prefix = "first line\nsecond é€\U0001F600\nthird é€\U0001F600 x".encode("utf-8")
    errors = {
        "continuation": b"\x80", "continuation-run": b"\xbf\xbf", "overlong-c0": b"\xc0\xaf",
        "overlong-e0": b"\xe0\x80\xaf", "overlong-f0": b"\xf0\x80\x80\xaf",
        "surrogate": b"\xed\xa0\x80", "too-large-f4": b"\xf4\x90\x80\x80",
        "too-large-f5": b"\xf5\x80", "invalid-ff": b"\xff", "invalid-f8": b"\xf8\x88",
        "missing-2": b"\xc3A", "missing-3": b"\xe2\x82A", "missing-4": b"\xf0\x9f\x98\n",
    }
    for name, bad in errors.items():
        yield "error-" + name, prefix + bad + b" and more\ntext \xe2\x82\xac\n"
    for name, bad in (("2", b"\xc3"), ("3", b"\xe2\x82"), ("4", b"\xf0\x9f\x98")):
        yield "truncated-" + name, prefix + bad
    yield "error-first-byte", b"\xfe rest"
    # Text in UTF-16 and UTF-32 after its byte-order mark, reported as such; the marks alone;
    # a UTF-8 mark, which is valid UTF-8 (U+FEFF); FF FE then a byte, UTF-16LE's mark; FE and
    # 00 00 FE, parts of marks, reported as errors.
    text = "b\u00f6m \u20ac\U0001F600\nline two\n"
    for codec, mark in (("utf-16-le", codecs.BOM_UTF16_LE), ("utf-16-be", codecs.BOM_UTF16_BE),
                        ("utf-32-le", codecs.BOM_UTF32_LE), ("utf-32-be", codecs.BOM_UTF32_BE)):
        name = codec.replace("-", "")
        yield "bom-" + name, mark + text.encode(codec)
        yield "bom-" + name + "-alone", mark
    # Longer than a chunk (its own generator, so that the inputs after it stay as they were).
    long_text = mixed(random.Random(45), 300000).decode("utf-8")
    yield "bom-utf16le-long", codecs.BOM_UTF16_LE + long_text.encode("utf-16-le")
    yield "bom-utf8", codecs.BOM_UTF8 + text.encode("utf-8")
    yield "bom-ff-fe-x", b"\xff\xfe\x41"
    yield "bom-part-fe", b"\xfe"
    yield "bom-part-00-00-fe", b"\x00\x00\xfe"
    # Around read boundaries: a valid 4-byte character split at every place, and errors whose
    # sequence starts before, at and after a boundary, on a line that started chunks earlier.
    for boundary in BOUNDARIES:
        for shift in range(-3, 2):
            at = boundary + shift
            line = at // 2 + 1000
            head = mixed(rng, at - line) + mixed(rng, line, newlines=False)
            yield "split-%d%+d" % (boundary, shift), head + "\U0001F600\n".encode("utf-8") * 3
            yield "cut-%d%+d" % (boundary, shift), head + b"\xe2\x82A tail\n"
            yield "large-%d%+d" % (boundary, shift), head + b"\xf4\x90\x80\x80 tail\n"
    # A character split between two windows of a mapped file, and an error split between the
    # next two.
    head = mixed(rng, WINDOW - 2)
    middle = mixed(rng, WINDOW - 4, newlines=False)
    yield "windows", head + "\U0001F600".encode("utf-8") + middle + b"\xe2\x82A tail\n"
    # One line longer than any chunk, with the error far from its start.
    yield "long-line", mixed(rng, 300000, newlines=False) + b"\xed\xbf\xbf\n"
    # Random bytes with random errors, for the copies.
    for i in range(4):
        data = bytearray(mixed(rng, 200000))
        for _ in range(50):
            data[rng.randrange(len(data))] = rng.randrange(256)
        yield "noise-%d" % i, bytes(data)
    # For -e, which keeps newlines and tabs: a tab, an ill-formed sequence, a newline, a cut
    # 4-byte sequence and another tab, each cut by a read boundary in turn (their own generator,
    # so that the inputs above stay as they were).
    tabs_rng = random.Random(5)
    for boundary in BOUNDARIES:
        for shift in range(-7, 2):
            at = boundary + shift
            head = mixed(tabs_rng, at - 2000) + mixed(tabs_rng, 2000, newlines=False)
            yield "tabs-%d%+d" % (boundary, shift), (
                head + b"\t\xe2\x82\n\xf0\x9f\x98\t\xc3\xa9\r\n\t")
    # For --legacy and --fallback: every byte, and text in Windows-1252 (which no UTF-8
    # decoder takes: its letters are lone bytes of 80..FF).
    yield "legacy-bytes", bytes(range(256)) * 2 + b"\n"
    yield "legacy-text", ("Caf\u00e9 na\u00efve \u2014 \u201cquoted\u201d \u20ac5 "
                          "\u0160\u017e\u0178\n").encode("cp1252") * 3


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "gen":
        directory = args[0]
        os.makedirs(directory, exist_ok=True)
        for name, data in cases():
            with open(os.path.join(directory, name), "wb") as f:
                f.write(data)
            with open(os.path.join(directory, name + ".report"), "w") as f:
                f.write(report(data))
            with open(os.path.join(directory, name + ".replaced"), "wb") as f:
                f.write(replaced(data))
            with open(os.path.join(directory, name + ".escaped"), "wb") as f:
                f.write(escaped(data, keep_lines=True))
            with open(os.path.join(directory, name + ".escaped-one-line"), "wb") as f:
                f.write(escaped(data))
            for encoding in ("latin1", "cp1252"):
                with open(os.path.join(directory, name + "." + encoding), "wb") as f:
                    f.write(legacy(data, encoding))
                with open(os.path.join(directory, name + ".fallback-" + encoding), "wb") as f:
                    f.write(fallback(data, encoding))
    elif cmd == "replace":
        for path in args:
            with open(path, "rb") as f:
                sys.stdout.buffer.write(replaced(f.read()))
    elif cmd == "escape":
        sys.stdout.buffer.write(escaped(sys.stdin.buffer.read()))
    elif cmd == "legacy":
        with open(args[1], "rb") as f:
            sys.stdout.buffer.write(legacy(f.read()[int(args[2]) if len(args) > 2 else 0:],
                                           args[0]))
    elif cmd == "report":
        with open(args[0], "rb") as f:
            sys.stdout.write(report(f.read()[int(args[1]) if len(args) > 1 else 0:]))
    else:
        sys.exit("unknown command " + cmd)


if __name__ == "__main__":
    main()
