package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// train's exit status and messages for training that diverges (an -eta that
// overflows float32 with the data) or would exceed the voted perceptron's
// memory budget (-max-mb): status 1, a message naming the epoch and sample
// or what was kept and the flag to change, and no model file.
func TestTrainDivergedAndBudget(t *testing.T) {
	dir := t.TempDir()
	// 300 rows of 100 random features with random labels: the voted
	// perceptron keeps a vector of 412 bytes (float32) per mistake, tens of
	// mistakes per epoch.
	rng := rand.New(rand.NewPCG(1, 2))
	var b strings.Builder
	for range 300 {
		fmt.Fprintf(&b, "%d", 1-2*rng.IntN(2))
		for j := range 100 {
			fmt.Fprintf(&b, " %d:%d", j+1, rng.IntN(9)-4)
		}
		b.WriteByte('\n')
	}
	noise := filepath.Join(dir, "noise.libsvm")
	if err := os.WriteFile(noise, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	iris := filepath.Join(pkgDir, "testdata", "iris.train.libsvm")
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stderr []string
	}{
		{"eta-diverges-float32", []string{"train", "-eta", "3e38", iris}, exitFail,
			[]string{"training diverged: in epoch 1, sample 0", "float32", "no model written", "smaller step size"}},
		{"eta-diverges-ovr-averaged", []string{"train", "-eta", "1e36", "-algo", "averaged", iris}, exitFail,
			[]string{"training diverged: in epoch", ", class ", "no model written"}},
		{"eta-diverges-kernel", []string{"train", "-eta", "3e38", "-kernel", "linear", iris}, exitFail,
			[]string{"training diverged: in epoch 1, sample 0", "no model written"}},
		{"eta-overflows-float32", []string{"train", "-eta", "1e39", iris}, exitUsage,
			[]string{"Eta = 1e+39 overflows float32"}},
		{"eta-float64", []string{"train", "-eta", "1e39", "-type", "float64", iris}, exitOK, nil},
		{"voted-budget", []string{"train", "-algo", "voted", "-epochs", "100", "-all-epochs", "-max-mb", "1", noise}, exitFail,
			[]string{"memory budget too small", "weight vectors of 100 values", "VotedMaxBytes = 1048576 bytes", "-max-mb"}},
		{"voted-budget-enough", []string{"train", "-algo", "voted", "-epochs", "100", "-all-epochs", "-max-mb", "64", noise}, exitOK, nil},
		{"voted-no-limit", []string{"train", "-algo", "voted", "-epochs", "100", "-all-epochs", "-max-mb", "-1", noise}, exitOK, nil},
		{"max-mb-not-voted", []string{"train", "-max-mb", "8", noise}, exitUsage, []string{"-max-mb is the budget of -algo voted"}},
		{"max-mb-zero", []string{"train", "-algo", "voted", "-max-mb", "0", noise}, exitUsage, []string{"-max-mb 0"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "m.model")
			var stdout, stderr bytes.Buffer
			code := run(append(tc.args, "-q", "-o", out), &stdout, &stderr)
			if code != tc.code {
				t.Fatalf("exit status %d, want %d; stderr:\n%s", code, tc.code, stderr.String())
			}
			for _, s := range tc.stderr {
				if !strings.Contains(stderr.String(), s) {
					t.Errorf("stderr lacks %q:\n%s", s, stderr.String())
				}
			}
			_, err := os.Stat(out)
			switch {
			case tc.code == exitOK && err != nil:
				t.Fatalf("no model written: %v", err)
			case tc.code != exitOK && !errors.Is(err, fs.ErrNotExist):
				t.Fatalf("a failed run left %s (%v)", out, err)
			}
		})
	}
}

// -q silences train, nothing more: the -test file is still read and
// scored, and one the model cannot score (its values overflow float32 in
// the scores) fails the command, -q or not, with no model written.
func TestTrainQuietScoresTheTestFile(t *testing.T) {
	dir := t.TempDir()
	huge := filepath.Join(dir, "huge.libsvm")
	if err := os.WriteFile(huge, []byte("1 1:3e38 2:3e38 3:3e38 4:3e38\n2 1:-3e38 2:3e38 3:3e38 4:3e38\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, quiet := range []bool{false, true} {
		out := filepath.Join(t.TempDir(), "m.model")
		args := []string{"train", "-test", huge, "-o", out, td("iris.train.libsvm")}
		if quiet {
			args = append(args, "-q")
		}
		var stdout, stderr bytes.Buffer
		if code := run(args, &stdout, &stderr); code != exitFail {
			t.Errorf("-q %v: exit %d, want %d; stderr %q", quiet, code, exitFail, stderr.String())
		}
		for _, s := range []string{"huge.libsvm: linear: non-finite value", "no model written"} {
			if !strings.Contains(stderr.String(), s) {
				t.Errorf("-q %v: stderr lacks %q: %q", quiet, s, stderr.String())
			}
		}
		if _, err := os.Stat(out); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("-q %v: a failed run left %s (%v)", quiet, out, err)
		}
	}
}
