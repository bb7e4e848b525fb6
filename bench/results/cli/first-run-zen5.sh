#!/bin/sh
# The first `go run` of the main command from a clone, with empty module
# and build caches: each run gets fresh GOMODCACHE and GOCACHE directories,
# so every module is downloaded from GOPROXY and every package (the standard
# library's too) is compiled. The yardstick is a bare net/http hello program
# in a module of its own, run the same way.
#
# Usage, from the repository root: sh bench/results/cli/first-run-zen5.sh
# (RUNS=n sets the runs of each; 2 by default). Prints the CPU, the load
# average before each run and what /usr/bin/time -v reports.
set -eu
runs=${RUNS:-2}
root=$(pwd)
hello=$(mktemp -d)
trap 'rm -rf "$hello"' EXIT
cat >"$hello/go.mod" <<'MOD'
module hello

go 1.26
MOD
cat >"$hello/main.go" <<'SRC'
package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
)

func main() {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintln(w, "hello")
	}))
	defer s.Close()
	res, err := http.Get(s.URL)
	if err != nil {
		panic(err)
	}
	res.Body.Close()
	fmt.Println(res.Status)
}
SRC

first() { # dir, then go run's arguments
	dir=$1
	shift
	mc=$(mktemp -d) bc=$(mktemp -d)
	echo "== $(date -u +%H:%M:%S) in $dir: go run $*"
	uptime
	log=$(mktemp)
	(cd "$dir" && GOMODCACHE=$mc GOCACHE=$bc GOFLAGS="-modcacherw ${GOFLAGS:-}" /usr/bin/time -v go run "$@" >/dev/null 2>"$log") || true
	grep -E 'Elapsed|Maximum resident|User time|System time|Percent of CPU|Exit status' "$log"
	if ! grep -q 'Exit status: 0' "$log"; then
		sed -n '/Command being timed/q;p' "$log" | grep -v '^go: downloading' | tail -20
	fi
	rm -f "$log"
	echo "   module zips downloaded: $(find "$mc/cache/download" -name '*.zip' 2>/dev/null | wc -l)"
	rm -rf "$mc" "$bc"
}

go version
nproc
go run ./cmd/rosenblatt cpu | head -4
i=1
while [ "$i" -le "$runs" ]; do
	first "$root" ./cmd/rosenblatt cpu
	first "$hello" .
	i=$((i + 1))
done
