#!/usr/bin/env python3
"""Two or more builds of the short-string harness (bench/c/short_strings.cpp) side by side: not
run by `make bench`. Each binary is the harness linked against one build's libutf8.a; they run
one after the other, RUNS times, their order reversed every other time, and the report gives per
cell (direction, script, size) the median over the runs of each binary's paired ratio (simdutf's
time over libutf8's in the same round: above 1.00x libutf8 is faster) and of its ns per string,
then the number of cells below 0.95x for each. A cell whose ratio moved by more than a few
hundredths between two builds of the same code is noise: the paired ratio of one run moves by up
to 0.1 on this kind of machine, the median of five by a few hundredths.

    S=$(ls -d ~/.cargo/registry/src/*/simdutf-0.7.0/cpp)
    c++ -std=c++17 -O3 -I"$S" -c "$S/simdutf.cpp" -o simdutf.o
    # in each tree (before/ and after/), after `make`:
    c++ -std=c++17 -O2 -Iinclude -I"$S" bench/c/short_strings.cpp simdutf.o \\
        target/release/libutf8.a -o short_strings
    bench/ab_short.py before/short_strings after/short_strings
    RUNS=6 CELLS=utf8_to_utf16:2-byte bench/ab_short.py before/short_strings after/short_strings

RUNS (5) sets the runs, CELLS keeps the cells whose `direction:script:size` contains it, CORPUS
(../shared/corpus) the corpus; LIBUTF8_SHORT_ROUNDS and LIBUTF8_SHORT_STRINGS go to the harness.
"""
import csv
import os
import statistics
import subprocess
import sys
import tempfile

TARGET = 0.95


def main():
    binaries = sys.argv[1:]
    if len(binaries) < 2:
        sys.exit(__doc__)
    runs = int(os.environ.get("RUNS", "5"))
    cells = os.environ.get("CELLS", "")
    corpus = os.environ.get("CORPUS", "../shared/corpus")
    results = {b: {} for b in binaries}
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "cells.csv")
        for run in range(runs):
            for binary in binaries if run % 2 == 0 else binaries[::-1]:
                subprocess.run([binary, corpus, out], check=True, stderr=subprocess.DEVNULL)
                with open(out, encoding="utf-8") as f:
                    for r in csv.DictReader(f):
                        key = (r["direction"], r["script"], int(r["size"]))
                        if cells in ":".join(map(str, key)):
                            results[binary].setdefault(key, []).append(
                                (float(r["ratio"]), float(r["libutf8_ns"])))
    below = {b: 0 for b in binaries}
    print(f"{'cell':34}" + "".join(f"  {'build ' + str(i + 1):>16}" for i in range(len(binaries))))
    for key in sorted(results[binaries[0]]):
        line = f"{':'.join(map(str, key)):34}"
        for b in binaries:
            ratio = statistics.median(x[0] for x in results[b][key])
            ns = statistics.median(x[1] for x in results[b][key])
            below[b] += ratio < TARGET
            line += f"  {ratio:5.2f}x {ns:7.2f} ns"
        print(line)
    print("cells below %.2fx: %s" % (TARGET, ", ".join(
        f"build {i + 1} {below[b]}" for i, b in enumerate(binaries))))


if __name__ == "__main__":
    main()
