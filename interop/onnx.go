package interop

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"

	"github.com/rosenblatt-go/rosenblatt/expansion"
	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/linear"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/gram"
)

// ErrOperator reports an ONNX graph with an operator this package does
// not run; the error also wraps ErrUnsupported, and is an *OperatorError
// naming the operator.
var ErrOperator = errors.New("interop: unsupported ONNX operator")

// OperatorError is the error of an ONNX node whose operator (or whose use
// of an operator) this package refuses.
type OperatorError struct {
	Domain string // "" for the default domain ai.onnx
	Op     string // the node's op_type
	Node   string // the node's field path, e.g. ModelProto.graph.node[2]
	Reason string
}

func (e *OperatorError) Error() string {
	op := e.Op
	if e.Domain != "" {
		op = e.Domain + "." + e.Op
	}
	s := fmt.Sprintf("%s: %s: operator %s", ErrOperator.Error(), e.Node, op)
	if e.Reason != "" {
		s += ": " + e.Reason
	}
	return s
}

// Is makes the error match ErrOperator and ErrUnsupported.
func (e *OperatorError) Is(target error) bool {
	return target == ErrOperator || target == ErrUnsupported
}

// Classifier is what a model read from an ONNX file is: the methods of
// package model's Classifier[float64].
type Classifier interface {
	Dims() int
	Classes() []int
	NumScores() int
	String() string
	Predict(x []float64) (int, error)
	Scores(dst, x []float64) error
	PredictBatch(dst []int, X []float64) error
	ScoresBatch(dst, X []float64) error
	PredictSparse(x dataset.SparseRow[float64]) (int, error)
	ScoresSparse(dst []float64, x dataset.SparseRow[float64]) error
	PredictBatchSparse(dst []int, X *dataset.CSR[float64]) error
	ScoresBatchSparse(dst []float64, X *dataset.CSR[float64]) error
}

// ONNXFile is what an ONNX-ML model file holds.
type ONNXFile struct {
	// Model predicts as the graph does: a linear SVM's *linear.Model[float64]
	// (LinearClassifier, MatMul+Add), an *expansion.Model[float64] or a *Voting
	// (SVMClassifier), or a *Pipeline of one of them behind the graph's
	// feature steps.
	Model Classifier
	// Op is the classifier's operator: "LinearClassifier",
	// "SVMClassifier" or "MatMul".
	Op string
	// Steps are the feature steps before the classifier (also in Model
	// when there are any).
	Steps []Step
	// Labels are the classes in the file's order.
	Labels []int
	// ProbA and ProbB are SVMClassifier's prob_a and prob_b (Platt's
	// sigmoid per pair of classes, LIBSVM's probA and probB), nil when
	// absent.
	ProbA, ProbB []float64
	// Producer is the file's producer_name.
	Producer string
}

// IsONNX reports whether data begins as an ONNX ModelProto does: field 1
// (ir_version) as a varint between 1 and 100, as every ONNX writer puts
// first.
func IsONNX(data []byte) bool {
	if len(data) < 2 || data[0] != 0x08 {
		return false
	}
	v, n := uvarint(data[1:])
	return n > 0 && v >= 1 && v <= 100
}

// The domains of the operators read.
const (
	domainML = "ai.onnx.ml"
)

