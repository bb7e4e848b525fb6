package interop

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"strconv"

	"github.com/rosenblatt-go/rosenblatt/expansion"
	"github.com/rosenblatt-go/rosenblatt/fit"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/internal/parallel"
)

// LIBSVMPrefix is how a LIBSVM model file begins.
const LIBSVMPrefix = "svm_type "

// ErrTooLarge reports a file whose model would take more memory than
// Options.MaxValues allows.
var ErrTooLarge = errors.New("interop: model too large")

// Options are the limits of ReadLIBSVM. The zero value reads any file
// whose model takes at most DefaultMaxValues values or four per byte of
// the file, whichever is more.
type Options struct {
	// MaxValues bounds the float64 values of the model built: a LIBSVM
	// file of k classes stores k−1 coefficients per support vector, the
	// one-vs-one model k(k−1)/2 (one per pair), and its support vectors
	// dense when that is at most twice what they store. 0 means the
	// default rule above.
	MaxValues int
}

// DefaultMaxValues is the least bound Options.MaxValues takes when 0:
// 2²⁰ values (8 MiB of float64).
const DefaultMaxValues = 1 << 20

func (o *Options) maxValues(size int) int {
	if o != nil && o.MaxValues > 0 {
		return o.MaxValues
	}
	if size > math.MaxInt/4 {
		return math.MaxInt
	}
	return max(DefaultMaxValues, 4*size)
}

// LIBSVMFile is what a LIBSVM model file holds.
type LIBSVMFile struct {
	// Model holds the decision functions, on the labels in increasing
	// order.
	Model *expansion.Model[float64]
	// Voting is Model predicting as svm-predict does when the file lists
	// the labels in another order (vote ties and decision values of
	// exactly 0 go to the class listed first and second); nil when the
	// file lists them in increasing order, where Model does.
	Voting *Voting
	// SVMType is the file's svm_type: "c_svc" or "nu_svc".
	SVMType string
	// Labels are the classes in the file's order (LIBSVM's: the order in
	// which they first appeared in the training data).
	Labels []int
	// ProbA and ProbB are the parameters of Platt's sigmoid per pair of
	// classes (in the file's pair order), nil when the file has none; the
	// Model does not use them.
	ProbA, ProbB []float64
}

