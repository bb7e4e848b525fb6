"""Writes Fashion-MNIST in LIBSVM format for liblinear-train:

    /usr/bin/python3 bench/peers/fashion_libsvm.py /tmp/fashion-mnist

makes /tmp/fashion-mnist.train.libsvm and /tmp/fashion-mnist.t10k.libsvm
(pixels/255 as float64, zero pixels left out).
"""
import os
import sys

from sklearn.datasets import dump_svmlight_file

sys.path.insert(0, os.path.dirname(__file__))
import fashion  # noqa: E402

prefix = sys.argv[1]
for split in ("train", "t10k"):
    X, y = fashion.load(split)
    dump_svmlight_file(X, y, f"{prefix}.{split}.libsvm", zero_based=False)
