#!/bin/bash
# Raw text to a saved model, three ways in the same run: rosenblatt train on
# fastText lines, Debian's fasttext supervised (1 and 2 threads), and
# scikit-learn's HashingVectorizer + TfidfTransformer + Perceptron /
# LinearSVC pipeline (raw-sklearn.py); then prediction from the raw test
# file by each, and the per-document benchmarks. The text set is
# bench/textset -fasttext over this machine's manual pages (its sums are
# printed). Run from the repository root:
#
#	bash bench/results/text/raw-three-zen5.sh /tmp/mantext > bench/results/text/raw-three-zen5.txt 2>&1
#
# The machine is shared: compare the user+sys CPU seconds that /usr/bin/time
# prints as much as the wall time, and read the load averages printed.
set -euo pipefail
dir=${1:-/tmp/mantext}
mkdir -p "$dir"
go build -o "$dir/rosenblatt" ./cmd/rosenblatt
echo "# CPU"; "$dir/rosenblatt" cpu | head -5
echo "# load"; uptime
echo "# fasttext $(dpkg-query -W -f='${Version}' fasttext 2>/dev/null || echo '?'), python3-sklearn $(dpkg-query -W -f='${Version}' python3-sklearn 2>/dev/null || echo '?')"
echo "# text set (go -C bench run ./textset -fasttext -o $dir)"
(cd bench && go run ./textset -fasttext -o "$dir")
ls -l "$dir"/mantext.train.txt "$dir"/mantext.test.txt
t() { /usr/bin/time -f "  wall %e s, user %U s, sys %S s, max RSS %M kB" "$@"; }
for p in 1 2; do
  for e in 10 100; do
    echo; echo "## rosenblatt, GOMAXPROCS=$p: train -algo averaged -epochs $e (unigrams+bigrams, 2^20, log tf, unit rows)"
    t env GOMAXPROCS=$p "$dir/rosenblatt" train -algo averaged -epochs $e -f -o "$dir/rb$p-$e.model" "$dir/mantext.train.txt"
  done
  echo; echo "## fasttext supervised -thread $p -wordNgrams 2 -dim 10 -epoch 10 -bucket 1048576"
  t fasttext supervised -input "$dir/mantext.train.txt" -output "$dir/ft$p" -thread $p -wordNgrams 2 -dim 10 -epoch 10 -bucket 1048576 -verbose 0
done
echo; echo "## prediction from the raw test file"
for e in 10 100; do
  echo "# rosenblatt eval rb1-$e.model"
  t "$dir/rosenblatt" eval "$dir/rb1-$e.model" "$dir/mantext.test.txt" | head -4
done
for p in 1 2; do
  echo "# fasttext test ft$p.bin"
  t fasttext test "$dir/ft$p.bin" "$dir/mantext.test.txt"
done
ls -l "$dir"/ft1.bin "$dir"/rb1-10.model "$dir"/rb1-100.model
echo; echo "## scikit-learn (one thread): /usr/bin/python3 bench/results/text/raw-sklearn.py"
t /usr/bin/python3 bench/results/text/raw-sklearn.py "$dir/mantext.train.txt" "$dir/mantext.test.txt"
echo; echo "## per document, one core: go test -run '^\$' -bench PredictText -benchtime 2s -count 3 -cpu 1 ./model"
go test -run '^$' -bench PredictText -benchtime 2s -count 3 -cpu 1 ./model
echo; echo "## featurization alone, one core: go test -run '^\$' -bench Featurize -benchtime 2s -cpu 1 ./text"
go test -run '^$' -bench Featurize -benchtime 2s -cpu 1 ./text
echo "# load"; uptime
