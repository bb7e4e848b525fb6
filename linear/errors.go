package linear

import "errors"

// Sentinel errors. Every error of this package wraps one of them, so
// callers can test the cause with errors.Is; the message adds the details
// (which row, which field of a file). The trainers (packages perceptron
// and svm) return the same sentinels for the same causes.
var (
	// ErrDims reports inconsistent sizes: a sample whose length is not the
	// model's feature count, a batch whose length is not a multiple of it,
	// a destination of the wrong length.
	ErrDims = errors.New("linear: dimension mismatch")
	// ErrNonFinite reports a NaN or ±Inf in a sample, or a score that is
	// not finite.
	ErrNonFinite = errors.New("linear: non-finite value")
	// ErrLabels reports a label the model does not know (Update).
	ErrLabels = errors.New("linear: bad labels")
	// ErrOption reports an invalid argument: a State of the wrong shape.
	ErrOption = errors.New("linear: invalid option")
	// ErrCorrupt reports a model file or JSON document that is truncated,
	// fails its checksum, or holds inconsistent or non-finite values.
	ErrCorrupt = errors.New("linear: corrupt model file")
	// ErrVersion reports a model file written by a newer, unknown format
	// version.
	ErrVersion = errors.New("linear: unsupported model file version")
	// ErrMismatch reports a valid model file of another element type
	// (float32 vs float64) or of another kind of model.
	ErrMismatch = errors.New("linear: model file does not match the receiver")
	// ErrUntrained reports a call on a Model that holds no weights (the
	// zero value, before UnmarshalBinary).
	ErrUntrained = errors.New("linear: model has no weights")
	// ErrEmpty reports an evaluation without samples (Accuracy).
	ErrEmpty = errors.New("linear: empty data")
	// ErrDiverged reports an Update whose step would make a weight, a
	// bias or an averaging sum non-finite (the model is left unchanged).
	ErrDiverged = errors.New("linear: training diverged")
	// ErrUnsupported reports an operation the model cannot do: Update of
	// an averaged or Pegasos model without its training state (read from
	// a file written without it), or of a linear SVM's model; State of a
	// voted model.
	ErrUnsupported = errors.New("linear: unsupported operation")
)
