package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/quant"
)

// then chains setups.
func then(fs ...func(t *testing.T, dir string)) func(t *testing.T, dir string) {
	return func(t *testing.T, dir string) {
		for _, f := range fs {
			f(t, dir)
		}
	}
}

// quantizeIris quantises dir/iris.model to dir/iris.q.
func quantizeIris(t *testing.T, dir string) {
	t.Helper()
	mustRun(t, "quantize", "-model", filepath.Join(dir, "iris.model"), "-o", filepath.Join(dir, "iris.q"))
}

// checkQuantPredictions: the labels predict printed are those the library's
// quantised model gives the test rows, and most are right.
func checkQuantPredictions(t *testing.T, dir, stdout, _ string) {
	b, err := os.ReadFile(filepath.Join(dir, "iris.q"))
	if err != nil {
		t.Fatal(err)
	}
	q, err := quant.Unmarshal(b)
	if err != nil {
		t.Fatal(err)
	}
	d, err := dataset.LoadLIBSVM[float32](td("iris.test.libsvm"), dataset.LIBSVMOptions{Cols: q.Dims()})
	if err != nil {
		t.Fatal(err)
	}
	want := make([]int, d.Rows)
	if err := q.PredictBatch(want, d.X); err != nil {
		t.Fatal(err)
	}
	lines := strings.Fields(stdout)
	if len(lines) != d.Rows {
		t.Fatalf("%d labels for %d rows", len(lines), d.Rows)
	}
	right := 0
	for i, l := range lines {
		if l != strconv.Itoa(want[i]) {
			t.Fatalf("row %d: predict printed %s, the quantised model gives %d", i, l, want[i])
		}
		if want[i] == d.Y[i] {
			right++
		}
	}
	if right < d.Rows*8/10 {
		t.Fatalf("%d of %d right", right, d.Rows)
	}
}

