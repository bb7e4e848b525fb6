package interop

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/svm"
)

// Step is a feature step of an ONNX-ML graph before its classifier,
// applied to each sample as the operator defines it:
//
//   - "Scaler": x[j] = (x[j] − Offset[j]) · Scale[j] (a single offset or
//     scale applies to every feature; none means 0 and 1);
//   - "Normalizer": x divided by its largest |x[j]| (Norm "MAX"), by
//     Σ|x[j]| ("L1") or by √Σx[j]² ("L2"), unchanged when that is 0;
//   - "Cast": every value rounded to float32 (a Cast to FLOAT).
type Step struct {
	Op            string
	Offset, Scale []float64
	Norm          string
}

// apply transforms x in place.
func (s *Step) apply(x []float64) {
	switch s.Op {
	case "Cast":
		for j, v := range x {
			x[j] = float64(float32(v))
		}
	case "Scaler":
		for j := range x {
			off, sc := 0.0, 1.0
			if len(s.Offset) == 1 {
				off = s.Offset[0]
			} else if len(s.Offset) > 0 {
				off = s.Offset[j]
			}
			if len(s.Scale) == 1 {
				sc = s.Scale[0]
			} else if len(s.Scale) > 0 {
				sc = s.Scale[j]
			}
			x[j] = (x[j] - off) * sc
		}
	case "Normalizer":
		var n float64
		for _, v := range x {
			switch s.Norm {
			case "MAX":
				n = max(n, math.Abs(v))
			case "L1":
				n += math.Abs(v)
			case "L2":
				n += v * v
			}
		}
		if s.Norm == "L2" {
			n = math.Sqrt(n)
		}
		if n != 0 {
			for j := range x {
				x[j] /= n
			}
		}
	}
}

// String describes the step, e.g. "Normalizer(L2)".
func (s *Step) String() string {
	switch s.Op {
	case "Normalizer":
		return "Normalizer(" + s.Norm + ")"
	case "Cast":
		return "Cast(float32)"
	}
	return s.Op
}

// Pipeline is a classifier behind feature steps: each sample is copied,
// transformed by the steps in order, and given to the classifier. It is
// safe for concurrent use.
type Pipeline struct {
	steps []Step
	inner Classifier
	pool  sync.Pool
}

// NewPipeline returns inner behind steps. A Scaler's offsets and scales
// must number 0, 1 or inner.Dims().
func NewPipeline(steps []Step, inner Classifier) (*Pipeline, error) {
	d := inner.Dims()
	for _, s := range steps {
		switch s.Op {
		case "Scaler":
			if n := len(s.Offset); n > 1 && n != d {
				return nil, fmt.Errorf("%w: Scaler with %d offsets for %d features", ErrModel, n, d)
			}
			if n := len(s.Scale); n > 1 && n != d {
				return nil, fmt.Errorf("%w: Scaler with %d scales for %d features", ErrModel, n, d)
			}
			if !finite(s.Offset) || !finite(s.Scale) {
				return nil, fmt.Errorf("%w: Scaler with a NaN or infinite value", ErrModel)
			}
		case "Normalizer":
			if s.Norm != "MAX" && s.Norm != "L1" && s.Norm != "L2" {
				return nil, fmt.Errorf("%w: Normalizer norm %q", ErrModel, s.Norm)
			}
		case "Cast":
		default:
			return nil, fmt.Errorf("%w: feature step %q", ErrUnsupported, s.Op)
		}
	}
	return &Pipeline{steps: slices.Clone(steps), inner: inner}, nil
}

// Steps returns the feature steps.
func (p *Pipeline) Steps() []Step { return slices.Clone(p.steps) }

// Classifier returns the classifier behind the steps.
func (p *Pipeline) Classifier() Classifier { return p.inner }

// Dims is the classifier's.
func (p *Pipeline) Dims() int { return p.inner.Dims() }

// Classes is the classifier's.
func (p *Pipeline) Classes() []int { return p.inner.Classes() }

// NumScores is the classifier's.
func (p *Pipeline) NumScores() int { return p.inner.NumScores() }

// String describes the steps and the classifier.
func (p *Pipeline) String() string {
	var b strings.Builder
	for i := range p.steps {
		b.WriteString(p.steps[i].String())
		b.WriteString(" → ")
	}
	b.WriteString(p.inner.String())
	return b.String()
}

func (p *Pipeline) buf(n int) *[]float64 {
	b, _ := p.pool.Get().(*[]float64)
	if b == nil {
		b = new([]float64)
	}
	if cap(*b) < n {
		*b = make([]float64, n)
	}
	*b = (*b)[:n]
	return b
}

