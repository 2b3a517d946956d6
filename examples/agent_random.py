#!/usr/bin/env python3
"""A random backgammon agent for the ringmaster's agent players.

It reads one JSON object a line on standard input, PettingZoo's
observation and action mask among its fields, and answers with one legal
action chosen at random: {"action": N}. A policy trained in PettingZoo's
backgammon environment plugs in at choose() (see docs/agents.md). Nothing
but the standard library is needed.
"""
import json
import random
import sys


def choose(request, rng):
    """Returns the action for one request: here any legal one."""
    legal = [a for a, ok in enumerate(request["action_mask"]) if ok]
    return rng.choice(legal)


def main():
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else None
    rng = random.Random(seed)
    for line in sys.stdin:
        request = json.loads(line)
        print(json.dumps({"action": choose(request, rng)}), flush=True)


if __name__ == "__main__":
    main()
