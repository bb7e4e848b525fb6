// Package csrtest makes the malformed CSR matrices with which the tests of
// the models' sparse batch methods check that a bad matrix is an error
// (wrapping dataset.ErrMismatch), never a panic.
package csrtest

import (
	"errors"
	"slices"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// Case is a named malformed matrix.
type Case[T kernel.Float] struct {
	Name string
	C    *dataset.CSR[T]
}

// Malformed returns matrices whose offsets do not describe their rows,
// built from copies of the valid matrix c (which must have at least 8 rows
// and a stored value; c is not modified): on a batch of 2000 rows the bad
// offset sits in a row that a worker goroutine, not the caller, reaches.
func Malformed[T kernel.Float](c *dataset.CSR[T]) []Case[T] {
	cp := func() *dataset.CSR[T] {
		return &dataset.CSR[T]{Rows: c.Rows, Cols: c.Cols, Ptr: slices.Clone(c.Ptr),
			Idx: slices.Clone(c.Idx), Val: slices.Clone(c.Val), Y: slices.Clone(c.Y)}
	}
	n := c.Rows
	var out []Case[T]
	add := func(name string, f func(m *dataset.CSR[T])) {
		m := cp()
		f(m)
		out = append(out, Case[T]{name, m})
	}
	out = append(out, Case[T]{"nil", nil})
	add("rows beyond Ptr", func(m *dataset.CSR[T]) { m.Rows, m.Ptr, m.Y = 2, []int{0, 1}, m.Y[:2] })
	add("negative rows", func(m *dataset.CSR[T]) { m.Rows, m.Ptr, m.Y = -1, nil, nil })
	add("Ptr beyond Idx near the end", func(m *dataset.CSR[T]) { m.Ptr[n-5] = len(m.Idx) + 100 })
	add("Ptr decreasing", func(m *dataset.CSR[T]) { m.Ptr[n/2] = -1 })
	add("Ptr not from 0", func(m *dataset.CSR[T]) { m.Ptr[0] = 1 })
	add("Ptr end short", func(m *dataset.CSR[T]) { m.Ptr[n]-- })
	add("Idx longer than Val", func(m *dataset.CSR[T]) { m.Val = m.Val[:len(m.Val)-1] })
	return out
}

// Method is a sparse batch method under test: Call runs it on c with
// outputs (dst, labels) sized for n rows.
type Method[T kernel.Float] struct {
	Name string
	Call func(c *dataset.CSR[T], n int) error
}

// Check runs every method on valid(8) and valid(2000), which must succeed,
// and on every Malformed matrix made from them, which must return an error
// wrapping sentinel and (but for a nil matrix) dataset.ErrMismatch.
func Check[T kernel.Float](t testing.TB, valid func(rows int) *dataset.CSR[T], sentinel error, methods []Method[T]) {
	t.Helper()
	for _, rows := range []int{8, 2000} {
		c := valid(rows)
		for _, m := range methods {
			if err := m.Call(c, rows); err != nil {
				t.Fatalf("%s on a valid matrix of %d rows: %v", m.Name, rows, err)
			}
			for _, tc := range Malformed(c) {
				n := 0
				if tc.C != nil {
					n = max(0, tc.C.Rows)
				}
				err := m.Call(tc.C, n)
				if !errors.Is(err, sentinel) || (tc.C != nil && !errors.Is(err, dataset.ErrMismatch)) {
					t.Errorf("%s, %d rows, %s: %v, want %v and %v", m.Name, rows, tc.Name, err, sentinel, dataset.ErrMismatch)
				}
			}
		}
	}
}

// CheckAccuracy checks a model's AccuracySparse on c and its labels y: it
// equals dense (the dense Accuracy's value on the same rows) and the
// fraction of PredictBatchSparse's labels equal to y (above 0), and it is
// 0.5 when every other label is changed.
func CheckAccuracy[T kernel.Float](t testing.TB, c *dataset.CSR[T], y []int, dense float64,
	accuracy func(c *dataset.CSR[T], y []int) (float64, error), predict func(dst []int, c *dataset.CSR[T]) error) {
	t.Helper()
	got, err := accuracy(c, y)
	if err != nil {
		t.Fatal(err)
	}
	pred := make([]int, len(y))
	if err := predict(pred, c); err != nil {
		t.Fatal(err)
	}
	ok := 0
	flipped := make([]int, len(y))
	for i, p := range pred {
		if p == y[i] {
			ok++
		}
		flipped[i] = p
		if i%2 == 0 {
			flipped[i] = p + 100
		}
	}
	if f := float64(ok) / float64(len(y)); got != dense || got != f || got <= 0 {
		t.Errorf("AccuracySparse = %v, dense Accuracy %v, fraction of PredictBatchSparse %v", got, dense, f)
	}
	if a, err := accuracy(c, flipped); err != nil || a != 0.5 {
		t.Errorf("half the labels changed: %v, %v; want 0.5", a, err)
	}
}
