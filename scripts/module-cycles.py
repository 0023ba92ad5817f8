#!/usr/bin/env python3
"""Module cycles and cross-module glob imports in the workspace's crates (issue 25).

Usage: scripts/module-cycles.py [ROOT]    (ROOT defaults to the repository this script is in)

Every crate under interpreters/, programs/ and src/ (a directory with a Cargo.toml; the root
package's src/ included) is read from its lib.rs, main.rs and src/bin/*.rs, following `mod`
declarations (and `#[path]`) to build its module tree. Code under `#[cfg(test)]` (an inline test
module, a test module's file, a test-only item) and integration tests (tests/, benches/,
examples/) are left out: tests may reach into anything.

The rule for a cycle:
- A reference is a `use` path (`crate::`, `super::`, `self::`, or a child module's name) or a path
  in the code written `crate::a::b`, `super::x` or `self::x` (comments and strings do not count).
  It points at the deepest module the path names; a name that a module imports (`use`, `pub use`,
  `use x as y`) is followed to where it comes from.
- A module's references count as its ancestors' too: when `a::x` names `b::y`, the two sides are
  lifted to the children of their lowest common ancestor, so this is the edge `a -> b` between
  siblings of the crate root, as well as (were they siblings) any edge deeper down. So
  `interp/vdu.rs` naming `crate::vdu` and `vdu/` naming `crate::interp::vdu` is the cycle
  `interp <-> vdu`.
- A module naming its own ancestor or descendant (`super::Thing` in a child, `child::f()` in its
  parent) is not an edge: a child module is part of its parent.
- A cycle is a strongly connected set of two or more siblings in one parent's graph; each is
  printed with one reference per edge as evidence.

It also reports, outside tests: every `use super::*`, and every glob import of another module of
the same crate (`use crate::x::*`, `use super::x::*`, `use self::x::*`). A glob of an enum's
variants (`use Kind::*`) or of another crate's prelude is not reported.

Exit status: 0 when nothing is found beyond ALLOWED below, 1 otherwise (every finding printed),
2 on a usage error.
"""

import os
import re
import sys
from collections import defaultdict

# Findings owned by other work in progress, printed as "allowed" and not failing the check. An
# entry is (crate, description) where description is the cycle's members joined by " <-> " (as
# printed), or "use super::* in PATH" / "glob import in PATH". Remove an entry once it is gone
# (the script then warns that the entry is stale).
ALLOWED = {}

SKIP_DIRS = {"target", "tests", "benches", "examples", ".git", "node_modules"}


