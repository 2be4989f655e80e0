#!/usr/bin/env python3
"""Derives our structural schemas from the Kubeflow Trainer CRDs.

Only the structure and the validation keywords are kept (field names, types, required,
enums, patterns, bounds, formats, the x-kubernetes markers); descriptions, defaults and
CEL rules are dropped (the rules that matter are our own semantic checks). Run from the
repository root with the reference CRDs beside it, then review the diff:

  schemas/tools/derive_schemas.py ../shared/reference      (needs python3-yaml)

Writes schemas/trainer/v2.{0,1,3}/{trainjob,runtime}.json,
schemas/trainer/legacy-v1/<kind>.json for the Training Operator v1.9 kinds (their pod
templates shared as legacy-v1/pod-template.json, referred to as "legacy-pod-template"), and
schemas/emitted/batch-v1-job.json and v1-persistentvolumeclaim.json (the Job and
PersistentVolumeClaim structures the runtime CRD embeds), and
schemas/trainer/optimization/optimizationjob.json from the unreleased OptimizationJob CRD
of Trainer master (its trainJobTemplate.spec is left open: the template is checked as a
TrainJob, against the schema of the dialect its fields speak).

Kubernetes 1.37's Workload API is in no CRD: its structures are written out below from the
k8s.io/api v0.37.2 types (scheduling/v1beta1, batch/v1 JobSchedulingConfiguration), for
the runtime's spec.scheduling (KEP-3015, read from the v2.2 dialect on), the Job's
spec.scheduling, and schemas/emitted/scheduling.k8s.io-v1beta1-{workload,podgroup}.json.
"""
import json
import os
import sys

import yaml

KEPT = ("type", "required", "enum", "nullable", "pattern", "format", "minimum", "maximum",
        "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength", "minItems",
        "maxItems", "minProperties", "maxProperties", "x-kubernetes-int-or-string",
        "x-kubernetes-preserve-unknown-fields", "x-kubernetes-list-type",
        "x-kubernetes-list-map-keys")

# Trainer release whose CRDs define each dialect we accept (v2.2 reads the v2.3 schema).
DIALECTS = {"v2.0": "kubeflow-trainer-v2.0.0", "v2.1": "kubeflow-trainer-v2.1.0",
            "v2.3": "kubeflow-trainer-v2.3.0"}


def structure(schema):
    out = {key: schema[key] for key in KEPT if key in schema}
    if "properties" in schema:
        out["properties"] = {name: structure(sub)
                             for name, sub in sorted(schema["properties"].items())}
    for key in ("items", "additionalProperties"):
        if isinstance(schema.get(key), dict):
            out[key] = structure(schema[key])
        elif isinstance(schema.get(key), bool):
            out[key] = schema[key]
    return out


def crd_schema(reference, release, plural):
    path = os.path.join(reference, release, "crds", "trainer.kubeflow.org_%s.yaml" % plural)
    with open(path) as crd:
        return yaml.safe_load(crd)["spec"]["versions"][0]["schema"]["openAPIV3Schema"]


def object_schema(api_version, kinds, spec, required):
    return {
        "type": "object",
        "required": list(required),
        "properties": {
            "apiVersion": {"type": "string", "enum": [api_version]},
            "kind": {"type": "string", "enum": kinds},
            "metadata": {"$ref": "input-object-meta"},
            "spec": spec,
            "status": {"type": "object", "x-kubernetes-preserve-unknown-fields": True},
        },
    }


def obj(properties=None, required=()):
    out = {"type": "object"}
    if properties:
        out["properties"] = properties
    if required:
        out["required"] = list(required)
    return out


INT32 = {"type": "integer", "format": "int32"}
STRING = {"type": "string"}
POLICY = obj({"basic": obj(), "gang": obj({"minCount": INT32})})
CONSTRAINTS = obj({"topology": {"type": "array", "items": obj({"key": STRING}, ["key"])}})
DISRUPTION = obj({"single": obj(), "all": obj()})
CLAIMS = {"type": "array", "maxItems": 4, "items": obj(
    {"name": STRING, "resourceClaimName": STRING, "resourceClaimTemplateName": STRING},
    ["name"])}
LEVEL = {"schedulingPolicy": POLICY, "schedulingConstraints": CONSTRAINTS,
         "disruptionMode": DISRUPTION, "resourceClaims": CLAIMS}


# batch/v1 JobSchedulingConfiguration (1.37, gate WorkloadWithJob): no resourceClaims yet.
JOB_SCHEDULING = obj({"schedulingPolicy": POLICY, "schedulingConstraints": CONSTRAINTS,
                      "disruptionMode": DISRUPTION})


def job_spec(runtime):
    """The Job spec a runtime's replicated job embeds."""
    return (runtime["properties"]["spec"]["properties"]["template"]["properties"]["spec"]
            ["properties"]["replicatedJobs"]["items"]["properties"]["template"]["properties"]
            ["spec"])


def runtime_scheduling():
    """TrainingRuntimeSpec.scheduling of KEP-3015 (three levels)."""
    targets = {"type": "array", "minItems": 1, "maxItems": 8,
               "items": {"type": "string", "maxLength": 253}}
    entry = obj(dict(LEVEL, targetReplicatedJobs=targets, job=obj(LEVEL)))
    return obj(dict(LEVEL, replicatedJobs={"type": "array", "maxItems": 8, "items": entry}))


