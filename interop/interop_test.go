package interop

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/expansion"
	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/linear"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/svm"
)

// testFile is the test set of a reference model of svm/testdata.
func testFile(name string) string {
	if strings.HasPrefix(name, "iris") {
		return filepath.Join(svmData, "iris.test.libsvm")
	}
	return filepath.Join(svmData, "heart_scale.libsvm")
}

// TestCommitted checks the models svm-train and liblinear-train wrote in
// svm/testdata (gen.sh there) against the labels svm-predict and
// liblinear-predict wrote next to them: runs without the tools.
func TestCommitted(t *testing.T) {
	for _, sub := range []string{"libsvm", "liblinear"} {
		models, err := filepath.Glob(filepath.Join(svmData, sub, "*.model"))
		if err != nil || len(models) < 4 {
			t.Fatalf("%s: %d models (%v)", sub, len(models), err)
		}
		for _, path := range models {
			name := strings.TrimSuffix(filepath.Base(path), ".model")
			t.Run(sub+"/"+name, func(t *testing.T) {
				file, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				want := readLabels(t, strings.TrimSuffix(path, ".model")+".pred")
				if sub == "libsvm" {
					checkLIBSVM(t, file, testFile(name), want)
				} else {
					checkLIBLINEAR(t, file, testFile(name), want)
				}
			})
		}
	}
}

// dataSets are the train and test files of the live tests.
var dataSets = []struct{ name, train, test string }{
	{"iris", "iris.train.libsvm", "iris.test.libsvm"},
	{"heart", "heart_scale.libsvm", "heart_scale.libsvm"},
	{"breast", "breast_cancer_std.train.libsvm", "breast_cancer_std.test.libsvm"},
	{"digits", "digits.train.libsvm", "digits.test.libsvm"},
}

// TestToolsLIBSVM trains with svm-train (C-SVC and ν-SVC, each kernel we
// hold, with and without probability estimates) on four data sets and
// checks every test row's label against svm-predict's.
func TestToolsLIBSVM(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode")
	}
	tools(t, "svm-train", "svm-predict")
	configs := []string{
		"-s 0 -t 0 -c 0.5",
		"-s 0 -t 1 -d 3 -g 0.05 -r 1",
		"-s 0 -t 2 -c 4",
		"-s 1 -t 2 -n 0.3",
		"-s 1 -t 1 -d 2 -g 0.02 -r 0.5 -n 0.2",
		"-s 0 -t 2 -b 1",
	}
	for _, ds := range dataSets {
		for _, cfg := range configs {
			if ds.name == "digits" {
				cfg = strings.Replace(cfg, "-t 2", "-t 2 -g 0.002", 1)
			}
			t.Run(ds.name+"/"+strings.ReplaceAll(cfg, " ", ""), func(t *testing.T) {
				dir := t.TempDir()
				args := append(strings.Fields(cfg), "-q", abs(filepath.Join(svmData, ds.train)), "m")
				run(t, dir, "svm-train", args...)
				run(t, dir, "svm-predict", abs(filepath.Join(svmData, ds.test)), "m", "p")
				file, err := os.ReadFile(filepath.Join(dir, "m"))
				if err != nil {
					t.Fatal(err)
				}
				checkLIBSVM(t, file, filepath.Join(svmData, ds.test), readLabels(t, filepath.Join(dir, "p")))
				f, err := ReadLIBSVM(file, nil)
				if err != nil {
					t.Fatal(err)
				}
				// Written back (in the file's label order when it has a
				// Voting), svm-predict and the reader agree with the
				// original's labels.
				var again bytes.Buffer
				if f.Voting != nil {
					err = f.Voting.WriteLIBSVM(&again)
				} else {
					err = WriteLIBSVM(&again, f.Model)
				}
				if err != nil {
					t.Fatal(err)
				}
				want := readLabels(t, filepath.Join(dir, "p"))
				test := filepath.Join(svmData, ds.test)
				equalLabels(t, toolPredict(t, "svm-predict", again.Bytes(), test), want)
				back, err := ReadLIBSVM(again.Bytes(), nil)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(back.Labels, f.Labels) {
					t.Errorf("labels written in the order %v, read %v", back.Labels, f.Labels)
				}
				k := len(f.Labels)
				if strings.Contains(cfg, "-b 1") != (len(f.ProbA) == k*(k-1)/2 && len(f.ProbB) == len(f.ProbA)) {
					t.Errorf("probA/probB: %d and %d values for %d classes", len(f.ProbA), len(f.ProbB), k)
				}
			})
		}
	}
	for _, ds := range dataSets[1:3] {
		t.Run("sigmoid/"+ds.name, func(t *testing.T) {
			dir := t.TempDir()
			test := abs(filepath.Join(svmData, ds.test))
			run(t, dir, "svm-train", "-q", "-t", "3", "-g", "0.01", abs(filepath.Join(svmData, ds.train)), "m")
			run(t, dir, "svm-predict", test, "m", "p")
			file, err := os.ReadFile(filepath.Join(dir, "m"))
			if err != nil {
				t.Fatal(err)
			}
			checkLIBSVM(t, file, test, readLabels(t, filepath.Join(dir, "p")))
			f, err := ReadLIBSVM(file, nil)
			if err != nil {
				t.Fatal(err)
			}
			again, err := MarshalLIBSVM(f.Model)
			if err != nil {
				t.Fatal(err)
			}
			if f.Voting == nil {
				equalLabels(t, toolPredict(t, "svm-predict", again, test), readLabels(t, filepath.Join(dir, "p")))
			}
		})
	}
}

