package svm

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/expansion"
	"github.com/rosenblatt-go/rosenblatt/fit"
)

// Fit trains a C-SVC, LIBSVM's kernel support vector machine, by Platt's
// sequential minimal optimisation (with LIBSVM's working-set selection and
// shrinking) on the rows of X (a dense *dataset.Data or a sparse
// *dataset.CSR) with labels y: binary for two distinct labels (a positive
// decision value predicts the larger), one-vs-one or one-vs-rest
// (Options.Multiclass) for more.
//
// On sparse rows the kernel values come from gram's sparse products and no
// row is densified; the model keeps sparse support vectors
// (Model.SparseSupport), and on integer-valued data it is the dense fit's
// model. One-vs-one machines then do not use class blocks: the N×N matrix
// is computed once if it fits GramBytes, else each machine computes its
// own matrix or row cache.
//
// Cancelling ctx stops training within about a thousand SMO iterations,
// and the error wraps the context's error. The model keeps copies of its
// support vectors; X and y are not modified. Errors wrap ErrEmpty,
// ErrDims, ErrNonFinite, ErrLabels (fewer than two classes), ErrOption,
// ErrBudget or, with C = +Inf, ErrNotSeparable. A machine that reaches
// Options.MaxIter is not an error: the model is returned and the report's
// Converged is false. The report's Detail is the run's *Info.
func Fit[T Float](ctx context.Context, X dataset.Rows[T], y []int, opts Options) (*expansion.Model[T], *fit.Report, error) {
	t0 := time.Now()
	var (
		m    *expansion.Model[T]
		info *Info
		err  error
	)
	switch x := X.(type) {
	case *dataset.Data[T]:
		if err := checkData(x); err != nil {
			return nil, nil, err
		}
		m, info, err = trainDenseContext(ctx, x.X, x.Cols, y, opts)
	case *dataset.CSR[T]:
		m, info, err = trainSparseContext(ctx, x, y, opts)
	default:
		return nil, nil, errRows(X)
	}
	if info == nil {
		return m, nil, err
	}
	r := &fit.Report{Converged: info.Converged, Time: time.Since(t0), Detail: info}
	for _, p := range info.Problems {
		r.Iterations += p.Iterations
		r.Objective += p.Primal
		r.Dual += p.Dual
	}
	r.Gap = r.Objective + r.Dual
	if m != nil {
		r.SupportVectors = m.NumSupport()
	}
	return m, r, err
}

// FitLinear trains a linear SVM by dual coordinate descent (Hsieh et al.,
// 2008; LIBLINEAR's -s 3 for Hinge, -s 1 for SquaredHinge) on the rows of X
// (dense or sparse; sparse rows train at O(nnz) per pass) with labels y:
// binary for two labels, one-vs-rest for more. With C = +Inf it solves
// the hard-margin problem exactly, on dense rows only (ErrOption for a
// CSR).
//
// Cancelling ctx stops training at the end of the current pass over the
// data, and the error wraps the context's error. Errors wrap ErrEmpty,
// ErrDims, ErrNonFinite, ErrLabels (one class), ErrOption or, with
// C = +Inf, ErrNotSeparable. A machine that reaches MaxIter is not an
// error: the report's Converged is false. The report's Detail is the
// run's *LinearInfo; its Epochs the most passes of any machine.
func FitLinear[T Float](ctx context.Context, X dataset.Rows[T], y []int, opts LinearOptions) (*LinearModel[T], *fit.Report, error) {
	t0 := time.Now()
	var (
		m    *LinearModel[T]
		info *LinearInfo
		err  error
	)
	switch x := X.(type) {
	case *dataset.Data[T]:
		if err := checkData(x); err != nil {
			return nil, nil, err
		}
		m, info, err = trainLinearDenseContext(ctx, x.X, x.Cols, y, opts)
	case *dataset.CSR[T]:
		if opts.C > 0 && math.IsInf(opts.C, 1) {
			return nil, nil, fmt.Errorf("%w: C = +Inf needs dense rows (a *dataset.Data)", ErrOption)
		}
		rows, err := sparseRows(x)
		if err != nil {
			return nil, nil, err
		}
		m, info, err = trainLinearRows(ctx, rows, y, opts)
	default:
		return nil, nil, errRows(X)
	}
	if info == nil {
		return m, nil, err
	}
	r := &fit.Report{Converged: info.Converged, Time: time.Since(t0), Detail: info}
	for _, p := range info.Problems {
		r.Epochs = max(r.Epochs, p.Iterations)
		r.Iterations += p.Iterations
		r.Objective += p.Primal
		r.Dual += p.Dual
		r.SupportVectors += p.SV
	}
	r.Gap = r.Objective + r.Dual
	return m, r, err
}

func errRows(X any) error {
	if X == nil {
		return fmt.Errorf("%w: nil data", ErrEmpty)
	}
	return fmt.Errorf("%w: rows of type %T; want a *dataset.Data or *dataset.CSR", ErrDims, X)
}

// checkData checks that a dense matrix is not nil and holds Rows·Cols
// values.
func checkData[T Float](x *dataset.Data[T]) error {
	if x == nil {
		return fmt.Errorf("%w: nil data", ErrEmpty)
	}
	if x.Rows < 0 || x.Cols < 0 || len(x.X) != x.Rows*x.Cols {
		return fmt.Errorf("%w: %d values for %d rows of %d columns", ErrDims, len(x.X), x.Rows, x.Cols)
	}
	return nil
}