// ReadLIBSVM parses a LIBSVM model file; see the package documentation.
// opts may be nil.
func ReadLIBSVM(data []byte, opts *Options) (*LIBSVMFile, error) {
	l := &lines{data: data}
	h, err := readHeader(l, "SV", "svm_type", "kernel_type", "degree", "gamma", "coef0", "nr_class", "total_sv", "rho", "label", "probA", "probB", "nr_sv", "prob_density_marks")
	if err != nil {
		return nil, err
	}
	one, list := h.one, h.get
	t, n, err := one("svm_type")
	if err != nil {
		return nil, err
	}
	svmType := string(t)
	switch svmType {
	case "c_svc", "nu_svc":
	case "one_class", "epsilon_svr", "nu_svr":
		return nil, errf(n, ErrUnsupported, "svm_type %s is not a classifier", svmType)
	default:
		return nil, errf(n, ErrSyntax, "unknown svm_type %q", truncate(t))
	}
	kern, err := libsvmKernel(h)
	if err != nil {
		return nil, err
	}
	kt, n, err := one("nr_class")
	if err != nil {
		return nil, err
	}
	k, err := integer(n, kt, 2, max(2, len(data)))
	if err != nil {
		return nil, err
	}
	// The rho line holds k(k−1)/2 values of at least two bytes each.
	if pairs := uint64(k) * uint64(k-1) / 2; pairs > uint64(len(data))/2 {
		return nil, errf(n, ErrSyntax, "nr_class %d needs %d rho values; the file has %d bytes", k, pairs, len(data))
	}
	npairs := k * (k - 1) / 2
	st, n, err := one("total_sv")
	if err != nil {
		return nil, err
	}
	s, err := integer(n, st, 0, len(data))
	if err != nil {
		return nil, err
	}
	toks, n, err := list("rho", npairs)
	if err != nil {
		return nil, err
	}
	rho, err := numbers(n, toks)
	if err != nil {
		return nil, err
	}
	if toks, n, err = list("label", k); err != nil {
		return nil, err
	}
	labels, err := labelList(n, toks)
	if err != nil {
		return nil, err
	}
	if toks, n, err = list("nr_sv", k); err != nil {
		return nil, err
	}
	nsv := make([]int, k)
	start := make([]int, k+1)
	for c, t := range toks {
		if nsv[c], err = integer(n, t, 0, s); err != nil {
			return nil, err
		}
		start[c+1] = start[c] + nsv[c]
	}
	if start[k] != s {
		return nil, errf(n, ErrSyntax, "nr_sv adds up to %d, total_sv is %d", start[k], s)
	}
	f := &LIBSVMFile{SVMType: svmType, Labels: labels}
	for _, key := range []string{"probA", "probB"} {
		if !h.has(key) {
			continue
		}
		if toks, n, err = list(key, npairs); err != nil {
			return nil, err
		}
		v, err := numbers(n, toks)
		if err != nil {
			return nil, err
		}
		if key == "probA" {
			f.ProbA = v
		} else {
			f.ProbB = v
		}
	}
	if (f.ProbA == nil) != (f.ProbB == nil) {
		return nil, errf(l.n, ErrSyntax, "probA without probB or probB without probA")
	}
	if h.has("prob_density_marks") {
		return nil, errf(h.at["prob_density_marks"], ErrSyntax, "prob_density_marks in a classifier's file")
	}
	limit := opts.maxValues(len(data))
	if uint64(npairs)*uint64(s) > uint64(limit) {
		return nil, fmt.Errorf("%w: %d pairs of classes × %d support vectors is %d coefficients, over the limit of %d (interop.Options.MaxValues)", ErrTooLarge, npairs, s, uint64(npairs)*uint64(s), limit)
	}

	// The support vectors: k−1 coefficients, then index:value pairs.
	coef, csr, d, err := readSupport(data[l.pos:], l.n, s, k)
	if err != nil {
		return nil, err
	}

	sorted, ours, bias := pairwise(labels, start, coef, rho)
	parts := expansion.Parts[float64]{Kernel: kern, Dims: d, Labels: sorted, Scheme: fit.OneVsOne, Coef: ours, Bias: bias}
	if k == 2 {
		parts.Scheme = fit.Binary
	}
	if uint64(s)*uint64(d) <= 2*uint64(len(csr.Val))+64 && uint64(s)*uint64(d) <= uint64(limit) {
		parts.SV = make([]float64, s*d)
		for i := 0; i < s; i++ {
			for q := csr.Ptr[i]; q < csr.Ptr[i+1]; q++ {
				parts.SV[i*d+int(csr.Idx[q])] = csr.Val[q]
			}
		}
	} else {
		parts.Sparse = csr
	}
	m, err := expansion.New(parts)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrModel, err)
	}
	f.Model = m
	if rank := fileRank(labels); rank != nil {
		f.Voting = newVoting(m, rank)
	}
	return f, nil
}

// parallelMinBytes is the size of the support vectors' section from
// which readSupport parses it in parts on GOMAXPROCS goroutines, each of
// at least a quarter of it; parallelParts, if > 0, replaces GOMAXPROCS
// (variables for the tests).
var (
	parallelMinBytes = 1 << 20
	parallelParts    = 0
)

