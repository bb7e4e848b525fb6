#!/bin/sh
# Model file size and test accuracy of the averaged one-vs-rest perceptron
# (10 epochs, shuffled, B = 0.1, as cli-text-zen5 trains it) on the manual-page text sets
# (go -C bench run ./textset [-short] -o /tmp/mantext), written by the
# command before package model (d1e78ce: dense weights with the training
# state) and after (the used columns alone, no state unless -resumable).
# /tmp/rb-old and /tmp/rb-new are go build ./cmd/rosenblatt of each.
set -e
cd /tmp/mantext
sha256sum mantext-name.train.libsvm mantext.train.libsvm
/tmp/rb-new cpu | head -3
for set in mantext-name mantext; do
	for v in old new; do
		/usr/bin/time -f "$set $v: %e s wall, %M KB max RSS" /tmp/rb-$v train -f -q -algo averaged -shuffle -epochs 10 -B 0.1 -o /tmp/mantext/$set.$v.model $set.train.libsvm
		ls -l /tmp/mantext/$set.$v.model | awk -v s="$set $v" '{print s": model file " $5 " bytes"}'
		/tmp/rb-new eval /tmp/mantext/$set.$v.model $set.test.libsvm | grep -i '^accuracy'
	done
	/tmp/rb-new train -f -q -algo averaged -shuffle -epochs 10 -B 0.1 -resumable -o /tmp/mantext/$set.res.model $set.train.libsvm
	ls -l /tmp/mantext/$set.res.model | awk -v s="$set new -resumable" '{print s": model file " $5 " bytes"}'
	cmp /tmp/mantext/$set.new.model /tmp/mantext/$set.res.model >/dev/null || echo "$set: the -resumable file differs (it holds the state)"
done
# The labels each file predicts for every test page, old file against new.
for set in mantext-name mantext; do
	/tmp/rb-new predict /tmp/mantext/$set.old.model $set.test.libsvm > /tmp/mantext/$set.old.pred
	/tmp/rb-new predict /tmp/mantext/$set.new.model $set.test.libsvm > /tmp/mantext/$set.new.pred
	cmp /tmp/mantext/$set.old.pred /tmp/mantext/$set.new.pred && echo "$set: the same $(wc -l < /tmp/mantext/$set.new.pred) predicted labels"
done
