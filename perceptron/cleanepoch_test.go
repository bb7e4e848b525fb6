package perceptron

import (
	"fmt"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/linear"

	"github.com/stretchr/testify/require"

	"github.com/rosenblatt-go/rosenblatt/dataset"
)

// TestCleanEpochsRepeat checks the epochs that follow a clean sweep under
// Options.Stop = StopNever, which a sparse fit of Online, Averaged or Voted counts
// without visiting a sample (linTrainer.cleanEpoch): the model (every bit
// of its file: weights, the average's steps, the voted survival counts)
// and the diagnostics are those of the same fit run epoch by epoch, binary
// and one-vs-rest, float32 and float64, with one and two workers, on data
// with non-integer values, where a visit scored with different bits would
// show.
func TestCleanEpochsRepeat(t *testing.T) {
	rng := newRand(61)
	const K = 4
	c64 := textLike[float64](rng, 300, 1<<10, 7, K)
	for k := range c64.Val {
		c64.Val[k] = rng.Float64()*2 - 0.4
	}
	c32 := &dataset.CSR[float32]{Ptr: c64.Ptr, Idx: c64.Idx, Val: make([]float32, len(c64.Val)), Y: c64.Y, Rows: c64.Rows, Cols: c64.Cols}
	for k, v := range c64.Val {
		c32.Val[k] = float32(v)
	}
	binary := make([]int, len(c64.Y))
	for i, y := range c64.Y {
		binary[i] = 1 - 2*(y%2)
	}
	skipped := false
	for _, algo := range []linear.Algorithm{linear.Online, linear.Averaged, linear.Voted} {
		for _, multi := range []bool{false, true} {
			for _, workers := range []int{1, 2} {
				name := fmt.Sprintf("%v/multi=%v/workers=%d", algo, multi, workers)
				o := Options{Algorithm: algo, MaxIter: 40, Stop: StopNever, Shuffle: true, Seed: 4, Workers: workers, BiasFeature: 0.5}
				y := binary
				if multi {
					y = c64.Y
				}
				t.Run(name+"/float64", func(t *testing.T) {
					if cleanBefore(t, o, c64, y, multi) {
						skipped = true
					}
				})
				t.Run(name+"/float32", func(t *testing.T) {
					cleanBefore(t, o, c32, y, multi)
				})
			}
		}
	}
	require.True(t, skipped, "no fit had a clean epoch before its last: the repeated epochs are not tested")

	// The fits above took the shortcut: their trainers vouch for it.
	require.True(t, averagedOvRTrainer(t, 1)().repeatsClean())
	lt := averagedOvRTrainer(t, 1)()
	lt.cfg.algo = linear.SVM
	require.False(t, lt.repeatsClean(), "SVM shrinks its weights at every step")
}

// cleanBefore trains X, y with the clean epochs counted and again with
// every epoch run, requires the same model and diagnostics, and reports
// whether an epoch before the last was clean (so that later epochs were
// counted, not run).
func cleanBefore[T kernel.Float](t *testing.T, o Options, X *dataset.CSR[T], y []int, multi bool) bool {
	t.Helper()
	fit := func() (*linear.Model[T], *Diagnostics) {
		var m *linear.Model[T]
		var d *Diagnostics
		var err error
		if multi {
			m, d, err = trainMultiSparse(X, y, o)
		} else {
			m, d, err = trainBinarySparse(X, y, o)
		}
		require.NoError(t, err)
		return m, d
	}
	fast, fd := fit()
	repeatCleanEpochs = false
	slow, sd := fit()
	repeatCleanEpochs = true
	require.True(t, sameModel(t, fast, slow), "the model differs from the one trained epoch by epoch")
	require.True(t, sameDiagnostics(fd, sd, true), "diagnostics differ:\ncounted %+v\nrun     %+v", *fd, *sd)
	for _, e := range fd.Epochs[:len(fd.Epochs)-1] {
		if e.Mistakes == 0 {
			return true
		}
	}
	return false
}
