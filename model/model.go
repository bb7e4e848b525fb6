// Package model is the one way in to a trained model of this module: the
// interface every model satisfies, and its model file, whatever the model's
// kind.
//
// # Models
//
// Every trained model is a Model, and a Classifier of its element type:
//
//   - linear models, a weight vector w and a bias b per score:
//     linear.Model, made by every perceptron rule (Rosenblatt's online
//     rule, the batch and mini-batch rules, the averaged and voted
//     perceptrons of Freund and Schapire) and by Pegasos, and
//     svm.LinearModel, made by dual coordinate descent (Hsieh et al., 2008);
//   - kernel expansions, support vectors with coefficients and a kernel:
//     expansion.Model, made by the kernel perceptron and by SMO (Platt 1998,
//     as LIBSVM solves it);
//   - quantised linear models, quant.Model: a Classifier[float32] that
//     scores in int8.
//
// A Classifier predicts labels and computes decision values (Scores) of
// dense rows, one or a row-major batch, and of sparse rows (dataset.CSR),
// and is safe for concurrent use. String describes the model in one line.
//
// # Files
//
// A model file is the module's checksummed binary format or its JSON form,
// told apart by content, not by name. Load reads any of them from a
// reader, LoadFile from a path, Unmarshal from bytes already read; each
// returns the Model, whose element type As asserts:
//
//	m, err := model.LoadFile("iris.model")
//	...
//	c, err := model.As[float64](m)
//	...
//	label, err := c.Predict(x)
//
// Inspect and InspectFile tell a file's kind, element type, dimensions and
// labels from its header without decoding the model. Save writes a model
// to a writer and SaveFile to a path, atomically: a temporary file in the
// same directory, synced and renamed over the target, so that the target
// holds either the old model or the whole new one.
//
// Every read is bounded: a binary file's header gives its size, which must
// be the file's (a regular file) or at most Options.MaxBytes (a pipe); a
// JSON file is read up to Options.MaxBytes. Nothing is allocated for a size
// a header claims before the bytes are there, and the checksum is checked
// before the model is decoded.
//
// # Kinds
//
// Kind is the byte of the binary header that names what a file holds; the
// constants of this package are the one table of them. Files written since
// the format's version 2 stay readable.
//
// # Errors
//
// Every error of this package wraps one of its sentinels: ErrFormat for
// input that is no model file, ErrCorrupt for a model file with bad
// content (a checksum, a size, a value), ErrTooLarge for input over a
// limit, ErrType for a model of another element type than asked for, and
// ErrUnsupported for a model or format this package cannot write. The
// decoding packages' own sentinels (linear.ErrCorrupt, svm.ErrCorrupt,
// ...) are wrapped too.
package model

import (
	"errors"
	"fmt"
	"unsafe"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/internal/bounded"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// Float is the element type of a model: float32 or float64.
type Float = kernel.Float

// Model is a trained classifier of any element type.
type Model interface {
	// Dims is the number of features of a sample.
	Dims() int
	// Classes returns the labels, in the order of the scores: {−1, +1}
	// for a binary model.
	Classes() []int
	// NumScores is the number of decision values of a sample: 1 for a
	// binary model, one per class for one-vs-rest, one per pair for
	// one-vs-one.
	NumScores() int
	// String describes the model in one line.
	String() string
}

// Classifier is a Model of element type T. Its methods are safe for
// concurrent use; each returns an error for a sample of the wrong length,
// a value that is not finite, or a score that overflows.
type Classifier[T Float] interface {
	Model
	// Predict returns the label of sample x.
	Predict(x []T) (int, error)
	// Scores writes the NumScores decision values of x to dst.
	Scores(dst, x []T) error
	// PredictBatch writes the labels of the row-major samples X to dst.
	PredictBatch(dst []int, X []T) error
	// ScoresBatch writes the decision values of the row-major samples X
	// to dst, NumScores per sample.
	ScoresBatch(dst, X []T) error
	// PredictSparse returns the label of the sparse sample x.
	PredictSparse(x dataset.SparseRow[T]) (int, error)
	// ScoresSparse writes the decision values of the sparse sample x.
	ScoresSparse(dst []T, x dataset.SparseRow[T]) error
	// PredictBatchSparse writes the labels of the rows of X to dst.
	PredictBatchSparse(dst []int, X *dataset.CSR[T]) error
	// ScoresBatchSparse writes the decision values of the rows of X.
	ScoresBatchSparse(dst []T, X *dataset.CSR[T]) error
}

// Sentinel errors; every error of this package wraps one of them.
var (
	// ErrFormat reports input that is not a model file of this module.
	ErrFormat = errors.New("model: not a rosenblatt model file")
	// ErrCorrupt reports a model file with bad content: a checksum,
	// a size, a value or a field that does not hold.
	ErrCorrupt = errors.New("model: corrupt model file")
	// ErrTooLarge reports input over a limit (Options.MaxBytes), or a
	// binary file that goes on after the size its header gives.
	ErrTooLarge = bounded.ErrTooLarge
	// ErrType reports a model of another element type than asked for.
	ErrType = errors.New("model: wrong element type")
	// ErrUnsupported reports a model or a format that cannot be written.
	ErrUnsupported = errors.New("model: unsupported")
)

// As returns m as a Classifier of element type T, or an error wrapping
// ErrType if its element type is another. A quantised model is a
// Classifier[float32]; a text model (Text) is its inner model.
func As[T Float](m Model) (Classifier[T], error) {
	if c, ok := m.(Classifier[T]); ok {
		return c, nil
	}
	if t, ok := m.(*Text); ok {
		return As[T](t.inner)
	}
	return nil, fmt.Errorf("%w: %s, not %s", ErrType, m, typeName[T]())
}

// Elem names m's element type: "float32" or "float64" (a quantised model,
// which takes float32 samples, is "float32"), or "" for a Model that is
// neither Classifier.
func Elem(m Model) string {
	switch m := m.(type) {
	case *Text:
		return Elem(m.inner)
	case Classifier[float32]:
		return "float32"
	case Classifier[float64]:
		return "float64"
	}
	return ""
}

// typeName is "float32" or "float64".
func typeName[T Float]() string {
	if unsafe.Sizeof(T(0)) == 8 {
		return "float64"
	}
	return "float32"
}
