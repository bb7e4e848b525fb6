"""scikit-learn's SVC on the data of bench's TestSVMFashionCPUTime (and svm's
BenchmarkSVM): the first 10 000 Fashion-MNIST training images, RBF with
gamma="scale", C = 1 (one-vs-one, LIBSVM inside, 200 MB kernel cache),
scored on the 10 000 test images; as bench/peers/svc_fashion.py, with the
process's CPU time of the fit and the prediction besides their wall time
(on a shared machine the CPU time is the figure to compare). Debian's
python3-sklearn:

    /usr/bin/python3 bench/results/svm/svc-cputime.py
"""
import os
import sys
import time

import sklearn
from sklearn.svm import SVC

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "peers"))
import fashion  # noqa: E402

Xtr, ytr = fashion.load("train")
Xte, yte = fashion.load("t10k")
Xtr, ytr = Xtr[:10000], ytr[:10000]

m = SVC(kernel="rbf", gamma="scale", C=1.0)
w0, c0 = time.perf_counter(), time.process_time()
m.fit(Xtr, ytr)
w1, c1 = time.perf_counter(), time.process_time()
pred = m.predict(Xte)
w2, c2 = time.perf_counter(), time.process_time()
acc = float((pred == yte).mean())
print(f"sklearn {sklearn.__version__} SVC(rbf, gamma=scale, C=1): fit wall {w1 - w0:.3f} s cpu {c1 - c0:.3f} s, "
      f"predict wall {w2 - w1:.3f} s cpu {c2 - c1:.3f} s, test accuracy {acc:.4f}, support vectors {int(m.n_support_.sum())}")
