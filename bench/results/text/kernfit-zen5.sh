#!/bin/sh
# The kernel machines on sparse text (bench/kernfit): rosenblatt's kernel
# SVM (svm.TrainSparse, RBF gamma="scale", C = 1, one-vs-one) and kernel
# perceptron (averaged one-vs-rest, 10 epochs, same γ) on CSR rows of a
# slice of the manual-page set (every 8th training page, every 4th test
# page; 2²⁰ hashed features), against scikit-learn's SVC on the same rows
# (bench/peers/svc_mantext.py), interleaved round by round. Output:
# bench/results/text/kernfit-zen5.txt.
#
#	go -C bench run ./textset -o /tmp/mantext           # checksums: bench/textset/SHA256SUMS
#	go -C bench build -o /tmp/kernfit ./kernfit
#	flock /work/wt/bench.lock sh bench/results/text/kernfit-zen5.sh /tmp/mantext 2 > bench/results/text/kernfit-zen5.txt 2>&1
#
# Both print the fit's wall time and the process CPU time during the fit
# (the machine is shared: compare CPU times), the support vectors, the test
# accuracy and the time to predict the test rows.
set -eu
dir=$1
rounds=${2:-1}
uname -m; go run ./cmd/rosenblatt cpu | head -3; go version; /usr/bin/python3 -c 'import sklearn; print("scikit-learn", sklearn.__version__)'
(cd "$dir" && sha256sum mantext.train.libsvm mantext.test.libsvm)
for r in $(seq "$rounds"); do
	echo "== mantext every 8th/4th page, round $r"
	/tmp/kernfit -stride 8 -test-stride 4 "$dir/mantext" 1
	/usr/bin/python3 bench/peers/svc_mantext.py "$dir/mantext" 1 8 4
done
