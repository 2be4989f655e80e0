# Writes trainjob.yaml: a TrainJob whose image value on line 10 holds a NUL byte.
doc = (
    "# A NUL byte inside the image name (line 10); YAML allows no control characters.\n"
    "apiVersion: trainer.kubeflow.org/v1alpha1\n"
    "kind: TrainJob\n"
    "metadata:\n"
    "  name: nul-byte\n"
    "spec:\n"
    "  runtimeRef:\n"
    "    name: torch-distributed\n"
    "  trainer:\n"
    "    image: registry.example.com/trainer\x00:1.0\n"
)
open("trainjob.yaml", "wb").write(doc.encode())
