package perceptron

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/linear"
)

// TestSchemeRefused: Fit and FitKernel refuse a scheme they cannot train
// (one-vs-one, a value past the known ones, Binary for labels other than
// ±1) with an error wrapping ErrOption that names it, and a continuation
// refuses a scheme other than its model's.
func TestSchemeRefused(t *testing.T) {
	ctx := context.Background()
	X, y := intMulticlass(newRand(3), 60, 4, 3)
	yb := make([]int, len(y))
	for i, v := range y {
		yb[i] = 1
		if v < 0 { // the first of the labels −7, 3, 13
			yb[i] = -1
		}
	}
	D := dataset.NewData(X, 4, y)
	fits := map[string]func(y []int, o Options) error{
		"Fit": func(y []int, o Options) error {
			_, _, err := Fit(ctx, D, y, o)
			return err
		},
		"FitKernel": func(y []int, o Options) error {
			_, _, err := FitKernel(ctx, D, y, KernelOptions{Options: o})
			return err
		},
	}
	for name, f := range fits {
		for _, tc := range []struct {
			s fit.Scheme
			y []int
		}{{fit.OneVsOne, y}, {fit.OneVsOne, yb}, {fit.Binary, y}, {fit.Scheme(9), y}} {
			err := f(tc.y, Options{Multiclass: tc.s, MaxIter: 2})
			if !errors.Is(err, ErrOption) || !strings.Contains(err.Error(), tc.s.String()) {
				t.Errorf("%s with Multiclass %v: %v; want an ErrOption naming %q", name, tc.s, err, tc.s)
			}
		}
		for _, s := range []fit.Scheme{fit.Auto, fit.Binary, fit.OneVsRest, fit.Argmax} {
			if err := f(yb, Options{Multiclass: s, MaxIter: 2}); err != nil {
				t.Errorf("%s with Multiclass %v on ±1 labels: %v", name, s, err)
			}
		}
	}
	// A continuation trains its model's scheme: Auto or that one (OneVsRest
	// also for a binary model); another is ErrOption.
	models := map[fit.Scheme]*linear.Model[float64]{}
	for _, s := range []fit.Scheme{fit.Binary, fit.OneVsRest, fit.Argmax} {
		labels := y
		if s == fit.Binary {
			labels = yb
		}
		m, _, err := Fit(ctx, D, labels, Options{Multiclass: s, MaxIter: 2})
		if err != nil {
			t.Fatalf("Fit %v: %v", s, err)
		}
		if m.Scheme() != s {
			t.Fatalf("Fit %v: a %v model", s, m.Scheme())
		}
		models[s] = m
	}
	for from, m := range models {
		labels := y
		if from == fit.Binary {
			labels = yb
		}
		for _, s := range []fit.Scheme{fit.Auto, fit.Binary, fit.OneVsRest, fit.OneVsOne, fit.Argmax} {
			c, _, err := Fit(ctx, D, labels, Options{Multiclass: s, MaxIter: 1, Init: m})
			ok := s == fit.Auto || s == from || s == fit.OneVsRest && from == fit.Binary
			switch {
			case ok && (err != nil || c.Scheme() != from):
				t.Errorf("continuing a %v model with Multiclass %v: %v", from, s, err)
			case !ok && !errors.Is(err, ErrOption):
				t.Errorf("continuing a %v model with Multiclass %v: %v; want ErrOption", from, s, err)
			}
		}
	}
}
