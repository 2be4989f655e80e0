#!/usr/bin/env python3
"""The vocabulary check: every label key, annotation key and apiVersion the plugin reads or
writes is spelt once, in lib/model/vocabulary.h, so that a key cannot drift between the stage
that writes it and the one that reads it. A string literal in lib/ or cmd/ (.cpp, .h) outside
that header fails the check when it looks like such a name:

- a DNS-prefixed key or apiVersion, or such a prefix: "kueue.x-k8s.io/queue-name",
  "scheduling.volcano.sh/v1beta1", "config.kubernetes.io/", and kubectl's TYPE/NAME prefix
  "job.batch/" (which has the same shape);
- an apiVersion of a core API group without a dot: "batch/v1", "apps/v1", "policy/v1" (the
  core group's bare "v1" is left out: it is also a plain word of many tables and messages);
- a name under the plugin's own prefix: "kubectl-trainjob/success-policy";
- a label or annotation key inside a downward API field path:
  "metadata.annotations['batch.kubernetes.io/job-completion-index']".

A literal that merely mentions a name inside a sentence (a message, a help text) is not one.
Comments are not read. ALLOWED lists the few literals that stay where they are, and why.

Usage: check_vocabulary.py SOURCE_DIR. Prints one line per problem and exits 1 when there is any.
"""
import os
import re
import sys

VOCABULARY = "lib/model/vocabulary.h"
ROOTS = ("lib", "cmd")

PATTERNS = (
    ("a DNS-prefixed key or apiVersion",
     re.compile(r"^([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}/[A-Za-z0-9._-]*$")),
    ("an apiVersion", re.compile(r"^(batch|apps|policy|autoscaling)/v[0-9]+([a-z]+[0-9]+)?$")),
    ("a name under the plugin's own prefix", re.compile(r"^kubectl-trainjob/[A-Za-z0-9._-]+$")),
    ("a key inside a field path", re.compile(r"metadata\.(labels|annotations)\['[^']+'\]")),
)

# (file, literal): why it is not in vocabulary.h.
ALLOWED = {
    ("lib/k8s/container_rules.cpp", "kubernetes.io/"):
        "the domain of Kubernetes' native resource names (not a label), in lib/k8s, a stage "
        "below lib/model that cannot include vocabulary.h",
}

# A C++ string literal (with an optional encoding prefix), a raw string literal, a character
# literal or a comment, whichever starts first; the scanner skips comments and characters.
TOKEN = re.compile(
    r'(?P<raw>(?:u8|u|U|L)?R"(?P<delim>[^()\\\s]{0,16})\((?P<rawbody>.*?)\)(?P=delim)")'
    r'|(?P<str>(?:u8|u|U|L)?"(?P<body>(?:[^"\\\n]|\\.)*)")'
    r"|(?P<char>'(?:[^'\\\n]|\\.)*')"
    r"|(?P<line>//[^\n]*)"
    r"|(?P<block>/\*.*?\*/)", re.S)


def literals(text):
    """(line, contents) of each string literal of C++ source `text`, outside comments."""
    for m in TOKEN.finditer(text):
        body = m.group("body") if m.group("str") else m.group("rawbody")
        if body is None:
            continue
        yield text.count("\n", 0, m.start()) + 1, body


def problems_in(relpath, text, allowed_seen):
    found = []
    for line, body in literals(text):
        if (relpath, body) in ALLOWED:
            allowed_seen.add((relpath, body))
            continue
        for what, pattern in PATTERNS:
            if pattern.search(body):
                found.append('%s:%d: "%s" is %s: spell it once, in %s' %
                             (relpath, line, body, what, VOCABULARY))
                break
    return found


def main(source_dir):
    problems = []
    checked = 0
    allowed_seen = set()
    for root_name in ROOTS:
        for root, dirs, files in os.walk(os.path.join(source_dir, root_name)):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            for name in sorted(files):
                if not name.endswith((".cpp", ".h")):
                    continue
                path = os.path.join(root, name)
                relpath = os.path.relpath(path, source_dir).replace(os.sep, "/")
                if relpath == VOCABULARY:
                    continue
                checked += 1
                problems += problems_in(relpath, open(path, encoding="utf-8").read(), allowed_seen)
    for relpath, literal in sorted(set(ALLOWED) - allowed_seen):
        problems.append('%s: "%s" is allowed by check_vocabulary.py but no longer there: '
                        'take it out of ALLOWED' % (relpath, literal))
    for problem in problems:
        print(problem)
    if not problems:
        print("%d files of lib/ and cmd/: every label, annotation and apiVersion is spelt "
              "in %s" % (checked, VOCABULARY))
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print("usage: check_vocabulary.py SOURCE_DIR", file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
