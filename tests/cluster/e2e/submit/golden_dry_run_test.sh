#!/usr/bin/env bash
# The real API server judges every object the golden cases emit: each golden that exits 0
# with manifests (render, krm, convert, init on stdout; --output-dir files) goes to
# kube-apiserver as a server-side apply with dryRun, which runs the whole of its validation
# (schemas, strict field checks, CRD schemas and CEL rules) and persists nothing. It passes
# only when every object is accepted. Refusals (expected.exit != 0) emit no objects.
#
# Kubeflow's own kinds (groups trainer.kubeflow.org and kubeflow.org: TrainJob, the
# runtimes, the legacy jobs, all that convert emits) are skipped: they come from the input,
# their CRDs are not installed here, and they are not ours to judge. What render makes of
# them (Jobs, Services, JobSets, PodGroups, ...) is.
#
# Speed: all objects go to one kubectl process, as a directory of one file per golden
# output; only when the server refuses some do the files that may hold them go again, one
# by one, to name the goldens. The same name in two goldens does not matter: every dry-run
# request stands alone.
set -uo pipefail
binary=$(realpath "$1")
src=$(realpath "$2")
source "$src/tests/e2e/lib.sh"
source "$src/tests/cluster/testlib.sh"
use_control_plane

# CRDs are cluster-scoped and the cluster is shared: install them idempotently (server-side
# apply, taking over fields another installer set) and never delete them.
# The CRDs of the kinds render emits beyond Kubernetes' own, which tests/cluster/build.sh
# prepares from the pinned upstream modules.
crds=$cluster/crds
check "the JobSet and PodGroup CRDs are installed" \
  kubectl apply --server-side --force-conflicts --field-manager kubectl-trainjob-tests \
  -f "$crds/" >/dev/null
# kubectl wait fails at once ("accessor error: <nil>") on a CRD whose status has no
# conditions yet, so it is asked again until it can answer.
check "the JobSet and PodGroup CRDs are established" \
  eventually kubectl wait --for condition=Established --timeout 60s crd/jobsets.jobset.x-k8s.io \
  crd/podgroups.scheduling.x-k8s.io crd/podgroups.scheduling.volcano.sh >/dev/null

# collect.py SRC BINARY NAMESPACE OUT: writes OUT/objects/NNNN.{yaml,json} (one per golden
# output, Kubeflow's kinds left out), OUT/objects.tsv (label, file, kind, group and name of
# each object; the label is the golden, #document and .item) and OUT/problems (goldens it
# could not read). Each object's metadata.namespace becomes NAMESPACE, since a dry run
# into a namespace that does not exist fails (objects without one land there as kubectl's
# context namespace; the one cluster-scoped kind, a Namespace, names none). YAML is edited
# as text, at the places PyYAML's parser marks, so that kubectl reads our own bytes; each
# edit is checked by parsing the result again. A krm ResourceList becomes a v1 List, which
# kubectl flattens into its items.
cat >"$work/collect.py" <<'PY'
import hashlib, json, os, shlex, shutil, subprocess, sys, tempfile
import yaml

src, binary, ns, out = sys.argv[1:5]
# Also the groups of what some inputs carry beside their jobs and render passes through
# (Kueue's LocalQueue, NVIDIA's ComputeDomain, made-up kinds): their CRDs are not here. This
# control plane does not serve Kubernetes' own Workload API (scheduling.k8s.io/v1beta1):
# gang_test judges those goldens on one that does. KAI Scheduler's PodGroup
# (scheduling.run.ai) is render's own, but KAI's module, and so its CRD, cannot be had here:
# the kai test applies it against a stand-in CRD instead.
SKIPPED_GROUPS = {"trainer.kubeflow.org", "kubeflow.org", "kueue.x-k8s.io", "resource.nvidia.com",
                  "example.com", "scheduling.k8s.io", "scheduling.run.ai"}
MANIFEST_COMMANDS = {"render", "krm", "convert", "init"}  # the others print text
os.makedirs(out + "/objects")
rows, problems = [], []


class Unreadable(Exception):
    pass


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def output_dir(args):
    """The --output-dir a command line names, or None."""
    for i, arg in enumerate(args):
        if arg.startswith("--output-dir="):
            return arg.split("=", 1)[1]
        if arg == "--output-dir" and i + 1 < len(args):
            return args[i + 1]
    return None


