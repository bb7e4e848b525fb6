package interop

import (
	"bytes"
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

	"github.com/rosenblatt-go/rosenblatt/expansion"
	"github.com/rosenblatt-go/rosenblatt/linear"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/svm"
)

// onnxData is the directory of the ONNX-ML models gen.py built from
// scikit-learn estimators, with scikit-learn's predictions.
const onnxData = "testdata/onnx"

// TestONNXCommitted checks the committed models of testdata/onnx against
// scikit-learn's predictions committed beside them: runs without Python.
func TestONNXCommitted(t *testing.T) {
	checkONNXDir(t, onnxData, 18)
}

// TestONNXScikitLearn runs gen.py with Debian's python3-sklearn and
// python3-onnx: it trains LinearSVC, SVC (each kernel), Perceptron,
// SGDClassifier and the StandardScaler and Normalizer pipelines, builds
// their ONNX-ML graphs, checks them with onnx.checker, and writes
// scikit-learn's predict and decision_function, which the models read here
// must reproduce. It fails, rather than skips, without the packages when
// CI=true.
func TestONNXScikitLearn(t *testing.T) {
	py := "/usr/bin/python3"
	if err := exec.Command(py, "-c", "import onnx, sklearn").Run(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s cannot import onnx and sklearn (Debian's python3-onnx, python3-sklearn): %v", py, err)
		}
		t.Skipf("%s cannot import onnx and sklearn: %v", py, err)
	}
	out := t.TempDir()
	cmd := exec.Command(py, filepath.Join(onnxData, "gen.py"), svmData, out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gen.py: %v\n%s", err, b)
	}
	checkONNXDir(t, out, 18)
}

// checkONNXDir checks every NAME.onnx of dir against NAME.expect.
func checkONNXDir(t *testing.T, dir string, want int) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.onnx"))
	if err != nil || len(paths) != want {
		t.Fatalf("%s: %d models, want %d (%v)", dir, len(paths), want, err)
	}
	for _, path := range paths {
		name := strings.TrimSuffix(filepath.Base(path), ".onnx")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			checkONNX(t, name, data, strings.TrimSuffix(path, ".onnx")+".expect")
		})
	}
}

// expectation is one row of a .expect file.
type expectation struct {
	label int
	bound float64
	dec   []float64
}

func readExpect(t *testing.T, path string) (test, kind string, rows []expectation) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if v, ok := strings.CutPrefix(line, "# test "); ok {
			test = v
			continue
		}
		if v, ok := strings.CutPrefix(line, "# kind "); ok {
			kind = v
			continue
		}
		f := strings.Fields(line)
		if len(f) < 3 {
			t.Fatalf("%s: %q", path, line)
		}
		var e expectation
		if e.label, err = strconv.Atoi(f[0]); err != nil {
			t.Fatal(err)
		}
		nums := make([]float64, len(f)-1)
		for i, s := range f[1:] {
			if nums[i], err = strconv.ParseFloat(s, 64); err != nil {
				t.Fatal(err)
			}
		}
		e.bound, e.dec = nums[0], nums[1:]
		rows = append(rows, e)
	}
	if test == "" || kind == "" || len(rows) == 0 {
		t.Fatalf("%s: no test set, kind or rows", path)
	}
	return test, kind, rows
}

