package model

import (
	"fmt"
	"slices"
	"strconv"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/internal/modelfile"
	"github.com/rosenblatt-go/rosenblatt/text"
)

// TextModel is the kind of a text model (Text): a featurizer, label names
// and an inner model of any other kind.
const TextModel Kind = 64

// MaxLabelName bounds the bytes of one label name of a text model.
const MaxLabelName = 4096

// Text is a model of raw text: a text.Featurizer that turns a document into
// a sparse row, a Classifier of those rows (Inner, float32 or float64), and
// a name per label. It is safe for concurrent use. As returns its inner
// Classifier, which takes rows already featurized.
//
// Its binary file (kind TextModel) is the module's envelope with the inner
// model's element type, features and labels in the header, then the body
//
//	8      F, the bytes of the stored featurizer (text.Featurizer.MarshalBinary)
//	8      N, the bytes of the names
//	8      I, the bytes of the inner model's file
//	F      the featurizer
//	N      per label, in the order of Classes: a uint32 length and the UTF-8 name
//	I      the inner model's binary file, whole (its own header and checksum)
//
// and the checksum of the whole. A text model has no JSON form.
type Text struct {
	feat    *text.Featurizer
	inner   Model
	classes []int // inner's, taken once: Name runs per prediction and allocates nothing
	names   []string
	pred    textPredictor
}

// textPredictor featurizes and classifies in the inner model's type.
type textPredictor interface {
	predict(doc string) (int, error)
	scores(dst []float64, doc string) error
}

type textOf[T Float] struct {
	c    Classifier[T]
	f    *text.Featurizer
	pool sync.Pool // *textBuf[T]
}

type textBuf[T Float] struct {
	rows *text.Rows[T]
	row  dataset.SparseRow[T]
	sc   []T
}

func (p *textOf[T]) get(doc string) *textBuf[T] {
	b, _ := p.pool.Get().(*textBuf[T])
	if b == nil {
		b = &textBuf[T]{rows: text.NewRows[T](p.f)}
	}
	b.row = b.rows.Row(b.row, unsafe.Slice(unsafe.StringData(doc), len(doc)))
	return b
}

func (p *textOf[T]) predict(doc string) (int, error) {
	b := p.get(doc)
	defer p.pool.Put(b)
	return p.c.PredictSparse(b.row)
}

func (p *textOf[T]) scores(dst []float64, doc string) error {
	b := p.get(doc)
	defer p.pool.Put(b)
	b.sc = slices.Grow(b.sc[:0], len(dst))[:len(dst)]
	if err := p.c.ScoresSparse(b.sc, b.row); err != nil {
		return err
	}
	for i, v := range b.sc {
		dst[i] = float64(v)
	}
	return nil
}

// NewText returns the text model of featurizer f and the inner model
// inner (a Classifier[float32] or [float64] of f.Dims() features, not a
// text model), with names[i] the name of inner.Classes()[i]; nil names are
// the labels' decimal forms. Names must be distinct, valid UTF-8, at most
// MaxLabelName bytes.
func NewText(f *text.Featurizer, inner Model, names []string) (*Text, error) {
	if f == nil || inner == nil {
		return nil, fmt.Errorf("%w: a text model needs a featurizer and an inner model", ErrUnsupported)
	}
	if _, ok := inner.(*Text); ok {
		return nil, fmt.Errorf("%w: a text model inside a text model", ErrUnsupported)
	}
	if inner.Dims() != f.Dims() {
		return nil, fmt.Errorf("%w: the inner model takes %d features, the featurizer makes %d", ErrCorrupt, inner.Dims(), f.Dims())
	}
	classes := inner.Classes()
	if names == nil {
		names = make([]string, len(classes))
		for i, c := range classes {
			names[i] = strconv.Itoa(c)
		}
	}
	if len(names) != len(classes) {
		return nil, fmt.Errorf("%w: %d label names for %d labels", ErrCorrupt, len(names), len(classes))
	}
	seen := make(map[string]bool, len(names))
	for _, n := range names {
		switch {
		case len(n) > MaxLabelName || !utf8.ValidString(n):
			return nil, fmt.Errorf("%w: label name %.40q (want valid UTF-8 of at most %d bytes)", ErrCorrupt, n, MaxLabelName)
		case seen[n]:
			return nil, fmt.Errorf("%w: label name %q twice", ErrCorrupt, n)
		}
		seen[n] = true
	}
	t := &Text{feat: f, inner: inner, classes: slices.Clone(classes), names: slices.Clone(names)}
	switch c := inner.(type) {
	case Classifier[float32]:
		t.pred = &textOf[float32]{c: c, f: f}
	case Classifier[float64]:
		t.pred = &textOf[float64]{c: c, f: f}
	default:
		return nil, fmt.Errorf("%w: %s is no Classifier", ErrUnsupported, inner)
	}
	return t, nil
}

// Dims is the number of columns the featurizer makes.
func (t *Text) Dims() int { return t.inner.Dims() }

// Classes returns the inner model's labels.
func (t *Text) Classes() []int { return t.inner.Classes() }

// NumScores is the inner model's.
func (t *Text) NumScores() int { return t.inner.NumScores() }

// String describes the model in one line.
func (t *Text) String() string {
	return "text model (" + t.feat.String() + ") of a " + t.inner.String()
}

// Featurizer returns the model's featurizer.
func (t *Text) Featurizer() *text.Featurizer { return t.feat }

// Inner returns the model of the featurized rows.
func (t *Text) Inner() Model { return t.inner }