def output_dir_files(case_dir, args, outdir, label):
    """Output-dir goldens keep checksums of the files, not the files (run_case.sh's
    expected.tree): run the case as run_case.sh does and take the files the plugin's
    manifest (.kubectl-trainjob) lists, checking each against expected.tree; after a
    --check that passed, which writes nothing, the directory's YAML files."""
    sandbox = tempfile.mkdtemp()
    try:
        run = os.path.join(sandbox, "p/a/t/h/case")
        shutil.copytree(case_dir, run, symlinks=True)
        if os.path.exists(run + "/setup"):
            subprocess.run(["bash", "./setup"], cwd=run, check=True)
        stdin = open(run + "/stdin") if os.path.exists(run + "/stdin") else subprocess.DEVNULL
        if subprocess.run([binary] + args, cwd=run, stdin=stdin, capture_output=True).returncode:
            raise Unreadable("the case no longer exits 0")
        tree = {}
        for line in read(case_dir + "/expected.tree").splitlines():
            parts = line.split()
            if parts[:2] == ["+", "file"]:
                tree[os.path.normpath(parts[4])] = parts[3]
        manifest = os.path.join(run, outdir, ".kubectl-trainjob")
        if os.path.exists(manifest):
            names = [line.split(None, 1)[1] for line in read(manifest).splitlines()]
        else:
            names = sorted(n for n in os.listdir(os.path.join(run, outdir)) if n.endswith(".yaml"))
        files = []
        for name in names:
            data = open(os.path.join(run, outdir, name), "rb").read()
            want = tree.get(os.path.normpath(os.path.join("p/a/t/h/case", outdir, name)))
            if want and hashlib.md5(data).hexdigest()[:12] != want:
                raise Unreadable("%s/%s differs from expected.tree" % (outdir, name))
            files.append(("%s:%s/%s" % (label, outdir, name), data.decode("utf-8")))
        if not files:
            raise Unreadable("the output directory holds no files")
        return files
    finally:
        shutil.rmtree(sandbox)


def sources():
    for command in sorted(os.listdir(src + "/testdata")):
        for case in sorted(os.listdir(src + "/testdata/" + command)):
            case_dir = "%s/testdata/%s/%s" % (src, command, case)
            label = command + "/" + case
            if read(case_dir + "/expected.exit").strip() != "0":
                continue
            args = shlex.split(read(case_dir + "/args"))
            outdir = output_dir(args)
            try:
                if outdir is not None:
                    yield from output_dir_files(case_dir, args, outdir, label)
                elif args and args[0] in MANIFEST_COMMANDS:
                    yield label, read(case_dir + "/expected.stdout")
            except (Unreadable, OSError, subprocess.CalledProcessError) as e:
                problems.append("%s: %s" % (label, e))


def documents(text):
    """The documents of a YAML stream, split where kubectl's reader splits them."""
    docs, current = [], []
    for line in text.replace("\n", "\n\0").split("\0"):  # lines keeping their \n
        rest = line[3:].strip()
        if line.startswith("---") and (not rest or rest.startswith("#")):
            docs.append("".join(current))
            current = []
        else:
            current.append(line)
    docs.append("".join(current))
    return docs


def group(obj):
    api = obj.get("apiVersion", "")
    return api.split("/")[0] if "/" in api else ""


def value_node(mapping, key):
    for k, v in mapping.value:
        if k.value == key:
            return v
    return None


def replace(node, text):
    """An edit replacing a scalar node's text."""
    return (node.start_mark.index, node.end_mark.index, text)


def object_edits(node):
    meta = value_node(node, "metadata")
    if not isinstance(meta, yaml.MappingNode):
        raise Unreadable("an object without metadata")
    namespace = value_node(meta, "namespace")
    return [replace(namespace, json.dumps(ns))] if namespace is not None else []


def expect(obj):
    """What object_edits makes of obj, for checking the edited text."""
    if "namespace" in obj["metadata"]:
        obj["metadata"]["namespace"] = ns


def objects_of(doc, label):
    """(object, label) for the objects of one parsed document, Kubeflow's left out."""
    if not isinstance(doc, dict) or "kind" not in doc or "apiVersion" not in doc:
        raise Unreadable("%s: a document that is not an object" % label)
    if doc["kind"] in ("List", "ResourceList") and isinstance(doc.get("items"), list):
        pairs = [(o, "%s.%d" % (label, i)) for i, o in enumerate(doc["items"])]
        if any(not isinstance(o, dict) for o, _ in pairs):
            raise Unreadable("%s: a list item that is not an object" % label)
    else:
        pairs = [(doc, label)]
    kept = [(o, l) for o, l in pairs if group(o) not in SKIPPED_GROUPS]
    if len(kept) not in (0, len(pairs)) and doc is not pairs[0][0]:
        raise Unreadable("%s: a list mixing Kubeflow's kinds with others" % label)
    return kept


