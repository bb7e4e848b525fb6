package interop

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"

	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/linear"
)

// LIBLINEARPrefix is how a LIBLINEAR model file begins.
const LIBLINEARPrefix = "solver_type "

// liblinearSolvers are LIBLINEAR's classification solvers (its -s 0 to 7).
var liblinearSolvers = []string{"L2R_LR", "L2R_L2LOSS_SVC_DUAL", "L2R_L2LOSS_SVC", "L2R_L1LOSS_SVC_DUAL", "MCSVM_CS", "L1R_L2LOSS_SVC", "L1R_LR", "L2R_LR_DUAL"}

// LIBLINEARFile is what a LIBLINEAR model file holds.
type LIBLINEARFile struct {
	Model *linear.Model[float64] // a linear SVM's (Algorithm linear.DualCD), whatever the solver

	// Solver is the file's solver_type, e.g. "L2R_L2LOSS_SVC_DUAL".
	Solver string
	// Labels are the classes in the file's order.
	Labels []int
	// Bias is the value of the bias feature (the -B of liblinear-train),
	// negative for none; the Model's bias terms are its weight times it.
	Bias float64
}

// ReadLIBLINEAR parses a LIBLINEAR model file; see the package
// documentation. The model's Dims is the file's nr_feature (at least 1):
// liblinear-predict ignores a sample's features beyond it, and a caller
// that reads samples with more must drop them too.
func ReadLIBLINEAR(data []byte) (*LIBLINEARFile, error) {
	l := &lines{data: data}
	h, err := readHeader(l, "w", "solver_type", "nr_class", "label", "nr_feature", "bias", "rho")
	if err != nil {
		return nil, err
	}
	get := h.get
	t, n, err := get("solver_type", 1)
	if err != nil {
		return nil, err
	}
	solver := string(t[0])
	switch {
	case slices.Contains(liblinearSolvers, solver):
	case solver == "L2R_L2LOSS_SVR" || solver == "L2R_L2LOSS_SVR_DUAL" || solver == "L2R_L1LOSS_SVR_DUAL" || solver == "ONECLASS_SVM":
		return nil, errf(n, ErrUnsupported, "solver_type %s is not a classifier", solver)
	default:
		return nil, errf(n, ErrSyntax, "unknown solver_type %q", truncate(t[0]))
	}
	if h.has("rho") {
		return nil, errf(h.at["rho"], ErrSyntax, "rho in a classifier's file")
	}
	if t, n, err = get("nr_class", 1); err != nil {
		return nil, err
	}
	k, err := integer(n, t[0], 1, max(1, len(data)))
	if err != nil {
		return nil, err
	}
	if k < 2 {
		return nil, errf(n, ErrUnsupported, "nr_class %d: a model of one class predicts it always", k)
	}
	if t, n, err = get("label", k); err != nil {
		return nil, err
	}
	labels, err := labelList(n, t)
	if err != nil {
		return nil, err
	}
	if t, n, err = get("nr_feature", 1); err != nil {
		return nil, err
	}
	nf, err := integer(n, t[0], 0, len(data))
	if err != nil {
		return nil, err
	}
	if t, n, err = get("bias", 1); err != nil {
		return nil, err
	}
	bias, err := number(n, t[0])
	if err != nil {
		return nil, err
	}
	nw := k
	if k == 2 && solver != "MCSVM_CS" {
		nw = 1
	}
	rows := nf
	if bias >= 0 {
		rows++
	}
	// Each weight takes at least two bytes ("0 "): check the counts
	// against the file before allocating what they imply.
	if rest := len(data) - l.pos; uint64(rows)*uint64(nw)*2 > uint64(rest) {
		return nil, errf(l.n, ErrSyntax, "nr_feature %d and %d classes need %d weights; %d bytes follow", nf, k, uint64(rows)*uint64(nw), rest)
	}
	w := make([]float64, 0, rows*nw)
	for j := 0; j < rows; j++ {
		line, ok := l.next()
		if !ok {
			return nil, errf(l.n, ErrSyntax, "the file ends after %d of %d weight lines", j, rows)
		}
		f := fields(line)
		if len(f) != nw {
			return nil, errf(l.n, ErrSyntax, "%d weights, want %d", len(f), nw)
		}
		for _, t := range f {
			v, err := number(l.n, t)
			if err != nil {
				return nil, err
			}
			w = append(w, v)
		}
	}
	for {
		line, ok := l.next()
		if !ok {
			break
		}
		if len(bytes.TrimSpace(line)) != 0 {
			return nil, errf(l.n, ErrSyntax, "text after the %d weight lines", rows)
		}
	}
	d := max(nf, 1)
	sorted := slices.Sorted(slices.Values(labels))
	var W, b []float64
	if k == 2 {
		// liblinear-predict decides two classes by the sign of the first
		// column alone (a Crammer–Singer file has two; the second is
		// ignored): label[0] for a positive value, ours the larger label.
		sign := 1.0
		if labels[0] < labels[1] {
			sign = -1
		}
		W, b = make([]float64, d), make([]float64, 1)
		for j := range nf {
			W[j] = sign * w[j*nw]
		}
		if bias >= 0 {
			b[0] = sign * w[nf*nw] * bias
		}
	} else {
		W, b = make([]float64, k*d), make([]float64, k)
		for c, y := range labels {
			r := sort.SearchInts(sorted, y)
			for j := range nf {
				W[r*d+j] = w[j*k+c]
			}
			if bias >= 0 {
				b[r] = w[nf*k+c] * bias
			}
		}
	}
	m, err := newLinearSVM(W, d, b, sorted, bias)
	if err != nil {
		return nil, err
	}
	return &LIBLINEARFile{Model: m, Solver: solver, Labels: labels, Bias: bias}, nil
}

