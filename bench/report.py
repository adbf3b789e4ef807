#!/usr/bin/env python3
"""Writes BENCHMARKS.md and its chart (SVG) from the results of bench/run.sh.

usage: report.py RESULTS_DIR OUT_MD OUT_SVG
       report.py --decode-icu RESULTS_DIR (the decoding loop against ICU alone, on stdout)

RESULTS_DIR holds rust.csv and c.csv, or rust-1.csv, rust-2.csv, ... and c-1.csv, c-2.csv, ...
from as many processes (one row per input and implementation: time per call, median, min and
max over the samples; the report takes the median of the processes' medians of the rows they
have), c-meta.txt, run-meta.txt and commands.txt. Every
number in
the report, and every goal's verdict, is computed from those files; the machine is described from
/proc/cpuinfo. Python 3 standard library only.
"""

import csv
import glob
import html
import math
import os
import platform
import re
import statistics
import sys

# --- Names ----------------------------------------------------------------------------------

LIB_VALIDATE = "libutf8 utf8_validate"
LIB_DECODE = "libutf8 utf8_decode_next loop"
LIB_COUNT = "libutf8 utf8_count_chars"
CORE = "core::str::from_utf8"
S8_BASIC = "simdutf8::basic::from_utf8"
S8_COMPAT = "simdutf8::compat::from_utf8"
SIMDUTF_BOOL = "simdutf validate_utf8"
SIMDUTF_ERR = "simdutf validate_utf8_with_errors"
SIMDUTF_COUNT = "simdutf count_utf8"
SIMDUTF_CHECKED_COUNT = "simdutf validate_utf8 + count_utf8"
ENCODING_RS = "encoding_rs utf8_valid_up_to"
GLIB = "glib g_utf8_validate_len"
UTF8PROC = "utf8proc_iterate loop"
DFA_DECODE = "Hoehrmann DFA decode loop"
DFA_VALIDATE = "Hoehrmann DFA validate loop"
UNCHECKED_DECODE = "unchecked decode loop (no validation)"
MEMCHR = "memchr (absent byte)"
MEMCPY = "memcpy"
# Transcoding, per direction: (libutf8's strict converter, simdutf's validating one).
TRANSCODERS = [
    ("UTF-8 to UTF-16", "libutf8 utf8_to_utf16", "simdutf convert_utf8_to_utf16le"),
    ("UTF-8 to UTF-32", "libutf8 utf8_to_utf32", "simdutf convert_utf8_to_utf32"),
    ("UTF-16 to UTF-8", "libutf8 utf16_to_utf8", "simdutf convert_utf16le_to_utf8"),
    ("UTF-32 to UTF-8", "libutf8 utf32_to_utf8", "simdutf convert_utf32_to_utf8"),
]

# Column headings of the tables.
SHORT = {
    LIB_VALIDATE: "libutf8",
    LIB_DECODE: "libutf8",
    LIB_COUNT: "libutf8 utf8_count_chars",
    CORE: "core::str",
    S8_BASIC: "simdutf8 basic",
    S8_COMPAT: "simdutf8 compat",
    SIMDUTF_BOOL: "simdutf bool",
    SIMDUTF_ERR: "simdutf errors",
    SIMDUTF_COUNT: "simdutf count_utf8",
    SIMDUTF_CHECKED_COUNT: "simdutf validate_utf8 + count_utf8",
    ENCODING_RS: "encoding_rs",
    GLIB: "GLib",
    UTF8PROC: "utf8proc",
    DFA_DECODE: "DFA",
    DFA_VALIDATE: "DFA",
    UNCHECKED_DECODE: "unchecked",
    MEMCHR: "memchr",
    MEMCPY: "memcpy",
}

# The least size of the fresh-text pools, as bench/src/main.rs's FRESH_BYTES.
FRESH_MIB = 1

# The short-string lengths that the project's goals name (make bench measures others too).
SHORT_GOAL_LENGTHS = {"16", "64", "256"}
RUST_VALIDATORS = [LIB_VALIDATE, CORE, S8_BASIC, S8_COMPAT, SIMDUTF_BOOL, SIMDUTF_ERR, ENCODING_RS]
C_VALIDATORS = [LIB_VALIDATE, GLIB, DFA_VALIDATE, MEMCHR, MEMCPY]
C_DECODERS = [LIB_DECODE, UTF8PROC, DFA_DECODE, UNCHECKED_DECODE]


# --- Reading --------------------------------------------------------------------------------


def read_kv(path):
    out = {}
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for line in f:
                if "=" in line:
                    k, v = line.rstrip("\n").split("=", 1)
                    out[k] = v
    return out


def read_rows(path):
    """The rows of one results file, with numbers for its times and sizes."""
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    for r in rows:
        for k in ("median_ns", "min_ns", "max_ns"):
            r[k] = float(r[k])
        r["bytes_per_call"] = int(r["bytes_per_call"])
        # The Rust harness's paired ratio, for the rows it pairs with another (see
        # `paired_baseline` in bench/src/encodings.rs); None elsewhere, in c.csv and in results
        # of before the column.
        r["paired_ratio"] = float(r["paired_ratio"]) if r.get("paired_ratio") else None
    return rows


class Results:
    """Rows by (harness, input, impl); inputs in manifest order, by kind."""

    def __init__(self, results_dir):
        self.dir = results_dir
        self.rows = {}
        self.inputs = []  # (kind, name, bytes per call), in order
        seen = set()
        self.processes = {}  # harness: the number of processes whose results it has
        for harness in ("rust", "c"):
            # HARNESS.csv, or HARNESS-1.csv, HARNESS-2.csv, ...: one per process (run.sh).
            paths = sorted(glob.glob(os.path.join(results_dir, glob.escape(harness) + "-*.csv")))
            paths += [p for p in [os.path.join(results_dir, harness + ".csv")] if os.path.exists(p)]
            runs = {}
            for path in paths:
                for r in read_rows(path):
                    runs.setdefault((r["harness"], r["input"], r["impl"]), []).append(r)
                    if r["input"] not in seen:
                        seen.add(r["input"])
                        self.inputs.append((r["kind"], r["input"], r["bytes_per_call"]))
            for key, rs in runs.items():
                self.rows[key] = merge_processes(rs)
            if paths:
                self.processes[harness] = len(paths)
        # kernel-ISA.csv: the Rust harness's validation with libutf8 and simdutf forced to
        # kernels for ISA (run.sh), as harness "kernel-ISA"; its inputs are in rust.csv too.
        self.kernels = []
        for path in sorted(glob.glob(os.path.join(results_dir, "kernel-*.csv"))):
            isa = os.path.basename(path).removeprefix("kernel-").removesuffix(".csv")
            self.kernels.append(isa)
            for r in read_rows(path):
                self.rows[(f"kernel-{isa}", r["input"], r["impl"])] = r

    def names(self, kind):
        return [n for k, n, _ in self.inputs if k == kind]

    def get(self, harness, inp, impl):
        return self.rows.get((harness, inp, impl))

    def gbps(self, harness, inp, impl):
        """(median, low, high) in GB/s, or None."""
        r = self.get(harness, inp, impl)
        if r is None or r["median_ns"] <= 0:
            return None
        b = r["bytes_per_call"]
        return (b / r["median_ns"], b / r["max_ns"], b / r["min_ns"])

    def ns(self, harness, inp, impl):
        """(median, min, max) in ns per call, or None."""
        r = self.get(harness, inp, impl)
        return None if r is None else (r["median_ns"], r["min_ns"], r["max_ns"])

    def ratio(self, harness, inp, ours, theirs):
        """Our speed over theirs (median throughput ratio), or None."""
        a, b = self.gbps(harness, inp, ours), self.gbps(harness, inp, theirs)
        return None if a is None or b is None else a[0] / b[0]

    def samples(self):
        return sorted({int(r["samples"]) for r in self.rows.values()})


def merge_processes(rows):
    """One row from the rows of one input and implementation in several processes: the median
    of their medians (and of their paired ratios), the least minimum and the greatest maximum,
    the samples of all."""
    r = dict(rows[0])
    r["median_ns"] = statistics.median(x["median_ns"] for x in rows)
    paired = [x["paired_ratio"] for x in rows if x["paired_ratio"] is not None]
    r["paired_ratio"] = statistics.median(paired) if paired else None
    r["min_ns"] = min(x["min_ns"] for x in rows)
    r["max_ns"] = max(x["max_ns"] for x in rows)
    r["samples"] = str(sum(int(x["samples"]) for x in rows))
    return r


def geomean(xs):
    xs = [x for x in xs if x is not None and x > 0]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else None


# --- Formatting -----------------------------------------------------------------------------


def num(x):
    if x is None:
        return "—"
    if x >= 100:
        return f"{x:.0f}"
    if x >= 10:
        return f"{x:.1f}"
    if x >= 1:
        return f"{x:.2f}"
    return f"{x:.3f}"


def cell(t):
    """A median with its range: "12.3 (11.9–12.6)"."""
    return "—" if t is None else f"{num(t[0])} ({num(t[1])}–{num(t[2])})"


def median(t):
    """The median alone: "12.3"."""
    return "—" if t is None else num(t[0])


def times(x):
    return "—" if x is None else f"{x:.2f}×"


def size(n):
    if n >= 1 << 20 and n % (1 << 20) == 0:
        return f"{n >> 20} MiB"
    if n >= 1 << 10 and n % (1 << 10) == 0:
        return f"{n >> 10} KiB"
    return f"{n:,}"


def table(head, rows, align=None):
    align = align or ["---"] + ["---:"] * (len(head) - 1)
    out = ["| " + " | ".join(head) + " |", "| " + " | ".join(align) + " |"]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(out)


# --- The machine ----------------------------------------------------------------------------

SIMD_FLAGS = ["sse2", "ssse3", "sse4_1", "sse4_2", "popcnt", "avx", "avx2", "bmi1", "bmi2",
              "lzcnt", "abm", "avx512f", "avx512bw", "avx512vl", "avx512vbmi", "avx512vbmi2",
              "avx512_vbmi2", "gfni", "vpclmulqdq", "asimd", "sve", "sve2"]


def cpuinfo():
    info = {"model": platform.machine() or "unknown", "cpus": os.cpu_count(), "flags": []}
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        return info
    for key, field in (("model", "model name"), ("cache", "cache size"),
                       ("flags", "flags"), ("features", "Features")):
        m = re.search(r"^" + field + r"\s*:\s*(.*)$", text, re.M)
        if m:
            info[key] = m.group(1).strip()
    info["flags"] = (info.get("flags") or info.get("features") or "").split()
    info["cpus"] = len(re.findall(r"^processor\s*:", text, re.M)) or os.cpu_count()
    info["l2"] = l2_cache_bytes()
    return info


def l2_cache_bytes():
    """The size of the first CPU's level-2 cache in bytes, from Linux's sysfs, or None."""
    for index in sorted(glob.glob("/sys/devices/system/cpu/cpu0/cache/index*")):
        try:
            with open(os.path.join(index, "level"), encoding="utf-8") as f:
                level = f.read().strip()
            with open(os.path.join(index, "size"), encoding="utf-8") as f:
                size = f.read().strip()
        except OSError:
            continue
        m = re.fullmatch(r"(\d+)([KMG]?)", size)
        if level == "2" and m:
            return int(m.group(1)) * {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}[m.group(2)]
    return None


def crate_versions(lock_path):
    out = {}
    try:
        with open(lock_path, encoding="utf-8") as f:
            text = f.read()
    except OSError:
        return out
    for m in re.finditer(r'name = "([^"]+)"\nversion = "([^"]+)"', text):
        out[m.group(1)] = m.group(2)
    return out