// checkONNX reads an ONNX file and checks its labels against
// scikit-learn's on every test row, and its decision values against
// decision_function within the rounding bound gen.py gives. The decision
// values are scikit-learn's as the model's scores hold them: the same for
// a linear model and a binary SVC, (−s, s) for the two scores of a binary
// MatMul graph, and negated for the pairs of a one-vs-one SVC (whose
// positive value here is the pair's larger label, scikit-learn's the
// smaller).
func checkONNX(t *testing.T, name string, data []byte, expect string) {
	test, kind, rows := readExpect(t, expect)
	f, err := ReadONNX(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := f.Model
	x := readRows(t, filepath.Join(svmData, test), m.Dims())
	if x.Rows != len(rows) {
		t.Fatalf("%d test rows, %d expectations", x.Rows, len(rows))
	}
	wantOp := map[string]string{"linear": "LinearClassifier", "svc": "SVMClassifier", "matmul": "MatMul"}[kind]
	if f.Op != wantOp {
		t.Errorf("Op = %q, want %q", f.Op, wantOp)
	}
	if strings.Contains(name, "scaler") || strings.Contains(name, "normalizer") || strings.HasPrefix(name, "sgd") {
		if _, ok := m.(*Pipeline); !ok || len(f.Steps) != 1 {
			t.Errorf("model %T with steps %v, want a Pipeline of one step", m, f.Steps)
		}
	}
	d, r := m.Dims(), m.NumScores()
	labels := make([]int, x.Rows)
	if err := m.PredictBatch(labels, x.X[:x.Rows*d]); err != nil {
		t.Fatal(err)
	}
	sc := make([]float64, r)
	worst := 0.0
	for i, e := range rows {
		row := x.X[i*d : (i+1)*d]
		if labels[i] != e.label {
			t.Errorf("row %d: label %d, scikit-learn's %d (decision %v)", i, labels[i], e.label, e.dec)
		}
		if got, err := m.Predict(row); err != nil || got != labels[i] {
			t.Errorf("row %d: Predict %d, %v; PredictBatch %d", i, got, err, labels[i])
		}
		if err := m.Scores(sc, row); err != nil {
			t.Fatal(err)
		}
		want := slices.Clone(e.dec)
		switch {
		case kind == "matmul" && len(want) == 1:
			want = []float64{-want[0], want[0]}
		case kind == "svc" && len(want) > 1:
			for c := range want {
				want[c] = -want[c]
			}
		}
		if len(want) != r {
			t.Fatalf("row %d: %d scores, %d decision values", i, r, len(want))
		}
		for c := range want {
			diff := math.Abs(sc[c] - want[c])
			if diff > e.bound+1e-12*(1+math.Abs(want[c])) {
				t.Errorf("row %d score %d: %v, decision_function %v: |Δ| = %.3g over the bound %.3g", i, c, sc[c], want[c], diff, e.bound)
			}
			if e.bound > 0 {
				worst = max(worst, diff/e.bound)
			}
		}
	}
	t.Logf("%s: %d rows, labels equal; largest |Δ| / bound = %.3f", f.Op, len(rows), worst)
}

// TestONNXRoundTrip writes each committed model back (WriteONNX) and reads
// it again: the file written from the second read equals the first byte
// for byte, and the models' parameters are the same bits.
func TestONNXRoundTrip(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join(onnxData, "*.onnx"))
	for _, path := range paths {
		name := strings.TrimSuffix(filepath.Base(path), ".onnx")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			f, err := ReadONNX(data, nil)
			if err != nil {
				t.Fatal(err)
			}
			w1, err := MarshalONNX(f.Model, nil)
			if err != nil {
				t.Fatal(err)
			}
			g, err := ReadONNX(w1, nil)
			if err != nil {
				t.Fatal(err)
			}
			w2, err := MarshalONNX(g.Model, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(w1, w2) {
				t.Fatalf("written, read and written again: %d and %d bytes differ", len(w1), len(w2))
			}
			sameModel(t, f.Model, g.Model)
		})
	}
}

// sameModel checks that two models read from ONNX files hold the same
// parameters, bit for bit.
func sameModel(t *testing.T, a, b Classifier) {
	t.Helper()
	if pa, ok := a.(*Pipeline); ok {
		pb, ok := b.(*Pipeline)
		if !ok || !slices.EqualFunc(pa.steps, pb.steps, func(x, y Step) bool {
			return x.Op == y.Op && x.Norm == y.Norm && bitsEqual(x.Offset, y.Offset) && bitsEqual(x.Scale, y.Scale)
		}) {
			t.Fatalf("steps %v, %v", pa.Steps(), b)
		}
		a, b = pa.inner, pb.inner
	}
	if va, ok := a.(*Voting); ok {
		a, b = va.Model, b.(*Voting).Model
	}
	switch x := a.(type) {
	case *linear.Model[float64]:
		y := b.(*linear.Model[float64])
		for r := range x.NumScores() {
			w1, b1 := x.Weights(r)
			w2, b2 := y.Weights(r)
			if !bitsEqual(w1, w2) || math.Float64bits(b1) != math.Float64bits(b2) {
				t.Fatalf("score %d: weights differ", r)
			}
		}
	case *expansion.Model[float64]:
		p, q := x.Parts(), b.(*expansion.Model[float64]).Parts()
		if p.Kernel != q.Kernel || p.Dims != q.Dims || !slices.Equal(p.Labels, q.Labels) ||
			!bitsEqual(p.SV, q.SV) || !bitsEqual(p.Coef, q.Coef) || !bitsEqual(p.Bias, q.Bias) {
			t.Fatalf("kernel SVMs differ: %v, %v", x, b)
		}
	default:
		t.Fatalf("model %T", a)
	}
}

