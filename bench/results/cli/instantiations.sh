#!/bin/sh
# Where the compile time of the main command goes: Go compiles a generic
# type's methods (and everything they reach) again in every package that
# needs the type, so a package may spend most of its compile time on code
# it does not contain.
#
# Part 1: for each package of the module on cmd/rosenblatt's path, the
# functions in its compiled archive and how many of them (and of their
# bytes) are instantiations of generic code (symbols with [...]).
# Part 2: one-line probe packages, each compiled RUNS times (3 by
# default) with its dependencies cached: the CPU time (user + system) of
# the go build, and the functions in the archive. A probe lives in a
# temporary directory under internal/ (removed on exit).
#
# Usage, from the repository root: sh bench/results/cli/instantiations.sh
# (PKGS sets the packages of part 1, relative to the root).
set -eu
runs=${RUNS:-3}
mod=$(go list -m)
uptime

echo "== compiled archives: functions, and instantiations among them"
for p in ${PKGS:-linear perceptron svm quant model online serve interop internal/servecmd internal/benchcmd cmd/rosenblatt}; do
	f=$(go list -export -f '{{.Export}}' "./$p")
	go tool nm -size -type "$f" | awk -v p="$p" '$3 == "T" { n++; s += $2; if ($4 ~ /\[/) { g++; gs += $2 } }
		END { printf "%-18s %5d functions %8d bytes; instantiations %5d functions %8d bytes (%.0f%%)\n", p, n, s, g, gs, 100 * gs / s }'
done

dir=internal/zzprobe$$
tmp=$(mktemp -d)
trap 'rm -rf "$dir" "$tmp"' EXIT
mkdir -p "$dir"
probe() { # label, package, declaration
	i=1
	while [ "$i" -le "$runs" ]; do
		printf 'package zzprobe\n\nimport "%s/%s"\n\n%s\n\n// %s %s\n' "$mod" "$2" "$3" "$$" "$i$(date +%N)" >"$dir/p.go"
		/usr/bin/time -f '%U %S' -o "$tmp/t" go build -o "$tmp/p.a" "./$dir"
		cpu=$(awk '{ printf "%.2f", $1 + $2 }' "$tmp/t")
		funcs=$(go tool nm -size -type "$tmp/p.a" | awk '$3 == "T" { n++; s += $2 } END { printf "%d functions, %d bytes", n, s }')
		echo "$1: $cpu CPU-s, $funcs"
		i=$((i + 1))
	done
}
echo "== one-line packages (go build with the dependencies cached)"
probe "serve.MemoryLimit (a plain function: the baseline)" serve 'func F() (int64, string) { return serve.MemoryLimit() }'
probe "serve.New (returns *serve.Server)" serve 'var F = serve.New'
probe "*linear.Model[float32] (a nil pointer)" linear 'func F() *linear.Model[float32] { return nil }'
probe "*online.Learner[float32] (a nil pointer)" online 'func F() *online.Learner[float32] { return nil }'
