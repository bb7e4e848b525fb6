package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/internal/memtest"
	"github.com/rosenblatt-go/rosenblatt/linear"
)

// TestEvalManyClasses: eval of a model of 20,000 classes on two rows is
// sized by the two rows: a report of the classes that occur (at most
// four), a matrix of their nonzero cells, an output of a few lines that
// says the rest are left out, and allocations far below one K×K matrix
// (3.2 GB of ints).
func TestEvalManyClasses(t *testing.T) {
	const k, d = 20000, 2
	labels := make([]int, k)
	W := make([]float32, k*d)
	b := make([]float32, k)
	for i := range labels {
		labels[i] = i
	}
	// Class 7 scores feature 0, class 12345 feature 1; the rest score 0.
	W[7*d], W[12345*d+1] = 1, 1
	m, err := linear.New(linear.State[float32]{Scheme: fit.OneVsRest, Algorithm: linear.DualCD, Dims: d, Labels: labels,
		Bias: true, BiasFeature: 1, Eta: 1, W: W, B: b})
	if err != nil {
		t.Fatal(err)
	}
	bin, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "m.model"), bin, 0o644); err != nil {
		t.Fatal(err)
	}
	// Row 1 (label 7) is predicted 7, row 2 (label 19999) is predicted 12345.
	if err := os.WriteFile(filepath.Join(dir, "two.libsvm"), []byte("7 1:5\n19999 2:5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var code int
	var stdout, stderr string
	alloc := memtest.Allocated(func() { code, stdout, stderr = runIn(t, dir, "eval", "m.model", "two.libsvm") })
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	t.Logf("%d bytes of output, %d allocated", len(stdout), alloc)
	if len(stdout) > 2048 || strings.Count(stdout, "\n") > 25 {
		t.Errorf("%d bytes, %d lines of output for two rows:\n%.3000s", len(stdout), strings.Count(stdout, "\n"), stdout)
	}
	if !strings.Contains(stdout, "the model's 19997 other classes occur neither in the data nor in the predictions: left out") {
		t.Errorf("no note of the classes left out:\n%s", stdout)
	}
	if !strings.Contains(stdout, "classes 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 … 19997 19998 19999 (20000 labels)") {
		t.Errorf("model description:\n%.1000s", stdout)
	}
	if !strings.Contains(stdout, "accuracy:  50.00% (1/2)") {
		t.Errorf("accuracy:\n%s", stdout)
	}
	// The matrix is over the three classes that occur, 7, 12345, 19999.
	i := strings.Index(stdout, "true\\pred")
	if i < 0 {
		t.Fatalf("no confusion matrix:\n%s", stdout)
	}
	rows := strings.Split(strings.TrimSpace(stdout[i:]), "\n")
	if got := strings.Fields(rows[0]); len(rows) != 4 || strings.Join(got[1:], " ") != "7 12345 19999" {
		t.Errorf("confusion matrix %q, want 3×3 over 7 12345 19999", rows)
	}
	if alloc > 64<<20 {
		t.Errorf("eval allocated %d bytes", alloc)
	}
}
