package perceptrontrain

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync/atomic"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/svm"
)

// Epoch is perceptron.Epoch, field for field (perceptron converts one to
// the other): the statistics of one training epoch, documented there.
type Epoch struct {
	Epoch     int
	Samples   int
	Steps     int
	Mistakes  int
	Updates   int
	Loss      float64
	Accuracy  float64
	Objective float64
}

// Diagnostics is perceptron.Diagnostics, field for field but for the
// types of Epochs and Classes (perceptron converts it once per fit): a
// training run and the model it returned, documented there.
type Diagnostics struct {
	Epochs    []Epoch
	Converged bool
	Stopped   bool
	Updates   int

	Evaluated     bool
	TrainAccuracy float64
	TrainLoss     float64
	Separable     bool

	Margin          float64
	Radius          float64
	Bound           float64
	MarginAugmented float64
	RadiusAugmented float64
	BoundAugmented  float64

	DataMargin    *svm.Margin
	DataMarginErr error

	Classes []Diagnostics
}

// EndEpoch records epoch number ep, marks the diagnostics converged when the
// epoch met the algorithm's convergence test (stopping training if stop),
// and runs the caller's per-epoch callback, for which ErrStop ends training
// and any other error aborts it. It reports whether training ends.
func (d *Diagnostics) EndEpoch(ep int, e Epoch, converged, stop bool, callback func(Epoch) error) (done bool, err error) {
	d.Epochs = append(d.Epochs, e)
	d.Updates += e.Updates
	if converged {
		d.Converged, done = true, stop
	}
	if callback != nil {
		if err := callback(e); err != nil {
			if !errors.Is(err, ErrStop) {
				return false, fmt.Errorf("perceptron: callback after epoch %d: %w", ep, err)
			}
			d.Stopped, done = true, true
		}
	}
	return done, nil
}

// SetMargins fills the margins and bounds from a class's evaluation:
// minMargin is its smallest y·(w·x + b), minRaw the same before
// ScaleAugmented's factor, nw and nb are ‖w‖² and b², r2 and r2aug the
// squared radii (see perceptron.Diagnostics).
func (d *Diagnostics) SetMargins(minMargin, minRaw, nw, nb, r2, r2aug float64) {
	d.Separable = minMargin > 0 && nw+nb > 0
	d.Margin, d.MarginAugmented, d.Bound, d.BoundAugmented = 0, 0, 0, 0
	if nw+nb > 0 {
		d.MarginAugmented = minMargin / math.Sqrt(nw+nb)
	}
	if nw > 0 {
		d.Margin = minRaw / math.Sqrt(nw)
	}
	if d.Separable {
		d.BoundAugmented = r2aug / (d.MarginAugmented * d.MarginAugmented)
		if d.Margin > 0 {
			d.Bound = r2 / (d.Margin * d.Margin)
		}
	}
}

// ClassStats are one class's statistics of one epoch.
type ClassStats struct {
	Mistakes, Updates int
	Loss              float64
	MinMargin         float64 // min y·(w·x + b) over the correct samples (epochSeq only)
	// NonFinite reports a non-finite score, or (SVM) norm or scale, seen
	// during the epoch: training diverged.
	NonFinite bool
	// First is, in a checked epoch (see Locate), the first non-finite
	// value of the class.
	First DivEvent
}

// VotedBudget is the memory budget of a voted perceptron's kept state,
// shared by its classes (which may train on parallel goroutines).
type VotedBudget struct {
	Max  int64        // bytes; < 0 no limit
	Used atomic.Int64 // bytes kept, with the reserve for the final vectors
	Over atomic.Bool  // a class was refused
}

// Take reserves n more bytes, or reports that they would exceed the
// budget.
func (b *VotedBudget) Take(n int64) bool {
	if b.Used.Add(n) > b.Max && b.Max >= 0 {
		b.Used.Add(-n)
		b.Over.Store(true)
		return false
	}
	return true
}

// Groups splits the K classes into at most workers contiguous, nearly
// equal ranges.
func Groups(K, workers int) [][2]int {
	p := max(1, min(workers, K))
	g := make([][2]int, p)
	for i := range p {
		g[i] = [2]int{i * K / p, (i + 1) * K / p}
	}
	return g
}

// DataMargins measures the data margin of every binary problem of a
// trainer: X (n rows of d values) are the points as trained on, cls the
// class of each (for a binary model 0 is the positive class), kern the
// kernel and bias whether the model adds a bias the points do not carry
// (on the constant feature bfeat, the Options.BiasFeature). workers and
// impl are svm.MarginOptions'. It fills diag.DataMargin (K = 1) or each
// class's.
func DataMargins[T kernel.Float](X []T, d int, cls []int32, K int, kern gram.Kernel, bias bool, bfeat float64, workers int, impl *kernel.Impl, diag *Diagnostics) {
	bf := 0.0 // no bias: svm's NoBias; a bias: the weight of the constant feature
	if bias {
		bf = bfeat
		if bf == 0 {
			bf = 1
		}
	}
	// The margin is the points' own: solve it in float64 whatever T (a
	// float32 kernel matrix resolves no margin below about 10⁻³·R).
	X64, ok := any(X).([]float64)
	if !ok {
		X64 = make([]float64, len(X))
		for i, v := range X {
			X64[i] = float64(v)
		}
	}
	y := make([]int, len(cls))
	for c := range K {
		for i, v := range cls {
			y[i] = -1
			if int(v) == c {
				y[i] = 1
			}
		}
		mg, err := svm.MaxMargin(context.Background(), dataset.NewData(X64, d, nil), y,
			svm.MarginOptions{Kernel: kern, NoBias: !bias, BiasFeature: bf, Workers: workers, Impl: impl})
		dg := diag
		if K > 1 {
			dg = &diag.Classes[c]
		}
		dg.DataMargin, dg.DataMarginErr = mg, err
	}
}