// TestToolsLIBLINEAR trains with every classification solver of
// liblinear-train, with and without a bias feature, and checks every test
// row's label against liblinear-predict's.
func TestToolsLIBLINEAR(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode")
	}
	tools(t, "liblinear-train", "liblinear-predict")
	for _, ds := range dataSets {
		for s := range 8 {
			for _, bias := range []string{"1", "-1", "2.5"} {
				if bias == "2.5" && s != 4 && s != 1 {
					continue
				}
				t.Run(fmt.Sprintf("%s/s%d/B%s", ds.name, s, bias), func(t *testing.T) {
					dir := t.TempDir()
					run(t, dir, "liblinear-train", "-q", "-s", fmt.Sprint(s), "-B", bias, abs(filepath.Join(svmData, ds.train)), "m")
					run(t, dir, "liblinear-predict", abs(filepath.Join(svmData, ds.test)), "m", "p")
					file, err := os.ReadFile(filepath.Join(dir, "m"))
					if err != nil {
						t.Fatal(err)
					}
					checkLIBLINEAR(t, file, filepath.Join(svmData, ds.test), readLabels(t, filepath.Join(dir, "p")))
				})
			}
		}
	}
	// A two-class Crammer–Singer file whose columns are not opposite
	// (liblinear-train makes them opposite): liblinear-predict uses the
	// first column's sign, not the argmax.
	t.Run("MCSVM_CS/two columns", func(t *testing.T) {
		rng := rand.New(rand.NewPCG(3, 4))
		var b bytes.Buffer
		b.WriteString("solver_type MCSVM_CS\nnr_class 2\nlabel 1 -1\nnr_feature 13\nbias 1\nw\n")
		for range 14 {
			fmt.Fprintf(&b, "%v %v \n", rng.NormFloat64(), rng.NormFloat64())
		}
		test := filepath.Join(svmData, "heart_scale.libsvm")
		checkLIBLINEAR(t, b.Bytes(), test, toolPredict(t, "liblinear-predict", b.Bytes(), test))
	})
}

