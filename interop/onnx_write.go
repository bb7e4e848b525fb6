package interop

import (
	"bytes"
	"fmt"
	"io"
	"math"

	"github.com/rosenblatt-go/rosenblatt/expansion"
	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/internal/modelreg"
	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/linear"
)

// ONNXOptions are the choices of WriteONNX. The zero value writes a model
// only if every value is exactly a float32.
type ONNXOptions struct {
	// Round writes values of a float64 model rounded to float32 (the type
	// of ONNX-ML's attributes) instead of refusing a model with a value
	// that is not exactly a float32.
	Round bool
}

// The versions written: IR version 8 (ONNX 1.10 and later read it), the
// default opset 13 and ai.onnx.ml 1 (where LinearClassifier,
// SVMClassifier, Scaler and Normalizer were defined and have not changed).
const (
	onnxIRVersion    = 8
	onnxDefaultOpset = 13
	onnxMLOpset      = 1
)

// MarshalONNX returns m as an ONNX-ML model file; see WriteONNX.
func MarshalONNX(m any, opts *ONNXOptions) ([]byte, error) {
	var buf bytes.Buffer
	if err := WriteONNX(&buf, m, opts); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// WriteONNX writes m as an ONNX-ML model file: a linear.Model (a
// perceptron's or the linear SVM's; float32 or float64) as a LinearClassifier
// (a perceptron that normalises its samples, or a voted one, has no such
// form and is refused with ErrUnsupported), a binary or one-vs-one
// expansion.Model or a Voting as an SVMClassifier (LIBSVM's layout, as that
// operator defines it), and a Pipeline as its steps (Scaler, Normalizer,
// Cast) before its classifier. The graph reads a float tensor "X" of
// [N, Dims] and writes the labels "label" (int64) and the decision values
// "scores". ONNX-ML's attributes are float32: a float64 model with a value
// that is not exactly a float32 is refused with ErrUnsupported unless
// opts.Round is set. ReadONNX reads the file back to the same values.
func WriteONNX(w io.Writer, m any, opts *ONNXOptions) error {
	round := opts != nil && opts.Round
	var steps []Step
	if p, ok := m.(*Pipeline); ok {
		steps, m = p.steps, p.inner
	}
	var node []byte
	var d int
	var err error
	switch v := m.(type) {
	case *linear.Model[float64]:
		node, d, err = perceptronNode[float64](v, round)
	case *expansion.Model[float64]:
		node, d, err = svmNode[float64](v, nil, round)
	case *Voting:
		node, d, err = svmNode[float64](v.Model, v.rank, round)
	default:
		// The float32 models, recognised through internal/modelreg: naming
		// them would compile their methods here again.
		switch {
		case modelreg.ElemOf(modelreg.Linear, m) == 4:
			node, d, err = perceptronNode(m.(linearSource[float32]), round)
		case modelreg.ElemOf(modelreg.Expansion, m) == 4:
			node, d, err = svmNode(m.(kernelModel[float32]), nil, round)
		default:
			return fmt.Errorf("%w: a %v has no ONNX-ML form here (linear and kernel SVMs have)", ErrUnsupported, m)
		}
	}
	if err != nil {
		return err
	}
	var g []byte
	cur := "X"
	for i, s := range steps {
		out := fmt.Sprintf("x%d", i+1)
		n, err := stepNode(&s, cur, out, round)
		if err != nil {
			return err
		}
		g = pbBytes(g, 1, n)
		cur = out
	}
	// The classifier node, its input set now.
	var cn []byte
	cn = pbString(cn, 1, cur)
	cn = append(cn, node...)
	g = pbBytes(g, 1, cn)
	g = pbString(g, 2, "rosenblatt")
	g = pbBytes(g, 11, valueInfo("X", dtFloat, -1, int64(d)))
	g = pbBytes(g, 12, valueInfo("label", dtInt64, -1))
	g = pbBytes(g, 12, valueInfo("scores", dtFloat, -1, -1))
	var mp []byte
	mp = pbVarint(mp, 1, onnxIRVersion)
	mp = pbString(mp, 2, "rosenblatt")
	mp = pbBytes(mp, 7, g)
	mp = pbBytes(mp, 8, pbVarint(pbString(nil, 1, ""), 2, onnxDefaultOpset))
	mp = pbBytes(mp, 8, pbVarint(pbString(nil, 1, domainML), 2, onnxMLOpset))
	_, err = w.Write(mp)
	return err
}

// valueInfo is a ValueInfoProto of a tensor; a dimension < 0 is written
// as a dim_param ("N" for the first).
func valueInfo(name string, elem int64, dims ...int64) []byte {
	var shape []byte
	for i, d := range dims {
		var dim []byte
		switch {
		case d >= 0:
			dim = pbVarint(dim, 1, d)
		case i == 0:
			dim = pbString(dim, 2, "N")
		default:
			dim = pbString(dim, 2, "S")
		}
		shape = pbBytes(shape, 1, dim)
	}
	tt := pbBytes(pbVarint(nil, 1, elem), 2, shape)
	return pbBytes(pbString(nil, 1, name), 2, pbBytes(nil, 1, tt))
}

// f32 returns v as a float32, or ok = false if that changes it and round
// is not set.
func f32(v float64, round bool) (float32, bool) {
	f := float32(v)
	return f, round || float64(f) == v
}

// floatsAttr32 writes an AttributeProto of type FLOATS.
func attrFloats32(b []byte, name string, v []float64, round bool) ([]byte, error) {
	var a []byte
	a = pbString(a, 1, name)
	for _, x := range v {
		f, ok := f32(x, round)
		if !ok {
			return nil, fmt.Errorf("%w: %s value %v is not exactly a float32, the type of ONNX-ML's attributes (write with ONNXOptions.Round to round it)", ErrUnsupported, name, x)
		}
		if math.IsInf(float64(f), 0) {
			return nil, fmt.Errorf("%w: %s value %v overflows a float32", ErrUnsupported, name, x)
		}
		a = pbFloat(a, 7, f)
	}
	a = pbVarint(a, 20, attrFloats)
	return pbBytes(b, 5, a), nil
}

func attrInts64(b []byte, name string, v []int64) []byte {
	var a []byte
	a = pbString(a, 1, name)
	for _, x := range v {
		a = pbVarint(a, 8, x)
	}
	a = pbVarint(a, 20, attrInts)
	return pbBytes(b, 5, a)
}

func attrStr(b []byte, name, v string) []byte {
	a := pbString(nil, 1, name)
	a = pbString(a, 4, v)
	a = pbVarint(a, 20, attrString)
	return pbBytes(b, 5, a)
}

func attrInt64(b []byte, name string, v int64) []byte {
	a := pbString(nil, 1, name)
	a = pbVarint(a, 3, v)
	a = pbVarint(a, 20, attrInt)
	return pbBytes(b, 5, a)
}

// nodeTail writes the outputs, op_type, domain and attributes of a
// classifier node (its input is written by the caller).
func nodeTail(op string, attrs []byte) []byte {
	var n []byte
	n = pbString(n, 2, "label")
	n = pbString(n, 2, "scores")
	n = pbString(n, 3, op)
	n = pbString(n, 4, op)
	n = pbString(n, 7, domainML)
	return append(n, attrs...)
}

func labels64(labels []int) []int64 {
	out := make([]int64, len(labels))
	for i, y := range labels {
		out[i] = int64(y)
	}
	return out
}

// linearWeights is what a LinearClassifier is written from: one weight
// vector and bias per score (one for a binary model, whose positive score
// predicts the second of its sorted labels; one per label otherwise,
// the highest score's label predicted), as the linear SVM and
// linear.Model give them.
type linearWeights[T kernel.Float] interface {
	Dims() int
	NumScores() int
	Classes() []int
	Weights(r int) ([]T, T)
}

// linearSource is what the LIBLINEAR and ONNX writers read of a
// *linear.Model[T], taken as an interface as kernelModel is.
type linearSource[T kernel.Float] interface {
	linearWeights[T]
	Algorithm() linear.Algorithm
	Scaling() linear.Scaling
}

// perceptronNode is linearNode for a linear.Model, whose decision is
// LinearClassifier's when it scores w·x + b: a binary model's labels are
// −1 and +1 (a zero score predicts −1, as LinearClassifier gives
// classlabels[0] for a score that is not positive), a multiclass one's the
// label of the highest score, the first on a tie (LinearClassifier's
// argmax in the file's order, the sorted labels). A model that scales its
// samples by their norm, and a voted one, predict otherwise and are
// refused.
func perceptronNode[T linear.Float](m linearSource[T], round bool) ([]byte, int, error) {
	switch {
	case m.Dims() == 0:
		return nil, 0, fmt.Errorf("%w: an untrained linear model", ErrUnsupported)
	case m.Algorithm() == linear.Voted:
		return nil, 0, fmt.Errorf("%w: a voted perceptron predicts by a vote of its weight vectors, which LinearClassifier does not", ErrUnsupported)
	case m.Scaling() != linear.ScaleNone:
		return nil, 0, fmt.Errorf("%w: a perceptron with scaling %v scores each sample divided by its norm, which LinearClassifier does not", ErrUnsupported, m.Scaling())
	}
	return linearNode[T](m, round)
}

func linearNode[T kernel.Float](m linearWeights[T], round bool) ([]byte, int, error) {
	d, r := m.Dims(), m.NumScores()
	coef := make([]float64, 0, r*d)
	icpt := make([]float64, r)
	for c := range r {
		w, b := m.Weights(c)
		for _, v := range w {
			coef = append(coef, float64(v))
		}
		icpt[c] = float64(b)
	}
	var a []byte
	a = attrInts64(a, "classlabels_ints", labels64(m.Classes()))
	a, err := attrFloats32(a, "coefficients", coef, round)
	if err != nil {
		return nil, 0, err
	}
	if a, err = attrFloats32(a, "intercepts", icpt, round); err != nil {
		return nil, 0, err
	}
	a = attrStr(a, "post_transform", "NONE")
	return nodeTail("LinearClassifier", a), d, nil
}

func svmNode[T expansion.Float](m kernelModel[T], rank []int, round bool) ([]byte, int, error) {
	lay, err := libsvmLayoutOf(m, rank)
	if err != nil {
		return nil, 0, err
	}
	p := m.Parts()
	k, d := len(p.Labels), p.Dims
	var a []byte
	a = attrInts64(a, "classlabels_ints", labels64(lay.labels))
	var kt string
	var params []float64
	switch kern := p.Kernel.(type) {
	case gram.Linear:
		kt, params = "LINEAR", []float64{0, 0, 0}
	case gram.Polynomial:
		kt, params = "POLY", []float64{kern.Gamma, kern.Coef0, float64(kern.Degree)}
	case gram.RBF:
		kt, params = "RBF", []float64{kern.Gamma, 0, 0}
	default:
		if g, c, ok := sigmoidParams(p.Kernel); ok {
			kt, params = "SIGMOID", []float64{g, c, 0}
			break
		}
		return nil, 0, fmt.Errorf("%w: kernel %v has no ONNX-ML form", ErrUnsupported, p.Kernel)
	}
	s := len(lay.sv)
	coef := make([]float64, (k-1)*s)
	for q := 0; q < s; q++ {
		for r := 0; r < k-1; r++ {
			coef[r*s+q] = lay.coef[q*(k-1)+r]
		}
	}
	sv := make([]float64, s*d)
	for q, i := range lay.sv {
		row := sv[q*d : (q+1)*d]
		if p.Sparse != nil {
			x := p.Sparse.Row(i)
			for t, j := range x.Idx {
				row[j] = float64(x.Val[t])
			}
		} else {
			for j, v := range p.SV[i*d : (i+1)*d] {
				row[j] = float64(v)
			}
		}
	}
	rho := make([]float64, len(lay.rho))
	for i, v := range lay.rho {
		rho[i] = -v // ONNX adds rho; LIBSVM subtracts it
	}
	nsv := make([]int64, k)
	for c, n := range lay.nsv {
		nsv[c] = int64(n)
	}
	if a, err = attrFloats32(a, "coefficients", coef, round); err != nil {
		return nil, 0, err
	}
	if a, err = attrFloats32(a, "kernel_params", params, round); err != nil {
		return nil, 0, err
	}
	a = attrStr(a, "kernel_type", kt)
	a = attrStr(a, "post_transform", "NONE")
	if a, err = attrFloats32(a, "rho", rho, round); err != nil {
		return nil, 0, err
	}
	if a, err = attrFloats32(a, "support_vectors", sv, round); err != nil {
		return nil, 0, err
	}
	a = attrInts64(a, "vectors_per_class", nsv)
	return nodeTail("SVMClassifier", a), d, nil
}

// stepNode writes a feature step as a node from in to out.
func stepNode(s *Step, in, out string, round bool) ([]byte, error) {
	var n []byte
	n = pbString(n, 1, in)
	n = pbString(n, 2, out)
	n = pbString(n, 3, s.Op+"_"+out)
	var err error
	switch s.Op {
	case "Cast":
		n = pbString(n, 4, "Cast")
		n = attrInt64(n, "to", dtFloat)
		return n, nil
	case "Scaler":
		n = pbString(n, 4, "Scaler")
		n = pbString(n, 7, domainML)
		if s.Offset != nil {
			if n, err = attrFloats32(n, "offset", s.Offset, round); err != nil {
				return nil, err
			}
		}
		if s.Scale != nil {
			if n, err = attrFloats32(n, "scale", s.Scale, round); err != nil {
				return nil, err
			}
		}
		return n, nil
	case "Normalizer":
		n = pbString(n, 4, "Normalizer")
		n = pbString(n, 7, domainML)
		return attrStr(n, "norm", s.Norm), nil
	}
	return nil, fmt.Errorf("%w: feature step %q", ErrUnsupported, s.Op)
}
