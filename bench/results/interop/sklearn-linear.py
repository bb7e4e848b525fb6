#!/usr/bin/python3
"""Trains LinearSVC on svm/testdata's digits training set, writes it as an
ONNX-ML LinearClassifier (interop/testdata/onnx/gen.py's mapping) to
DIR/model.onnx, the rows (the training set repeated 70 times, 100 590 rows)
to DIR/rows.libsvm, scikit-learn's labels to DIR/sklearn.pred, and times
scikit-learn's batch predict on all rows at once in process CPU time
(time.process_time, every thread), 7 rounds.

usage: sklearn-linear.py DIR
"""
import os
import sys
import time

import numpy as np
import sklearn
from sklearn.datasets import dump_svmlight_file, load_svmlight_file
from sklearn.svm import LinearSVC

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "interop", "testdata", "onnx"))
import gen  # noqa: E402

out = sys.argv[1]
X, y = load_svmlight_file("svm/testdata/digits.train.libsvm")
X = np.asarray(X.todense(), dtype=np.float64)
clf = LinearSVC(C=0.01, max_iter=200000, random_state=0).fit(X, y.astype(np.int64))
m = gen.model([gen.linear_classifier("X", clf.coef_, clf.intercept_, clf.classes_)], X.shape[1])
import onnx  # noqa: E402
onnx.save(m, os.path.join(out, "model.onnx"))
R = np.tile(X, (70, 1))
yr = np.tile(y, 70)
dump_svmlight_file(R, yr, os.path.join(out, "rows.libsvm"), zero_based=False)
print(f"scikit-learn {sklearn.__version__}, numpy {np.__version__}; {R.shape[0]} rows, {R.shape[1]} features, {len(clf.classes_)} classes")
pred = clf.predict(R)
np.savetxt(os.path.join(out, "sklearn.pred"), pred, fmt="%d")
times = []
for _ in range(7):
    t = time.process_time()
    clf.predict(R)
    times.append(time.process_time() - t)
times.sort()
ns = [v / R.shape[0] * 1e9 for v in times]
print("sklearn LinearSVC.predict, process CPU ns/row: min %.1f median %.1f max %.1f" % (ns[0], ns[3], ns[-1]))
