#!/usr/bin/env python3
"""Derives schemas/emitted/jobset.x-k8s.io-v1alpha2-jobset.json from the JobSet CRD.

`render --target jobset` emits jobset.x-k8s.io/v1alpha2 JobSets; the tests check every one
against this schema. It is made the way derive_schemas.py makes the others: structure and
validation keywords kept, descriptions, defaults and CEL rules dropped, status left out,
metadata checked as our object-meta. Run from the repository root with the CRD of
kubernetes-sigs/jobset v0.12.0 (the release Trainer v2.3 vendors), from its
config/components/crd/bases/jobset.x-k8s.io_jobsets.yaml, then review the diff:

  schemas/tools/derive_jobset_schema.py ../shared/reference/jobset-v0.12.0/crds/jobset.x-k8s.io_jobsets.yaml

Fields newer than JobSet v0.10 (volumeClaimPolicies, v0.11) are in the schema; docs/jobset.md
says which JobSet release each field the output uses needs.
"""
import os
import sys

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from derive_schemas import object_schema, structure, write  # noqa: E402

API_VERSION = "jobset.x-k8s.io/v1alpha2"


def main():
    with open(sys.argv[1]) as crd:
        versions = yaml.safe_load(crd)["spec"]["versions"]
    version = [v for v in versions if v["name"] == API_VERSION.split("/")[1]][0]
    schema = structure(version["schema"]["openAPIV3Schema"])
    jobset = object_schema(API_VERSION, ["JobSet"], schema["properties"]["spec"],
                           ("apiVersion", "kind", "metadata", "spec"))
    jobset["properties"]["metadata"] = {"$ref": "object-meta"}
    del jobset["properties"]["status"]
    write("schemas/emitted/jobset.x-k8s.io-v1alpha2-jobset.json", jobset)


if __name__ == "__main__":
    main()