// readSupport parses the support vectors' section rest of a LIBSVM file of
// k classes, whose line before is line number before: s lines of k−1
// coefficients and index:value pairs, then nothing but blank lines. It
// returns the coefficients (s×(k−1)), the sparse vectors and the largest
// index.
//
// A section of parallelMinBytes or more is cut at line ends into
// GOMAXPROCS parts parsed at once: a first pass counts each part's lines
// and colons (every stored pair has one colon, and a colon anywhere else
// is a syntax error), which gives each part the place of its first
// support vector and of its first pair, so the parts write into the
// shared slices without copying; the error returned is that of the first
// part that fails, the first error of the file as a single pass finds it.
func readSupport(rest []byte, before, s, k int) (coef []float64, csr *dataset.CSR[float64], d int, err error) {
	w := 1
	if len(rest) >= parallelMinBytes {
		parts := runtime.GOMAXPROCS(0)
		if parallelParts > 0 {
			parts = parallelParts
		}
		w = max(1, min(parts, len(rest)/max(1, parallelMinBytes/4)))
	}
	cut := make([]int, w+1)
	cut[w] = len(rest)
	for t := 1; t < w; t++ {
		c := max(cut[t-1], t*len(rest)/w)
		if i := bytes.IndexByte(rest[c:], '\n'); i >= 0 {
			c += i + 1
		} else {
			c = len(rest)
		}
		cut[t] = c
	}
	// The lines and colons of each part, then where each part starts.
	nl, colons := make([]int, w+1), make([]int, w+1)
	parallel.Run(w, func(t int) {
		part := rest[cut[t]:cut[t+1]]
		nl[t+1] = bytes.Count(part, []byte{'\n'})
		if len(part) > 0 && part[len(part)-1] != '\n' {
			nl[t+1]++ // the file's last line, without its end
		}
		colons[t+1] = bytes.Count(part, []byte{':'})
	})
	for t := range w {
		nl[t+1] += nl[t]
		colons[t+1] += colons[t]
	}
	rows := min(s, nl[w])
	coef = make([]float64, rows*(k-1))
	csr = &dataset.CSR[float64]{Ptr: make([]int, rows+1), Idx: make([]int32, colons[w]), Val: make([]float64, colons[w])}
	dims := make([]int, w)
	err = parallel.FirstError(w, func(t int) error {
		l := &lines{data: rest[cut[t]:cut[t+1]], n: before + nl[t]}
		q := colons[t] // the next pair's place
		for g := nl[t]; ; g++ {
			line, ok := l.next()
			if !ok {
				return nil
			}
			if g >= s {
				if len(bytes.TrimSpace(line)) != 0 {
					return errf(l.n, ErrSyntax, "text after the %d support vectors total_sv gives", s)
				}
				continue
			}
			var err error
			if q, err = supportLine(line, l.n, k, coef[g*(k-1):(g+1)*(k-1)], csr, q, &dims[t]); err != nil {
				return err
			}
			csr.Ptr[g+1] = q
		}
	})
	if err != nil {
		return nil, nil, 0, err
	}
	if nl[w] < s {
		return nil, nil, 0, errf(before+nl[w], ErrSyntax, "the file ends after %d of %d support vectors", nl[w], s)
	}
	// Every colon was a stored pair's, or a part would have failed.
	d = max(slices.Max(dims), 1)
	csr.Rows, csr.Cols = s, d
	return coef, csr, d, nil
}

// supportLine parses a support vector's line: k−1 coefficients into coef,
// then its index:value pairs into csr.Idx and csr.Val from place q on. It
// returns the place after the last pair, and raises *dims to the largest
// index.
func supportLine(line []byte, n, k int, coef []float64, csr *dataset.CSR[float64], q int, dims *int) (int, error) {
	pos := 0
	for c := 0; c < k-1; c++ {
		var t []byte
		if t, pos = nextField(line, pos); t == nil {
			return 0, errf(n, ErrSyntax, "%d coefficients, want %d", c, k-1)
		}
		v, err := number(n, t)
		if err != nil {
			return 0, err
		}
		coef[c] = v
	}
	last := 0
	for {
		var t []byte
		if t, pos = nextField(line, pos); t == nil {
			break
		}
		colon := bytes.IndexByte(t, ':')
		if colon < 0 {
			return 0, errf(n, ErrSyntax, "%q is not index:value", truncate(t))
		}
		is, vs := t[:colon], t[colon+1:]
		j, err := index(n, is)
		if err != nil {
			return 0, err
		}
		if j == 0 {
			return 0, errf(n, ErrSyntax, "index 0 (LIBSVM's indices start at 1)")
		}
		if j <= last {
			return 0, errf(n, ErrSyntax, "index %d after %d: indices must increase", j, last)
		}
		last = j
		v, err := number(n, vs)
		if err != nil {
			return 0, err
		}
		csr.Idx[q], csr.Val[q] = int32(j-1), v
		q++
	}
	*dims = max(*dims, last)
	return q, nil
}

