#!/bin/sh
# Prediction with an imported LIBSVM RBF model, whole process, against
# svm-predict on the same model file and rows (farm-bench --vs: A is
# `rosenblatt predict`, B is svm-predict; pairs interleaved):
#
#	sh bench/results/svm/interop-libsvm-rbf-zen5.sh > bench/results/svm/interop-libsvm-rbf-zen5.txt 2>&1
#
# Needs Debian's libsvm-tools and farm-bench. The rows are svm/testdata's
# digits training set repeated 10 times (14 370 rows, 64 features); the
# model is svm-train's one-vs-one RBF SVM on that training set.
set -eu
dir=$(mktemp -d)
go build -o "$dir/rosenblatt" ./cmd/rosenblatt
"$dir/rosenblatt" cpu | grep -E '^(brand|kernel )'
svm-train -q -t 2 -g 0.002 -c 1 svm/testdata/digits.train.libsvm "$dir/digits.model"
for i in 1 2 3 4 5 6 7 8 9 10; do cat svm/testdata/digits.train.libsvm; done >"$dir/rows.libsvm"
grep -E '^(total_sv|nr_class)' "$dir/digits.model"
wc -l <"$dir/rows.libsvm"
# The same labels from both, first.
"$dir/rosenblatt" predict "$dir/digits.model" "$dir/rows.libsvm" >"$dir/ours.pred"
svm-predict "$dir/rows.libsvm" "$dir/digits.model" "$dir/theirs.pred"
cmp "$dir/ours.pred" "$dir/theirs.pred" && echo "labels: identical on every row"
farm-bench -n 7 --warmup 1 --timeout 300 \
	--vs "svm-predict $dir/rows.libsvm $dir/digits.model /dev/null" \
	-- "$dir/rosenblatt" predict -o /dev/null "$dir/digits.model" "$dir/rows.libsvm"
rm -r "$dir"
