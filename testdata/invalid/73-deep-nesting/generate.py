# Writes deep.yaml: a TrainJob whose label value hides a mapping nested 300 levels deep.
depth = 300
lines = [
    "apiVersion: trainer.kubeflow.org/v1alpha1",
    "kind: TrainJob",
    "metadata:",
    "  name: deep",
    "spec:",
    "  runtimeRef:",
    "    name: torch-distributed",
    "  trainer:",
    "    numNodes: 1",
    "  labels:",
]
for level in range(depth):
    lines.append("  " * (level + 2) + "k:")
lines[-1] += " end"
with open("deep.yaml", "w") as f:
    f.write("\n".join(lines) + "\n")
