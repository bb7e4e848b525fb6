#!/bin/bash
# Raw text to saved model: rosenblatt train on fastText lines against
# Debian's fasttext supervised on the same lines, same run, 1 and 2
# threads. The text set is bench/textset -fasttext over this machine's
# manual pages (its sums are printed). Run from the repository root:
#
#	bash bench/results/text/raw-fasttext-zen5.sh /tmp/textrun > bench/results/text/raw-fasttext-zen5.txt 2>&1
#
# The machine is shared: compare the user+sys CPU seconds that /usr/bin/time
# prints as much as the wall time.
set -euo pipefail
dir=${1:-/tmp/textrun}
mkdir -p "$dir"
go build -o "$dir/rosenblatt" ./cmd/rosenblatt
echo "# CPU"; "$dir/rosenblatt" cpu | head -5
echo "# load"; uptime
echo "# fasttext: $(dpkg-query -W -f='${Version}' fasttext 2>/dev/null || echo '?')"
echo "# text set (go -C bench run ./textset -fasttext -o $dir)"
(cd bench && go run ./textset -fasttext -o "$dir")
ls -l "$dir"/mantext.train.txt "$dir"/mantext.test.txt
t() { /usr/bin/time -f "  wall %e s, user %U s, sys %S s, max RSS %M kB" "$@"; }
for p in 1 2; do
  echo; echo "## rosenblatt, GOMAXPROCS=$p: train -algo averaged -epochs 10 -idf (unigrams+bigrams, 2^20, log tf, idf, unit rows)"
  t env GOMAXPROCS=$p "$dir/rosenblatt" train -algo averaged -epochs 10 -idf -f -o "$dir/rb$p.model" -test "$dir/mantext.test.txt" "$dir/mantext.train.txt"
  echo; echo "## rosenblatt, GOMAXPROCS=$p: same without idf (one pass over the file)"
  t env GOMAXPROCS=$p "$dir/rosenblatt" train -algo averaged -epochs 10 -f -o "$dir/rbn$p.model" -test "$dir/mantext.test.txt" "$dir/mantext.train.txt"
  echo; echo "## rosenblatt, GOMAXPROCS=$p: without idf, -epochs 100"
  t env GOMAXPROCS=$p "$dir/rosenblatt" train -algo averaged -epochs 100 -f -o "$dir/rbe$p.model" -test "$dir/mantext.test.txt" "$dir/mantext.train.txt"
  echo; echo "## fasttext supervised -thread $p -wordNgrams 2 -dim 10 -epoch 10 -bucket 1048576"
  t fasttext supervised -input "$dir/mantext.train.txt" -output "$dir/ft$p" -thread $p -wordNgrams 2 -dim 10 -epoch 10 -bucket 1048576 -verbose 0
  fasttext test "$dir/ft$p.bin" "$dir/mantext.test.txt"
  ls -l "$dir/ft$p.bin" "$dir/rb$p.model"
done
echo; echo "## rosenblatt eval (prediction from raw text)"
t "$dir/rosenblatt" eval "$dir/rb2.model" "$dir/mantext.test.txt" | head -4
echo; echo "## featurization alone, one core: go test -run '^\$' -bench Featurize -benchtime 2s -cpu 1 ./text"
go test -run '^$' -bench Featurize -benchtime 2s -cpu 1 ./text
echo "# load"; uptime
