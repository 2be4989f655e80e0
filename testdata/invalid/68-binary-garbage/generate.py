# Writes garbage.yaml: 400 pseudo-random bytes from a fixed seed (same bytes on every run).
import random
rng = random.Random(20240601)
with open("garbage.yaml", "wb") as f:
    f.write(bytes(rng.randrange(256) for _ in range(400)))
