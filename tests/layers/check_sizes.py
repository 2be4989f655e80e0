#!/usr/bin/env python3
"""The size check: no folder of lib/, cmd/, trainer/ or tests/ holds more than MAX_FILES
source files of its own (subfolders count apart), and no source file there is longer than
MAX_LINES lines. A room that grows past them is split along its seams (docs/internals.md,
Layout), a file past them along its functions' subjects.

Usage: check_sizes.py SOURCE_DIR. Prints one line per problem and exits 1 when there is any.
"""
import os
import sys

MAX_FILES = 30
MAX_LINES = 400
ROOTS = ("lib", "cmd", "trainer", "tests")
SOURCE = (".cpp", ".h", ".cc", ".sh", ".py", ".cmake")
# Inputs and outputs of tests, not code: their size is the case's, not the room's.
SKIP = {"fixtures", "__pycache__"}


def main(source_dir):
    problems, folders, files = [], 0, 0
    for top in ROOTS:
        for root, dirs, names in os.walk(os.path.join(source_dir, top)):
            dirs[:] = sorted(d for d in dirs if d not in SKIP and not d.startswith("."))
            sources = sorted(n for n in names if n.endswith(SOURCE))
            folder = os.path.relpath(root, source_dir)
            folders += 1
            if len(sources) > MAX_FILES:
                problems.append("%s/: %d source files, more than %d: split it into rooms "
                                "named after what they hold" % (folder, len(sources), MAX_FILES))
            for name in sources:
                files += 1
                with open(os.path.join(root, name), encoding="utf-8", errors="replace") as f:
                    lines = sum(1 for _ in f)
                if lines > MAX_LINES:
                    problems.append("%s/%s: %d lines, more than %d" % (folder, name, lines,
                                                                       MAX_LINES))
    for problem in problems:
        print(problem)
    if not problems:
        print("%d folders, %d source files: none over %d files or %d lines" %
              (folders, files, MAX_FILES, MAX_LINES))
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print("usage: check_sizes.py SOURCE_DIR", file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
