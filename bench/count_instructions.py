"""The instructions one call of a function executes, counted by gdb, one `stepi` at a time from
its entry to its return, with the functions they were in: what a short string's call costs
and where, which its time follows (the short-string harness's calls are independent, so the
core is busy with instructions rather than waiting on one). Not run by `make bench`.

    # the short-string harness, built as bench/ab_short.py says, on one cell:
    LIBUTF8_SHORT_ROUNDS=1 LIBUTF8_SHORT_STRINGS=200 \\
    LIBUTF8_SHORT_CELL=utf8_to_utf16:2-byte:16 FN=utf8_to_utf16 \\
        gdb -q -batch -x bench/count_instructions.py --args ./short_strings ../shared/corpus /tmp/out.csv \\
        | grep -A8 '^call'

FN is the function to break on (a C function, or simdutf's, such as
simdutf::convert_utf8_to_utf16le); SKIP (20) the calls let through before the first counted
(the harness checks each cell's output first); CALLS (4) the calls counted, SKIP_BETWEEN (7)
the calls let through between two of them (strings differ: a cell's strings are cut at random
places, so that some of a script's short strings are ASCII alone); TRACE, if set, a file to
which the instructions of the first call counted are written.
"""
import os

import gdb


def main():
    fn = os.environ["FN"]
    skip = int(os.environ.get("SKIP", "20"))
    calls = int(os.environ.get("CALLS", "4"))
    between = int(os.environ.get("SKIP_BETWEEN", "7"))
    trace = os.environ.get("TRACE")
    gdb.execute("set pagination off")
    gdb.execute("break " + fn)
    gdb.execute("run", to_string=True)
    for _ in range(skip):
        gdb.execute("continue", to_string=True)
    for call in range(calls):
        if call > 0:
            for _ in range(between):
                gdb.execute("continue", to_string=True)
        sp = int(gdb.parse_and_eval("$sp"))
        count, functions, lines = 0, {}, []
        # The call is over when the stack pointer is above where it was at the entry (the
        # return address popped).
        while True:
            line = gdb.execute("x/i $pc", to_string=True).strip()
            lines.append(line)
            where = line.split("<", 1)[1].split(">", 1)[0].split("+", 1)[0] if "<" in line else "?"
            functions[where] = functions.get(where, 0) + 1
            gdb.execute("stepi", to_string=True)
            count += 1
            if int(gdb.parse_and_eval("$sp")) > sp or count > 100000:
                break
        print(f"call {call + 1}: {count} instructions")
        for where, n in sorted(functions.items(), key=lambda f: -f[1]):
            print(f"  {n:6}  {where}")
        if trace and call == 0:
            with open(trace, "w", encoding="utf-8") as f:
                f.write("\n".join(lines) + "\n")
    gdb.execute("kill")


main()
