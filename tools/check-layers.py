#!/usr/bin/env python3
"""Checks the layering of src/ (docs/ARCHITECTURE.md, "Layers").

Reads the `crate::`, `$crate::` and `super::` paths of every module of src/ (its code, not its
comments, and not its `#[cfg(test)]` modules) and fails if
- a module uses a module of a layer above its own,
- the modules' uses form a cycle, or
- an instruction-set file of the kernels uses one of another instruction set (what two share
  goes in a shared file of their architecture).

A module's `pub use` of items of its own modules (a facade, as `ffi` gathers the C functions of
its files) is not counted as a use of them.

Usage: tools/check-layers.py [SRC_DIR] (default: the src/ next to this script's parent).
Python 3, standard library only. Exit status 0 if the tree keeps the rules, 1 if not.
"""

import os
import re
import sys

# The layers, top first. A module may use modules of its own layer and of the layers below it.
# Each entry: a layer's name and the module paths (as in `crate::a::b`) that make it up; a
# path stands for that module and every module inside it.
LAYERS = [
    ("ffi", ["ffi"]),
    (
        "features",
        [
            "validate",
            "count",
            "transcode",
            "lossy",
            "escape",
            "stream",
            "boundary",
            "form",
            "detect",
        ],
    ),
    ("dispatch", ["dispatch"]),
    ("kernels", ["kernels"]),
    ("algorithms", ["algorithms"]),
    ("engine", ["engine"]),
    ("scalar", ["scalar"]),
    ("support", ["sink", "chunks"]),
]

# Modules outside the layers: the crate root, which declares the modules and re-exports the
# public items, and what only the unit tests compile.
UNLAYERED = ["", "test_support"]

# The instruction-set files of the kernels: each prefix is one instruction set.
ISA_MODULES = [
    "kernels::x86::sse42",
    "kernels::x86::avx2",
    "kernels::x86::avx512",
    "kernels::aarch64::neon",
]


def module_of_file(src, path):
    """`crate::a::b` path (without `crate::`) of the module in `path`."""
    rel = os.path.relpath(path, src)[: -len(".rs")].split(os.sep)
    if rel[-1] in ("mod", "lib"):
        rel = rel[:-1]
    return "::".join(rel)