func bitsEqual(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) })
}

// TestONNXErrors checks that malformed and unsupported files are refused
// with errors that name the protobuf field or the operator.
func TestONNXErrors(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(onnxData, "svc_rbf_iris.onnx"))
	if err != nil {
		t.Fatal(err)
	}
	for n := 1; n < len(data); n += 1 + n/3 {
		_, err := ReadONNX(data[:n], nil)
		if err == nil {
			t.Errorf("a file cut to %d bytes read", n)
		} else if !errors.Is(err, ErrSyntax) && !errors.Is(err, ErrUnsupported) {
			t.Errorf("cut to %d bytes: %v, want ErrSyntax", n, err)
		} else if !strings.Contains(err.Error(), "field ") && !errors.Is(err, ErrOperator) {
			t.Errorf("cut to %d bytes: %v does not name a field", n, err)
		}
	}
	// An operator this package does not run, and a post_transform.
	for _, c := range []struct{ from, to, want string }{
		{"SVMClassifier", "SVMClassifiex", "SVMClassifiex"},
		{"NONE", "SOFT", "post_transform"},
	} {
		bad := bytes.Replace(data, []byte(c.from), []byte(c.to), 1)
		if len(c.from) != len(c.to) {
			t.Fatalf("the test replaces %q by %q: lengths differ", c.from, c.to)
		}
		_, err := ReadONNX(bad, nil)
		var oe *OperatorError
		if !errors.Is(err, ErrOperator) || !errors.Is(err, ErrUnsupported) || !errors.As(err, &oe) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s → %s: %v, want an *OperatorError naming %s", c.from, c.to, err, c.want)
		}
	}
	if _, err := ReadONNX([]byte("\x08\x08\x3a\x05\x0a\x03abc"), nil); !errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), "ModelProto.graph.node[0]") {
		t.Errorf("a node of 3 bytes: %v", err)
	}
	if IsONNX([]byte("svm_type c_svc\n")) || IsONNX([]byte("{}")) || !IsONNX(data) {
		t.Error("IsONNX")
	}
}

// toF32 returns a data set's rows as float32.
func toF32(x []float64) []float32 {
	out := make([]float32, len(x))
	for i, v := range x {
		out[i] = float32(v)
	}
	return out
}

