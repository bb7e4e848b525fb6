#!/bin/bash
# The CPU time of each phase of rosenblatt train on the manual-page text
# (the summary's "cpu time" line: the process's user + system time while
# it featurizes, trains and saves), three rounds, next to scikit-learn's
# pipeline fit in the same run (raw-sklearn.py; its fit CPU / 20 is what
# the whole path may take for the 20x target). Same files as
# raw-three-2-zen5.sh. Run from the repository root:
#
#	bash bench/results/text/raw-phases-zen5.sh /tmp/mantext > bench/results/text/raw-phases-zen5.txt 2>&1
set -euo pipefail
dir=${1:-/tmp/mantext}
go build -o "$dir/rosenblatt" ./cmd/rosenblatt
echo "# CPU"; "$dir/rosenblatt" cpu | head -3 || true
sha256sum "$dir"/mantext.train.txt "$dir"/mantext.test.txt
t() { /usr/bin/time -f "  wall %e s, user %U s, sys %S s, max RSS %M kB" "$@"; }
for r in 1 2 3; do
  echo; echo "######## round $r"; uptime
  echo "## GOMAXPROCS=1 rosenblatt train -algo averaged -epochs 10"
  t env GOMAXPROCS=1 "$dir/rosenblatt" train -algo averaged -epochs 10 -f -o "$dir/rbp.model" "$dir/mantext.train.txt" | grep -E "time|epochs"
  if [ "$r" = 2 ]; then
    echo "## /usr/bin/python3 bench/results/text/raw-sklearn.py"
    t /usr/bin/python3 bench/results/text/raw-sklearn.py "$dir/mantext.train.txt" "$dir/mantext.test.txt"
  fi
done
echo "# load"; uptime
