package main

import (
	"github.com/rosenblatt-go/rosenblatt/internal/modelcmd"
	"github.com/rosenblatt-go/rosenblatt/internal/smalltest"
)

// In a small run (qemu, the race detector: package smalltest) the demo's
// separable part, which
// five tests run, trains on 500 rows instead of 2000: the same perceptron
// and hard-margin SVM code on the same 64 features, with the exact solve,
// by far the demo's most expensive step, on a quarter of the rows. The
// native run tests the demo as users run it.
func init() {
	if smalltest.Small() {
		modelcmd.SmallDemo()
	}
}