def convert(label, text):
    """The source's objects as a file for kubectl, and its rows for objects.tsv."""
    if text.lstrip().startswith(("{", "[")):  # JSON: edited as data, written as JSON
        doc = json.loads(text)
        kept = objects_of(doc, label + "#0")
        for obj, _ in kept:
            expect(obj)
        return ("json", json.dumps(doc, indent=1) + "\n" if kept else ""), kept
    out_docs, all_kept = [], []
    for n, part in enumerate(documents(text)):
        node = yaml.compose(part, Loader=yaml.SafeLoader)
        if node is None:
            continue
        doc = yaml.safe_load(part)
        kept = objects_of(doc, "%s#%d" % (label, n))
        if not kept:
            continue
        edits = []
        if kept[0][0] is doc:
            edits += object_edits(node)
        else:
            for item in value_node(node, "items").value:
                edits += object_edits(item)
            if doc["kind"] == "ResourceList":  # kubectl knows v1 List, not krm's list
                edits.append(replace(value_node(node, "apiVersion"), "v1"))
                edits.append(replace(value_node(node, "kind"), "List"))
        for start, end, new in sorted(edits, reverse=True):
            part = part[:start] + new + part[end:]
        for obj, _ in kept:
            expect(obj)
        if doc["kind"] == "ResourceList":
            doc["apiVersion"], doc["kind"] = "v1", "List"
        if yaml.safe_load(part) != doc:
            raise Unreadable("%s: editing the text went wrong" % kept[0][1])
        out_docs.append(part)
        all_kept += kept
    return ("yaml", "---\n".join(out_docs)), all_kept


number = 0
for label, text in sources():
    try:
        (ext, content), kept = convert(label, text)
    except (Unreadable, yaml.YAMLError, ValueError, KeyError, AttributeError) as e:
        problems.append("%s: %s" % (label, e))
        continue
    if not kept:
        continue
    number += 1
    name = "%04d.%s" % (number, ext)
    with open("%s/objects/%s" % (out, name), "w", encoding="utf-8") as f:
        f.write(content)
    for obj, l in kept:
        rows.append("\t".join([l, name, obj["kind"], group(obj), str(obj["metadata"].get("name"))]))
with open(out + "/objects.tsv", "w") as f:
    f.write("".join(r + "\n" for r in rows))
with open(out + "/problems", "w") as f:
    f.write("".join(p + "\n" for p in problems))
PY
/usr/bin/python3 "$work/collect.py" "$src" "$binary" "$ns" "$work"
check "every golden with manifests could be read and edited" [ ! -s "$work/problems" ]
sed 's/^/  unreadable: /' "$work/problems" >&2

# One kubectl for all objects: it prints a line for each object the server accepts and the
# server's message for each it refuses.
started=$SECONDS
kubectl apply --server-side --dry-run=server -f "$work/objects" >"$work/accepted" 2>"$work/refused"
echo "$(wc -l <"$work/objects.tsv") objects from $(ls "$work/objects" | wc -l) golden outputs" \
  "judged in $((SECONDS - started)) s; per kind:"
awk -F'\t' '{ print $3 ($4 == "" ? "" : "." $4) }' "$work/objects.tsv" | sort | uniq -c |
  sort -k1,1nr -k2 | sed 's/^/  /'
check "the API server accepted every object" \
  [ "$(grep -c ' serverside-applied (server dry run)$' "$work/accepted")" = "$(wc -l <"$work/objects.tsv")" ]

# A refusal names the object's kind and name, not its golden: the outputs holding an object
# of a name the messages quote go to the server again, each alone, for the verdict on each
# golden and its own messages (all outputs, if no name can be found).
mkdir "$work/refused.d"
if [ -s "$work/refused" ]; then
  suspects=$(/usr/bin/python3 - "$work" <<'PY'
import sys
work = sys.argv[1]
text = open(work + "/refused").read()
rows = [line.rstrip("\n").split("\t") for line in open(work + "/objects.tsv")]
files = {f for _, f, _, _, name in rows if '"%s"' % name in text or "/%s;" % name in text}
print("\n".join(sorted(files or {f for _, f, _, _, _ in rows})))
PY
)
  for file in $suspects; do
    kubectl apply --server-side --dry-run=server -f "$work/objects/$file" >/dev/null \
      2>"$work/refused.d/$file"
    [ -s "$work/refused.d/$file" ] || rm "$work/refused.d/$file"
  done
fi
for file in $(cut -f2 "$work/objects.tsv" | uniq); do
  label=$(awk -F'\t' -v f="$file" '$2 == f { sub(/#[^#]*$/, "", $1); print $1; exit }' "$work/objects.tsv")
  [ ! -e "$work/refused.d/$file" ] || sed "s|^|  $label: |" "$work/refused.d/$file" >&2
  check "golden $label: the API server accepts its objects" [ ! -e "$work/refused.d/$file" ]
done

# The goldens cover every kind render makes; a selection that lost some would judge less.
for kind in Job/batch Service/ ConfigMap/ PersistentVolumeClaim/ JobSet/jobset.x-k8s.io \
  PodGroup/scheduling.x-k8s.io PodGroup/scheduling.volcano.sh \
  Role/rbac.authorization.k8s.io; do
  check "objects of kind $kind were judged" \
    awk -F'\t' -v k="${kind%/*}" -v g="${kind#*/}" '$3 == k && $4 == g { found = 1 } END { exit !found }' \
    "$work/objects.tsv"
done
check "krm ResourceList items were judged" grep -q '^krm/resource-list#0\.' "$work/objects.tsv"
check "--output-dir files were judged" grep -q '^gitops/[a-z0-9-]*:out/' "$work/objects.tsv"
finish
