#!/usr/bin/env python3
"""Checks the dependency rule of the domain folders (ARCHITECTURE-next.md §3).

depcheck.py [--list-edges] BUILD_OBJ_DIR SRC_DIR links each undefined symbol
of the objects under BUILD_OBJ_DIR (by `nm`; only those built from a file in
SRC_DIR, not gen/ nor one left behind by a move) to the objects that define
it, and reports, one line each:
  unplaced: an object in no folder of the rule (core/x.o, the old flat core/);
  upward:   a use of a folder that is not on a lower line of the rule;
  include:  an #include of a header in such a folder (a type or a macro
            is a use too, though no symbol shows it);
  hook:     an object linked into git-campaign-hook that needs libgit2;
  fuzz:     an object in the fuzz build's closure outside import/ and util/;
  cycle:    objects that form a cycle (a strongly connected component);
  sql:      SQL naming a table outside the file that owns it.
It exits 1 when it reported anything, 0 when the tree keeps the rule.
"""
import argparse
import os
import re
import subprocess
import sys
from collections import Counter, defaultdict, deque

# The rule, top to bottom: a folder may use only the folders on lower lines;
# folders on one line are peers and do not use one another (so import/ uses
# util/ only). "." is the top level: main.c, hook-main.c, libgit2-stubs.c.
RULE = [line.split() for line in """
.
cmd
core/forge
core/views
core/ab
core/hooks core/probe
core/stack core/stash
core/campaign
core/measure
core/machine
core/records core/stats
core/base
io import
util""".split("\n")[1:]]
PART_OF = {"io/github": "io"}  # a folder that counts as part of another
RANK = {f: i for i, line in enumerate(RULE) for f in line}

# git-campaign-hook has no libgit2: the closure of its main must not need it
HOOK_MAIN = "hook-main.o"
# the fuzz build: importers and the template engine, over util/ only
FUZZ_ROOTS = ("import/", "util/template.o")
FUZZ_ALLOWED = ("import/", "util/")

# table -> the one file (or folder, ending in /) whose SQL may name it; the
# migrations in io/db.c are exempt. measurement's indexes (measurement_commit,
# measurement_metric) are named only by the migrations.
OWNERS = {
    "pr": "core/records/pr.c",
    "ab_run": "core/records/ab_run.c",
    "hypothesis": "core/records/hypo.c",
    "finding": "core/records/finding.c",
    "test_result": "core/records/testrun.c",
    "test_total": "core/records/testrun.c",
    "journal": "core/records/journal.c",
    "operation": "core/records/journal.c",
    "umbrella_state": "core/records/umbrella_state.c",
    "resume_pointer": "core/records/resume_pointer.c",
    "measurement": "core/measure/",
    "env": "core/machine/fingerprint.c",
    "meta": "io/db.c",  # db_meta_get/db_meta_set: every layer reads it
    "http_cache": "io/github/client.c",
}
SQL_EXEMPT = {"io/db.c"}

# comments, character literals and string literals, in one pass
TOKEN = re.compile(r'//[^\n]*|/\*.*?\*/|\'(?:\\.|[^\\\'\n])*\''
                   r'|("(?:\\.|[^\\"\n])*")', re.S)
STRING = re.compile(r'"((?:\\.|[^\\"\n])*)"')
# literals that C joins: space or a macro (FINDING_COLS) between them
JOINED = re.compile(STRING.pattern + r'(?:(?:\s|[A-Z_][A-Z0-9_]*\b)*'
                    + STRING.pattern + ')*')
TABLE = re.compile(r'\b(?:FROM|INTO|UPDATE|JOIN|TABLE|EXISTS)\s+'
                   r'([a-z_][a-z0-9_]*)\b')
BUILTIN_TABLE = re.compile(r'(sqlite|pragma)_')


def read_symbols(objdir, srcdir):
    """The objects (paths under objdir) that have a source in srcdir, who
    defines each external symbol, and each object's undefined symbols."""
    objs = []
    for d, _, files in os.walk(objdir):
        for f in files:
            o = os.path.relpath(os.path.join(d, f), objdir)
            if f.endswith(".o") and os.path.exists(
                    os.path.join(srcdir, o[:-2] + ".c")):
                objs.append(o)
    definer, undefs = defaultdict(set), defaultdict(set)
    by_path = {os.path.join(objdir, o): o for o in objs}
    out = subprocess.run([os.environ.get("NM", "nm"), "-g", "-P", "-A"]
                         + sorted(by_path), check=True, text=True,
                         stdout=subprocess.PIPE).stdout if objs else ""
    for line in out.splitlines():
        path, _, rest = line.partition(": ")
        fields = rest.split()
        if path in by_path and len(fields) >= 2:
            if fields[1] in "Uwv":
                undefs[by_path[path]].add(fields[0])
            else:
                definer[fields[0]].add(by_path[path])
    return sorted(objs), definer, undefs


def folder(obj):
    d = os.path.dirname(obj) or "."
    return PART_OF.get(d, d)


def closure(uses, roots):
    """Everything reachable from roots, each with the path it is reached by."""
    path = {r: [r] for r in roots}
    todo = deque(roots)
    while todo:
        o = todo.popleft()
        for d in sorted(uses[o]):
            if d not in path:
                path[d] = path[o] + [d]
                todo.append(d)
    return path


