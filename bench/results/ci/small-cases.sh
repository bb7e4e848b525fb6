#!/bin/sh
# The CPU time of the tests that run smaller cases in a small run
# (ROSENBLATT_TEST_SMALL=1, package internal/smalltest), under qemu-aarch64,
# each test binary run with the variable unset (0) and set (1). From the
# repository root: sh bench/results/ci/small-cases.sh
set -eu
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
uptime
for spec in "dataset:TestSynth256Reference|TestParseFloatExact|TestGzipRatio|TestReadCSVIsEncodingCSV|TestCSVScannerIsEncodingCSV" \
	"cmd/rosenblatt:TestCLIInProcess/(no_arguments|demo)|TestRunExitCodes|TestStdoutWriteErrors" \
	"gram:TestComputeEveryPathAndShape" "internal/modelkern:TestQuantizeU8" "internal/fixtures:TestFashionMNIST\$"; do
	pkg=${spec%%:*} run=${spec#*:}
	GOARCH=arm64 CGO_ENABLED=0 go test -c -o "$out/t" "./$pkg"
	for small in 0 1; do
		(cd "$pkg" && ROSENBLATT_TEST_SMALL=$small /usr/bin/time -f "$pkg -run '$run' ROSENBLATT_TEST_SMALL=$small: %U+%S s CPU, %e s wall" \
			qemu-aarch64 "$out/t" -test.run "$run" -test.count=1 2>&1 | tail -2)
	done
done
uptime
