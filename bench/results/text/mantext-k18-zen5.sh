#!/bin/sh
# More than eight classes: the NAME lines relabelled to 18 classes
# (section·3 + the row's first column mod 3: a label the features carry,
# not a real task), to time the split of a worker's classes into groups
# of at most eight that each scan (commit d6f7031) against one group of
# three blocks scored pair by pair (d7ec818, the scan without the split),
# interleaved, 4 rounds of 10 fits per process (the median of fits 2..10),
# one goroutine, B = 0.1, and scikit-learn's Perceptron(max_iter=10) on
# the same files. The models are the same bits (textfit's accuracies).
#
#	git worktree add /tmp/wt-d7ec818 d7ec818 && go -C /tmp/wt-d7ec818/bench build -o /tmp/tf-onegroup ./textfit
#	go -C bench build -o /tmp/tf-groups ./textfit
#	sh bench/results/text/mantext-k18-zen5.sh /tmp/mantext 4 > bench/results/text/mantext-k18-zen5.txt 2>&1
set -eu
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
dir=$1
uptime
go run ./cmd/rosenblatt cpu | head -3; go version; git log -1 --format='commit %h %s'
for s in train test; do
	awk '{split($2, a, ":"); print $1*3 + (a[1]%3), substr($0, index($0, " ")+1)}' "$dir/mantext-name.$s.libsvm" > "$dir/k18.$s.libsvm"
done
(cd "$dir" && sha256sum mantext-name.train.libsvm k18.train.libsvm k18.test.libsvm)
cut -d' ' -f1 "$dir/k18.train.libsvm" | sort -n | uniq -c | awk '{printf "%s:%s ", $2, $1} END {print "(class:rows)"}'
for r in $(seq "$2"); do
	for b in onegroup groups; do
		echo "== k18 round $r: $b"
		/tmp/tf-$b -B 0.1 -workers 1 "$dir/k18" 10
	done
	echo "== k18 round $r: sklearn"
	/usr/bin/python3 bench/peers/mantext.py "$dir/k18" 3
done
uptime
