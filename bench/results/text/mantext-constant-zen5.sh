#!/bin/sh
# Test accuracy of the averaged one-vs-rest perceptron (10 epochs, no
# bias, seeds 1..8) on the manual-page text sets with every row given a
# constant feature of value B (textfit -constant: a bias feature, as
# liblinear's -B, whose weight's steps move the score by B² per mistake),
# against scikit-learn's Perceptron(max_iter=10, tol=None), random_state
# 0..7, whose intercept's steps scikit-learn damps by 0.01 on sparse data.
#
#	go -C bench build -o /tmp/tf-const ./textfit
#	sh bench/results/text/mantext-constant-zen5.sh /tmp/mantext > bench/results/text/mantext-constant-zen5.txt 2>&1
set -eu
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
go run ./cmd/rosenblatt cpu | head -1
(cd "$1" && sha256sum mantext.train.libsvm mantext.test.libsvm mantext-name.train.libsvm mantext-name.test.libsvm)
for set in mantext-name mantext; do
	echo "== $set"
	/usr/bin/python3 bench/peers/mantext.py "$1/$set" seeds 8 | tail -1
	/tmp/tf-const -seeds 8 "$1/$set" | tail -1
	for b in 0.1 0.3 1; do
		echo "-constant $b"; /tmp/tf-const -seeds 8 -constant $b "$1/$set" | tail -1
	done
done