// ReadONNX decodes an ONNX-ML model file (a ModelProto) whose graph is a
// classifier this package runs; see the package documentation. Errors name
// the protobuf field and wrap ErrSyntax (malformed), ErrUnsupported (a
// valid graph this package does not run; ErrOperator and *OperatorError
// for an operator) or ErrModel.
func ReadONNX(data []byte, opts *Options) (*ONNXFile, error) {
	mp, err := decodeModel(data)
	if err != nil {
		return nil, err
	}
	g := mp.graph
	switch {
	case g == nil:
		return nil, pbErr("ModelProto.graph", "missing")
	case mp.functions > 0:
		return nil, fmt.Errorf("%w: field ModelProto.functions: a model with local functions", ErrUnsupported)
	case g.sparse > 0:
		return nil, fmt.Errorf("%w: field ModelProto.graph.sparse_initializer: sparse initializers", ErrUnsupported)
	}
	opsets := map[string]int64{}
	for i, o := range mp.opsets {
		d := o.domain
		if d == "ai.onnx" {
			d = ""
		}
		if _, dup := opsets[d]; dup {
			return nil, pbErr(fmt.Sprintf("ModelProto.opset_import[%d].domain", i), "%q imported twice", o.domain)
		}
		opsets[d] = o.version
	}
	inits := map[string]*onnxTensor{}
	for _, t := range g.inits {
		if t.name == "" {
			return nil, pbErr(t.path+".name", "an initializer without a name")
		}
		inits[t.name] = t
	}
	var in []onnxValueInfo
	for _, v := range g.inputs {
		if _, ok := inits[v.name]; !ok {
			in = append(in, v)
		}
	}
	if len(in) != 1 {
		return nil, fmt.Errorf("%w: field ModelProto.graph.input: %d inputs besides the initializers, want one (the samples)", ErrUnsupported, len(in))
	}
	x := in[0]
	if x.elemType != dtFloat && x.elemType != dtDouble && x.elemType != 0 {
		return nil, fmt.Errorf("%w: field ModelProto.graph.input[0] (%s): element type %d (float and double inputs are read)", ErrUnsupported, x.name, x.elemType)
	}
	dims := 0
	if x.hasShape {
		if len(x.dims) != 2 {
			return nil, fmt.Errorf("%w: field ModelProto.graph.input[0] (%s): a tensor of %d dimensions, want [N, features]", ErrUnsupported, x.name, len(x.dims))
		}
		if x.dims[1] > 0 {
			if x.dims[1] > int64(len(data)) {
				return nil, pbErr("ModelProto.graph.input[0].type.tensor_type.shape.dim[1]", "%d features in a file of %d bytes", x.dims[1], len(data))
			}
			dims = int(x.dims[1])
		}
	}
	b := &graphBuilder{file: &ONNXFile{Producer: mp.producer}, opsets: opsets, inits: inits, dims: dims, limit: opts.maxValues(len(data)), cur: x.name, made: map[string]bool{}}
	for _, n := range g.nodes {
		if err := b.node(n); err != nil {
			return nil, err
		}
	}
	f := b.file
	if b.clf == nil && b.matmul == nil {
		return nil, fmt.Errorf("%w: field ModelProto.graph.node: no classifier (LinearClassifier, SVMClassifier or MatMul) in the graph", ErrUnsupported)
	}
	if b.matmul != nil {
		if err := b.finishMatMul(); err != nil {
			return nil, err
		}
	}
	if len(g.outputs) == 0 {
		return nil, pbErr("ModelProto.graph.output", "no outputs")
	}
	for i, o := range g.outputs {
		if !b.made[o.name] {
			return nil, fmt.Errorf("%w: field ModelProto.graph.output[%d] (%s): not computed by the classifier", ErrUnsupported, i, o.name)
		}
	}
	if len(f.Steps) > 0 {
		p, err := NewPipeline(f.Steps, b.clf)
		if err != nil {
			return nil, err
		}
		f.Model = p
	} else {
		f.Model = b.clf
	}
	return f, nil
}

// graphBuilder walks the nodes of a graph in their (topological) order.
type graphBuilder struct {
	file   *ONNXFile
	opsets map[string]int64
	inits  map[string]*onnxTensor
	dims   int // the input's feature count, 0 if unknown
	limit  int
	cur    string          // the value the next feature step or the classifier reads
	made   map[string]bool // values computed from the classifier's outputs
	clf    Classifier
	matmul *matmulGraph
}

// matmulGraph is the linear graph MatMul(X, W) + B, ArgMax, Gather.
type matmulGraph struct {
	w       []float64 // d×k, row-major
	d, k    int
	b       []float64
	scores  string // the value holding the scores
	argmax  string // ArgMax's output, "" before it
	labels  []int
	gathers bool
}

func (b *graphBuilder) opErr(n *onnxNode, format string, args ...any) error {
	return &OperatorError{Domain: n.domain, Op: n.op, Node: n.path, Reason: fmt.Sprintf(format, args...)}
}

