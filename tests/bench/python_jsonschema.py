#!/usr/bin/python3
"""Validates a YAML stream of TrainJobs against our TrainJob schema with Python's
jsonschema (Debian python3-jsonschema), for the side-by-side comparison in
validate_compare.sh. Reports two figures: end to end (YAML text to verdict, with
PyYAML's C loader, the fastest it has) and schema validation alone (documents already
parsed).

Usage: python_jsonschema.py SCHEMA.json STREAM.yaml
"""
import json
import sys
import time

import jsonschema
import yaml


def main():
    with open(sys.argv[1]) as schema_file:
        schema = json.load(schema_file)
    # Our schemas refer to the ObjectMeta schema by name; inline it for jsonschema.
    with open(sys.argv[1].rsplit("/", 2)[0] + "/input-object-meta.json") as meta_file:
        schema["properties"]["metadata"] = json.load(meta_file)
    validator = jsonschema.Draft4Validator(schema)
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    start = time.perf_counter()
    with open(sys.argv[2]) as stream:
        documents = [d for d in yaml.load_all(stream, Loader=loader) if d is not None]
    parsed = time.perf_counter()
    errors = sum(1 for document in documents for _ in validator.iter_errors(document))
    done = time.perf_counter()
    count = len(documents)
    print("python_documents            %d (%d schema errors)" % (count, errors))
    print("python_end_to_end_docs_per_s %.0f  (%s + jsonschema)" % (count / (done - start),
                                                                    loader.__name__))
    print("python_schema_only_docs_per_s %.0f  (documents already parsed)" %
          (count / (done - parsed)))


if __name__ == "__main__":
    main()
