package modelfile

import (
	"math"

	"github.com/rosenblatt-go/rosenblatt/dataset"
)

// The sparse support vectors section of a kernel model trained on CSR rows
// (both packages' kernel kinds flag it in the header): in place of the S×D
// values,
//
//	8      Z, the number of stored values, uint64
//	4·S    each row's count of stored values, uint32
//	4·Z    their features (0-based), uint32, increasing per row
//	Z      their values (element type)

// SparseBytes returns the size of the section for c.
func SparseBytes[T Float](c *dataset.CSR[T]) int {
	return 8 + 4*c.Rows + (4+ElemSize[T]())*len(c.Val)
}

// WriteSparse appends the section for the rows of c.
func WriteSparse[T Float](w *Writer, c *dataset.CSR[T]) {
	w.U64(uint64(len(c.Val)))
	for i := range c.Rows {
		w.U32(uint32(c.Ptr[i+1] - c.Ptr[i]))
	}
	for _, j := range c.Idx {
		w.U32(uint32(j))
	}
	Elems(w, c.Val)
}

// SparseSize adds to sz the size of the section of s rows of d features
// that starts at body[off:], or returns need (off + 8) if body is too short
// to hold its count Z. A Z beyond s·d is ErrCorrupt.
func (e Errors) SparseSize(body []byte, off, s, d, es uint64, sz *Sizer) (need uint64, err error) {
	if uint64(len(body)) < off+8 {
		return off + 8, nil
	}
	z := le.Uint64(body[off:])
	if most := sz.Mul(s, d); z > most {
		return 0, e.Corruptf("%d stored values in %d sparse support vectors of %d features", z, s, d)
	}
	sz.Add(1, 8)
	sz.Add(s, 4)
	sz.Add(z, 4+es)
	return 0, nil
}

// ReadSparse reads the section of s rows of d features (element size es)
// from r. Row counts that do not add up to Z are ErrCorrupt; the rest
// (features increasing and below d, finite values) is the caller's to
// check (dataset.CSR.Validate). On a short read it returns nil and r's
// error.
func ReadSparse[T Float](e Errors, r *Reader, s uint64, d, es int) (*dataset.CSR[T], error) {
	z := r.U64()
	lens := r.Take(s, 4, "sparse row lengths")
	cols := r.Take(z, 4, "sparse features")
	vals := r.Take(z, uint64(es), "sparse values")
	if r.Err() != nil {
		return nil, r.Err()
	}
	ls := U32s(lens)
	c := &dataset.CSR[T]{Rows: len(ls), Cols: d, Ptr: make([]int, len(ls)+1), Y: make([]int, len(ls))}
	var sum uint64
	for i, l := range ls {
		if sum += uint64(l); sum > z {
			return nil, e.Corruptf("sparse row lengths add up to more than the %d stored values", z)
		}
		c.Ptr[i+1] = int(sum)
	}
	if sum != z {
		return nil, e.Corruptf("sparse row lengths add up to %d, not the %d stored values", sum, z)
	}
	c.Idx = make([]int32, z)
	for k, j := range U32s(cols) {
		if j > math.MaxInt32 {
			return nil, e.Corruptf("sparse feature %d", j)
		}
		c.Idx[k] = int32(j)
	}
	c.Val = Decode[T](vals, es)
	return c, nil
}

// JSONSparse is one sparse support vector in a JSON model file (both
// packages' "sparse_support_vectors"): its stored values and their
// features (0-based, increasing).
type JSONSparse[T Float] struct {
	Features Array[int32] `json:"features"`
	Values   Array[T]     `json:"values"`
}

// SparseJSON returns the rows of c in their JSON form (views of c's
// slices).
func SparseJSON[T Float](c *dataset.CSR[T]) []JSONSparse[T] {
	out := make([]JSONSparse[T], c.Rows)
	for i := range c.Rows {
		r := c.Row(i)
		out[i] = JSONSparse[T]{Features: r.Idx, Values: r.Val}
	}
	return out
}

// SparseFromJSON returns the rows as a CSR of cols columns (no labels:
// Y is zeros). A row of more features than values, or fewer, is
// e.Corrupt; the rest (features increasing and below cols, finite values)
// is the caller's to check (dataset.CSR.Validate).
func SparseFromJSON[T Float](e Errors, rows []JSONSparse[T], cols int) (*dataset.CSR[T], error) {
	n := 0
	for _, v := range rows {
		n += len(v.Values)
	}
	c := &dataset.CSR[T]{Rows: len(rows), Cols: cols, Ptr: make([]int, 1, len(rows)+1), Y: make([]int, len(rows)),
		Idx: make([]int32, 0, n), Val: make([]T, 0, n)}
	for _, v := range rows {
		if len(v.Features) != len(v.Values) {
			return nil, e.Corruptf("a sparse support vector of %d features and %d values", len(v.Features), len(v.Values))
		}
		c.Idx = append(c.Idx, v.Features...)
		c.Val = append(c.Val, v.Values...)
		c.Ptr = append(c.Ptr, len(c.Idx))
	}
	return c, nil
}
