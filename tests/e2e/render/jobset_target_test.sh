#!/usr/bin/env bash
# render --target jobset and --gitops-order argocd over every embedded runtime: one JobSet
# per TrainJob holding the runtime's replicated jobs in order with their dependsOn, no
# Service or claim beside it; Argo CD waves that follow dependsOn (Complete: a later wave,
# Ready: the same one); --output-dir and byte-for-byte determinism with --target jobset.
set -uo pipefail
binary=$1
source_dir=$2
. "$(dirname "$0")/../lib.sh"

checker="$work/check.py"
cat >"$checker" <<'PY'
import json, sys
mode, runtime_path, rendered_path = sys.argv[1:4]
import yaml
runtime = yaml.safe_load(open(runtime_path))
expected = runtime["spec"]["template"]["spec"]["replicatedJobs"]
items = json.load(open(rendered_path))["items"]
problems = []
if mode == "jobset":
    jobsets = [o for o in items if o["kind"] == "JobSet"]
    if len(jobsets) != 1:
        problems.append("expected one JobSet, found %d" % len(jobsets))
    for kind in ("Service", "PersistentVolumeClaim", "Job"):
        if any(o["kind"] == kind for o in items):
            problems.append("a %s beside the JobSet" % kind)
    if jobsets:
        spec = jobsets[0]["spec"]
        names = [j["name"] for j in spec["replicatedJobs"]]
        if names != [j["name"] for j in expected]:
            problems.append("replicated jobs %s, runtime has %s" % (names, [j["name"] for j in expected]))
        for got, want in zip(spec["replicatedJobs"], expected):
            if got.get("dependsOn") != want.get("dependsOn"):
                problems.append("%s: dependsOn %s" % (got["name"], got.get("dependsOn")))
            job = got["template"]["spec"]
            if job.get("parallelism") is None or job.get("parallelism") != job.get("completions"):
                problems.append("%s: parallelism/completions unset or unequal" % got["name"])
        for field in ("successPolicy", "network", "volumeClaimPolicies", "failurePolicy"):
            if runtime["spec"]["template"]["spec"].get(field) is not None and field not in spec:
                problems.append("runtime's %s missing" % field)
        if jobsets[0]["metadata"].get("ownerReferences"):
            problems.append("an ownerReference")
else:  # argocd: every Job has a wave that follows its replicated job's dependsOn
    wave = {}
    for o in items:
        if o["kind"] != "Job":
            continue
        labels = o["metadata"]["labels"]
        annotations = o["metadata"].get("annotations", {})
        if "argocd.argoproj.io/sync-wave" not in annotations:
            problems.append("%s has no sync wave" % o["metadata"]["name"])
            continue
        wave[labels["jobset.sigs.k8s.io/replicatedjob-name"]] = int(annotations["argocd.argoproj.io/sync-wave"])
    for job in expected:
        deps = job.get("dependsOn") or []
        want = max([wave.get(d["name"], -1) + (d["status"] == "Complete") for d in deps], default=0)
        if wave.get(job["name"]) != want:
            problems.append("%s: wave %s, expected %s" % (job["name"], wave.get(job["name"]), want))
    for o in items:
        if o["kind"] != "Job" and "argocd.argoproj.io/sync-wave" in o["metadata"].get("annotations", {}):
            problems.append("%s %s has a wave" % (o["kind"], o["metadata"]["name"]))
for problem in problems:
    print("%s %s: %s" % (mode, runtime_path, problem), file=sys.stderr)
sys.exit(1 if problems else 0)
PY

for runtime in "$source_dir"/runtimes/*.yaml; do
  name=$(basename "$runtime" .yaml)
  cat >"$work/$name.yaml" <<YAML
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: t
  namespace: team
spec:
  runtimeRef:
    name: $name
  trainer:
    numNodes: 2
YAML
  "$binary" render --target jobset -f "$work/$name.yaml" -o json >"$work/$name.jobset.json" 2>/dev/null
  check "$name: render --target jobset succeeds" test $? -eq 0
  check "$name: the JobSet holds the runtime's jobs" \
    /usr/bin/python3 "$checker" jobset "$runtime" "$work/$name.jobset.json"
  "$binary" render --gitops-order argocd -f "$work/$name.yaml" -o json >"$work/$name.argo.json" 2>/dev/null
  check "$name: render --gitops-order argocd succeeds" test $? -eq 0
  check "$name: sync waves follow dependsOn" \
    /usr/bin/python3 "$checker" argocd "$runtime" "$work/$name.argo.json"
done

tune="$work/torchtune-llama3.2-1b.yaml"
"$binary" render --target jobset -f "$tune" >"$work/first.yaml" 2>/dev/null
"$binary" render --target jobset -f "$tune" >"$work/second.yaml" 2>/dev/null
check "two renders are the same bytes" cmp -s "$work/first.yaml" "$work/second.yaml"
mkdir -p "$work/out"
"$binary" render --target jobset --output-dir "$work/out" -f "$tune" 2>/dev/null
check "--output-dir writes the JobSet to the TrainJob's file" \
  cmp -s "$work/first.yaml" "$work/out/team.t.yaml"
"$binary" render --target jobset --gitops-order argocd -f "$tune" >"$work/usage.out" 2>"$work/usage.err"
check "--gitops-order with --target jobset is a usage error" test $? -eq 2
check "and prints nothing" test ! -s "$work/usage.out"
finish
