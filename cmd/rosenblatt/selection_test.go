package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/internal/cli"
)

// TestSelectionErrorPrinted runs the command with a ROSENBLATT_KERNEL that
// names no implementation: the kernel package prints nothing and runs the
// best implementation, so the command must say so (cli.KernelSelection), once, to standard
// error, and still run the command on the best implementation. With a valid
// value nothing is printed. The variable is read at start-up, so the test
// re-executes the test binary as the command.
func TestSelectionErrorPrinted(t *testing.T) {
	if err := binaryProbe(); err != nil {
		if strings.Contains(err.Error(), "exec format error") {
			t.Skipf("cannot execute the %s test binary on this host (%v)", runtime.GOARCH, err)
		}
		t.Fatalf("re-executing the test binary as rosenblatt: %v", err)
	}
	const msg = `rosenblatt: unknown kernel implementation: ROSENBLATT_KERNEL="turbo" names no implementation`
	cases := []struct {
		value     string
		wantCount int
	}{
		{"turbo", 1},
		{"generic", 0},
		{"", 0},
	}
	for _, c := range cases {
		cmd := exec.Command(os.Args[0], "cpu")
		cmd.Env = append(commandEnv(), cli.KernelEnv+"="+c.value)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				t.Fatalf("%s=%q: rosenblatt cpu exited %d\nstderr:\n%s", cli.KernelEnv, c.value, ee.ExitCode(), errb.String())
			}
			t.Fatal(err)
		}
		if n := strings.Count(errb.String(), msg); n != c.wantCount {
			t.Errorf("%s=%q: the selection error is on standard error %d times, want %d:\n%s", cli.KernelEnv, c.value, n, c.wantCount, errb.String())
		}
		if c.wantCount == 0 && errb.Len() != 0 {
			t.Errorf("%s=%q: unexpected standard error:\n%s", cli.KernelEnv, c.value, errb.String())
		}
		if !strings.Contains(out.String(), "ACTIVE") {
			t.Errorf("%s=%q: rosenblatt cpu did not run:\n%s", cli.KernelEnv, c.value, out.String())
		}
	}
}
