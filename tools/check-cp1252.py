#!/usr/bin/env python3
"""Checks testkit's windows-1252 table (WINDOWS_1252_C1 in testkit/src/lib.rs, written from the
WHATWG index) against Python's cp1252 codec, completed with the five bytes the codec leaves
undefined and the WHATWG index maps to the C1 controls of the same value.

Run from the top of the tree: python3 tools/check-cp1252.py. Prints "ok" or what differs."""

import re
import sys

WHATWG_ONLY = {0x81, 0x8D, 0x8F, 0x90, 0x9D}

source = open("testkit/src/lib.rs", encoding="utf-8").read()
block = re.search(r"WINDOWS_1252_C1: \[\(u8, u32\); 32\] = \[(.*?)\n\];", source, re.S)
pairs = [(int(b, 16), int(c, 16)) for b, c in re.findall(r"\(0x([0-9A-F]{2}), 0x([0-9A-F]{4})\)", block.group(1))]
table = dict(pairs)
bad = []
if sorted(table) != list(range(0x80, 0xA0)) or len(pairs) != 32:
    bad.append("the table does not list 0x80..0x9F once each")
for b in range(256):
    want = table.get(b, b)
    try:
        python = ord(bytes([b]).decode("cp1252"))
        if b in WHATWG_ONLY:
            bad.append(f"{b:02X}: Python's cp1252 defines it now (U+{python:04X})")
    except UnicodeDecodeError:
        if b not in WHATWG_ONLY:
            bad.append(f"{b:02X}: undefined in Python's cp1252")
        python = b
    if python != want:
        bad.append(f"{b:02X}: table U+{want:04X}, Python U+{python:04X}")
if bad:
    print("\n".join(bad))
    sys.exit(1)
print("ok")