// node takes one node of the graph.
func (b *graphBuilder) node(n *onnxNode) error {
	domain := n.domain
	if domain == "ai.onnx" {
		domain = ""
	}
	if _, ok := b.opsets[domain]; !ok {
		return pbErr(n.path+".domain", "domain %q is not in ModelProto.opset_import", n.domain)
	}
	if len(n.outputs) == 0 || len(n.inputs) == 0 {
		return pbErr(n.path, "%s node without inputs or outputs", n.op)
	}
	ml := domain == domainML
	std := domain == ""
	pre := b.clf == nil && b.matmul == nil
	switch {
	case std && (n.op == "Identity" || n.op == "Cast"):
		if pre && n.inputs[0] == b.cur {
			if n.op == "Cast" {
				to, err := intAttr(n, "to", -1)
				if err != nil {
					return err
				}
				switch to {
				case dtFloat:
					b.file.Steps = append(b.file.Steps, Step{Op: "Cast"})
				case dtDouble:
				default:
					return b.opErr(n, "to = %d before the classifier (casts to float and double are read)", to)
				}
			}
			b.cur = n.outputs[0]
			return nil
		}
		if !pre && b.made[n.inputs[0]] {
			b.made[n.outputs[0]] = true
			return nil
		}
		return b.opErr(n, "its input %q is neither the samples' path to the classifier nor a classifier output", n.inputs[0])
	case ml && (n.op == "Scaler" || n.op == "Normalizer"):
		if !pre || n.inputs[0] != b.cur {
			return b.opErr(n, "only as a feature step before the classifier")
		}
		s, err := b.step(n)
		if err != nil {
			return err
		}
		b.file.Steps = append(b.file.Steps, s)
		b.cur = n.outputs[0]
		return nil
	case ml && (n.op == "LinearClassifier" || n.op == "SVMClassifier"):
		if !pre || n.inputs[0] != b.cur {
			return b.opErr(n, "a second classifier, or one that does not read the samples")
		}
		if err := b.classifier(n); err != nil {
			return err
		}
		for _, o := range n.outputs {
			b.made[o] = true
		}
		return nil
	case std && n.op == "MatMul":
		if !pre || n.inputs[0] != b.cur || len(n.inputs) != 2 {
			return b.opErr(n, "only as MatMul(samples, weights) once")
		}
		t, ok := b.inits[n.inputs[1]]
		if !ok {
			return b.opErr(n, "its weights %q are not an initializer", n.inputs[1])
		}
		w, err := t.values()
		if err != nil {
			return err
		}
		if len(t.dims) != 2 {
			return pbErr(t.path+".dims", "%v: MatMul's weights must be [features, scores]", t.dims)
		}
		d, k := int(t.dims[0]), int(t.dims[1])
		if d < 1 || k < 1 || (b.dims > 0 && d != b.dims) {
			return pbErr(t.path+".dims", "%v for %d input features", t.dims, b.dims)
		}
		if !finite(w) {
			return fmt.Errorf("%w: field %s: NaN or infinite weight", ErrModel, t.path)
		}
		b.matmul = &matmulGraph{w: w, d: d, k: k, b: make([]float64, k), scores: n.outputs[0]}
		b.file.Op = "MatMul"
		return nil
	case std && n.op == "Add" && b.matmul != nil && b.matmul.argmax == "":
		m := b.matmul
		if len(n.inputs) != 2 {
			return b.opErr(n, "%d inputs", len(n.inputs))
		}
		other := n.inputs[1]
		switch {
		case n.inputs[0] == m.scores:
		case n.inputs[1] == m.scores:
			other = n.inputs[0]
		default:
			return b.opErr(n, "it does not add to MatMul's output")
		}
		t, ok := b.inits[other]
		if !ok {
			return b.opErr(n, "its bias %q is not an initializer", other)
		}
		v, err := t.values()
		if err != nil {
			return err
		}
		if len(v) != m.k || !finite(v) {
			return pbErr(t.path, "%d finite biases needed, %d values", m.k, len(v))
		}
		for i := range v {
			m.b[i] += v[i]
		}
		m.scores = n.outputs[0]
		return nil
	case std && n.op == "ArgMax" && b.matmul != nil && b.matmul.argmax == "":
		m := b.matmul
		if n.inputs[0] != m.scores {
			return b.opErr(n, "it does not read the scores")
		}
		axis, err := intAttr(n, "axis", 0)
		if err != nil {
			return err
		}
		last, err := intAttr(n, "select_last_index", 0)
		if err != nil {
			return err
		}
		if axis != 1 && axis != -1 {
			return b.opErr(n, "axis = %d, want 1 (the scores of a sample)", axis)
		}
		if last != 0 {
			return b.opErr(n, "select_last_index = %d (ties go to the first score here)", last)
		}
		if m.k < 2 {
			return b.opErr(n, "over one score")
		}
		b.made[m.scores] = true
		m.argmax = n.outputs[0]
		b.made[m.argmax] = true
		return nil
	case std && n.op == "Gather" && b.matmul != nil && b.matmul.argmax != "" && !b.matmul.gathers:
		m := b.matmul
		if len(n.inputs) != 2 || n.inputs[1] != m.argmax {
			return b.opErr(n, "only as Gather(labels, ArgMax's output)")
		}
		if axis, err := intAttr(n, "axis", 0); err != nil || axis != 0 {
			return b.opErr(n, "axis %d", axis)
		}
		t, ok := b.inits[n.inputs[0]]
		if !ok {
			return b.opErr(n, "its labels %q are not an initializer", n.inputs[0])
		}
		if t.dataType != dtInt64 && t.dataType != dtInt32 {
			return fmt.Errorf("%w: field %s.data_type: %d (integer labels are read)", ErrUnsupported, t.path, t.dataType)
		}
		v, err := t.values()
		if err != nil {
			return err
		}
		if len(v) != m.k {
			return pbErr(t.path, "%d labels for %d scores", len(v), m.k)
		}
		m.labels = make([]int, len(v))
		for i, y := range v {
			if y < math.MinInt32 || y > math.MaxInt32 {
				return pbErr(t.path, "label %v does not fit an int32", y)
			}
			m.labels[i] = int(y)
		}
		m.gathers = true
		b.made[n.outputs[0]] = true
		return nil
	}
	if !std && !ml {
		return &OperatorError{Domain: n.domain, Op: n.op, Node: n.path, Reason: "a custom domain"}
	}
	return b.opErr(n, "not among LinearClassifier, SVMClassifier, MatMul+Add(+ArgMax(+Gather)), Cast, Identity, Normalizer and Scaler")
}

