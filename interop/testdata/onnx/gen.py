#!/usr/bin/python3
"""Trains scikit-learn classifiers on committed data sets, writes each as an
ONNX-ML model built with onnx.helper (the fitted attributes mapped onto the
operators' attributes as the ONNX-ML operator specification defines them),
checks it with onnx.checker, and writes scikit-learn's predict and
decision_function on every test row.

usage: gen.py DATA_DIR OUT_DIR

DATA_DIR holds iris.{train,test}.libsvm and breast_cancer_std.{train,test}.libsvm
(svm/testdata). For each model NAME, OUT_DIR gets NAME.onnx and NAME.expect:

    # test FILE            the test set (a file of DATA_DIR)
    # kind KIND            linear | svc | matmul
    LABEL BOUND D1 D2 ...  per test row: predict, a bound on the rounding of
                           the decision values, decision_function

The ONNX-ML attributes are float32, scikit-learn computes in float64: BOUND
is a first-order bound on how much rounding the model's parameters (and,
after a Cast to float, the sample) to float32 moves a decision value,
times 4. Rounding to float32 changes a value by at most u = 2^-24 of it.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from sklearn.datasets import load_svmlight_file
from sklearn.linear_model import Perceptron, SGDClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import Normalizer, StandardScaler
from sklearn.svm import SVC, LinearSVC

U = 2.0 ** -24
ML = "ai.onnx.ml"
SAFETY = 4


def load(data, name):
    X, y = load_svmlight_file(os.path.join(data, name))
    return np.asarray(X.todense(), dtype=np.float64), y.astype(np.int64)


def model(nodes, d, inputs_double=False, inits=(), outputs=("label", "scores")):
    x = helper.make_tensor_value_info(
        "X", TensorProto.DOUBLE if inputs_double else TensorProto.FLOAT, ["N", d])
    outs = []
    for o in outputs:
        et = TensorProto.INT64 if o == "label" else TensorProto.FLOAT
        outs.append(helper.make_tensor_value_info(o, et, ["N"] if o == "label" else ["N", "S"]))
    g = helper.make_graph(nodes, "sklearn", [x], outs, initializer=list(inits))
    m = helper.make_model(g, producer_name="gen.py",
                          opset_imports=[helper.make_opsetid("", 13), helper.make_opsetid(ML, 1)])
    m.ir_version = 8
    onnx.checker.check_model(m, full_check=True)
    return m


def linear_classifier(inp, coef, intercept, classes):
    # LinearClassifier: coefficients are the E×d weights row by row (E = 1
    # for two classes: a positive score is the second label), intercepts E
    # values, post_transform NONE keeps the decision values.
    return helper.make_node(
        "LinearClassifier", [inp], ["label", "scores"], domain=ML,
        coefficients=coef.ravel().tolist(), intercepts=np.ravel(intercept).tolist(),
        classlabels_ints=classes.tolist(), post_transform="NONE", multi_class=0)


def lin_bound(W, b, X, dx=None):
    """First-order bound of the change of X·Wᵀ + b when W, b are rounded
    to float32 (and X moved by dx)."""
    W = np.atleast_2d(W)
    m = np.abs(X) @ np.abs(W).T * U + np.abs(np.ravel(b)) * U
    if dx is not None:
        m += dx @ np.abs(W).T
    return SAFETY * m.max(axis=1)


def svc_bound(clf, X):
    """First-order bound for an SVC: the coefficients, rho, gamma, coef0 and
    the support vectors rounded to float32."""
    sv, a = clf.support_vectors_, np.abs(clf.dual_coef_)
    g, c, deg = clf._gamma, clf.coef0, clf.degree
    t = X @ sv.T                       # x·sv
    ta = np.abs(X) @ np.abs(sv).T      # Σ|x_j sv_j|
    if clf.kernel == "linear":
        K, dK = t, ta * U
    elif clf.kernel == "poly":
        base = g * t + c
        K = base ** deg
        dK = deg * np.abs(base) ** (deg - 1) * (g * ta * 2 * U + abs(c) * U)
    elif clf.kernel == "rbf":
        D = ((X[:, None, :] - sv[None, :, :]) ** 2).sum(axis=2)
        dD = 2 * (np.abs(X[:, None, :] - sv[None, :, :]) * np.abs(sv)[None, :, :]).sum(axis=2) * U
        K = np.exp(-g * D)
        dK = K * (g * D * U + g * dD)
    else:  # sigmoid
        K = np.tanh(g * t + c)
        dK = g * ta * 2 * U + abs(c) * U
    # every pair's value is at most Σ over all support vectors
    m = dK @ a.sum(axis=0) + np.abs(K) @ a.sum(axis=0) * U + np.abs(clf.intercept_).max() * U
    return SAFETY * m


def svc(clf, classes):
    # SVMClassifier: LIBSVM's layout. coefficients are the (k−1)×s sv_coef
    # rows, rho is added to the sum (LIBSVM subtracts its ρ), a positive
    # pair value votes for the pair's first class. scikit-learn's
    # dual_coef_ and intercept_ are LIBSVM's sv_coef and −ρ for k > 2; for
    # two classes it negates both (a positive decision_function is
    # classes_[1]), so they are negated back.
    coef, rho = clf.dual_coef_, clf.intercept_
    if len(classes) == 2:
        coef, rho = -coef, -rho
    kt = {"linear": "LINEAR", "poly": "POLY", "rbf": "RBF", "sigmoid": "SIGMOID"}[clf.kernel]
    return helper.make_node(
        "SVMClassifier", ["X"], ["label", "scores"], domain=ML,
        classlabels_ints=classes.tolist(), coefficients=coef.ravel().tolist(),
        kernel_params=[float(clf._gamma), float(clf.coef0), float(clf.degree)],
        kernel_type=kt, post_transform="NONE", rho=np.ravel(rho).tolist(),
        support_vectors=clf.support_vectors_.ravel().tolist(),
        vectors_per_class=clf.n_support_.tolist())


def matmul(clf, classes, d, cast):
    # The linear graph of the SGD family: scores = X·W + B, ArgMax over
    # them, Gather of the labels. Two classes get the scores (−s, s), so
    # that ArgMax picks classes_[1] exactly when s > 0, as predict does.
    W, b = clf.coef_, clf.intercept_
    if len(classes) == 2:
        W, b = np.vstack([-W, W]), np.concatenate([-b, b])
    inits = [numpy_helper.from_array(W.T.astype(np.float32), "W"),
             numpy_helper.from_array(b.astype(np.float32), "B"),
             numpy_helper.from_array(classes.astype(np.int64), "classes")]
    nodes = []
    x = "X"
    if cast:
        nodes.append(helper.make_node("Cast", ["X"], ["Xf"], to=TensorProto.FLOAT))
        x = "Xf"
    nodes += [helper.make_node("MatMul", [x, "W"], ["XW"]),
              helper.make_node("Add", ["XW", "B"], ["scores"]),
              helper.make_node("ArgMax", ["scores"], ["index"], axis=1, keepdims=0),
              helper.make_node("Gather", ["classes", "index"], ["label0"], axis=0),
              helper.make_node("Identity", ["label0"], ["label"])]
    return model(nodes, d, inputs_double=cast, inits=inits)


def write(out, name, m, test, kind, clf, X, bound):
    onnx.save(m, os.path.join(out, name + ".onnx"))
    pred = clf.predict(X)
    dec = clf.decision_function(X)
    if dec.ndim == 1:
        dec = dec[:, None]
    with open(os.path.join(out, name + ".expect"), "w") as f:
        f.write(f"# test {test}\n# kind {kind}\n")
        for i in range(len(pred)):
            f.write(" ".join([str(int(pred[i])), repr(float(bound[i]))] + [repr(float(v)) for v in dec[i]]) + "\n")


def main():
    data, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    sets = {
        "iris": (load(data, "iris.train.libsvm"), load(data, "iris.test.libsvm"), "iris.test.libsvm"),
        "breast": (load(data, "breast_cancer_std.train.libsvm"), load(data, "breast_cancer_std.test.libsvm"), "breast_cancer_std.test.libsvm"),
    }
    for ds, ((X, y), (Xt, yt), test) in sets.items():
        d = X.shape[1]
        Xt = Xt[:, :d] if Xt.shape[1] >= d else np.pad(Xt, ((0, 0), (0, d - Xt.shape[1])))
        classes = np.unique(y)

        clf = LinearSVC(C=1.0, max_iter=200000, random_state=0).fit(X, y)
        m = model([linear_classifier("X", clf.coef_, clf.intercept_, clf.classes_)], d)
        write(out, f"linearsvc_{ds}", m, test, "linear", clf, Xt, lin_bound(clf.coef_, clf.intercept_, Xt))

        for kernel in ["linear", "poly", "rbf", "sigmoid"]:
            kw = {"coef0": 1.0} if kernel == "poly" else {}
            if kernel == "sigmoid":
                kw = {"gamma": 0.01 if ds == "iris" else 0.005, "coef0": 0.0}
            clf = SVC(kernel=kernel, C=1.0, decision_function_shape="ovo", **kw).fit(X, y)
            m = model([svc(clf, clf.classes_)], d)
            write(out, f"svc_{kernel}_{ds}", m, test, "svc", clf, Xt, svc_bound(clf, Xt))

        for name, clf in [("perceptron", Perceptron(random_state=0)),
                          ("sgd", SGDClassifier(random_state=0, max_iter=2000, tol=1e-4))]:
            clf.fit(X, y)
            cast = name == "sgd"
            dx = np.abs(Xt) * U if cast else None
            write(out, f"{name}_{ds}", matmul(clf, clf.classes_, d, cast), test, "matmul", clf, Xt,
                  lin_bound(clf.coef_, clf.intercept_, Xt, dx))

        # A StandardScaler pipeline: Scaler(offset = mean_, scale = 1/scale_),
        # then the LinearSVC; and a Normalizer (L2) pipeline.
        pipe = make_pipeline(StandardScaler(), LinearSVC(C=1.0, max_iter=200000, random_state=0)).fit(X, y)
        sc, lin = pipe[0], pipe[1]
        inv = 1.0 / sc.scale_
        nodes = [helper.make_node("Scaler", ["X"], ["Xs"], domain=ML, offset=sc.mean_.tolist(), scale=inv.tolist()),
                 linear_classifier("Xs", lin.coef_, lin.intercept_, lin.classes_)]
        Xs = sc.transform(Xt)
        dx = (np.abs(Xt - sc.mean_) + np.abs(sc.mean_)) * inv * 2 * U
        write(out, f"scaler_linearsvc_{ds}", model(nodes, d), test, "linear", pipe, Xt,
              lin_bound(lin.coef_, lin.intercept_, Xs, dx))

        pipe = make_pipeline(Normalizer("l2"), LinearSVC(C=10.0, max_iter=200000, random_state=0)).fit(X, y)
        lin = pipe[1]
        nodes = [helper.make_node("Normalizer", ["X"], ["Xn"], domain=ML, norm="L2"),
                 linear_classifier("Xn", lin.coef_, lin.intercept_, lin.classes_)]
        Xn = pipe[0].transform(Xt)
        write(out, f"normalizer_linearsvc_{ds}", model(nodes, d), test, "linear", pipe, Xt,
              lin_bound(lin.coef_, lin.intercept_, Xn, np.abs(Xn) * 1e-15))


if __name__ == "__main__":
    main()
