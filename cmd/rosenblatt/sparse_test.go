package main

import (
	"bytes"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// textFile writes a LIBSVM file shaped like hashed text: rows of nnz
// integer values among cols features, K classes (labels 1..K), each class
// drawing half its features from its own stripe. It returns the path.
func textFile(t *testing.T, dir, name string, rows, cols, nnz, K int, seed uint64) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	var b strings.Builder
	for i := range rows {
		y := i % K
		seen := map[int]bool{}
		for len(seen) < nnz {
			j := rng.IntN(cols)
			if rng.IntN(2) == 0 {
				j = y*(cols/K) + rng.IntN(cols/K)
			}
			seen[j] = true
		}
		fmt.Fprintf(&b, "%d", y+1)
		for _, j := range slices.Sorted(maps.Keys(seen)) { // ascending, as LIBSVM wants
			fmt.Fprintf(&b, " %d:%d", j+1, 1+rng.IntN(3))
		}
		b.WriteByte('\n')
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestTrainSparseRepresentation: train reads LIBSVM sparse unless the
// trainer needs dense rows or -dense asks for them, and says which with
// -v; the sparse and the dense run write the same model file on integer
// data, for every algorithm, and -init continues either.
func TestTrainSparseRepresentation(t *testing.T) {
	dir := t.TempDir()
	textFile(t, dir, "int.libsvm", 120, 60, 6, 3, 5)
	textFile(t, dir, "int.test.libsvm", 40, 60, 6, 3, 6)
	for _, tc := range []struct {
		args []string
		repr string
	}{
		{[]string{"-algo", "averaged"}, "representation: sparse (CSR)"},
		{[]string{"-algo", "averaged", "-dense"}, "representation: dense: -dense"},
		{[]string{"-kernel", "rbf", "-epochs", "2"}, "representation: sparse (CSR)"},
		{[]string{"-kernel", "rbf", "-epochs", "2", "-data-margin"}, "representation: dense: -data-margin"},
	} {
		args := append(append([]string{"train", "-v", "-f", "-o", "m.model"}, tc.args...), "int.libsvm")
		code, stdout, stderr := runIn(t, dir, args...)
		if code != exitOK {
			t.Fatalf("%v: exit %d\n%s%s", args, code, stdout, stderr)
		}
		if !strings.Contains(stdout, tc.repr) {
			t.Errorf("%v: stdout lacks %q:\n%s", args, tc.repr, stdout)
		}
	}
	for _, algo := range []string{"online", "batch", "minibatch", "averaged", "voted", "pegasos"} {
		for _, multi := range []string{"ovr", "argmax"} {
			if multi == "argmax" && algo != "online" && algo != "averaged" {
				continue
			}
			var files [2][]byte
			var tests [2]string
			for k, repr := range []string{"-dense=false", "-dense"} {
				args := []string{"train", "-f", "-o", "m.model", "-algo", algo, "-multiclass", multi, "-epochs", "3", "-all-epochs",
					"-shuffle", "-type", "float64", "-test", "int.test.libsvm", repr, "int.libsvm"}
				code, stdout, stderr := runIn(t, dir, args...)
				if code != exitOK {
					t.Fatalf("%v: exit %d\n%s%s", args, code, stdout, stderr)
				}
				b, err := os.ReadFile(filepath.Join(dir, "m.model"))
				if err != nil {
					t.Fatal(err)
				}
				files[k] = b
				for _, line := range strings.Split(stdout, "\n") {
					if strings.HasPrefix(line, "test accuracy:") {
						tests[k] = line
					}
				}
			}
			if algo == "pegasos" {
				continue // Pegasos' steps 1/(λt) round: the models agree up to rounding (see package perceptron)
			}
			if !bytes.Equal(files[0], files[1]) {
				t.Errorf("%s %s: the sparse and the dense run wrote different models", algo, multi)
			}
			if tests[0] == "" || tests[0] != tests[1] {
				t.Errorf("%s %s: test accuracy %q sparse, %q dense", algo, multi, tests[0], tests[1])
			}
		}
	}
	// -init continues a model on sparse rows as on dense ones.
	var conts [2][]byte
	for k, repr := range []string{"-dense=false", "-dense"} {
		for _, args := range [][]string{
			{"train", "-f", "-o", "one.model", "-algo", "averaged", "-epochs", "1", "-type", "float64", "-resumable", repr, "int.libsvm"},
			{"train", "-f", "-o", "two.model", "-init", "one.model", "-epochs", "1", repr, "int.libsvm"},
		} {
			if code, stdout, stderr := runIn(t, dir, args...); code != exitOK {
				t.Fatalf("%v: exit %d\n%s%s", args, code, stdout, stderr)
			}
		}
		b, err := os.ReadFile(filepath.Join(dir, "two.model"))
		if err != nil {
			t.Fatal(err)
		}
		conts[k] = b
	}
	if !bytes.Equal(conts[0], conts[1]) {
		t.Error("-init: the sparse and the dense continuation wrote different models")
	}
}

// TestTrainWideSparse is the text case: a text-shaped file of 2²⁰
// hashed features that the dense reader refuses (its matrix would exceed
// the limit) trains sparse, without -cols, and the model has the width.
func TestTrainWideSparse(t *testing.T) {
	if testing.Short() {
		t.Skip("writes and trains a 2²⁰-feature model")
	}
	dir := t.TempDir()
	textFile(t, dir, "wide.libsvm", 1500, 1<<20, 12, 2, 7)
	code, stdout, stderr := runIn(t, dir, "train", "-v", "-q=false", "-algo", "averaged", "-epochs", "3", "-o", "m.model", "wide.libsvm")
	if code != exitOK {
		t.Fatalf("sparse: exit %d\n%s%s", code, stdout, stderr)
	}
	for _, s := range []string{"1500 rows, 10485", "representation: sparse (CSR), 18000 stored values"} {
		if !strings.Contains(stdout, s) {
			t.Errorf("stdout lacks %q:\n%s", s, stdout)
		}
	}
	// predict and eval read it sparse too, with the model's width.
	code, stdout, stderr = runIn(t, dir, "predict", "-scores", "m.model", "wide.libsvm")
	if code != exitOK || strings.Count(stdout, "\n") != 1500 {
		t.Errorf("predict: exit %d, %d lines\n%s", code, strings.Count(stdout, "\n"), stderr)
	}
	code, stdout, stderr = runIn(t, dir, "eval", "m.model", "wide.libsvm")
	if code != exitOK || !strings.Contains(stdout, "(libsvm, sparse): 1500 rows") || !strings.Contains(stdout, "accuracy:") {
		t.Errorf("eval: exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, stderr = runIn(t, dir, "train", "-dense", "-f", "-o", "m.model", "wide.libsvm")
	if code != exitFail || !strings.Contains(stderr, "exceed the limit") {
		t.Errorf("dense: exit %d, want %d with the dense limit\n%s%s", code, exitFail, stdout, stderr)
	}
}
