#!/bin/bash
# Raw text to a saved model, three ways in one run, rounds interleaved, on
# the manual pages (bench/textset -fasttext; sums printed):
#  - rosenblatt train -algo averaged -epochs 10 (shuffled by default), this
#    tree and the build of BASE (before ReadAll on GOMAXPROCS goroutines
#    and the one-pass idf), GOMAXPROCS 1 and 2, default features and -idf;
#    the summary's wall and CPU time per phase (user + system of the
#    process while it featurizes, trains, saves) and /usr/bin/time's;
#  - Debian's fasttext supervised -wordNgrams 2 -dim 10 -epoch 10, 1 and 2
#    threads;
#  - scikit-learn's HashingVectorizer + TfidfTransformer + Perceptron and
#    LinearSVC (raw-sklearn-phases.py: CPU per phase, its own defaults: one
#    thread);
# then the test accuracies, and the floors in the same run: the stages of
# featurizing the file (BenchmarkFile: read, lines, tokens, featurize;
# thread CPU), 10 scoring passes of the averaged perceptron's trainer with
# no update (perceptron's BenchmarkTextOvRParts/pass, wall, one thread),
# featurization of 20-word documents (BenchmarkFeaturize, cpu-MB/s) and
# prediction from a raw 20-word document by a 20-class model
# (BenchmarkPredictText). Run from the repository root:
#
#	BASE=4e96bc1 bash bench/results/text/raw-final-zen5.sh /tmp/htext/man > bench/results/text/raw-final-zen5.txt 2>&1
#
# TAIL=1 runs only the part after the rounds (test accuracy, floors,
# targets) on the models and binaries the rounds left in the directory
# (the recorded run's disk filled during the floors; its tail was run
# again this way, appended to the same file).
set -euo pipefail
. "$(dirname "$0")/raw-rounds.sh"
dir=${1:-/tmp/text-man}
base=${BASE:-4e96bc1}
rounds=${ROUNDS:-2}
if [ ! -s "$dir/mantext.train.txt" ]; then (cd bench && go run ./textset -fasttext -o "$dir"); fi
t() { /usr/bin/time -f "  process: wall %e s, user %U s, sys %S s, max RSS %M kB" "$@"; }
if [ -z "${TAIL:-}" ]; then
tmp=$(mktemp -d)
git archive "$base" | tar -x -C "$tmp"
(cd "$tmp" && go build -o "$dir/rb-base" ./cmd/rosenblatt)
rm -rf "$tmp"
go build -o "$dir/rb" ./cmd/rosenblatt
raw_rounds
fi
raw_accuracy
echo; echo "######## floors: $(uptime)"
echo "# ROSENBLATT_TEXT_FILE=$dir/mantext.train.txt go test -run '^\$' -bench File -benchtime 3x -count 2 -cpu 1 ./text"
ROSENBLATT_TEXT_FILE="$dir/mantext.train.txt" go test -run '^$' -bench File -benchtime 3x -count 2 -cpu 1 ./text | grep -E 'Benchmark'
if [ -s "$dir/mantext.train.libsvm" ]; then
  echo "# ROSENBLATT_TEXTSET=$dir/mantext go test -run '^\$' -bench 'TextOvRParts/(epochs|pass)\$' -benchtime 2x -count 3 -cpu 1 ./perceptron"
  ROSENBLATT_TEXTSET="$dir/mantext" go test -run '^$' -bench 'TextOvRParts/(epochs|pass)$' -benchtime 2x -count 3 -cpu 1 ./perceptron | grep -E 'Benchmark'
fi
echo; echo "######## targets: $(uptime)"
echo "# go test -run '^\$' -bench Featurize -benchtime 2s -count 3 -cpu 1 ./text"
go test -run '^$' -bench Featurize -benchtime 2s -count 3 -cpu 1 ./text | grep -E 'Benchmark'
echo "# go test -run '^\$' -bench PredictText -benchtime 2s -count 3 -cpu 1 ./model"
go test -run '^$' -bench PredictText -benchtime 2s -count 3 -cpu 1 ./model | grep -E 'Benchmark'
echo "# load: $(uptime)"