// TestWriteONNX trains float32 models here (a linear SVM, binary and
// one-vs-rest; kernel SVMs, binary and one-vs-one), writes them as ONNX-ML
// and reads them back: the same parameters bit for bit (as float64) and
// the same labels on every test row. A float64 model whose values are not
// float32s is refused without ONNXOptions.Round.
func TestWriteONNX(t *testing.T) {
	for _, ds := range dataSets[:3] {
		tr := trainData(t, ds.train, 0)
		X := toF32(tr.X)
		test := filepath.Join(svmData, ds.test)
		t.Run(ds.name+"/linear", func(t *testing.T) {
			m, _, err := svm.FitLinear(context.Background(), dataset.NewData(X, tr.Cols, tr.Y), tr.Y, svm.LinearOptions{})
			if err != nil {
				t.Fatal(err)
			}
			f := roundTripONNX(t, m, "LinearClassifier")
			back := f.Model.(*linear.Model[float64])
			for r := range m.NumScores() {
				w, b := m.Weights(r)
				w2, b2 := back.Weights(r)
				for j := range w {
					if float64(w[j]) != w2[j] {
						t.Fatalf("score %d weight %d: %v read back as %v", r, j, w[j], w2[j])
					}
				}
				if float64(b) != b2 {
					t.Fatalf("bias %d: %v, %v", r, b, b2)
				}
			}
			equalLabels(t, predictAll(t, back, test), predict32(t, m, test))
		})
		t.Run(ds.name+"/rbf", func(t *testing.T) {
			m, _, err := svm.Fit(context.Background(), dataset.NewData(X, tr.Cols, tr.Y), tr.Y, svm.Options{Kernel: gram.RBF{Gamma: 0.25}})
			if err != nil {
				t.Fatal(err)
			}
			f := roundTripONNX(t, m, "SVMClassifier")
			back := f.Model.(*expansion.Model[float64])
			p, q := m.Parts(), back.Parts()
			// The support vectors are grouped by class (LIBSVM's layout):
			// each of ours is found with the same coefficients.
			if q.Kernel != (gram.RBF{Gamma: float64(float32(0.25))}) || m.NumSupport() != back.NumSupport() {
				t.Fatalf("read back %v, %d support vectors, from %v", back, back.NumSupport(), m)
			}
			s, d, R := m.NumSupport(), p.Dims, len(p.Bias)
			for r := range R {
				if float64(p.Bias[r]) != q.Bias[r] {
					t.Fatalf("bias %d: %v, %v", r, p.Bias[r], q.Bias[r])
				}
			}
			used := make([]bool, s)
		next:
			for i := range s {
				for k := range s {
					if used[k] {
						continue
					}
					same := true
					for j := range d {
						same = same && float64(p.SV[i*d+j]) == q.SV[k*d+j]
					}
					for r := range R {
						same = same && float64(p.Coef[r*s+i]) == q.Coef[r*s+k]
					}
					if same {
						used[k] = true
						continue next
					}
				}
				t.Fatalf("support vector %d not read back with its coefficients", i)
			}
			equalLabels(t, predictAll(t, back, test), predict32(t, m, test))
		})
	}
	t.Run("float64", func(t *testing.T) {
		m, err := newLinearSVM([]float64{0.1, 2}, 2, []float64{0.5}, []int{0, 1}, 1)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := MarshalONNX(m, nil); !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "float32") {
			t.Errorf("0.1 written as a float32: %v", err)
		}
		data, err := MarshalONNX(m, &ONNXOptions{Round: true})
		if err != nil {
			t.Fatal(err)
		}
		f, err := ReadONNX(data, nil)
		if err != nil {
			t.Fatal(err)
		}
		if w, _ := f.Model.(*linear.Model[float64]).Weights(0); w[0] != float64(float32(0.1)) || w[1] != 2 {
			t.Errorf("rounded weights read back as %v", w)
		}
	})
}

// roundTripONNX writes m as ONNX-ML, reads it back, and checks that
// writing what was read gives the same bytes.
func roundTripONNX(t *testing.T, m any, op string) *ONNXFile {
	t.Helper()
	data, err := MarshalONNX(m, nil)
	if err != nil {
		t.Fatal(err)
	}
	f, err := ReadONNX(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	if f.Op != op || f.Producer != "rosenblatt" {
		t.Errorf("read back as %s by %q", f.Op, f.Producer)
	}
	again, err := MarshalONNX(f.Model, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(data, again) {
		t.Errorf("written again: %d bytes, first %d, differ", len(again), len(data))
	}
	return f
}

// predict32 returns the labels a float32 model gives a test file.
func predict32(t *testing.T, m interface {
	Predict([]float32) (int, error)
	Dims() int
}, path string) []int {
	t.Helper()
	data := readRows(t, path, m.Dims())
	out := make([]int, data.Rows)
	for i := range out {
		var err error
		if out[i], err = m.Predict(toF32(data.X[i*data.Cols : i*data.Cols+m.Dims()])); err != nil {
			t.Fatal(err)
		}
	}
	return out
}
