#!/bin/bash
# Raw text to a saved model, three ways in the same run, rounds interleaved:
# rosenblatt train (text input now shuffled every epoch by default) with
# GOMAXPROCS 1 and 2, the same command built from the commit before this
# work (4a4baaa, "before": file order unless -shuffle, so it is given
# -shuffle), Debian's fasttext supervised (1 and 2 threads) and
# scikit-learn's HashingVectorizer + TfidfTransformer + Perceptron /
# LinearSVC (raw-sklearn.py). Then the test accuracy of each model, the
# stages of featurizing the file alone (BenchmarkFile: read, lines,
# tokens, featurize, in thread CPU seconds) and the featurizer's
# throughput on short documents (BenchmarkFeaturize). The text set is
# bench/textset -fasttext over this machine's manual pages (sums printed).
# Run from the repository root:
#
#	bash bench/results/text/raw-three-2-zen5.sh /tmp/mantext > bench/results/text/raw-three-2-zen5.txt 2>&1
#
# The machine is shared: the primary figure is the CPU time (user + sys)
# that /usr/bin/time prints (scikit-learn's is its process_time); wall
# times are printed but inflated by the load (uptime before each round).
set -euo pipefail
dir=${1:-/tmp/mantext}
rounds=${ROUNDS:-2}
mkdir -p "$dir"
go build -o "$dir/rosenblatt" ./cmd/rosenblatt
rm -rf "$dir/before" && mkdir -p "$dir/before"
git archive 4a4baaa | tar -x -C "$dir/before"
(cd "$dir/before" && go build -o "$dir/rosenblatt-before" ./cmd/rosenblatt)
echo "# CPU"; "$dir/rosenblatt" cpu | head -5 || true
echo "# fasttext $(dpkg-query -W -f='${Version}' fasttext 2>/dev/null || echo '?'), python3-sklearn $(dpkg-query -W -f='${Version}' python3-sklearn 2>/dev/null || echo '?')"
if [ ! -s "$dir/mantext.train.txt" ]; then (cd bench && go run ./textset -fasttext -o "$dir"); fi
sha256sum "$dir"/mantext.train.txt "$dir"/mantext.test.txt
ls -l "$dir"/mantext.train.txt "$dir"/mantext.test.txt
t() { /usr/bin/time -f "  wall %e s, user %U s, sys %S s, max RSS %M kB" "$@"; }
for r in $(seq "$rounds"); do
  echo; echo "######## round $r"; uptime
  for p in 1 2; do
    echo; echo "## rosenblatt, GOMAXPROCS=$p: train -algo averaged -epochs 10 (default: shuffled, seed 1)"
    t env GOMAXPROCS=$p "$dir/rosenblatt" train -algo averaged -epochs 10 -f -o "$dir/rb$p.model" "$dir/mantext.train.txt"
    echo; echo "## before (4a4baaa), GOMAXPROCS=$p: train -algo averaged -shuffle -epochs 10"
    t env GOMAXPROCS=$p "$dir/rosenblatt-before" train -algo averaged -shuffle -epochs 10 -f -o "$dir/rbb$p.model" "$dir/mantext.train.txt"
    echo; echo "## fasttext supervised -thread $p -wordNgrams 2 -dim 10 -epoch 10 -bucket 1048576"
    t fasttext supervised -input "$dir/mantext.train.txt" -output "$dir/ft$p" -thread $p -wordNgrams 2 -dim 10 -epoch 10 -bucket 1048576 -verbose 0
  done
  echo; echo "## rosenblatt, GOMAXPROCS=1: train -algo averaged -epochs 10 -shuffle=false (file order)"
  t env GOMAXPROCS=1 "$dir/rosenblatt" train -algo averaged -epochs 10 -shuffle=false -f -o "$dir/rbf.model" "$dir/mantext.train.txt"
  echo; echo "## scikit-learn (one thread): /usr/bin/python3 bench/results/text/raw-sklearn.py"
  t /usr/bin/python3 bench/results/text/raw-sklearn.py "$dir/mantext.train.txt" "$dir/mantext.test.txt"
done
echo; echo "######## the models"
cmp "$dir/rb1.model" "$dir/rb2.model" && echo "rb1.model and rb2.model: the same bytes (GOMAXPROCS 1 and 2)"
cmp "$dir/rb1.model" "$dir/rbb1.model" && echo "rb1.model and rbb1.model: the same bytes (this build's default and the earlier build's -shuffle)"
for m in rb1 rbf; do
  echo "# rosenblatt eval $m.model"
  t "$dir/rosenblatt" eval "$dir/$m.model" "$dir/mantext.test.txt" | head -4
done
for p in 1 2; do
  echo "# fasttext test ft$p.bin"
  t fasttext test "$dir/ft$p.bin" "$dir/mantext.test.txt"
done
ls -l "$dir"/ft1.bin "$dir"/rb1.model "$dir"/rbf.model
echo; echo "## the stages of featurizing the training file alone, one thread (cpu-s/op: thread CPU seconds)"
echo "# ROSENBLATT_TEXT_FILE=$dir/mantext.train.txt go test -run '^\$' -bench File -benchtime 3x -count 2 -cpu 1 ./text"
uptime
ROSENBLATT_TEXT_FILE="$dir/mantext.train.txt" go test -run '^$' -bench File -benchtime 3x -count 2 -cpu 1 ./text
echo; echo "## featurization of short documents, one core: go test -run '^\$' -bench Featurize -benchtime 2s -count 2 -cpu 1 ./text"
go test -run '^$' -bench Featurize -benchtime 2s -count 2 -cpu 1 ./text
echo "# load"; uptime
