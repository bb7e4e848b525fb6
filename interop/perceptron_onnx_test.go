package interop

import (
	"context"
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/linear"
	"github.com/rosenblatt-go/rosenblatt/perceptron"
)

// linearRead is what a LinearClassifier reads back as: one weight vector
// and bias per score.
type linearRead interface {
	Dims() int
	NumScores() int
	Classes() []int
	Weights(r int) ([]float64, float64)
	Predict(x []float64) (int, error)
	Scores(dst, x []float64) error
}

// perceptronCases are the perceptrons TestWritePerceptronONNX trains:
// binary (on ±1 labels) and multiclass, each rule whose model is one
// weight vector per score.
var perceptronCases = []struct {
	name string
	opt  perceptron.Options
}{
	{"online", perceptron.Options{MaxIter: 20}},
	{"averaged", perceptron.Options{Algorithm: linear.Averaged, MaxIter: 10}},
	{"pegasos", perceptron.Options{Algorithm: linear.SVM, MaxIter: 10}},
	{"minibatch", perceptron.Options{Algorithm: linear.MiniBatch, MaxIter: 10}},
	{"argmax", perceptron.Options{Multiclass: fit.Argmax, MaxIter: 20}},
	{"nobias", perceptron.Options{MaxIter: 20, NoBias: true}},
}

// TestWritePerceptronONNX trains float32 perceptrons (perceptron.Fit) on
// iris, heart_scale, breast_cancer_std and digits, writes them as ONNX-ML
// LinearClassifiers and reads them back: the same labels and weights
// (as float64) bit for bit, every test row given the original model's
// label, and the file read back writes the same bytes again
// (roundTripONNX).
func TestWritePerceptronONNX(t *testing.T) {
	for _, ds := range dataSets {
		tr := trainData(t, ds.train, 0)
		X := toF32(tr.X)
		test := filepath.Join(svmData, ds.test)
		for _, c := range perceptronCases {
			t.Run(ds.name+"/"+c.name, func(t *testing.T) {
				m, _, err := perceptron.Fit(context.Background(), dataset.NewData(X, tr.Cols, tr.Y), tr.Y, c.opt)
				if err != nil {
					t.Fatal(err)
				}
				back := roundTripONNX(t, m, "LinearClassifier").Model.(linearRead)
				if back.Dims() != m.Dims() || back.NumScores() != m.NumScores() || !slices.Equal(back.Classes(), m.Classes()) {
					t.Fatalf("read back with %d features, %d scores, labels %v; wrote %d, %d, %v",
						back.Dims(), back.NumScores(), back.Classes(), m.Dims(), m.NumScores(), m.Classes())
				}
				for r := range m.NumScores() {
					w, b := m.Weights(r)
					w2, b2 := back.Weights(r)
					for j := range w {
						if math.Float64bits(float64(w[j])) != math.Float64bits(w2[j]) {
							t.Fatalf("score %d weight %d: %v read back as %v", r, j, w[j], w2[j])
						}
					}
					if math.Float64bits(float64(b)) != math.Float64bits(b2) {
						t.Fatalf("score %d bias: %v read back as %v", r, b, b2)
					}
				}
				equalLabels(t, predictAll(t, back, test), predict32(t, m, test))
			})
		}
	}
}

// TestWritePerceptronONNXExact: a float64 perceptron trained on small
// integers (so that its weights are integers, exactly float32s) is written
// without rounding, and the model read back gives every row the scores of
// the original bit for bit and its label: a binary one (labels ±1, a zero
// score −1) and a multiclass one.
func TestWritePerceptronONNXExact(t *testing.T) {
	const n, d = 300, 7
	rng := newIntRand(5)
	X := make([]float64, n*d)
	for i := range X {
		X[i] = float64(rng.next()%9) - 4
	}
	ybin, ymulti := make([]int, n), make([]int, n)
	for i := range n {
		x := X[i*d : (i+1)*d]
		s := 2*x[0] - x[1] + x[2]
		ybin[i] = -1
		if s > 0 {
			ybin[i] = 1
		}
		switch {
		case x[3] > 1:
			ymulti[i] = 2
		case x[4] > 0:
			ymulti[i] = 5
		default:
			ymulti[i] = 9
		}
	}
	for _, c := range []struct {
		name string
		y    []int
		opt  perceptron.Options
	}{
		{"binary", ybin, perceptron.Options{MaxIter: 30}},
		{"onevsrest", ymulti, perceptron.Options{MaxIter: 30}},
		{"argmax", ymulti, perceptron.Options{Multiclass: fit.Argmax, MaxIter: 30}},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, _, err := perceptron.Fit(context.Background(), dataset.NewData(X, d, c.y), c.y, c.opt)
			if err != nil {
				t.Fatal(err)
			}
			back := roundTripONNX(t, m, "LinearClassifier").Model.(linearRead)
			r := m.NumScores()
			s1, s2 := make([]float64, r), make([]float64, r)
			for i := range n {
				x := X[i*d : (i+1)*d]
				if err := m.Scores(s1, x); err != nil {
					t.Fatal(err)
				}
				if err := back.Scores(s2, x); err != nil {
					t.Fatal(err)
				}
				if !bitsEqual(s1, s2) {
					t.Fatalf("row %d: scores %v, read back %v", i, s1, s2)
				}
				p1, err1 := m.Predict(x)
				p2, err2 := back.Predict(x)
				if err1 != nil || err2 != nil || p1 != p2 {
					t.Fatalf("row %d: label %d (%v), read back %d (%v)", i, p1, err1, p2, err2)
				}
			}
		})
	}
	// A zero score: the perceptron predicts −1, and so does the file.
	m, _, err := perceptron.Fit(context.Background(), dataset.NewData([]float64{1, -1}, 1, []int{1, -1}), []int{1, -1}, perceptron.Options{MaxIter: 5})
	if err != nil {
		t.Fatal(err)
	}
	f := roundTripONNX(t, m, "LinearClassifier")
	zero := []float64{0}
	if w, b := m.Weights(0); b != 0 {
		zero[0] = -float64(b) / float64(w[0])
	}
	p1, _ := m.Predict(zero)
	p2, _ := f.Model.(linearRead).Predict(zero)
	if p1 != -1 || p2 != -1 {
		t.Errorf("a zero score: perceptron %d, read back %d; want −1", p1, p2)
	}
}

