#!/usr/bin/env python3
"""Independent oracle for lossy decoding: Python's UTF-8 codec with errors='replace'.

Python replaces each maximal subpart of an ill-formed sequence with one U+FFFD, as the Unicode
Standard (chapter 3, "U+FFFD Substitution of Maximal Subparts") and WHATWG specify. Writes the
result, re-encoded as UTF-8, to standard output.
"""
import sys

with open(sys.argv[1], "rb") as f:
    sys.stdout.buffer.write(f.read().decode("utf-8", "replace").encode("utf-8"))
