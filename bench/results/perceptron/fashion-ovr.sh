#!/bin/sh
# The averaged perceptron, one-vs-rest, 10 shuffled epochs, on all of
# Fashion-MNIST against scikit-learn's Perceptron (bench/peers/perceptron_fashion.py)
# in ROUNDS interleaved rounds, with the load average of each:
#   - the fit alone: perceptron's BenchmarkTrain (averaged-ovr on the default
#     goroutines and on one; wall, -benchtime 3x) against the Perceptron's fit
#     (wall and process CPU time);
#   - the whole command from the IDX files to a saved model and its test
#     accuracy: `rosenblatt train -algo averaged -epochs 10` (wall, user+sys).
# Run from the repository root (Debian: python3-sklearn, dataset-fashion-mnist):
#
#	sh bench/results/perceptron/fashion-ovr.sh [ROUNDS] > OUT.txt
set -eu
rounds=${1:-3}
fm=/usr/share/datasets/fashion-mnist
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/perceptron.test" ./perceptron
go build -o "$tmp/rosenblatt" ./cmd/rosenblatt
echo "# $("$tmp/rosenblatt" cpu | head -3 | tr -s ' ' | tr '\n' ' ')"
echo "# go: $(go version); $(git log -1 --format='commit %h'); ROSENBLATT_KERNEL=${ROSENBLATT_KERNEL:-(unset)}"
echo "# sh bench/results/perceptron/fashion-ovr.sh $rounds"
r=1
while [ "$r" -le "$rounds" ]; do
	echo "## round $r, load average $(cut -d' ' -f1-3 /proc/loadavg)"
	(cd bench/peers && /usr/bin/python3 perceptron_fashion.py)
	(cd perceptron && "$tmp/perceptron.test" -test.run '^$' -test.benchtime 3x \
		-test.bench '^BenchmarkTrain$/^data=fashion-mnist$/^algo=averaged-ovr(-1goroutine)?$') | grep '^Benchmark'
	rm -f "$tmp/m.bin"
	/usr/bin/time -f "rosenblatt train whole process: wall %e s, cpu %U+%S s, max RSS %M KB" \
		"$tmp/rosenblatt" train -algo averaged -epochs 10 -o "$tmp/m.bin" -test "$fm/t10k-images-idx3-ubyte.gz" \
		"$fm/train-images-idx3-ubyte.gz" 2>&1 | grep -E 'test accuracy|^time:|whole process'
	r=$((r + 1))
done
echo "# load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
