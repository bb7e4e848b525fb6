#!/bin/sh
# The manual-page text benchmark (bench/textset): rosenblatt's averaged
# one-vs-rest perceptron, 10 epochs, on the sparse (CSR) rows
# (bench/textfit), against scikit-learn's Perceptron(max_iter=10) on the
# same files (bench/peers/mantext.py), interleaved round by round, on the
# whole pages (mantext, ~516 stored values per page) and on their NAME
# lines (mantext-name, ~19: short text). Output: bench/results/text/mantext-zen5.txt
# (before the one-pass trainer over the used columns), then
# bench/results/text/mantext-zen5-joint.txt (after it; perceptron without bias,
# the SVM on 1 and 2 threads: see bench/textfit).
#
#	go -C bench run ./textset -o /tmp/mantext           # checksums: bench/textset/SHA256SUMS
#	go -C bench run ./textset -short -o /tmp/mantext
#	go -C bench build -o /tmp/textfit ./textfit   # or TEXTFIT=/path/to/textfit
#	flock /work/wt/bench.lock sh bench/results/text/mantext-zen5.sh /tmp/mantext 3 > bench/results/text/mantext-zen5-joint.txt 2>&1
#
# Both programs print the fit's wall time and the process CPU time during
# the fit (the machine is shared: compare CPU times) and the test accuracy.
set -eu
textfit=${TEXTFIT:-/tmp/textfit}
dir=$1
rounds=${2:-1}
uname -m; go run ./cmd/rosenblatt cpu | head -3; go version; /usr/bin/python3 -c 'import sklearn; print("scikit-learn", sklearn.__version__)'
(cd "$dir" && sha256sum mantext.train.libsvm mantext.test.libsvm mantext-name.train.libsvm mantext-name.test.libsvm)
for set in mantext-name mantext; do
	for r in $(seq "$rounds"); do
		echo "== $set round $r"
		"$textfit" "$dir/$set" 1
		/usr/bin/python3 bench/peers/mantext.py "$dir/$set" 1
	done
done
# The linear SVM against liblinear-train -s 3 (whose time includes reading
# the file; textfit prints its own reading time), short-text set only.
for r in $(seq "$rounds"); do
	echo "== linear SVM mantext-name round $r"
	"$textfit" -svm "$dir/mantext-name" 1
	/usr/bin/time -f "liblinear-train -s 3 -c 1 -B 1: %e s wall, %U s user, %S s system" \
		liblinear-train -q -s 3 -c 1 -B 1 "$dir/mantext-name.train.libsvm" /tmp/mantext-name.s3.model
	liblinear-predict "$dir/mantext-name.test.libsvm" /tmp/mantext-name.s3.model /tmp/mantext-name.s3.pred
done