def strip_code(text):
    """The text with comments, strings and char literals blanked (newlines kept, so line numbers
    still hold)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "r" and re.match(r'r#*"', text[i:i + 258]) and not (i and (text[i - 1].isalnum() or text[i - 1] == "_")):
            hashes = re.match(r'r(#*)"', text[i:]).group(1)
            end = text.find('"' + hashes, i + 2 + len(hashes))
            end = n if end < 0 else end + 1 + len(hashes)
            out.append('""' + re.sub(r"[^\n]", " ", text[i + 2:end]))
            i = end
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append('"' + re.sub(r"[^\n]", " ", text[i + 1:j]) + '"')
            i = j + 1
        elif c == "'":
            m = re.match(r"'(\\(x[0-9a-fA-F]{2}|u\{[0-9a-fA-F]+\}|.)|[^\\'])'", text[i:i + 16])
            if m:
                out.append("' '" + " " * (m.end() - 3))
                i += m.end()
            else:
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def match_brace(code, i):
    """The index just past the brace that closes the one at code[i]."""
    depth = 0
    for j in range(i, len(code)):
        if code[j] == "{":
            depth += 1
        elif code[j] == "}":
            depth -= 1
            if depth == 0:
                return j + 1
    return len(code)


TEST_ATTR = re.compile(r"#\[cfg\((?:test|all\(\s*test\b[^\]]*\)|any\(\s*test\b[^\]]*\))\)\]")
ATTRS = re.compile(r"\s*(#\[[^\]]*\]\s*)*")
MOD_DECL = re.compile(r"\b(?:pub(?:\([^)]*\))?\s+)?mod\s+([A-Za-z_][A-Za-z0-9_]*)\s*([;{])")
PATH_ATTR = re.compile(r'#\[path\s*=\s*"([^"]*)"\]')


def blank_tests(code):
    """Blank test-only items; return (code, test_mods) where test_mods names `mod x;` files that are
    test-only."""
    test_mods = set()
    while True:
        m = TEST_ATTR.search(code)
        if not m:
            return code, test_mods
        start = m.start()
        k = ATTRS.match(code, m.end()).end()
        semi = code.find(";", k)
        brace = code.find("{", k)
        mod = MOD_DECL.match(code, k)
        if mod and mod.group(2) == ";":
            test_mods.add(mod.group(1))
            end = mod.end()
        elif brace >= 0 and (semi < 0 or brace < semi):
            end = match_brace(code, brace)
        else:
            end = semi + 1 if semi >= 0 else len(code)
        code = code[:start] + re.sub(r"[^\n]", " ", code[start:end]) + code[end:]


class Module:
    def __init__(self, path, file, parent):
        self.path = path  # tuple of names below the crate root
        self.file = file
        self.parent = parent
        self.children = {}  # name -> Module
        self.refs = []  # (abs path tuple, line, text, is_use, is_glob)
        self.names = {}  # name imported into the module (pub or not) -> abs path tuple
        self.globs = []  # (line, text, target tuple)
        self.super_globs = []  # line numbers


def child_file(module_file, name, is_dir_owner, path_attr):
    base = os.path.dirname(module_file)
    if path_attr:
        return os.path.join(base, path_attr)
    if not is_dir_owner:
        base = os.path.join(base, os.path.splitext(os.path.basename(module_file))[0])
    for cand in (os.path.join(base, name + ".rs"), os.path.join(base, name, "mod.rs")):
        if os.path.exists(cand):
            return cand
    return None


USE_STMT = re.compile(r"\b(pub(?:\([^)]*\))?\s+)?use\s+([^;]*);")
INLINE_PATH = re.compile(r"(?<![A-Za-z0-9_:$])((?:crate|super|self)(?:\s*::\s*[A-Za-z_][A-Za-z0-9_]*)+)")


def expand_use(tree):
    """`a::{b, c::{d, *}}` -> ['a::b', 'a::c::d', 'a::c::*'] (aliases dropped)."""
    tree = re.sub(r"\s+", " ", tree).strip()
    out = []

    def walk(prefix, s):
        depth, parts, cur = 0, [], ""
        for ch in s:
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
            if ch == "," and depth == 0:
                parts.append(cur)
                cur = ""
            else:
                cur += ch
        parts.append(cur)
        for p in parts:
            p = p.strip()
            if not p:
                continue
            b = p.find("{")
            if b >= 0:
                head = p[:b].strip().rstrip(":").strip()
                inner = p[b + 1:p.rfind("}")]
                walk(prefix + ([head] if head else []), inner)
            else:
                out.append("::".join(prefix + [p]))

    walk([], tree)
    return [re.sub(r"\s*::\s*", "::", o).strip(":") for o in out]


def split_alias(path):
    """`a::b as c` -> ('a::b', 'c'); `a::b` -> ('a::b', 'b')."""
    m = re.match(r"(.*?)\s+as\s+(\w+)$", path)
    if m:
        return m.group(1), m.group(2)
    return path, path.rsplit("::", 1)[-1]


def resolve(mod, path):
    """An absolute module path (tuple) for a path written in `mod`, or None if it leaves the crate."""
    parts = [p for p in path.split("::") if p]
    if not parts:
        return None
    if parts[0] == "crate":
        base, parts = [], parts[1:]
    elif parts[0] in ("self", "super"):
        base = list(mod.path)
        if parts[0] == "self":
            parts = parts[1:]
        while parts and parts[0] == "super":
            if not base:
                return None
            base.pop()
            parts = parts[1:]
    elif parts[0] in mod.children:
        base = list(mod.path)
    else:
        return None
    return tuple(base + parts)


def deepest_module(root, abs_path, depth=0):
    """The module an absolute path lands in, following `pub use` re-exports."""
    m = root
    for i, name in enumerate(abs_path):
        if name in m.children:
            m = m.children[name]
        elif name in m.names and depth < 8:
            target = m.names[name]
            return deepest_module(root, target + tuple(abs_path[i + 1:]), depth + 1)
        else:
            break
    return m


def parse_module(mod, modules, is_dir_owner, test_file):
    with open(mod.file, encoding="utf-8") as f:
        raw = f.read()
    code = strip_code(raw)
    code, test_mods = blank_tests(code)
    line_of = lambda i: code.count("\n", 0, i) + 1

    # Inline (non-test) modules: their bodies belong to them. A stack over brace depth.
    inline = []  # (start, end, name)
    for m in MOD_DECL.finditer(code):
        pa = PATH_ATTR.search(raw[max(0, m.start() - 200):m.start()])
        if m.group(2) == ";":
            name = m.group(1)
            f = child_file(mod.file, name, is_dir_owner, pa.group(1) if pa else None)
            if f is None:
                continue
            child = Module(mod.path + (name,), f, mod)
            mod.children[name] = child
            owner = os.path.basename(f) == "mod.rs" or bool(pa)
            modules.append((child, owner, test_file or name in test_mods))
        else:
            inline.append((m.end() - 1, match_brace(code, m.end() - 1), m.group(1)))

    def owner_at(i):
        best = mod
        for start, end, name in inline:
            if start < i < end:
                # nested inline modules: outermost first in the list order
                best = best.children.setdefault(name, Module(best.path + (name,), mod.file, best))
        return best

    for start, end, name in inline:
        owner_at(start + 1)
    if test_file:
        return
    for m in USE_STMT.finditer(code):
        owner = owner_at(m.start())
        line = line_of(m.start())
        for p in expand_use(m.group(2)):
            p, alias = split_alias(p)
            text = p
            if p.endswith("::*"):
                base = p[:-3]
                if base == "super":
                    owner.super_globs.append(line)
                target = resolve(owner, base)
                if target is not None:
                    owner.globs.append((line, p, target))
                    owner.refs.append((target, line, p))
                continue
            target = resolve(owner, p)
            if target is None:
                continue
            if p.endswith("::self"):
                target = target[:-1]
            owner.refs.append((target, line, text))
            if alias != "self" and alias != "_":
                # every import is a name in its module (a child's `super::name` reaches it)
                owner.names[alias] = target
    use_spans = [(m.start(), m.end()) for m in USE_STMT.finditer(code)]
    for m in INLINE_PATH.finditer(code):
        if any(a <= m.start() < b for a, b in use_spans):
            continue  # taken with its `use` above
        owner = owner_at(m.start())
        p = re.sub(r"\s+", "", m.group(1))
        target = resolve(owner, p)
        if target is not None:
            owner.refs.append((target, line_of(m.start()), p))


def crate_trees(crate_dir):
    roots = []
    src = os.path.join(crate_dir, "src")
    for name in ("lib.rs", "main.rs"):
        if os.path.exists(os.path.join(src, name)):
            roots.append(os.path.join(src, name))
    bindir = os.path.join(src, "bin")
    if os.path.isdir(bindir):
        for f in sorted(os.listdir(bindir)):
            if f.endswith(".rs"):
                roots.append(os.path.join(bindir, f))
    trees = []
    for r in roots:
        root = Module((), r, None)
        todo = [(root, True, False)]
        allmods = []
        while todo:
            m, owner, test = todo.pop()
            allmods.append((m, test))
            todo_new = []
            parse_module(m, todo_new, owner, test)
            todo.extend(todo_new)
        trees.append((r, root, allmods))
    return trees


def walk(m):
    yield m
    for c in m.children.values():
        yield from walk(c)


def sccs(nodes, edges):
    index, low, on, stack, out, counter = {}, {}, set(), [], [], [0]

    def strong(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(nodes):
        if v not in index:
            strong(v)
    return out


def find(root_dir):
    findings = []  # (crate, description, details)
    crates = []
    for top in ("interpreters", "programs", "src"):
        base = os.path.join(root_dir, top)
        for d, dirs, files in os.walk(base):
            dirs[:] = sorted(x for x in dirs if x not in SKIP_DIRS)
            if "Cargo.toml" in files:
                crates.append(d)
    if os.path.exists(os.path.join(root_dir, "Cargo.toml")) and os.path.isdir(os.path.join(root_dir, "src")):
        crates.append(root_dir)
    for crate_dir in sorted(set(crates)):
        crate = os.path.relpath(crate_dir, root_dir)
        for rootfile, root, allmods in crate_trees(crate_dir):
            rel = lambda f: os.path.relpath(f, root_dir)
            # sibling graphs, keyed by the parent's path
            edges = defaultdict(lambda: defaultdict(list))
            for m in walk(root):
                for target, line, text in m.refs:
                    t = deepest_module(root, target).path
                    s = m.path
                    k = 0
                    while k < len(s) and k < len(t) and s[k] == t[k]:
                        k += 1
                    if k == len(s) or k == len(t):
                        continue  # ancestor or descendant (or itself)
                    edges[s[:k]][(s[k], t[k])].append(f"{rel(m.file)}:{line} {text}")
                for line in m.super_globs:
                    findings.append((crate, f"use super::* in {rel(m.file)}", [f"{rel(m.file)}:{line}"]))
                for line, text, target in m.globs:
                    if text.startswith("super::*"):
                        continue
                    t = deepest_module(root, target)
                    if t.path != target or t is m:
                        continue  # a glob of an item's members (an enum's variants), or of itself
                    findings.append((crate, f"glob import in {rel(m.file)}", [f"{rel(m.file)}:{line} use {text}"]))
            for parent, es in sorted(edges.items()):
                graph = defaultdict(set)
                for a, b in es:
                    graph[a].add(b)
                nodes = {a for a, _ in es} | {b for _, b in es}
                for comp in sccs(nodes, graph):
                    names = ["::".join(parent + (c,)) for c in comp]
                    details = []
                    for a in comp:
                        for b in comp:
                            if (a, b) in es:
                                ev = es[(a, b)]
                                more = f" (+{len(ev) - 1} more)" if len(ev) > 1 else ""
                                details.append(f"{a} -> {b}: {ev[0]}{more}")
                    findings.append((crate, " <-> ".join(names), details))
    return findings


def main(argv):
    if len(argv) > 2:
        print(__doc__.splitlines()[2], file=sys.stderr)
        return 2
    root_dir = argv[1] if len(argv) == 2 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    findings = find(root_dir)
    grouped = {}
    for crate, desc, details in findings:
        grouped.setdefault((crate, desc), []).extend(details)
    seen, failed = set(grouped), 0
    for (crate, desc), details in grouped.items():
        key = (crate, desc)
        kind = "cycle" if "<->" in desc else "import"
        allowed = key in ALLOWED
        print(f"{'allowed ' if allowed else ''}{kind} in {crate}: {desc}")
        if allowed:
            print(f"    ({ALLOWED[key]})")
        for d in details:
            print(f"    {d}")
        failed += not allowed
    for key in sorted(set(ALLOWED) - seen):
        print(f"warning: stale ALLOWED entry {key}: no longer found; remove it", file=sys.stderr)
    print(f"module-cycles: {failed} finding(s) to fix, {len(seen) - failed} allowed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