// quantizeCases are the quantize command's cases of TestCLIInProcess and
// TestCLIBinary.
var quantizeCases = []cliCase{
	{name: "quantize then predict", setup: trainIris(), args: []string{"quantize", "-model", "iris.model", "-o", "iris.q"}, code: exitOK, quietStdout: true,
		check: func(t *testing.T, dir, _, _ string) {
			checkQuantPredictions(t, dir, mustRun(t, "predict", filepath.Join(dir, "iris.q"), td("iris.test.libsvm")), "")
		}},
	{name: "predict quantised with scores", setup: then(trainIris(), quantizeIris), args: []string{"predict", "-scores", "iris.q", "{td}/iris.test.libsvm"}, code: exitOK,
		check: func(t *testing.T, _, stdout, _ string) {
			if f := strings.Fields(strings.SplitN(stdout, "\n", 2)[0]); len(f) != 4 {
				t.Fatalf("first line %q: want a label and 3 scores", f)
			}
		}},
	{name: "eval quantised", setup: then(trainIris(), quantizeIris), args: []string{"eval", "iris.q", "{td}/iris.test.libsvm"}, code: exitOK,
		stdout: []string{"int8 quantised ovr averaged perceptron, float32 input, 4 features", "accuracy:"}},
	{name: "quantize a JSON model", setup: trainIris("-json"), args: []string{"quantize", "-model", "iris.model", "-o", "iris.q"}, code: exitOK,
		check: func(t *testing.T, dir, _, _ string) {
			checkQuantPredictions(t, dir, mustRun(t, "predict", filepath.Join(dir, "iris.q"), td("iris.test.libsvm")), "")
		}},
	{name: "quantize IN OUT", setup: trainIris(), args: []string{"quantize", "iris.model", "iris.q"}, code: exitOK, quietStdout: true,
		check: func(t *testing.T, dir, _, _ string) {
			checkQuantPredictions(t, dir, mustRun(t, "predict", filepath.Join(dir, "iris.q"), td("iris.test.libsvm")), "")
		}},
	{name: "quantize IN -o OUT", setup: trainIris(), args: []string{"quantize", "iris.model", "-o", "iris.q"}, code: exitOK, quietStdout: true,
		check: func(t *testing.T, dir, _, _ string) {
			fileContent(t, dir, "iris.q", quantizedRef(t, dir, "iris.model", "iris.q"))
		}},
	{name: "quantize -model IN OUT", setup: trainIris(), args: []string{"quantize", "-model", "iris.model", "iris.q"}, code: exitOK, quietStdout: true,
		check: func(t *testing.T, dir, _, _ string) {
			fileContent(t, dir, "iris.q", quantizedRef(t, dir, "iris.model", "iris.q"))
		}},
	{name: "quantize IN OUT keeps an existing file", setup: then(trainIris(), writeFile("iris.q", "keep")), args: []string{"quantize", "iris.model", "iris.q"},
		code: exitFail, stderr: []string{"iris.q", "file exists"}, check: func(t *testing.T, dir, _, _ string) { fileContent(t, dir, "iris.q", "keep") }},
	{name: "quantize IN OUT never over its input", setup: trainIris(), args: []string{"quantize", "-f", "iris.model", "iris.model"}, code: exitFail,
		stderr: []string{"the output is an input file"}},
	{name: "quantize needs OUT", setup: trainIris(), args: []string{"quantize", "iris.model"}, code: exitUsage, stderr: []string{"-o is required (or OUT"}},
	{name: "quantize needs IN", args: []string{"quantize"}, code: exitUsage, stderr: []string{"-model is required (or IN"}},
	{name: "quantize three files", setup: trainIris(), args: []string{"quantize", "iris.model", "a.q", "b.q"}, code: exitUsage,
		stderr: []string{`unexpected argument "b.q"`}, check: noFile("a.q")},
	{name: "quantize -model and -o and a file", setup: trainIris(), args: []string{"quantize", "-model", "iris.model", "-o", "a.q", "b.q"}, code: exitUsage,
		stderr: []string{`unexpected argument "b.q" (IN and OUT are given by -model and -o)`}, check: noFile("a.q")},
	{name: "quantize needs -o", setup: trainIris(), args: []string{"quantize", "-model", "iris.model"}, code: exitUsage, stderr: []string{"-o is required"}},
	{name: "quantize needs -model", args: []string{"quantize", "-o", "x"}, code: exitUsage, stderr: []string{"-model is required"}},
	{name: "quantize keeps an existing file", setup: then(trainIris(), writeFile("iris.q", "keep")), args: []string{"quantize", "-model", "iris.model", "-o", "iris.q"},
		code: exitFail, stderr: []string{"iris.q"}, check: func(t *testing.T, dir, _, _ string) { fileContent(t, dir, "iris.q", "keep") }},
	{name: "quantize never over its input", setup: trainIris(), args: []string{"quantize", "-f", "-model", "iris.model", "-o", "iris.model"}, code: exitFail},
	{name: "quantize a quantised model", setup: then(trainIris(), quantizeIris), args: []string{"quantize", "-model", "iris.q", "-o", "again.q"},
		code: exitFail, stderr: []string{"quantised already"}, check: noFile("again.q")},
	{name: "quantize a voted model", setup: trainIris("-algo", "voted"), args: []string{"quantize", "-model", "iris.model", "-o", "iris.q"}, code: exitOK,
		check: func(t *testing.T, dir, _, _ string) {
			checkQuantPredictions(t, dir, mustRun(t, "predict", filepath.Join(dir, "iris.q"), td("iris.test.libsvm")), "")
		}},
	{name: "quantize a kernel model", setup: trainIris("-kernel", "rbf"), args: []string{"quantize", "-model", "iris.model", "-o", "iris.q"},
		code: exitFail, stderr: []string{"kernel-ovr", "only linear models"}, check: noFile("iris.q")},
	{name: "quantize a linear SVM", setup: func(t *testing.T, dir string) {
		mustRun(t, "train", "-q", "-algo", "svm", "-o", filepath.Join(dir, "iris.model"), td("iris.train.libsvm"))
	}, args: []string{"quantize", "-model", "iris.model", "-o", "iris.q"}, code: exitOK,
		check: func(t *testing.T, dir, _, _ string) {
			checkQuantPredictions(t, dir, mustRun(t, "predict", filepath.Join(dir, "iris.q"), td("iris.test.libsvm")), "")
		}},
	{name: "quantize a kernel SVM", setup: func(t *testing.T, dir string) {
		mustRun(t, "train", "-q", "-algo", "svm", "-kernel", "rbf", "-o", filepath.Join(dir, "iris.model"), td("iris.train.libsvm"))
	}, args: []string{"quantize", "-model", "iris.model", "-o", "iris.q"},
		code: exitFail, stderr: []string{"only linear models"}, check: noFile("iris.q")},
	{name: "quantize a corrupt model", args: []string{"quantize", "-model", "{td}/corrupt.model", "-o", "iris.q"},
		code: exitFail, stderr: []string{"corrupt"}, check: noFile("iris.q")},
}

// quantizedRef quantises dir/in to a fresh file with -model and -o, the
// form quantize always took, and returns what it wrote: every other form
// must write the same bytes.
func quantizedRef(t *testing.T, dir, in, out string) string {
	t.Helper()
	ref := filepath.Join(t.TempDir(), out)
	mustRun(t, "quantize", "-model", filepath.Join(dir, in), "-o", ref)
	b, err := os.ReadFile(ref)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
