package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/expansion"
	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/linear"
	"github.com/rosenblatt-go/rosenblatt/model"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/svm"
)

// End-to-end tests of the exact SVMs on the command line (train -algo
// svm, then predict and eval on the model file), run in process and as the
// built program with the other cliCases.

// fourClasses is a small data set of four classes in the plane, four
// clusters of six points: one-vs-one has 6 machines, one-vs-rest 4.
var fourClasses = func() string {
	var b strings.Builder
	centres := [][2]float64{{0, 0}, {3, 0}, {0, 3}, {3, 3}}
	offsets := [][2]float64{{0, 0}, {0.5, 0.25}, {-0.5, 0.25}, {0.25, -0.5}, {-0.25, -0.5}, {0.75, 0.75}}
	for c, ctr := range centres {
		for _, o := range offsets {
			fmt.Fprintf(&b, "%d 1:%g 2:%g\n", c+1, ctr[0]+o[0], ctr[1]+o[1])
		}
	}
	return b.String()
}()

// Two small binary sets: sep's classes are the lines x₁ = 0 and x₁ = 2
// (maximum margin 1 with a free bias, 1/√2 on the points (x, 1)); xor's
// are not linearly separable.
const (
	hardSep = "-1 1:0 2:0\n-1 1:0 2:1\n1 1:2 2:0\n1 1:2 2:1\n"
	hardXOR = "1 1:0 2:0\n1 1:1 2:1\n-1 1:0 2:1\n-1 1:1 2:0\n"
)

// svmFile is an SVM model file read with package svm only.
type svmFile struct {
	model.Classifier[float32]
	scheme string // the Scheme's name
	kernel bool
}

// loadSVM32 reads a float32 SVM model file, kernel or linear, binary or
// JSON, with package svm.
func loadSVM32(t *testing.T, path string) svmFile {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	decode := func(m unmarshaler) error { return decodeFile(b, m) }
	km := new(expansion.Model[float32])
	err1 := decode(km)
	if err1 == nil {
		return svmFile{km, km.Scheme().String(), true}
	}
	lm := new(linear.Model[float32])
	err2 := decode(lm)
	if err2 != nil {
		t.Fatalf("%s: neither a kernel (%v) nor a linear SVM (%v)", path, err1, err2)
	}
	return svmFile{lm, lm.Scheme().String(), false}
}

// svmLibrary returns the labels and decision values the library gives
// for the rows of the LIBSVM file data with the model file model.
func svmLibrary(t *testing.T, model, data string) (m svmFile, pred []int, scores []float32, y []int) {
	t.Helper()
	m = loadSVM32(t, model)
	d, err := dataset.LoadLIBSVM[float32](data, dataset.LIBSVMOptions{Cols: m.Dims()})
	if err != nil {
		t.Fatal(err)
	}
	pred = make([]int, d.Rows)
	scores = make([]float32, d.Rows*m.NumScores())
	if err := m.PredictBatch(pred, d.X); err != nil {
		t.Fatal(err)
	}
	if err := m.ScoresBatch(scores, d.X); err != nil {
		t.Fatal(err)
	}
	return m, pred, scores, d.Y
}

// checkSVMPredict checks predict's lines (stdout, or the file out) against
// the library, for a model of the scheme with nScores decision values.
func checkSVMPredict(model, data, out string, scheme fit.Scheme, kernel bool, nScores int) func(t *testing.T, dir, stdout, stderr string) {
	return func(t *testing.T, dir, stdout, _ string) {
		t.Helper()
		r := strings.NewReplacer("{td}", filepath.Join(pkgDir, "testdata"), "{dir}", dir)
		m, pred, scores, _ := svmLibrary(t, filepath.Join(dir, model), r.Replace(data))
		if m.scheme != scheme.String() || m.kernel != kernel || m.NumScores() != nScores {
			t.Fatalf("model: %v, kernel %v, %d decision values; want %v, kernel %v, %d", m.scheme, m.kernel, m.NumScores(), scheme, kernel, nScores)
		}
		if out != "" {
			b, err := os.ReadFile(filepath.Join(dir, out))
			if err != nil {
				t.Fatal(err)
			}
			stdout = string(b)
		}
		lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
		if len(lines) != len(pred) {
			t.Fatalf("%d lines, want one per row (%d)", len(lines), len(pred))
		}
		withScores := strings.Count(lines[0], " ") > 0
		for i, line := range lines {
			want := strconv.Itoa(pred[i])
			if withScores {
				for _, s := range scores[i*nScores : (i+1)*nScores] {
					want += " " + strconv.FormatFloat(float64(s), 'g', -1, 32)
				}
			}
			if line != want {
				t.Errorf("line %d: %q, the library gives %q", i+1, line, want)
			}
		}
	}
}

