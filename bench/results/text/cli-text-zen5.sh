#!/bin/sh
# The command line end to end on the manual-page text sets (bench/textset):
# `rosenblatt train` of the averaged one-vs-rest perceptron (10 epochs,
# shuffled, B = 0.1), reading the LIBSVM file as CSR and writing the model
# file (dense weights of width 2²⁰: 75 MB), before and after the populated
# pages (internal/pages: the readers' growing arrays, the fit's scratch and
# model arrays, the model file's buffer) and the bulk model encoding,
# interleaved, 5 rounds; /usr/bin/time -v's wall time, CPU time and minor
# faults of each whole process (a populated page counts as a fault too, at
# about 3 instead of 12 µs with its first write: populate-zen5.txt). Both write the same model file.
#
#	git worktree add /tmp/wt-old 85eea18 && go -C /tmp/wt-old build -o /tmp/rb-old ./cmd/rosenblatt
#	go build -o /tmp/rb-new ./cmd/rosenblatt
#	sh bench/results/text/cli-text-zen5.sh /tmp/mantext /tmp/rb-old /tmp/rb-new > bench/results/text/cli-text-zen5.txt 2>&1
set -eu
dir=$1 old=$2 new=$3
uptime
go run ./cmd/rosenblatt cpu | head -3; go version
git log -1 --format='commit %h %s'
(cd "$dir" && sha256sum mantext.train.libsvm mantext-name.train.libsvm)
for set in mantext-name mantext; do
	for r in 1 2 3 4 5; do
		for b in old new; do
			eval bin=\$$b
			/usr/bin/time -f "$set round $r $b: wall %e s  user %U s  sys %S s  minor faults %R  max RSS %M KB" \
				"$bin" train -f -algo averaged -shuffle -epochs 10 -B 0.1 -o "/tmp/cli-$b.model" "$dir/$set.train.libsvm" > /dev/null
		done
		cmp "/tmp/cli-old.model" "/tmp/cli-new.model" && echo "$set round $r: the same model file"
	done
done
uptime