// finishMatMul builds the linear model of a MatMul graph.
func (b *graphBuilder) finishMatMul() error {
	m := b.matmul
	b.made[m.scores] = true
	labels := m.labels
	if labels == nil {
		labels = make([]int, max(m.k, 2))
		for i := range labels {
			labels[i] = i
		}
	}
	b.file.Labels = labels
	W := make([]float64, m.k*m.d)
	for c := 0; c < m.k; c++ {
		for j := 0; j < m.d; j++ {
			W[c*m.d+j] = m.w[j*m.k+c]
		}
	}
	lm, err := linearModel(W, m.b, m.d, labels)
	if err != nil {
		return err
	}
	b.clf = lm
	return nil
}

// linearModel builds a linear SVM's linear.Model of R = 1 (two labels, a positive
// score for the second) or R = len(labels) scores over the labels in the
// file's order.
func linearModel(W, bias []float64, d int, labels []int) (*linear.Model[float64], error) {
	sorted := slices.Sorted(slices.Values(labels))
	if len(labels) < 2 {
		return nil, fmt.Errorf("%w: %d classes", ErrUnsupported, len(labels))
	}
	for i := 1; i < len(sorted); i++ {
		if sorted[i] == sorted[i-1] {
			return nil, fmt.Errorf("%w: label %d repeated", ErrSyntax, sorted[i])
		}
	}
	r := len(bias)
	var w2, b2 []float64
	switch {
	case r == 1 && len(labels) == 2:
		w2, b2 = slices.Clone(W), slices.Clone(bias)
		if labels[0] > labels[1] { // positive scores go to the larger label here
			for i := range w2 {
				w2[i] = -w2[i]
			}
			b2[0] = -b2[0]
		}
	case r == len(labels):
		w2, b2 = make([]float64, len(W)), make([]float64, r)
		for c, y := range labels {
			p := sort.SearchInts(sorted, y)
			copy(w2[p*d:(p+1)*d], W[c*d:(c+1)*d])
			b2[p] = bias[c]
		}
	default:
		return nil, fmt.Errorf("%w: %d scores for %d classes", ErrModel, r, len(labels))
	}
	return newLinearSVM(w2, d, b2, sorted, 1)
}

