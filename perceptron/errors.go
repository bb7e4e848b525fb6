package perceptron

import "github.com/rosenblatt-go/rosenblatt/internal/perceptrontrain"

// Sentinel errors. The causes a model's methods share are package
// linear's sentinels, which training returns too: linear.ErrDims (a shape
// that does not add up, a sample of the wrong length), linear.ErrNonFinite
// (a NaN or ±Inf value, or a row whose squared norm overflows),
// linear.ErrLabels (a label a call cannot use) and linear.ErrDiverged
// (training produced a value the element type cannot hold: its message
// names the epoch, the sample, the class and what overflowed). Every error
// returned by this package wraps one of them or one below (except an
// error of the caller's own Callback, which is returned wrapped as it is),
// so callers can test the cause with errors.Is; the message adds the
// details (which row, which option). The values are shared with the
// trainers' internal packages; each comment gives its message.
var (
	// ErrEmpty reports training data with no rows or no values.
	ErrEmpty = perceptrontrain.ErrEmpty // "perceptron: empty data"
	// ErrOneClass reports training labels that are all the same class.
	ErrOneClass = perceptrontrain.ErrOneClass // "perceptron: only one class in the labels"
	// ErrOption reports an invalid or unsupported option: a negative,
	// NaN or infinite η or τ (0 selects the default), a step size that
	// overflows the element type or rounds to 0 in it, B < 0, an unknown
	// algorithm, a combination this package does not implement.
	ErrOption = perceptrontrain.ErrOption // "perceptron: invalid option"
	// ErrBudget reports a memory budget too small for training: a kernel
	// model's KernelOptions.MaxBytes below one row of kernel values, or a
	// voted perceptron whose kept vectors would exceed
	// Options.VotedMaxBytes.
	ErrBudget = perceptrontrain.ErrBudget // "perceptron: memory budget too small"
	// ErrStop may be returned by an Options.Callback to end training early
	// without error: the model trained so far is returned and
	// Diagnostics.Stopped is set. Any other callback error aborts training
	// and is returned wrapped.
	ErrStop = perceptrontrain.ErrStop // "perceptron: training stopped by callback"
)
