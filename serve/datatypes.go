package serve

import (
	"context"
	"net/http"
	"slices"
	"unsafe"

	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/model"
	"github.com/rosenblatt-go/rosenblatt/quant"
)

// The Open Inference Protocol's input datatypes: FP32 and FP64 for every
// numeric model, INT8 and UINT8 too. Integer data are taken exactly: a
// float model gets the integers as floats (exact in either type); a
// quantised model (quant.Model, whose weights are int8) takes them as the
// bytes they are, x[i] = v[i] with scale 1 (quant.Model.PredictI8,
// PredictU8), instead of quantising float32 samples over their own range.
// A value that is not an integer of the datatype's range is refused,
// named by row and feature.

// Integer datatypes of an inference request's input.
const (
	dtFloat = iota // FP32 or FP64
	dtInt8         // INT8
	dtUint8        // UINT8
)

// inputDatatypes lists the datatypes a numeric model takes, for messages.
const inputDatatypes = "FP32, FP64, INT8 or UINT8"

// checkInts refuses a value of x that is not an integer of datatype dt's
// range (x holds rows of d values).
func checkInts[T kernel.Float](x []T, d, dt int) *httpError {
	lo, hi, what := T(0), T(255), "a UINT8"
	if dt == dtInt8 {
		lo, hi, what = -128, 127, "an INT8"
	}
	for i, v := range x {
		if !(v >= lo && v <= hi) || v != T(int(v)) {
			return bad(http.StatusBadRequest, "row %d, feature %d is %v, not %s (an integer in [%v, %v])", i/d, i%d, v, what, lo, hi)
		}
	}
	return nil
}

// bytesOf writes the integers of x (checked by checkInts) to b's byte
// buffer as E values, taking their memory from the request's hold.
func bytesOf[E int8 | uint8, T kernel.Float](b *buffers, x []T) ([]E, *httpError) {
	if e := b.h.take(int64(len(x))); e != nil {
		return nil, e
	}
	u := grow(&b.u8, len(x))
	v := u
	if _, signed := any(E(0)).(int8); signed {
		for i, a := range x {
			v[i] = uint8(int8(a))
		}
	} else {
		for i, a := range x {
			v[i] = uint8(a)
		}
	}
	return asBytes[E](v), nil
}

// asBytes is u as a []E (int8 and uint8 have one layout).
func asBytes[E int8 | uint8](u []uint8) []E {
	if len(u) == 0 {
		return nil
	}
	return unsafe.Slice((*E)(unsafe.Pointer(&u[0])), len(u))
}

// runBytes predicts the labels of the n rows of v, integers given as the
// quantised model q's bytes (x = v, scale 1), and their scores if asked,
// as run does for float samples.
func runBytes[E int8 | uint8](q *quant.Model, m *loaded, v []E, n int, b *buffers, scores bool) ([]int, []float32, *httpError) {
	if e := b.h.take(8 * int64(n)); e != nil {
		return nil, nil, e
	}
	d := m.dims
	labels := grow(&b.labels, n)
	k := m.nscores
	var sc []float32
	if scores {
		if e := b.h.take(int64(n) * int64(k) * 4); e != nil {
			return nil, nil, e
		}
		sc = grow(&b.s32, n*k)
	}
	for i := range n {
		row := v[i*d : (i+1)*d]
		var l int
		var err error
		switch row := any(row).(type) {
		case []uint8:
			l, err = q.PredictU8(row, 1, 0)
			if err == nil && scores {
				err = q.ScoresU8(sc[i*k:(i+1)*k], row, 1, 0)
			}
		case []int8:
			l, err = q.PredictI8(row, 1)
			if err == nil && scores {
				err = q.ScoresI8(sc[i*k:(i+1)*k], row, 1)
			}
		}
		if err != nil {
			return nil, nil, bad(http.StatusUnprocessableEntity, "the model cannot score row %d: %v", i, err)
		}
		labels[i] = l
	}
	for j, s := range sc {
		if !finite(s) {
			return nil, nil, bad(http.StatusUnprocessableEntity, "score %d of row %d is %v", j%k, j/k, s)
		}
	}
	return labels, sc, nil
}