// newLinearSVM returns the linear SVM (linear.DualCD) of the weights W
// (R rows of d), the biases b and the sorted labels: binary for R = 1 (a
// positive score predicts the larger label), one-vs-rest for R =
// len(labels); bf is the value of its bias feature (LIBLINEAR's -B; ≤ 0:
// none, and then b is 0). Parts that do not fit together wrap ErrModel.
func newLinearSVM(W []float64, d int, b []float64, labels []int, bf float64) (*linear.Model[float64], error) {
	st := linear.State[float64]{Scheme: fit.OneVsRest, Algorithm: linear.DualCD, Dims: d, Labels: labels,
		Bias: bf > 0, Eta: 1, W: W, B: b}
	if len(b) == 1 {
		st.Scheme = fit.Binary
	}
	if bf > 0 {
		st.BiasFeature = bf
	}
	if len(b) != 1 && len(b) != len(labels) {
		return nil, fmt.Errorf("%w: %d biases for %d labels", ErrModel, len(b), len(labels))
	}
	m, err := linear.New(st)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrModel, err)
	}
	for _, v := range slices.Concat(W, b) {
		if v-v != 0 {
			return nil, fmt.Errorf("%w: a NaN or infinite weight", ErrModel)
		}
	}
	return m, nil
}

// attr returns the node's attribute name, nil if absent.
func attr(n *onnxNode, name string) *onnxAttr {
	for _, a := range n.attrs {
		if a.name == name {
			return a
		}
	}
	return nil
}

// checkAttrs refuses attributes the operator does not define and
// attributes of a kind this package does not read.
func checkAttrs(n *onnxNode, known ...string) error {
	for _, a := range n.attrs {
		if !slices.Contains(known, a.name) {
			return pbErr(a.path+".name", "%s has no attribute %q", n.op, a.name)
		}
		if a.other {
			return fmt.Errorf("%w: field %s: an attribute of a graph, tensors or a reference", ErrUnsupported, a.path)
		}
	}
	return nil
}

func intAttr(n *onnxNode, name string, def int64) (int64, error) {
	a := attr(n, name)
	if a == nil {
		if def == -1 {
			return 0, pbErr(n.path+".attribute", "%s needs attribute %s", n.op, name)
		}
		return def, nil
	}
	if a.typ != 0 && a.typ != attrInt {
		return 0, pbErr(a.path+".type", "%d, want INT", a.typ)
	}
	return a.i, nil
}

func stringAttr(n *onnxNode, name, def string) (string, error) {
	a := attr(n, name)
	if a == nil {
		return def, nil
	}
	if a.typ != 0 && a.typ != attrString {
		return "", pbErr(a.path+".type", "%d, want STRING", a.typ)
	}
	return string(a.s), nil
}

// floatsAttr returns a FLOATS attribute as float64s (nil if absent).
func floatsAttr(n *onnxNode, name string) ([]float64, string, error) {
	a := attr(n, name)
	if a == nil {
		return nil, n.path + ".attribute (" + name + ")", nil
	}
	if a.typ != 0 && a.typ != attrFloats {
		return nil, a.path, pbErr(a.path+".type", "%d, want FLOATS", a.typ)
	}
	out := make([]float64, len(a.floats))
	for i, v := range a.floats {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return nil, a.path, fmt.Errorf("%w: field %s.floats[%d]: %v", ErrModel, a.path, i, v)
		}
		out[i] = float64(v)
	}
	return out, a.path, nil
}

func intsAttr(n *onnxNode, name string) ([]int64, string, error) {
	a := attr(n, name)
	if a == nil {
		return nil, n.path + ".attribute (" + name + ")", nil
	}
	if a.typ != 0 && a.typ != attrInts {
		return nil, a.path, pbErr(a.path+".type", "%d, want INTS", a.typ)
	}
	return a.ints, a.path, nil
}