// predictAll returns the model's labels of the rows of a data file.
func predictAll(t *testing.T, m interface {
	Predict([]float64) (int, error)
	Dims() int
}, path string) []int {
	t.Helper()
	data := readRows(t, path, m.Dims())
	out := make([]int, data.Rows)
	for i := range out {
		var err error
		if out[i], err = m.Predict(data.X[i*data.Cols : i*data.Cols+m.Dims()]); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

func equalLabels(t *testing.T, got, want []int) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d labels, want %d", len(got), len(want))
	}
	bad := 0
	for i := range got {
		if got[i] != want[i] {
			if bad++; bad <= 5 {
				t.Errorf("row %d: %d, want %d", i, got[i], want[i])
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d rows differ", bad, len(got))
	}
}

// toolPredict writes file, runs predictor on test with it and returns its
// labels.
func toolPredict(t *testing.T, predictor string, file []byte, test string) []int {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "m"), file, 0o644); err != nil {
		t.Fatal(err)
	}
	run(t, dir, predictor, abs(test), "m", "p")
	return readLabels(t, filepath.Join(dir, "p"))
}

func trainData(t *testing.T, name string, d int) *dataset.Data[float64] {
	return readRows(t, filepath.Join(svmData, name), d)
}

// TestWriteLIBSVM trains kernel SVMs here, writes them in LIBSVM's format
// and checks that svm-predict gives every test row the label Predict
// gives, and that the file reads back to the same predictions and
// decision values.
func TestWriteLIBSVM(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode")
	}
	tools(t, "svm-predict")
	cases := []struct {
		ds     int
		kernel gram.Kernel
	}{
		{0, gram.RBF{Gamma: 0.25}},
		{1, gram.Polynomial{Gamma: 0.1, Coef0: 1, Degree: 3}},
		{2, gram.Linear{}},
		{3, gram.RBF{Gamma: 0.002}},
	}
	for _, c := range cases {
		ds := dataSets[c.ds]
		t.Run(ds.name+"/"+c.kernel.String(), func(t *testing.T) {
			tr := trainData(t, ds.train, 0)
			m, _, err := svm.Fit(context.Background(), tr, tr.Y, svm.Options{Kernel: c.kernel})
			if err != nil {
				t.Fatal(err)
			}
			file, err := MarshalLIBSVM(m)
			if err != nil {
				t.Fatal(err)
			}
			test := filepath.Join(svmData, ds.test)
			ours := predictAll(t, m, test)
			equalLabels(t, toolPredict(t, "svm-predict", file, test), ours)
			back, err := ReadLIBSVM(file, nil)
			if err != nil {
				t.Fatal(err)
			}
			equalLabels(t, predictAll(t, back.Model, test), ours)
			sameScores(t, m, back.Model, test)
		})
	}
	t.Run("one-vs-rest", func(t *testing.T) {
		tr := trainData(t, "iris.train.libsvm", 0)
		m, _, err := svm.Fit(context.Background(), tr, tr.Y, svm.Options{Kernel: gram.RBF{Gamma: 0.25}, Multiclass: fit.OneVsRest})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := MarshalLIBSVM(m); !errors.Is(err, ErrUnsupported) {
			t.Errorf("one-vs-rest: %v, want ErrUnsupported", err)
		}
	})
}

// sameScores checks that two models give the same decision values within
// rounding on the rows of a data file.
func sameScores(t *testing.T, a, b *expansion.Model[float64], path string) {
	t.Helper()
	data := readRows(t, path, a.Dims())
	sa, sb := make([]float64, a.NumScores()), make([]float64, b.NumScores())
	for i := range data.Rows {
		x := data.X[i*data.Cols : i*data.Cols+a.Dims()]
		if err := a.Scores(sa, x); err != nil {
			t.Fatal(err)
		}
		if err := b.Scores(sb, x[:b.Dims()]); err != nil {
			t.Fatal(err)
		}
		for r := range sa {
			if !near(sb[r], sa[r]) {
				t.Fatalf("row %d score %d: %v, want %v", i, r, sb[r], sa[r])
			}
		}
	}
}