// runInts is run for integer data (datatype dt) held in x: a quantised
// model takes them as bytes (runBytes), any other as the floats they are.
func runInts[T kernel.Float](c Classifier[T], m *loaded, x []T, n int, b *buffers, scores bool, dt int) ([]int, []T, *httpError) {
	if m.q == nil {
		return run(c, m, x, n, b, scores)
	}
	var labels []int
	var sc []float32
	var e *httpError
	if dt == dtInt8 {
		var v []int8
		if v, e = bytesOf[int8](b, x); e == nil {
			labels, sc, e = runBytes(m.q, m, v, n, b, scores)
		}
	} else {
		var v []uint8
		if v, e = bytesOf[uint8](b, x); e == nil {
			labels, sc, e = runBytes(m.q, m, v, n, b, scores)
		}
	}
	return labels, any(sc).([]T), e
}

// InferText classifies documents with text model name at version (as
// Infer names and pins a model): each document is featurized by the
// model's featurizer (bytes that are not UTF-8 read as U+FFFD, as the
// featurizer reads them) and classified by its inner model; the Result's
// Labels are the inner model's labels and Names their names, Scores32 or
// Scores64 the decision values. A model that is not a text model, no
// documents or an empty output set are refused (ErrInput); the documents'
// bytes, their featurizing, labels and scores are counted against
// Options.MaxInflightBytes (ErrLimit, ErrBusy), rows × NumScores against
// Options.MaxScores. A done ctx is returned as ctx.Err().
func (s *Server) InferText(ctx context.Context, name, version string, docs [][]byte, out Outputs) (*Result, error) {
	m, e := s.lookup(name, version)
	if e != nil {
		return nil, e.err()
	}
	switch {
	case m.text == nil:
		return nil, notText(m, "text").err()
	case !out.Label && !out.Scores:
		return nil, bad(http.StatusBadRequest, `no output asked for: ask for "label", "scores" or both`).err()
	case len(docs) < 1:
		return nil, bad(http.StatusBadRequest, "no documents: a request holds at least one").err()
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	b := s.pool.Get().(*buffers)
	defer s.put(b)
	b.h = hold{s: s}
	size, maxLen := 0, 0
	for _, d := range docs {
		size += len(d)
		maxLen = max(maxLen, len(d))
	}
	if e := b.h.take(int64(size) + 8*int64(len(docs))); e != nil {
		return nil, e.err()
	}
	t := &b.txt
	t.docs, t.ends = t.docs[:0], t.ends[:0]
	for _, d := range docs {
		t.docs = append(t.docs, d...)
		t.ends = append(t.ends, len(t.docs))
	}
	res := &Result{Model: m.name, Version: m.version, Rows: len(docs)}
	if m.text.c32 != nil {
		e = inferTexts(s, m, m.text.c32, b, maxLen, out, res, &res.Scores32)
	} else {
		e = inferTexts(s, m, m.text.c64, b, maxLen, out, res, &res.Scores64)
	}
	if e != nil {
		return nil, e.err()
	}
	return res, nil
}

// inferTexts runs InferText with the inner classifier c of element type T.
func inferTexts[T kernel.Float](s *Server, m *loaded, c model.Classifier[T], b *buffers, maxLen int, out Outputs, res *Result, scores *[]T) *httpError {
	labels, sc, e := predictTexts(s, m, c, b, maxLen, out.Scores)
	if e != nil {
		return e
	}
	if out.Label {
		tm := m.model.(*model.Text)
		res.Labels = make([]int64, len(labels))
		res.Names = make([]string, len(labels))
		for i, l := range labels {
			res.Labels[i] = int64(l)
			res.Names[i] = tm.Name(l)
		}
	}
	if out.Scores {
		res.NumScores = m.nscores
		*scores = slices.Clone(sc)
	}
	return nil
}
