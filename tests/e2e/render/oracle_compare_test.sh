#!/usr/bin/env bash
# The oracle's verdicts (tests/oracle/compare.py) on cases made here, without a cluster: two
# pods that differ only in what no two controllers share are `same`; a changed env value, a
# missing pod and a refusal on one side are DIFF; our own job label is `documented`; two
# refusals are `both refused`. And every id the oracle can give as `documented` is explained
# in docs/semantics.md.
set -uo pipefail
source_dir=$(realpath "$2")
. "$(dirname "$0")/../lib.sh"
compare=$source_dir/tests/oracle/compare.py
compare_rules=$source_dir/tests/oracle/compare_rules.py
check_eq() {  # check_eq DESCRIPTION EXPECTED ACTUAL
  check "$1 (got: $3)" [ "$2" = "$3" ]
}

# side DIR SIDE NAMESPACE [EDIT]: DIR/SIDE.json, one Job-made pod of replicated job node
# index 0 in NAMESPACE, with EDIT (python on `pod`) applied.
side() {
  echo "$3" >"$1/$2.ns"
  python3 - "$1/$2.json" "$3" "${4:-}" <<'PY'
import json, random, string, sys
out, ns, edit = sys.argv[1:]
suffix = "".join(random.choice(string.ascii_lowercase) for _ in range(5))
pod = {"kind": "Pod", "apiVersion": "v1",
       "metadata": {"name": f"t-node-0-0-{suffix}", "generateName": "t-node-0-0-", "namespace": ns,
                    "uid": suffix,
                    "labels": {"jobset.sigs.k8s.io/replicatedjob-name": "node",
                               "jobset.sigs.k8s.io/job-index": "0",
                               "batch.kubernetes.io/controller-uid": suffix},
                    "annotations": {"batch.kubernetes.io/job-completion-index": "0"}},
       "spec": {"nodeName": f"node-{suffix}", "hostname": "t-node-0-0", "subdomain": "t",
                "volumes": [{"name": f"kube-api-access-{suffix}", "projected": {}}],
                "containers": [{"name": "node", "image": "busybox",
                                "env": [{"name": "POD", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}},
                                        {"name": "NS", "value": f"t.{ns}.svc"}],
                                "volumeMounts": [{"name": f"kube-api-access-{suffix}", "mountPath": "/var/run"}]}]}}
service = {"kind": "Service", "apiVersion": "v1", "metadata": {"name": "t", "namespace": ns},
           "spec": {"clusterIP": "None", "selector": {"jobset.sigs.k8s.io/replicatedjob-name": "node"}}}
items = [pod, service]
exec(edit)
json.dump({"items": items}, open(out, "w"))
PY
}

verdict() {  # verdict NAME UP_EDIT OURS_EDIT: compare.py's first line on such a case
  local dir=$work/$1
  mkdir -p "$dir"
  side "$dir" up o1-up "$2"
  side "$dir" ours o1-ours "$3"
  python3 "$compare" "$dir" | sed -n 1p
}

check_eq "same: generated names, uids, nodes and namespaces normalised" \
  "same" "$(verdict same "" "")"
check_eq "DIFF: one env value" "DIFF" \
  "$(verdict env "" "pod['spec']['containers'][0]['env'][1]['value'] = 'other'")"
check_eq "DIFF: a pod only upstream has" "DIFF" "$(verdict missing "" "items = [service]")"
check_eq "documented: our job label" "documented: our-job-label" \
  "$(verdict label "" "pod['metadata']['labels']['trainer.kubeflow.org/trainjob-name'] = 't'")"

mkdir -p "$work/refused"
echo "admission webhook denied the request" >"$work/refused/up.refused"
side "$work/refused" ours o1-ours ""
check_eq "DIFF: only upstream refused" "DIFF" "$(python3 "$compare" "$work/refused" | sed -n 1p)"
echo "error: spec.x: expected" >"$work/refused/ours.refused"
check_eq "both refused" "both refused" "$(python3 "$compare" "$work/refused" | sed -n 1p)"

# Every documented id (compare.py's and its rules') is explained in docs/semantics.md.
ids=$(python3 -c "
import re, sys
text = open('$compare').read() + open('$compare_rules').read()
print('\n'.join(sorted(set(re.findall(r'\(\(?\"([a-z0-9-]+)\", (?:lambda|re\.compile)', text)) | {'upstream-crashes'})))")
for id in $ids; do
  check "docs/semantics.md explains $id" grep -q "\`$id\`" "$source_dir/docs/semantics.md"
done
finish
