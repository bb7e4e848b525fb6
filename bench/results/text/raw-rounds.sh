# raw-rounds.sh: the part of the raw-text comparisons that raw-final-zen5.sh
# and raw-speed-zen5.sh share, sourced by both (bash). It expects $dir (the
# set's directory, holding the builds rb and rb-base), $base, $rounds and
# the timing function t of the calling script.
#
# raw_rounds: the CPU, the commit, the peers' versions and the set's sums,
# then $rounds interleaved rounds of rosenblatt train (this tree's build and
# BASE's, GOMAXPROCS 1 and 2, default features and -idf, the model files
# compared byte for byte), fasttext supervised (1 and 2 threads) and
# scikit-learn's pipeline (raw-sklearn-phases.py).
raw_rounds() {
echo "# CPU"; "$dir/rb" cpu | head -5 || true
git log -1 --format='# commit %h %s' | cut -c1-120
echo "# base: $base"
echo "# fasttext $(dpkg-query -W -f='${Version}' fasttext 2>/dev/null || echo '?'), python3-sklearn $(dpkg-query -W -f='${Version}' python3-sklearn 2>/dev/null || echo '?')"
sha256sum "$dir"/mantext.train.txt "$dir"/mantext.test.txt
for r in $(seq "$rounds"); do
  echo; echo "######## round $r: $(uptime)"
  for flags in "" "-idf"; do
    for p in 1 2; do
      for b in rb rb-base; do
        echo "## $b, GOMAXPROCS=$p: train -algo averaged -epochs 10 ${flags}"
        t env GOMAXPROCS=$p "$dir/$b" train -algo averaged -epochs 10 $flags -f -o "$dir/$b$p$flags.model" "$dir/mantext.train.txt" 2>&1 | grep -E '^(time|cpu time|saved)|process'
      done
      cmp "$dir/rb$p$flags.model" "$dir/rb-base$p$flags.model" && echo "   the same model file as the base build's"
    done
  done
  for p in 1 2; do
    echo "## fasttext supervised -thread $p -wordNgrams 2 -dim 10 -epoch 10 -bucket 1048576"
    t fasttext supervised -input "$dir/mantext.train.txt" -output "$dir/ft$p" -thread $p -wordNgrams 2 -dim 10 -epoch 10 -bucket 1048576 -verbose 0 2>&1
  done
  echo "## scikit-learn: /usr/bin/python3 bench/results/text/raw-sklearn-phases.py (one thread)"
  t env OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 /usr/bin/python3 bench/results/text/raw-sklearn-phases.py "$dir/mantext.train.txt" "$dir/mantext.test.txt" "$dir/sk.pickle" 2>&1
done
}

# raw_accuracy: the test accuracy of the models the rounds left in $dir.
raw_accuracy() {
echo; echo "######## test accuracy: $(uptime)"
cmp "$dir/rb1.model" "$dir/rb2.model" && echo "rb1.model and rb2.model: the same bytes (GOMAXPROCS 1 and 2)"
for m in rb1 rb1-idf; do
  echo "# rosenblatt eval $m.model"; "$dir/rb" eval "$dir/$m.model" "$dir/mantext.test.txt" | grep -E '^(model|accuracy)' 
done
for p in 1 2; do echo "# fasttext test ft$p.bin"; fasttext test "$dir/ft$p.bin" "$dir/mantext.test.txt"; done
}
