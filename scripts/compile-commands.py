#!/usr/bin/env python3
"""Writes a compile_commands.json (for clangd and other tools) on stdout.

Usage: compile-commands.py OBJ_DIR CC FLAGS... -- SOURCES...
Each src/X.c gets the command `CC FLAGS -c -o OBJ_DIR/X.o src/X.c`, run in
the current folder, as the Makefile's pattern rule has it.
"""
import json
import os
import sys


def main():
    args = sys.argv[1:]
    if "--" not in args or args.index("--") < 2:
        sys.exit(__doc__.splitlines()[2])
    cut = args.index("--")
    objdir, command = args[0], args[1:cut]
    entries = [{"directory": os.getcwd(), "file": src,
                "arguments": command + ["-c", "-o", os.path.join(
                    objdir, os.path.relpath(src, "src")[:-2] + ".o"), src]}
               for src in args[cut + 1:]]
    json.dump(entries, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
