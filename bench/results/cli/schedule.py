# The compile phase of a first build of the command on 2 cores, projected
# from measured compile CPU times: greedy list scheduling of the compile
# actions on 2 workers (a package starts when all its imports are compiled,
# ready packages longest-path first), each taking its measured CPU seconds
# on one core, except that a compile running alone, with nothing else
# ready, uses the second core for its back end (go build passes -c=2):
# it runs at 1/(s + (1-s)/2) of one core's speed, s being its serial
# fraction (front end and object writing; the compiler's -bench timings of
# package main: about 0.2). Downloads, cgo, assembly and linking are left
# out: the same for both trees.
#
# Usage: python3 bench/results/cli/schedule.py TREE MODULE.prof STD.prof [s]
# (profiles of module-profile.sh: "user system wall package" lines).
import json, subprocess, sys, functools
tree, prof, std = sys.argv[1], sys.argv[2], sys.argv[3]
s = float(sys.argv[4]) if len(sys.argv) > 4 else 0.2
P = 2
cpu = {}
for f in (std, prof):
    for line in open(f):
        f4 = line.split()
        if len(f4) < 4: continue
        cpu[f4[3]] = float(f4[0]) + float(f4[1])
out = subprocess.run(['go', 'list', '-deps', '-json', './cmd/rosenblatt'], cwd=tree, capture_output=True, text=True).stdout
dec = json.JSONDecoder(); i = 0; pk = {}
while i < len(out):
    while i < len(out) and out[i].isspace(): i += 1
    if i >= len(out): break
    o, i = dec.raw_decode(out, i)
    name = 'main' if o['Name'] == 'main' else o['ImportPath']
    pk[name] = [x for x in o.get('Imports', []) if x not in ('C',)]
for p in pk: cpu.setdefault(p, 0.0)
users = {p: [] for p in pk}
for p, ds in pk.items():
    for d in ds:
        if d in users: users[d].append(p)
@functools.lru_cache(None)
def bl(p): return cpu[p] + max([bl(u) for u in users[p]], default=0)
waiting = {p: set(d for d in ds if d in pk) for p, ds in pk.items()}
ready = sorted([p for p, w in waiting.items() if not w], key=lambda p: -bl(p))
running = {}  # p -> remaining CPU s
t = 0.0; alone = 0.0; ends = {}
while ready or running:
    while ready and len(running) < P:
        p = ready.pop(0); running[p] = cpu[p]
    rate = 1 / (s + (1 - s) / 2) if len(running) == 1 and not ready else 1.0
    p = min(running, key=running.get); dt = running[p] / rate
    if len(running) == 1: alone += dt
    t += dt
    for q in running: running[q] -= dt * rate
    del running[p]; ends[p] = t
    for u in users[p]:
        waiting[u].discard(p)
        if not waiting[u]: ready.append(u)
    ready.sort(key=lambda p: -bl(p))
tot = sum(cpu.values() if False else [cpu[p] for p in pk])
mod = 'github.com/rosenblatt-go/rosenblatt/'
last = sorted(ends.items(), key=lambda x: x[1])[-5:]
print(f"{tree}: compile CPU {tot:.1f} s; makespan {t:.1f} s (CPU/2 {tot/2:.1f} s), {alone:.1f} s of it one compile alone; last: " +
      ", ".join(f"{p.replace(mod,'')} {e:.1f}" for p, e in last))