// MarshalLIBLINEAR returns m as a LIBLINEAR model file; see
// WriteLIBLINEAR.
func MarshalLIBLINEAR[T kernel.Float](m *linear.Model[T]) ([]byte, error) {
	var buf bytes.Buffer
	if err := WriteLIBLINEAR(&buf, m); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// WriteLIBLINEAR writes m as a LIBLINEAR model file that liblinear-predict
// reads with m's predictions: the bias terms as the weights of a bias
// feature of value 1, every value printed so that it reads back exactly.
// A binary model is written with its larger label first (LIBLINEAR's
// positive class); a one-vs-rest model with its labels in increasing
// order. The solver_type is L2R_L1LOSS_SVC_DUAL (svm.FitLinear's default
// loss, liblinear-train's -s 3); it does not change the predictions. A
// one-vs-rest model of two classes (linear.New makes one; training
// makes a binary model) is refused with ErrUnsupported: liblinear-predict
// decides two classes by the sign of the first column alone. So are
// models LIBLINEAR cannot express: a voted perceptron's and one that
// scales its samples (perceptron.Options.Normalize). Any other linear.Model
// (a perceptron's, Pegasos's) is written with its weights as they are.
func WriteLIBLINEAR[T kernel.Float](w io.Writer, m *linear.Model[T]) error {
	return writeLIBLINEAR[T](w, m)
}

// writeLIBLINEAR is WriteLIBLINEAR of a model taken as an interface (see
// kernelModel).
func writeLIBLINEAR[T kernel.Float](w io.Writer, m linearSource[T]) error {
	labels := m.Classes()
	k, d, r := len(labels), m.Dims(), m.NumScores()
	solver := "L2R_L1LOSS_SVC_DUAL"
	switch {
	case d == 0:
		return fmt.Errorf("%w: %w", ErrModel, linear.ErrUntrained)
	case m.Algorithm() == linear.Voted || m.Scaling() != linear.ScaleNone:
		return fmt.Errorf("%w: a %v model has no LIBLINEAR form (a vote, or a scaling of the samples)", ErrUnsupported, m)
	case r == 1:
		labels[0], labels[1] = labels[1], labels[0]
	case k == 2:
		return fmt.Errorf("%w: a one-vs-rest linear model of two classes has no LIBLINEAR form (liblinear-predict decides two classes by the sign of one column)", ErrUnsupported)
	}
	b := fmt.Appendf(nil, "solver_type %s\nnr_class %d\nlabel", solver, k)
	for _, y := range labels {
		b = strconv.AppendInt(append(b, ' '), int64(y), 10)
	}
	b = fmt.Appendf(b, "\nnr_feature %d\nbias 1\nw\n", d)
	W := make([][]T, r)
	bias := make([]T, r)
	for c := range r {
		W[c], bias[c] = m.Weights(c)
	}
	for j := 0; j <= d; j++ {
		for c := range r {
			v := bias[c]
			if j < d {
				v = W[c][j]
			}
			b = append(fmtFloat(b, float64(v)), ' ')
		}
		b = append(b, '\n')
		if len(b) > 1<<16 || j == d {
			if _, err := w.Write(b); err != nil {
				return err
			}
			b = b[:0]
		}
	}
	return nil
}