// classLabels reads classlabels_ints or classlabels_strings (integers
// written as strings).
func classLabels(n *onnxNode) ([]int, error) {
	ints, ip, err := intsAttr(n, "classlabels_ints")
	if err != nil {
		return nil, err
	}
	sa := attr(n, "classlabels_strings")
	if ints != nil && sa != nil {
		return nil, pbErr(ip, "both classlabels_ints and classlabels_strings")
	}
	var out []int
	if sa != nil {
		if sa.typ != 0 && sa.typ != attrStrings {
			return nil, pbErr(sa.path+".type", "%d, want STRINGS", sa.typ)
		}
		for i, s := range sa.strings {
			v, err := strconv.ParseInt(string(s), 10, 32)
			if err != nil {
				return nil, fmt.Errorf("%w: field %s.strings[%d]: label %q is not an integer (the models here have integer labels)", ErrUnsupported, sa.path, i, truncate(s))
			}
			out = append(out, int(v))
		}
	} else {
		for i, v := range ints {
			if v < math.MinInt32 || v > math.MaxInt32 {
				return nil, pbErr(fmt.Sprintf("%s.ints[%d]", ip, i), "label %d does not fit an int32", v)
			}
			out = append(out, int(v))
		}
	}
	if len(out) < 2 {
		return nil, pbErr(n.path+".attribute", "%s has %d class labels, want 2 or more", n.op, len(out))
	}
	seen := map[int]bool{}
	for _, y := range out {
		if seen[y] {
			return nil, pbErr(n.path+".attribute", "class label %d repeated", y)
		}
		seen[y] = true
	}
	return out, nil
}

// classifier builds the model of a LinearClassifier or SVMClassifier
// node.
func (b *graphBuilder) classifier(n *onnxNode) error {
	b.file.Op = n.op
	if pt, err := stringAttr(n, "post_transform", "NONE"); err != nil {
		return err
	} else if pt != "NONE" {
		return b.opErr(n, "post_transform %s (NONE is read: the decision values)", truncate([]byte(pt)))
	}
	labels, err := classLabels(n)
	if err != nil {
		return err
	}
	b.file.Labels = labels
	if n.op == "LinearClassifier" {
		return b.linearClassifier(n, labels)
	}
	return b.svmClassifier(n, labels)
}

func (b *graphBuilder) linearClassifier(n *onnxNode, labels []int) error {
	if err := checkAttrs(n, "coefficients", "intercepts", "multi_class", "classlabels_ints", "classlabels_strings", "post_transform"); err != nil {
		return err
	}
	coef, cp, err := floatsAttr(n, "coefficients")
	if err != nil {
		return err
	}
	icpt, ipath, err := floatsAttr(n, "intercepts")
	if err != nil {
		return err
	}
	if len(coef) == 0 {
		return pbErr(cp, "LinearClassifier needs coefficients")
	}
	// The coefficients are E rows of d: d from the input's shape, or E
	// from the intercepts.
	var e, d int
	switch {
	case b.dims > 0:
		d = b.dims
		if len(coef)%d != 0 {
			return pbErr(cp, "%d coefficients for %d features", len(coef), d)
		}
		e = len(coef) / d
	case icpt != nil:
		e = len(icpt)
		if e == 0 || len(coef)%e != 0 {
			return pbErr(cp, "%d coefficients for %d intercepts", len(coef), e)
		}
		d = len(coef) / e
	default:
		return fmt.Errorf("%w: field %s: neither the input's shape nor the intercepts give the number of features", ErrUnsupported, cp)
	}
	if icpt == nil {
		icpt = make([]float64, e)
	}
	if len(icpt) != e {
		return pbErr(ipath, "%d intercepts for %d rows of coefficients", len(icpt), e)
	}
	if !(e == 1 && len(labels) == 2) && e != len(labels) {
		return pbErr(cp, "%d rows of coefficients for %d classes (want 1 for two classes, or one per class)", e, len(labels))
	}
	m, err := linearModel(coef, icpt, d, labels)
	if err != nil {
		return err
	}
	b.clf = m
	return nil
}

