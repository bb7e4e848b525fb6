#!/bin/bash
# Raw text to a saved model, like for like against scikit-learn's pipeline
# (raw-sklearn-phases.py, the same run): rosenblatt's averaged perceptron
# (10 epochs, shuffled) against Perceptron(max_iter=10), and rosenblatt's
# linear SVM (-algo svm -loss squared-hinge: dual coordinate descent, C = 1,
# bias on a constant feature 1, as LinearSVC's defaults) against
# LinearSVC(), at LIBLINEAR's stopping tolerance 0.1 (rosenblatt's default)
# and at LinearSVC's 1e-4. Every program on one thread (GOMAXPROCS=1;
# scikit-learn's solvers are single-threaded). The summary's "cpu time"
# line: the process's user + system CPU of each phase (featurize, train,
# save). Two sets: the manual pages (go -C bench run ./textset -fasttext)
# and the Debian package synopses (bench/debtext). Run from the repository
# root:
#
#	bash bench/results/text/raw-svm-zen5.sh /tmp/text-man /tmp/debtext > bench/results/text/raw-svm-zen5.txt 2>&1
set -euo pipefail
man=${1:-/tmp/text-man}
deb=${2:-/tmp/debtext}
bin=$man/rosenblatt
go build -o "$bin" ./cmd/rosenblatt
echo "# CPU"; "$bin" cpu | head -3 || true
git log -1 --format='# commit %h %s'
sha256sum "$man"/mantext.train.txt "$man"/mantext.test.txt "$deb"/debtext.train.txt "$deb"/debtext.test.txt
t() { /usr/bin/time -f "  process: wall %e s, user %U s, sys %S s, max RSS %M kB" "$@"; }
for r in 1 2; do
  for set in "$man/mantext" "$deb/debtext"; do
    echo; echo "######## round $r: $(basename "$set")"; uptime
    echo "## rosenblatt train -algo averaged -epochs 10"
    t env GOMAXPROCS=1 "$bin" train -algo averaged -epochs 10 -f -o "$set.avg.model" -test "$set.test.txt" "$set.train.txt" | grep -E "epochs|time|acc|saved"
    for tol in 0.1 0.0001; do
      echo "## rosenblatt train -algo svm -loss squared-hinge -tol $tol"
      t env GOMAXPROCS=1 "$bin" train -algo svm -loss squared-hinge -tol $tol -f -o "$set.svm.model" -test "$set.test.txt" "$set.train.txt" | grep -E "machines|time|acc|saved"
    done
    echo "## /usr/bin/python3 bench/results/text/raw-sklearn-phases.py"
    t env OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 /usr/bin/python3 bench/results/text/raw-sklearn-phases.py "$set.train.txt" "$set.test.txt" "$set.sk.pickle"
  done
done
echo; echo "# load"; uptime
