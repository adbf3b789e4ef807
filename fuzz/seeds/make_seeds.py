#!/usr/bin/env python3
"""Writes the seed corpus of the fuzz targets, fuzz/seeds/<target>/ (committed; see README.md).

Usage: fuzz/seeds/make_seeds.py [KUHN]   (KUHN defaults to ../shared/testdata/UTF-8-test.txt
beside the clone; the Kuhn seeds are left as they are if it is absent). Deterministic: running
it again gives the same files.
"""

import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
KUHN = os.path.join(os.path.dirname(ROOT), "shared", "testdata", "UTF-8-test.txt")

BYTE_TARGETS = ["validate", "decode", "count", "text"]


def unpad(line):
    """A line without the right-hand margin: spaces, then '|', then spaces."""
    return line.rstrip(b" ").rstrip(b"|").rstrip(b" ")


def kuhn_sections(path):
    """Sections 1 to 5 of Markus Kuhn's stress test, the quoted test strings only, one per line."""
    with open(path, "rb") as f:
        lines = f.read().split(b"\n")
    sections = {}
    current = None
    open_quote = False  # inside a test string that spans lines (3.1.9, 3.2.1)
    for line in lines:
        head = line[:2]
        if not open_quote and head[:1].isdigit() and head[1:2] in (b" ", b"."):
            current = int(head[:1])
        if current is None or current > 5:
            continue
        if open_quote:
            part, _, rest = unpad(line).strip(b" ").partition(b'"')
            open_quote = not _
            sections[current][-1] += part
            continue
        first = line.find(b'"')
        if first < 0:
            continue
        last = line.rfind(b'"')
        if last > first:
            sections.setdefault(current, []).append(line[first + 1 : last])
        else:
            sections.setdefault(current, []).append(unpad(line[first + 1 :]))
            open_quote = True
    names = {1: "correct", 2: "boundary", 3: "malformed", 4: "overlong", 5: "illegal"}
    return {f"kuhn-{n}-{names[n]}": b"\n".join(v) + b"\n" for n, v in sorted(sections.items())}


def byte_seeds():
    seeds = {
        # RFC 3629 section 7, the four examples.
        "rfc3629-examples": bytes.fromhex(
            "41 E2 89 A2 CE 91 2E 0A"  # A<NOT IDENTICAL TO><ALPHA>.
            "ED 95 9C EA B5 AD EC 96 B4 0A"  # Korean "hangugeo"
            "E6 97 A5 E6 9C AC E8 AA 9E 0A"  # Japanese "nihongo"
            "EF BB BF F0 A3 8E B4"  # BOM, then U+233B4
        ),
        # One of each error class of libutf8(3)'s STATUS CODES table, after a valid character.
        "every-error-class": b"\n".join(
            bytes.fromhex(h)
            for h in [
                "61 80",  # unexpected continuation
                "61 C0 AF",  # overlong, 2 bytes
                "61 E0 80 AF",  # overlong, 3 bytes
                "61 F0 80 80 AF",  # overlong, 4 bytes
                "61 ED A0 80",  # surrogate
                "61 F4 90 80 80",  # too large, F4
                "61 F5 80 80 80",  # too large, F5
                "61 F8 88 80 80 80",  # invalid byte (old 5-byte form)
                "61 FF",  # invalid byte
                "61 C3 41",  # missing continuation, second byte
                "61 E2 82 41",  # missing continuation, third byte
                "61 F0 9F 98 41",  # missing continuation, fourth byte
                "61 F0 9F 98",  # truncated
            ]
        ),
        # Boundary scalar values, each width's first and last, around the surrogates.
        "boundaries": "\u0000\u007f\u0080\u07ff\u0800\ud7ff\ue000\ufffd\uffff\U00010000\U0010ffff".encode(
            "utf-8", "surrogatepass"
        ),
        # A 4-byte character across the first block boundary (64), then an error at 127,
        # the last byte of the second block.
        "block-boundary": b"x" * 62 + "\U0001f600".encode() + b"y" * 61 + b"\xe2\x82",
        # Non-ASCII text across blocks, a bad byte in the third one.
        "mixed-blocks": ("a\u00e9\u20ac\U0001f600" * 12).encode() + b"\xc0\xaf" + "\u03b1\u03b2".encode() * 20,
        # Text of every width with the top bit of one byte in 16 flipped, as the benchmark of
        # error-dense text flips them: errors a few bytes apart, which the lossy copy decodes in
        # its scalar loop of dense errors.
        "dense-errors": bytes(
            b ^ 0x80 if i % 16 == 8 else b
            for i, b in enumerate(("ab \u00e9\u03b1 \u20ac\u4e2d\u6587 \U0001f600 text " * 8).encode())
        ),
    }
    return seeds