def workload_api_schemas():
    api = "scheduling.k8s.io/v1beta1"
    template = obj(dict(LEVEL, name=STRING), ["name", "schedulingPolicy"])
    workload = obj({"podGroupTemplates": {"type": "array", "minItems": 1, "maxItems": 8,
                                          "items": template}}, ["podGroupTemplates"])
    pod_group = obj(dict(LEVEL, workloadRef=obj({"workloadName": STRING, "templateName": STRING},
                                                ["workloadName", "templateName"])),
                    ["schedulingPolicy"])
    for kind, spec in (("Workload", workload), ("PodGroup", pod_group)):
        schema = object_schema(api, [kind], spec, ("apiVersion", "kind", "metadata", "spec"))
        schema["properties"]["metadata"] = {"$ref": "object-meta"}
        del schema["properties"]["status"]
        write("schemas/emitted/scheduling.k8s.io-v1beta1-%s.json" % kind.lower(), schema)


def write(path, schema):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as out:
        json.dump(schema, out, indent=1, sort_keys=True)
        out.write("\n")


# The Training Operator release whose CRDs define the kubeflow.org/v1 kinds, and for each
# kind the CRD's plural and the field that holds its replica specs.
LEGACY_RELEASE = "kubeflow-training-operator-v1.9.0"
LEGACY_KINDS = {"PyTorchJob": ("pytorchjobs", "pytorchReplicaSpecs"),
                "TFJob": ("tfjobs", "tfReplicaSpecs"),
                "XGBoostJob": ("xgboostjobs", "xgbReplicaSpecs"),
                "PaddleJob": ("paddlejobs", "paddleReplicaSpecs"),
                "JAXJob": ("jaxjobs", "jaxReplicaSpecs"),
                "MPIJob": ("mpijobs", "mpiReplicaSpecs")}
LEGACY_POD_TEMPLATE = "legacy-pod-template"


def legacy_schemas(reference):
    """One schema per v1 kind; the pod template, the bulk of each, is written once."""
    pod_template = None
    for kind, (plural, field) in sorted(LEGACY_KINDS.items()):
        path = os.path.join(reference, LEGACY_RELEASE, "crds", "kubeflow.org_%s.yaml" % plural)
        with open(path) as crd:
            versions = yaml.safe_load(crd)["spec"]["versions"]
        schema = structure([v for v in versions if v["name"] == "v1"][0]["schema"]
                           ["openAPIV3Schema"])
        replica = schema["properties"]["spec"]["properties"][field]["additionalProperties"]
        template = replica["properties"]["template"]
        if pod_template is None:
            pod_template = template
        elif template != pod_template:
            sys.exit("%s: its pod template differs from the other kinds'" % kind)
        replica["properties"]["template"] = {"$ref": LEGACY_POD_TEMPLATE}
        write("schemas/trainer/legacy-v1/%s.json" % kind.lower(),
              object_schema("kubeflow.org/v1", [kind], schema["properties"]["spec"],
                            ("apiVersion", "kind", "metadata", "spec")))
    write("schemas/trainer/legacy-v1/pod-template.json", pod_template)


# The Trainer master snapshot that holds the OptimizationJob CRD (KEP-3562, not released).
OPTIMIZATION_RELEASE = "kubeflow-trainer-master-8c0f5059"


def optimization_schema(reference):
    spec = structure(crd_schema(reference, OPTIMIZATION_RELEASE, "optimizationjobs"))
    spec = spec["properties"]["spec"]
    template = spec["properties"]["trainJobTemplate"]
    template["properties"]["spec"] = {"type": "object",
                                      "x-kubernetes-preserve-unknown-fields": True}
    write("schemas/trainer/optimization/optimizationjob.json",
          object_schema("trainer.kubeflow.org/v1alpha1", ["OptimizationJob"], spec,
                        ("apiVersion", "kind", "metadata", "spec")))


def main():
    reference = sys.argv[1]
    optimization_schema(reference)
    legacy_schemas(reference)
    api = "trainer.kubeflow.org/v1alpha1"
    for dialect, release in DIALECTS.items():
        trainjob = structure(crd_schema(reference, release, "trainjobs"))
        runtime = structure(crd_schema(reference, release, "clustertrainingruntimes"))
        if dialect == "v2.3":
            runtime["properties"]["spec"]["properties"]["scheduling"] = runtime_scheduling()
            job_spec(runtime)["properties"]["scheduling"] = JOB_SCHEDULING
        write("schemas/trainer/%s/trainjob.json" % dialect,
              object_schema(api, ["TrainJob"], trainjob["properties"]["spec"],
                            ("apiVersion", "kind", "metadata", "spec")))
        write("schemas/trainer/%s/runtime.json" % dialect,
              object_schema(api, ["ClusterTrainingRuntime", "TrainingRuntime"],
                            runtime["properties"]["spec"], ("apiVersion", "kind", "metadata")))
    newest = structure(crd_schema(reference, DIALECTS["v2.3"], "clustertrainingruntimes"))
    job = object_schema("batch/v1", ["Job"], job_spec(newest),
                        ("apiVersion", "kind", "metadata", "spec"))
    job["properties"]["metadata"] = {"$ref": "object-meta"}
    del job["properties"]["status"]
    job["properties"]["spec"]["properties"]["scheduling"] = JOB_SCHEDULING
    write("schemas/emitted/batch-v1-job.json", job)
    workload_api_schemas()
    claim_template = (newest["properties"]["spec"]["properties"]["template"]["properties"]["spec"]
                      ["properties"]["volumeClaimPolicies"]["items"]["properties"]["templates"]
                      ["items"])
    claim = object_schema("v1", ["PersistentVolumeClaim"], claim_template["properties"]["spec"],
                          ("apiVersion", "kind", "metadata", "spec"))
    claim["properties"]["metadata"] = {"$ref": "object-meta"}
    del claim["properties"]["status"]
    write("schemas/emitted/v1-persistentvolumeclaim.json", claim)


if __name__ == "__main__":
    main()