func (b *graphBuilder) svmClassifier(n *onnxNode, labels []int) error {
	if err := checkAttrs(n, "coefficients", "kernel_params", "kernel_type", "post_transform", "prob_a", "prob_b", "rho", "support_vectors", "vectors_per_class", "classlabels_ints", "classlabels_strings"); err != nil {
		return err
	}
	vpc, vp, err := intsAttr(n, "vectors_per_class")
	if err != nil {
		return err
	}
	if len(vpc) == 0 {
		return b.opErr(n, "without support vectors (vectors_per_class): its linear mode")
	}
	k := len(labels)
	if len(vpc) != k {
		return pbErr(vp, "%d counts for %d classes", len(vpc), k)
	}
	coef, cp, err := floatsAttr(n, "coefficients")
	if err != nil {
		return err
	}
	svs, sp, err := floatsAttr(n, "support_vectors")
	if err != nil {
		return err
	}
	rho, rp, err := floatsAttr(n, "rho")
	if err != nil {
		return err
	}
	start := make([]int, k+1)
	for c, v := range vpc {
		if v < 0 || v > int64(len(coef)) {
			return pbErr(fmt.Sprintf("%s.ints[%d]", vp, c), "%d support vectors", v)
		}
		start[c+1] = start[c] + int(v)
	}
	s := start[k]
	if s == 0 || s > len(coef) { // k ≥ 2 classes take s·(k−1) ≥ s coefficients
		return pbErr(vp, "%d support vectors for %d coefficients", s, len(coef))
	}
	if len(coef) != s*(k-1) {
		return pbErr(cp, "%d coefficients, want (classes − 1) × support vectors = %d", len(coef), s*(k-1))
	}
	npairs := k * (k - 1) / 2
	if len(rho) != npairs {
		return pbErr(rp, "%d values, want one per pair of classes (%d)", len(rho), npairs)
	}
	if len(svs)%s != 0 || len(svs) == 0 {
		return pbErr(sp, "%d values for %d support vectors", len(svs), s)
	}
	d := len(svs) / s
	if b.dims > 0 && d != b.dims {
		return pbErr(sp, "support vectors of %d features, the input has %d", d, b.dims)
	}
	if uint64(npairs)*uint64(s) > uint64(b.limit) {
		return fmt.Errorf("%w: %d pairs of classes × %d support vectors is %d coefficients, over the limit of %d (interop.Options.MaxValues)", ErrTooLarge, npairs, s, uint64(npairs)*uint64(s), b.limit)
	}
	kt, err := stringAttr(n, "kernel_type", "LINEAR")
	if err != nil {
		return err
	}
	kp, kpp, err := floatsAttr(n, "kernel_params")
	if err != nil {
		return err
	}
	if kt != "LINEAR" && len(kp) != 3 {
		return pbErr(kpp, "%d values, want gamma, coef0, degree", len(kp))
	}
	var kern gram.Kernel
	switch kt {
	case "LINEAR":
		kern = gram.Linear{}
	case "POLY":
		if kp[2] != math.Trunc(kp[2]) || kp[2] < 1 || kp[2] > 1<<20 {
			return pbErr(kpp, "degree %v is not a positive integer", kp[2])
		}
		kern = gram.Polynomial{Gamma: kp[0], Coef0: kp[1], Degree: int(kp[2])}
	case "RBF":
		kern = gram.RBF{Gamma: kp[0]}
	case "SIGMOID":
		kern = sigmoidKernel(kp[0], kp[1])
	default:
		return pbErr(n.path+".attribute (kernel_type)", "unknown kernel_type %q", truncate([]byte(kt)))
	}
	if err := kern.Validate(); err != nil {
		return fmt.Errorf("%w: field %s: %w", ErrModel, kpp, err)
	}
	// ONNX's coefficients are (k−1) rows of s, LIBSVM's sv_coef; its rho
	// is added (LIBSVM's is subtracted), and a positive pair value votes
	// for the first class of the pair, as in LIBSVM.
	perSV := make([]float64, s*(k-1))
	for r := 0; r < k-1; r++ {
		for i := 0; i < s; i++ {
			perSV[i*(k-1)+r] = coef[r*s+i]
		}
	}
	lrho := make([]float64, npairs)
	for p, v := range rho {
		lrho[p] = -v
	}
	sorted, ours, bias := pairwise(labels, start, perSV, lrho)
	parts := expansion.Parts[float64]{Kernel: kern, Dims: d, Labels: sorted, Scheme: fit.OneVsOne, SV: svs, Coef: ours, Bias: bias}
	if k == 2 {
		parts.Scheme = fit.Binary
	}
	m, err := expansion.New(parts)
	if err != nil {
		return fmt.Errorf("%w: %s: %w", ErrModel, n.path, err)
	}
	b.clf = m
	if rank := fileRank(labels); rank != nil {
		b.clf = newVoting(m, rank)
	}
	pa, pap, err := floatsAttr(n, "prob_a")
	if err != nil {
		return err
	}
	pb, pbp, err := floatsAttr(n, "prob_b")
	if err != nil {
		return err
	}
	if len(pa) != 0 || len(pb) != 0 {
		if len(pa) != npairs {
			return pbErr(pap, "%d values, want one per pair (%d)", len(pa), npairs)
		}
		if len(pb) != npairs {
			return pbErr(pbp, "%d values, want one per pair (%d)", len(pb), npairs)
		}
		b.file.ProbA, b.file.ProbB = pa, pb
	}
	return nil
}

