// Package csrtest makes the malformed CSR matrices with which the tests of
// the models' sparse batch methods check that a bad matrix is an error
// (wrapping dataset.ErrMismatch), never a panic.
package csrtest

import (
	"slices"

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
