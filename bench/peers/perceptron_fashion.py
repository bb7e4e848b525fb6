"""scikit-learn's Perceptron on all of Fashion-MNIST (60 000 training images,
pixels/255, 10 classes one-vs-rest, 10 epochs: max_iter=10, tol=None, shuffled
each epoch), scored on the 10 000 test images: the peer of perceptron's
BenchmarkTrain/data=fashion-mnist/algo=averaged-ovr and of `rosenblatt train
-algo averaged -epochs 10` on the same files. Prints the fit's wall and process
CPU time and the test accuracy. Debian's python3-sklearn and
dataset-fashion-mnist:

    /usr/bin/python3 bench/peers/perceptron_fashion.py
"""
import time
import warnings

import sklearn
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import Perceptron

import fashion

Xtr, ytr = fashion.load("train")
Xte, yte = fashion.load("t10k")
warnings.simplefilter("ignore", ConvergenceWarning)
m = Perceptron(max_iter=10, tol=None, shuffle=True, random_state=0)
w0, c0 = time.perf_counter(), time.process_time()
m.fit(Xtr, ytr)
w1, c1 = time.perf_counter(), time.process_time()
acc = float((m.predict(Xte) == yte).mean())
print(f"sklearn {sklearn.__version__} Perceptron(max_iter=10, tol=None): fit wall {w1 - w0:.3f} s cpu {c1 - c0:.3f} s, "
      f"test accuracy {acc:.4f}")
