package svm

import (
	"errors"

	"github.com/rosenblatt-go/rosenblatt/linear"
)

// Sentinel errors. Every error this package returns wraps one of them (or,
// for a cancelled training, the context's error), so callers can test the
// cause with errors.Is; the message adds the details (which row, which
// option, which pair of classes).
var (
	// ErrEmpty reports training data with no rows, or a sample with no
	// values.
	ErrEmpty = errors.New("svm: empty data")
	// ErrDims reports inconsistent sizes: d < 1, len(X) not a multiple of
	// d, len(y) != rows, a destination of the wrong length, or a sample
	// whose length is not the model's feature count.
	ErrDims = errors.New("svm: dimension mismatch")
	// ErrNonFinite reports a NaN or ±Inf value in the data (or in a
	// sample to score), or data whose kernel values would overflow the
	// element type.
	ErrNonFinite = errors.New("svm: non-finite value")
	// ErrLabels reports labels a call cannot use: a single class, or more
	// than two classes where a binary problem is required (MaxMargin).
	ErrLabels = errors.New("svm: bad labels")
	// ErrOption reports an invalid option: C ≤ 0 or NaN, a negative or
	// NaN tolerance, an invalid kernel, an unknown loss or multiclass
	// scheme, an implementation the CPU cannot run, or a combination this
	// package does not implement.
	ErrOption = errors.New("svm: invalid option")
	// ErrNotSeparable reports that a hard-margin problem (C = +Inf, or
	// MaxMargin) has no solution: the two classes' convex hulls in the
	// kernel's feature space touch, or come closer than the element type
	// resolves. The message gives the proven upper bound on the margin,
	// which a *NotSeparableError in the chain (errors.As) holds as a
	// number. See the package documentation, "Hard margin".
	ErrNotSeparable = errors.New("svm: data not separable")
	// ErrBudget reports memory limits that cannot hold what training
	// needs: a kernel column cache smaller than one column.
	ErrBudget = errors.New("svm: memory budget too small")
	// ErrModel, ErrCorrupt, ErrVersion and ErrMismatch are package
	// linear's ErrOption, ErrCorrupt, ErrVersion and ErrMismatch, which
	// the linear SVM's model (a linear.Model) returns: parts that do not
	// fit together (linear.New), a model file that is truncated, modified
	// or inconsistent, of a newer format, or of another element type or
	// kind of model. A kernel SVM's model is package expansion's, whose
	// errors (expansion.ErrModel, ErrCorrupt, …) it returns.
	//
	// Deprecated: test against package linear's sentinels; these names
	// remain for code written when the linear SVM had a model of its own.
	ErrModel    = linear.ErrOption
	ErrCorrupt  = linear.ErrCorrupt
	ErrVersion  = linear.ErrVersion
	ErrMismatch = linear.ErrMismatch
)

// NotSeparableError is the error of a hard-margin problem without a
// solution (see ErrNotSeparable, which it wraps): it carries the upper
// bound on the margin that the solver proved.
type NotSeparableError struct {
	// Upper bounds the margin of every separator: γ_D ≤ Upper.
	Upper float64
	// Resolved is true when the bound is below what the element type
	// resolves (the classes' hulls touch, to rounding), false when the
	// iteration cap came first without a proof either way.
	Resolved bool
	msg      string
}

// Error returns the message, which states the bound.
func (e *NotSeparableError) Error() string { return e.msg }

// Unwrap returns ErrNotSeparable.
func (e *NotSeparableError) Unwrap() error { return ErrNotSeparable }
