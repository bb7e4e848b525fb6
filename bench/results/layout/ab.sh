#!/usr/bin/env bash
# ab.sh: the Go benchmarks behind the README's figures ("Against the peers"
# and docs/benchmarks/*.md), run on two revisions in the same run, rounds
# interleaved, then compared.
#
#   bench/results/layout/ab.sh [A [B]]        (default: 12801f6 HEAD)
#
# Each revision is exported (git archive) into a temporary directory and its
# test binaries are built there once; then every round runs every benchmark
# on A, then on B (ABAB…, so that load which changes during the run falls on
# both), and at the end benchstat compares B against A (A is the base: a
# ratio below 1 in a time column, or above 1 in a rate column, is B faster).
#
# What runs (each a README figure or the benchmark its page names):
#   kernels   bench  BenchmarkDot float32 n=1024, ours ("auto") and vek, at the
#                    active implementation and with ROSENBLATT_KERNEL=avx2
#                    (a proxy for an AVX2-only CPU on an AVX-512 machine)
#   gram      bench  BenchmarkGram 4096×784 float32, 1 thread, avx2-capped
#   perceptron       BenchmarkTrain, Fashion-MNIST averaged one-vs-rest
#                    (1 goroutine) and synth256 averaged (dense fits);
#                    BenchmarkPredictSparse (sparse prediction);
#                    BenchmarkTextOvRParts/fit (the sparse text fit of the
#                    README's perceptron row) when ROSENBLATT_TEXTSET names
#                    a set made by bench/textset
#   svm       svm    BenchmarkSVM, RBF, Fashion-MNIST 10 000 rows, fit-s and
#                    predict-s, active and avx2-capped; BenchmarkLinearSVM on
#                    the 60 000 rows (set LINEAR=0 to leave it out: ~20 s a fit)
#   int8      bench  BenchmarkQuantPredict d=784 (float32 model, quantised)
#   text      text   BenchmarkFeaturize (thread CPU: cpu-MB/s)
#   serving   serve  BenchmarkHandlerCPU (thread CPU: cpu-ns/op)
#
# Time: the cpu-ns/op and cpu-MB/s columns are CPU time of the measuring
# thread, and each benchmark run of a fixed number of iterations (-benchtime
# Nx) adds a line …/process with the whole test process's CPU time
# (cpu-s/run: user + system, its setup included, the same in A and B); the
# others are wall time, which load on a shared machine inflates for both
# revisions alike when rounds interleave (compare medians, and rerun a
# benchmark whose spread is wide). Settings (environment):
#   ROUNDS=4   rounds per revision
#   OUT=dir    where the raw output goes (default: a new directory under
#              bench/results/layout/ab-<A>-<B>/)
#   LINEAR=1   run BenchmarkLinearSVM
#   ONLY=re    run only the cases (lines of the table below) matching re
# A benchmark whose package does not build at a revision, or that is absent
# there, is reported as missing and the rest goes on. About 12–15 minutes on
# 2 vCPUs with the defaults.
set -euo pipefail

A=${1:-12801f6}
B=${2:-HEAD}
ROUNDS=${ROUNDS:-4}
LINEAR=${LINEAR:-1}
root=$(git rev-parse --show-toplevel)
ra=$(git -C "$root" rev-parse --short=7 "$A")
rb=$(git -C "$root" rev-parse --short=7 "$B")
OUT=${OUT:-$root/bench/results/layout/ab-$ra-$rb}
mkdir -p "$OUT"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

log() { echo "$(date -u +%H:%M:%S) $*" >&2; }

# The benchmarks: package; -test.bench pattern; -test.benchtime; ROSENBLATT_KERNEL; name suffix
cases=(
	"bench;^BenchmarkDot\$/^impl=(auto|vek)\$/^type=f32\$/^n=1024\$;300ms;;"
	"bench;^BenchmarkDot\$/^impl=(auto|vek)\$/^type=f32\$/^n=1024\$;300ms;avx2;/kernel=avx2"
	"bench;^BenchmarkGram\$/^impl=auto\$/^type=f32\$/^threads=1\$/^n=4096\$/^d=784\$;3x;avx2;/kernel=avx2"
	"perceptron;^BenchmarkTrain\$/^data=fashion-mnist\$/^algo=averaged-ovr-1goroutine\$;1x;;"
	"perceptron;^BenchmarkTrain\$/^data=synth256\$/^algo=averaged\$;3x;;"
	"perceptron;^BenchmarkPredictSparse\$;200ms;;"
	"svm;^BenchmarkSVM\$/^data=fashion-mnist-10k\$/^kernel=rbf\$/^multiclass=ovo\$;1x;;"
	"svm;^BenchmarkSVM\$/^data=fashion-mnist-10k\$/^kernel=rbf\$/^multiclass=ovo\$;1x;avx2;/kernel=avx2"
	"bench;^BenchmarkQuantPredict\$/^d=784\$;200ms;;"
	"text;^BenchmarkFeaturize\$;500ms;;"
	"serve;^BenchmarkHandlerCPU\$;300ms;;"
)
if [ -n "${ROSENBLATT_TEXTSET:-}" ]; then
	cases+=("perceptron;^BenchmarkTextOvRParts\$/^fit\$;20x;;")
fi
if [ "$LINEAR" = 1 ]; then
	cases+=("svm;^BenchmarkLinearSVM\$/^data=fashion-mnist\$/^\$;1x;;") # not /threads=2
fi
if [ -n "${ONLY:-}" ]; then
	kept=()
	for c in "${cases[@]}"; do
		if echo "$c" | grep -qE -- "$ONLY"; then kept+=("$c"); fi
	done
	cases=("${kept[@]}")