// Names returns the label names, in the order of Classes.
func (t *Text) Names() []string { return slices.Clone(t.names) }

// Name returns the name of label y, or "" if y is none of Classes.
func (t *Text) Name(y int) string {
	if i := slices.Index(t.classes, y); i >= 0 {
		return t.names[i]
	}
	return ""
}

// PredictText returns the name of the label of document doc.
func (t *Text) PredictText(doc string) (string, error) {
	y, err := t.pred.predict(doc)
	if err != nil {
		return "", err
	}
	return t.Name(y), nil
}

// PredictTextLabel returns the label of document doc.
func (t *Text) PredictTextLabel(doc string) (int, error) { return t.pred.predict(doc) }

// ScoresText writes the NumScores decision values of doc to dst.
func (t *Text) ScoresText(dst []float64, doc string) error {
	if len(dst) != t.NumScores() {
		return fmt.Errorf("%w: %d scores asked, the model gives %d", ErrUnsupported, len(dst), t.NumScores())
	}
	return t.pred.scores(dst, doc)
}

var textErrs = modelfile.Errors{Corrupt: ErrCorrupt, Version: ErrCorrupt, Mismatch: ErrType}

var textFamily = &modelfile.Family{Name: "text", Kinds: []byte{byte(TextModel)}, BodySize: textBodySize}

func init() { modelfile.Register(textFamily) }

// textBodySize adds the length of a text model's body from its first 24
// bytes.
func textBodySize(e modelfile.Errors, h *modelfile.Header, body []byte, sz *modelfile.Sizer) (uint64, error) {
	if h.Version != modelfile.Version {
		return 0, e.Corruptf("a text model in format version %d (they are written in version %d)", h.Version, modelfile.Version)
	}
	if len(body) < 24 {
		return 24, nil
	}
	sz.Add(24, 1)
	for i := range 3 {
		sz.Add(le64(body[8*i:]), 1)
	}
	return 0, nil
}

func le64(b []byte) uint64 {
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}

// MarshalBinary returns the model's file (kind TextModel).
func (t *Text) MarshalBinary() ([]byte, error) {
	fb, err := t.feat.MarshalBinary()
	if err != nil {
		return nil, err
	}
	ib, err := Marshal(t.inner, Binary)
	if err != nil {
		return nil, err
	}
	nn := 0
	for _, n := range t.names {
		nn += 4 + len(n)
	}
	elem := 4
	if Elem(t.inner) == "float64" {
		elem = 8
	}
	h := modelfile.Header{ElemSize: elem, Kind: byte(TextModel), Dims: t.Dims(), Labels: len(t.Classes())}
	w := modelfile.New(h, t.Classes(), 24+len(fb)+nn+len(ib))
	w.U64(uint64(len(fb)))
	w.U64(uint64(nn))
	w.U64(uint64(len(ib)))
	w.Bytes(fb)
	for _, n := range t.names {
		w.U32(uint32(len(n)))
		w.Bytes([]byte(n))
	}
	w.Bytes(ib)
	return w.Finish(), nil
}

// unmarshalTextModel decodes a text model's file.
func unmarshalTextModel(data []byte) (*Text, error) {
	h, r, err := textErrs.Open(data)
	if err != nil {
		return nil, err
	}
	if h.Kind != byte(TextModel) || h.Version != modelfile.Version || h.Count != 0 || h.Param != 0 || h.Algorithm != 0 || h.Flags != 0 {
		return nil, textErrs.Corruptf("a text model's header: kind %d version %d", h.Kind, h.Version)
	}
	labels := r.Labels(h.Labels)
	nf, nn, ni := r.U64(), r.U64(), r.U64()
	fb := r.Take(nf, 1, "featurizer bytes")
	nb := r.Take(nn, 1, "name bytes")
	ib := r.Take(ni, 1, "inner model bytes")
	if err := r.Close(); err != nil {
		return nil, err
	}
	f := new(text.Featurizer)
	if err := f.UnmarshalBinary(fb); err != nil {
		return nil, corrupt(err)
	}
	names := make([]string, 0, len(labels))
	for len(nb) > 0 {
		if len(nb) < 4 {
			return nil, textErrs.Corruptf("the label names end in a length")
		}
		n := uint64(nb[0]) | uint64(nb[1])<<8 | uint64(nb[2])<<16 | uint64(nb[3])<<24
		if n > uint64(len(nb)-4) || len(names) == len(labels) {
			return nil, textErrs.Corruptf("label name %d of %d bytes, %d left", len(names), n, len(nb)-4)
		}
		names = append(names, string(nb[4:4+n]))
		nb = nb[4+n:]
	}
	if ib == nil || len(ib) < modelfile.HeaderSize || string(ib[:len(modelfile.Magic)]) != modelfile.Magic || Kind(ib[11]) == TextModel {
		return nil, textErrs.Corruptf("the inner model is no binary model file of another kind")
	}
	inner, err := unmarshalBinary(ib)
	if err != nil {
		return nil, err
	}
	if !slices.Equal(inner.Classes(), labels) || inner.Dims() != h.Dims || Elem(inner) != modelfile.ElemName(h.ElemSize) {
		return nil, textErrs.Corruptf("the header (%d features, labels %v, %d-byte values) is not the inner model's (%d, %v, %s)", h.Dims, labels, h.ElemSize, inner.Dims(), inner.Classes(), Elem(inner))
	}
	t, err := NewText(f, inner, names)
	if err != nil {
		return nil, corrupt(err)
	}
	return t, nil
}
