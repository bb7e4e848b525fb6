#!/bin/sh
# Regenerates the LIBSVM and LIBLINEAR reference outputs in this directory
# with Debian 12's libsvm-tools 3.24+ds-6 and liblinear-tools 2.3.0+dfsg-5:
#
#	apt-get install libsvm-tools liblinear-tools
#	cd svm/testdata && sh gen.sh && sha256sum -c SHA256SUMS
#
# Each run writes NAME.model, NAME.out (the trainer's standard output) and
# NAME.pred (the predictor's output on the test file). Both tools are
# deterministic, so the files are reproduced byte for byte.
set -eu
svm() { # name train test args...
	name=$1 tr=$2 te=$3; shift 3
	svm-train "$@" "$tr" "libsvm/$name.model" >"libsvm/$name.out"
	svm-predict "$te" "libsvm/$name.model" "libsvm/$name.pred" >/dev/null
}
lin() {
	name=$1 tr=$2 te=$3; shift 3
	liblinear-train "$@" "$tr" "liblinear/$name.model" >"liblinear/$name.out"
	liblinear-predict "$te" "liblinear/$name.model" "liblinear/$name.pred" >/dev/null
}
mkdir -p libsvm liblinear
svm heart_rbf heart_scale.libsvm heart_scale.libsvm -s 0 -t 2 -c 1
svm heart_rbf_c10 heart_scale.libsvm heart_scale.libsvm -s 0 -t 2 -c 10
svm heart_linear heart_scale.libsvm heart_scale.libsvm -s 0 -t 0 -c 0.5
svm heart_poly heart_scale.libsvm heart_scale.libsvm -s 0 -t 1 -d 3 -g 0.1 -r 1 -c 1
svm iris_rbf iris.train.libsvm iris.test.libsvm -s 0 -t 2 -c 1
lin heart_s3 heart_scale.libsvm heart_scale.libsvm -s 3 -c 1 -B 1 -e 0.01
lin heart_s1 heart_scale.libsvm heart_scale.libsvm -s 1 -c 1 -B 1 -e 0.001
lin heart_s3_default heart_scale.libsvm heart_scale.libsvm -s 3 -c 1 -B 1
lin iris_s3 iris.train.libsvm iris.test.libsvm -s 3 -c 1 -B 1 -e 0.01