def strip_comments(text):
    """`text` without its comments (line and block) and the contents of its string literals."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r'"(?:\\.|[^"\\])*"', '""', text)
    return re.sub(r"//[^\n]*", "", text)


def strip_test_modules(text):
    """`text` without the `#[cfg(test)]` items (modules and single items)."""
    out = []
    i = 0
    pattern = re.compile(r"#\[cfg\(test\)\]\s*")
    while True:
        m = pattern.search(text, i)
        if not m:
            out.append(text[i:])
            return "".join(out)
        out.append(text[i : m.start()])
        j = m.end()
        # The item: up to its `;`, or its braces' end.
        semi = text.find(";", j)
        brace = text.find("{", j)
        if brace == -1 or (semi != -1 and semi < brace):
            i = semi + 1
            continue
        depth = 0
        k = brace
        while k < len(text):
            if text[k] == "{":
                depth += 1
            elif text[k] == "}":
                depth -= 1
                if depth == 0:
                    break
            k += 1
        i = k + 1


def used_paths(text):
    """Every path that starts with `crate::`, `$crate::` or `super::` in `text`, braces of a
    `use` expanded one level (`use crate::a::{b, c::d}` gives `a::b` and `a::c::d`)."""
    paths = []
    pattern = r"(\$?crate|(?:super::)*super|self)::(\w+(?:::\w+)*)?(?:::)?(\{([^}]*)\})?"
    for m in re.finditer(pattern, text):
        root, rest, group = m.group(1), m.group(2) or "", m.group(4)
        if group is None:
            if rest:
                paths.append((root, rest))
            continue
        for item in group.split(","):
            item = item.strip().split(" as ")[0].strip()
            if item in ("", "self", "*"):
                paths.append((root, rest))
            else:
                paths.append((root, f"{rest}::{item}" if rest else item))
    return paths


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "src")
    src = os.path.normpath(src)
    files = {}
    for dirpath, _, names in os.walk(src):
        for name in names:
            if name.endswith(".rs"):
                path = os.path.join(dirpath, name)
                files[module_of_file(src, path)] = path
    modules = set(files)

    def layer_of(module):
        for index, (_, prefixes) in enumerate(LAYERS):
            for prefix in prefixes:
                if module == prefix or module.startswith(prefix + "::"):
                    return index
        return None

    def isa_of(module):
        for prefix in ISA_MODULES:
            if module == prefix or module.startswith(prefix + "::"):
                return prefix
        return None

    # The crate root's re-exports, `pub use a::b::{c, d}`: `crate::c` is module `a::b`.
    root_names = {}
    root = strip_comments(open(files[""], encoding="utf-8").read())
    for m in re.finditer(r"pub use ([\w:]+?)::(?:\{([^}]*)\}|(\w+));", root):
        names = m.group(2).split(",") if m.group(2) else [m.group(3)]
        for name in names:
            root_names[name.strip().split(" as ")[-1].strip()] = m.group(1)

    def resolve(module, root_kind, rest):
        """The module that `root_kind::rest`, used in `module`, names (its longest prefix that
        is a module), or None for the crate root's own items."""
        if root_kind in ("crate", "$crate"):
            base = []
        elif root_kind == "self":
            base = module.split("::") if module else []
        else:
            base = module.split("::") if module else []
            base = base[: len(base) - root_kind.count("super")]
        parts = base + rest.split("::")
        for n in range(len(parts), 0, -1):
            candidate = "::".join(parts[:n])
            if candidate in modules:
                return candidate
        if not base and parts and parts[0] in root_names:
            return root_names[parts[0]]
        return None

    problems = []
    edges = {}
    for module in sorted(modules):
        if module in UNLAYERED:
            continue
        if layer_of(module) is None:
            problems.append(f"{files[module]}: module {module} is in no layer (see LAYERS)")
            continue
        text = strip_test_modules(strip_comments(open(files[module], encoding="utf-8").read()))
        uses = used_paths(text)
        # `use child::item`: a module of this one.
        for m in re.finditer(r"\buse\s+(\w+)::", text):
            child = f"{module}::{m.group(1)}" if module else m.group(1)
            if child in modules:
                uses.append(("self", m.group(1)))
        # A module's re-exports of its own modules' items (`pub use self::codec::f`, the C
        # functions gathered in `ffi`) are its public face, not a use: they are not counted.
        facade = set()
        for m in re.finditer(r"\bpub(?:\([\w:]+\))?\s+use\s+(?:self::)?(\w+)::", text):
            facade.add(f"{module}::{m.group(1)}" if module else m.group(1))
        for root_kind, rest in uses:
            target = resolve(module, root_kind, rest)
            if target is None or target == module or target in UNLAYERED or target in facade:
                continue
            edges.setdefault(module, set()).add(target)
    for module, targets in sorted(edges.items()):
        for target in sorted(targets):
            mine, theirs = layer_of(module), layer_of(target)
            if theirs is not None and theirs < mine:
                problems.append(
                    f"{files[module]}: {module} ({LAYERS[mine][0]}) uses {target}, "
                    f"of a layer above it ({LAYERS[theirs][0]})"
                )
            a, b = isa_of(module), isa_of(target)
            if a and b and a != b:
                problems.append(
                    f"{files[module]}: instruction-set file {module} uses {target}, of "
                    "another instruction set: move what they share to a shared file"
                )

    # Cycles: a depth-first search that reports each back edge's cycle.
    state = {}
    stack = []

    def visit(module):
        state[module] = "open"
        stack.append(module)
        for target in sorted(edges.get(module, ())):
            if state.get(target) == "open":
                cycle = stack[stack.index(target) :] + [target]
                problems.append("cycle: " + " -> ".join(cycle))
            elif target not in state:
                visit(target)
        stack.pop()
        state[module] = "done"

    for module in sorted(edges):
        if module not in state:
            visit(module)

    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        print(f"check-layers: {len(problems)} problem(s)", file=sys.stderr)
        return 1
    order = " > ".join(name for name, _ in LAYERS)
    count = sum(len(t) for t in edges.values())
    print(f"check-layers: {len(modules)} modules, {count} uses, layers {order}: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
