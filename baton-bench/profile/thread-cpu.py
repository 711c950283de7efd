#!/usr/bin/env python3
"""A process's CPU over a window by thread group (digits in thread names folded), from /proc: which share is the
application's carrier threads, the HTTP client's, the JIT compiler's, the garbage collector's.
usage: thread-cpu.py PID snapshot FILE   |   thread-cpu.py PID diff FILE [TURNS]"""
import json, os, re, sys
from collections import Counter


def snapshot(pid):
    times = {}
    for tid in os.listdir(f'/proc/{pid}/task'):
        try:
            stat = open(f'/proc/{pid}/task/{tid}/stat').read()
        except OSError:
            continue  # the thread ended meanwhile
        name = stat[stat.index('(') + 1:stat.rindex(')')]
        fields = stat[stat.rindex(')') + 2:].split()
        times[tid] = (name, int(fields[11]) + int(fields[12]))  # utime + stime, in clock ticks
    return times


pid, mode, path = sys.argv[1], sys.argv[2], sys.argv[3]
if mode == 'snapshot':
    json.dump(snapshot(pid), open(path, 'w'))
    sys.exit()
before, after = json.load(open(path)), snapshot(pid)
turns = int(sys.argv[4]) if len(sys.argv) > 4 else 0
ticks = os.sysconf('SC_CLK_TCK')
groups = Counter()
for tid, (name, t) in after.items():
    groups[re.sub(r'\d+', '#', name)] += t - before.get(tid, (name, 0))[1]
total = sum(groups.values()) or 1
per_turn = lambda t: f'  {t * 1000 / ticks / turns:5.2f} ms/turn' if turns else ''
print(f'window CPU by thread group: {total / ticks:.2f} CPU-s' + per_turn(total))
for name, t in groups.most_common(8):
    print(f'  {name:24s} {t / ticks:7.2f} s {100 * t / total:5.1f}%' + per_turn(t))