// intRand is a small deterministic generator (SplitMix64).
type intRand struct{ s uint64 }

func newIntRand(seed uint64) *intRand { return &intRand{seed} }

func (r *intRand) next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// TestWritePerceptronONNXRefused: what LinearClassifier cannot hold is
// refused with ErrUnsupported, naming why: a perceptron that scales its
// samples (Normalize, NormalizeFeatures), a voted one, an untrained one,
// and a float64 one whose weights are not float32s (written rounded with
// ONNXOptions.Round).
func TestWritePerceptronONNXRefused(t *testing.T) {
	tr := trainData(t, "iris.train.libsvm", 0)
	fit := func(opt perceptron.Options) *linear.Model[float64] {
		t.Helper()
		m, _, err := perceptron.Fit(context.Background(), dataset.NewData(tr.X, tr.Cols, tr.Y), tr.Y, opt)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	for _, c := range []struct {
		name, want string
		opt        perceptron.Options
	}{
		{"normalize", "norm", perceptron.Options{Normalize: true, MaxIter: 5}},
		{"normalizefeatures", "norm", perceptron.Options{NormalizeFeatures: true, MaxIter: 5}},
		{"voted", "vote", perceptron.Options{Algorithm: linear.Voted, MaxIter: 3}},
		{"float64", "float32", perceptron.Options{Algorithm: linear.Averaged, MaxIter: 5}},
	} {
		_, err := MarshalONNX(fit(c.opt), nil)
		if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want ErrUnsupported naming %q", c.name, err, c.want)
		}
	}
	if _, err := MarshalONNX(new(linear.Model[float32]), nil); !errors.Is(err, ErrUnsupported) {
		t.Errorf("an untrained model: %v, want ErrUnsupported", err)
	}
	m := fit(perceptron.Options{Algorithm: linear.Averaged, MaxIter: 5})
	data, err := MarshalONNX(m, &ONNXOptions{Round: true})
	if err != nil {
		t.Fatal(err)
	}
	f, err := ReadONNX(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	back := f.Model.(linearRead)
	for r := range m.NumScores() {
		w, b := m.Weights(r)
		w2, b2 := back.Weights(r)
		for j := range w {
			if w2[j] != float64(float32(w[j])) {
				t.Fatalf("score %d weight %d: %v written rounded, read back as %v", r, j, w[j], w2[j])
			}
		}
		if b2 != float64(float32(b)) {
			t.Fatalf("score %d bias: %v written rounded, read back as %v", r, b, b2)
		}
	}
}

// TestPerceptronONNXPython checks the files of our perceptrons with
// Debian's python3-onnx: onnx.checker (full check, with shape inference)
// passes them, and check_linear.py, which evaluates a LinearClassifier as
// the ONNX-ML operator specification defines it (with numpy: the
// coefficients as E rows of d values, the intercepts added, for E = 1 a
// positive score predicting classlabels[1], else the first highest score's
// label), gives every test row the label our model gives it. onnx 1.12
// has no reference evaluator (onnx.reference came with 1.13) and ONNX
// Runtime is not packaged in Debian, hence the transcription. It fails,
// rather than skips, without the package when CI=true.
func TestPerceptronONNXPython(t *testing.T) {
	py := "/usr/bin/python3"
	if err := exec.Command(py, "-c", "import onnx, numpy").Run(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s cannot import onnx and numpy (Debian's python3-onnx): %v", py, err)
		}
		t.Skipf("%s cannot import onnx: %v", py, err)
	}
	dir := t.TempDir()
	var args []string
	for _, ds := range dataSets {
		tr := trainData(t, ds.train, 0)
		X := toF32(tr.X)
		test := filepath.Join(svmData, ds.test)
		for _, c := range perceptronCases {
			m, _, err := perceptron.Fit(context.Background(), dataset.NewData(X, tr.Cols, tr.Y), tr.Y, c.opt)
			if err != nil {
				t.Fatal(err)
			}
			data, err := MarshalONNX(m, nil)
			if err != nil {
				t.Fatal(err)
			}
			name := filepath.Join(dir, ds.name+"_"+c.name)
			if err := os.WriteFile(name+".onnx", data, 0o644); err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			for _, p := range predict32(t, m, test) {
				b.WriteString(strconv.Itoa(p))
				b.WriteByte('\n')
			}
			if err := os.WriteFile(name+".labels", []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			args = append(args, name+".onnx", test, name+".labels")
		}
	}
	cmd := exec.Command(py, append([]string{filepath.Join(onnxData, "check_linear.py")}, args...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("check_linear.py: %v\n%s", err, out)
	}
	if got := strings.Count(string(out), "ok "); got != len(args)/3 {
		t.Fatalf("check_linear.py checked %d models, want %d:\n%s", got, len(args)/3, out)
	}
}