# --- Goals ----------------------------------------------------------------------------------

MET, NOT_MET, NOT_EVAL = "met", "**NOT met**", "not evaluated"


def goals(res):
    """[(goal, target, measured, verdict, measured on fresh text, its verdict)], computed from
    the results. The goals over the corpus are computed twice: on each file processed again and
    again, and on its fresh copies (see `shuffled_copies` in bench/src/main.rs); the others
    have no fresh-text columns. In the order of the project's goals: validation over the
    corpus, ASCII, short strings, decoding, counting, transcoding."""
    fresh = corpus_goals(res, res.names("fresh"))
    corpus = [row + fresh_row[2:]
              for row, fresh_row in zip(corpus_goals(res, res.names("corpus")), fresh)]
    others = [row + ("—", "—") for row in other_goals(res)]
    validation = [row for row in corpus if row[0].startswith("Validation")]
    encodings = [row + ("—", "—") for row in encoding_goals(res)]
    lossy = [row + ("—", "—") for row in lossy_dense_goals(res.dir)]
    return validation + others + corpus[len(validation):] + encodings + lossy


def verdict_of(ok, complete=True, needs=None):
    """The verdict of a goal: `needs`, if given, is the list of inputs it is computed over."""
    if needs is not None and not needs:
        return NOT_EVAL + " (corpus absent)"
    if ok is None or not complete:
        return NOT_EVAL + " (results missing)"
    return MET if ok else NOT_MET


def worst(ratios):
    """(smallest ratio, its input) over (input, ratio) pairs."""
    pairs = [(r, n) for n, r in ratios if r is not None]
    return min(pairs) if pairs else (None, None)


def corpus_goals(res, corpus):
    """[(goal, target, measured, verdict)] of the goals over the corpus files, on the inputs
    `corpus` (the files, or their fresh copies)."""
    out = []

    def verdict(ok, complete=True, needs_corpus=False):
        return verdict_of(ok, complete, corpus if needs_corpus else None)

    def name(n):
        return n.removeprefix("fresh-")

    # Validation against simdutf, over the corpus.
    for peer, target, label in ((SIMDUTF_ERR, 1.25, "`validate_utf8_with_errors`"),
                                (SIMDUTF_BOOL, 1.10, "boolean `validate_utf8`")):
        rs = [res.ratio("rust", n, LIB_VALIDATE, peer) for n in corpus]
        g = geomean(rs)
        ok = None if g is None else g >= target
        out.append((f"Validation, corpus: geometric mean of libutf8 ÷ simdutf {label}",
                    f"≥ {target:.2f}×", "—" if g is None else f"{g:.2f}× over {len(corpus)} files",
                    verdict(ok, None not in rs, needs_corpus=True)))
    pairs = [(name(n), res.ratio("rust", n, LIB_VALIDATE, SIMDUTF_BOOL)) for n in corpus]
    w, wn = worst(pairs)
    below = sum(1 for _, r in pairs if r is not None and r < 1)
    out.append(("Validation, corpus: every file at least as fast as simdutf `validate_utf8`",
                "≥ 1.00× on each", "—" if w is None else
                f"slowest {w:.2f}× ({wn}); {below} of {len(pairs)} files below 1.00×",
                verdict(None if w is None else w >= 1, all(r for _, r in pairs), True)))

    # Decoding loops in C, on every corpus file.
    for peer, target, label in ((UTF8PROC, 3.0, "`utf8proc_iterate` loop"),
                                (DFA_DECODE, 1.5, "DFA loop")):
        pairs = [(name(n), res.ratio("c", n, LIB_DECODE, peer)) for n in corpus]
        w, wn = worst(pairs)
        below = sum(1 for _, r in pairs if r is not None and r < target)
        # Where even the plain loop that checks nothing is below the target, a decoder called
        # once per character is not likely to reach it.
        bound = [r for r in (res.ratio("c", n, UNCHECKED_DECODE, peer) for n in corpus)
                 if r is not None]
        beyond = sum(1 for r in bound if r < target)
        out.append((f"Decoding, corpus: `utf8_decode_next` loop ÷ {label}, every file (C harness)",
                    f"≥ {target:.1f}× on each", "—" if w is None else
                    f"slowest {w:.2f}× ({wn}); {below} of {len(pairs)} files below"
                    + (f"; the unchecked loop, which validates nothing, is below {target:.1f}× "
                       f"itself on {beyond} of {len(bound)} files" if beyond else ""),
                    verdict(None if w is None else w >= target, all(r for _, r in pairs), True)))

    # Counting.
    pairs = [(name(n), res.ratio("rust", n, LIB_COUNT, SIMDUTF_COUNT)) for n in corpus]
    w, wn = worst(pairs)
    g = geomean([r for _, r in pairs])
    below = sum(1 for _, r in pairs if r is not None and r < 1)
    # An exact count validates, so libutf8's own utf8_validate bounds it: where count_utf8
    # outruns that, no validating count can meet the goal.
    bound = [r for r in (res.ratio("rust", n, SIMDUTF_COUNT, LIB_VALIDATE) for n in corpus)
             if r is not None]
    beyond = sum(1 for r in bound if r > 1)
    checked = geomean([res.ratio("rust", n, LIB_COUNT, SIMDUTF_CHECKED_COUNT) for n in corpus])
    out.append(("Counting, corpus: `utf8_count_chars` ÷ simdutf `count_utf8`, every file",
                "≥ 1.00× on each", "—" if w is None else
                f"slowest {w:.2f}× ({wn}), geometric mean {g:.2f}×; "
                f"{below} of {len(pairs)} files below; `count_utf8` outruns libutf8's own "
                f"`utf8_validate` on {beyond} of {len(bound)} files"
                + (f", by up to {max(bound):.2f}×" if beyond else "")
                + (f"; against `validate_utf8` then `count_utf8`, which a count of untrusted "
                   f"input takes with simdutf, geometric mean {checked:.2f}×"
                   if checked is not None else ""),
                verdict(None if w is None else w >= 1, all(r for _, r in pairs), True)))

    # Transcoding, every direction, every corpus file.
    for label, ours, peer in TRANSCODERS:
        pairs = [(name(n), res.ratio("rust", n, ours, peer)) for n in corpus]
        w, wn = worst(pairs)
        g = geomean([r for _, r in pairs])
        below = sum(1 for _, r in pairs if r is not None and r < 1)
        out.append((f"Transcoding {label}, corpus: libutf8 (strict) ÷ simdutf (validating), "
                    "every file", "≥ 1.00× on each", "—" if w is None else
                    f"slowest {w:.2f}× ({wn}), geometric mean {g:.2f}×; "
                    f"{below} of {len(pairs)} files below",
                    verdict(None if w is None else w >= 1, all(r for _, r in pairs), True)))
    return out


def other_goals(res):
    """[(goal, target, measured, verdict)] of the goals not over the corpus."""
    out = []
    verdict = verdict_of

    # ASCII against memchr, in the C harness.
    for n, target in (("ascii-64KiB", 0.90), ("ascii-1MiB", 0.90), ("ascii-64MiB", 0.95)):
        r = res.ratio("c", n, LIB_VALIDATE, MEMCHR)
        out.append((f"ASCII, {n.split('-')[1].replace('KiB', ' KiB').replace('MiB', ' MiB')}: "
                    "`utf8_validate` ÷ `memchr` (C harness)", f"≥ {target:.2f}×",
                    times(r), verdict(None if r is None else r >= target)))

    # Short strings: time per call against the faster of simdutf's two validators.
    for n in res.names("short"):
        kind, length = n.split("-")[1], n.rsplit("-", 1)[1]
        if kind not in ("ascii", "mixed") or length not in SHORT_GOAL_LENGTHS:
            continue
        ours = res.ns("rust", n, LIB_VALIDATE)
        peers = [res.ns("rust", n, p) for p in (SIMDUTF_BOOL, SIMDUTF_ERR)]
        peers = [p for p in peers if p]
        if ours is None or not peers:
            out.append((f"Short strings, {n[6:].replace('-', ', ')} bytes: libutf8 time per call "
                        "÷ the faster simdutf validator's", "≤ 1.00×", "—", verdict(None)))
            continue
        best = min(p[0] for p in peers)
        out.append((f"Short strings, {n[6:].replace('-', ', ')} bytes: libutf8 time per call ÷ "
                    "the faster simdutf validator's", "≤ 1.00×",
                    f"{ours[0]:.1f} ns vs {best:.1f} ns = {ours[0] / best:.2f}×",
                    verdict(ours[0] <= best)))
    return out


# --- Latin-1, Windows-1252 and UTF-16BE (bench/src/encodings.rs) ----------------------------

# The manifest's kinds of the Latin-1 text made from each corpus file and of its UTF-8 form.
LATIN1, LATIN1_UTF8 = "latin1", "latin1-utf8"
LIB_LATIN1_TO_UTF8 = "libutf8 latin1_to_utf8"
SIMDUTF_LATIN1_TO_UTF8 = "simdutf convert_latin1_to_utf8"
LIB_CP1252_TO_UTF8 = "libutf8 cp1252_to_utf8"
ENCODING_RS_CP1252 = "encoding_rs windows-1252 decode_to_utf8"
LIB_UTF8_TO_LATIN1 = "libutf8 utf8_to_latin1"
SIMDUTF_UTF8_TO_LATIN1 = "simdutf convert_utf8_to_latin1"
# Per direction of UTF-16BE: (label, libutf8 big-endian, libutf8 in the machine's order, simdutf).
UTF16BE = [
    ("UTF-8 to UTF-16BE", "libutf8 utf8_to_utf16 UTF8_UTF16BE",
     "libutf8 utf8_to_utf16 (native order)", "simdutf convert_utf8_to_utf16be"),
    ("UTF-16BE to UTF-8", "libutf8 utf16_to_utf8 UTF8_UTF16BE",
     "libutf8 utf16_to_utf8 (native order)", "simdutf convert_utf16be_to_utf8"),
]
# The most time a big-endian conversion may take, as a multiple of the native order's.
BE_TARGET = 1.10


def latin1_names(res):
    """[(corpus file, its Latin-1 input, its UTF-8 input)] of the files that have them."""
    utf8 = set(res.names(LATIN1_UTF8))
    out = [(n.removeprefix("latin1-"), n, "latin1-utf8-" + n.removeprefix("latin1-"))
           for n in res.names(LATIN1)]
    out += [(n.removeprefix("latin1-utf8-"), "latin1-" + n.removeprefix("latin1-utf8-"), n)
            for n in res.names(LATIN1_UTF8) if "latin1-" + n.removeprefix("latin1-utf8-")
            not in res.names(LATIN1)]
    return [(f, a, b if b in utf8 else None) for f, a, b in out]


def utf8_gbps(res, inp, impl, utf8_bytes):
    """(median, low, high) in GB/s of `utf8_bytes` bytes of UTF-8 per call, or None."""
    r = res.get("rust", inp, impl)
    if r is None or r["median_ns"] <= 0 or utf8_bytes is None:
        return None
    return (utf8_bytes / r["median_ns"], utf8_bytes / r["max_ns"], utf8_bytes / r["min_ns"])


def bytes_of(res, inp):
    return next((b for _, m, b in res.inputs if m == inp), None)


def slowdown(res, inp, be, native):
    """The big-endian conversion's time over the native order's, or None: the median over the
    rounds of the two times in the same round (the `paired_ratio` of the big-endian row), which
    a burst of load moves less than the ratio of the two medians; that ratio for results of
    before the column."""
    r = res.get("rust", inp, be)
    if r is not None and r["paired_ratio"] is not None:
        return r["paired_ratio"]
    a, b = res.ns("rust", inp, be), res.ns("rust", inp, native)
    return None if a is None or b is None or b[0] <= 0 else a[0] / b[0]


