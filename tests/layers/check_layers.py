#!/usr/bin/env python3
"""The layer check: each stage of lib/ includes exactly the stages lib/CMakeLists.txt says it
depends on (a stage it reaches only through another must be declared too, and a declared
stage must be included), only their top-level headers (a stage's subfolders are its own),
the stages form no cycle, and docs/internals.md has a Layout row for every folder of lib/
and a Stages table that says what lib/CMakeLists.txt declares.

Usage: check_layers.py SOURCE_DIR. Prints one line per problem and exits 1 when there is any.
"""
import os
import re
import sys

STAGE_CALL = re.compile(r"^trainjob_stage\((\w+)(?:\s+DEPENDS\s+([\w\s]+))?\)", re.M)
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def declared_stages(cmake_text):
    """{stage: [stages it links]} in the order lib/CMakeLists.txt declares them."""
    return {m.group(1): (m.group(2) or "").split() for m in STAGE_CALL.finditer(cmake_text)}


def documented_stages(markdown):
    """{stage: [stages]} from the rows of the table under docs/internals.md's "## Stages"."""
    section = markdown.split("\n## Stages", 1)[-1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `(\w+)` \| (.*) \|$", section, re.M)
    return {stage: re.findall(r"`(\w+)`", deps) for stage, deps in rows}


def layout_rows(markdown):
    """The paths of the rows of the table under docs/internals.md's "## Layout"."""
    section = markdown.split("\n## Layout", 1)[-1].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `([^`]+?)/?` \|", section, re.M))


def find_cycle(graph):
    """One cycle of `graph` as a list of nodes (first == last), or None."""
    state = {}

    def visit(node, path):
        state[node] = "open"
        for nxt in sorted(graph.get(node, [])):
            if state.get(nxt) == "open":
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt, path + [nxt])
                if found:
                    return found
        state[node] = "done"
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node, [node])
            if found:
                return found
    return None


def stage_includes(lib_dir, stages):
    """{stage: {included stage: first 'file:line' that includes it}} over lib/<stage>/**, and
    the includes of another stage's subfolder as 'file:line: header'."""
    found = {stage: {} for stage in stages}
    private = []
    for stage in stages:
        for root, _, files in os.walk(os.path.join(lib_dir, stage)):
            for name in sorted(files):
                if not name.endswith((".h", ".cpp")):
                    continue
                path = os.path.join(root, name)
                text = open(path, encoding="utf-8").read()
                for m in INCLUDE.finditer(text):
                    target = m.group(1).split("/")[0]
                    if "/" in m.group(1) and target != stage:
                        line = text.count("\n", 0, m.start()) + 1
                        where = "%s:%d" % (os.path.relpath(path, os.path.dirname(lib_dir)), line)
                        found[stage].setdefault(target, where)
                        if m.group(1).count("/") > 1:
                            private.append("%s: %s" % (where, m.group(1)))
    return found, private


def main(source_dir):
    lib_dir = os.path.join(source_dir, "lib")
    graph = declared_stages(open(os.path.join(lib_dir, "CMakeLists.txt")).read())
    problems = []
    folders = sorted(d for d in os.listdir(lib_dir) if os.path.isdir(os.path.join(lib_dir, d)))
    for folder in folders:
        if folder not in graph:
            problems.append("lib/%s/: not a stage of lib/CMakeLists.txt (trainjob_stage)" % folder)
    for stage, deps in graph.items():
        for dep in deps:
            if dep not in graph:
                problems.append("lib/CMakeLists.txt: %s depends on unknown stage %s" % (stage, dep))
    internals = open(os.path.join(source_dir, "docs", "internals.md")).read()
    rows = layout_rows(internals)
    for root, dirs, _ in os.walk(lib_dir):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for d in dirs:
            path = os.path.relpath(os.path.join(root, d), source_dir)
            if path not in rows:
                problems.append("docs/internals.md: the Layout table has no row for %s/" % path)
    documented = documented_stages(internals)
    if documented != graph:
        for stage in sorted(set(graph) | set(documented)):
            if graph.get(stage) != documented.get(stage):
                problems.append("docs/internals.md: the Stages table gives %s -> %s, "
                                "lib/CMakeLists.txt %s" % (stage, documented.get(stage),
                                                           graph.get(stage)))
    cycle = find_cycle(graph)
    if cycle:
        problems.append("lib/CMakeLists.txt: the stages form a cycle: " + " -> ".join(cycle))
    includes, private = stage_includes(
        lib_dir, [s for s in graph if os.path.isdir(os.path.join(lib_dir, s))])
    for where in private:
        problems.append("%s: includes another stage's subfolder (its own rooms; move what is "
                        "shared to that stage's top level)" % where)
    include_graph = {stage: sorted(targets) for stage, targets in includes.items()}
    cycle = find_cycle(include_graph)
    if cycle:
        problems.append("the #include lines of lib/ form a cycle: " + " -> ".join(cycle))
    for stage, targets in sorted(includes.items()):
        allowed = set(graph[stage])
        for target, where in sorted(targets.items()):
            if target in graph and target not in allowed:
                problems.append("%s: lib/%s includes lib/%s, which is not among its DEPENDS "
                                "(add it to lib/CMakeLists.txt if it is a lower stage, else "
                                "move the code)" % (where, stage, target))
        for unused in sorted(allowed - set(targets)):
            problems.append("lib/CMakeLists.txt: %s DEPENDS on %s but includes none of its "
                            "headers" % (stage, unused))
    for problem in problems:
        print(problem)
    if not problems:
        print("%d stages, no upward include, no cycle" % len(graph))
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print("usage: check_layers.py SOURCE_DIR", file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
