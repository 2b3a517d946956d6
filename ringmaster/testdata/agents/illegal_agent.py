#!/usr/bin/env python3
"""A test agent that plays legally until its third request, then answers
with an action outside the mask."""
import json
import sys

for n, line in enumerate(sys.stdin):
    mask = json.loads(line)["action_mask"]
    legal = [a for a, ok in enumerate(mask) if ok]
    illegal = [a for a, ok in enumerate(mask) if not ok]
    print(json.dumps({"action": legal[0] if n < 2 else illegal[0]}), flush=True)
