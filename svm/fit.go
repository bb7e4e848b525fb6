package svm

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/expansion"
	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/linear"
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
func Fit[T kernel.Float](ctx context.Context, X dataset.Rows[T], y []int, opts Options) (*expansion.Model[T], *fit.Report, error) {
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
// binary for two labels (any two: a positive score predicts the larger),
// one-vs-rest for more. With C = +Inf it solves the hard-margin problem
// exactly, on dense rows only (ErrOption for a CSR).
//
// The model is the module's one linear model, a linear.Model of
// Algorithm linear.DualCD with the bias feature of opts (HasBias and
// BiasFeature; b = B·w_B): its files are linear's compact ones (the
// columns some class uses), package model loads them, package quant
// quantises it. A fit on sparse rows keeps the weights of the columns the
// data uses alone until a dense sample needs the rest. Dual coordinate
// descent has no online rule: the model's Update is linear.ErrUnsupported.
//
// Cancelling ctx stops training at the end of the current pass over the
// data, and the error wraps the context's error. Errors wrap ErrEmpty,
// ErrDims, ErrNonFinite, ErrLabels (one class), ErrOption or, with
// C = +Inf, ErrNotSeparable. A machine that reaches MaxIter is not an
// error: the report's Converged is false. The report's Detail is the
// run's *Info; its Epochs the most passes of any machine.
func FitLinear[T kernel.Float](ctx context.Context, X dataset.Rows[T], y []int, opts LinearOptions) (*linear.Model[T], *fit.Report, error) {
	t0 := time.Now()
	var (
		m    *linear.Model[T]
		info *Info
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
func checkData[T kernel.Float](x *dataset.Data[T]) error {
	if x == nil {
		return fmt.Errorf("%w: nil data", ErrEmpty)
	}
	if x.Rows < 0 || x.Cols < 0 || len(x.X) != x.Rows*x.Cols {
		return fmt.Errorf("%w: %d values for %d rows of %d columns", ErrDims, len(x.X), x.Rows, x.Cols)
	}
	return nil
}
