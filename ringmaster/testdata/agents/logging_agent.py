#!/usr/bin/env python3
"""A test agent: random among the legal actions, appending each request
and its answer to the file named by its first argument."""
import json
import random
import sys

rng = random.Random(int(sys.argv[2]))
with open(sys.argv[1], "a") as log:
    for line in sys.stdin:
        request = json.loads(line)
        legal = [a for a, ok in enumerate(request["action_mask"]) if ok]
        action = rng.choice(legal)
        log.write(json.dumps({"request": request, "action": action}) + "\n")
        log.flush()
        print(json.dumps({"action": action}), flush=True)