def be_paired(res):
    """Whether the UTF-16BE rows of the corpus have their paired ratios (see `slowdown`)."""
    rows = [res.get("rust", n, be) for n in res.names("corpus") for _, be, _, _ in UTF16BE]
    rows = [r for r in rows if r is not None]
    return bool(rows) and all(r["paired_ratio"] is not None for r in rows)


def be_method(res):
    """How `slowdown` compared the times, for the goal and the table."""
    if be_paired(res):
        return "paired per round: the median over the rounds of the two times' ratio in a round"
    return "the ratio of the two medians: no paired ratios in these results"


def encoding_goals(res):
    """[(goal, target, measured, verdict)] of the goals of the Latin-1 and UTF-16BE
    conversions: at least simdutf's speed on every Latin-1 input, and UTF-16BE within 10% of
    the machine's own order on every corpus file (paired per round: see `slowdown`)."""
    out = []
    files = latin1_names(res)
    for goal, ours, peer, pick in (
            ("Latin-1 to UTF-8 at least as fast as simdutf on every Latin-1 input",
             LIB_LATIN1_TO_UTF8, SIMDUTF_LATIN1_TO_UTF8, lambda a, b: a),
            ("UTF-8 to Latin-1 at least as fast as simdutf, every Latin-1 input in UTF-8",
             LIB_UTF8_TO_LATIN1, SIMDUTF_UTF8_TO_LATIN1, lambda a, b: b)):
        pairs = [(f, res.ratio("rust", pick(a, b), ours, peer)) for f, a, b in files if pick(a, b)]
        w, wn = worst(pairs)
        g = geomean([r for _, r in pairs])
        below = sum(1 for _, r in pairs if r is not None and r < 1)
        if not pairs:
            verdict = NOT_EVAL + " (no Latin-1 input measured)"
        else:
            verdict = verdict_of(None if w is None else w >= 1, all(r for _, r in pairs))
        out.append((f"{goal}: libutf8 ÷ simdutf, each file", "≥ 1.00× on each",
                    "—" if w is None else f"slowest {w:.2f}× ({wn}), geometric mean {g:.2f}×; "
                    f"{below} of {len(pairs)} inputs below", verdict))
    corpus = res.names("corpus")
    for label, be, native, _ in UTF16BE:
        pairs = [(n, slowdown(res, n, be, native)) for n in corpus]
        known = [(r, n) for n, r in pairs if r is not None]
        most = max(known) if known else (None, None)
        g = geomean([r for r, _ in known])
        above = sum(1 for r, _ in known if r > BE_TARGET)
        if not corpus:
            verdict = NOT_EVAL + " (corpus absent)"
        else:
            verdict = verdict_of(None if most[0] is None else most[0] <= BE_TARGET,
                                 len(known) == len(pairs))
        out.append((f"UTF-16BE conversions within 10% of the native-order ones: {label}, time "
                    f"with `UTF8_UTF16BE` ÷ time in the machine's order ({be_method(res)}), "
                    "every corpus file",
                    f"≤ {BE_TARGET:.2f}× on each", "—" if most[0] is None else
                    f"largest {most[0]:.2f}× ({most[1]}), geometric mean {g:.2f}×; "
                    f"{above} of {len(known)} files above", verdict))
    return out


def encodings_section(res):
    """The tables of the Latin-1, Windows-1252 and UTF-16BE conversions (Rust harness)."""
    files, corpus = latin1_names(res), res.names("corpus")
    be_measured = any(res.get("rust", n, UTF16BE[0][1]) or res.get("rust", n, UTF16BE[1][1])
                      for n in corpus)
    if not files and not be_measured:
        return []
    out = ["## Latin-1, Windows-1252 and UTF-16BE (Rust harness)\n"]
    if files:
        have = {f for f, _, _ in files}
        skipped = [n for n in corpus if n not in have]
        out.append(
            "The Latin-1 inputs are made from the corpus: each file with every character above "
            "U+00FF removed, in Latin-1 (one byte per character; the input of `latin1_to_utf8`, "
            "of `cp1252_to_utf8` and of their peers) and in UTF-8 (the input of "
            "`utf8_to_latin1`), for the files where at least 4 KiB remain"
            + (f" (not {', '.join(skipped)})" if skipped else "")
            + ". Text of other scripts keeps only its spaces, digits, punctuation and Latin "
            "words, so most of these inputs are ASCII, or nearly. GB/s of UTF-8 (the output, or "
            "the input of `utf8_to_latin1`), median (slowest–fastest sample). libutf8 runs "
            "strict (no flag); simdutf's `convert_utf8_to_latin1` validates; encoding_rs decodes "
            "Windows-1252 (WHATWG) into a buffer as large as its own bound for any output "
            "(simdutf has no Windows-1252). Each implementation's first output is compared with "
            "the standard library's, byte for byte.\n")

        def rows(ours, peer, latin1_input):
            body = []
            for f, a, b in files:
                inp = a if latin1_input else b
                if inp is None:
                    continue
                size = bytes_of(res, b) if b else None
                body.append([f, f"{bytes_of(res, inp):,}",
                             cell(utf8_gbps(res, inp, ours, size)),
                             cell(utf8_gbps(res, inp, peer, size)),
                             times(res.ratio("rust", inp, ours, peer))])
            body.append([f"**geometric mean ({len(body)} inputs)**", "", "", "", "**" + times(
                geomean([res.ratio("rust", a if latin1_input else b, ours, peer)
                         for _, a, b in files if (a if latin1_input else b)])) + "**"])
            return body

        for title, ours, peer, head, latin1_input in (
                ("Latin-1 to UTF-8", LIB_LATIN1_TO_UTF8, SIMDUTF_LATIN1_TO_UTF8, "simdutf", True),
                ("Windows-1252 to UTF-8", LIB_CP1252_TO_UTF8, ENCODING_RS_CP1252, "encoding_rs",
                 True),
                ("UTF-8 to Latin-1", LIB_UTF8_TO_LATIN1, SIMDUTF_UTF8_TO_LATIN1, "simdutf",
                 False)):
            out.append(f"### {title}\n")
            out.append(table(["corpus file", "input bytes", "libutf8", head,
                              f"libutf8 ÷ {head}"], rows(ours, peer, latin1_input)) + "\n")
    if be_measured:
        out.append("### UTF-16BE\n")
        out.append(
            "The corpus files, converted to and from UTF-16 in big-endian order "
            "(`UTF8_UTF16BE`), libutf8 strict against simdutf's validating `convert_utf8_to_"
            "utf16be` and `convert_utf16be_to_utf8`, and libutf8 in the machine's order on the "
            "same samples (*native*). The UTF-16 inputs are the UTF-8 files converted "
            "beforehand, from UTF-16 one copy whose bytes are swapped in place before a sample "
            "of the other order, so that both orders read the same memory. GB/s of UTF-8, "
            "median; *BE ÷ native* is the big-endian conversion's "
            f"time over the native one's (the goal: at most {BE_TARGET:.2f}×), "
            + ("paired per round: the median over the rounds of the big-endian time over the "
               "native one in the same round, which a burst of load from other processes slows "
               "alike, where it can move one of the two medians and not the other"
               if be_paired(res) else
               "from the two medians (these results have no paired ratios)")
            + ". Each implementation's first output is compared with the standard library's "
            "(`str::encode_utf16`, `u16::to_be`).\n")
        for label, be, native, peer in UTF16BE:
            body = [[n, median(res.gbps("rust", n, be)), median(res.gbps("rust", n, native)),
                     median(res.gbps("rust", n, peer)), times(res.ratio("rust", n, be, peer)),
                     times(slowdown(res, n, be, native))] for n in corpus]
            body.append([f"**geometric mean ({len(corpus)} files)**", "", "", "",
                         "**" + times(geomean([res.ratio("rust", n, be, peer)
                                               for n in corpus])) + "**",
                         "**" + times(geomean([slowdown(res, n, be, native)
                                               for n in corpus])) + "**"])
            out.append(f"#### {label}\n")
            out.append(table(["input", "libutf8 BE", "libutf8 native", "simdutf BE",
                              "libutf8 BE ÷ simdutf BE",
                              "BE ÷ native (time, paired per round)" if be_paired(res)
                              else "BE ÷ native (time)"], body) + "\n")
    return out


# --- The chart ------------------------------------------------------------------------------

# Series of the chart: (harness, impl, legend, colour, shape, vertical offset in its row).
SERIES = [
    ("c", MEMCHR, "memchr for an absent byte (C)", "#222222", "tick", 0),
    ("c", DFA_VALIDATE, "Hoehrmann DFA (C)", "#8c8c8c", "cross", 5),
    ("c", GLIB, "GLib g_utf8_validate_len (C)", "#8c564b", "ring", -5),
    ("rust", CORE, "core::str::from_utf8", "#9467bd", "tri_down", 4),
    ("rust", ENCODING_RS, "encoding_rs utf8_valid_up_to", "#ff7f0e", "tri_up", -4),
    ("rust", S8_BASIC, "simdutf8::basic::from_utf8", "#2ca02c", "diamond", 3),
    ("rust", SIMDUTF_ERR, "simdutf validate_utf8_with_errors", "#1f77b4", "square_open", -3),
    ("rust", SIMDUTF_BOOL, "simdutf validate_utf8", "#1f77b4", "square", 2),
    ("rust", LIB_VALIDATE, "libutf8 utf8_validate", "#d62728", "dot", 0),
]


def marker(shape, x, y, colour):
    if shape == "dot":
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="5" fill="{colour}" stroke="#000" stroke-width="0.8"/>'
    if shape == "ring":
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3.5" fill="none" stroke="{colour}" stroke-width="1.5"/>'
    if shape == "square":
        return f'<rect x="{x - 3.5:.1f}" y="{y - 3.5:.1f}" width="7" height="7" fill="{colour}"/>'
    if shape == "square_open":
        return (f'<rect x="{x - 3.5:.1f}" y="{y - 3.5:.1f}" width="7" height="7" fill="#fff" '
                f'stroke="{colour}" stroke-width="1.5"/>')
    if shape == "diamond":
        return (f'<path d="M{x:.1f} {y - 4.5:.1f}l4.5 4.5l-4.5 4.5l-4.5 -4.5z" fill="{colour}"/>')
    if shape == "tri_up":
        return f'<path d="M{x:.1f} {y - 4:.1f}l4 7h-8z" fill="{colour}"/>'
    if shape == "tri_down":
        return f'<path d="M{x:.1f} {y + 4:.1f}l4 -7h-8z" fill="{colour}"/>'
    if shape == "cross":
        return (f'<path d="M{x - 3:.1f} {y - 3:.1f}l6 6m0 -6l-6 6" stroke="{colour}" '
                'stroke-width="1.6"/>')
    if shape == "tick":
        return f'<path d="M{x:.1f} {y - 7:.1f}v14" stroke="{colour}" stroke-width="2.2"/>'
    raise ValueError(shape)


def nice_ticks(lo, hi):
    ticks, e = [], math.floor(math.log10(lo))
    while True:
        for m in (1, 2, 5):
            t = m * 10.0 ** e
            if t > hi * 1.0001:
                return ticks
            if t >= lo * 0.9999:
                ticks.append(t)
        e += 1


