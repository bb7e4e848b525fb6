package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSVMSparseCLI: train -algo svm (the kernel SVM and the linear SVM)
// reads a LIBSVM file of 2²⁰ hashed features sparse, never dense (the
// dense matrix would exceed the reader's limit), says so with -v, writes a
// model of about its stored values (not S·2²⁰), and predict and eval read
// it on sparse rows.
func TestSVMSparseCLI(t *testing.T) {
	dir := t.TempDir()
	textFile(t, dir, "wide.libsvm", 300, 1<<20, 10, 3, 11)
	textFile(t, dir, "wide.test.libsvm", 90, 1<<20, 10, 3, 12)
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"kernel rbf", []string{"-kernel", "rbf", "-gamma", "scale"}},
		{"kernel poly ovr", []string{"-kernel", "poly", "-degree", "2", "-multiclass", "ovr"}},
		{"kernel linear", []string{"-kernel", "linear"}},
		{"linear", nil},
		{"kernel perceptron", []string{"-algo", "averaged", "-kernel", "rbf", "-epochs", "3"}},
		{"kernel perceptron argmax", []string{"-algo", "online", "-multiclass", "argmax", "-kernel", "poly", "-degree", "2", "-epochs", "2"}},
	} {
		args := append(append([]string{"train", "-v", "-f", "-o", "m.model", "-algo", "svm", "-cols", "1048576", "-test", "wide.test.libsvm"}, tc.args...), "wide.libsvm")
		code, stdout, stderr := runIn(t, dir, args...)
		if code != exitOK {
			t.Fatalf("%s: exit %d\n%s%s", tc.name, code, stdout, stderr)
		}
		if !strings.Contains(stdout, "representation: sparse (CSR)") || !strings.Contains(stdout, "test accuracy:") {
			t.Errorf("%s: stdout lacks the sparse representation or the test accuracy:\n%s", tc.name, stdout)
		}
		fi, err := os.Stat(filepath.Join(dir, "m.model"))
		if err != nil {
			t.Fatal(err)
		}
		// A kernel model stores its sparse support vectors (≤ 300 rows of
		// 10 values); a linear one 3 dense weight vectors of 2²⁰.
		limit := int64(200 << 10)
		if tc.args == nil {
			limit = 3*(1<<20)*4 + 4096
		}
		if fi.Size() > limit {
			t.Errorf("%s: model file of %d bytes, more than %d", tc.name, fi.Size(), limit)
		}
		code, pout, perr := runIn(t, dir, "predict", "m.model", "wide.test.libsvm")
		if code != exitOK || strings.Count(pout, "\n") != 90 {
			t.Fatalf("%s: predict: exit %d, %d lines\n%s", tc.name, code, strings.Count(pout, "\n"), perr)
		}
		code, eout, eerr := runIn(t, dir, "eval", "m.model", "wide.test.libsvm")
		if code != exitOK || !strings.Contains(eout, "accuracy") {
			t.Fatalf("%s: eval: exit %d\n%s%s", tc.name, code, eout, eerr)
		}
		if !strings.Contains(eout, "sparse") {
			t.Errorf("%s: eval did not read sparse rows:\n%s", tc.name, eout)
		}
	}
}

// TestSVMSparseDenseSame: on integer data the sparse and the dense run of
// train -algo svm -kernel K (and of the kernel perceptron) predict the same labels with the same decision
// values (predict -scores, to the printed digits: the models are the same
// bit for bit, see package svm), and -data-margin reads dense.
func TestSVMSparseDenseSame(t *testing.T) {
	dir := t.TempDir()
	textFile(t, dir, "int.libsvm", 120, 60, 6, 3, 5)
	textFile(t, dir, "int.test.libsvm", 40, 60, 6, 3, 6)
	for _, kern := range []string{"linear", "poly", "rbf", "perceptron rbf", "perceptron poly"} {
		algo := "svm"
		if k, ok := strings.CutPrefix(kern, "perceptron "); ok {
			kern, algo = k, "averaged"
		}
		var scores [2]string
		for k, repr := range []string{"-dense=false", "-dense"} {
			args := []string{"train", "-v", "-f", "-o", "m.model", "-algo", algo, "-kernel", kern, "-type", "float64", repr, "int.libsvm"}
			code, stdout, stderr := runIn(t, dir, args...)
			if code != exitOK {
				t.Fatalf("%v: exit %d\n%s%s", args, code, stdout, stderr)
			}
			want := map[int]string{0: "representation: sparse (CSR)", 1: "representation: dense: -dense"}[k]
			if !strings.Contains(stdout, want) {
				t.Errorf("%v: stdout lacks %q", args, want)
			}
			code, pout, perr := runIn(t, dir, "predict", "-scores", "m.model", "int.test.libsvm")
			if code != exitOK {
				t.Fatalf("predict: exit %d\n%s", code, perr)
			}
			scores[k] = pout
		}
		if scores[0] == "" || scores[0] != scores[1] {
			t.Errorf("%s: sparse and dense predictions differ:\n%s\n---\n%s", kern, scores[0], scores[1])
		}
	}
	code, stdout, stderr := runIn(t, dir, "train", "-v", "-f", "-o", "m.model", "-algo", "svm", "-kernel", "rbf", "-data-margin", "int.libsvm")
	if code != exitOK || !strings.Contains(stdout, "representation: dense: -data-margin") {
		t.Errorf("-data-margin: exit %d\n%s%s", code, stdout, stderr)
	}
}
