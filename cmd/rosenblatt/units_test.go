package main

import (
	"errors"
	"flag"
	"github.com/rosenblatt-go/rosenblatt/internal/cli"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestParseArgs(t *testing.T) {
	cases := []struct {
		name  string
		args  []string
		names []string
		pos   []string
		o     string
		q     bool
		usage bool // a usage error
	}{
		{"flags first", []string{"-o", "m", "-q", "d"}, []string{"DATA"}, []string{"d"}, "m", true, false},
		{"flags last", []string{"d", "-o", "m", "-q"}, []string{"DATA"}, []string{"d"}, "m", true, false},
		{"flags between", []string{"a", "-q", "b", "-o=m"}, []string{"MODEL", "DATA"}, []string{"a", "b"}, "m", true, false},
		{"double dash", []string{"-q", "--", "-o"}, []string{"DATA"}, []string{"-o"}, "", true, false},
		{"missing", []string{"-q"}, []string{"MODEL", "DATA"}, nil, "", true, true},
		{"extra", []string{"a", "b"}, []string{"DATA"}, nil, "", false, true},
		{"bad flag", []string{"a", "-x"}, []string{"DATA"}, nil, "", false, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fs := cli.NewFlagSet("t", io.Discard)
			o := fs.String("o", "", "")
			q := fs.Bool("q", false, "")
			pos, err := cli.ParseArgs(fs, c.args, c.names...)
			if c.usage {
				if !errors.Is(err, cli.ErrUsage) {
					t.Fatalf("err = %v, want a usage error", err)
				}
				return
			}
			if err != nil || !slices.Equal(pos, c.pos) || *o != c.o || *q != c.q {
				t.Errorf("pos %q o %q q %v err %v, want %q %q %v nil", pos, *o, *q, err, c.pos, c.o, c.q)
			}
		})
	}
	fs := cli.NewFlagSet("t", io.Discard)
	if _, err := cli.ParseArgs(fs, []string{"-h"}, "DATA"); !errors.Is(err, flag.ErrHelp) {
		t.Errorf("-h: err = %v, want flag.ErrHelp", err)
	}
}

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
