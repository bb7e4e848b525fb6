"""scikit-learn's Perceptron on the manual-page text set (bench/textset), the
peer of `rosenblatt train -algo averaged -epochs 10` on the same CSR data:

    /usr/bin/python3 bench/peers/mantext.py /tmp/mantext/mantext [rounds]
    /usr/bin/python3 bench/peers/mantext.py /tmp/mantext/mantext seeds N

Reads PREFIX.train.libsvm and PREFIX.test.libsvm (2^20 features) with
load_svmlight_file (not timed), then times fit for Perceptron(max_iter=10)
as it is by default (tol=1e-3: it may stop before 10 epochs) and with
tol=None (exactly 10 epochs), one thread (n_jobs=None), and prints the fit
time and test accuracy of each, once per round. With "seeds N" it prints
instead the test accuracy of Perceptron(max_iter=10, tol=None) with each
random_state 0..N-1 and their mean, and times nothing.
"""
import sys
import time

from sklearn.datasets import load_svmlight_file
from sklearn.linear_model import Perceptron

prefix = sys.argv[1]
seeds = 0
if len(sys.argv) > 2 and sys.argv[2] == "seeds":
    if len(sys.argv) < 4 or not sys.argv[3].isdigit() or int(sys.argv[3]) < 1:
        sys.exit("usage: mantext.py PREFIX seeds N (N ≥ 1)")
    seeds = int(sys.argv[3])
rounds = int(sys.argv[2]) if len(sys.argv) > 2 and not seeds else 1
D = 1 << 20
Xtr, ytr = load_svmlight_file(prefix + ".train.libsvm", n_features=D, dtype="float64")
Xte, yte = load_svmlight_file(prefix + ".test.libsvm", n_features=D, dtype="float64")
print(f"train {Xtr.shape[0]}x{Xtr.shape[1]} nnz {Xtr.nnz}, test {Xte.shape[0]}", flush=True)
if seeds:
    accs = []
    for s in range(seeds):
        m = Perceptron(max_iter=10, tol=None, random_state=s).fit(Xtr, ytr)
        accs.append(m.score(Xte, yte))
        print(f"sklearn Perceptron(max_iter=10, tol=None, random_state={s}) test accuracy {accs[-1]:.4f}", flush=True)
    print(f"sklearn Perceptron(max_iter=10, tol=None) random_state 0..{seeds - 1} mean test accuracy {sum(accs) / seeds:.4f}", flush=True)
    rounds = 0
for r in range(rounds):
    for name, kw in (("default", {}), ("tol=None", {"tol": None})):
        m = Perceptron(max_iter=10, random_state=0, **kw)
        t0, c0 = time.perf_counter(), time.process_time()
        m.fit(Xtr, ytr)
        t, c = time.perf_counter() - t0, time.process_time() - c0
        acc = m.score(Xte, yte)
        print(f"sklearn Perceptron(max_iter=10, {name}) fit {t:.3f} s wall {c:.3f} s cpu  epochs {m.n_iter_}  test accuracy {acc:.4f}", flush=True)