var evalAccuracy = regexp.MustCompile(`accuracy: +([0-9.]+)% \((\d+)/(\d+)\)`)

// checkSVMEval checks eval's accuracy line against the library's count
// and a floor.
func checkSVMEval(model, data string, floor float64) func(t *testing.T, dir, stdout, stderr string) {
	return func(t *testing.T, dir, stdout, _ string) {
		t.Helper()
		_, pred, _, y := svmLibrary(t, filepath.Join(dir, model), strings.ReplaceAll(data, "{td}", filepath.Join(pkgDir, "testdata")))
		right := 0
		for i := range pred {
			if pred[i] == y[i] {
				right++
			}
		}
		a := evalAccuracy.FindStringSubmatch(stdout)
		if a == nil || a[2] != strconv.Itoa(right) || a[3] != strconv.Itoa(len(y)) {
			t.Fatalf("eval's accuracy line %q, want %d/%d (the library's count):\n%s", a, right, len(y), stdout)
		}
		if acc := float64(right) / float64(len(y)); acc < floor {
			t.Errorf("accuracy %.4f, want ≥ %.2f", acc, floor)
		}
	}
}

// trainSVM writes an SVM model file dir/name trained with the extra flags
// on the data file data ({td} and {dir} expanded).
func trainSVM(name, data string, extra ...string) func(t *testing.T, dir string) {
	return func(t *testing.T, dir string) {
		t.Helper()
		path := strings.NewReplacer("{td}", filepath.Join(pkgDir, "testdata"), "{dir}", dir).Replace(data)
		args := append([]string{"train", "-q", "-algo", "svm", "-o", filepath.Join(dir, name)}, extra...)
		mustRun(t, append(args, path)...)
	}
}

// noFile fails if dir/name exists.
func noFile(name string) func(t *testing.T, dir, stdout, stderr string) {
	return func(t *testing.T, dir, _, _ string) {
		t.Helper()
		if _, err := os.Stat(filepath.Join(dir, name)); !os.IsNotExist(err) {
			t.Errorf("%s exists (err %v): a failed run must write no model", name, err)
		}
	}
}

