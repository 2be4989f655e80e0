#!/bin/bash
# cmake --install lays out the plugin, kubectl's completion helper, the completion scripts
# and the docs; dist/release.sh packs a reproducible archive and fills the krew manifest,
# which must pass krew's own validation rules and point at exactly that archive. The archive
# is packed --as-built (this build's plugin as it is): the portable build in a bullseye root
# is release_portability_test's.
bin=$1
src=$2
build=$(dirname "$bin")
source "$src/tests/e2e/lib.sh"

cmake --install "$build" --prefix "$work/p" > /dev/null
check "install: the plugin" [ -x "$work/p/bin/kubectl-trainjob" ]
check "install: kubectl's completion helper beside it" [ -x "$work/p/bin/kubectl_complete-trainjob" ]
for f in share/bash-completion/completions/kubectl-trainjob share/zsh/site-functions/_kubectl-trainjob \
  share/fish/vendor_completions.d/kubectl-trainjob.fish share/doc/kubectl-trainjob/README.md \
  share/doc/kubectl-trainjob/commands.md share/doc/kubectl-trainjob/install.md; do
  check "install: $f" [ -s "$work/p/$f" ]
done
check "kubectl finds the installed plugin" \
  bash -c "PATH='$work/p/bin':\$PATH kubectl plugin list 2>/dev/null | grep -qx '$work/p/bin/kubectl-trainjob'"
check "kubectl runs it" bash -c "PATH='$work/p/bin':\$PATH kubectl trainjob version | grep -q kubectl-trainjob"
check "the helper works from its own directory, not from PATH" \
  bash -c "cd / && env PATH=/usr/bin:/bin '$work/p/bin/kubectl_complete-trainjob' ren | grep -qx \$'render\t.*'"

version=$("$bin" --version | awk '{print $2}')
archive=kubectl-trainjob_${version}_linux_amd64.tar.gz
SOURCE_DATE_EPOCH=1700000000 "$src/dist/release.sh" --as-built "$work/out" "$build=linux/amd64" > "$work/log" 2>&1
check "release.sh exits 0" [ $? -eq 0 ]
check "release: the archive, named by version and platform" [ -s "$work/out/$archive" ]
check "release: its .sha256 checks" bash -c "cd '$work/out' && sha256sum --quiet -c '$archive.sha256'"
TZ=UTC tar -tvzf "$work/out/$archive" > "$work/listing"
check "archive: sorted, owned by 0/0, every mtime SOURCE_DATE_EPOCH" /usr/bin/python3 -c '
import sys
lines = open(sys.argv[1]).read().splitlines()
names = [l.split()[-1] for l in lines]
assert names == sorted(names), names
assert all(l.split()[1] == "0/0" for l in lines), lines
assert all(" 2023-11-14 22:13 " in l for l in lines), lines
assert {"kubectl-trainjob", "kubectl_complete-trainjob", "README.md"} <= set(names), names
' "$work/listing"
SOURCE_DATE_EPOCH=1700000000 "$src/dist/release.sh" --as-built "$work/again" "$build=linux/amd64" > /dev/null 2>&1
check "release: reproducible, byte for byte" cmp "$work/out/$archive" "$work/again/$archive"
mkdir "$work/unpacked"
tar -xzf "$work/out/$archive" -C "$work/unpacked"
check "the plugin from the archive runs" bash -c "'$work/unpacked/kubectl-trainjob' version | grep -q '$version'"
check "... and is stripped" bash -c "! file '$work/unpacked/kubectl-trainjob' | grep -q 'not stripped'"

# The manifest: krew's validation (internal/index/validation) and our archive.
check "krew manifest: valid and pointing at the archive" /usr/bin/python3 - "$work/out/trainjob.yaml" \
  "$work/out/$archive" "$work/unpacked" <<'PY'
import hashlib, os, re, sys, tarfile, yaml
path, archive, unpacked = sys.argv[1:]
p = yaml.safe_load(open(path))
def need(cond, what):
    if not cond:
        sys.exit("manifest: " + what)
need(p["apiVersion"] == "krew.googlecontainertools.github.com/v1alpha2", "apiVersion")
need(p["kind"] == "Plugin", "kind")
name = p["metadata"]["name"]
need(re.fullmatch(r"[\w-]+", name) and name.upper() not in ("CON", "PRN", "AUX", "NUL"), "name")
need(name == os.path.basename(path).rsplit(".", 1)[0] == "trainjob", "name is the file's")
spec = p["spec"]
need(spec.get("shortDescription") and not re.search(r"[\r\n]", spec["shortDescription"]),
     "shortDescription: one line")
need(re.fullmatch(r"v(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?",
                  spec["version"]), "version: semver with a leading v")
need(spec["version"] == "v" + os.path.basename(archive).split("_")[1], "version is the archive's")
need(spec.get("homepage", "").startswith("https://"), "homepage")
need(spec["platforms"], "platforms")
members = set(tarfile.open(archive).getnames())
digest = hashlib.sha256(open(archive, "rb").read()).hexdigest()
for pl in spec["platforms"]:
    need(pl["uri"].startswith("https://"), "uri is https")
    need(pl["uri"].rsplit("/", 1)[1] == os.path.basename(archive), "uri names the archive")
    need(re.fullmatch(r"[a-f0-9]{64}", pl["sha256"]), "sha256 form")
    need(pl["sha256"] == digest, "sha256 is the archive's")
    labels = pl["selector"]["matchLabels"]
    need(labels and set(labels) <= {"os", "arch"}, "selector keys")
    need(labels == {"os": "linux", "arch": "amd64"}, "selector is the platform")
    need(pl["bin"] and pl["bin"] in members, "bin in the archive")
    need(pl["files"], "files")
    for op in pl["files"]:
        need(op["from"] and op["to"], "files[].from and to")
        need(op["from"] in members, "files[].from in the archive: " + op["from"])
    need(os.access(os.path.join(unpacked, pl["bin"]), os.X_OK), "bin is executable")
PY
check "--base-url sets the uri" bash -c "'$src/dist/release.sh' --as-built --base-url https://example.test/d '$work/b' '$build' >/dev/null 2>&1 && grep -q 'uri: \"https://example.test/d/$archive\"' '$work/b/trainjob.yaml'"
"$src/dist/release.sh" "$work/c" > /dev/null 2>&1
check "release.sh without a build directory: usage error" [ $? -eq 2 ]
finish
