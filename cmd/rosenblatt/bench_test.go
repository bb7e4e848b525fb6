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

// quickReport runs `bench -quick` once per test binary and returns the
// report file; the tests below share it to stay fast.
var quickReport = struct {
	file, stdout string
	done         bool
}{}

func sharedQuickReport(t *testing.T) (file, stdout string) {
	t.Helper()
	if !quickReport.done {
		dir, err := os.MkdirTemp("", "rosenblatt-bench-")
		if err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(dir, "a.json")
		code, out, errOut := runCmd(t, "bench", "-quick", "-json", file)
		if code != exitOK {
			t.Fatalf("bench -quick: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
		}
		if errOut != "" {
			t.Errorf("bench wrote to stderr, which is not a terminal here (want no progress bar):\n%q", errOut)
		}
		quickReport.file, quickReport.stdout, quickReport.done = file, out, true
	}
	return quickReport.file, quickReport.stdout
}

func TestMain(m *testing.M) {
	code := m.Run()
	if quickReport.file != "" {
		os.RemoveAll(filepath.Dir(quickReport.file))
	}
	os.Exit(code)
}

// TestBenchPlotMoved: the -plot flags of bench and bench compare, whose
// pictures bench/roofplot draws now, are a one-line usage error that
// names it, before any measurement, and write nothing.
func TestBenchPlotMoved(t *testing.T) {
	fileA, _ := sharedQuickReport(t)
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
