"""scikit-learn's SVC on a slice of the manual-page text set (bench/textset),
the peer of bench/kernfit (rosenblatt's svm.TrainSparse on the same rows):

    /usr/bin/python3 bench/peers/svc_mantext.py /tmp/mantext/mantext [rounds] [stride] [test-stride]

Reads PREFIX.train.libsvm and PREFIX.test.libsvm (2^20 features) with
load_svmlight_file as float32 CSR (not timed), keeps every stride-th
training row and every test-stride-th test row (as kernfit does), then
times SVC(kernel="rbf", gamma="scale", C=1, tol=1e-3) (one-vs-one,
LIBSVM's cache of 200 MB) fit and predict.
"""
import sys
import time

from sklearn.datasets import load_svmlight_file
from sklearn.svm import SVC

prefix = sys.argv[1]
rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 1
stride = int(sys.argv[3]) if len(sys.argv) > 3 else 4
tstride = int(sys.argv[4]) if len(sys.argv) > 4 else 2
D = 1 << 20
Xtr, ytr = load_svmlight_file(prefix + ".train.libsvm", n_features=D, dtype="float32")
Xte, yte = load_svmlight_file(prefix + ".test.libsvm", n_features=D, dtype="float32")
Xtr, ytr, Xte, yte = Xtr[::stride], ytr[::stride], Xte[::tstride], yte[::tstride]
print(f"train {Xtr.shape[0]}x{Xtr.shape[1]} nnz {Xtr.nnz}, test {Xte.shape[0]}", flush=True)
for r in range(rounds):
    m = SVC(kernel="rbf", gamma="scale", C=1, tol=1e-3)
    t0, c0 = time.perf_counter(), time.process_time()
    m.fit(Xtr, ytr)
    t, c = time.perf_counter() - t0, time.process_time() - c0
    t1 = time.perf_counter()
    acc = m.score(Xte, yte)
    p = time.perf_counter() - t1
    print(f"sklearn SVC(rbf, gamma=scale, C=1) fit {t:.3f} s wall {c:.3f} s cpu  {m.support_.shape[0]} SV  test accuracy {acc:.4f}  predict {p:.3f} s", flush=True)
