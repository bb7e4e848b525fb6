#!/usr/bin/env python3
"""Turns the raw `go test -bench` output files in this folder into the
README's tables: the median of the -count runs of each benchmark.

    python3 bench/results/tables.py
"""
import os
import re
import statistics
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
LINE = re.compile(r'^(Benchmark\S+?)(?:-\d+)?\s+\d+\s+(.*)$')


def load(name):
    """{benchmark name: {unit: median value}}"""
    runs = defaultdict(lambda: defaultdict(list))
    path = os.path.join(HERE, name)
    if not os.path.exists(path):
        return {}
    for line in open(path):
        m = LINE.match(line.strip())
        if not m:
            continue
        fields = m.group(2).split()
        for v, unit in zip(fields[0::2], fields[1::2]):
            try:
                runs[m.group(1)][unit].append(float(v))
            except ValueError:
                pass
    return {k: {u: statistics.median(vs) for u, vs in d.items()} for k, d in runs.items()}


def g(d, name, unit='GFLOP/s'):
    v = d.get(name, {}).get(unit)
    return v


def fmt(v, digits=1):
    return '–' if v is None else f'{v:.{digits}f}'


def kernels():
    d = load('kernels/kernels-zen3.txt')
    if not d:
        return
    impls = ['auto', 'avx512', 'avx2', 'neon', 'generic', 'vek', 'gonum', 'plain']
    present = [i for i in impls if any(f'/impl={i}/' in k for k in d)]
    for kern, typ, sizes in [('Dot', 'f32', [16, 64, 256, 1024, 4096, 65536, 1048576]),
                             ('Dot', 'f64', [16, 64, 1024, 65536])]:
        print(f'\n{kern} {typ}, GFLOP/s (median of 5)\n')
        print('| n | ' + ' | '.join(present) + ' | auto ÷ vek | auto ÷ plain |')
        print('|---:|' + '---:|' * (len(present) + 2))
        for n in sizes:
            row = [g(d, f'Benchmark{kern}/impl={i}/type={typ}/n={n}') for i in present]
            a = row[present.index('auto')]
            v = row[present.index('vek')] if 'vek' in present else None
            p = row[present.index('plain')]
            print(f'| {n} | ' + ' | '.join(fmt(x) for x in row) +
                  f' | {fmt(a / v if a and v else None, 2)}× | {fmt(a / p if a and p else None, 1)}× |')
    print('\nEvery kernel at n = 1024, GFLOP/s (median of 5); Dots is 10 vectors of length 1024\n')
    print('| kernel | type | ' + ' | '.join(present) + ' | auto ÷ plain |')
    print('|---|---|' + '---:|' * (len(present) + 1))
    for kern in ['Dot', 'SqDist', 'Axpy', 'Scale', 'MatVec', 'Dots']:
        for typ in ['f32', 'f64']:
            row = [g(d, f'Benchmark{kern}/impl={i}/type={typ}/n=1024') for i in present]
            a, p = row[present.index('auto')], row[present.index('plain')]
            print(f'| {kern} | {typ} | ' + ' | '.join(fmt(x) for x in row) +
                  f' | {fmt(a / p if a and p else None, 1)}× |')
    mv = g(d, 'BenchmarkMatVec/impl=auto/type=f32/n=4096x784')
    dot = g(d, 'BenchmarkDot/impl=auto/type=f32/n=1605632')
    print(f'\nMatVec 4096×784 float32: {fmt(mv)} GFLOP/s; Dot over the same working set '
          f'(two vectors of 1 605 632, 12.8 MB): {fmt(dot)} GFLOP/s; ratio {fmt(mv / dot if mv and dot else None, 2)}')


def gram():
    d = load('gram/gram-zen3.txt')
    if not d:
        return
    print('\nGram matrix, float32 and float64, GFLOP/s counted as N(N+1)·D (median of 3)\n')
    impls = ['auto', 'avx2', 'avx512', 'neon', 'generic', 'gonum-syrk', 'gonum-gemm', 'vek']
    shapes = ['n=512/d=512', 'n=2048/d=256', 'n=4096/d=784']
    print('| impl | type | threads | ' + ' | '.join(s.replace('/', ' ') for s in shapes) + ' | 4096×784 ms |')
    print('|---|---|---:|' + '---:|' * (len(shapes) + 1))
    for typ in ['f32', 'f64']:
        for i in impls:
            for th in [1, 2]:
                row = [g(d, f'BenchmarkGram/impl={i}/type={typ}/threads={th}/{s}') for s in shapes]
                if all(x is None for x in row):
                    continue
                ns = g(d, f'BenchmarkGram/impl={i}/type={typ}/threads={th}/n=4096/d=784', 'ns/op')
                print(f'| {i} | {typ} | {th} | ' + ' | '.join(fmt(x) for x in row) +
                      f' | {fmt(ns / 1e6 if ns else None, 0)} |')
    for th in [1, 2]:
        lin = g(d, f'BenchmarkGram/impl=auto/type=f32/threads={th}/n=4096/d=784', 'ns/op')
        rbf = g(d, f'BenchmarkGram/impl=auto/type=f32/threads={th}/n=4096/d=784/kernel=rbf', 'ns/op')
        if lin and rbf:
            print(f'\nRBF ÷ linear time, float32 4096×784, {th} goroutine(s): {rbf / lin:.2f}')


def training():
    d = load('perceptron/perceptron-zen3.txt')
    if not d:
        return
    print('\nTraining and prediction (median of 3)\n')
    print('| benchmark | time | test-acc | sample-epochs/s | allocs/op |')
    print('|---|---:|---:|---:|---:|')
    for k in sorted(d):
        v = d[k]
        ns = v.get('ns/op')
        if ns is None:
            t = '–'
        elif ns >= 1e8:
            t = f'{ns / 1e9:.3f} s'
        elif ns >= 1e5:
            t = f'{ns / 1e6:.2f} ms'
        else:
            t = f'{ns:.0f} ns'
        print(f'| {k[len("Benchmark"):]} | {t} | {fmt(v.get("test-acc"), 4)} | '
              f'{fmt(v.get("sample-epochs/s", 0) / 1e6 if v.get("sample-epochs/s") else None, 1)}{" M" if v.get("sample-epochs/s") else ""} | '
              f'{fmt(v.get("allocs/op"), 0)} |')


if __name__ == '__main__':
    kernels()
    gram()
    training()
