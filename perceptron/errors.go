package perceptron

import "errors"

// Sentinel errors. Every error returned by this package wraps one of them
// (except an error of the caller's own Callback, which is returned wrapped
// as it is), so callers can test the cause with errors.Is; the message adds
// the details (which row, which option, which field of a file).
var (
	// ErrEmpty reports training data with no rows or no values.
	ErrEmpty = errors.New("perceptron: empty data")
	// ErrDims reports inconsistent sizes: zero features, len(X) not a
	// multiple of the column count, len(y) != rows, ragged rows, or a
	// sample whose length is not the model's feature count.
	ErrDims = errors.New("perceptron: dimension mismatch")
	// ErrNonFinite reports a NaN or ±Inf feature value (or a row whose
	// squared norm overflows the element type).
	ErrNonFinite = errors.New("perceptron: non-finite value")
	// ErrLabels reports labels a call cannot use: anything but −1 and +1
	// where a binary API requires them, or a label the model does not know.
	ErrLabels = errors.New("perceptron: bad labels")
	// ErrOneClass reports training labels that are all the same class.
	ErrOneClass = errors.New("perceptron: only one class in the labels")
	// ErrOption reports an invalid or unsupported option: a negative,
	// NaN or infinite η or τ (0 selects the default), B < 0, an unknown
	// algorithm, a combination this package does not implement.
	ErrOption = errors.New("perceptron: invalid option")
	// ErrCorrupt reports a model file or JSON document that is truncated,
	// fails its checksum, or holds inconsistent or non-finite values.
	ErrCorrupt = errors.New("perceptron: corrupt model file")
	// ErrVersion reports a model file written by a newer, unknown format
	// version.
	ErrVersion = errors.New("perceptron: unsupported model file version")
	// ErrMismatch reports a valid model file of another element type
	// (float32 vs float64) or another model kind than the receiver holds.
	ErrMismatch = errors.New("perceptron: model file does not match the receiver")
	// ErrUntrained reports a call on a Model that holds no weights (the
	// zero value, before training or UnmarshalBinary).
	ErrUntrained = errors.New("perceptron: model has no weights")
	// ErrUnsupported reports an operation the model's kind does not offer,
	// such as Update on a voted perceptron.
	ErrUnsupported = errors.New("perceptron: unsupported operation")
	// ErrBudget reports a memory budget too small to train a kernel
	// model: KernelOptions.MaxBytes below one row of kernel values.
	ErrBudget = errors.New("perceptron: memory budget too small")
	// ErrStop may be returned by an Options.Callback to end training early
	// without error: the model trained so far is returned and
	// Diagnostics.Stopped is set. Any other callback error aborts training
	// and is returned wrapped.
	ErrStop = errors.New("perceptron: training stopped by callback")
)