// libsvmKernel returns the kernel the header names.
func libsvmKernel(h *header) (gram.Kernel, error) {
	one := h.one
	t, n, err := one("kernel_type")
	if err != nil {
		return nil, err
	}
	param := func(key string) (float64, error) {
		v, n, err := one(key)
		if err != nil {
			return 0, err
		}
		return number(n, v)
	}
	// gammaCoef0 reads the two parameters of the polynomial and sigmoid
	// kernels.
	gammaCoef0 := func() (g, c float64, err error) {
		if g, err = param("gamma"); err != nil {
			return 0, 0, err
		}
		c, err = param("coef0")
		return g, c, err
	}
	var kern gram.Kernel
	switch string(t) {
	case "linear":
		kern = gram.Linear{}
	case "polynomial":
		g, c, err := gammaCoef0()
		if err != nil {
			return nil, err
		}
		dt, dn, err := one("degree")
		if err != nil {
			return nil, err
		}
		deg, err := integer(dn, dt, math.MinInt32, math.MaxInt32)
		if err != nil {
			return nil, err
		}
		kern = gram.Polynomial{Gamma: g, Coef0: c, Degree: deg}
	case "rbf":
		g, err := param("gamma")
		if err != nil {
			return nil, err
		}
		kern = gram.RBF{Gamma: g}
	case "sigmoid":
		g, c, err := gammaCoef0()
		if err != nil {
			return nil, err
		}
		kern = gram.Sigmoid{Gamma: g, Coef0: c}
	case "precomputed":
		return nil, errf(n, ErrUnsupported, "kernel_type %s (a precomputed kernel matrix is not a model of its samples)", t)
	default:
		return nil, errf(n, ErrSyntax, "unknown kernel_type %q", truncate(t))
	}
	if err := kern.Validate(); err != nil {
		return nil, errf(n, ErrModel, "%v", err)
	}
	return kern, nil
}

// pairIndex is the place of pair (a, b), a < b, among the k(k−1)/2 pairs
// in lexicographic order: LIBSVM's order and one-vs-one's.
func pairIndex(k, a, b int) int { return a*(2*k-a-1)/2 + b - a - 1 }

