#!/bin/sh
# Prediction with an imported LIBSVM RBF model, whole process, against
# svm-predict on the same model file and rows (farm-bench --vs: A is
# `rosenblatt predict`, B is svm-predict; pairs interleaved; CPU times of
# the whole process, the figure to quote under load):
#
#	sh bench/results/interop/predict-vs-svm-predict.sh > bench/results/interop/predict-vs-svm-predict-zen5.txt 2>&1
#
# The model is svm-train's one-vs-one RBF SVM on svm/testdata's digits
# training set (10 classes, 64 features). The rows are that training set
# repeated 10 times (14 370 rows) and 100 times (143 700 rows): with 143 700
# rows process start-up and reading the model are a small part of either
# tool's time, and the difference of the two sizes is the per-row cost.
# Needs Debian's libsvm-tools and farm-bench.
set -eu
dir=$(mktemp -d)
go build -o "$dir/rosenblatt" ./cmd/rosenblatt
"$dir/rosenblatt" cpu | grep -E '^(brand|kernel )'
uptime
svm-train -q -t 2 -g 0.002 -c 1 svm/testdata/digits.train.libsvm "$dir/digits.model"
grep -E '^(total_sv|nr_class)' "$dir/digits.model"
for i in $(seq 10); do cat svm/testdata/digits.train.libsvm; done >"$dir/rows10.libsvm"
for i in $(seq 10); do cat "$dir/rows10.libsvm"; done >"$dir/rows100.libsvm"
for n in 10 100; do
	rows="$dir/rows$n.libsvm"
	echo "== rows: $(wc -l <"$rows")"
	"$dir/rosenblatt" predict "$dir/digits.model" "$rows" >"$dir/ours.pred"
	svm-predict "$rows" "$dir/digits.model" "$dir/theirs.pred"
	cmp "$dir/ours.pred" "$dir/theirs.pred" && echo "labels: identical on every row"
	farm-bench -n 5 --warmup 1 --timeout 1800 \
		--vs "svm-predict $rows $dir/digits.model /dev/null" \
		-- "$dir/rosenblatt" predict -o /dev/null "$dir/digits.model" "$rows"
done
uptime
rm -r "$dir"
