package quant

import (
	"errors"
	"fmt"

	"github.com/rosenblatt-go/rosenblatt/linear"
)

// Sentinel errors. Every error of this package wraps one of them. Those
// that have a counterpart in package linear wrap it too, so that a
// caller serving both kinds of model tests errors.Is(err,
// linear.ErrCorrupt) alike.
var (
	// ErrDims reports a sample or destination of the wrong length.
	ErrDims = fmt.Errorf("quant: %w", linear.ErrDims)
	// ErrNonFinite reports a NaN or ±Inf value in a float32 sample, or a
	// score beyond float32's range.
	ErrNonFinite = fmt.Errorf("quant: %w", linear.ErrNonFinite)
	// ErrScale reports an input scale that is not finite and > 0.
	ErrScale = errors.New("quant: bad input scale")
	// ErrUnsupported reports a model New cannot quantise: a voted one, one
	// with more than MaxDims features, or with weights or biases float32
	// cannot hold.
	ErrUnsupported = fmt.Errorf("quant: %w", linear.ErrUnsupported)
	// ErrCorrupt reports a quantised model file that is truncated, fails
	// its checksum, or holds inconsistent values.
	ErrCorrupt = fmt.Errorf("quant: %w", linear.ErrCorrupt)
	// ErrVersion reports a model file of a format version this package
	// does not read.
	ErrVersion = fmt.Errorf("quant: %w", linear.ErrVersion)
	// ErrMismatch reports a valid model file of another kind (a float
	// linear or kernel model).
	ErrMismatch = fmt.Errorf("quant: %w", linear.ErrMismatch)
)
