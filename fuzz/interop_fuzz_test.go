package fuzz

import (
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/interop"
	"github.com/rosenblatt-go/rosenblatt/svm"
)

// toolModels returns the model files svm-train or liblinear-train wrote in
// svm/testdata (sub is "libsvm" or "liblinear").
func toolModels(t testing.TB, sub string) [][]byte {
	paths, err := filepath.Glob(filepath.Join("..", "svm", "testdata", sub, "*.model"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no %s models (%v)", sub, err)
	}
	var out [][]byte
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

// checkInteropError fails unless err wraps one of package interop's
// sentinels, and names the line if it is a syntax error.
func checkInteropError(t *testing.T, err error) {
	t.Helper()
	switch {
	case errors.Is(err, interop.ErrSyntax), errors.Is(err, interop.ErrUnsupported):
		if !strings.HasPrefix(err.Error(), "line ") {
			t.Fatalf("error %q does not name the line", err)
		}
	case errors.Is(err, interop.ErrModel), errors.Is(err, interop.ErrTooLarge):
	default:
		t.Fatalf("error %q wraps none of interop's sentinels", err)
	}
}

// FuzzReadLIBSVMModel parses LIBSVM model files: an error of the package
// naming the line, or a model no larger than the file justifies that
// writes back to a file read as the same model (labels in the same order,
// the same sizes and decision values) and scores samples without
// panicking.
func FuzzReadLIBSVMModel(f *testing.F) {
	for _, b := range toolModels(f, "libsvm") {
		f.Add(b)
	}
	X, _, yb, ym := seedData()
	for _, k := range []gram.Kernel{gram.RBF{Gamma: 0.5}, gram.Linear{}, gram.Polynomial{Gamma: 1, Coef0: 1, Degree: 2}} {
		for _, y := range [][]int{yb, ym} {
			m, _, err := svm.Fit(context.Background(), dataset.NewData(X, 3, y), y, svm.Options{Kernel: k})
			if err != nil {
				f.Fatal(err)
			}
			b, err := interop.MarshalLIBSVM(m)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := interop.ReadLIBSVM(data, nil)
		if err != nil {
			checkInteropError(t, err)
			return
		}
		m := r.Model
		if limit := max(interop.DefaultMaxValues, 4*len(data)); m.NumScores()*m.NumSupport() > limit ||
			len(m.SupportVectors()) > len(data)+64 || m.NumSupport() > len(data) {
			t.Fatalf("%d bytes made %d support vectors of %d features (%d dense values) and %d functions",
				len(data), m.NumSupport(), m.Dims(), len(m.SupportVectors()), m.NumScores())
		}
		var buf bytes.Buffer
		if r.Voting != nil {
			err = r.Voting.WriteLIBSVM(&buf)
		} else {
			err = interop.WriteLIBSVM(&buf, m)
		}
		if err != nil {
			t.Fatal(err)
		}
		back, err := interop.ReadLIBSVM(buf.Bytes(), &interop.Options{MaxValues: math.MaxInt})
		if err != nil {
			t.Fatalf("written back: %v\n%s", err, buf.Bytes())
		}
		b := back.Model
		if !slices.Equal(back.Labels, r.Labels) || b.Dims() != m.Dims() || b.NumScores() != m.NumScores() || (back.Voting == nil) != (r.Voting == nil) {
			t.Fatalf("written back as labels %v, %d features, %d functions; want %v, %d, %d", back.Labels, b.Dims(), b.NumScores(), r.Labels, m.Dims(), m.NumScores())
		}
		if m.Dims() > 1<<12 || m.NumScores()*m.NumSupport() > 1<<16 {
			return
		}
		x := make([]float64, m.Dims())
		sa, sb := make([]float64, m.NumScores()), make([]float64, m.NumScores())
		for _, v := range []float64{0, 1, -0.5} {
			for i := range x {
				x[i] = v
			}
			ea, eb := m.Scores(sa, x), b.Scores(sb, x)
			if ea != nil || eb != nil {
				if !errors.Is(ea, svm.ErrNonFinite) && ea != nil || !errors.Is(eb, svm.ErrNonFinite) && eb != nil {
					t.Fatalf("Scores: %v, %v", ea, eb)
				}
				continue
			}
			for i := range sa {
				if d := math.Abs(sa[i] - sb[i]); !(d <= 1e-9*(1+math.Abs(sa[i]))) && !math.IsInf(sa[i], 0) && !math.IsNaN(sa[i]) {
					t.Fatalf("score %d of x = %v: %v, written back %v", i, v, sa[i], sb[i])
				}
			}
			if r.Voting != nil {
				if _, err := r.Voting.Predict(x); err != nil {
					t.Fatal(err)
				}
			}
		}
	})
}

// FuzzReadLIBLINEARModel parses LIBLINEAR model files: an error of the
// package naming the line, or a model whose weights the file's size bounds
// and that writes back to a file read as the same weights, bit for bit.
func FuzzReadLIBLINEARModel(f *testing.F) {
	for _, b := range toolModels(f, "liblinear") {
		f.Add(b)
	}
	X, _, yb, ym := seedData()
	for _, y := range [][]int{yb, ym} {
		m, _, err := svm.FitLinear(context.Background(), dataset.NewData(X, 3, y), y, svm.LinearOptions{})
		if err != nil {
			f.Fatal(err)
		}
		b, err := interop.MarshalLIBLINEAR(m)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("solver_type MCSVM_CS\nnr_class 2\nlabel 1 -1\nnr_feature 1\nbias 1\nw\n1 2\n3 4\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := interop.ReadLIBLINEAR(data)
		if err != nil {
			checkInteropError(t, err)
			return
		}
		m := r.Model
		if m.NumScores()*m.Dims() > len(data)+1 {
			t.Fatalf("%d bytes made %d functions of %d features", len(data), m.NumScores(), m.Dims())
		}
		text, err := interop.MarshalLIBLINEAR(m)
		if err != nil {
			t.Fatal(err)
		}
		back, err := interop.ReadLIBLINEAR(text)
		if err != nil {
			t.Fatalf("written back: %v\n%s", err, text)
		}
		if back.Model.NumScores() != m.NumScores() || back.Model.Dims() != m.Dims() {
			t.Fatalf("written back as %d functions of %d features, want %d of %d", back.Model.NumScores(), back.Model.Dims(), m.NumScores(), m.Dims())
		}
		for c := range m.NumScores() {
			w, b := m.Weights(c)
			w2, b2 := back.Model.Weights(c)
			if math.Float64bits(b) != math.Float64bits(b2) || !slices.Equal(w, w2) {
				t.Fatalf("function %d written back as %v %v, want %v %v", c, w2, b2, w, b)
			}
		}
	})
}

// FuzzReadONNX decodes ONNX-ML model files: an error of package interop
// naming the protobuf field (or the operator), or a model no larger than
// the file justifies, that writes back (WriteONNX) to a file read as the
// same model, and that scores samples without panicking.
func FuzzReadONNX(f *testing.F) {
	paths, err := filepath.Glob(filepath.Join("..", "interop", "testdata", "onnx", "*.onnx"))
	if err != nil || len(paths) == 0 {
		f.Fatalf("no ONNX models (%v)", err)
	}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := interop.ReadONNX(data, nil)
		if err != nil {
			var oe *interop.OperatorError
			switch {
			case errors.As(err, &oe):
				if oe.Op == "" && oe.Node == "" || !errors.Is(err, interop.ErrUnsupported) {
					t.Fatalf("operator error %q names no operator", err)
				}
			case errors.Is(err, interop.ErrSyntax), errors.Is(err, interop.ErrUnsupported), errors.Is(err, interop.ErrModel):
				if !strings.Contains(err.Error(), "field ") {
					t.Fatalf("error %q does not name the field", err)
				}
			case errors.Is(err, interop.ErrTooLarge):
			default:
				t.Fatalf("error %q wraps none of interop's sentinels", err)
			}
			return
		}
		m := r.Model
		if m.Dims() > len(data) || m.NumScores() > len(data) {
			t.Fatalf("%d bytes made a model of %d features and %d scores", len(data), m.Dims(), m.NumScores())
		}
		text, err := interop.MarshalONNX(m, nil)
		exact := true
		if errors.Is(err, interop.ErrUnsupported) && strings.Contains(err.Error(), "float32") {
			// A double tensor's values: written rounded to float32.
			exact = false
			text, err = interop.MarshalONNX(m, &interop.ONNXOptions{Round: true})
		}
		if err != nil {
			t.Fatalf("written back: %v", err)
		}
		back, err := interop.ReadONNX(text, nil)
		if err != nil {
			t.Fatalf("written back, read: %v", err)
		}
		b := back.Model
		if !slices.Equal(b.Classes(), m.Classes()) || b.Dims() != m.Dims() || b.NumScores() != m.NumScores() {
			t.Fatalf("written back as %v, want %v", b, m)
		}
		if !exact || m.Dims() > 1<<12 || len(data) > 1<<16 {
			return
		}
		x := make([]float64, m.Dims())
		sa, sb := make([]float64, m.NumScores()), make([]float64, m.NumScores())
		for _, v := range []float64{0, 1, -0.5} {
			for i := range x {
				x[i] = v
			}
			ea, eb := m.Scores(sa, x), b.Scores(sb, x)
			if (ea == nil) != (eb == nil) {
				t.Fatalf("Scores: %v, written back %v", ea, eb)
			}
			if ea != nil {
				continue
			}
			for i := range sa {
				if math.Float64bits(sa[i]) != math.Float64bits(sb[i]) && !(math.IsNaN(sa[i]) && math.IsNaN(sb[i])) {
					t.Fatalf("score %d of x = %v: %v, written back %v", i, v, sa[i], sb[i])
				}
			}
		}
	})
}