// TestWriteLIBSVMShared builds a one-vs-one model whose support vectors
// carry coefficients in pairs that share no class (no SMO run makes one,
// NewModel takes it): WriteLIBSVM must write such a vector once per class
// it needs, and svm-predict must agree with Predict on random rows.
func TestWriteLIBSVMShared(t *testing.T) {
	tools(t, "svm-predict")
	rng := rand.New(rand.NewPCG(1, 2))
	const k, s, d = 4, 7, 3
	npairs := k * (k - 1) / 2
	p := expansion.Parts[float64]{Kernel: gram.RBF{Gamma: 0.7}, Dims: d, Labels: []int{-3, 0, 5, 9}, Scheme: fit.OneVsOne,
		SV: make([]float64, s*d), Coef: make([]float64, npairs*s), Bias: make([]float64, npairs)}
	for i := range p.SV {
		p.SV[i] = rng.NormFloat64()
	}
	for i := range s {
		p.SV[i*d+d-1] = 0 // the last feature in no support vector: Dims must survive
	}
	for i := range p.Coef {
		if rng.IntN(3) > 0 {
			p.Coef[i] = rng.NormFloat64()
		}
	}
	for i := range p.Bias {
		p.Bias[i] = rng.NormFloat64() * 0.1
	}
	m, err := expansion.New(p)
	if err != nil {
		t.Fatal(err)
	}
	file, err := MarshalLIBSVM(m)
	if err != nil {
		t.Fatal(err)
	}
	var rows bytes.Buffer
	x := make([]float64, d)
	var want []int
	for range 300 {
		fmt.Fprint(&rows, "0")
		for j := range x {
			x[j] = rng.NormFloat64()
			fmt.Fprintf(&rows, " %d:%v", j+1, x[j])
		}
		rows.WriteByte('\n')
		y, err := m.Predict(x)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, y)
	}
	dir := t.TempDir()
	test := filepath.Join(dir, "rows")
	if err := os.WriteFile(test, rows.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	back, err := ReadLIBSVM(file, nil)
	if err != nil {
		t.Fatal(err)
	}
	if back.Model.Dims() != d {
		t.Errorf("read back with %d features, written with %d", back.Model.Dims(), d)
	}
	if back.Model.NumSupport() <= s {
		t.Errorf("%d support vectors written for %d shared ones: none written twice", back.Model.NumSupport(), s)
	}
	equalLabels(t, toolPredict(t, "svm-predict", file, test), want)
	sameScores(t, m, back.Model, test)
}

// TestWriteLIBLINEAR trains linear SVMs here (binary, one-vs-rest),
// writes them in LIBLINEAR's format, and checks liblinear-predict's labels
// against Predict's and that the file reads back to the same weights bit
// for bit; a two-class one-vs-rest model is refused.
func TestWriteLIBLINEAR(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode")
	}
	tools(t, "liblinear-predict")
	for _, ds := range dataSets {
		t.Run(ds.name, func(t *testing.T) {
			tr := trainData(t, ds.train, 0)
			m, _, err := svm.FitLinear(context.Background(), tr, tr.Y, svm.LinearOptions{})
			if err != nil {
				t.Fatal(err)
			}
			checkWriteLIBLINEAR(t, m, filepath.Join(svmData, ds.test))
		})
	}
	t.Run("two-class one-vs-rest", func(t *testing.T) {
		m, err := newLinearSVM([]float64{1, -2, 0.5, 3, 0.25, -1, 0, 2}, 4, []float64{0.1, -0.3}, []int{-1, 1}, 1)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := MarshalLIBLINEAR(m); !errors.Is(err, ErrUnsupported) {
			t.Errorf("two-class one-vs-rest: %v, want ErrUnsupported", err)
		}
	})
}

