#!/usr/bin/env python3
"""Derives the structural schema of a batch/v1 Job from a TrainingRuntime CRD.

The CRD embeds the JobSet spec, whose replicatedJobs[].template is a full JobTemplateSpec
with the Kubernetes PodSpec. Only the structure is kept (field names, types, required,
enums, the x-kubernetes markers); descriptions and validation rules are dropped.

Usage: derive_job_schema.py CRD.yaml > emitted/batch-v1-job.json   (needs python3-yaml)
"""
import json
import sys

import yaml

KEPT = ("type", "required", "enum", "nullable", "x-kubernetes-int-or-string",
        "x-kubernetes-preserve-unknown-fields")


def structure(schema):
    out = {key: schema[key] for key in KEPT if key in schema}
    if "properties" in schema:
        out["properties"] = {name: structure(sub) for name, sub in sorted(schema["properties"].items())}
    for key in ("items", "additionalProperties"):
        if isinstance(schema.get(key), dict):
            out[key] = structure(schema[key])
    return out


def main():
    crd = yaml.safe_load(open(sys.argv[1]))
    root = crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]
    job_template = (root["properties"]["spec"]["properties"]["template"]["properties"]["spec"]
                    ["properties"]["replicatedJobs"]["items"]["properties"]["template"])
    job = {
        "type": "object",
        "required": ["apiVersion", "kind", "metadata", "spec"],
        "properties": {
            "apiVersion": {"type": "string", "enum": ["batch/v1"]},
            "kind": {"type": "string", "enum": ["Job"]},
            "metadata": {"$ref": "object-meta"},
            "spec": structure(job_template["properties"]["spec"]),
        },
    }
    json.dump(job, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
