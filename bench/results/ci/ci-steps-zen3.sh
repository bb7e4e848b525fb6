#!/bin/bash
# The CPU time (user + system of the command and its children) and wall time
# of the .ci/run steps that commit changed, before and after, each from
# its own empty GOCACHE where the step compiles (as on CI's fresh machine) or
# from a warm one where only the test run changed. From the repository root:
# bash bench/results/ci/ci-steps-zen3.sh [ROUNDS]   (about 40 CPU-minutes)
set -u
rounds=${1:-2}
export CGO_ENABLED=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
m() { # label command...: one line of figures
	local label=$1 l0 u s e
	shift
	l0=$(cut -d' ' -f1-3 /proc/loadavg)
	/usr/bin/time -f '%U %S %e' -o "$tmp/t" "$@" >"$tmp/out" 2>&1 || { tail -20 "$tmp/out"; echo "$label failed"; }
	read -r u s e <"$tmp/t"
	printf '%-26s cpu %6.1f s (user %s, sys %s)  wall %6.1f s  load %s -> %s\n' "$label" "$(echo "$u+$s" | bc)" "$u" "$s" "$e" "$l0" "$(cut -d' ' -f1-3 /proc/loadavg)"
}
fresh() { rm -rf "$tmp/cache"; export GOCACHE=$tmp/cache; }
racefree='^(TestOutputToDescriptor|TestStdoutFullDevice|TestAtomicWriteFileSizeLimit|TestIDXHeaderBounds|TestReadLIBSVMDirect|TestGzipRatio)$'
racepkgs=$(go list ./... | grep -v -e '/kernel$' -e '/internal/modelkern$')
small="./cmd/rosenblatt ./dataset ./gram ./internal/fixtures ./internal/modelkern ./serve" # the packages that read ROSENBLATT_TEST_SMALL
for r in $(seq "$rounds"); do
	# go vet for 386, from an empty cache: before, then with -N -l.
	fresh; m "vet-386 before r$r" env GOARCH=386 go vet ./...
	fresh; m "vet-386 -N-l r$r" env GOARCH=386 go vet -gcflags='all=-N -l' ./...
done
# The vet that go test runs (the default analyzers): test binaries built and
# vet done, one analyzer asked for (not in the cache), against -vet=off.
fresh; go vet ./... >/dev/null; go test -count=1 -run '^$' ./... >/dev/null
m "go test vet=printf only" go test -vet=printf -count=1 -run '^$' ./...
m "go test vet=off" go test -vet=off -count=1 -run '^$' ./...
# The race detector's step, from an empty cache, before and after (-json
# kept for the per-test times).
fresh; m "race step before" env CGO_ENABLED=1 ROSENBLATT_TEST_SMALL=1 go test -json -race -short $racepkgs
fresh; m "race step after" env CGO_ENABLED=1 ROSENBLATT_TEST_SMALL=1 go test -json -vet=off -race -short -skip "$racefree" $racepkgs
for r in $(seq "$rounds"); do # the two packages with skipped tests, warm cache
	m "race cmd+dataset skip r$r" env CGO_ENABLED=1 ROSENBLATT_TEST_SMALL=1 go test -vet=off -count=1 -race -short -skip "$racefree" ./cmd/rosenblatt ./dataset
	m "race cmd+dataset all r$r" env CGO_ENABLED=1 ROSENBLATT_TEST_SMALL=1 go test -vet=off -count=1 -race -short ./cmd/rosenblatt ./dataset
done
# purego, the packages that read ROSENBLATT_TEST_SMALL (warm cache).
go test -vet=off -tags purego -count=1 -run '^$' $small >/dev/null
for r in $(seq "$rounds"); do
	for s in 0 1; do
		m "purego SMALL=$s r$r" env ROSENBLATT_TEST_SMALL=$s go test -vet=off -tags purego -count=1 $small
	done
done
