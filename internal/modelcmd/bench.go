package modelcmd

import (
	"context"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/internal/benchcmd"
	"github.com/rosenblatt-go/rosenblatt/perceptron"
)

// bench's training and Gram cases run perceptron.Fit and gram.Compute of
// float32 made here: this package compiles them for its own training, and
// benchcmd making them too would compile them, with linear.Model[float32]'s
// methods, a second time (Go compiles an instantiation in each package
// that makes it).
func init() {
	benchcmd.Fit = func(ctx context.Context, X *dataset.Data[float32], opt perceptron.Options) (*fit.Report, error) {
		_, rep, err := perceptron.Fit(ctx, X, X.Y, opt)
		return rep, err
	}
	benchcmd.Gram = func(X []float32, d int, opts *gram.Options) error {
		_, err := gram.Compute(X, d, gram.Linear{}, opts)
		return err
	}
}
