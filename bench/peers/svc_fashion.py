"""scikit-learn's SVC on the data of BenchmarkSVM/data=fashion-mnist-10k/kernel=rbf.

First 10 000 training images, RBF with gamma="scale", C = 1 (SVC's default
one-vs-one; LIBSVM inside, 200 MB kernel cache), fitted once and scored on
the 10 000 test images. Run with Debian's python3-sklearn:

    /usr/bin/python3 bench/peers/svc_fashion.py
"""
import os
import sys
import time

import sklearn
from sklearn.svm import SVC

sys.path.insert(0, os.path.dirname(__file__))
import fashion  # noqa: E402

Xtr, ytr = fashion.load("train")
Xte, yte = fashion.load("t10k")
Xtr, ytr = Xtr[:10000], ytr[:10000]

m = SVC(kernel="rbf", gamma="scale", C=1.0)
t0 = time.perf_counter()
m.fit(Xtr, ytr)
fit = time.perf_counter() - t0
t0 = time.perf_counter()
pred = m.predict(Xte)
predict = time.perf_counter() - t0
acc = float((pred == yte).mean())
print(f"sklearn {sklearn.__version__} SVC(rbf, gamma=scale={1 / (Xtr.shape[1] * Xtr.var()):.6g}, C=1): "
      f"fit {fit:.3f} s, predict {predict:.3f} s, test accuracy {acc:.4f}, "
      f"support vectors {int(m.n_support_.sum())}")
