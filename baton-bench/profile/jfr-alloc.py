#!/usr/bin/env python3
"""Bytes allocated per turn, from the weights of JFR's ObjectAllocationSample events (statistically representative
in total; their attribution to callers is skewed toward allocations that open a new TLAB, so only the total is shown).
usage: jfr-alloc.py rec.jfr c16.json [path/to/jfr]"""
import json, subprocess, sys
jfr = sys.argv[3] if len(sys.argv) > 3 else 'jfr'
out = subprocess.run([jfr, 'print', '--json', '--stack-depth', '1', '--events', 'jdk.ObjectAllocationSample', sys.argv[1]],
                     capture_output=True, text=True, check=True).stdout
total = sum(e['values']['weight'] for e in json.loads(out)['recording']['events'])
turns = json.load(open(sys.argv[2]))['ok']
print(f'allocated ≈ {total / turns / 1024:.0f} KiB per turn over {turns} turns')
