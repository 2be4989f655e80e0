#!/usr/bin/env python3
"""The upstream releases the oracle runs, as its summary line names them: the version each
group's go.mod pins for upstream's modules.

    versions.py MODULES_DIR
"""
import re
import sys
from pathlib import Path

NAMES = {
    "github.com/kubeflow/trainer/v2": "Trainer",
    "sigs.k8s.io/jobset": "JobSet",
    "github.com/kubeflow/training-operator": "Training Operator",
    "github.com/kubeflow/mpi-operator": "mpi-operator",
}
found = {}
for go_mod in sorted(Path(sys.argv[1]).glob("*/go.mod")):
    for module, version in re.findall(r"^\s*(?:require\s+)?(\S+) (v\S+)", go_mod.read_text(), re.M):
        if module in NAMES:
            found.setdefault(NAMES[module], version)
print(", ".join(f"{name} {found[name]}" for name in NAMES.values() if name in found))
