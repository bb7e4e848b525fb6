package benchcmd

import (
	"context"
	"errors"
	"fmt"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/linear"
	"github.com/rosenblatt-go/rosenblatt/perceptron"
)

// Fit and Gram are the library's generic functions that the training and
// Gram cases time, of float32: perceptron.Fit (the model dropped) and
// gram.Compute (the matrix dropped, the kernel gram.Linear). The command
// sets them (cmd/rosenblatt's init, as do this package's tests): it
// compiles these instantiations for its own training anyway, and Go
// compiles an instantiation, with every method of the generic types it
// names (linear.Model[float32]'s 200-odd), in each package that makes it.
// Run fails with ErrNotWired if either is nil.
var (
	Fit  func(ctx context.Context, X *dataset.Data[float32], opt perceptron.Options) (*fit.Report, error)
	Gram func(X []float32, d int, opts *gram.Options) error
)

// ErrNotWired is Run's error when Fit or Gram is not set.
var ErrNotWired = errors.New("benchcmd: Fit and Gram are not set")

// The training-run case of `rosenblatt bench`: one perceptron.Fit of the
// Online perceptron for a fixed number of epochs on small separable data.
//
// perceptron.Options has no exported way to choose the kernel
// implementation (its impl field is for the package's own tests), so the
// run uses the active implementation and is only timed on the "auto" path.
// If the package exports such an option, loop over cfg.paths here as
// gramCases does and update trainCaseCount.

// trainShape is the data of the training case and its number of epochs.
func trainShape(tiny bool) (rows, cols, epochs int) {
	if tiny {
		return 64, 16, 3
	}
	return 4000, 256, 10
}

// trainCaseCount is the number of cases trainCases adds.
func trainCaseCount(cfg benchConfig) int {
	for _, p := range cfg.paths {
		if p.name == autoPath {
			return 1
		}
	}
	return 0
}

// trainCases adds the training-run case and returns a note for the report.
func trainCases(cfg benchConfig, add func(benchCase)) (note string, err error) {
	if trainCaseCount(cfg) == 0 {
		return "no training run: it runs on the auto path only (package perceptron does not let a caller choose the implementation), and -paths excludes auto", nil
	}
	rows, cols, epochs := trainShape(cfg.tiny)
	train, _, err := dataset.SynthSeparable(dataset.SynthOptions{D: cols, Seed: 42, Gamma: 1, NTrain: rows})
	if err != nil {
		return "", fmt.Errorf("training data: %w", err)
	}
	opt := perceptron.Options{Algorithm: linear.Online, MaxIter: epochs, Stop: perceptron.StopNever, Workers: 1}
	// One untimed run gives the number of updates, which is the same on
	// every run: no shuffling, the same data and options.
	rep, err := Fit(context.Background(), train, opt)
	if err != nil {
		return "", fmt.Errorf("training run: %w", err)
	}
	diag := rep.Detail.(*perceptron.Diagnostics)
	r := benchResult{Kernel: "train", Type: "float32", Path: autoPath, Set: "-", Threads: 1,
		Shape: fmt.Sprintf("N=%d D=%d epochs=%d", rows, cols, len(diag.Epochs)),
		Bytes: int64(rows * cols * 4),
		// A margin per sample per epoch and an update (axpy) per mistake;
		// the data preparation and the final diagnostic pass are not
		// counted, so the rate is a lower bound.
		FlopsPerOp: 2*int64(rows)*int64(cols)*int64(len(diag.Epochs)) + 2*int64(cols)*int64(diag.Updates),
		BytesPerOp: 4 * int64(rows) * int64(cols) * int64(len(diag.Epochs)),
		// The data, read once per epoch (the weights stay in L1).
		ReadBytesPerOp: 4 * int64(rows) * int64(cols) * int64(len(diag.Epochs)),
	}
	r.Impl = benchPath{name: autoPath}.implName()
	var failed error
	add(benchCase{res: r, fn: func() {
		if _, err := Fit(context.Background(), train, opt); err != nil && failed == nil {
			failed = err
		}
	}})
	if failed != nil {
		return "", fmt.Errorf("training run: %w", failed)
	}
	return "train is perceptron.Fit (Online, a fixed number of epochs) on the auto path only; its GFLOP/s counts margins and updates, not the data preparation and final diagnostic pass", nil
}
