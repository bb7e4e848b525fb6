#!/bin/sh
# Why the NAME-lines fits of one process vary: textfit prints each fit's
# page faults (getrusage), three processes of 20 fits with the Go
# collector's default GOGC=100, and one each with GOGC=400 and GOGC=off
# (less or no reuse of the previous fits' freed memory: every fresh page
# faults in, at about 18 µs on this KVM guest), -B 0.1, one goroutine.
#
#	go -C bench build -o /tmp/tf-flt ./textfit
#	sh bench/results/text/mantext-faults-zen5.sh /tmp/mantext > bench/results/text/mantext-faults-zen5.txt 2>&1
set -eu
dir=$1
uptime
go run ./cmd/rosenblatt cpu | head -1
git log -1 --format='commit %h %s'
(cd "$dir" && sha256sum mantext-name.train.libsvm mantext-name.test.libsvm)
for p in 1 2 3; do
	echo "== GOGC=100 process $p"
	/tmp/tf-flt -B 0.1 -workers 1 "$dir/mantext-name" 20
done
for g in 400 off; do
	echo "== GOGC=$g"
	GOGC=$g /tmp/tf-flt -B 0.1 -workers 1 "$dir/mantext-name" 20
done
uptime
