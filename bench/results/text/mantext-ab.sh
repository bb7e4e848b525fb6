#!/bin/sh
# The averaged one-vs-rest perceptron (bench/textfit) on the manual-page
# text sets (bench/textset: NAME lines, then whole pages), two builds of
# textfit (before and after a change) interleaved round by round with
# scikit-learn's Perceptron(max_iter=10) (bench/peers/mantext.py), each
# program fitting FITS times per setting in one process (the first fit of a
# process also faults in the model's fresh pages). Compare CPU seconds
# (the machine is shared). The records that use it
# (mantext-scoreblock-zen5.sh, mantext-zen5-r3.sh) say how their two
# builds were made.
#
#	sh bench/results/text/mantext-ab.sh DIR ROUNDS BEFORE AFTER [FITS]
set -eu
dir=$1
rounds=$2
before=$3
after=$4
fits=${5:-1}
uname -m; go run ./cmd/rosenblatt cpu | head -3; go version; /usr/bin/python3 -c 'import sklearn; print("scikit-learn", sklearn.__version__)'
(cd "$dir" && sha256sum mantext.train.libsvm mantext.test.libsvm mantext-name.train.libsvm mantext-name.test.libsvm)
for set in mantext-name mantext; do
	for r in $(seq "$rounds"); do
		echo "== $set round $r: before"
		"$before" "$dir/$set" "$fits"
		echo "== $set round $r: after"
		"$after" "$dir/$set" "$fits"
		echo "== $set round $r: sklearn"
		/usr/bin/python3 bench/peers/mantext.py "$dir/$set" "$fits"
	done
done