def encode_seeds():
    """Little-endian u32 values for the encode target: each boundary and its neighbours."""
    edges = [0, 0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xE000,
             0xFFFD, 0xFFFF, 0x10000, 0x10FFFF, 0x110000, 0x1FFFFF, 0x200000, 0x7FFFFFFF,
             0x80000000, 0xFFFFFFFF]
    values = sorted({(v + d) & 0xFFFFFFFF for v in edges for d in (-1, 0, 1)})
    pack = lambda vs: b"".join(struct.pack("<I", v) for v in vs)
    return {
        "boundaries": pack(values),
        "ascii": pack(range(0, 0x80, 7)),
        "surrogates": pack(range(0xD7F0, 0xE010, 8)),
    }


def transcode_seeds():
    """Inputs of the transcode target: a control byte (low two bits: from UTF-8, UTF-16 or
    UTF-32; the rest: a small output capacity), then the input, 16/32-bit units little-endian."""
    text = "a\u00e9\u20ac\U0001F600 \u4e2d\u6587 ascii text"
    utf32 = [0x41, 0xE9, 0x20AC, 0x1F600, 0xD800, 0x110000, 0x10FFFF, 0x80000041]
    return {
        "utf8_mixed": b"\x00" + text.encode(),
        "utf8_errors": b"\x10" + b"ab\xed\xa0\x80\xc0\x80\xf0\x9f\x98" + text.encode() + b"\xe2\x82",
        "utf16_pairs_and_lone": b"\x05"
        + "a\U0001F600\u20ac".encode("utf-16-le")
        + b"\x00\xd8a\x00\x00\xdc\x00\xd8",
        "utf32_mixed": b"\x0a" + b"".join(v.to_bytes(4, "little") for v in utf32),
    }


def form_seeds():
    """Inputs for the forms target: a first byte naming the form (utf8_form's value), then the
    form's defining examples and its errors."""
    strict, wtf8, cesu8, mutf8, rfc2279 = (bytes([f]) for f in range(5))
    rfc2279_examples = bytes.fromhex(
        "41 E2 89 A2 CE 91 2E"  # RFC 2279 section 4: A<NOT IDENTICAL TO><ALPHA>.
        "ED 95 9C EA B5 AD EC 96 B4"  # Korean "hangugo"
        "E6 97 A5 E6 9C AC E8 AA 9E"  # Japanese "nihongo"
    )
    return {
        "strict-examples": strict + rfc2279_examples + "\U0001f4a9".encode(),
        "wtf8-lone-surrogates": wtf8 + bytes.fromhex("61 ED A0 80 62 ED BF BF ED B0 80 ED A0 80 F0 9F 92 A9"),
        "wtf8-paired-surrogates": wtf8 + bytes.fromhex("61 ED A0 BD ED B2 A9 62"),
        "cesu8-pair": cesu8 + bytes.fromhex("61 ED A0 BD ED B2 A9 62 ED A0 80 ED B0 80"),
        "cesu8-errors": cesu8 + bytes.fromhex("F0 9F 92 A9 ED B2 A9 ED A0 BD 41 ED A0 BD ED"),
        "mutf8-nul": mutf8 + bytes.fromhex("61 C0 80 62 00 C0 81 ED A0 BD ED B2 A9"),
        "rfc2279-rows": rfc2279 + rfc2279_examples + bytes.fromhex(
            "F4 90 80 80 F7 BF BF BF"  # 4 bytes above U+10FFFF
            "F8 88 80 80 80 FB BF BF BF BF"  # the 5-byte row's first and last values
            "FC 84 80 80 80 80 FD BF BF BF BF BF"  # the 6-byte row's
            "F8 87 BF BF BF FC 83 BF BF BF BF FE FF"  # overlong, and the bytes never used
        ),
        # Values to encode, four bytes each after the form byte (run as every form).
        "values": rfc2279 + b"".join(struct.pack("<I", v) for v in [
            0, 0x7F, 0x80, 0xD7FF, 0xD800, 0xDC00, 0xFFFF, 0x10000, 0x1F4A9, 0x10FFFF,
            0x110000, 0x1FFFFF, 0x200000, 0x3FFFFFF, 0x4000000, 0x7FFFFFFF, 0x80000000]),
    }


