#!/usr/bin/env bash
# The MNIST CNN on real IDX files (small ones made here: digit k is a bright bar in row
# band k, plus noise), and clear errors for missing and truncated files.
. "$(dirname "$0")/lib.sh"

make_idx() {  # make_idx DIR PREFIX COUNT
  python3 - "$@" <<'PY'
import random, struct, sys
directory, prefix, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
rng = random.Random(count)
labels = [rng.randrange(10) for _ in range(count)]
pixels = bytearray()
for label in labels:
    for row in range(28):
        for col in range(28):
            bright = 2 + 2 * label <= row < 4 + 2 * label
            pixels.append(rng.randrange(200, 256) if bright else rng.randrange(0, 60))
with open(f"{directory}/{prefix}-images-idx3-ubyte", "wb") as f:
    f.write(struct.pack(">IIII", 0x803, count, 28, 28) + pixels)
with open(f"{directory}/{prefix}-labels-idx1-ubyte", "wb") as f:
    f.write(struct.pack(">II", 0x801, count) + bytes(labels))
PY
}

mkdir -p "$work/mnist"
make_idx "$work/mnist" train 512
make_idx "$work/mnist" t10k 200
"$trainer" --nproc-per-node 2 --master-port "$(free_port)" --model mnist-cnn \
  --data-dir "$work/mnist" --epochs 1 --batch-size 32 >"$work/train.out" 2>&1
check "training on IDX files exits 0" [ $? -eq 0 ]
check "trains on the 512 images" has "$work/train.out" 'training mnist-cnn on 512 samples'
accuracy=$(sed -n 's/^Test accuracy: \([0-9]*\)\..*(\([0-9]*\)\/200)$/\1/p' "$work/train.out")
check "test accuracy over the 200 test images is above 90% (got ${accuracy:-none})" \
  [ "${accuracy:-0}" -ge 90 ]
check "replicas identical" checksums_agree 2 "$work/train.out"
# The objective an OptimizationJob reads: after the one epoch, the same model as the final line.
check "the epoch's progress line carries that accuracy" python3 - "$work/train.out" <<'PY'
import json, re, sys
text = open(sys.argv[1]).read()
correct, total = map(int, re.search(r"^Test accuracy: .* \((\d+)/(\d+)\)$", text, re.M).groups())
lines = [json.loads(l.split(" ", 1)[1]) for l in text.splitlines() if l.startswith("TRAINJOB_PROGRESS ")]
assert abs(lines[-1]["accuracy"] - correct / total) < 1e-6, (lines[-1], correct, total)
assert "loss" in lines[-1]
PY

# Missing and truncated files: exit 1, the file named, no training.
mkdir -p "$work/missing"
make_idx "$work/missing" train 16
"$trainer" --master-port "$(free_port)" --model mnist-cnn --data-dir "$work/missing" \
  >"$work/missing.out" 2>"$work/missing.err"
check "missing file: exit 1" [ $? -eq 1 ]
check "missing file: named" has "$work/missing.err" \
  "error: $work/missing/t10k-images-idx3-ubyte: cannot open: No such file or directory"
check "missing file: no epoch printed" lacks "$work/missing.out" '^Epoch'

cp -r "$work/mnist" "$work/truncated"
head -c 100000 "$work/mnist/train-images-idx3-ubyte" >"$work/truncated/train-images-idx3-ubyte"
"$trainer" --master-port "$(free_port)" --model mnist-cnn --data-dir "$work/truncated" \
  >/dev/null 2>"$work/truncated.err"
check "truncated file: exit 1" [ $? -eq 1 ]
check "truncated file: named with the sizes" has "$work/truncated.err" \
  "error: $work/truncated/train-images-idx3-ubyte: truncated: expected 401408 data bytes after the header, found 99984"
finish
