#!/usr/bin/python3
"""scikit-learn's pipeline from the same raw text: fastText lines
(__label__NAME words...) read, hashed (HashingVectorizer: unigrams and
bigrams into 2^20 columns, as rosenblatt's default featurizer), weighted
with sublinear tf (1 + ln tf) and scaled to unit rows (TfidfTransformer
without idf), then a linear classifier; fit time from the raw file to a
trained model, predict time from the raw test file, test accuracy, and the
process's CPU time.

usage: raw-sklearn.py TRAIN.txt TEST.txt
"""
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
    print(f"# scikit-learn {sklearn.__version__}, Python {sys.version.split()[0]}")
    for name, clf in [
        ("Perceptron(max_iter=10)", Perceptron(max_iter=10, tol=None, random_state=0)),
        ("LinearSVC()", LinearSVC()),
    ]:
        w0, c0 = time.perf_counter(), time.process_time()
        y, X = read(train)
        pipe = make_pipeline(
            HashingVectorizer(n_features=1 << 20, ngram_range=(1, 2), token_pattern=r"(?u)\w+",
                              alternate_sign=False, norm=None),
            TfidfTransformer(use_idf=False, sublinear_tf=True),
            clf)
        pipe.fit(X, y)
        w1, c1 = time.perf_counter(), time.process_time()
        yt, Xt = read(test)
        pred = pipe.predict(Xt)
        w2, c2 = time.perf_counter(), time.process_time()
        acc = sum(a == b for a, b in zip(pred, yt)) / len(yt)
        print(f"## {name}: {len(y)} training, {len(yt)} test documents")
        print(f"  fit (read + featurize + train): wall {w1 - w0:.2f} s, CPU {c1 - c0:.2f} s")
        print(f"  predict (read + featurize + predict): wall {w2 - w1:.2f} s, CPU {c2 - c1:.2f} s")
        print(f"  test accuracy {acc:.4f}")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