func checkWriteLIBLINEAR(t *testing.T, m *linear.Model[float64], test string) {
	t.Helper()
	file, err := MarshalLIBLINEAR(m)
	if err != nil {
		t.Fatal(err)
	}
	ours := predictAll(t, m, test)
	equalLabels(t, toolPredict(t, "liblinear-predict", file, test), ours)
	back, err := ReadLIBLINEAR(file)
	if err != nil {
		t.Fatal(err)
	}
	if back.Model.NumScores() != m.NumScores() || back.Model.Dims() != m.Dims() {
		t.Fatalf("read back %d scores of %d features, want %d of %d", back.Model.NumScores(), back.Model.Dims(), m.NumScores(), m.Dims())
	}
	for r := range m.NumScores() {
		w, b := m.Weights(r)
		w2, b2 := back.Model.Weights(r)
		if b != b2 || !slicesEqual(w, w2) {
			t.Fatalf("function %d reads back as %v, %v; want %v, %v", r, w2, b2, w, b)
		}
	}
}

func slicesEqual(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestToolsLIBSVMProbability trains with svm-train -b 1 (C-SVC and ν-SVC)
// on four data sets and checks Probabilities against svm-predict -b 1 on
// every test row: the same label, and each probability equal to the one
// svm-predict prints (%g, six significant digits) within 10⁻⁵.
func TestToolsLIBSVMProbability(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode")
	}
	tools(t, "svm-train", "svm-predict")
	for _, ds := range dataSets {
		for _, cfg := range []string{"-s 0 -t 2 -b 1", "-s 1 -t 1 -d 2 -g 0.02 -r 0.5 -n 0.2 -b 1"} {
			if ds.name == "digits" {
				cfg = strings.Replace(cfg, "-t 2", "-t 2 -g 0.002", 1)
			}
			t.Run(ds.name+"/"+strings.ReplaceAll(cfg, " ", ""), func(t *testing.T) {
				dir := t.TempDir()
				test := abs(filepath.Join(svmData, ds.test))
				run(t, dir, "svm-train", append(strings.Fields(cfg), "-q", abs(filepath.Join(svmData, ds.train)), "m")...)
				run(t, dir, "svm-predict", "-b", "1", test, "m", "p")
				file, err := os.ReadFile(filepath.Join(dir, "m"))
				if err != nil {
					t.Fatal(err)
				}
				f, err := ReadLIBSVM(file, nil)
				if err != nil {
					t.Fatal(err)
				}
				out, err := os.ReadFile(filepath.Join(dir, "p"))
				if err != nil {
					t.Fatal(err)
				}
				lines := strings.Split(strings.TrimSpace(string(out)), "\n")
				if want := "labels " + strings.Trim(fmt.Sprint(f.Labels), "[]"); lines[0] != want {
					t.Fatalf("svm-predict's header %q, want %q", lines[0], want)
				}
				x := readRows(t, test, f.Model.Dims())
				if x.Rows != len(lines)-1 {
					t.Fatalf("%d rows, %d predictions", x.Rows, len(lines)-1)
				}
				prob := make([]float64, len(f.Labels))
				for i, line := range lines[1:] {
					fs := strings.Fields(line)
					label, err := f.Probabilities(prob, x.X[i*x.Cols:i*x.Cols+f.Model.Dims()])
					if err != nil {
						t.Fatal(err)
					}
					if strconv.Itoa(label) != fs[0] {
						t.Errorf("row %d: label %d, svm-predict -b 1 %s (%v, %q)", i, label, fs[0], prob, line)
					}
					for c, s := range fs[1:] {
						v, err := strconv.ParseFloat(s, 64)
						if err != nil {
							t.Fatal(err)
						}
						if math.Abs(prob[c]-v) > 1e-5 {
							t.Errorf("row %d class %d: probability %v, svm-predict %v", i, f.Labels[c], prob[c], v)
						}
					}
				}
			})
		}
	}
	f, err := ReadLIBSVM([]byte("svm_type c_svc\nkernel_type linear\nnr_class 2\ntotal_sv 2\nrho 0\nlabel 1 -1\nnr_sv 1 1\nSV\n1 1:1\n-1 1:-1\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Probabilities(make([]float64, 2), []float64{1}); !errors.Is(err, ErrUnsupported) {
		t.Errorf("without probA: %v, want ErrUnsupported", err)
	}
}
