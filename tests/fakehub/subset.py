#!/usr/bin/env python3
# Cuts api.github.com.subset.json from GitHub's dereferenced OpenAPI
# description: the operations of operations.txt, unchanged, under the
# description's own openapi, info and servers.
#
# Usage: subset.py DEREF.json [OUT]   (OUT: api.github.com.subset.json here)
#        subset.py --check            (the subset holds operations.txt's
#                                      operations and no other)
# DEREF.json: generated/api.github.com.deref.json of the npm package
# @octokit/openapi (npm pack @octokit/openapi@23.0.2).
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OPS = os.path.join(HERE, "operations.txt")
SUBSET = os.path.join(HERE, "api.github.com.subset.json")


def operations():
    out = []
    with open(OPS) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                method, path, op_id = line.split()
                out.append((method.lower(), path, op_id))
    return out


def cut(full, ops):
    sub = {k: full[k] for k in ("openapi", "info", "servers")}
    sub["paths"] = {}
    for method, path, op_id in ops:
        op = full["paths"][path][method]
        if op.get("operationId") != op_id:
            sys.exit("subset.py: %s %s is %s in the description, not %s" %
                     (method.upper(), path, op.get("operationId"), op_id))
        sub["paths"].setdefault(path, {})[method] = op
    return sub


def check():
    with open(SUBSET) as f:
        sub = json.load(f)
    have = {(m, p, o.get("operationId")) for p, item in sub["paths"].items()
            for m, o in item.items()}
    want = set(operations())
    for m, p, o in sorted(want - have):
        print("missing from the subset: %s %s (%s)" % (m.upper(), p, o))
    for m, p, o in sorted(have - want):
        print("not in operations.txt: %s %s (%s)" % (m.upper(), p, o))
    return 0 if have == want else 1


def main(argv):
    if argv[1:] == ["--check"]:
        return check()
    if len(argv) not in (2, 3):
        sys.exit(__doc__ or "usage: subset.py DEREF.json [OUT]")
    with open(argv[1]) as f:
        full = json.load(f)
    out = argv[2] if len(argv) == 3 else SUBSET
    with open(out, "w") as f:
        # indent 1, ASCII: the form the subset has always had
        f.write(json.dumps(cut(full, operations()), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
