package modelcmd

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/internal/cli"
)

func TestFormatOf(t *testing.T) {
	cases := []struct{ flag, path, want string }{
		{"auto", "a.libsvm", fmtLIBSVM},
		{"auto", "heart_scale", fmtLIBSVM},
		{"auto", "a.svm.gz", fmtLIBSVM},
		{"auto", "dir.csv/a.txt", fmtLIBSVM},
		{"auto", "A.CSV", fmtCSV},
		{"auto", "a.tsv.gz", fmtCSV},
		{"auto", "train-images-idx3-ubyte.gz", fmtIDX},
		{"auto", "x.idx", fmtIDX},
		{"", "x.csv", fmtCSV},
		{"libsvm", "x.csv", fmtLIBSVM},
		{"csv", "x.libsvm", fmtCSV},
		{"idx", "x", fmtIDX},
	}
	for _, c := range cases {
		d := dataFlags{format: c.flag}
		if got, err := d.formatOf(c.path); err != nil || got != c.want {
			t.Errorf("-format %q %s: %q, %v; want %q", c.flag, c.path, got, err, c.want)
		}
	}
	d := dataFlags{format: "arff"}
	if _, err := d.formatOf("x"); !errors.Is(err, cli.ErrUsage) {
		t.Errorf("-format arff: err = %v, want a usage error", err)
	}
}

func TestLabelsPath(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"a-labels-idx1-ubyte", "b-labels-idx1-ubyte.gz"} {
		if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := func(s string) string { return filepath.Join(dir, s) }
	cases := []struct{ labels, images, want string }{
		{"", p("a-images-idx3-ubyte"), p("a-labels-idx1-ubyte")},
		{"", p("a-images-idx3-ubyte.gz"), p("a-labels-idx1-ubyte")},    // only the raw file exists
		{"", p("b-images-idx3-ubyte"), p("b-labels-idx1-ubyte.gz")},    // only the .gz exists
		{"", p("c-images-idx3-ubyte.gz"), p("c-labels-idx1-ubyte.gz")}, // neither: the direct name, for the error
		{"given", p("a-images-idx3-ubyte"), "given"},
	}
	for _, c := range cases {
		d := dataFlags{labels: c.labels}
		if got, err := d.labelsPath(c.images); err != nil || got != c.want {
			t.Errorf("labels for %s: %q, %v; want %q", c.images, got, err, c.want)
		}
	}
	d := dataFlags{}
	if _, err := d.labelsPath(p("pixels.idx")); !errors.Is(err, cli.ErrUsage) {
		t.Errorf("no derivable name: err = %v, want a usage error", err)
	}
}

func TestEvalReport(t *testing.T) {
	// True labels 0 0 0 1 1 2 and 9 (unknown to the model); predictions
	// 0 0 1 1 0 1 0. The model knows 0, 1, 2 and 3: 3 occurs in neither,
	// and is left out (counted in others).
	y := []int{0, 0, 0, 1, 1, 2, 9}
	pred := []int{0, 0, 1, 1, 0, 1, 0}
	r := newEvalReport(pred, y, []int{0, 1, 2, 3})
	if !slices.Equal(r.labels, []int{0, 1, 2, 9}) || r.others != 1 {
		t.Fatalf("labels %v, others %d; want [0 1 2 9], 1", r.labels, r.others)
	}
	if r.n != 7 || r.right != 3 {
		t.Errorf("n %d right %d, want 7 3", r.n, r.right)
	}
	wantConf := [][]int{
		{2, 1, 0, 0},
		{1, 1, 0, 0},
		{0, 1, 0, 0},
		{1, 0, 0, 0},
	}
	for i := range wantConf {
		for j := range wantConf[i] {
			if got := r.count(i, j); got != wantConf[i][j] {
				t.Errorf("confusion[%d][%d] = %d, want %d", r.labels[i], r.labels[j], got, wantConf[i][j])
			}
		}
	}
	if len(r.confusion) != 6 {
		t.Errorf("%d cells kept, want the 6 nonzero ones", len(r.confusion))
	}
	nan := math.NaN() // undefined
	want := []struct {
		label     int
		p, rc, f1 float64
		support   int
	}{
		{0, 2.0 / 4, 2.0 / 3, 4.0 / 7, 3}, // TP 2, FP 2, FN 1
		{1, 1.0 / 3, 1.0 / 2, 2.0 / 5, 2}, // TP 1, FP 2, FN 1
		{2, nan, 0, 0, 1},                 // never predicted
		{9, nan, 0, 0, 1},
	}
	same := func(got float64, ok bool, want float64) bool {
		if math.IsNaN(want) {
			return !ok
		}
		return ok && math.Abs(got-want) < 1e-15
	}
	if len(r.classes) != len(want) {
		t.Fatalf("%d classes, want %d", len(r.classes), len(want))
	}
	for i, w := range want {
		m := r.classes[i]
		if m.label != w.label || m.support != w.support || !same(m.precision, m.pOK, w.p) || !same(m.recall, m.rOK, w.rc) || !same(m.f1, m.fOK, w.f1) {
			t.Errorf("class %d: %+v, want precision %v recall %v f1 %v support %d", w.label, m, w.p, w.rc, w.f1, w.support)
		}
	}
	macro, weighted := r.averages()
	// Over the classes present (0, 1, 2, 9), undefined counting as 0.
	wantMacro := [3]float64{(0.5 + 1.0/3) / 4, (2.0/3 + 0.5) / 4, (4.0/7 + 2.0/5) / 4}
	wantWeighted := [3]float64{(3*0.5 + 2.0/3) / 7, (3*2.0/3 + 2*0.5) / 7, (3*4.0/7 + 2*2.0/5) / 7}
	for i := range 3 {
		if math.Abs(macro[i]-wantMacro[i]) > 1e-15 || math.Abs(weighted[i]-wantWeighted[i]) > 1e-15 {
			t.Errorf("averages %d: macro %v weighted %v, want %v %v", i, macro[i], weighted[i], wantMacro[i], wantWeighted[i])
		}
	}
}

// TestEvalReportCells: a report of more than maxDenseConfusion classes
// lists its nonzero cells, no more, and keeps only those.
func TestEvalReportCells(t *testing.T) {
	var y, pred, model []int
	for i := range 40 {
		y = append(y, i)
		pred = append(pred, (i+1)%40)
	}
	for i := range 100000 {
		model = append(model, i)
	}
	r := newEvalReport(pred, y, model)
	if len(r.labels) != 40 || len(r.confusion) != 40 || r.others != 100000-40 {
		t.Fatalf("%d labels, %d cells, %d others", len(r.labels), len(r.confusion), r.others)
	}
	var b strings.Builder
	r.print(&b, model)
	out := b.String()
	if !strings.Contains(out, "confusion matrix of 40 classes, more than the 30 printed whole: its 40 nonzero cells") {
		t.Fatalf("no cell list:\n%s", out)
	}
	cells := out[strings.Index(out, "nonzero cells"):]
	if n := strings.Count(cells, "\n"); n != 42 { // the title's end, the header, 40 cells
		t.Errorf("%d lines in the cell list, want 42:\n%s", n, cells)
	}
	if !regexp.MustCompile(`\n +39 +0 +1\n`).MatchString(cells) {
		t.Errorf("no cell 39→0:\n%s", cells)
	}
}
