package perceptrontrain

import (
	"errors"
	"fmt"

	"github.com/rosenblatt-go/rosenblatt/linear"
)

// The sentinel errors of package perceptron, which exports these values
// and documents them.
var (
	ErrEmpty    = errors.New("perceptron: empty data")
	ErrOneClass = errors.New("perceptron: only one class in the labels")
	ErrOption   = errors.New("perceptron: invalid option")
	ErrBudget   = errors.New("perceptron: memory budget too small")
	ErrStop     = errors.New("perceptron: training stopped by callback")
)

// DivergedError is the error training returns when a value overflows the
// element type (linear.ErrDiverged, which it wraps). It names the epoch and
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
		linear.ErrDiverged, where, what)
}

// Unwrap returns ErrDiverged.
func (e *DivergedError) Unwrap() error { return linear.ErrDiverged }
