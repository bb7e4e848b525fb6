#!/bin/sh
# The linear SVM before and after it returned linear.Model: svm's
# BenchmarkLinearLayout (fit and dense/sparse prediction, process CPU time
# in cpu-ns/op) and BenchmarkLinearSVM (Fashion-MNIST, fit-s and
# predict-s), the two test binaries run in interleaved rounds.
# BenchmarkLinearSVM runs only with FASHION=1 (a fit takes some 20 s of CPU).
#   BASE=0980305 ROUNDS=3 sh bench/results/linsvm/ab.sh > bench/results/linsvm/ab-zen5.txt
set -e
BASE=${BASE:-0980305}
ROUNDS=${ROUNDS:-3}
dir=$(mktemp -d)
git worktree add -q --detach "$dir/base" "$BASE"
(cd "$dir/base" && go test -c -o "$dir/base.test" ./svm/)
git worktree remove --force "$dir/base"
go test -c -o "$dir/new.test" ./svm/
go run ./cmd/rosenblatt cpu | head -3
uptime
for r in $(seq "$ROUNDS"); do
	for v in base new; do
		echo "# round $r $v"
		(cd svm && "$dir/$v.test" -test.run '^$' -test.bench 'LinearLayout' -test.count 1)
		if [ "${FASHION:-0}" = 1 ]; then
			(cd svm && "$dir/$v.test" -test.run '^$' -test.bench 'LinearSVM/data=fashion-mnist$' -test.benchtime 1x -test.count 1)
		fi
	done
	uptime
done
rm -rf "$dir"
