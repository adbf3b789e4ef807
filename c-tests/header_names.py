#!/usr/bin/env python3
"""Checks that the header declares no name outside libutf8's own prefixes.

A C header shares one namespace with every program that includes it: a macro, type, enum
constant or function named without the library's prefix can clash with the program's own (an
unprefixed `Isa` type and `REPLACEMENT_UTF8` macro once leaked into it from the Rust sources).
The names are the header's file-scope declarations, found in its text with comments removed.

usage: header_names.py HEADER
"""
import re
import sys

# utf16_ and utf32_ begin the converters' names (utf16_to_utf8, utf32_length_from_utf8, ...), and
# so, since 1.3, do latin1_ and cp1252_ (latin1_to_utf8, cp1252_to_utf8, latin1_length_from_utf8).
PREFIXES = ("utf8_", "utf16_", "utf32_", "latin1_", "cp1252_", "UTF8_", "libutf8_", "LIBUTF8_")


def declared_names(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    names = set(re.findall(r"^\s*#\s*define\s+(\w+)", text, flags=re.M))
    # Struct, union and enum tags, and typedef names (of a body, or of a declaration alone).
    names |= set(re.findall(r"\b(?:struct|union|enum)\s+(\w+)\s*\{", text))
    names |= set(re.findall(r"\btypedef\s+(?:struct|union|enum)\s+(\w+)", text))
    names |= set(re.findall(r"\}\s*(\w+)\s*;", text))
    names |= set(re.findall(r"\btypedef\b[^;{}]*?(\w+)\s*;", text))
    # Enum constants: the first identifier of each member of an enum's braces.
    for body in re.findall(r"\benum\s+\w*\s*\{(.*?)\}", text, flags=re.S):
        names |= set(re.findall(r"(\w+)\s*(?:=[^,]*)?(?:,|$)", body.strip()))
    # Functions: an identifier before '(' in a declaration at the start of a line.
    names |= set(re.findall(r"^(?![#\s])[\w\s*]*?\b(\w+)\s*\(", text, flags=re.M))
    names.discard("")
    return names


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    with open(sys.argv[1], encoding="utf-8") as f:
        names = declared_names(f.read())
    bad = sorted(n for n in names if not n.startswith(PREFIXES))
    if bad:
        print(f"{sys.argv[1]} declares names without a libutf8 prefix: {' '.join(bad)}")
        sys.exit(1)
    print(f"{sys.argv[1]}: {len(names)} names, all with a libutf8 prefix")


if __name__ == "__main__":
    main()
