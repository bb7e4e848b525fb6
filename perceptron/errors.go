package perceptron

import (
	"errors"
	"fmt"
	"github.com/rosenblatt-go/rosenblatt/linear"
)

// Sentinel errors. Those a model's methods return too are package
// linear's own (ErrDims is linear.ErrDims, and so on), so that one test
// serves both. Every error returned by this package wraps one of them
// (except an error of the caller's own Callback, which is returned wrapped
// as it is), so callers can test the cause with errors.Is; the message adds
// the details (which row, which option, which field of a file).
var (
	// ErrEmpty reports training data with no rows or no values.
	ErrEmpty = errors.New("perceptron: empty data")
	// ErrDims reports inconsistent sizes: zero features, len(X) not a
	// multiple of the column count, len(y) != rows, ragged rows, or a
	// sample whose length is not the model's feature count.
	ErrDims = linear.ErrDims
	// ErrNonFinite reports a NaN or ±Inf feature value (or a row whose
	// squared norm overflows the element type).
	ErrNonFinite = linear.ErrNonFinite
	// ErrLabels reports labels a call cannot use: anything but −1 and +1
	// where a binary API requires them, or a label the model does not know.
	ErrLabels = linear.ErrLabels
	// ErrOneClass reports training labels that are all the same class.
	ErrOneClass = errors.New("perceptron: only one class in the labels")
	// ErrOption reports an invalid or unsupported option: a negative,
	// NaN or infinite η or τ (0 selects the default), a step size that
	// overflows the element type or rounds to 0 in it, B < 0, an unknown
	// algorithm, a combination this package does not implement.
	ErrOption = errors.New("perceptron: invalid option")
	// ErrCorrupt reports a model file or JSON document that is truncated,
	// fails its checksum, or holds inconsistent or non-finite values.
	ErrCorrupt = linear.ErrCorrupt
	// ErrVersion reports a model file written by a newer, unknown format
	// version.
	ErrVersion = linear.ErrVersion
	// ErrMismatch reports a valid model file of another element type
	// (float32 vs float64) or another model kind than the receiver holds.
	ErrMismatch = linear.ErrMismatch
	// ErrUntrained reports a call on a Model that holds no weights (the
	// zero value, before training or UnmarshalBinary).
	ErrUntrained = linear.ErrUntrained
	// ErrUnsupported reports an operation the model cannot do, such as
	// Update or continueDense of an averaged or SVM model read from a version-1
	// file, which does not hold the training state to resume.
	ErrUnsupported = linear.ErrUnsupported
	// ErrBudget reports a memory budget too small for training: a kernel
	// model's KernelOptions.MaxBytes below one row of kernel values, or a
	// voted perceptron whose kept vectors would exceed
	// Options.VotedMaxBytes.
	ErrBudget = errors.New("perceptron: memory budget too small")
	// ErrDiverged reports training that produced a value the element type
	// cannot hold: weights, a bias, a score or an averaging sum that
	// overflowed to ±Inf or became NaN (a step size too large for the
	// data, typically in float32). The error is a *DivergedError naming
	// the epoch and the sample. Training never returns a model with
	// non-finite weights.
	ErrDiverged = linear.ErrDiverged
	// ErrStop may be returned by an Options.Callback to end training early
	// without error: the model trained so far is returned and
	// Diagnostics.Stopped is set. Any other callback error aborts training
	// and is returned wrapped.
	ErrStop = errors.New("perceptron: training stopped by callback")
)

// DivergedError is the error training returns when a value overflows the
// element type (see ErrDiverged, which it wraps). It names the epoch and
// the sample whose visit produced the first non-finite value.
type DivergedError struct {
	// Epoch is the 1-based epoch in which the first non-finite value
	// appeared.
	Epoch int
	// Sample is the row of X being visited when it appeared: the update
	// on that sample made Quantity non-finite, or (Quantity "score") its
	// score overflowed with finite weights. −1 when no sample is to blame
	// (the average of an averaged model, formed after the last epoch).
	Sample int
	// HasClass reports that the model is multiclass (and Class is set).
	HasClass bool
	// Class is the label of the class whose weights or score overflowed.
	Class int
	// Quantity says what became non-finite: "weights", "bias", "score",
	// "averaging sum" (Averaged's u), "averaged weights" (w − u/c, formed
	// after the last epoch), "norm" or "scale" (SVM), and for kernel
	// models "decision values", "coefficients", "averaged coefficients"
	// or "mistake count" (a sample's α at 2³¹−1).
	Quantity string
	// Type is the element type: "float32" or "float64".
	Type string
}

// Error names the epoch, the sample, the class and what overflowed, and
// suggests the usual remedies.
func (e *DivergedError) Error() string {
	where := fmt.Sprintf("in epoch %d", e.Epoch)
	if e.Sample >= 0 {
		where += fmt.Sprintf(", sample %d", e.Sample)
	}
	if e.HasClass {
		where += fmt.Sprintf(", class %d", e.Class)
	}
	what := fmt.Sprintf("the update made the %s non-finite in %s", e.Quantity, e.Type)
	switch {
	case e.Quantity == "score" && e.Sample < 0:
		what = fmt.Sprintf("a training sample's score is not finite in %s with the epoch's weights", e.Type)
	case e.Quantity == "score":
		what = fmt.Sprintf("the sample's score is not finite in %s (the weights are finite but too large for it)", e.Type)
	case e.Sample < 0:
		what = fmt.Sprintf("the %s are not finite in %s", e.Quantity, e.Type)
	case e.Quantity == "mistake count":
		what = "the sample's mistake count α reached its maximum (2³¹−1)"
	}
	return fmt.Sprintf("%v: %s: %s; use a smaller step size (Eta, Tau), a larger Lambda, Normalize, scaled data, or float64",
		ErrDiverged, where, what)
}

// Unwrap returns ErrDiverged.
func (e *DivergedError) Unwrap() error { return ErrDiverged }