fi

# Export and build. Packages of the root module are built from its root; the
# bench module (nested, with a replace of the root) from bench/.
pkgs=$(for c in "${cases[@]}"; do echo "${c%%;*}"; done | sort -u)
for tag in A B; do
	rev=$A
	[ "$tag" = B ] && rev=$B
	mkdir -p "$tmp/$tag/src" "$tmp/$tag/bin"
	git -C "$root" archive "$rev" | tar -x -C "$tmp/$tag/src"
	for p in $pkgs; do
		log "build $tag ($rev) $p"
		if [ "$p" = bench ]; then
			(cd "$tmp/$tag/src/bench" && nice -n 5 go test -trimpath -c -o "$tmp/$tag/bin/$p.test" .) >"$tmp/$tag/build-$p.log" 2>&1 ||
				log "  $p does not build at $rev (see $OUT/build-$tag-$p.log)"
		else
			(cd "$tmp/$tag/src" && nice -n 5 go test -trimpath -c -o "$tmp/$tag/bin/$p.test" "./$p") >"$tmp/$tag/build-$p.log" 2>&1 ||
				log "  $p does not build at $rev (see $OUT/build-$tag-$p.log)"
		fi
		if [ -s "$tmp/$tag/build-$p.log" ]; then cp "$tmp/$tag/build-$p.log" "$OUT/build-$tag-$p.log"; fi
	done
done

run() { # tag, case
	local tag=$1 p pat bt env suffix bin dir name cpu
	IFS=';' read -r p pat bt env suffix <<<"$2"
	bin=$tmp/$tag/bin/$p.test
	[ -x "$bin" ] || return 0
	dir=$tmp/$tag/src/$p
	(
		cd "$dir"
		if [ -n "$env" ]; then export ROSENBLATT_KERNEL=$env; else unset ROSENBLATT_KERNEL; fi
		/usr/bin/time -f '%U %S' -o "$tmp/cpu" \
			"$bin" -test.run '^$' -test.bench "$pat" -test.benchtime "$bt" -test.count 1 -test.benchmem 2>&1 ||
			echo "# $p $pat failed at $tag"
	) | if [ -n "$suffix" ]; then
		sed -E "s|^(Benchmark[^[:space:]]*)-([0-9]+)([[:space:]])|\1$suffix-\2\3|"
	else
		cat
	fi
	# The whole process's CPU time (user + system, setup included) of a run
	# of a fixed number of iterations (-benchtime Nx): load inflates it far
	# less than the wall time of the lines above.
	case $bt in
	*x)
		name=$(echo "$pat" | tr -d '^$\\')
		cpu=$(awk 'NF == 2 { print $1 + $2 }' "$tmp/cpu" | tail -1)
		[ -n "$cpu" ] && echo "$name$suffix/process 1 $cpu cpu-s/run"
		;;
	esac
	return 0
}

{
	echo "# ab.sh A=$A ($ra) B=$B ($rb) ROUNDS=$ROUNDS"
	echo "# start $(date -u '+%Y-%m-%d %H:%M:%S UTC'); uptime: $(uptime)"
	(cd "$tmp/B/src" && go run ./cmd/rosenblatt cpu 2>&1 | head -5) | sed 's/^/# /' || true
} >"$OUT/header.txt"
cat "$OUT/header.txt" >&2
: >"$OUT/A.txt"
: >"$OUT/B.txt"
for r in $(seq 1 "$ROUNDS"); do
	for c in "${cases[@]}"; do
		for tag in A B; do
			log "round $r/$ROUNDS $tag $c"
			run "$tag" "$c" >>"$OUT/$tag.txt"
		done
	done
	echo "# after round $r: $(uptime)" >>"$OUT/header.txt"
done
echo "# end $(date -u '+%Y-%m-%d %H:%M:%S UTC'); uptime: $(uptime)" >>"$OUT/header.txt"

# Compare: benchstat (golang.org/x/perf/cmd/benchstat) if it can be had,
# else medians and their ratio.
bs=$(command -v benchstat || true)
[ -z "$bs" ] && [ -x "$(go env GOPATH)/bin/benchstat" ] && bs=$(go env GOPATH)/bin/benchstat
{
	cat "$OUT/header.txt"
	echo
	if [ -n "$bs" ]; then
		(cd "$OUT" && "$bs" A.txt B.txt)
	else
		echo "# benchstat not found: median of the rounds, B/A"
		awk '
			FNR == 1 { tag = (FILENAME ~ /A\.txt$/) ? "A" : "B" }
			/^Benchmark/ {
				for (i = 3; i + 1 <= NF; i += 2) {
					k = $1 SUBSEP $(i + 1); keys[k] = 1
					n = ++cnt[tag, k]; val[tag, k, n] = $i
				}
			}
			function med(t, k,   n, i, j, a, x) {
				n = cnt[t, k]; if (n == 0) return ""
				for (i = 1; i <= n; i++) a[i] = val[t, k, i]
				for (i = 2; i <= n; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
				return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
			}
			END {
				for (k in keys) {
					split(k, s, SUBSEP); ma = med("A", k); mb = med("B", k)
					printf "%-90s %-14s %14s %14s %8s\n", s[1], s[2], ma, mb, (ma != "" && mb != "" && ma != 0) ? sprintf("%.3f", mb / ma) : "missing"
				}
			}' "$OUT/A.txt" "$OUT/B.txt" | sort
	fi
} | tee "$OUT/compare.txt"
