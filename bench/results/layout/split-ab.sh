#!/usr/bin/env bash
# split-ab.sh: the perceptron fits before and after the kernel perceptron's
# trainer moved to internal/kernelperceptron (and the machinery both
# trainers share to internal/perceptrontrain), in the same run, rounds
# interleaved, compared with benchstat.
#
#   bench/results/layout/split-ab.sh [A [B]]     (default: main's 60cae27, HEAD)
#
# Each revision is exported (git archive) into a temporary directory and
# its perceptron test binary built there once; every round runs every case
# below on A, then on B (ABAB…: load that changes during the run falls on
# both). Each case is one process of BenchmarkTrain; its lines are the
# wall-clock ns/op and, from /usr/bin/time, the whole process's CPU time
# (user + system) divided by the iterations the benchmark ran (cpu-ns/op:
# setup included, the same for A and B; on a loaded machine this is the
# figure to compare). Settings: ROUNDS=4, OUT=file (raw output), ONLY=re
# (run only the cases whose name matches re), TIME=bt (every case's
# -benchtime, e.g. 3x: a fixed number of fits per process).
set -euo pipefail

A=${1:-60cae27}
B=${2:-HEAD}
ROUNDS=${ROUNDS:-4}
root=$(git rev-parse --show-toplevel)
OUT=${OUT:-$root/bench/results/layout/split-ab.txt}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# name|-bench regexp|-benchtime: each linear rule and the kernel perceptron
# on the two small sets, the synthetic dense binary fits, and on
# Fashion-MNIST the averaged one-vs-rest (one goroutine) and multiclass
# perceptrons and the RBF kernel perceptron on 10 000 rows (one-vs-rest,
# with the Gram matrix shared by the classes, and multiclass).
cases=()
for set in breast-cancer digits; do
	for algo in online batch minibatch averaged voted svm kernel-rbf-averaged; do
		cases+=("$set-$algo|^BenchmarkTrain\$/^data=$set\$/^algo=$algo\$|0.5s")
	done
done
for algo in online averaged; do
	cases+=("synth256-$algo|^BenchmarkTrain\$/^data=synth256\$/^algo=$algo\$|0.5s")
done
cases+=(
	"fashion-averaged-ovr-1goroutine|^BenchmarkTrain$/^data=fashion-mnist$/^algo=averaged-ovr-1goroutine$|1x"
	"fashion-averaged-argmax|^BenchmarkTrain$/^data=fashion-mnist$/^algo=averaged-argmax$|1x"
	"fashion10k-kernel-rbf-ovr|^BenchmarkTrain$/^data=fashion-mnist-10k$/^algo=kernel-rbf-ovr$|1x"
	"fashion10k-kernel-rbf-argmax|^BenchmarkTrain$/^data=fashion-mnist-10k$/^algo=kernel-rbf-argmax$|1x"
)

if [ -n "${ONLY:-}" ]; then
	keep=()
	for c in "${cases[@]}"; do
		[[ ${c%%|*} =~ $ONLY ]] && keep+=("$c")
	done
	cases=("${keep[@]}")
fi

for rev in "$A" "$B"; do
	d="$tmp/$rev"
	mkdir -p "$d"
	git -C "$root" archive "$rev" | tar -x -C "$d"
	(cd "$d" && go test -c -o "$tmp/$rev.test" ./perceptron/)
done

{
	echo "# split-ab.sh $A $B, $(date -u +%FT%TZ), ROUNDS=$ROUNDS ONLY=${ONLY:-} TIME=${TIME:-}"
	echo "# $(uptime)"
	(cd "$root" && go run ./cmd/rosenblatt cpu | sed 's/^/# /')
} >"$OUT"
for r in $(seq "$ROUNDS"); do
	for rev in "$A" "$B"; do
		for c in "${cases[@]}"; do
			IFS='|' read -r name re bt <<<"$c"
			bt=${TIME:-$bt}
			(cd "$tmp/$rev/perceptron" && /usr/bin/time -f '%U %S' -o "$tmp/cpu" \
				"$tmp/$rev.test" -test.run '^$' -test.bench "$re" -test.benchtime "$bt" -test.count 1 \
				-test.benchmem=false >"$tmp/run" 2>&1) || { cat "$tmp/run"; exit 1; }
			read -r u s <"$tmp/cpu"
			# The benchmark lines, tagged with the revision, and one
			# process line per case: CPU seconds over all its iterations.
			awk -v rev="$rev" -v u="$u" -v s="$s" -v name="$name" '
				/^Benchmark/ { print "rev=" rev " " $0; iters += $2 }
				/^(goos|goarch|pkg|cpu):/ { if (!hdr[$0]++) print }
				END { if (iters > 0) printf "rev=%s BenchmarkProcess/case=%s %d %.0f cpu-ns/op\n", rev, name, iters, (u + s) * 1e9 / iters }
			' "$tmp/run" >>"$OUT"
		done
		echo "# round $r $rev done $(date -u +%T) $(uptime | sed 's/.*load/load/')" >>"$OUT"
	done
done
