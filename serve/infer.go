package serve

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"

	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/model"
)

// The errors of the in-process inference API (Models, Metadata, Infer):
// each refusal wraps one of them, so that another protocol's front end
// (the Open Inference Protocol over gRPC, say) can map it to its own
// codes. The HTTP status the REST endpoints answer the same refusal with
// is given with each.
var (
	// ErrNotFound reports a model name or version the server does not
	// serve (404).
	ErrNotFound = errors.New("serve: no such model")
	// ErrInput reports a request that is malformed or does not fit the
	// model: a wrong feature count, a NaN or ±Inf value, an empty batch
	// (400).
	ErrInput = errors.New("serve: bad request")
	// ErrLimit reports a request over one of the Options' limits on its
	// own (413): MaxScores, MaxInflightBytes.
	ErrLimit = errors.New("serve: request over a limit")
	// ErrBusy reports a request that does not fit beside the requests in
	// flight (MaxInflightBytes) now but may later (503).
	ErrBusy = errors.New("serve: server busy")
	// ErrScore reports a valid input the model cannot score: a decision
	// value that overflows (422).
	ErrScore = errors.New("serve: the model cannot score the input")
)

// err turns a request's failure into an error wrapping the sentinel of
// its status.
func (e *httpError) err() error {
	sentinel := ErrInput
	switch e.code {
	case http.StatusNotFound:
		sentinel = ErrNotFound
	case http.StatusRequestEntityTooLarge:
		sentinel = ErrLimit
	case http.StatusServiceUnavailable:
		sentinel = ErrBusy
	case http.StatusUnprocessableEntity:
		sentinel = ErrScore
	}
	return fmt.Errorf("%w: %s", sentinel, e.msg)
}

// ServerName and ServerVersion are the Open Inference Protocol's server
// metadata: the name and the protocol version this server speaks.
const (
	ServerName    = serverName
	ServerVersion = serverVersion
)

// Models returns the names of the models the server serves, sorted
// (those of a repository whose file has not loaded included: Metadata
// refuses them with ErrBusy).
func (s *Server) Models() []string {
	return slices.Clone(s.set.Load().names)
}

// Metadata describes a model as the Open Inference Protocol's model
// metadata does.
type Metadata struct {
	Name    string // the name the model is served under
	Version string // the version in use (Info.Version)
	// Input is the input tensor's datatype: "FP32" (a quantised model's
	// too) or "FP64", its shape [-1, Dims] (INT8 and UINT8 are taken
	// too); for a text model "BYTES", shape [-1], one document per row.
	Input string
	Dims  int
	// Text reports a text model: its input is BYTES (InferText) and its
	// "label" output BYTES [-1], the labels' names (Names).
	Text  bool
	Names []string // a text model's label names, in the order of Classes
	// Scores is the datatype of the "scores" output, the model's element
	// type; its shape is [-1, NumScores]. The "label" output is INT64
	// [-1].
	Scores    string
	NumScores int
	Classes   []int // the labels
}

// Metadata describes model name at version (empty: the version in use);
// name "" names the only model of a server that has one. An unknown name
// or version is refused with an error wrapping ErrNotFound, a model whose
// file has not loaded with ErrBusy, no name when the server has several
// models with ErrInput.
func (s *Server) Metadata(name, version string) (Metadata, error) {
	m, e := s.lookup(name, version)
	if e != nil {
		return Metadata{}, e.err()
	}
	return m.metadata(), nil
}

// metadata describes m.
func (m *loaded) metadata() Metadata {
	md := Metadata{Name: m.name, Version: m.version, Input: datatype(m.elem), Dims: m.dims,
		Scores: datatype(m.elem), NumScores: m.nscores, Classes: slices.Clone(m.classes)}
	if m.text != nil {
		md.Input, md.Text, md.Names = "BYTES", true, m.model.(*model.Text).Names()
	}
	return md
}

// Outputs picks the outputs an inference returns.
type Outputs struct {
	Label  bool // "label": the predicted label of each row
	Scores bool // "scores": the decision values of each row
}

// Result is an inference's answer, made by one model version from start
// to end.
type Result struct {
	Model   string // the model's name
	Version string // the version that answered
	Rows    int
	// Labels holds the label of each row ("label", INT64 [Rows]) if
	// asked, else nil.
	Labels []int64
	// Names holds the name of each row's label for a text model
	// (InferText), if asked; else nil.
	Names []string
	// NumScores is the scores per row; the scores ("scores", [Rows,
	// NumScores], row-major) are in Scores32 if the model's element type
	// is float32 (Metadata.Scores "FP32"), else in Scores64; both nil if
	// not asked.
	NumScores int
	Scores32  []float32
	Scores64  []float64
}