def sccs(objs, uses):
    """Tarjan's strongly connected components of two or more objects."""
    index, low, stack, out = {}, {}, [], []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(uses[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = stack[stack.index(v):]
            del stack[stack.index(v):]
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(max(1000, 4 * len(objs)))
    for v in objs:
        if v not in index:
            visit(v)
    return sorted(out)


def cycle_line(comp, uses):
    """A shortest cycle through the component's first member (a shortest
    path between members stays inside the component), and the others."""
    start = comp[0]
    path = closure(uses, [start])
    last = min((o for o in comp if start in uses[o]),
               key=lambda o: (len(path[o]), o))
    loop = path[last] + [start]
    rest = [o for o in comp if o not in loop]
    return " -> ".join(loop) + (" (with %s)" % " ".join(rest) if rest else "")


def rule_lines(objs, uses):
    """The unplaced objects, and the uses of a folder not on a lower line."""
    for o in objs:
        if folder(o) not in RANK:
            yield "unplaced", "%s: not in a domain folder" % o
    for o in objs:
        for d in sorted(uses[o]):
            a, b = RANK.get(folder(o)), RANK.get(folder(d))
            if None not in (a, b) and folder(o) != folder(d) and b <= a:
                yield "upward", "%s -> %s: %s may not use %s%s (%s)" % (
                    o, d, folder(o), folder(d), ", its peer" if a == b else "",
                    " ".join(sorted(uses[o][d])))


INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def include_lines(srcdir):
    """The #include lines that name a header the rule puts out of reach."""
    for d, _, files in sorted(os.walk(srcdir)):
        for f in sorted(files):
            rel = os.path.relpath(os.path.join(d, f), srcdir)
            if not f.endswith((".c", ".h")):
                continue
            with open(os.path.join(d, f), errors="replace") as fh:
                text = fh.read()
            for m in INCLUDE.finditer(text):
                a, b = folder(rel), folder(m.group(1))
                ra, rb = RANK.get(a), RANK.get(b)
                if None in (ra, rb) or a == b or rb > ra:
                    continue
                yield "include", "%s:%d: %s may not include %s%s" % (
                    rel, text.count("\n", 0, m.start()) + 1, a,
                    m.group(1), ", its peer's" if ra == rb else "")


def link_lines(objs, uses, definer, undefs):
    """The hook's libgit2 leaks and the fuzz build's strays."""
    hook = closure(uses, [HOOK_MAIN] if HOOK_MAIN in objs else [])
    for o, via in sorted(hook.items()):
        git = sorted(s for s in undefs[o]
                     if s.startswith("git_") and s not in definer)
        if git:
            yield "hook", "%s needs libgit2 (%s) via %s" % (
                o, " ".join(git), " -> ".join(via))
    fuzz = closure(uses, [o for o in objs if o.startswith(FUZZ_ROOTS)])
    for o, via in sorted(fuzz.items()):
        if not o.startswith(FUZZ_ALLOWED):
            yield "fuzz", "%s is outside import/ and util/ via %s" % (
                o, " -> ".join(via))


def sql_lines(srcdir):
    """One line per SQL statement naming a table outside its owner."""
    for d, _, files in sorted(os.walk(srcdir)):
        for f in sorted(files):
            rel = os.path.relpath(os.path.join(d, f), srcdir)
            if not f.endswith(".c") or rel in SQL_EXEMPT:
                continue
            with open(os.path.join(d, f), errors="replace") as fh:
                text = fh.read()
            # comments and character literals blanked, lines kept
            text = TOKEN.sub(lambda m: m.group(1) or re.sub(
                r"[^\n]", " ", m.group()), text)
            for m in JOINED.finditer(text):
                line = text.count("\n", 0, m.start()) + 1
                lit = "".join(STRING.findall(m.group()))
                for t in sorted(set(TABLE.findall(lit))):
                    owner = OWNERS.get(t, "")
                    if BUILTIN_TABLE.match(t) or owner and (rel == owner or (
                            owner.endswith("/") and rel.startswith(owner))):
                        continue
                    yield "sql", "%s:%d: table '%s' %s" % (
                        rel, line, t, "belongs to " + owner if owner
                        else "has no owner in OWNERS")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--list-edges", action="store_true",
                    help="first print the folder -> folder edge counts")
    ap.add_argument("objdir")
    ap.add_argument("srcdir")
    args = ap.parse_args()

    objs, definer, undefs = read_symbols(args.objdir, args.srcdir)
    uses = defaultdict(lambda: defaultdict(set))  # obj -> obj -> symbols
    for o in objs:
        for s in undefs[o]:
            for d in definer.get(s, set()) - {o}:
                uses[o][d].add(s)
    if args.list_edges:
        count = Counter((folder(o), folder(d)) for o in objs
                        for d in uses[o] if folder(o) != folder(d))
        for (a, b), n in sorted(count.items()):
            print("%-14s -> %-14s %4d" % (a, b, n))

    found = Counter()
    cycles = [("cycle", cycle_line(c, uses)) for c in sccs(objs, uses)]
    for kind, text in [*rule_lines(objs, uses), *include_lines(args.srcdir),
                       *link_lines(objs, uses, definer, undefs),
                       *cycles, *sql_lines(args.srcdir)]:
        found[kind] += 1
        print("%s: %s" % (kind, text))
    print("depcheck: %d objects, %d edges, %d cycles, %d upward references, "
          "%d upward includes, %d misplaced SQL, %d unplaced objects, "
          "%d link-closure violations"
          % (len(objs), sum(len(u) for u in uses.values()), found["cycle"],
             found["upward"], found["include"], found["sql"],
             found["unplaced"], found["hook"] + found["fuzz"]))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
