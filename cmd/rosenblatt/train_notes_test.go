package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/linear"
)

// notesCases are the train options of the textbook perceptron: the
// polynomial kernel (1 + x·x′)^m, the normalisation (x, 1)/‖(x, 1)‖, the mini-batch
// and online sampling, the warm start from a model file (-init), and the
// two margins.
var notesCases = []cliCase{
	{name: "poly kernel defaults to (1 + x·x')^m", args: []string{"train", "-kernel", "poly", "-o", "m", "{td}/iris.train.libsvm"},
		code: exitOK, stdout: []string{"poly(gamma=1, coef0=1, degree=3)"}},
	{name: "poly kernel -degree m", args: []string{"train", "-kernel", "poly", "-degree", "2", "-o", "m", "-test", "{pkg}/../../internal/modelcmd/data/breast_cancer_std.test.libsvm", "{pkg}/../../internal/modelcmd/data/breast_cancer_std.train.libsvm"},
		code: exitOK, stdout: []string{"poly(gamma=1, coef0=1, degree=2)", "in the kernel's feature space", "test accuracy:"}},
	{name: "poly kernel -gamma and -coef0 override", args: []string{"train", "-kernel", "poly", "-gamma", "0.5", "-coef0", "0", "-o", "m", "{td}/iris.train.libsvm"},
		code: exitOK, stdout: []string{"poly(gamma=0.5, coef0=0, degree=3)"}},
	{name: "rbf gamma still defaults to 1/features", args: []string{"train", "-kernel", "rbf", "-o", "m", "{td}/iris.train.libsvm"},
		code: exitOK, stdout: []string{"rbf(gamma=0.25)"}},

	{name: "normalize is (x, 1)/‖(x, 1)‖", args: []string{"train", "-normalize", "-epochs", "1000", "-o", "m", "{pkg}/../../internal/modelcmd/data/breast_cancer_std.train.libsvm"},
		code: exitOK, stdout: []string{"samples normalised as (x, 1)/‖(x, 1)‖", "(x, 1) normalised"},
		check: func(t *testing.T, dir, _, _ string) {
			m := loadLinear32(t, filepath.Join(dir, "m"))
			if m.Scaling() != linear.ScaleAugmented {
				t.Errorf("scaling %v", m.Scaling())
			}
		}},
	{name: "normalize-features is the old transform", args: []string{"train", "-normalize-features", "-o", "m", "{td}/iris.train.libsvm"},
		code: exitOK, stdout: []string{"samples normalised as x/‖x‖"}},
	{name: "both normalisations", args: []string{"train", "-normalize", "-normalize-features", "x"}, code: exitUsage,
		stderr: []string{"-normalize or -normalize-features, not both"}},

	{name: "minibatch draws subsets", args: []string{"train", "-algo", "minibatch", "-batch", "8", "-o", "m", "{td}/iris.train.libsvm"},
		code: exitOK, stdout: []string{"B = 8, τ = 1 (steps τ/B)", "a fresh random B-subset per step (seed 1)"}},
	{name: "sampling with repeats", args: []string{"train", "-sampling", "replace", "-seed", "3", "-o", "m", "{td}/iris.train.libsvm"},
		code: exitOK, stdout: []string{"samples drawn with repeats (seed 3)"}},
	{name: "bad sampling", args: []string{"train", "-sampling", "often", "x"}, code: exitUsage, stderr: []string{`-sampling "often"`}},
	{name: "subsets for online", args: []string{"train", "-sampling", "subsets", "-o", "m", "{td}/iris.train.libsvm"}, code: exitUsage,
		stderr: []string{"SampleSubsets draws mini-batches"}},

	{name: "both margins of a separating model", setup: writeFile("sep.libsvm", sepData), args: []string{"train", "-o", "m", "sep.libsvm"},
		code: exitOK, stdout: []string{"geometric margin γ = min y(w·x + b)/‖w‖ = 1.342", "radius R = max ‖x‖ = 4.472, R²/γ² = 11.11",
			"on the points (x, 1) the update adds: γ′ = 1.225, R′ = 4.583, Novikoff's bound R′²/γ′² = 14"}},
	{name: "normalised: R′ = 1", setup: writeFile("sep.libsvm", sepData), args: []string{"train", "-normalize", "-o", "m", "sep.libsvm"},
		code: exitOK, stdout: []string{"on the points (x, 1)/‖(x, 1)‖ the update adds", "R′ = 1,"}},

	// -init continues a model file: one epoch, then -init for one more, is
	// two epochs, byte for byte (the averaged state resumes).
	{name: "init continues averaging", setup: func(t *testing.T, dir string) {
		mustRun(t, "train", "-q", "-algo", "averaged", "-epochs", "1", "-all-epochs", "-resumable", "-o", filepath.Join(dir, "one.model"), td("iris.train.libsvm"))
		mustRun(t, "train", "-q", "-algo", "averaged", "-epochs", "2", "-all-epochs", "-o", filepath.Join(dir, "two.model"), td("iris.train.libsvm"))
	}, args: []string{"train", "-init", "one.model", "-epochs", "1", "-all-epochs", "-o", "cont.model", "{td}/iris.train.libsvm"},
		code: exitOK, stdout: []string{"from:           one.model (its averaged state resumed after 120 samples)"}, check: checkSameFiles("two.model", "cont.model")},
	{name: "init from JSON, float64 and normalised, by default", setup: func(t *testing.T, dir string) {
		mustRun(t, "train", "-q", "-algo", "voted", "-normalize", "-type", "float64", "-json", "-epochs", "1", "-all-epochs", "-o", filepath.Join(dir, "one.json"), td("iris.train.libsvm"))
		mustRun(t, "train", "-q", "-algo", "voted", "-normalize", "-type", "float64", "-epochs", "2", "-all-epochs", "-o", filepath.Join(dir, "two.model"), td("iris.train.libsvm"))
	}, args: []string{"train", "-init", "one.json", "-epochs", "1", "-all-epochs", "-o", "cont.model", "{td}/iris.train.libsvm"},
		code: exitOK, stdout: []string{"ovr voted perceptron, float64", "(x, 1)/‖(x, 1)‖"}, check: checkSameFiles("two.model", "cont.model")},
	{name: "init with another algorithm starts from the weights", setup: trainIris(),
		args: []string{"train", "-init", "iris.model", "-algo", "online", "-epochs", "1", "-o", "cont.model", "{td}/iris.train.libsvm"},
		code: exitOK, stdout: []string{"from:           iris.model (its weights as the start)"}},
	{name: "init and a mismatched -type", setup: trainIris(), args: []string{"train", "-init", "iris.model", "-type", "float64", "-o", "m", "{td}/iris.train.libsvm"},
		code: exitUsage, stderr: []string{"-type float64, but the -init model holds float32 values"}},
	{name: "init and -kernel", args: []string{"train", "-init", "x.model", "-kernel", "rbf", "-o", "m", "{td}/iris.train.libsvm"},
		code: exitUsage, stderr: []string{"no -kernel with -init"}},
	{name: "init from a kernel model", setup: trainIris("-kernel", "rbf"), args: []string{"train", "-init", "iris.model", "-o", "m", "{td}/iris.train.libsvm"},
		code: exitUsage, stderr: []string{"-init continues a linear model"}},
	{name: "init and a label the model does not know", setup: func(t *testing.T, dir string) {
		trainIris()(t, dir)
		writeFile("seven.libsvm", "7 1:5 2:3 3:1.5 4:0.2\n0 1:5 2:3 3:1.5 4:0.2\n")(t, dir)
	}, args: []string{"train", "-init", "iris.model", "-o", "m", "seven.libsvm"}, code: exitFail,
		stderr: []string{"is not one of the model's classes", "the -init model's classes are 0 1 2"}},
	{name: "init without the training state", setup: func(t *testing.T, dir string) {
		mustRun(t, "train", "-q", "-algo", "averaged", "-epochs", "1", "-o", filepath.Join(dir, "one.model"), td("iris.train.libsvm"))
	}, args: []string{"train", "-init", "one.model", "-o", "m", "{td}/iris.train.libsvm"},
		code: exitUsage, stderr: []string{"holds no training state", "train it with -resumable"}},
	{name: "init and other features", setup: trainIris(), args: []string{"train", "-init", "iris.model", "-o", "m", "{pkg}/../../internal/modelcmd/data/breast_cancer_std.train.libsvm"},
		code: exitFail, stderr: []string{"30 features, the -init model iris.model has 4"}},
	{name: "init is an input: -o may not replace it", setup: trainIris(), args: []string{"train", "-init", "iris.model", "-f", "-o", "iris.model", "{td}/iris.train.libsvm"},
		code: exitFail, check: func(t *testing.T, dir, _, _ string) { loadModel32(t, filepath.Join(dir, "iris.model")) }},
	{name: "init missing", args: []string{"train", "-init", "nope.model", "-o", "m", "{td}/iris.train.libsvm"}, code: exitFail, stderr: []string{"nope.model"}},
}

// sepData are two separable clouds (the package example's).
const sepData = "1 1:2 2:1\n1 1:3 2:2\n1 1:2 2:3\n1 1:4 2:2\n-1 1:-1 2:-2\n-1 1:-2 2:-1\n-1 1:-3 2:-2\n-1 1:-1 2:-3\n"

// loadLinear32 reads a float32 linear model file.
func loadLinear32(t *testing.T, path string) *linear.Model[float32] {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m := new(linear.Model[float32])
	if bytes.HasPrefix(b, []byte(binaryMagic)) {
		err = m.UnmarshalBinary(b)
	} else {
		err = m.UnmarshalJSON(b)
	}
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestTrainNotes(t *testing.T) {
	for _, c := range notesCases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			t.Chdir(dir)
			if c.setup != nil {
				c.setup(t, dir)
			}
			var out, errb bytes.Buffer
			code := run(c.expand(dir), &out, &errb)
			c.checkResult(t, dir, code, out.String(), errb.String())
		})
	}
}
