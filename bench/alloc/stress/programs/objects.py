# SPDX-License-Identifier: MIT
# The python3 row of the allocator stress suite (bench/alloc/stress/run), run with
# PYTHONMALLOC=malloc so that every object, however small, is a malloc and a free: dicts,
# strings and lists built, sorted, serialised and parsed back, most of them garbage soon.
# Prints a digest of what it built; the driver checks that every allocator gives glibc's.
import hashlib
import json

rows = []
for i in range(150000):
    rows.append({"id": i, "name": f"item-{i:06d}", "tags": [str(i % 7), str(i % 13)], "score": (i * 7919) % 1000 / 8})
rows.sort(key=lambda d: (d["score"], d["name"]))
text = json.dumps(rows[::2])
back = json.loads(text)
index = {d["name"]: d for d in back}
words = " ".join(d["name"] for d in back).split(" ")
print(len(back), len(index), len(words), hashlib.sha256(text.encode()).hexdigest())
