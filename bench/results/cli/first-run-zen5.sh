#!/bin/sh
# The first `go run` of the main command from a clone, with empty module
# and build caches: each run gets fresh GOMODCACHE and GOCACHE directories,
# so every module is downloaded from GOPROXY and every package (the standard
# library's too) is compiled. The yardstick is a bare net/http hello program
# in a module of its own, run the same way.
#
# Usage, from the repository root: sh bench/results/cli/first-run-zen5.sh
# (RUNS=n sets the runs of each; 2 by default; CMD sets what is run, from
# the repository root: "./cmd/rosenblatt cpu" by default; ROOTS="DIR ..."
# runs CMD in each of several checkouts, say a worktree of an older commit
# and this one, each round running every root then the yardstick, so that
# they share the machine's load). Prints the CPU, the load average before
# each run and what /usr/bin/time -v reports.
#
# PROFILE=FILE adds one go build of CMD's package with empty caches whose
# compiler runs are timed (go build -toolexec): FILE gets a line
# "user system wall package" per compiled package, and the script prints
# the CPU seconds of the 15 most expensive and the total of the module's.
set -eu
runs=${RUNS:-2}
cmd=${CMD:-./cmd/rosenblatt cpu}
roots=${ROOTS:-$(pwd)}
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
	for root in $roots; do
		# shellcheck disable=SC2086 # CMD is a package and its arguments
		first "$root" $cmd
	done
	first "$hello" .
	i=$((i + 1))
done

if [ -n "${PROFILE:-}" ]; then
	tx=$(mktemp -d)
	cat >"$tx/time.sh" <<'TX'
#!/bin/sh
# go build -toolexec: runs the tool; for the compiler, appends
# "user system wall package" to $PROFILE.
case "$1" in
*/compile)
	pkg=$(printf '%s\n' "$@" | awk 'prev == "-p" { print; exit } { prev = $0 }')
	exec /usr/bin/time -a -o "$PROFILE" -f "%U %S %e $pkg" "$@" ;;
*) exec "$@" ;;
esac
TX
	chmod +x "$tx/time.sh"
	: >"$PROFILE"
	echo "== $(date -u +%H:%M:%S) compile profile of ${cmd%% *}, empty caches"
	uptime
	GOMODCACHE=$tx/mod GOCACHE=$tx/build GOFLAGS="-modcacherw ${GOFLAGS:-}" PROFILE=$PROFILE \
		go build -toolexec="$tx/time.sh" -o /dev/null "${cmd%% *}"
	mod=$(go list -m)
	awk '{ printf "%7.2f  %s\n", $1 + $2, $4 }' "$PROFILE" | sort -rn | head -15
	awk -v mod="$mod" '{ c = $1 + $2; all += c; if (index($4, mod) == 1) ours += c }
		END { printf "compile CPU: %.1f s in all, %.1f s in %s\n", all, ours, mod }' "$PROFILE"
	rm -rf "$tx"
fi
