#!/usr/bin/python3
"""Checks ONNX-ML LinearClassifier models written by package interop
(interop's TestPerceptronONNXPython): each MODEL passes onnx.checker (full
check, with shape inference), and the labels of the LIBSVM data file ROWS,
computed as the ONNX-ML specification defines LinearClassifier, equal the
labels in LABELS (one per line, ours).

The evaluation is a transcription of the operator's definition with numpy
(onnx 1.12, Debian's python3-onnx, has no reference evaluator):
coefficients are E rows of d values (E = 1, or the number of labels), the
score of row e is coefficients[e]·x + intercepts[e]; with post_transform
NONE and E = 1 a positive score predicts classlabels[1] and any other
classlabels[0]; else the label of the first highest score.

usage: check_linear.py MODEL ROWS LABELS [MODEL ROWS LABELS ...]
"""
import sys

import numpy as np
import onnx
from onnx import checker, helper, shape_inference


def rows(path, d):
    X = []
    with open(path) as f:
        for line in f:
            parts = line.split()
            if not parts:
                continue
            x = np.zeros(d, dtype=np.float32)
            for p in parts[1:]:
                j, v = p.split(":")
                j = int(j)
                if j <= d:
                    x[j - 1] = np.float32(float(v))
            X.append(x)
    return np.array(X, dtype=np.float32)


def check(model_path, rows_path, labels_path):
    m = onnx.load(model_path)
    checker.check_model(m, full_check=True)
    shape_inference.infer_shapes(m, check_type=True, strict_mode=True)
    nodes = [n for n in m.graph.node if n.op_type == "LinearClassifier"]
    if len(nodes) != 1 or nodes[0].domain != "ai.onnx.ml" or len(m.graph.node) != 1:
        raise SystemExit(f"{model_path}: want one ai.onnx.ml LinearClassifier, have {[n.op_type for n in m.graph.node]}")
    a = {x.name: helper.get_attribute_value(x) for x in nodes[0].attribute}
    if a.get("post_transform", b"NONE") != b"NONE":
        raise SystemExit(f"{model_path}: post_transform {a['post_transform']}")
    labels = list(a["classlabels_ints"])
    coef = np.array(a["coefficients"], dtype=np.float32)
    icpt = np.array(a["intercepts"], dtype=np.float32)
    E = len(icpt)
    d = m.graph.input[0].type.tensor_type.shape.dim[1].dim_value
    if coef.size != E * d or E not in (1, len(labels)):
        raise SystemExit(f"{model_path}: {coef.size} coefficients, {E} intercepts, {d} features, {len(labels)} labels")
    W = coef.reshape(E, d).astype(np.float64)
    X = rows(rows_path, d).astype(np.float64)
    S = X @ W.T + icpt.astype(np.float64)
    if E == 1:
        pred = np.where(S[:, 0] > 0, labels[1], labels[0])
    else:
        pred = np.array(labels)[np.argmax(S, axis=1)]
    want = np.loadtxt(labels_path, dtype=np.int64, ndmin=1)
    if len(want) != len(pred):
        raise SystemExit(f"{model_path}: {len(pred)} rows, {len(want)} labels")
    bad = np.nonzero(pred != want)[0]
    if len(bad):
        i = bad[0]
        raise SystemExit(f"{model_path}: {len(bad)} of {len(want)} labels differ; row {i + 1}: {pred[i]}, ours {want[i]}")
    print(f"ok {model_path}: {len(want)} rows, {E} scores, labels {labels}")


args = sys.argv[1:]
if not args or len(args) % 3:
    raise SystemExit(__doc__)
for i in range(0, len(args), 3):
    check(*args[i:i + 3])