// transform copies the rows of X (Dims each) into a pooled buffer and
// applies the steps.
func (p *Pipeline) transform(X []float64) (*[]float64, error) {
	d := p.Dims()
	if len(X)%d != 0 {
		return nil, fmt.Errorf("%w: %d values, not a multiple of %d features", svm.ErrDims, len(X), d)
	}
	b := p.buf(len(X))
	copy(*b, X)
	for i := 0; i < len(X); i += d {
		row := (*b)[i : i+d]
		for _, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				p.pool.Put(b)
				return nil, fmt.Errorf("%w: sample", svm.ErrNonFinite)
			}
		}
		for s := range p.steps {
			p.steps[s].apply(row)
		}
	}
	return b, nil
}

// dense writes the sparse row x as a dense transformed sample.
func (p *Pipeline) dense(x dataset.SparseRow[float64]) (*[]float64, error) {
	d := p.Dims()
	if len(x.Idx) != len(x.Val) {
		return nil, fmt.Errorf("%w: %d indices, %d values", svm.ErrDims, len(x.Idx), len(x.Val))
	}
	b := p.buf(d)
	clear(*b)
	for q, j := range x.Idx {
		if j < 0 || int(j) >= d {
			p.pool.Put(b)
			return nil, fmt.Errorf("%w: feature %d of a model of %d", svm.ErrDims, j, d)
		}
		(*b)[j] = x.Val[q]
	}
	out, err := p.transform(*b)
	p.pool.Put(b)
	return out, err
}

func (p *Pipeline) dims(n int) error {
	if n != p.Dims() {
		return fmt.Errorf("%w: sample has %d values, model has %d features", svm.ErrDims, n, p.Dims())
	}
	return nil
}

// Predict returns the label of x after the steps.
func (p *Pipeline) Predict(x []float64) (int, error) {
	if err := p.dims(len(x)); err != nil {
		return 0, err
	}
	b, err := p.transform(x)
	if err != nil {
		return 0, err
	}
	defer p.pool.Put(b)
	return p.inner.Predict(*b)
}

// Scores writes the decision values of x after the steps.
func (p *Pipeline) Scores(dst, x []float64) error {
	if err := p.dims(len(x)); err != nil {
		return err
	}
	b, err := p.transform(x)
	if err != nil {
		return err
	}
	defer p.pool.Put(b)
	return p.inner.Scores(dst, *b)
}

// PredictBatch writes the label of each row of X to dst.
func (p *Pipeline) PredictBatch(dst []int, X []float64) error {
	b, err := p.transform(X)
	if err != nil {
		return err
	}
	defer p.pool.Put(b)
	return p.inner.PredictBatch(dst, *b)
}

// ScoresBatch writes the decision values of each row of X to dst.
func (p *Pipeline) ScoresBatch(dst, X []float64) error {
	b, err := p.transform(X)
	if err != nil {
		return err
	}
	defer p.pool.Put(b)
	return p.inner.ScoresBatch(dst, *b)
}

// PredictSparse returns the label of the sparse sample x: a Scaler's
// offset makes it dense, so it is made dense first.
func (p *Pipeline) PredictSparse(x dataset.SparseRow[float64]) (int, error) {
	b, err := p.dense(x)
	if err != nil {
		return 0, err
	}
	defer p.pool.Put(b)
	return p.inner.Predict(*b)
}

// ScoresSparse writes the decision values of the sparse sample x.
func (p *Pipeline) ScoresSparse(dst []float64, x dataset.SparseRow[float64]) error {
	b, err := p.dense(x)
	if err != nil {
		return err
	}
	defer p.pool.Put(b)
	return p.inner.Scores(dst, *b)
}

// PredictBatchSparse writes the label of each row of X to dst.
func (p *Pipeline) PredictBatchSparse(dst []int, X *dataset.CSR[float64]) error {
	if X == nil || len(dst) != X.Rows {
		return fmt.Errorf("%w: len(dst) = %d for a matrix of %v rows", svm.ErrDims, len(dst), rowsOf(X))
	}
	for i := range dst {
		v, err := p.PredictSparse(X.Row(i))
		if err != nil {
			return err
		}
		dst[i] = v
	}
	return nil
}

// ScoresBatchSparse writes the decision values of each row of X to dst.
func (p *Pipeline) ScoresBatchSparse(dst []float64, X *dataset.CSR[float64]) error {
	r := p.NumScores()
	if X == nil || len(dst) != X.Rows*r {
		return fmt.Errorf("%w: len(dst) = %d for a matrix of %v rows", svm.ErrDims, len(dst), rowsOf(X))
	}
	for i := 0; i < X.Rows; i++ {
		if err := p.ScoresSparse(dst[i*r:(i+1)*r], X.Row(i)); err != nil {
			return err
		}
	}
	return nil
}
