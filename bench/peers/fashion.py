"""Fashion-MNIST from Debian's dataset-fashion-mnist, as the Go benchmarks read it.

pixels/255 as float64 (the Go benchmarks use float32), labels 0..9.
"""
import gzip
import os

import numpy as np

DIR = "/usr/share/datasets/fashion-mnist"


def _idx(name):
    with gzip.open(os.path.join(DIR, name + ".gz"), "rb") as f:
        data = f.read()
    ndim = data[3]
    dims = [int.from_bytes(data[4 + 4 * i:8 + 4 * i], "big") for i in range(ndim)]
    return np.frombuffer(data, dtype=np.uint8, offset=4 + 4 * ndim).reshape(dims)


def load(split):
    """split is "train" or "t10k"; returns X (n×784 float64) and y."""
    X = _idx(split + "-images-idx3-ubyte").reshape(-1, 784).astype(np.float64) / 255.0
    y = _idx(split + "-labels-idx1-ubyte").astype(np.int64)
    return X, y
