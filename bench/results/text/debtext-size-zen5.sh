#!/bin/bash
# Model file size, test accuracy and time of the averaged one-vs-rest
# perceptron (10 shuffled epochs, seed 1) on the Debian package synopses
# (bench/debtext: 41 815 training and 10 370 test one-line descriptions,
# 20 sections, unigrams and bigrams hashed into 2^20 columns, ~12.7 stored
# values a row), written by
#   old: rosenblatt at d1e78ce (before package model: three dense K×D
#        float32 arrays w, u, c of the averaged perceptron, 3·20·2^20·4 bytes
#        plus the header), trained on the LIBSVM rows of the same features;
#   new: this checkout, on the same LIBSVM rows, on the raw text (the
#        featurizer and the label names in the file), and with -resumable
#        (the averaging state kept, for -init).
# Old and new must predict the same label for every test row (cmp).
# Run from the repository root:
#
#	bash bench/results/text/debtext-size-zen5.sh /tmp/debtext > bench/results/text/debtext-size-zen5.txt 2>&1
set -euo pipefail
dir=${1:-/tmp/debtext}
mkdir -p "$dir"
lists=/var/lib/apt/lists/deb.debian.org_debian_dists_bookworm_main_binary-amd64_Packages.lz4
echo "# set"; ls -l "$lists"
lz4 -dc "$lists" | go -C bench run ./debtext -libsvm -o "$dir"
go build -o "$dir/rb-new" ./cmd/rosenblatt
rm -rf "$dir/old-src"; mkdir -p "$dir/old-src"
git archive d1e78ce | tar -x -C "$dir/old-src"
(cd "$dir/old-src" && go build -o "$dir/rb-old" ./cmd/rosenblatt)
echo "# CPU"; "$dir/rb-new" cpu | head -3 || true
cd "$dir"
t() { /usr/bin/time -f "  wall %e s, user %U s, sys %S s, max RSS %M kB" "$@"; }
common=(-algo averaged -epochs 10 -seed 1 -f)
for r in 1 2 3; do
  echo; echo "######## round $r"; uptime
  echo "## old (d1e78ce), LIBSVM rows"
  t ./rb-old train "${common[@]}" -shuffle -all-epochs -cols 1048576 -o old.model -test debtext.test.libsvm debtext.train.libsvm | grep -E "epochs|updates|test acc|saved|time"
  echo "## new, LIBSVM rows"
  t ./rb-new train "${common[@]}" -shuffle -cols 1048576 -o new.model -test debtext.test.libsvm debtext.train.libsvm | grep -E "epochs|updates|test acc|saved|time"
  echo "## new, LIBSVM rows, -resumable"
  t ./rb-new train "${common[@]}" -shuffle -cols 1048576 -resumable -o new-res.model debtext.train.libsvm | grep -E "saved|time"
  echo "## new, raw text (fastText lines)"
  t ./rb-new train "${common[@]}" -o new-text.model -test debtext.test.txt debtext.train.txt | grep -E "epochs|time|test acc|saved"
done
echo; echo "# files"
ls -l old.model new.model new-res.model new-text.model
echo "# 3*K*D*4 = $((3 * 20 * 1048576 * 4)) bytes (w, u, c of 20 classes x 2^20 columns, float32)"
echo "# load old.model and new.model with this checkout: accuracy and the predicted label of every test row"
./rb-new eval old.model debtext.test.libsvm | grep -i '^accuracy'
./rb-new eval new.model debtext.test.libsvm | grep -i '^accuracy'
./rb-new eval new-text.model debtext.test.txt | grep -i '^accuracy'
t ./rb-new predict old.model debtext.test.libsvm > old.pred
t ./rb-new predict new.model debtext.test.libsvm > new.pred
cmp old.pred new.pred && echo "old.model and new.model: the same $(wc -l < new.pred) predicted labels"
echo "# load"; uptime
