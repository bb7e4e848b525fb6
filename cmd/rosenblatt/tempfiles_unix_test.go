//go:build unix

package main

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/rosenblatt-go/rosenblatt/internal/atomicfile"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// pauseWriteEnv makes the re-executed command stop in the middle of
// writing its output file: it writes the temporary file's name to the file
// the variable names and sleeps, for the test to signal it.
const pauseWriteEnv = "ROSENBLATT_TEST_PAUSE_WRITE"

var _ = func() int {
	childSetups = append(childSetups, func() {
		marker := os.Getenv(pauseWriteEnv)
		if marker == "" {
			return
		}
		atomicfile.TestWriteHook = func(tmp string) {
			os.WriteFile(marker, []byte(tmp), 0o644)
			time.Sleep(time.Minute)
		}
	})
	return 0
}()

// TestSignalDuringWrite: SIGINT or SIGTERM while the model file is being
// written removes the temporary file, leaves the target as it was (absent,
// or the old model with -f), and the process dies of the signal.
func TestSignalDuringWrite(t *testing.T) {
	if err := binaryProbe(); err != nil {
		t.Skipf("cannot execute the test binary here: %v", err)
	}
	for _, tc := range []struct {
		sig   syscall.Signal
		force bool
	}{{syscall.SIGINT, false}, {syscall.SIGTERM, false}, {syscall.SIGINT, true}} {
		t.Run(fmt.Sprintf("%v/force=%v", tc.sig, tc.force), func(t *testing.T) {
			dir := t.TempDir()
			target := filepath.Join(dir, "m.model")
			args := []string{"train", "-q", "-epochs", "2", "-o", target}
			if tc.force {
				if err := os.WriteFile(target, []byte("old model"), 0o644); err != nil {
					t.Fatal(err)
				}
				args = append(args, "-f")
			}
			marker := filepath.Join(dir, "marker")
			cmd := exec.Command(os.Args[0], append(args, td("iris.train.libsvm"))...)
			cmd.Dir = dir
			cmd.Env = append(commandEnv(), pauseWriteEnv+"="+marker)
			var errb bytes.Buffer
			cmd.Stderr = &errb
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			var tmp []byte
			for deadline := time.Now().Add(2 * time.Minute); len(tmp) == 0; time.Sleep(10 * time.Millisecond) {
				if time.Now().After(deadline) {
					cmd.Process.Kill()
					cmd.Wait()
					t.Fatalf("the command never reached the write: %s", errb.String())
				}
				tmp, _ = os.ReadFile(marker)
			}
			if fi, err := os.Stat(string(tmp)); err != nil || fi.Size() == 0 || !strings.Contains(string(tmp), ".m.model.rosenblatt-tmp-") {
				t.Fatalf("temporary file %s mid-write: %v", tmp, err)
			}
			if err := cmd.Process.Signal(tc.sig); err != nil {
				t.Fatal(err)
			}
			err := cmd.Wait()
			var ee *exec.ExitError
			if !errors.As(err, &ee) {
				t.Fatalf("the command ended with %v, want death by %v", err, tc.sig)
			}
			if ws := ee.Sys().(syscall.WaitStatus); !ws.Signaled() || ws.Signal() != tc.sig {
				t.Errorf("wait status %v, want death by %v", ws, tc.sig)
			}
			names, _ := filepath.Glob(filepath.Join(dir, ".*"))
			if len(names) != 0 {
				t.Errorf("left behind: %v", names)
			}
			got, err := os.ReadFile(target)
			switch {
			case tc.force && string(got) != "old model":
				t.Errorf("target now %q, %v; want the old model", got, err)
			case !tc.force && !errors.Is(err, os.ErrNotExist):
				t.Errorf("target exists after an interrupted write: %v", err)
			}
		})
	}
}

// TestStaleTemps: a write removes the temporary files of its target whose
// process is gone, and the unnamed ones of earlier versions older than an
// hour; it keeps those of a live process, recent unnamed ones, and
// everything of other targets.
func TestStaleTemps(t *testing.T) {
	dir := t.TempDir()
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Skip("no true(1):", err)
	}
	deadPID := dead.ProcessState.Pid()
	if err := syscall.Kill(deadPID, 0); !errors.Is(err, syscall.ESRCH) {
		t.Skipf("pid %d reused already", deadPID)
	}
	files := map[string]bool{ // name: removed
		fmt.Sprintf(".m.model.rosenblatt-tmp-%d-0000abcd", deadPID):      true,
		fmt.Sprintf(".m.model.rosenblatt-tmp-%d-0000abce", os.Getppid()): false, // alive
		fmt.Sprintf(".n.model.rosenblatt-tmp-%d-0000abcd", deadPID):      false, // another target
		fmt.Sprintf(".m.model.rosenblatt-tmp-%d-xyz", deadPID):           false, // no name of ours
		".m.model.tmp-0123abcd": true,  // old, unnamed, 2 h
		".m.model.tmp-0123abce": false, // recent
		"m.model.keep":          false,
	}
	for name := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("partial"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	two := time.Now().Add(-2 * time.Hour)
	if err := os.Chtimes(filepath.Join(dir, ".m.model.tmp-0123abcd"), two, two); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runIn(t, dir, "train", "-q", "-epochs", "2", "-o", "m.model", td("iris.train.libsvm")); code != exitOK {
		t.Fatal(stderr)
	}
	for name, removed := range files {
		_, err := os.Stat(filepath.Join(dir, name))
		if removed != errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: removed %v, want %v", name, err != nil, removed)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "m.model")); err != nil {
		t.Error(err)
	}
}