// MarshalLIBSVM returns m as a LIBSVM model file (svm_type c_svc) that
// svm-predict reads with m's predictions; see WriteLIBSVM.
func MarshalLIBSVM[T expansion.Float](m *expansion.Model[T]) ([]byte, error) {
	var buf bytes.Buffer
	if err := WriteLIBSVM(&buf, m); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// WriteLIBSVM writes m as a LIBSVM model file (svm_type c_svc), its labels
// in increasing order, every value printed so that it reads back exactly,
// the zero features of the support vectors left out except the last
// feature of the first (ReadLIBSVM takes Dims from the largest index).
// A binary or one-vs-one model is written; a one-vs-rest model has no
// LIBSVM form and is refused with ErrUnsupported. LIBSVM gives each
// support vector one class and uses it only in that class's pairs; a
// support vector of m with a non-zero coefficient in pairs that share no
// class is written once per class it needs.
func WriteLIBSVM[T expansion.Float](w io.Writer, m *expansion.Model[T]) error {
	return writeLIBSVM[T](w, m, nil)
}

// kernelModel is what the LIBSVM and ONNX writers read of an
// *expansion.Model[T]. They take it as an interface so that a float32
// model is written without this package naming *expansion.Model[float32]
// (which would compile its methods, and the Gram kernels they reach, here
// again): see WriteONNX and internal/modelreg.
type kernelModel[T expansion.Float] interface {
	IsPerceptron() bool
	Scheme() fit.Scheme
	Parts() expansion.Parts[T]
	NumSupport() int
}

// writeLIBSVM writes m with its classes in the file order rank (the file
// position of each class in increasing label order; nil for increasing).
func writeLIBSVM[T expansion.Float](w io.Writer, m kernelModel[T], rank []int) error {
	lay, err := libsvmLayoutOf(m, rank)
	if err != nil {
		return err
	}
	p := m.Parts()
	k := len(p.Labels)
	b := []byte("svm_type c_svc\nkernel_type ")
	switch kern := p.Kernel.(type) {
	case gram.Linear:
		b = append(b, "linear\n"...)
	case gram.Polynomial:
		b = fmt.Appendf(b, "polynomial\ndegree %d\ngamma ", kern.Degree)
		b = fmtFloat(b, kern.Gamma)
		b = append(b, "\ncoef0 "...)
		b = append(fmtFloat(b, kern.Coef0), '\n')
	case gram.RBF:
		b = append(b, "rbf\ngamma "...)
		b = append(fmtFloat(b, kern.Gamma), '\n')
	case gram.Sigmoid:
		b = append(b, "sigmoid\ngamma "...)
		b = fmtFloat(b, kern.Gamma)
		b = append(b, "\ncoef0 "...)
		b = append(fmtFloat(b, kern.Coef0), '\n')
	default:
		return fmt.Errorf("%w: kernel %v has no LIBSVM form", ErrUnsupported, p.Kernel)
	}
	b = fmt.Appendf(b, "nr_class %d\ntotal_sv %d\nrho", k, len(lay.sv))
	for _, v := range lay.rho {
		b = fmtFloat(append(b, ' '), v)
	}
	b = append(b, "\nlabel"...)
	for _, y := range lay.labels {
		b = strconv.AppendInt(append(b, ' '), int64(y), 10)
	}
	b = append(b, "\nnr_sv"...)
	for _, n := range lay.nsv {
		b = strconv.AppendInt(append(b, ' '), int64(n), 10)
	}
	b = append(b, "\nSV\n"...)
	if _, err := w.Write(b); err != nil {
		return err
	}
	for q, i := range lay.sv {
		b = b[:0]
		for _, v := range lay.coef[q*(k-1) : (q+1)*(k-1)] {
			b = append(fmtFloat(b, v), ' ')
		}
		first := q == 0
		if p.Sparse != nil {
			row := p.Sparse.Row(i)
			for q, j := range row.Idx {
				b = appendPair(b, int(j)+1, float64(row.Val[q]))
			}
		} else {
			for j, x := range p.SV[i*p.Dims : (i+1)*p.Dims] {
				if x != 0 || first && j == p.Dims-1 {
					b = appendPair(b, j+1, float64(x))
				}
			}
		}
		if first && p.Sparse != nil && !slices.Contains(p.Sparse.Row(i).Idx, int32(p.Dims-1)) {
			b = appendPair(b, p.Dims, 0) // the reader's Dims is the largest index
		}
		b = append(b, '\n')
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

// libsvmLayout is a binary or one-vs-one model in LIBSVM's layout: the
// classes in file order, each with its support vectors, k−1 coefficients
// per support vector, and ρ per pair of file classes (LIBSVM's sign: a
// positive value of sum − ρ votes for the pair's first class).
type libsvmLayout struct {
	labels []int     // the labels in file order
	nsv    []int     // support vectors per file class
	sv     []int     // the model's index of each written support vector
	coef   []float64 // len(sv)×(k−1)
	rho    []float64 // k(k−1)/2, file pair order
}

// libsvmLayoutOf lays m out with its classes in the file order rank (the
// file position of each class in increasing label order; nil for
// increasing). LIBSVM gives each support vector one class and uses it only
// in that class's pairs; a support vector of m with a non-zero coefficient
// in pairs that share no class is written once per class it needs.
func libsvmLayoutOf[T expansion.Float](m kernelModel[T], rank []int) (*libsvmLayout, error) {
	if m.IsPerceptron() {
		// Its samples may be scaled, its bias carried by a feature, its
		// scores a vote: none of it is a c_svc decision function.
		return nil, fmt.Errorf("%w: a kernel perceptron has no LIBSVM form (LIBSVM's are SVMs)", ErrUnsupported)
	}
	if m.Scheme() == fit.OneVsRest {
		return nil, fmt.Errorf("%w: a one-vs-rest kernel SVM has no LIBSVM form (LIBSVM's multiclass SVM is one-vs-one)", ErrUnsupported)
	}
	p := m.Parts()
	k := len(p.Labels)
	s := m.NumSupport()
	npairs := k * (k - 1) / 2
	// at[f] is the class (increasing label order) at file position f.
	at := make([]int, k)
	for c := range at {
		at[c] = c
	}
	for c, f := range rank {
		at[f] = c
	}
	// owner is the class whose copy of support vector i carries its
	// coefficient c ≠ 0 in pair r = (a, b): b if c > 0, else a (the class
	// of a training row of the pair, for a model SMO trained).
	pa, pb := make([]int, npairs), make([]int, npairs)
	for r := range npairs {
		pa[r], pb[r] = pairOf(k, r)
	}
	owner := func(r, i int) int {
		if p.Coef[r*s+i] > 0 {
			return pb[r]
		}
		return pa[r]
	}
	// The support vectors of each file class: the copies of every vector.
	perClass := make([][]int, k)
	need := make([]bool, k)
	for i := 0; i < s; i++ {
		clear(need)
		any := false
		for r := 0; r < npairs; r++ {
			if p.Coef[r*s+i] != 0 {
				need[owner(r, i)], any = true, true
			}
		}
		if !any {
			continue // no pair uses it
		}
		for f, c := range at {
			if need[c] {
				perClass[f] = append(perClass[f], i)
			}
		}
	}
	// pair returns our function of file pair (f, g), f < g, and the sign
	// that turns its value into LIBSVM's, which votes for f when positive.
	pair := func(f, g int) (r int, sign float64) {
		a, bb := at[f], at[g]
		if a > bb {
			return pairIndex(k, bb, a), 1
		}
		return pairIndex(k, a, bb), -1
	}
	lay := &libsvmLayout{labels: make([]int, k), nsv: make([]int, k)}
	for f, c := range at {
		lay.labels[f] = p.Labels[c]
		lay.nsv[f] = len(perClass[f])
	}
	for f := 0; f < k; f++ {
		for g := f + 1; g < k; g++ {
			r, sign := pair(f, g)
			lay.rho = append(lay.rho, -sign*float64(p.Bias[r]))
		}
	}
	for f, list := range perClass {
		for _, i := range list {
			lay.sv = append(lay.sv, i)
			for col := 0; col < k-1; col++ {
				var r int
				var sign float64
				if col < f {
					r, sign = pair(col, f)
				} else {
					r, sign = pair(f, col+1)
				}
				// A zero keeps its sign, so that the file reads back to
				// the same bits.
				v := 0.0
				if x := p.Coef[r*s+i]; x == 0 || owner(r, i) == at[f] {
					v = sign * float64(x)
				}
				lay.coef = append(lay.coef, v)
			}
		}
	}
	return lay, nil
}

// appendPair appends "j:v ".
func appendPair(b []byte, j int, v float64) []byte {
	b = strconv.AppendInt(b, int64(j), 10)
	b = append(b, ':')
	return append(fmtFloat(b, v), ' ')
}

// pairOf returns the classes (a, b), a < b, of pair r among k classes:
// the inverse of pairIndex.
func pairOf(k, r int) (a, b int) {
	for a = 0; a < k-1; a++ {
		if n := k - 1 - a; r < n {
			return a, a + 1 + r
		}
		r -= k - 1 - a
	}
	panic("interop: pair out of range")
}
