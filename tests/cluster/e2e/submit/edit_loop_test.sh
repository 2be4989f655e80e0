#!/bin/bash
# The loop a user goes round, on the real control plane: init, edit the script, run again
# (--from-file replaces the script in the ConfigMap the job mounts, for run --local and
# submit), run a finished job again (--rerun, --replace), a changed job (one line), image
# mode's local run, several jobs in one file, and -n against the file's namespace.
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"
source "$src/tests/cluster/testlib.sh"
use_control_plane
cd "$work" || exit 1

# init --mode configmap, then edit the script and run it again.
printf 'echo version-A\n' > train.sh
"$bin" init demo --script train.sh --nodes 1 > demo.yaml
printf 'echo version-B\n' > train.sh
check "run --local runs the script written into the file" \
  bash -c "'$bin' run --local -f demo.yaml 2>&1 | grep -qx version-A"
"$bin" run --local -f demo.yaml --from-file train.sh > local.out 2>&1
check "run --local --from-file runs the edited script" grep -qx version-B local.out
check "... and not the old one" bash -c "! grep -q version-A local.out"
"$bin" submit -f demo.yaml --from-file train.sh --dry-run=client > plan.yaml
check "submit --from-file fills the ConfigMap init wrote: one ConfigMap, one /workspace mount" \
  bash -c "[ \$(grep -c '^kind: ConfigMap' plan.yaml) -eq 1 ] && [ \$(grep -c 'mountPath: /workspace' plan.yaml) -eq 1 ] && grep -q 'name: demo-script' plan.yaml && grep -q version-B plan.yaml"

# A mount path twice in a container is refused by the API server's server-side apply, which
# submit uses: so the Job accepted below has its /workspace once.
cat > dup.yaml <<'YAML'
apiVersion: batch/v1
kind: Job
metadata:
  name: dup
spec:
  template:
    spec:
      restartPolicy: Never
      containers:
        - name: node
          image: busybox
          volumeMounts:
            - {name: a, mountPath: /workspace}
            - {name: b, mountPath: /workspace}
      volumes:
        - {name: a, emptyDir: {}}
        - {name: b, emptyDir: {}}
YAML
check "the API server refuses a repeated mount path" \
  bash -c "! kubectl apply --server-side --dry-run=server -f dup.yaml 2> dup.err && grep -qF 'volumeMounts: duplicate entries for key [mountPath=\"/workspace\"]' dup.err"

# The pods end by themselves (kwok: Succeeded after a second).
"$bin" submit -f demo.yaml --from-file train.sh > submit.out 2> submit.err
check "submit --from-file is accepted by the API server (exit 0)" [ $? -eq 0 ]
# (Every namespace also holds the kube-root-ca.crt the controllers put there.)
check "... the namespace holds one ConfigMap of ours, with the edited script" \
  bash -c "[ \"\$(kubectl get configmaps -o name | grep -vx configmap/kube-root-ca.crt)\" = configmap/demo-script ] && kubectl get configmap demo-script -o jsonpath='{.data.train\.sh}' | grep -qx 'echo version-B'"
check "... and the Job mounts /workspace once" \
  bash -c "[ \"\$(kubectl get job demo-node-0 -o jsonpath='{.spec.template.spec.containers[0].volumeMounts[*].mountPath}')\" = /workspace ]"

# A finished job: submit says so; --rerun and --replace run it again.
uid() { kubectl get job demo-node-0 -o jsonpath='{.metadata.uid}'; }
complete() { [ "$(kubectl get job demo-node-0 -o jsonpath='{.status.conditions[?(@.type=="Complete")].status}' 2>/dev/null)" = True ]; }
check "the Job controller marks the Job Complete" eventually complete
first=$(uid)
"$bin" submit -f demo.yaml --from-file train.sh > again.out 2> again.err
rc=$?
check "submit of a finished job exits 0 and runs nothing" \
  bash -c "[ $rc -eq 0 ] && [ \"\$(kubectl get job demo-node-0 -o jsonpath='{.metadata.uid}')\" = '$first' ] && [ \$(kubectl get pods -l job-name=demo-node-0 -o name | wc -l) -eq 1 ]"
check "... saying the Jobs have finished and what runs them again" \
  grep -q 'demo: its Jobs have finished.*submit --rerun. (or --replace) deletes and recreates them' again.out
check "... and leaves the finished Job unapplied" bash -c '! grep -q "job.batch/demo-node-0" again.out'
"$bin" submit -f demo.yaml --from-file train.sh --rerun > rerun.out 2>&1
check "submit --rerun deletes and recreates the Job" \
  bash -c "grep -q 'job.batch/demo-node-0 deleted (--rerun)' rerun.out && grep -q 'job.batch/demo-node-0 created' rerun.out && [ \"\$(kubectl get job demo-node-0 -o jsonpath='{.metadata.uid}')\" != '$first' ]"
