#!/usr/bin/python3
"""scikit-learn's pipeline from raw text, phase by phase: fastText lines
(__label__NAME words...) read, featurized (HashingVectorizer: unigrams and
bigrams into 2^20 columns, as rosenblatt's default featurizer; then
TfidfTransformer without idf: 1 + ln tf, unit rows, the same weighting),
then the classifier fitted: Perceptron(max_iter=10, tol=None) (10 epochs,
shuffled) and LinearSVC() (its defaults: squared hinge, C = 1, tol 1e-4,
LIBLINEAR's dual coordinate descent, an intercept on a constant feature 1).
Each phase's CPU seconds (time.process_time: user + system of the process),
the model pickled to a file (the pipeline's save), the test accuracy.

usage: raw-sklearn-phases.py TRAIN.txt TEST.txt [OUT.pickle]
"""
import pickle
import sys
import time

import sklearn
from sklearn.feature_extraction.text import HashingVectorizer, TfidfTransformer
from sklearn.linear_model import Perceptron
from sklearn.pipeline import make_pipeline
from sklearn.svm import LinearSVC


def read(path):
    labels, docs = [], []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            words = line.split(None, 1)
            if not words or not words[0].startswith("__label__"):
                continue
            labels.append(words[0][len("__label__"):])
            docs.append(words[1] if len(words) > 1 else "")
    return labels, docs


def main():
    train, test = sys.argv[1], sys.argv[2]
    out = sys.argv[3] if len(sys.argv) > 3 else "/tmp/sklearn-pipeline.pickle"
    print(f"# scikit-learn {sklearn.__version__}, Python {sys.version.split()[0]}")
    for name, clf in [
        ("Perceptron(max_iter=10, tol=None)", Perceptron(max_iter=10, tol=None, random_state=0)),
        ("LinearSVC()", LinearSVC()),
    ]:
        w0, c0 = time.perf_counter(), time.process_time()
        y, X = read(train)
        c1 = time.process_time()
        hv = HashingVectorizer(n_features=1 << 20, ngram_range=(1, 2), token_pattern=r"(?u)\w+",
                               alternate_sign=False, norm=None)
        tt = TfidfTransformer(use_idf=False, sublinear_tf=True)
        Xf = tt.fit_transform(hv.transform(X))
        c2 = time.process_time()
        clf.fit(Xf, y)
        c3 = time.process_time()
        pipe = make_pipeline(hv, tt, clf)
        with open(out, "wb") as f:
            pickle.dump(pipe, f, protocol=pickle.HIGHEST_PROTOCOL)
        w4, c4 = time.perf_counter(), time.process_time()
        yt, Xt = read(test)
        pred = pipe.predict(Xt)
        acc = sum(a == b for a, b in zip(pred, yt)) / len(yt)
        extra = ""
        if hasattr(clf, "n_iter_"):
            extra = f", n_iter_ {clf.n_iter_}"
        print(f"## {name}: {len(y)} training, {len(yt)} test documents, {Xf.nnz} stored values{extra}")
        print(f"  CPU s: read {c1 - c0:.3f}, featurize {c2 - c1:.3f}, fit {c3 - c2:.3f}, pickle {c4 - c3:.3f};"
              f" raw text to fitted model {c3 - c0:.3f}, to saved model {c4 - c0:.3f}")
        print(f"  wall s: raw text to saved model {w4 - w0:.3f}")
        print(f"  test accuracy {acc:.4f}")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
