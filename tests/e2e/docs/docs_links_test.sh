#!/usr/bin/env bash
# Every relative link of the documentation resolves: README.md, CONTRIBUTING.md, docs/*.md and
# trainer/README.md, inline links `[text](target)` and reference definitions `[id]: target`,
# outside code. The target must exist relative to the page; a `#fragment` must be the
# GitHub anchor of a heading of the target page (lower case, punctuation but `-` and `_`
# dropped, spaces as `-`, a repeat suffixed `-1`, `-2`...). Absolute URLs are not followed.
set -uo pipefail
binary=$1
source_dir=$2
. "$(dirname "$0")/../lib.sh"

command -v python3 >/dev/null || { echo "SKIP: python3 is not installed"; exit 77; }

pages=()
for path in "$source_dir"/{README.md,CONTRIBUTING.md,docs/*.md,trainer/README.md}; do
  [ -f "$path" ] && pages+=("${path#"$source_dir"/}")
done
check "the pages exist" test "${#pages[@]}" -ge 3

# One line per link that does not resolve: PAGE:LINE: TARGET: why.
python3 - "$source_dir" "${pages[@]}" >"$work/broken" 2>"$work/count" <<'PY'
import os, re, sys

root, pages = sys.argv[1], sys.argv[2:]

def strip_code(line):
    return re.sub(r"(`+).*?\1", "", line)

def prose_lines(path):
    """(number, text) of the lines outside fenced code, inline code removed."""
    fence = None
    for number, line in enumerate(open(path, encoding="utf-8"), 1):
        m = re.match(r"\s*(```+|~~~+)", line)
        if m:
            if fence is None:
                fence = m.group(1)
            elif m.group(1).startswith(fence):
                fence = None
            continue
        if fence is None:
            yield number, strip_code(line.rstrip("\n"))

def slug(heading):
    text = re.sub(r"<[^>]+>", "", heading.strip()).lower()
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)  # a link's text only
    text = "".join(c for c in text if c.isalnum() or c in " -_")
    return text.replace(" ", "-")

anchors = {}
def anchors_of(path):
    if path not in anchors:
        seen, found = {}, set()
        fence = None
        for line in open(path, encoding="utf-8"):
            m = re.match(r"\s*(```+|~~~+)", line)
            if m:
                fence = None if fence and m.group(1).startswith(fence) else (fence or m.group(1))
                continue
            h = None if fence else re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
            if h:
                base = slug(h.group(1))
                n = seen.get(base, 0)
                found.add(base if n == 0 else f"{base}-{n}")
                seen[base] = n + 1
        anchors[path] = found
    return anchors[path]

checked = 0
link = re.compile(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)|^\s*\[[^\]]+\]:\s*(\S+)")
for page in pages:
    page_path = os.path.join(root, page)
    for number, text in prose_lines(page_path):
        for m in link.finditer(text):
            target = m.group(1) or m.group(2)
            checked += 1
            if re.match(r"[a-z][a-z0-9+.-]*:", target, re.I):  # http:, https:, mailto:
                continue
            file_part, _, fragment = target.partition("#")
            where = os.path.normpath(os.path.join(os.path.dirname(page_path), file_part)) \
                if file_part else page_path
            if not os.path.exists(where):
                print(f"{page}:{number}: {target}: no such file")
            elif fragment and where.endswith(".md") and fragment not in anchors_of(where):
                print(f"{page}:{number}: {target}: no heading with anchor #{fragment}")
print(checked, file=sys.stderr)
PY
check "the link checker ran" test $? -eq 0
check "it found the links (more than 40)" test "$(cat "$work/count")" -gt 40
while IFS= read -r broken; do
  check "link resolves: $broken" false
done <"$work/broken"
check "every relative link resolves" test ! -s "$work/broken"
finish