// step reads a Scaler or Normalizer node.
func (b *graphBuilder) step(n *onnxNode) (Step, error) {
	if n.op == "Normalizer" {
		if err := checkAttrs(n, "norm"); err != nil {
			return Step{}, err
		}
		norm, err := stringAttr(n, "norm", "")
		if err != nil {
			return Step{}, err
		}
		switch norm {
		case "MAX", "L1", "L2":
		default:
			return Step{}, pbErr(n.path+".attribute (norm)", "%q, want MAX, L1 or L2", truncate([]byte(norm)))
		}
		return Step{Op: "Normalizer", Norm: norm}, nil
	}
	if err := checkAttrs(n, "offset", "scale"); err != nil {
		return Step{}, err
	}
	off, op, err := floatsAttr(n, "offset")
	if err != nil {
		return Step{}, err
	}
	sc, sp, err := floatsAttr(n, "scale")
	if err != nil {
		return Step{}, err
	}
	for _, c := range []struct {
		v    []float64
		path string
	}{{off, op}, {sc, sp}} {
		if len(c.v) > 1 && b.dims > 0 && len(c.v) != b.dims {
			return Step{}, pbErr(c.path, "%d values for %d features", len(c.v), b.dims)
		}
	}
	return Step{Op: "Scaler", Offset: off, Scale: sc}, nil
}

// finite reports whether every value is finite.
func finite(v []float64) bool {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// pairwise maps LIBSVM's pairwise decision functions (labels in the
// file's order, class c's support vectors at start[c]…start[c+1], k−1
// coefficients per support vector in coef, rho per pair in LIBSVM's order
// and sign) onto the one-vs-one functions of the sorted labels: a pair
// whose labels the file lists in decreasing order has its coefficients and
// ρ negated, so that the votes are LIBSVM's.
func pairwise(labels, start []int, coef, rho []float64) (sorted []int, ours, bias []float64) {
	k := len(labels)
	s := start[k]
	npairs := k * (k - 1) / 2
	sorted = slices.Sorted(slices.Values(labels))
	pos := make([]int, k)
	for c, y := range labels {
		pos[c] = sort.SearchInts(sorted, y)
	}
	ours = make([]float64, npairs*s)
	bias = make([]float64, npairs)
	p := 0
	for i := 0; i < k; i++ {
		for j := i + 1; j < k; j++ {
			a, bb, sign := pos[i], pos[j], -1.0
			if a > bb {
				a, bb, sign = bb, a, 1
			}
			r := pairIndex(k, a, bb)
			row := ours[r*s : (r+1)*s]
			for v := start[i]; v < start[i+1]; v++ {
				row[v] = sign * coef[v*(k-1)+j-1]
			}
			for v := start[j]; v < start[j+1]; v++ {
				row[v] = sign * coef[v*(k-1)+i]
			}
			bias[r] = -sign * rho[p]
			p++
		}
	}
	return sorted, ours, bias
}

// sigmoidKernel returns the kernel tanh(γ·x·y + c₀).
func sigmoidKernel(gamma, coef0 float64) gram.Kernel {
	return gram.Sigmoid{Gamma: gamma, Coef0: coef0}
}

// sigmoidParams returns γ and c₀ of a sigmoid kernel.
func sigmoidParams(k gram.Kernel) (gamma, coef0 float64, ok bool) {
	s, ok := k.(gram.Sigmoid)
	return s.Gamma, s.Coef0, ok
}