check "... whose pod runs to completion again" eventually complete
second=$(uid)
"$bin" submit -f demo.yaml --from-file train.sh --replace > replace.out 2>&1
check "submit --replace of an unchanged, finished job recreates it too" \
  bash -c "grep -q 'deleted (--replace)' replace.out && [ \"\$(kubectl get job demo-node-0 -o jsonpath='{.metadata.uid}')\" != '$second' ]"

# A changed job: one line, not the server's dump.
sed 's/cpu: "1"/cpu: "2"/' demo.yaml > changed.yaml
"$bin" submit -f changed.yaml > changed.out 2> changed.err
rc=$?
check "a changed job exits 1 with one line saying Jobs are immutable" \
  bash -c "[ $rc -eq 1 ] && [ \$(wc -l < changed.err) -eq 1 ] && grep -q 'Jobs are immutable: use --replace' changed.err && ! grep -q 'field is immutable' changed.err"
check "... and the Job keeps its cpu" \
  bash -c "[ \"\$(kubectl get job demo-node-0 -o jsonpath='{.spec.template.spec.containers[0].resources.requests.cpu}')\" = 1 ]"
"$bin" delete demo --wait > /dev/null

# Image mode: the script is in the image; run --local takes a copy with --from-file.
"$bin" init img --mode image --script train.sh --image busybox:1 --nodes 1 > img.yaml
check "init --mode image says how to run it locally (--from-file, not --image-map)" \
  bash -c "grep -q 'run --local -f THIS_FILE --from-file train.sh' img.yaml && ! grep -q image-map img.yaml"
check "run --local --from-file FILE runs an image-mode job" \
  bash -c "'$bin' run --local -f img.yaml --from-file train.sh 2>&1 | grep -qx version-B"
mkdir src && printf 'echo from-dir\n' > src/train.sh && mkdir src/sub
check "run --local --from-file DIR takes the directory's files" \
  bash -c "'$bin' run --local -f img.yaml --from-file src 2>&1 | grep -qx from-dir"

# Several jobs in one file: each is submitted with its own ConfigMap; -n against the file.
{ "$bin" init one --script train.sh --nodes 1; echo ---; "$bin" init two --script train.sh --nodes 1; } > two.yaml
"$bin" submit -f two.yaml > two.out 2> two.err
check "submit takes every job in a file" \
  bash -c "grep -qx 'job.batch/one-node-0 created' two.out && grep -qx 'job.batch/two-node-0 created' two.out && kubectl get job one-node-0 two-node-0 > /dev/null"
check "... each ConfigMap labelled as its own job's" \
  bash -c "[ \"\$(kubectl get configmap one-script two-script -o jsonpath='{.items[*].metadata.labels.trainer\.kubeflow\.org/trainjob-name}')\" = 'one two' ]"
"$bin" submit -f two.yaml --wait > /dev/null 2> wait.err
rc=$?
check "--wait with several jobs is a usage error" bash -c "[ $rc -eq 2 ] && grep -q 'the inputs hold 2' wait.err"
# The file names this test's namespace; --namespace another one of its own.
other=$ns-other
"$bin" init team --script train.sh -n "$ns" > team.yaml
audit_mark
"$bin" submit -f team.yaml -n "$other" > team.out 2> team.err
rc=$?
check "-n against the file's namespace: exit 1" [ $rc -eq 1 ]
check "... located, naming both and the flag to pass" \
  grep -q "^team.yaml:[0-9]*:[0-9]*: error: .*ConfigMap team-script names namespace \"$ns\", but --namespace says \"$other\": pass --namespace=$ns" team.err
check "... before anything is sent to either namespace" \
  bash -c "[ -z \"\$1\$2\" ]" _ "$(audit_requests)" "$(ns=$other audit_requests)"
"$bin" render -f team.yaml -n "$other" > team.out 2> team.err
rc=$?
check "render -n against the file's namespace: exit 1, nothing written, the same message" \
  bash -c "[ $rc -eq 1 ] && [ ! -s team.out ] && grep -q 'but --namespace says \"$other\"' team.err"
"$bin" run --local -f team.yaml -n "$other" > team.out 2> team.err
rc=$?
check "run --local -n against the file's namespace: exit 1, nothing run" \
  bash -c "[ $rc -eq 1 ] && grep -q 'but --namespace says \"$other\"' team.err && ! grep -q 'succeeded' team.err && ! grep -q version-B team.out team.err"
finish
