#!/bin/sh
# liblinear-train -s 3 on the data of BenchmarkLinearSVM/data=fashion-mnist:
# all 60 000 training images, hinge loss (L1-loss dual CD), C = 1, bias
# feature 1, LIBLINEAR's default tolerance 0.1, one-vs-rest; then
# liblinear-predict on the 10 000 test images. Debian's liblinear-tools:
#
#	sh bench/peers/liblinear_fashion.sh /tmp/fashion-mnist
#
# (after bench/peers/fashion_libsvm.py /tmp/fashion-mnist). Prints the
# trainer's output (per class: iterations, dual objective, nSV) and the
# wall, user and system times.
set -eu
p=$1
/usr/bin/time -f "liblinear-train: %e s wall, %U s user, %S s system, %M KiB max RSS" \
	liblinear-train -s 3 -c 1 -B 1 "$p.train.libsvm" "$p.s3.model"
/usr/bin/time -f "liblinear-predict: %e s wall" \
	liblinear-predict "$p.t10k.libsvm" "$p.s3.model" "$p.s3.pred"