def chart(res, subtitle):
    rows = [("corpus", n) for n in res.names("corpus")] + \
           [("generated", n) for n in res.names("generated")]
    values = [v for _, n in rows for h, impl, *_ in SERIES
              for v in (res.gbps(h, n, impl) or ())]
    if not rows or not values:
        return None
    steps = [m * 10.0 ** e for e in range(-3, 4) for m in (1, 2, 5)]
    lo = max(s for s in steps if s <= min(values))
    hi = min(s for s in steps if s >= max(values))

    width, label_w, x0, x1 = 1000, 205, 215, 835
    row_h, top = 19, 128
    gap = 22 if res.names("generated") and res.names("corpus") else 0
    n_corpus = len(res.names("corpus"))
    plot_h = len(rows) * row_h + gap
    height = top + plot_h + 60

    def x(v):
        return x0 + (math.log10(v) - math.log10(lo)) / (math.log10(hi) - math.log10(lo)) * (x1 - x0)

    def row_y(i):
        return top + i * row_h + (gap if i >= n_corpus else 0) + row_h / 2

    esc = html.escape
    s = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
         f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">',
         f'<rect width="{width}" height="{height}" fill="#fff"/>',
         '<text x="12" y="24" font-size="16" font-weight="bold">UTF-8 validation throughput per '
         'input: libutf8 and its peers (GB/s, log scale)</text>',
         f'<text x="12" y="42" font-size="11" fill="#555">{esc(subtitle)}</text>']
    # Legend: three columns.
    for k, (_, _, legend, colour, shape, _) in enumerate(reversed(SERIES)):
        lx, ly = 20 + (k % 3) * 330, 62 + (k // 3) * 17
        s.append(marker(shape, lx, ly, colour))
        s.append(f'<text x="{lx + 12}" y="{ly + 4}" font-size="11">{esc(legend)}</text>')
    # Row shading and labels.
    for i, (kind, n) in enumerate(rows):
        y = row_y(i)
        if i % 2 == 0:
            s.append(f'<rect x="8" y="{y - row_h / 2:.1f}" width="{width - 16}" height="{row_h}" '
                     'fill="#f3f3f3"/>')
        label = n if kind == "corpus" else f"{n} (generated)"
        s.append(f'<text x="{label_w}" y="{y + 4:.1f}" font-size="11" text-anchor="end">'
                 f'{esc(label)}</text>')
    if gap:
        s.append(f'<text x="12" y="{row_y(n_corpus) - row_h / 2 - 6:.1f}" font-size="11" '
                 'font-style="italic" fill="#555">generated inputs</text>')
    # Grid and axis labels, above and below.
    for t in nice_ticks(lo, hi):
        tx = x(t)
        s.append(f'<line x1="{tx:.1f}" y1="{top - 4}" x2="{tx:.1f}" y2="{top + plot_h}" '
                 f'stroke="{"#bbb" if math.log10(t) % 1 == 0 else "#e0e0e0"}" stroke-width="1"/>')
        for ty in (top - 8, top + plot_h + 14):
            s.append(f'<text x="{tx:.1f}" y="{ty}" font-size="10" text-anchor="middle" '
                     f'fill="#444">{num(t)}</text>')
    s.append(f'<text x="{(x0 + x1) / 2:.0f}" y="{top + plot_h + 32}" font-size="11" '
             'text-anchor="middle">GB/s (10⁹ bytes per second), median; the red line spans '
             'libutf8\'s min–max</text>')
    # The right column: libutf8 over simdutf's boolean validator.
    s.append(f'<text x="{width - 14}" y="{top - 22}" font-size="10" text-anchor="end" '
             'font-weight="bold">libutf8 ÷</text>')
    s.append(f'<text x="{width - 14}" y="{top - 10}" font-size="10" text-anchor="end" '
             'font-weight="bold">simdutf bool</text>')
    for i, (_, n) in enumerate(rows):
        y = row_y(i)
        for h, impl, legend, colour, shape, dy in SERIES:
            v = res.gbps(h, n, impl)
            if v is None:
                continue
            if impl == LIB_VALIDATE:
                s.append(f'<line x1="{x(v[1]):.1f}" y1="{y:.1f}" x2="{x(v[2]):.1f}" y2="{y:.1f}" '
                         f'stroke="{colour}" stroke-width="2"/>')
            s.append(f'<g><title>{esc(n)}: {esc(legend)}: {num(v[0])} GB/s '
                     f'({num(v[1])}–{num(v[2])})</title>{marker(shape, x(v[0]), y + dy, colour)}</g>')
        r = res.ratio("rust", n, LIB_VALIDATE, SIMDUTF_BOOL)
        if r is not None:
            colour = "#1a7f1a" if r >= 1 else "#c62828"
            s.append(f'<text x="{width - 14}" y="{y + 4:.1f}" font-size="11" text-anchor="end" '
                     f'fill="{colour}">{r:.2f}×</text>')
    s.append("</svg>")
    return "\n".join(s) + "\n"


# --- The report -----------------------------------------------------------------------------


def kernels_section(res, meta, corpus, short):
    """The validation goals' inputs with libutf8's other x86_64 kernels (AVX2, SSE4.2), each
    against simdutf's for the same instructions, next to the kernel the library chooses:
    validated, and converted (with short strings of real text too)."""
    chosen = meta.get("libutf8_isa", "?")
    # (label, harness, simdutf's kernel) per column or row: the kernel the library chooses,
    # measured with every peer's own choice, then the forced ones.
    kernels = [(f"{chosen} (chosen)", "rust", "its own choice")] + [
        (isa, f"kernel-{isa}", meta.get(f"simdutf_kernel_{isa}", "?")) for isa in res.kernels]
    out = ["## The AVX2 and SSE4.2 kernels (Rust harness)\n",
           "The goals are judged on the kernel the library chooses on this machine. For machines "
           "without AVX-512, `make bench` also validates and converts the goals' inputs (and "
           "converts short strings of real text) with libutf8's other x86_64 kernels that this "
           "CPU runs (`LIBUTF8_FORCE_ISA`), each against simdutf forced "
           "to its kernel for the same instructions (`SIMDUTF_FORCE_IMPLEMENTATION`), in a run of "
           "the Rust harness of its own. These are this CPU's ratios, not another CPU's: a "
           "machine whose best kernel is AVX2 differs in more than its registers. simdutf8 has "
           "no AVX-512 kernel and picks AVX2 by itself, so its column compares kernels for the "
           "same instructions only in the AVX2 row.\n"]
    if corpus:
        rows = []
        for label, harness, theirs in kernels:
            def gm(peer):
                return times(geomean([res.ratio(harness, n, LIB_VALIDATE, peer) for n in corpus]))
            w, wn = worst([(n, res.ratio(harness, n, LIB_VALIDATE, SIMDUTF_BOOL)) for n in corpus])
            rows.append([label, theirs, gm(SIMDUTF_ERR), gm(SIMDUTF_BOOL),
                         "—" if w is None else f"{w:.2f}× ({wn})", gm(S8_BASIC)])
        out.append(f"Validation of the {len(corpus)} corpus files, libutf8's speed over each "
                   "peer's (geometric mean; the goals: at least 1.25× simdutf errors, 1.10× "
                   "simdutf bool, and no file below 1.00× simdutf bool):\n")
        out.append(table(["libutf8 kernel", "simdutf kernel", "÷ simdutf errors",
                          "÷ simdutf bool", "slowest file ÷ simdutf bool", "÷ simdutf8 basic"],
                         rows) + "\n")
    goal_strings = [n for n in short if n.split("-")[1] in ("ascii", "mixed")
                    and n.rsplit("-", 1)[1] in SHORT_GOAL_LENGTHS]
    if goal_strings:
        rows = []
        for n in goal_strings:
            row = [n[6:]]
            for _, harness, _ in kernels:
                ours = res.ns(harness, n, LIB_VALIDATE)
                best = min((p[0] for p in (res.ns(harness, n, q) for q in
                                           (SIMDUTF_BOOL, SIMDUTF_ERR)) if p), default=None)
                row.append("—" if ours is None or best is None else
                           f"{ours[0]:.1f} vs {best:.1f} ns = {ours[0] / best:.2f}×")
            rows.append(row)
        out.append("Short strings, libutf8's time per call over the faster simdutf validator's "
                   "(the goal: at most 1.00×):\n")
        out.append(table(["strings"] + [label for label, _, _ in kernels], rows) + "\n")
    # The conversions, where the kernels' runs measured them.
    def converted(n):
        return any(res.gbps(h, n, TRANSCODERS[0][1]) for _, h, _ in kernels[1:])

    corpus, short = [n for n in corpus if converted(n)], [n for n in short if converted(n)]
    if corpus:
        rows = []
        for label, harness, theirs in kernels:
            row = [label, theirs]
            for _, ours, peer in TRANSCODERS:
                pairs = [(n, res.ratio(harness, n, ours, peer)) for n in corpus]
                g, (w, wn) = geomean([r for _, r in pairs]), worst(pairs)
                row.append("—" if g is None else f"{g:.2f}×; slowest {w:.2f}× ({wn})")
            rows.append(row)
        out.append(f"Conversions of the {len(corpus)} corpus files (as in [Transcoding]"
                   "(#transcoding-rust-harness)), libutf8's speed over simdutf's, geometric mean "
                   "and slowest file:\n")
        out.append(table(["libutf8 kernel", "simdutf kernel"]
                         + [d for d, _, _ in TRANSCODERS], rows) + "\n")
    if short:
        out.append("Conversions of short strings, libutf8's speed over simdutf's per call, "
                   + ", ".join(d for d, _, _ in TRANSCODERS) + " in turn:\n")
        out.append(table(["strings"] + [label for label, _, _ in kernels],
                         [[n[6:]] + [" / ".join(times(res.ratio(h, n, o, p))
                                                for _, o, p in TRANSCODERS)
                                     for _, h, _ in kernels] for n in short]) + "\n")
    return out


# The last section of BENCHMARKS.md, from this heading to the end, is written by hand (the
# measurements behind the library's thresholds and design choices): each run keeps it.
HAND_WRITTEN = "## Measurements behind design choices"


def strategies_section(results_dir):
    """The replacement strategies against UTF8_REPLACE on corpus text with errors
    (bench/c/strategies.c, `strategies.csv`): per function and error density, each strategy's
    speed and its time over UTF8_REPLACE's, geometric mean over the files and the worst file,
    with the goal's verdict (within 10%, judged on the geometric mean). [] without the file."""
    path = os.path.join(results_dir, "strategies.csv")
    try:
        with open(path, encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
    except OSError:
        return []
    times = {}
    for r in rows:
        key = (r["function"], int(r["density"]), r["strategy"])
        times.setdefault(key, {})[r["input"]] = (float(r["median_ns"]), int(r["bytes"]),
                                                 float(r["min_ns"]))
    out = ["## Replacement strategies\n",
           "`utf8_to_utf16`, `utf8_to_utf32` and the lossy copy (`utf8_replace_invalid_flags`) on "
           "each corpus file with the top bit of one byte flipped in every 64 bytes, and in every "
           "1,024 (`bench/c/strategies.c`, C, linked against `libutf8.a`): each strategy's "
           "samples interleaved with `UTF8_REPLACE`'s. GB/s of UTF-8 input, geometric mean over "
           "the files; *time ÷ REPLACE* the strategy's median time over `UTF8_REPLACE`'s, "
           "geometric mean and worst file, and the same of the fastest samples (less moved by "
           "other processes). The goal: each strategy within 10% of `UTF8_REPLACE` (a ratio of "
           "at most 1.10×, on the geometric mean of the medians).\n"]
    body = []
    for (function, density, strategy), files in sorted(times.items()):
        if strategy == "UTF8_REPLACE":
            continue
        base = times.get((function, density, "UTF8_REPLACE"), {})
        names = [n for n in files if n in base]
        if not names:
            continue
        ratios = [files[n][0] / base[n][0] for n in names]
        speed = geomean([files[n][1] / files[n][0] for n in names])
        base_speed = geomean([base[n][1] / base[n][0] for n in names])
        g, worst_ratio = geomean(ratios), max(ratios)
        fastest = geomean([files[n][2] / base[n][2] for n in names])
        body.append([f"`{function}`", f"1 in {density:,}", f"`{strategy}`",
                     f"{base_speed:.2f}", f"{speed:.2f}", f"{g:.2f}×",
                     f"{worst_ratio:.2f}×", f"{fastest:.2f}×", "met" if g <= 1.10 else "not met"])
    if not body:
        return []
    out.append(table(["function", "errors", "strategy", "GB/s, REPLACE", "GB/s, strategy",
                      "time ÷ REPLACE", "worst file", "fastest ÷ fastest", "verdict"], body)
               + "\n")
    return out


# --- Short strings against simdutf called directly (bench/c/short_strings.cpp) ---------------

SHORT_STRINGS_TARGET = 0.95
SHORT_STRINGS_DIRECTIONS = [("utf8_to_utf16", "UTF-8 to UTF-16", "convert_utf8_to_utf16le"),
                            ("utf16_to_utf8", "UTF-16 to UTF-8", "convert_utf16le_to_utf8"),
                            ("utf8_to_utf32", "UTF-8 to UTF-32", "convert_utf8_to_utf32"),
                            ("utf32_to_utf8", "UTF-32 to UTF-8", "convert_utf32_to_utf8")]
SHORT_STRINGS_SCRIPTS = ["ascii", "latin", "2-byte", "3-byte", "emoji"]
SHORT_STRINGS_SIZES = [16, 32, 64, 128, 256]


SHORT_STRINGS_MEDIANS = ("libutf8_ns", "simdutf_ns", "ratio", "ratio_of_medians",
                         "libutf8_min_ns", "simdutf_min_ns")


def short_strings_cells(results_dir):
    """{(direction, script, size): row} of `short_strings-N.csv` (bench/run.sh runs the
    harness in LIBUTF8_BENCH_SHORT_PROCESSES processes), or of one `short_strings.csv`; each
    time and ratio the median of the processes'. {} without the files."""
    paths = sorted(glob.glob(os.path.join(results_dir, "short_strings-*.csv"))) or \
        [os.path.join(results_dir, "short_strings.csv")]
    runs = {}
    for path in paths:
        try:
            with open(path, encoding="utf-8") as f:
                for r in csv.DictReader(f):
                    runs.setdefault((r["direction"], r["script"], int(r["size"])), []).append(r)
        except OSError:
            continue
    cells = {}
    for key, rows in runs.items():
        row = dict(rows[0])
        for field in SHORT_STRINGS_MEDIANS:
            if all(r.get(field) not in (None, "") for r in rows):
                row[field] = str(statistics.median(float(r[field]) for r in rows))
        row["processes"] = len(rows)
        cells[key] = row
    return cells


def short_strings_goal(results_dir):
    """The goal row of the short strings against simdutf called directly: every cell at least
    SHORT_STRINGS_TARGET, the cells below it listed."""
    cells = short_strings_cells(results_dir)
    goal = ("Short strings, 16–256 bytes, 5 scripts, 4 directions: simdutf (C++) time ÷ "
            "libutf8 time, every cell ([table](#short-strings-against-simdutf-called-from-c))")
    target = f"≥ {SHORT_STRINGS_TARGET:.2f}× every cell"
    wanted = [(d, s, n) for d, _, _ in SHORT_STRINGS_DIRECTIONS for s in SHORT_STRINGS_SCRIPTS
              for n in SHORT_STRINGS_SIZES]
    if not cells:
        return [(goal, target, "—", verdict_of(None), "—", "—")]
    below = sorted(((float(cells[k]["ratio"]), k) for k in wanted if k in cells
                    and float(cells[k]["ratio"]) < SHORT_STRINGS_TARGET))
    have = sum(k in cells for k in wanted)
    worst_ratio = min(float(cells[k]["ratio"]) for k in wanted if k in cells)
    measured = f"{len(below)} of {have} cells below, worst {worst_ratio:.2f}×"
    if below:
        measured += ": " + ", ".join(f"{s} {n} B {d.replace('_to_', '→')} {r:.2f}×"
                                     for r, (d, s, n) in below)
    return [(goal, target, measured, verdict_of(not below, complete=have == len(wanted)),
             "—", "—")]


def short_strings_section(results_dir):
    """Tables of the short strings against simdutf called from C++, one per direction: scripts
    by sizes, simdutf's time over libutf8's. [] without its results."""
    cells = short_strings_cells(results_dir)
    if not cells:
        return []
    any_row = next(iter(cells.values()))
    generated = sorted({s for (_, s, _), r in cells.items() if r["source"] != "corpus"})
    out = ["## Short strings against simdutf called from C++\n",
           "libutf8's strict converters (`target/release/libutf8.a`) against simdutf's "
           "validating `convert_*` functions, simdutf compiled at `-O3` from the C++ sources "
           "that the simdutf crate ships and called directly from C++ (its run-time dispatch "
           f"choosing its kernel: {any_row.get('simdutf_kernel', '?')}), not through the crate (`bench/c/short_strings.cpp`, "
           "`bench/results/short_strings-*.csv`). Each cell holds "
           f"{int(any_row['strings']):,} different strings cut from the corpus at random "
           "characters, as many whole characters as fit in the size (*ascii*: English "
           "Wikipedia text without its other characters; *latin*: French, German, Portuguese, "
           "Czech and Turkish Wikipedia text; *2-byte*: Russian, Hebrew and Arabic lipsum and "
           "Greek Wikipedia text; *3-byte*: Chinese, Japanese and Korean lipsum; *emoji*: emoji "
           "lipsum), each converted by its own call, all of them in each round, the two "
           "libraries alternating which goes first. Each cell: the median over the rounds of "
           "simdutf's time over libutf8's in the same round (above 1.00× libutf8 is faster; in "
           f"bold below the goal's {SHORT_STRINGS_TARGET:.2f}×), then the medians of libutf8's "
           "and simdutf's ns per string. Paired by round, the ratio is less moved by other "
           "processes than the ratio of the two medians (also in the CSV file). The harness "
           f"runs in {any_row['processes']} processes, one after the other, and each figure "
           "is the median of theirs (a single process's ratio moved by up to 0.1 from run to "
           "run).\n"]
    if generated:
        out.append("Generated from a fixed seed, the corpus lacking their files: "
                   + ", ".join(generated) + ".\n")
    for d, label, peer in SHORT_STRINGS_DIRECTIONS:
        rows = []
        for s in SHORT_STRINGS_SCRIPTS:
            row = [s]
            for n in SHORT_STRINGS_SIZES:
                r = cells.get((d, s, n))
                if r is None:
                    row.append("—")
                    continue
                ratio = float(r["ratio"])
                shown = f"**{ratio:.2f}×**" if ratio < SHORT_STRINGS_TARGET else f"{ratio:.2f}×"
                row.append(f"{shown} ({float(r['libutf8_ns']):.1f} / {float(r['simdutf_ns']):.1f})")
            rows.append(row)
        g = [geomean([float(cells[(d, s, n)]["ratio"]) for s in SHORT_STRINGS_SCRIPTS
                      if (d, s, n) in cells]) for n in SHORT_STRINGS_SIZES]
        rows.append(["geometric mean"] + [times(x) for x in g])
        out.append(f"### {label}: `{d}` and simdutf's `{peer}`\n")
        out.append(table(["script"] + [f"{n} B" for n in SHORT_STRINGS_SIZES], rows) + "\n")
    return out


# --- The inline decoder against ICU's U8_NEXT (bench/c/decode_icu.c) -----------------------

DECODE_ICU_TARGET = 0.95
DECODE_ICU_GOAL = "Inline decoder: `utf8_decode_next` loop ÷ ICU `U8_NEXT` loop, each file"


DECODE_ICU_MEDIANS = ("libutf8_median_ns", "libutf8_min_ns", "icu_median_ns", "icu_min_ns",
                      "icu_over_libutf8")


def decode_icu_rows(results_dir):
    """{compiler: {input: row}} from `decode_icu.csv`, compilers in the order run; {} without
    the file. A file measured by several processes of a compiler's binary (bench/run.sh runs
    each LIBUTF8_BENCH_DECODE_PROCESSES times) gets one row: each time and ratio the median of
    the processes' (the `processes` field says how many)."""
    try:
        with open(os.path.join(results_dir, "decode_icu.csv"), encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
    except OSError:
        return {}
    runs = {}
    for r in rows:
        runs.setdefault(r["compiler"], {}).setdefault(r["input"], []).append(r)
    out = {}
    for compiler, files in runs.items():
        for name, rs in files.items():
            row = dict(rs[0])
            for k in DECODE_ICU_MEDIANS:
                row[k] = str(statistics.median(float(r[k]) for r in rs))
            row["processes"] = len(rs)
            out.setdefault(compiler, {})[name] = row
    return out


def decode_icu_goals(results_dir):
    """[(goal, target, measured, verdict)]: every corpus file at least DECODE_ICU_TARGET× ICU's
    speed (its paired time ratio), with gcc and with clang at -O2."""
    rows = decode_icu_rows(results_dir)
    target = f"≥ {DECODE_ICU_TARGET:.2f}× on each file, gcc and clang at -O2"
    if not rows:
        return [(DECODE_ICU_GOAL, target, "—", verdict_of(None))]
    parts, ok = [], True
    for compiler in ("gcc", "clang"):
        files = rows.get(compiler)
        if not files:
            parts.append(f"{compiler}: not run")
            ok = False
            continue
        r, name = min((float(row["icu_over_libutf8"]), n) for n, row in files.items())
        parts.append(f"{compiler}: worst {r:.2f}× ({name})")
        ok = ok and r >= DECODE_ICU_TARGET
    complete = all(c in rows for c in ("gcc", "clang"))
    return [(DECODE_ICU_GOAL, target, "; ".join(parts), verdict_of(ok, complete))]


def decode_icu_section(results_dir):
    """The table of bench/c/decode_icu.c's results: per corpus file and compiler, each loop's
    speed and ICU's time over libutf8's; [] without the file."""
    rows = decode_icu_rows(results_dir)
    if not rows:
        return []
    compilers = list(rows)
    processes = "/".join(sorted({str(r["processes"]) for f in rows.values() for r in f.values()}))
    out = ["## Decoding loop against ICU's U8_NEXT\n",
           "Each corpus file decoded to code points stored in an array by the loop a C program "
           "writes around the header's inline `utf8_decode_next` and around ICU's `U8_NEXT` "
           "macro (`unicode/utf8.h`), one source (`bench/c/decode_icu.c`) compiled with "
           + " and ".join(f"`{c} -O2`" for c in compilers) + ". Both loops must give the same "
           "code points. Samples of the two loops alternate, the first of each pair alternating; "
           "GB/s of UTF-8 input at the median sample, and *ICU ÷ libutf8*, the median over the "
           "pairs of ICU's time over libutf8's (above 1.00×, libutf8's loop is faster), and the "
           "same of their fastest samples (less moved by other processes). Each binary runs "
           f"in {processes} processes, one after the other, and each figure is the median of "
           "theirs: one process's ratio on one file moved by up to 25% from run to run. The "
           f"goal: at least {DECODE_ICU_TARGET:.2f}× on every file with both compilers.\n"]
    names = []
    for c in compilers:
        names += [n for n in rows[c] if n not in names]
    head, body = ["input"], []
    for c in compilers:
        head += [f"{c}: libutf8", f"{c}: ICU", f"{c}: ICU ÷ libutf8",
                 f"{c}: fastest ÷ fastest"]
    ratios = {c: [] for c in compilers}
    for n in names:
        line = [n]
        for c in compilers:
            r = rows[c].get(n)
            if r is None:
                line += ["—"] * 4
                continue
            b = int(r["bytes"])
            ratio = float(r["icu_over_libutf8"])
            ratios[c].append(ratio)
            mark = "" if ratio >= DECODE_ICU_TARGET else " ✗"
            line += [f"{b / float(r['libutf8_median_ns']):.2f}",
                     f"{b / float(r['icu_median_ns']):.2f}", f"{ratio:.2f}×{mark}",
                     f"{float(r['icu_min_ns']) / float(r['libutf8_min_ns']):.2f}×"]
        body.append(line)
    body.append(["geometric mean"] + sum((["", "", f"{geomean(ratios[c]):.2f}×", ""]
                                         for c in compilers), []))
    out.append(table(head, body) + "\n")
    for goal, target, measured, verdict in decode_icu_goals(results_dir):
        out.append(f"Verdict: {verdict} ({measured}; target {target}).\n")
    return out


# --- Lossy repair of error-dense text (bench/c/lossy_dense.c) -------------------------------

LOSSY_SPREAD_TARGET = 1.10


def lossy_dense_rows(results_dir):
    """`lossy_dense.csv` as ({(input, density, impl): row}, {(input, offset): median ns},
    [inputs in order]), or None without the file."""
    try:
        with open(os.path.join(results_dir, "lossy_dense.csv"), encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
    except OSError:
        return None
    peers, placement, names = {}, {}, []
    for r in rows:
        if r["input"] not in names:
            names.append(r["input"])
        if r["kind"] == "peers":
            peers[(r["input"], int(r["density"]), r["impl"])] = r
        else:
            placement[(r["input"], int(r["offset"]))] = float(r["median_ns"])
            # Each offset's time over offset 0's in the same round, median over the rounds
            # (results of before the column: the medians' ratio).
            placement[(r["input"], int(r["offset"]), "paired")] = float(r.get("paired") or 0)
    return peers, placement, names


def lossy_ratio(peers, name, density, peer):
    """The peer's time over libutf8's: the median of the ratios in the same rounds (results
    of before that column: the ratio of the medians), or None."""
    a, b = peers.get((name, density, peer)), peers.get((name, density, "libutf8"))
    if a is None or b is None or float(b["median_ns"]) <= 0:
        return None
    if float(a.get("paired") or 0) > 0:
        return float(a["paired"])
    return float(a["median_ns"]) / float(b["median_ns"])


def lossy_spreads(placement, names):
    """[(input, slowest over fastest time across the output placements)]: from each offset's
    paired ratio to offset 0, or the medians where the results have none."""
    out = []
    for n in names:
        paired = [t for k, t in placement.items() if len(k) == 3 and k[0] == n and t > 0]
        ts = paired or [t for k, t in placement.items() if len(k) == 2 and k[0] == n and t > 0]
        if ts:
            out.append((n, max(ts) / min(ts)))
    return out


def lossy_dense_goals(results_dir):
    """[(goal, target, measured, verdict)]: at one error per 16 bytes libutf8 at least as fast
    as ICU and iconv on every file, and its time across output placements within 10%."""
    got = lossy_dense_rows(results_dir)
    goal1 = ("Lossy repair at 1 error per 16 B: every file ≥ 1.00× ICU and iconv "
             "(peer's time ÷ `utf8_replace_invalid`'s)")
    goal2 = ("Lossy repair, placement spread ≤ 1.10×: `utf8_replace_invalid`'s slowest ÷ "
             "fastest time across output offsets modulo 4 KiB, every file, 1 error per 16 B")
    if got is None:
        return [(goal1, "≥ 1.00× on each", "—", NOT_EVAL + " (results missing)"),
                (goal2, f"≤ {LOSSY_SPREAD_TARGET:.2f}× on each", "—",
                 NOT_EVAL + " (results missing)")]
    peers, placement, names = got
    if not names:
        return [(goal1, "≥ 1.00× on each", "—", NOT_EVAL + " (corpus absent)"),
                (goal2, f"≤ {LOSSY_SPREAD_TARGET:.2f}× on each", "—",
                 NOT_EVAL + " (corpus absent)")]
    measured, ok, complete = [], True, True
    for peer, label_ in (("icu", "ICU"), ("iconv", "iconv")):
        pairs = [(n, lossy_ratio(peers, n, 16, peer)) for n in names]
        complete = complete and all(r is not None for _, r in pairs)
        w, wn = worst(pairs)
        below = sum(1 for _, r in pairs if r is not None and r < 1)
        if w is not None:
            ok = ok and w >= 1
            measured.append(f"{label_}: slowest {w:.2f}× ({wn}), geometric mean "
                            f"{geomean([r for _, r in pairs if r]):.2f}×; {below} of "
                            f"{len(pairs)} files below")
    spreads = lossy_spreads(placement, names)
    most = max(((s, n) for n, s in spreads), default=(None, None))
    above = sum(1 for _, s in spreads if s > LOSSY_SPREAD_TARGET)
    return [(goal1, "≥ 1.00× on each", "; ".join(measured) or "—",
             verdict_of(ok if measured else None, complete)),
            (goal2, f"≤ {LOSSY_SPREAD_TARGET:.2f}× on each", "—" if most[0] is None else
             f"largest {most[0]:.2f}× ({most[1]}); {above} of {len(spreads)} files above",
             verdict_of(None if most[0] is None else most[0] <= LOSSY_SPREAD_TARGET,
                        len(spreads) == len(names)))]


def lossy_dense_section(results_dir):
    """The tables of lossy repair against ICU and iconv and of the output placement, with the
    goals' verdicts. [] without `lossy_dense.csv`."""
    got = lossy_dense_rows(results_dir)
    if got is None:
        return []
    peers, placement, names = got
    densities = sorted({d for (_, d, _) in peers}, reverse=True)
    offsets = sorted({k[1] for k in placement if len(k) == 2})
    out = ["## Lossy repair of error-dense text\n",
           "Each corpus file with the top bit of one byte flipped in every 1,024, 64 and 16 bytes "
           "(`bench/c/lossy_dense.c`, C, linked against `libutf8.a`), repaired by libutf8's "
           "`utf8_replace_invalid`, by ICU's `u_strFromUTF8WithSub(..., 0xFFFD, ...)` then "
           "`u_strToUTF8`, and by glibc's `iconv` from UTF-8 to UTF-8 in the usual loop that "
           "writes U+FFFD and skips one byte where iconv stops (EILSEQ, EINVAL); samples "
           "interleaved, medians. GB/s of input for libutf8; the ratios are the peer's time over "
           "libutf8's in the same round, median over the rounds (above 1.00× libutf8 is faster). ICU replaces each maximal subpart, as "
           "libutf8 does, and its output is checked byte for byte; iconv's one-byte skip gives "
           "one U+FFFD per byte of a truncated character, so its output differs where the text "
           "has one (*same* is whether it matched). The output sits at offset 0 from the input "
           "modulo 4 KiB, where glibc's malloc puts two large buffers.\n"]
    body = []
    for n in names:
        for d in densities:
            lib = peers.get((n, d, "libutf8"))
            if lib is None:
                continue
            ratio = [lossy_ratio(peers, n, d, p) for p in ("icu", "iconv")]
            ns = float(lib["median_ns"])
            same = [peers.get((n, d, p), {}).get("same_output", "?") for p in ("icu", "iconv")]
            body.append([n if d == densities[0] else "", f"1 in {d:,}",
                         f"{int(lib['errors']):,}",
                         f"{int(lib['bytes']) / ns:.2f}" if ns > 0 else "—",
                         times(ratio[0]), same[0], times(ratio[1]), same[1]])
    out.append(table(["input", "errors", "U+FFFDs", "libutf8 GB/s", "÷ ICU", "same",
                      "÷ iconv", "same"], body) + "\n")
    if placement:
        out.append("`utf8_replace_invalid` alone at 1 error per 16 bytes, the input "
                   "page-aligned and the output at each offset from it modulo 4 KiB (samples "
                   "interleaved across the offsets): GB/s, median, and the *spread*: the "
                   "slowest offset's time over the fastest's, from each offset's time over "
                   "offset 0's in the same round (median over the rounds), which a burst of "
                   "load slows alike.\n")
        rows = []
        for n, spread in lossy_spreads(placement, names):
            size = next((int(r["bytes"]) for (m, _, _), r in peers.items() if m == n), 0)
            rows.append([n] + [
                f"{size / placement[(n, o)]:.2f}" if placement.get((n, o)) else "—"
                for o in offsets] + [f"{spread:.2f}×"])
        out.append(table(["input"] + [f"offset {o:,}" for o in offsets] + ["spread"], rows)
                   + "\n")
    out.append(table(["goal", "target", "measured", "verdict"],
                     [list(g) for g in lossy_dense_goals(results_dir)], ["---"] * 4) + "\n")
    return out


def hand_written(path):
    """The hand-written last section of the report at `path`, or "" if there is none."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError:
        return ""
    at = text.find("\n" + HAND_WRITTEN + "\n")
    return text[at + 1:] if at >= 0 else ""


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--decode-icu":
        # bench/run.sh with LIBUTF8_BENCH_ONLY=decode_icu: this section alone, on stdout.
        print("\n".join(decode_icu_section(sys.argv[2]))
              or f"report.py: no decode_icu.csv in {sys.argv[2]}")
        return
    if len(sys.argv) == 3 and sys.argv[1] == "--lossy-dense":
        # bench/run.sh with LIBUTF8_BENCH_ONLY=lossy_dense: that section alone, to stdout.
        print("\n".join(lossy_dense_section(sys.argv[2])))
        return
    if len(sys.argv) != 4:
        sys.exit("usage: report.py RESULTS_DIR OUT_MD OUT_SVG")
    results_dir, out_md, out_svg = sys.argv[1:]
    here = os.path.dirname(os.path.abspath(__file__))
    res = Results(results_dir)
    if not res.rows:
        sys.exit(f"report.py: no results in {results_dir}")
    meta = read_kv(os.path.join(results_dir, "run-meta.txt"))
    cmeta = read_kv(os.path.join(results_dir, "c-meta.txt"))
    crates = crate_versions(os.path.join(here, "Cargo.lock"))
    cpu = cpuinfo()
    try:
        with open(os.path.join(results_dir, "commands.txt"), encoding="utf-8") as f:
            commands = f.read().strip()
    except OSError:
        commands = ""
    corpus, generated, short = res.names("corpus"), res.names("generated"), res.names("short")
    svg_rel = os.path.relpath(out_svg, os.path.dirname(os.path.abspath(out_md)) or ".")
    commit = meta.get("commit", "unknown")
    dirty = meta.get("dirty", "0") not in ("", "0")
    at = f"commit {commit}" + (" with uncommitted changes to the library" if dirty else "")
    samples = res.samples()

    md = []
    w = md.append
    w("# Benchmarks\n")
    w(f"Generated by `make bench` on {meta.get('date', 'an unknown date')}, {at}; do not edit, "
      "run `make bench` again (see [bench/README.md](bench/README.md)), except the last section, "
      f"*{HAND_WRITTEN[3:]}*, written by hand and carried over as it is. Speeds are in GB/s, "
      "10⁹ bytes of input per second; each cell is the median over the samples with the "
      "slowest and fastest sample in brackets. *Ratios* are libutf8's median speed over the "
      "peer's, measured in the same processes on the same bytes: above 1.00× libutf8 is "
      "faster.\n")
    w("The machine is a shared virtual machine: samples of one input are interleaved across the "
      "implementations so that interference slows them alike, but a ratio within about 10% of "
      "its goal can change verdict from one run to the next.\n")

    # Summary.
    w("## At a glance\n")
    svg = chart(res, f"{cpu.get('model', '?')}, {cpu.get('cpus', '?')} CPUs; "
                     f"{meta.get('date', '')}, {at}")
    if svg:
        w(f"![UTF-8 validation throughput per input]({svg_rel})\n")
    lines = []
    for peer in (SIMDUTF_BOOL, SIMDUTF_ERR, S8_BASIC, CORE, ENCODING_RS):
        g = geomean([res.ratio("rust", n, LIB_VALIDATE, peer) for n in corpus])
        if g is not None:
            lines.append(f"- Validation over the {len(corpus)} corpus files (geometric mean): "
                         f"libutf8 runs at {g:.2f}× the speed of {peer}.")
    for peer in (UTF8PROC, DFA_DECODE):
        g = geomean([res.ratio("c", n, LIB_DECODE, peer) for n in corpus])
        if g is not None:
            lines.append(f"- Decoding loop over the corpus (geometric mean): libutf8's "
                         f"`utf8_decode_next` loop runs at {g:.2f}× the speed of the {peer}.")
    r = res.ratio("c", "ascii-1MiB", LIB_VALIDATE, MEMCHR)
    if r is not None:
        lines.append(f"- Pure ASCII, 1 MiB: `utf8_validate` runs at {r:.2f}× the speed of "
                     "`memchr` reading the same bytes.")
    if not corpus:
        lines.append(f"- The corpus was not found at `{meta.get('corpus', '?')}`: its rows are "
                     "absent; set `LIBUTF8_CORPUS` to its folder.")
    w("\n".join(lines) + "\n")

    # Goals.
    w("## Goals\n")
    w("Computed from this run's numbers; each is a target of the project, not a claim.\n")
    w("The goals over the corpus are judged twice: on each file processed again and again, as "
      "the tables below measure it, and on *fresh text*, the same file with its lines in other "
      "orders, a new order at each call (see [Fresh text](#fresh-text)).\n")
    rows = ([list(g) for g in goals(res) + short_strings_goal(results_dir)]
            + [list(g) + ["—", "—"] for g in decode_icu_goals(results_dir)])
    w(table(["goal", "target", "measured", "verdict", "measured, fresh text",
             "verdict, fresh text"], rows, ["---"] * 6) + "\n")

    # Machine.
    w("## Machine\n")
    flags = cpu.get("flags", [])
    simd_has = [f for f in SIMD_FLAGS if f in flags]
    # Flags that are optional or spelt two ways (Linux writes avx512_vbmi2 where others write
    # avx512vbmi2): absent only if no spelling is present.
    simd_lacks = [f for f in SIMD_FLAGS if f not in flags and f not in
                  ("lzcnt", "abm", "avx512_vbmi2", "asimd", "sve", "sve2")
                  and not (f == "avx512vbmi2" and "avx512_vbmi2" in flags)]
    libc = " ".join(platform.libc_ver()).strip() or "unknown"
    items = [
        f"CPU: {cpu.get('model', 'unknown')}, {cpu.get('cpus', '?')} logical CPUs"
        + (f", cache {cpu['cache']}" if cpu.get("cache") else "") + " (from /proc/cpuinfo)",
        "SIMD features present: " + (", ".join(simd_has) or "none of those checked")
        + ("; absent: " + ", ".join(simd_lacks) if simd_lacks else ""),
        f"Kernel: {meta.get('kernel', platform.release())}; C library: {libc} "
        "(its `memchr` and `memcpy` choose their kernel at run time)",
        f"Compilers: {meta.get('rustc', 'rustc ?')}; {meta.get('cc', 'cc ?')}",
        f"libutf8 {cmeta.get('libutf8', '?')} (C harness: `target/release/libutf8.a`; Rust "
        "harness: the same sources, built with the same release profile, link-time optimisation "
        "included; both call the exported C functions, never inlined); implementation in use: "
        f"{meta.get('libutf8_isa', '?')}",
        f"Rust peers (bench/Cargo.lock): simdutf crate {crates.get('simdutf', '?')} (bundles "
        f"the simdutf C++ library), simdutf8 {crates.get('simdutf8', '?')}, encoding_rs "
        f"{crates.get('encoding_rs', '?')}; simdutf and simdutf8 pick their kernel at run time "
        "from the CPU features",
        f"C peers (Debian packages): utf8proc {cmeta.get('utf8proc', '?')}, GLib "
        f"{cmeta.get('glib', '?')}",
    ]
    w("\n".join("- " + i for i in items) + "\n")
    if flags:
        w("<details><summary>All CPU flags</summary>\n\n```\n" + " ".join(flags)
          + "\n```\n</details>\n")

    # Method.
    w("## Method\n")
    w((f"- Inputs: the {len(corpus)} real-text files of the corpus (`{meta.get('corpus', '?')}`); "
       if corpus else f"- Inputs: no corpus (`{meta.get('corpus', '?')}` was absent in this run); ")
      + "generated pure ASCII and random "
      "mixed 1–4-byte text (character widths equally likely, scalar values uniform within a "
      "width, fixed seed) at 64 KiB, 1 MiB and 64 MiB, and at 64 KiB ASCII text with an emoji "
      "instead of one character in 40 or so (*emoji*, as in chat messages, a shape the corpus "
      "lacks); pools of 1,024 short strings of 16, 64, "
      "100, 256 and 1000 bytes, ASCII and mixed, and of 300 and 1000 bytes of ASCII with one "
      "\"é\" at a random place (*accent*), each call validating one string (the goals name 16, 64 "
      "and 256; 100 bytes end inside a register and a block, 1000 bytes are too long for one "
      "tail and too short for the aligned block loop, and *accent* strings take the path that "
      "skips ASCII blocks before the rest); pools of 1,024 strings of 16 and 64 bytes cut at "
      "random characters from three corpus files, Russian and Chinese lipsum and French "
      "Wikipedia (*russian*, *chinese*, *french*: real text, whose characters change width at "
      "spaces and punctuation, not at every character as in *mixed*), as many whole characters "
      "as fit, then spaces; and, for each corpus file, its *fresh text*: "
      f"copies of it to at least {FRESH_MIB} MiB, its lines in a new order in each, one copy per "
      "call. Both harnesses read the same files.")
    w("- Each implementation's first call is checked: validators must accept the whole input, "
      "decoding loops must sum the same code points (Rust: as `core::str`; C: the three loops "
      "agree), counters must give the number of characters.")
    w("- A repetition count is calibrated so that one sample lasts at least "
      f"{meta.get('sample_ms') or '10'} ms; samples are taken round-robin over the "
      "implementations, the starting one rotating each round; "
      f"{' or '.join(map(str, samples))} samples per input and implementation "
      "(fewer for the 64 MiB inputs)"
      + (f", taken by the C harness in {res.processes['c']} processes, one after the other, "
         "its cells the medians of the processes' medians: where the system loads the "
         "executable, at random, moved its decoding loops by up to 20% on single files"
         if res.processes.get("c", 1) > 1 else "")
      + (f"; the Rust harness's Latin-1 and UTF-16BE conversions in {res.processes['rust']} "
         "processes (the first measures everything), their cells the medians of the processes' "
         "medians and paired ratios: where a process's buffers land moved one file's ratio by "
         "up to 15% between processes"
         if res.processes.get("rust", 1) > 1 else "")
      + ". Time is the monotonic clock (`Instant`, `clock_gettime(CLOCK_MONOTONIC)`).")
    w("- Each bulk input is processed again and again, and the CPU's branch predictors can "
      "learn much of the pattern of a file of a few hundred KB, better for one build's code "
      "than for another's: single files' ratios have moved by 10-40% between builds that "
      "differ only in code those files never run. Geometric means move much less. The corpus "
      "goals are therefore also judged on *fresh text* (see [Fresh text](#fresh-text)), "
      "which the predictors cannot learn.")
    w("- Rust harness (`bench/src/main.rs`): libutf8's `utf8_validate`, `utf8_decode_next` loop"
      + " and `utf8_count_chars`"
      + ", `core::str::from_utf8`, simdutf8's `basic` and `compat` `from_utf8`, simdutf's "
      "`validate_utf8`, `validate_utf8_with_errors`, `count_utf8` and `count_utf8` after "
      "`validate_utf8`, encoding_rs's "
      "`Encoding::utf8_valid_up_to`.")
    w("- C harness (`bench/c/bench.c`, `-O2`, functions and loops aligned to 64 bytes): "
      "libutf8's `utf8_validate` and `utf8_decode_next` "
      "loop, utf8proc's `utf8proc_iterate` loop, GLib's `g_utf8_validate_len`, a table-driven "
      "DFA after Bjoern Hoehrmann's \"Flexible and Economical UTF-8 Decoder\" (decoding, and "
      "validating without a test in the loop), and the physical references `memchr` for an "
      "absent byte and `memcpy`.")
    w(f"- The whole `make bench` took {meta.get('total_s', '?')} s: build "
      f"{meta.get('build_s', '?')} s, Rust harness {meta.get('rust_s', '?')} s"
      + (f", the other kernels {meta['kernels_s']} s" if res.kernels and "kernels_s" in meta
         else "") + f", C harness "
      f"{meta.get('c_s', '?')} s.\n")
    if commands:
        w("Commands, from the repository's top (`make bench` runs `make` then `bench/run.sh`):\n")
        w("```sh\n" + commands + "\n```\n")

    bulk = corpus + generated

    def label(n):
        return n if n in corpus else f"{n} *(generated)*"

    def nbytes(n):
        return next(f"{b:,}" for k, m, b in res.inputs if m == n)

    def ratio_rows(harness, ours, peers, names):
        rows = [[label(n)] + [times(res.ratio(harness, n, ours, p)) for p in peers] for n in names]
        if corpus:
            rows.append([f"**geometric mean, corpus ({len(corpus)} files)**"]
                        + [f"**{times(geomean([res.ratio(harness, n, ours, p) for n in corpus]))}**"
                           for p in peers])
        return rows

    # Validation, Rust harness.
    if bulk:
        w("## Validation (Rust harness)\n")
        w("GB/s, median (slowest–fastest sample). *simdutf bool* is `validate_utf8`, *simdutf "
          "errors* `validate_utf8_with_errors`; *simdutf8 basic* and *compat* are its two "
          "`from_utf8`.\n")
        w(table(["input", "bytes"] + [SHORT[i] for i in RUST_VALIDATORS],
                [[label(n), nbytes(n)] + [cell(res.gbps("rust", n, i)) for i in RUST_VALIDATORS]
                 for n in bulk]) + "\n")
        w("libutf8's speed over each peer's:\n")
        peers = RUST_VALIDATORS[1:]
        w(table(["input"] + [f"÷ {SHORT[p]}" for p in peers],
                ratio_rows("rust", LIB_VALIDATE, peers, bulk)) + "\n")

        if res.kernels:
            md.extend(kernels_section(res, meta, corpus, short))

        md.extend(strategies_section(results_dir))
        md.extend(decode_icu_section(results_dir))
        md.extend(lossy_dense_section(results_dir))

        w("## Validation and physical references (C harness)\n")
        w("GB/s. *memchr* looks for a byte that is absent (0xFF), so it reads the whole input: "
          "the speed of reading; *memcpy* copies it to another buffer.\n")
        w(table(["input"] + [SHORT[i] for i in C_VALIDATORS],
                [[label(n)] + [cell(res.gbps("c", n, i)) for i in C_VALIDATORS] for n in bulk])
          + "\n")
        w("libutf8's `utf8_validate` over each:\n")
        peers = C_VALIDATORS[1:]
        w(table(["input"] + [f"÷ {SHORT[p]}" for p in peers],
                ratio_rows("c", LIB_VALIDATE, peers, bulk)) + "\n")

        w("## Decoding every character (C harness)\n")
        w("GB/s of input for a loop that decodes each character and sums the code points: "
          "`utf8_decode_next`, `utf8proc_iterate`, and the DFA. *unchecked* is a reference, "
          "as memchr is for validation: a plain loop that takes each character's value from "
          "its lead byte and payload bits and checks nothing, what stepping through the "
          "characters costs before any validation (not a bound: a loop whose branches suit the "
          "text better can outrun it). The last column is the same libutf8 loop written in "
          "Rust, through the same C functions (Rust harness).\n")
        w(table(["input"] + [SHORT[i] for i in C_DECODERS] + ["libutf8, Rust harness"],
                [[label(n)] + [cell(res.gbps("c", n, i)) for i in C_DECODERS]
                 + [cell(res.gbps("rust", n, LIB_DECODE))] for n in bulk]) + "\n")
        w("libutf8's loop over each:\n")
        peers = C_DECODERS[1:]
        w(table(["input"] + [f"÷ {SHORT[p]}" for p in peers],
                ratio_rows("c", LIB_DECODE, peers, bulk)) + "\n")

        w("## Counting characters (Rust harness)\n")
        w("GB/s. simdutf's `count_utf8` assumes valid input and counts the bytes that are not "
          "continuations; libutf8's `utf8_count_chars` also counts each error (maximal "
          "subpart) as one character, so it must validate, and libutf8's own `utf8_validate` "
          "(the fastest validator measured here) bounds its speed. The last column is "
          "`count_utf8`'s speed over that bound: where it is above 1.00×, no counter that "
          "validates can match `count_utf8`. The last two columns time what counting input "
          "that may be invalid takes with simdutf, `validate_utf8` then `count_utf8` (which "
          "still gives no count of invalid input), and libutf8's speed over it.\n")
        w(table(["input", SHORT[LIB_COUNT], SHORT[SIMDUTF_COUNT], "ratio",
                 "libutf8 utf8_validate", "count_utf8 ÷ utf8_validate",
                 SHORT[SIMDUTF_CHECKED_COUNT], "ratio"],
                [[label(n), cell(res.gbps("rust", n, LIB_COUNT)),
                  cell(res.gbps("rust", n, SIMDUTF_COUNT)),
                  times(res.ratio("rust", n, LIB_COUNT, SIMDUTF_COUNT)),
                  cell(res.gbps("rust", n, LIB_VALIDATE)),
                  times(res.ratio("rust", n, SIMDUTF_COUNT, LIB_VALIDATE)),
                  cell(res.gbps("rust", n, SIMDUTF_CHECKED_COUNT)),
                  times(res.ratio("rust", n, LIB_COUNT, SIMDUTF_CHECKED_COUNT))]
                 for n in bulk])
          + "\n")

        w("## Transcoding (Rust harness)\n")
        w("GB/s of UTF-8 (the input, or the output for the directions to UTF-8), median. "
          "libutf8's converters run strict (no flag: they stop at the first error) into a buffer "
          "as large as the input; simdutf's are its validating `convert_*` functions. The UTF-16 "
          "and UTF-32 inputs are the UTF-8 inputs converted beforehand.\n")
        for direction, ours, peer in TRANSCODERS:
            w(f"### {direction}\n")
            w(table(["input", "libutf8", "simdutf", "ratio"],
                    [[label(n), cell(res.gbps("rust", n, ours)),
                      cell(res.gbps("rust", n, peer)),
                      times(res.ratio("rust", n, ours, peer))] for n in bulk]) + "\n")
        if short:
            w("### Short strings\n")
            w("Nanoseconds per call, median, libutf8 / simdutf, and libutf8's speed over "
              "simdutf's, on the pools of short strings of the validation table below (each "
              "string converted on its own, into an output as large as its UTF-8: exactly the "
              "size needed for the directions to UTF-8, and for ASCII in every direction):\n")

            def ns_pair(n, ours, peer):
                a, b = res.ns("rust", n, ours), res.ns("rust", n, peer)
                return "—" if a is None or b is None else f"{a[0]:.1f} / {b[0]:.1f}"

            w(table(["strings"] + [f"{d}: ns" for d, _, _ in TRANSCODERS]
                    + [f"{d}: ratio" for d, _, _ in TRANSCODERS],
                    [[n[6:]] + [ns_pair(n, o, p) for _, o, p in TRANSCODERS]
                     + [times(res.ratio("rust", n, o, p)) for _, o, p in TRANSCODERS]
                     for n in short]) + "\n")

    md.extend(encodings_section(res))
    md.extend(short_strings_section(results_dir))

    # Fresh text.
    fresh = res.names("fresh")
    if fresh:
        w("## Fresh text\n")
        w("A file processed again and again is partly learned by the CPU's branch predictors, "
          "better for one implementation's code than for another's; a program that reads text "
          "once does not get that. Each *fresh* input is a corpus file's text again and again "
          f"to at least {FRESH_MIB} MiB, its lines in a new random order in each copy after the "
          "first (a line with no line break at the end of the file stays last), and each call "
          "processes the next copy: no call sees the text the calls just before it saw. The "
          "copies are 1 to 1.1 MB of UTF-8 (their UTF-16 and UTF-32 forms, the input of two "
          "converters, are larger)"
          + (f"; a core of this CPU has {cpu['l2'] >> 10} KiB of L2 cache" if cpu.get("l2") else "")
          + ". Speeds are per call, as in the tables above; "
          "the last row gives the geometric means on the files processed again and again, for "
          "comparison.\n")
        cols = ([("rust", LIB_VALIDATE, SIMDUTF_BOOL, "validate ÷ simdutf bool"),
                 ("rust", LIB_VALIDATE, SIMDUTF_ERR, "validate ÷ simdutf errors"),
                 ("c", LIB_DECODE, UTF8PROC, "decode ÷ utf8proc (C)"),
                 ("c", LIB_DECODE, DFA_DECODE, "decode ÷ DFA (C)"),
                 ("rust", LIB_COUNT, SIMDUTF_COUNT, "count ÷ count_utf8")]
                + [("rust", ours, peer, f"{label} ÷ simdutf")
                   for label, ours, peer in TRANSCODERS])
        w("GB/s of libutf8 and of the peer of each goal, median (slowest–fastest sample), and "
          "for transcoding the medians alone:\n")
        gb_cols = [("rust", LIB_VALIDATE), ("rust", SIMDUTF_BOOL), ("c", LIB_DECODE),
                   ("c", UTF8PROC), ("rust", LIB_COUNT), ("rust", SIMDUTF_COUNT)]
        gb_heads = ["`utf8_validate`", "simdutf `validate_utf8`", "`utf8_decode_next` loop (C)",
                    "utf8proc loop (C)", "`utf8_count_chars`", "simdutf `count_utf8`"]
        w(table(["input"] + gb_heads,
                [[n.removeprefix("fresh-")] + [cell(res.gbps(h, n, i)) for h, i in gb_cols]
                 for n in fresh]) + "\n")
        w(table(["input"] + [f"{label}: libutf8 / simdutf" for label, _, _ in TRANSCODERS],
                [[n.removeprefix("fresh-")] + [f"{median(res.gbps('rust', n, ours))} / "
                                               f"{median(res.gbps('rust', n, peer))}"
                                               for _, ours, peer in TRANSCODERS] for n in fresh])
          + "\n")
        w("libutf8's speed over each peer's:\n")
        rows = [[n.removeprefix("fresh-")] + [times(res.ratio(h, n, o, p)) for h, o, p, _ in cols]
                for n in fresh]
        rows.append([f"**geometric mean, fresh text ({len(fresh)} files)**"]
                    + [f"**{times(geomean([res.ratio(h, n, o, p) for n in fresh]))}**"
                       for h, o, p, _ in cols])
        if corpus:
            rows.append([f"geometric mean, files processed again and again ({len(corpus)})"]
                        + [times(geomean([res.ratio(h, n, o, p) for n in corpus]))
                           for h, o, p, _ in cols])
        w(table(["input"] + [c[3] for c in cols], rows) + "\n")

    # Short strings.
    if short:
        w("## Short strings (ns per call)\n")
        w("Nanoseconds per call, median (fastest–slowest sample): lower is better. Each "
          "sample validates every string of a pool of 1,024 distinct strings of that length, "
          "so that branch predictors cannot learn one string. The ratio is libutf8's time over "
          "the faster of simdutf's two validators: at most 1.00× meets the goal.\n")
        rust_cols = RUST_VALIDATORS
        c_cols = [GLIB, DFA_VALIDATE, MEMCHR, MEMCPY]

        def nscell(t):
            return "—" if t is None else f"{t[0]:.1f} ({t[1]:.1f}–{t[2]:.1f})"

        rows = []
        for n in short:
            best = [res.ns("rust", n, p) for p in (SIMDUTF_BOOL, SIMDUTF_ERR)]
            best = min((b[0] for b in best if b), default=None)
            ours = res.ns("rust", n, LIB_VALIDATE)
            rows.append([n[6:]] + [nscell(res.ns("rust", n, i)) for i in rust_cols]
                        + [nscell(res.ns("c", n, LIB_VALIDATE))]
                        + [nscell(res.ns("c", n, i)) for i in c_cols]
                        + [times(ours[0] / best) if ours and best else "—"])
        w(table(["strings"] + [SHORT[i] for i in rust_cols] + ["libutf8 (C)"]
                + [f"{SHORT[i]} (C)" for i in c_cols] + ["libutf8 ÷ simdutf"], rows) + "\n")
        w("Columns marked (C) come from the C harness, the others from the Rust harness.\n")

    w("## Raw results\n")
    c_files = ("`bench/results/c.csv`" if res.processes.get("c", 1) == 1 else
               f"`bench/results/c-1.csv` to `c-{res.processes['c']}.csv` (one per process)")
    rust_files = ("`bench/results/rust.csv`" if res.processes.get("rust", 1) == 1 else
                  f"`bench/results/rust-1.csv` to `rust-{res.processes['rust']}.csv` (one per "
                  "process; from the second, the Latin-1 and UTF-16BE groups)")
    k_files = "".join(f", `kernel-{isa}.csv`" for isa in res.kernels)
    w(f"{rust_files}{k_files} and {c_files} (not committed) hold one row per input "
      "and implementation: `harness, group, kind, input, impl, bytes_per_call, median_ns, "
      "min_ns, max_ns, samples, calls_per_sample`, times in nanoseconds per call, and in the "
      "Rust harness's files `paired_ratio`, for libutf8's UTF-16BE rows the median over the "
      "rounds of their time over the native order's in the same round (empty elsewhere); "
      "`run-meta.txt`, `c-meta.txt` and `commands.txt` describe the run.\n")

    kept = hand_written(out_md)
    with open(out_md, "w", encoding="utf-8") as f:
        f.write("\n".join(md))
        if kept:
            f.write("\n" + kept)
    if svg:
        with open(out_svg, "w", encoding="utf-8") as f:
            f.write(svg)
    print(f"report.py: wrote {out_md}" + (f" and {out_svg}" if svg else " (no chart: no data)"),
          file=sys.stderr)


if __name__ == "__main__":
    main()
