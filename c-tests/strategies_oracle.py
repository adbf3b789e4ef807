#!/usr/bin/env python3
"""Independent oracle for the replacement strategies: Python's UTF-8 codec.

Usage: strategies_oracle.py STRATEGY TARGET FILE

Decodes FILE as UTF-8 with the error handler of STRATEGY and writes the text to standard
output encoded as TARGET (utf-8, utf-16-le or utf-32-le; lone surrogates passed through):
- surrogateescape: Python's own handler (PEP 383), each byte of an ill-formed sequence becomes
  U+DC80 + (byte - 0x80);
- latin1: each byte of an ill-formed sequence becomes its character in ISO-8859-1;
- cp1252: each byte of an ill-formed sequence becomes its character in Python's cp1252 codec,
  completed with the WHATWG Encoding Standard's five C1 controls (0x81, 0x8D, 0x8F, 0x90, 0x9D,
  which that codec leaves undefined, are U+0081, U+008D, U+008F, U+0090, U+009D).
The handlers receive the ill-formed bytes the codec found (each maximal subpart) and map them
one by one.
"""
import codecs
import sys


def cp1252_char(b):
    try:
        return bytes([b]).decode("cp1252")
    except UnicodeDecodeError:
        return chr(b)


def per_byte(char_of):
    def handler(e):
        return "".join(char_of(b) for b in e.object[e.start:e.end]), e.end

    return handler


codecs.register_error("libutf8-latin1", per_byte(chr))
codecs.register_error("libutf8-cp1252", per_byte(cp1252_char))

HANDLERS = {
    "surrogateescape": "surrogateescape",
    "latin1": "libutf8-latin1",
    "cp1252": "libutf8-cp1252",
}

strategy, target, path = sys.argv[1:4]
with open(path, "rb") as f:
    text = f.read().decode("utf-8", HANDLERS[strategy])
sys.stdout.buffer.write(text.encode(target, "surrogatepass"))