// Infer predicts the rows of X, a []float32, []float64, []int8 or
// []uint8 of rows × Metadata.Dims values, row-major, with model name at version (empty: the
// version in use; name "" as for Metadata): the model is looked up once, and that version answers
// the whole request even if a reload puts another in use meanwhile.
// Values are converted to the model's element type as the REST endpoints
// convert them (float32 → float64 exactly, float64 → float32 rounded,
// integers exactly; a quantised model takes int8 and uint8 values as its
// bytes, x = v with scale 1, without quantising them again); a
// NaN, a ±Inf or a value beyond the model's type is refused, as are a
// length that is not rows × Dims and rows < 1 (ErrInput). The memory the
// inference takes beyond X (converted samples, labels and scores) is
// counted against Options.MaxInflightBytes while it runs (ErrLimit,
// ErrBusy); rows × NumScores is bounded by Options.MaxScores (ErrLimit).
// A done ctx is returned as ctx.Err() before the model runs. Every other
// error wraps one of ErrNotFound, ErrInput, ErrLimit, ErrBusy, ErrScore.
func (s *Server) Infer(ctx context.Context, name, version string, X any, rows int, out Outputs) (*Result, error) {
	m, e := s.lookup(name, version)
	if e != nil {
		return nil, e.err()
	}
	if !out.Label && !out.Scores {
		return nil, bad(http.StatusBadRequest, `no output asked for: ask for "label", "scores" or both`).err()
	}
	if rows < 1 {
		return nil, bad(http.StatusBadRequest, "%d rows: a request holds at least one", rows).err()
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	b := s.pool.Get().(*buffers)
	defer s.put(b)
	b.h = hold{s: s}
	res := &Result{Model: m.name, Version: m.version, Rows: rows}
	if m.c32 != nil {
		e = inferWith(s, m, m.c32, b, X, rows, out, res, &res.Scores32)
	} else {
		e = inferWith(s, m, m.c64, b, X, rows, out, res, &res.Scores64)
	}
	if e != nil {
		return nil, e.err()
	}
	return res, nil
}

// inferWith runs Infer with classifier c of element type T, the scores
// going to *scores.
func inferWith[T kernel.Float](s *Server, m *loaded, c Classifier[T], b *buffers, X any, rows int, out Outputs, res *Result, scores *[]T) *httpError {
	var x []T
	var e *httpError
	var u8 []uint8
	var i8 []int8
	switch X := X.(type) {
	case []float32:
		x, e = samples[T](m, b, X, rows)
	case []float64:
		x, e = samples[T](m, b, X, rows)
	case []int8:
		if i8 = X; m.q == nil {
			x, e = samples[T](m, b, X, rows)
		}
	case []uint8:
		if u8 = X; m.q == nil {
			x, e = samples[T](m, b, X, rows)
		}
	default:
		return bad(http.StatusBadRequest, "samples of type %T: send float32, float64, int8 or uint8 values", X)
	}
	if e != nil {
		return e
	}
	if x == nil { // a quantised model's bytes
		if n := max(len(u8), len(i8)); rows > n/m.dims || rows*m.dims != n {
			return bad(http.StatusBadRequest, "%d values for %d rows of %d features: want %d", n, rows, m.dims, rows*m.dims)
		}
	}
	k := 0
	if out.Scores {
		k = m.nscores
	}
	if e := s.tooManyScores(int64(rows), int64(k)); e != nil {
		return e
	}
	var labels []int
	var sc []T
	switch {
	case x != nil:
		labels, sc, e = run(c, m, x, rows, b, out.Scores)
	case u8 != nil:
		var s32 []float32
		labels, s32, e = runBytes(m.q, m, u8, rows, b, out.Scores)
		sc = any(s32).([]T)
	default:
		var s32 []float32
		labels, s32, e = runBytes(m.q, m, i8, rows, b, out.Scores)
		sc = any(s32).([]T)
	}
	if e != nil {
		return e
	}
	if out.Label {
		res.Labels = make([]int64, rows)
		for i, l := range labels {
			res.Labels[i] = int64(l)
		}
	}
	if out.Scores {
		res.NumScores = k
		*scores = slices.Clone(sc)
	}
	return nil
}

// samples returns the rows × dims values of X in the model's element type
// T: X itself if it is a []T, else a copy in b's sample buffer (taken from
// the in-flight budget); every value checked finite in T.
func samples[T kernel.Float, S kernel.Float | int8 | uint8](m *loaded, b *buffers, X []S, rows int) ([]T, *httpError) {
	d := m.dims
	if rows > len(X)/d || rows*d != len(X) {
		return nil, bad(http.StatusBadRequest, "%d values for %d rows of %d features: want %d", len(X), rows, d, rows*d)
	}
	if x, ok := any(X).([]T); ok {
		for i, v := range x {
			if !finite(v) {
				return nil, nonFinite(i, d, float64(v))
			}
		}
		return x, nil
	}
	if e := b.h.take(int64(len(X)) * int64(m.elem)); e != nil {
		return nil, e
	}
	x := grow(pick[T](&b.x32, &b.x64), len(X))
	for i, v := range X {
		x[i] = T(v)
		if !finite(x[i]) {
			return nil, nonFinite(i, d, float64(v))
		}
	}
	return x, nil
}
