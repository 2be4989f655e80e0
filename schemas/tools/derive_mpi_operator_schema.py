#!/usr/bin/env python3
"""Derives our structural schema of the mpi-operator MPIJob (kubeflow.org/v2beta1).

The CRD comes from the kubeflow/mpi-operator repository, file
manifests/base/kubeflow.org_mpijobs.yaml (read at the v0.8 line); it is not kept in this
tree. The rules are those of derive_schemas.py (structure and validation keywords only),
so the schema reads like the Training Operator ones. Run from the repository root:

  schemas/tools/derive_mpi_operator_schema.py path/to/kubeflow.org_mpijobs.yaml

Writes schemas/trainer/legacy-v2beta1/mpijob.json; review the diff.
"""
import sys

import yaml

from derive_schemas import object_schema, structure, write


def main():
    with open(sys.argv[1]) as crd:
        versions = yaml.safe_load(crd)["spec"]["versions"]
    version = next(v for v in versions if v["name"] == "v2beta1")
    schema = structure(version["schema"]["openAPIV3Schema"])
    write("schemas/trainer/legacy-v2beta1/mpijob.json",
          object_schema("kubeflow.org/v2beta1", ["MPIJob"], schema["properties"]["spec"],
                        ("apiVersion", "kind", "metadata", "spec")))


if __name__ == "__main__":
    main()
