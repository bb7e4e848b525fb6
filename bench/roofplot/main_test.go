package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The reports: one made on amd64 by rosenblatt bench -quick -json, one on
// arm64 under qemu-aarch64 (marked emulated).
const (
	amd64Report = "testdata/bench-amd64-quick.json"
	arm64Report = "testdata/bench-arm64-qemu.json"
)

func runCmd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var o, e bytes.Buffer
	code = run(args, &o, &e)
	return code, o.String(), e.String()
}

// TestPlotOne draws every implementation of one report as SVG: a panel per
// implementation titled with it and its ISA, the axes, the roofs and the
// kernels in the legends.
func TestPlotOne(t *testing.T) {
	rep, err := readReport(amd64Report)
	if err != nil {
		t.Fatal(err)
	}
	svg := filepath.Join(t.TempDir(), "r.svg")
	code, out, errOut := runCmd(t, "-o", svg, amd64Report)
	if code != 0 || out != "roofline plot saved to "+svg+"\n" || errOut != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	data, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	if !strings.HasPrefix(strings.TrimSpace(s), "<?xml") || !strings.Contains(s, "<svg") || !strings.HasSuffix(strings.TrimSpace(s), "</svg>") {
		t.Errorf("%s is not an SVG document", svg)
	}
	if len(rep.Roofline.Impls) < 2 {
		t.Fatalf("the amd64 report has %d implementations, want several", len(rep.Roofline.Impls))
	}
	for _, im := range rep.Roofline.Impls {
		if !strings.Contains(s, ">"+im.Impl+" ("+im.ISA) {
			t.Errorf("no panel for %s (%s)", im.Impl, im.ISA)
		}
	}
	for _, w := range []string{"arithmetic intensity", "GFLOP/s", "L1 read", "DRAM read", "peak float32", "peak float64", "dot float32", "dot float64", "gram float32", "axpy float32", "matvec float32"} {
		if !strings.Contains(s, w) {
			t.Errorf("the SVG lacks %q", w)
		}
	}
}

// TestPlotCompare draws two reports of two architectures side by side as
// PNG, each one's best implementation; the picture is replaced only with
// -f.
func TestPlotCompare(t *testing.T) {
	dir := t.TempDir()
	png, svg := filepath.Join(dir, "c.png"), filepath.Join(dir, "c.svg")
	code, out, errOut := runCmd(t, "-o", png, amd64Report, arm64Report)
	if code != 0 || !strings.Contains(out, "saved to "+png) {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	data, err := os.ReadFile(png)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")) {
		t.Errorf("%s is not a PNG file", png)
	}
	// The same as SVG, to read the panels' titles.
	if code, _, errOut := runCmd(t, "-o", svg, amd64Report, arm64Report); code != 0 {
		t.Fatalf("svg: exit %d: %s", code, errOut)
	}
	s, _ := os.ReadFile(svg)
	a, _ := readReport(amd64Report)
	for _, w := range []string{"A: " + amd64Report, "B: " + arm64Report, "(EMULATED)", ">neon (NEON", ">" + a.Machine.ActiveKernel + " ("} {
		if !bytes.Contains(s, []byte(w)) {
			t.Errorf("the comparison lacks %q", w)
		}
	}
	if bytes.Contains(s, []byte(">generic (")) {
		t.Errorf("a comparison drew the generic panels, not each report's best only")
	}

	// Not replaced without -f; replaced with it.
	old := []byte("keep me")
	if err := os.WriteFile(png, old, 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut = runCmd(t, "-o", png, amd64Report)
	if code != 1 || !strings.Contains(errOut, "use -f") {
		t.Errorf("existing file: exit %d, stderr %q", code, errOut)
	}
	if b, _ := os.ReadFile(png); !bytes.Equal(b, old) {
		t.Errorf("the existing file was overwritten")
	}
	if code, _, errOut := runCmd(t, "-f", "-o", png, amd64Report); code != 0 {
		t.Errorf("-f: exit %d: %s", code, errOut)
	}
	if b, _ := os.ReadFile(png); !bytes.HasPrefix(b, []byte("\x89PNG")) {
		t.Errorf("-f did not replace the file")
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 2 {
		t.Errorf("%d files in the output directory, want the two pictures (no temporary file left)", len(ents))
	}
}

// TestPlotRefuses: usage errors are exit 2 with one line; reports that
// cannot be drawn are exit 1 naming the file, and no picture is written.
func TestPlotRefuses(t *testing.T) {
	dir := t.TempDir()
	good, err := os.ReadFile(amd64Report)
	if err != nil {
		t.Fatal(err)
	}
	edit := func(name string, f func(m map[string]any)) string {
		var m map[string]any
		if err := json.Unmarshal(good, &m); err != nil {
			t.Fatal(err)
		}
		f(m)
		b, _ := json.Marshal(m)
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	v1 := edit("v1.json", func(m map[string]any) { m["schema"] = "rosenblatt-bench/1"; delete(m, "roofline") })
	noRoof := edit("noroof.json", func(m map[string]any) { delete(m, "roofline") })
	negative := edit("neg.json", func(m map[string]any) {
		m["results"].([]any)[0].(map[string]any)["gflops"] = -3
	})
	garbage := filepath.Join(dir, "garbage.json")
	os.WriteFile(garbage, []byte("{\"schema\": "), 0o644)
	out := filepath.Join(dir, "p.svg")
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{amd64Report}, 2, "-o FILE is required"},
		{[]string{"-o", out}, 2, "no report"},
		{[]string{"-o", filepath.Join(dir, "p.pdf"), amd64Report}, 2, "must end in .svg or .png"},
		{[]string{"-o", out, "-x", amd64Report}, 2, "flag provided but not defined: -x"},
		{[]string{"-o", garbage + ".svg", garbage + ".svg"}, 2, "is one of the reports"},
		{[]string{"-o", out, filepath.Join(dir, "missing.json")}, 1, "missing.json"},
		{[]string{"-o", out, v1}, 1, `schema "rosenblatt-bench/1"`},
		{[]string{"-o", out, noRoof}, 1, "no measured roofline"},
		{[]string{"-o", out, negative}, 1, "result 1"},
		{[]string{"-o", out, amd64Report, garbage}, 1, "garbage.json"},
	} {
		code, stdout, errOut := runCmd(t, c.args...)
		if code != c.code || !strings.Contains(errOut, c.want) || strings.Count(errOut, "\n") != 1 || stdout != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit %d and one line with %q", c.args, code, stdout, errOut, c.code, c.want)
		}
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a picture was written despite the errors: %v", err)
	}
	if _, err := readReport(negative); !errors.Is(err, errMalformed) {
		t.Errorf("a negative rate: error %v, want errMalformed", err)
	}
}
