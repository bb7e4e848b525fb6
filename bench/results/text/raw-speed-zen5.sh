#!/bin/bash
# Raw text to a saved model, three ways in one run, rounds interleaved, on
# the manual pages (bench/textset -fasttext; sums printed), this tree
# against the build of BASE (the tree before the featurizer's speed-ups:
# branchless sums of a document's runs of equal columns, the scale applied
# as a row is stored, hashWords' loop per run of ASCII bytes, the small
# documents' sort):
#  - rosenblatt train -algo averaged -epochs 10 (shuffled by default), this
#    tree (rb) and BASE (rb-base), GOMAXPROCS 1 and 2, default features and
#    -idf; the summary's CPU time per phase (user + system of the process
#    while it featurizes, trains, saves) and /usr/bin/time's; the model
#    files compared byte for byte with BASE's;
#  - Debian's fasttext supervised -wordNgrams 2 -dim 10 -epoch 10, 1 and 2
#    threads;
#  - scikit-learn's HashingVectorizer + TfidfTransformer + Perceptron and
#    LinearSVC (raw-sklearn-phases.py: CPU per phase, its own defaults: one
#    thread);
# then the test accuracies, and in interleaved rounds of this tree's and
# BASE's test binaries: featurizing the file (BenchmarkFile/featurize,
# thread CPU), featurization of 20-word documents (BenchmarkFeaturize,
# cpu-MB/s) and prediction from a raw 20-word document by a 20-class model
# (BenchmarkPredictText, thread CPU ns). Run from the repository root:
#
#	BASE=60cae27 bash bench/results/text/raw-speed-zen5.sh /tmp/htext/man > bench/results/text/raw-speed-zen5.txt 2>&1
set -euo pipefail
. "$(dirname "$0")/raw-rounds.sh"
dir=${1:-/tmp/text-man}
base=${BASE:-60cae27}
rounds=${ROUNDS:-2}
if [ ! -s "$dir/mantext.train.txt" ]; then (cd bench && go run ./textset -fasttext -o "$dir"); fi
t() { /usr/bin/time -f "  process: wall %e s, user %U s, sys %S s, max RSS %M kB" "$@"; }
if [ -z "${TAIL:-}" ]; then
tmp=$(mktemp -d)
git archive "$base" | tar -x -C "$tmp"
(cd "$tmp" && go build -o "$dir/rb-base" ./cmd/rosenblatt && go test -c -o "$dir/text-base.test" ./text && go test -c -o "$dir/model-base.test" ./model)
rm -rf "$tmp"
go test -c -o "$dir/text-new.test" ./text
go test -c -o "$dir/model-new.test" ./model
go build -o "$dir/rb" ./cmd/rosenblatt
raw_rounds
fi
raw_accuracy
echo; echo "######## floors and targets, BASE's test binaries and this tree's, interleaved: $(uptime)"
for r in $(seq 3); do
  echo "## round $r: $(uptime)"
  for v in base new; do
    echo "# $v: ROSENBLATT_TEXT_FILE=$dir/mantext.train.txt text.test -test.bench File/featurize -test.benchtime 3x -test.cpu 1"
    ROSENBLATT_TEXT_FILE="$dir/mantext.train.txt" "$dir/text-$v.test" -test.run '^$' -test.bench 'File/featurize' -test.benchtime 3x -test.cpu 1 | grep -E '^Benchmark'
    echo "# $v: text.test -test.bench 'Featurize/(ascii|unicode)/uni\+bigrams\$' -test.benchtime 1s -test.cpu 1"
    "$dir/text-$v.test" -test.run '^$' -test.bench 'Featurize/(ascii|unicode)/uni\+bigrams$' -test.benchtime 1s -test.cpu 1 | grep -E '^Benchmark'
    echo "# $v: model.test -test.bench PredictText -test.benchtime 1s -test.count 2 -test.cpu 1"
    "$dir/model-$v.test" -test.run '^$' -test.bench PredictText -test.benchtime 1s -test.count 2 -test.cpu 1 | grep -E '^Benchmark'
  done
done
echo "# load: $(uptime)"