// checkGammaScale checks that -gamma scale trained the RBF kernel with
// scikit-learn's gamma="scale" of the training data.
func checkGammaScale(t *testing.T, dir, stdout, _ string) {
	t.Helper()
	d, err := dataset.LoadLIBSVM[float32](td("iris.train.libsvm"), dataset.LIBSVMOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := svm.GammaScale(d)
	m := loadSVM32(t, filepath.Join(dir, "m.model"))
	km := m.Classifier.(*expansion.Model[float32])
	// train reads the LIBSVM file sparse and computes the variance from
	// the stored values (svm.GammaScaleSparse): equal to the last bits.
	rbf, ok := km.Kernel().(gram.RBF)
	if !ok || math.Abs(rbf.Gamma-want) > 1e-12*want {
		t.Errorf("kernel %s, want gamma = 1/(d·Var(X)) = %v", km.Kernel(), want)
	}
	if !(want > 0.05 && want < 0.08) { // iris scaled: Var(X) ≈ 4
		t.Errorf("gamma scale = %v, outside what the iris data give", want)
	}
}

// checkTrainAccuracy checks the test accuracy train prints against a
// floor.
func checkTrainAccuracy(floor float64) func(t *testing.T, dir, stdout, stderr string) {
	return func(t *testing.T, _, stdout, _ string) {
		t.Helper()
		a := regexp.MustCompile(`test accuracy: +([0-9.]+)%`).FindStringSubmatch(stdout)
		if a == nil {
			t.Fatalf("no test accuracy:\n%s", stdout)
		}
		if acc, _ := strconv.ParseFloat(a[1], 64); acc < floor {
			t.Errorf("test accuracy %v%%, want ≥ %v%%", acc, floor)
		}
	}
}

var svmCases = []cliCase{
	// Training summaries.
	{name: "svm rbf ovo train", args: []string{"train", "-algo", "svm", "-kernel", "rbf", "-gamma", "scale", "-o", "m.model", "-test", "{td}/iris.test.libsvm", "{td}/iris.train.libsvm"},
		code: exitOK, stdout: []string{"kernel SVM, ovo, rbf(gamma=", "SMO (LIBSVM's C-SVC", "C = 1 (½‖w‖² + C·Σξ, LIBSVM's; as ‖w‖² + C′·Σξ, C′ = 2)",
			"machine:        1 vs 0:", "machine:        2 vs 1:", "support vectors"},
		check: func(t *testing.T, dir, stdout, stderr string) {
			checkTrainAccuracy(96)(t, dir, stdout, stderr)
			checkGammaScale(t, dir, stdout, stderr)
		}},
	{name: "svm gamma auto", args: []string{"train", "-algo", "svm", "-kernel", "rbf", "-gamma", "auto", "-o", "m.model", "{td}/iris.train.libsvm"},
		code: exitOK, stdout: []string{"rbf(gamma=0.25)"}},
	{name: "svm linear train", args: []string{"train", "-algo", "svm", "-loss", "l2", "-C", "0.5", "-o", "m.model", "-test", "{pkg}/../../internal/modelcmd/data/breast_cancer_std.test.libsvm", "{pkg}/../../internal/modelcmd/data/breast_cancer_std.train.libsvm"},
		code: exitOK, stdout: []string{"binary linear SVM (dual coordinate descent), float32", "dual coordinate descent (LIBLINEAR's -s 1), squared-hinge loss, C = 0.5", "machine:        1 vs -1:"},
		check: checkTrainAccuracy(95)},
	// train → predict → eval.
	{name: "svm rbf ovo predict -scores", setup: setups(writeFile("four.libsvm", fourClasses), trainSVM("m.model", "{dir}/four.libsvm", "-kernel", "rbf")),
		args: []string{"predict", "-scores", "m.model", "four.libsvm"}, code: exitOK,
		check: checkSVMPredict("m.model", "{dir}/four.libsvm", "", fit.OneVsOne, true, 6)},
	{name: "svm rbf ovr predict -scores", setup: setups(writeFile("four.libsvm", fourClasses), trainSVM("m.model", "{dir}/four.libsvm", "-kernel", "rbf", "-multiclass", "ovr")),
		args: []string{"predict", "-scores", "m.model", "four.libsvm"}, code: exitOK,
		check: checkSVMPredict("m.model", "{dir}/four.libsvm", "", fit.OneVsRest, true, 4)},
	{name: "svm poly ovo predict", setup: trainSVM("m.model", "{td}/iris.train.libsvm", "-kernel", "poly", "-degree", "2", "-C", "10"),
		args: []string{"predict", "m.model", "{td}/iris.test.libsvm"}, code: exitOK,
		check: checkSVMPredict("m.model", "{td}/iris.test.libsvm", "", fit.OneVsOne, true, 3)},
	{name: "svm linear json float64 predict -o", setup: trainSVM("m.json", "{td}/iris.train.libsvm", "-json", "-type", "float64"),
		args: []string{"predict", "-o", "labels.txt", "m.json", "{td}/iris.test.libsvm"}, code: exitOK, quietStdout: true,
		check: func(t *testing.T, dir, stdout, stderr string) {
			b, err := os.ReadFile(filepath.Join(dir, "m.json"))
			if err != nil || !strings.Contains(string(b), `"type":"float64"`) {
				t.Fatalf("m.json: %v, want a float64 JSON model:\n%.200s", err, b)
			}
			var m linear.Model[float64]
			if err := m.UnmarshalJSON(b); err != nil || m.Scheme() != fit.OneVsRest || m.Algorithm() != linear.DualCD {
				t.Fatalf("m.json: %v, %v; want a one-vs-rest linear SVM", err, m.String())
			}
			d, err := dataset.LoadLIBSVM[float64](td("iris.test.libsvm"), dataset.LIBSVMOptions{Cols: m.Dims()})
			if err != nil {
				t.Fatal(err)
			}
			pred := make([]int, d.Rows)
			if err := m.PredictBatch(pred, d.X); err != nil {
				t.Fatal(err)
			}
			var want strings.Builder
			for _, p := range pred {
				fmt.Fprintln(&want, p)
			}
			fileContent(t, dir, "labels.txt", want.String())
		}},
	{name: "svm rbf eval", setup: trainSVM("m.model", "{td}/iris.train.libsvm", "-kernel", "rbf", "-gamma", "scale"),
		args: []string{"eval", "m.model", "{td}/iris.test.libsvm"}, code: exitOK,
		stdout: []string{"kernel SVM, ovo, rbf(gamma=", "support vectors, classes 0 1 2", "confusion matrix"},
		check:  checkSVMEval("m.model", "{td}/iris.test.libsvm", 0.96)},
	{name: "svm linear eval", setup: trainSVM("m.model", "{td}/iris.train.libsvm"),
		args: []string{"eval", "m.model", "{td}/iris.test.libsvm"}, code: exitOK,
		stdout: []string{"ovr linear SVM (dual coordinate descent), float32, 4 features, classes 0 1 2"},
		check:  checkSVMEval("m.model", "{td}/iris.test.libsvm", 0.9)},
	{name: "svm truncated model", setup: setups(trainSVM("m.model", "{td}/iris.train.libsvm", "-kernel", "rbf"), func(t *testing.T, dir string) {
		p := filepath.Join(dir, "m.model")
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b[:len(b)/2], 0o644); err != nil {
			t.Fatal(err)
		}
	}), args: []string{"predict", "-o", "labels.txt", "m.model", "{td}/iris.test.libsvm"}, code: exitFail,
		stderr: []string{"m.model: ", "expansion: corrupt model file"}, check: noFile("labels.txt")},
	// The hard margin.
	{name: "svm hard margin kernel", setup: writeFile("sep.libsvm", hardSep),
		args: []string{"train", "-algo", "svm", "-kernel", "linear", "-C", "inf", "-data-margin", "-o", "m.model", "sep.libsvm"}, code: exitOK,
		stdout: []string{"C = inf (the hard margin", "2 support vectors, dual -0.5, primal 0.5, margin 1/‖w‖ = 1\n",
			"data margin:    γ_D = 1 (1 ≤ γ_D ≤ 1, exact hard-margin solve)", "the model's margin 1/‖w‖ = 1 (the hard-margin machine", "train accuracy: 100.00% (4/4)"}},
	{name: "svm hard margin linear", setup: writeFile("sep.libsvm", hardSep),
		args: []string{"train", "-algo", "svm", "-C", "inf", "-data-margin", "-o", "m.model", "sep.libsvm"}, code: exitOK,
		stdout: []string{"exact hard margin", "margin 1/‖w‖ = 0.7071\n", "γ_D = 0.707107 (", "R = max ‖(x, 1)‖ = 2.449", "the model's margin 1/‖w‖ = 0.707107 (the hard-margin machine"}},
	{name: "svm data margin soft", args: []string{"train", "-algo", "svm", "-kernel", "rbf", "-data-margin", "-o", "m.model", "{td}/iris.train.libsvm"}, code: exitOK,
		stdout: []string{"data margin:    1 vs 0: γ_D = ", "2 vs 1: the model's 1/‖w‖ = ", "(a soft margin: rows inside it pay slack ξ, so it may exceed γ_D)"}},
	{name: "svm data margin not separable", args: []string{"train", "-algo", "svm", "-data-margin", "-o", "m.model", "{td}/iris.train.libsvm"}, code: exitOK,
		stdout: []string{"data margin:    0 vs rest: γ_D = ", "data margin:    1 vs rest: not separable: svm: data not separable", "at most"}},
	{name: "svm hard margin not separable", setup: writeFile("xor.libsvm", hardXOR),
		args: []string{"train", "-algo", "svm", "-kernel", "linear", "-C", "inf", "-o", "m.model", "xor.libsvm"}, code: exitFail,
		stderr: []string{"xor.libsvm: svm: data not separable", "the maximum margin is at most", "no model written", "give a finite -C"},
		check:  noFile("m.model")},
	{name: "svm hard margin rbf separates xor", setup: writeFile("xor.libsvm", hardXOR),
		args: []string{"train", "-algo", "svm", "-kernel", "rbf", "-C", "inf", "-o", "m.model", "xor.libsvm"}, code: exitOK,
		stdout: []string{"4 support vectors", "train accuracy: 100.00% (4/4)"}},
	{name: "svm hard margin ovo names the pair", args: []string{"train", "-algo", "svm", "-kernel", "linear", "-C", "inf", "-o", "m.model", "{td}/iris.train.libsvm"},
		code: exitFail, stderr: []string{"class 2 against 1: svm: data not separable", "at most"}, check: noFile("m.model")},
	{name: "svm hard margin linear ovr names the class", args: []string{"train", "-algo", "svm", "-C", "inf", "-o", "m.model", "{td}/iris.train.libsvm"},
		code: exitFail, stderr: []string{"against the rest: svm: data not separable"}, check: noFile("m.model")},
	// Bad values.
	{name: "svm gamma negative", args: []string{"train", "-algo", "svm", "-kernel", "rbf", "-gamma", "-1", "x"}, code: exitUsage,
		stderr: []string{`invalid value "-1" for flag -gamma: want a number > 0, scale`}},
	{name: "svm gamma word", args: []string{"train", "-algo", "svm", "-kernel", "rbf", "-gamma", "big", "x"}, code: exitUsage,
		stderr: []string{`invalid value "big" for flag -gamma`}},
	{name: "svm gamma with the linear kernel", args: []string{"train", "-algo", "svm", "-kernel", "linear", "-gamma", "scale", "x"}, code: exitUsage,
		stderr: []string{"-kernel linear takes no -gamma"}},
	{name: "svm C zero", args: []string{"train", "-algo", "svm", "-C", "0", "x"}, code: exitUsage,
		stderr: []string{`invalid value "0" for flag -C: want a number > 0, or inf for the hard margin`}},
	{name: "svm C negative", args: []string{"train", "-algo", "svm", "-C", "-2", "x"}, code: exitUsage, stderr: []string{`invalid value "-2" for flag -C`}},
	{name: "svm C nan", args: []string{"train", "-algo", "svm", "-C", "NaN", "x"}, code: exitUsage, stderr: []string{`invalid value "NaN" for flag -C`}},
	{name: "svm C text", args: []string{"train", "-algo", "svm", "-C", "1e", "x"}, code: exitUsage, stderr: []string{`invalid value "1e" for flag -C`}},
	{name: "svm bad loss", args: []string{"train", "-algo", "svm", "-loss", "l3", "x"}, code: exitUsage, stderr: []string{`-loss "l3": want hinge (alias l1) or squared-hinge (alias l2)`}},
	{name: "svm loss with a kernel", args: []string{"train", "-algo", "svm", "-kernel", "rbf", "-loss", "l2", "x"}, code: exitUsage, stderr: []string{"-loss is the linear SVM's"}},
	{name: "svm argmax", args: []string{"train", "-algo", "svm", "-kernel", "rbf", "-multiclass", "argmax", "x"}, code: exitUsage,
		stderr: []string{`-multiclass "argmax": the kernel SVM takes ovo (the default, auto), ovr or binary (two classes)`}},
	{name: "svm linear ovo", args: []string{"train", "-algo", "svm", "-multiclass", "ovo", "x"}, code: exitUsage, stderr: []string{"the linear SVM is one-vs-rest"}},
	{name: "perceptron ovo", args: []string{"train", "-multiclass", "ovo", "x"}, code: exitUsage, stderr: []string{"one-vs-one is the kernel SVM's"}},
	{name: "svm eta", args: []string{"train", "-algo", "svm", "-eta", "2", "x"}, code: exitUsage, stderr: []string{"-algo svm takes no -eta"}},
	{name: "svm bad tol", args: []string{"train", "-algo", "svm", "-kernel", "rbf", "-tol", "0", "x"}, code: exitUsage, stderr: []string{"-tol 0: want a value > 0"}},
	{name: "pegasos continued with -init", setup: func(t *testing.T, dir string) {
		mustRun(t, "train", "-q", "-algo", "pegasos", "-C", "1", "-epochs", "3", "-resumable", "-o", filepath.Join(dir, "p.model"), td("iris.train.libsvm"))
	}, args: []string{"train", "-init", "p.model", "-epochs", "2", "-o", "q.model", "{td}/iris.train.libsvm"}, code: exitOK,
		stdout: []string{"linear SVM (Pegasos)", "λ of the -init model", "(its pegasos state resumed after 360 samples)"}},
	{name: "svm no -init", setup: func(t *testing.T, dir string) {
		mustRun(t, "train", "-q", "-algo", "pegasos", "-epochs", "1", "-o", filepath.Join(dir, "p.model"), td("iris.train.libsvm"))
	}, args: []string{"train", "-algo", "svm", "-init", "p.model", "-o", "q.model", "{td}/iris.train.libsvm"}, code: exitUsage,
		stderr: []string{"-algo svm takes no -init"}, check: noFile("q.model")},
	{name: "demo svm", args: []string{"demo", "-algo", "svm"}, code: exitUsage, stderr: []string{"the demo trains perceptrons and Pegasos (-algo pegasos)"}},
	{name: "pegasos C inf", args: []string{"train", "-algo", "pegasos", "-C", "inf", "x"}, code: exitUsage,
		stderr: []string{"-C inf is the hard margin of the exact SVM (-algo svm); pegasos needs a finite C"}},
}

// TestSVMScoresPerPair: a one-vs-one model's decision values are one per
// pair of classes, and the label predict prints is the vote of their signs
// (Model.Pair), as the help of -scores says.
func TestSVMScoresPerPair(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	writeFile("four.libsvm", fourClasses)(t, dir)
	trainSVM("m.model", filepath.Join(dir, "four.libsvm"), "-kernel", "rbf")(t, dir)
	out := mustRun(t, "predict", "-scores", "m.model", "four.libsvm")
	km := loadSVM32(t, "m.model").Classifier.(*expansion.Model[float32])
	for i, line := range strings.Split(strings.TrimSpace(out), "\n") {
		f := strings.Fields(line)
		votes := map[int]int{}
		for r, s := range f[1:] {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				t.Fatal(err)
			}
			neg, pos := km.Pair(r)
			if v > 0 {
				votes[pos]++
			} else {
				votes[neg]++
			}
		}
		best, most := math.MaxInt, -1
		for _, c := range km.Classes() { // ties: the smallest label
			if votes[c] > most {
				best, most = c, votes[c]
			}
		}
		if f[0] != strconv.Itoa(best) || len(f) != 7 {
			t.Errorf("row %d: %q: the votes %v elect %d", i+1, line, votes, best)
		}
	}
}
