package expansion

import (
	"errors"
	"fmt"

	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// Float is the element type of a model: float32 or float64.
type Float = kernel.Float

// Sentinel errors. Every error this package returns wraps one of them, so
// callers can test the cause with errors.Is; the message adds the details.
var (
	// ErrDims reports inconsistent sizes: a sample whose length is not the
	// model's feature count, a destination of the wrong length, a batch
	// whose length is not a multiple of the feature count.
	ErrDims = errors.New("expansion: dimension mismatch")
	// ErrNonFinite reports a NaN or ±Inf in a sample to score, or a
	// sample whose kernel values or scores overflow the element type.
	ErrNonFinite = errors.New("expansion: non-finite value")
	// ErrModel reports an inconsistent model: New given parts whose sizes
	// or values do not fit together, or a call on a zero Model.
	ErrModel = errors.New("expansion: invalid model")
	// ErrCorrupt reports a model file or JSON document that is truncated,
	// modified or inconsistent (see Model.UnmarshalBinary). An error that
	// also names the inconsistency New found wraps ErrModel too.
	ErrCorrupt = errors.New("expansion: corrupt model file")
	// ErrVersion reports a model file written by a format version this
	// package does not read.
	ErrVersion = errors.New("expansion: unsupported model file version")
	// ErrMismatch reports a valid model file that a Model cannot hold:
	// another element type (float32 against float64) or another
	// package's model (a linear one).
	ErrMismatch = errors.New("expansion: model file does not match the receiver")
)

// gramErr translates an error of package gram into this package's
// sentinels, keeping gram's error in the chain too.
func gramErr(err error) error {
	kind := ErrDims
	switch {
	case errors.Is(err, gram.ErrInvalidKernel), errors.Is(err, gram.ErrImpl):
		kind = ErrModel
	case errors.Is(err, gram.ErrNonFinite), errors.Is(err, gram.ErrOverflow):
		kind = ErrNonFinite
	}
	return fmt.Errorf("%w: %w", kind, err)
}

// finite reports whether every value of x is finite.
func finite[T Float](x []T) bool {
	for _, v := range x {
		if v-v != 0 {
			return false
		}
	}
	return true
}
