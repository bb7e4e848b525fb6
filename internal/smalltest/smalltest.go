// Package smalltest tells a test whether it runs where every instruction
// is slow, so that a test of portable code, whose full-size case the plain
// native run already covers, can run a smaller case there.
//
// CI runs the arm64 tests under qemu-aarch64 and the AVX2 path under
// qemu-x86_64 -cpu Haswell, tens of times slower than the host, and the
// race detector's run, several times slower, with ROSENBLATT_TEST_SMALL=1
// in the environment (go test -exec passes it on, and a test's child
// processes inherit it). A test that shrinks there still runs every code
// path it runs natively, assembly included: only the number of random
// cases or the size of generated input goes down, never below what the
// path needs (a kernel's tails, a parser's fast and slow paths).
package smalltest

import (
	"os"
	"strconv"
)

// Env is the environment variable that asks for small cases: a value that
// strconv.ParseBool reads as true.
const Env = "ROSENBLATT_TEST_SMALL"

// Small reports whether Env asks for small cases.
func Small() bool {
	v, err := strconv.ParseBool(os.Getenv(Env))
	return err == nil && v
}

// N is full, or small when Env asks for small cases.
func N(full, small int) int {
	if Small() {
		return small
	}
	return full
}
