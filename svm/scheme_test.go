package svm

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/fit"
)

// TestSchemeRefused: Fit refuses the schemes SMO does not train (Argmax,
// Binary for more than two classes, an unknown value) with an error
// wrapping ErrOption that names the scheme, and trains the others, two
// classes always as one binary machine.
func TestSchemeRefused(t *testing.T) {
	X := []float64{0, 0, 0, 1, 4, 4, 4, 5, 0, 8, 1, 8}
	y3, y2 := []int{1, 1, 2, 2, 3, 3}, []int{1, 1, 2, 2, 2, 2}
	D := dataset.NewData(X, 2, y3)
	for _, tc := range []struct {
		s fit.Scheme
		y []int
	}{{fit.Argmax, y3}, {fit.Argmax, y2}, {fit.Binary, y3}, {fit.Scheme(9), y3}} {
		_, _, err := Fit(context.Background(), D, tc.y, Options{Multiclass: tc.s})
		if !errors.Is(err, ErrOption) || !strings.Contains(err.Error(), tc.s.String()) {
			t.Errorf("Multiclass %v, %d labels: %v; want an ErrOption naming %q", tc.s, len(tc.y), err, tc.s)
		}
	}
	for _, tc := range []struct {
		s, want fit.Scheme
		y       []int
	}{
		{fit.Auto, fit.OneVsOne, y3}, {fit.OneVsOne, fit.OneVsOne, y3}, {fit.OneVsRest, fit.OneVsRest, y3},
		{fit.Auto, fit.Binary, y2}, {fit.Binary, fit.Binary, y2}, {fit.OneVsOne, fit.Binary, y2}, {fit.OneVsRest, fit.Binary, y2},
	} {
		m, _, err := Fit(context.Background(), D, tc.y, Options{Multiclass: tc.s})
		if err != nil || m.Scheme() != tc.want {
			t.Errorf("Multiclass %v, labels %v: %v; want a %v model", tc.s, tc.y, err, tc.want)
		}
	}
}
