package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/internal/benchcmd"
)

// Every bench run of the tests, in process and in the re-executed binary,
// is tiny (benchcmd.Tiny): the same code on small working sets and few trials.
var _ = func() int {
	benchcmd.Tiny = true
	childSetups = append(childSetups, func() { benchcmd.Tiny = true })
	return 0
}()

// runCmd runs the command line in process and returns its exit code and
// outputs.
func runCmd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

// benchReport returns the absolute path of a bench report that bench
// compare reads (one of package benchcmd's fixtures, which its own tests
// set against a fresh report): the commands' output and same-file tests
// need a report, not a measurement.
func benchReport(t *testing.T) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "..", "internal", "benchcmd", "testdata", "bench-arm64-qemu.json"))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestBenchPlotMoved: the -plot flags of bench and bench compare, whose
// pictures bench/roofplot draws now, are a one-line usage error that
// names it, before any measurement, and write nothing.
func TestBenchPlotMoved(t *testing.T) {
	fileA := benchReport(t)
	svg := filepath.Join(t.TempDir(), "r.svg")
	for _, args := range [][]string{
		{"bench", "-quick", "-q", "-plot", svg},
		{"bench", "compare", "-plot", svg, fileA, fileA},
	} {
		code, out, errOut := runCmd(t, args...)
		if code != exitUsage || out != "" || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "go -C bench run ./roofplot") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit %d and one line naming roofplot", args, code, out, errOut, exitUsage)
		}
		if _, err := os.Stat(svg); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%q wrote %s: %v", args, svg, err)
		}
	}
}

// TestBenchCommand: bench and bench compare run through the command (the
// measurements themselves are package benchcmd's tests): a report written
// with -json, which compare then sets against another machine's.
func TestBenchCommand(t *testing.T) {
	file := filepath.Join(t.TempDir(), "r.json")
	code, out, errOut := runCmd(t, "bench", "-quick", "-q", "-paths", "generic", "-json", file)
	if code != exitOK || errOut != "" || !strings.Contains(out, "generic") {
		t.Fatalf("bench: exit %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
	code, out, errOut = runCmd(t, "bench", "compare", file, benchReport(t))
	if code != exitOK || errOut != "" || !strings.Contains(out, "EMULATED") && !strings.Contains(out, "emulated") {
		t.Errorf("bench compare: exit %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
}