def text_seeds():
    """For the text target: what the escapes must handle, and escapes for utf8_unescape."""
    return {
        "escapes": b"a\\b\x1b[31m\xc2\x9b\x9b\x07\r\x08\x7f\xe2\x80\xae\xe2\x81\xa6 it's \"q\" $x\n\xff",
        "unescape": rb"\x41\u{202e}\n\\\q\x4\u{d800}",
    }


def detect_seeds():
    """For the detect target: text after each byte-order mark, in its encoding, and the marks
    alone."""
    text = "m\u00e4rk \u20ac\U0001F600\n"
    seeds = {}
    for codec in ("utf-8", "utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"):
        data = ("\ufeff" + text).encode(codec)
        seeds["bom-" + codec] = data
        seeds["mark-" + codec] = "\ufeff".encode(codec)
    seeds["lone-surrogate-utf-16-le"] = b"\x00\xd8A\x00"
    return seeds


def latin1_seeds():
    """For the latin1 target: a control byte (low six bits: a small output capacity; bit 6: also
    after a run of ASCII; bits 6 and 7: that repeated past 32 KiB), then bytes read as Latin-1,
    as Windows-1252 and as UTF-8."""
    return {
        "latin1-text": b"\x05" + "caf\u00e9 na\u00efve fa\u00e7ade \u00ff\u00a0\u00d7".encode("latin-1"),
        # Every byte of 0x80..0x9F, where Windows-1252 is not Latin-1, after a run of ASCII.
        "cp1252-c1": b"\x47" + b"quotes \x93q\x94 " + bytes(range(0x80, 0xA0)),
        # UTF-8: Latin-1 characters, one above U+00FF, an error, a sequence cut by the end.
        "utf8-mixed": b"\x0a" + "\u00e9t\u00e9 \u00ff".encode() + "\u20ac".encode() + b"\xc3\x28 \xc3",
        # The loops of inputs from 32 KiB, ASCII then Latin-1 letters.
        "large": b"\xc3" + "\u00e0 la fa\u00e7on".encode("latin-1"),
    }


def strategies_seeds(seeds):
    """For the strategies target: a byte choosing a small capacity, then the byte targets'
    seeds."""
    return {name: b"\x03" + data for name, data in seeds.items()}


def write(target, name, data):
    d = os.path.join(HERE, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def main():
    kuhn = sys.argv[1] if len(sys.argv) > 1 else KUHN
    seeds = byte_seeds()
    if os.path.exists(kuhn):
        seeds.update(kuhn_sections(kuhn))
    else:
        print(f"{kuhn} absent: Kuhn seeds left as they are", file=sys.stderr)
    for target in BYTE_TARGETS:
        for name, data in seeds.items():
            write(target, name, data)
    for name, data in encode_seeds().items():
        write("encode", name, data)
    for name, data in transcode_seeds().items():
        write("transcode", name, data)
    for name, data in form_seeds().items():
        write("forms", name, data)
    for name, data in text_seeds().items():
        write("text", name, data)
    for name, data in detect_seeds().items():
        write("detect", name, data)
    for name, data in latin1_seeds().items():
        write("latin1", name, data)
    for name, data in strategies_seeds(seeds).items():
        write("strategies", name, data)
    # The stream target's first byte chooses the chunking: 1 is one-byte chunks.
    for name, data in seeds.items():
        write("stream", name, b"\x01" + data)


if __name__ == "__main__":
    main()
