//go:build linux

package main

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rosenblatt-go/rosenblatt/expansion"
	"github.com/rosenblatt-go/rosenblatt/internal/modelfile"
	"github.com/rosenblatt-go/rosenblatt/linear"

	"github.com/rosenblatt-go/rosenblatt/internal/benchcmd"
	"github.com/rosenblatt-go/rosenblatt/internal/cli"
	"github.com/rosenblatt-go/rosenblatt/internal/memtest"
)

// Output and input tests that need Linux: /dev/null, /dev/full, /dev/zero,
// device nodes, named pipes, a file-size limit and the child's peak memory.

// fsizeEnv sets RLIMIT_FSIZE (bytes) in the re-executed command, so that
// writing a file past it fails with EFBIG as on a full disk: the write path
// is the real one, only the limit is the test's.
const fsizeEnv = "ROSENBLATT_TEST_FSIZE"

var _ = func() int {
	childSetups = append(childSetups, func() {
		s := os.Getenv(fsizeEnv)
		if s == "" {
			return
		}
		n, err := strconv.ParseUint(s, 10, 64)
		if err == nil {
			err = syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: n, Max: n})
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s=%s: %v\n", fsizeEnv, s, err)
			os.Exit(99)
		}
	})
	return 0
}()

// isCharDevice fails unless path is still a character device.
func isCharDevice(path string) func(t *testing.T, dir, stdout, stderr string) {
	return func(t *testing.T, dir, _, _ string) {
		t.Helper()
		p := path
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		fi, err := os.Lstat(p)
		if err != nil || fi.Mode()&fs.ModeCharDevice == 0 {
			t.Errorf("%s is no longer a character device (%v)", p, err)
		}
		noTempFiles(t, dir)
	}
}

// hasDevice skips the test unless path is a character device.
func hasDevice(path string) func(t *testing.T, dir string) {
	return func(t *testing.T, dir string) {
		if fi, err := os.Stat(path); err != nil || fi.Mode()&fs.ModeCharDevice == 0 {
			t.Skipf("%s is not a character device here", path)
		}
	}
}

// privateFull makes dir/full a device node of its own for /dev/full
// (major 1, minor 7), which a test can afford to lose; it skips without the
// privilege to make one.
func privateFull(t *testing.T, dir string) {
	hasDevice("/dev/full")(t, dir)
	if err := syscall.Mknod(filepath.Join(dir, "full"), syscall.S_IFCHR|0o666, 1<<8|7); err != nil {
		t.Skipf("cannot make a device node: %v", err)
	}
	f, err := os.OpenFile(filepath.Join(dir, "full"), os.O_WRONLY, 0)
	if err != nil {
		t.Skipf("cannot open a device node made here (a nodev mount?): %v", err)
	}
	f.Close()
}

const noSpace = "no space left on device"

var platformCases = []cliCase{
	// Devices are written in place, -f or not, and never removed.
	{name: "train -o /dev/null", setup: hasDevice("/dev/null"), args: []string{"train", "-o", "/dev/null", "{td}/iris.train.libsvm"}, code: exitOK,
		stdout: []string{"saved:          /dev/null"}, check: isCharDevice("/dev/null")},
	{name: "predict -o /dev/null", setup: setups(hasDevice("/dev/null"), trainIris()), args: []string{"predict", "-o", "/dev/null", "iris.model", "{td}/iris.test.libsvm"},
		code: exitOK, quietStdout: true, check: isCharDevice("/dev/null")},
	{name: "train -o /dev/full", setup: hasDevice("/dev/full"), args: []string{"train", "-o", "/dev/full", "{td}/iris.train.libsvm"}, code: exitFail,
		stderr: []string{"/dev/full: write: " + noSpace}, quietStdout: true, check: isCharDevice("/dev/full")},
	{name: "predict -o /dev/full", setup: setups(hasDevice("/dev/full"), trainIris()), args: []string{"predict", "-o", "/dev/full", "iris.model", "{td}/iris.test.libsvm"},
		code: exitFail, stderr: []string{"/dev/full: write: " + noSpace}, check: isCharDevice("/dev/full")},
	{name: "bench -json /dev/full", setup: hasDevice("/dev/full"), args: []string{"bench", "-quick", "-q", "-time", "1us", "-runs", "1", "-paths", "generic", "-json", "/dev/full"},
		code: exitFail, stderr: []string{"/dev/full: write: " + noSpace}, check: isCharDevice("/dev/full")},
	{name: "train -f -o a symbolic link to /dev/full", setup: setups(hasDevice("/dev/full"), symlink("/dev/full", "link.model")),
		args: []string{"train", "-f", "-o", "link.model", "{td}/iris.train.libsvm"}, code: exitFail, stderr: []string{"link.model: write: " + noSpace},
		check: func(t *testing.T, dir, stdout, stderr string) {
			if fi, err := os.Lstat(filepath.Join(dir, "link.model")); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
				t.Errorf("the symbolic link was removed or replaced (%v)", err)
			}
			isCharDevice("/dev/full")(t, dir, stdout, stderr)
		}},
	{name: "train -f -o a device node", setup: privateFull, args: []string{"train", "-f", "-o", "full", "{td}/iris.train.libsvm"}, code: exitFail,
		stderr: []string{"full: write: " + noSpace}, check: isCharDevice("full")},

	// Endless model and report files are refused from their first bytes,
	// or once past the report limit.
	{name: "predict /dev/zero", setup: hasDevice("/dev/zero"), args: []string{"predict", "/dev/zero", "{td}/iris.test.libsvm"}, code: exitFail,
		stderr: []string{"/dev/zero: malformed file: not a model file"}},
	{name: "bench compare /dev/zero", setup: hasDevice("/dev/zero"), args: []string{"bench", "compare", "/dev/zero", "/dev/zero"}, code: exitFail,
		stderr: []string{`/dev/zero:1:1: malformed file: not a rosenblatt bench report (unexpected '\x00': one begins with {"schema")`}},
}

// A write that fails half-way (here: past the file-size limit, EFBIG, as a
// full disk fails) leaves the old file as it was, with -f, and no file at
// all without; no temporary file is left.
func TestAtomicWriteFileSizeLimit(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	mustRun(t, "train", "-q", "-o", "old.model", td("iris.train.libsvm"))
	old, err := os.ReadFile("old.model")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile("old.txt", []byte("old labels\n"), 0o644)
	env := []string{fsizeEnv + "=64"} // a JSON model and the scores are longer
	for _, c := range []struct {
		args []string
		file string // the output file, which must hold want afterwards
		want []byte // nil: must not exist
	}{
		{[]string{"train", "-q", "-f", "-json", "-o", "old.model", td("iris.train.libsvm")}, "old.model", old},
		{[]string{"train", "-q", "-json", "-o", "new.model", td("iris.train.libsvm")}, "new.model", nil},
		{[]string{"predict", "-f", "-scores", "-o", "old.txt", "old.model", td("iris.test.libsvm")}, "old.txt", []byte("old labels\n")},
	} {
		code, stderr, _ := runBinary(t, dir, env, io.Discard, c.args...)
		if code != exitFail || !strings.Contains(stderr, c.file+": write: file too large") {
			t.Errorf("%q: exit %d, stderr %q; want %d and the write error", c.args, code, stderr, exitFail)
		}
		got, err := os.ReadFile(c.file)
		switch {
		case c.want == nil && !errors.Is(err, fs.ErrNotExist):
			t.Errorf("%q: %s exists after a failed write (%v)", c.args, c.file, err)
		case c.want != nil && string(got) != string(c.want):
			t.Errorf("%q: %s = %q after a failed write, want the old %q", c.args, c.file, got, c.want)
		}
		noTempFiles(t, dir)
	}
}

// With standard output on a full device, every command that prints fails
// with exit status 1 and says why.
func TestStdoutFullDevice(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skipf("no /dev/full: %v", err)
	}
	defer full.Close()
	dir := t.TempDir()
	model := filepath.Join(dir, "iris.model")
	mustRun(t, "train", "-q", "-o", model, td("iris.train.libsvm"))
	report := benchReport(t)
	for _, args := range stdoutCases(model, report) {
		code, stderr, _ := runBinary(t, dir, nil, full, args...)
		if code != exitFail || !strings.Contains(stderr, noSpace) {
			t.Errorf("%q > /dev/full: exit %d, stderr %q; want %d and %q", args, code, stderr, exitFail, noSpace)
		}
	}
	if fi, err := os.Stat("/dev/full"); err != nil || fi.Mode()&fs.ModeCharDevice == 0 {
		t.Errorf("/dev/full is gone: %v", err)
	}
}

// Reading a model file that is huge (a 10 GB sparse file) or endless
// (/dev/zero, a pipe that never ends) takes the memory of its header, not
// of the file: loadModel allocates a few buffers, far from what reading the
// file whole would take. (Measured in process: a child's peak resident
// memory as wait4 reports it starts from the parent's.)
func TestModelFileBoundedMemory(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	trainIris()(t, dir)
	model, _ := os.ReadFile("iris.model")
	sparseFile("zero.model", "", tenGB)(t, dir)
	sparseFile("big.model", string(model), tenGB)(t, dir)
	sparseFile("big.json", "{", tenGB)(t, dir)
	hasDevice("/dev/zero")(t, dir)
	endless := servePipe(t, dir, "endless.model", model, true, 0)

	const limit = 16 << 20 // a 64 KiB read buffer and the model, with room to spare
	for _, c := range []struct {
		path string
		want []error
	}{
		{"/dev/zero", []error{cli.ErrMalformed}},
		{"zero.model", []error{cli.ErrMalformed}},
		{"big.model", []error{linear.ErrCorrupt}},
		{"big.json", []error{cli.ErrTooLarge}},
		{endless, []error{linear.ErrCorrupt, cli.ErrTooLarge}},
	} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		err := within(t, c.path, func() error { _, err := loadModel(c.path); return err })
		runtime.ReadMemStats(&after)
		for _, w := range c.want {
			if !errors.Is(err, w) {
				t.Errorf("%s: %v, want an error wrapping %v", c.path, err, w)
			}
		}
		if n := after.TotalAlloc - before.TotalAlloc; n > limit {
			t.Errorf("%s: loadModel allocated %d MiB, want < %d MiB", c.path, n>>20, limit>>20)
		}
	}
}

// feedPipe opens the named pipe for writing, writes head, then bytes of
// value fill without end, until the reader closes the pipe.
func feedPipe(path string, head []byte, fill int) {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return
	}
	defer f.Close()
	if _, err := f.Write(head); err != nil {
		return
	}
	chunk := make([]byte, 64<<10)
	for i := range chunk {
		chunk[i] = byte(fill)
	}
	for {
		if _, err := f.Write(chunk); err != nil {
			return
		}
	}
}

// servePipe makes a named pipe in dir that serves head, then, if endless,
// fill bytes until the reader leaves.
func servePipe(t *testing.T, dir, name string, head []byte, endless bool, fill byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skipf("no named pipes: %v", err)
	}
	go func() {
		if endless {
			feedPipe(p, head, int(fill))
			return
		}
		f, err := os.OpenFile(p, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		f.Write(head)
		f.Close()
	}()
	return p
}

// within runs f, failing the test if it has not returned after a minute
// (reading an endless pipe whole never returns).
func within(t *testing.T, what string, f func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-time.After(time.Minute):
		t.Fatalf("%s: still reading after a minute", what)
		return nil
	}
}

// Model and report files served by a pipe, whose size no stat tells: read
// up to what the header implies (or the limit) and no further.
func TestModelFromPipe(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	trainIris()(t, dir)
	model, _ := os.ReadFile("iris.model")
	oldJSON, oldReport := cli.MaxModel, benchcmd.MaxReport
	t.Cleanup(func() { cli.MaxModel, benchcmd.MaxReport = oldJSON, oldReport })
	cli.MaxModel, benchcmd.MaxReport = 1<<20, 1<<20

	loadFrom := func(name string, head []byte, endless bool, fill byte) error {
		p := servePipe(t, dir, name, head, endless, fill)
		return within(t, name, func() error {
			_, err := loadModel(p)
			return err
		})
	}
	if err := loadFrom("exact.model", model, false, 0); err != nil {
		t.Errorf("a model through a pipe: %v", err)
	}
	// A voted kernel model's size needs more than its header.
	mustRun(t, "train", "-q", "-kernel", "rbf", "-algo", "voted", "-o", "voted.model", td("iris.train.libsvm"))
	voted, _ := os.ReadFile("voted.model")
	if err := loadFrom("voted-pipe.model", voted, false, 0); err != nil {
		t.Errorf("a voted kernel model through a pipe: %v", err)
	}
	if err := loadFrom("voted-padded.model", voted, true, 0); !errors.Is(err, expansion.ErrCorrupt) || !errors.Is(err, cli.ErrTooLarge) {
		t.Errorf("a voted kernel model followed by endless zeros: %v, want ErrCorrupt and cli.ErrTooLarge", err)
	}
	if err := loadFrom("voted-short.model", voted[:200], false, 0); !errors.Is(err, expansion.ErrCorrupt) || !strings.Contains(err.Error(), "truncated") {
		t.Errorf("a truncated voted kernel model: %v, want ErrCorrupt (truncated)", err)
	}
	err := loadFrom("padded.model", model, true, 0)
	if !errors.Is(err, linear.ErrCorrupt) || !errors.Is(err, cli.ErrTooLarge) {
		t.Errorf("a model followed by endless zeros: %v, want ErrCorrupt and cli.ErrTooLarge", err)
	}
	if err := loadFrom("short.model", model[:len(model)-5], false, 0); !errors.Is(err, linear.ErrCorrupt) || !strings.Contains(err.Error(), "truncated") {
		t.Errorf("a truncated model: %v, want ErrCorrupt (truncated)", err)
	}
	if err := loadFrom("spaces.json", []byte("  "), true, ' '); !errors.Is(err, cli.ErrTooLarge) {
		t.Errorf("endless white space: %v, want cli.ErrTooLarge", err)
	}
	if err := loadFrom("endless.json", []byte(`{"labels": [`), true, '1'); !errors.Is(err, cli.ErrTooLarge) {
		t.Errorf("an endless JSON model: %v, want cli.ErrTooLarge", err)
	}
	p := servePipe(t, dir, "endless-report.json", []byte(`{"schema": "`), true, 'x')
	err = within(t, "bench report", func() error { return benchcmd.CheckReport(p) })
	if !errors.Is(err, cli.ErrTooLarge) {
		t.Errorf("an endless bench report: %v, want cli.ErrTooLarge", err)
	}
}

// Model and report files from pipes and devices cost about the bytes that
// arrive, not what a header claims nor twice or four times the limit: a
// binary header implying more than cli.MaxModel is refused before its body, a
// header implying less whose body stops short costs about what was sent,
// an endless JSON model or report about its limit, and a report that does
// not begin as one is refused from its first read. A regular file within
// the limit is read into one slice of its size.
func TestInputReadsBoundedMemory(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	mustRun(t, "train", "-q", "-type", "float64", "-o", "iris64.model", td("iris.train.libsvm"))
	model, err := os.ReadFile("iris64.model")
	if err != nil {
		t.Fatal(err)
	}
	// header returns the model's header claiming d features, and the size
	// it implies.
	header := func(d uint32) ([]byte, int64) {
		h := slices.Clone(model[:40])
		binary.LittleEndian.PutUint32(h[16:], d)
		size, _, err := modelfile.Errors{Corrupt: linear.ErrCorrupt, Version: linear.ErrVersion, Mismatch: linear.ErrMismatch}.EncodedSize(h)
		if err != nil {
			t.Fatal(err)
		}
		return h, size
	}
	oldModel, oldReport := cli.MaxModel, benchcmd.MaxReport
	t.Cleanup(func() { cli.MaxModel, benchcmd.MaxReport = oldModel, oldReport })

	const sent = 48 << 20 // what a pipe sends of a body claimed larger
	huge, hugeSize := header(1 << 30)
	if hugeSize <= cli.MaxModel {
		t.Fatalf("a header of 2^30 float64 features implies %d bytes, want more than cli.MaxModel", hugeSize)
	}
	short, shortSize := header(10 << 20)
	if shortSize <= 2*sent || shortSize > cli.MaxModel {
		t.Fatalf("the header implies %d bytes, want between %d and cli.MaxModel", shortSize, 2*sent)
	}
	short = append(short, make([]byte, sent-len(short))...)
	report := filepath.Join(dir, "regular-report.json")
	if err := os.WriteFile(report, append([]byte(`{"schema": "`), bytes.Repeat([]byte("x"), 24<<20)...), 0o644); err != nil {
		t.Fatal(err)
	}

	const limit = 32 << 20 // cli.MaxModel and benchcmd.MaxReport for the endless JSON files
	hasDevice("/dev/zero")(t, dir)
	for _, c := range []struct {
		name  string
		read  func() error
		want  []error
		bound uint64
	}{
		{"a binary header implying 24 GiB", func() error {
			_, err := loadModel(servePipe(t, dir, "huge.model", huge, true, 0))
			return err
		}, []error{cli.ErrTooLarge}, 1 << 20},
		{"a binary header implying 240 MiB, 48 MiB sent", func() error {
			_, err := loadModel(servePipe(t, dir, "short.model", short, false, 0))
			return err
		}, []error{linear.ErrCorrupt}, sent + sent/8 + 1<<20},
		{"an endless JSON model", func() error {
			cli.MaxModel = limit
			defer func() { cli.MaxModel = oldModel }()
			_, err := loadModel(servePipe(t, dir, "endless.json", []byte(`{"labels": [`), true, '1'))
			return err
		}, []error{cli.ErrTooLarge}, limit + limit/8 + 1<<20},
		{"an endless report", func() error {
			benchcmd.MaxReport = limit
			defer func() { benchcmd.MaxReport = oldReport }()
			err := benchcmd.CheckReport(servePipe(t, dir, "endless-report.json", []byte(`{"schema": "`), true, 'x'))
			return err
		}, []error{cli.ErrTooLarge}, limit + limit/8 + 1<<20},
		{"/dev/zero as a report", func() error {
			err := benchcmd.CheckReport("/dev/zero")
			return err
		}, []error{cli.ErrMalformed}, 1 << 20},
		{"a regular report file of 24 MiB", func() error {
			err := benchcmd.CheckReport(report)
			return err
		}, []error{cli.ErrMalformed}, 24<<20 + 1<<20},
	} {
		var err error
		got := memtest.Allocated(func() { err = within(t, c.name, c.read) })
		for _, w := range c.want {
			if !errors.Is(err, w) {
				t.Errorf("%s: %v, want an error wrapping %v", c.name, err, w)
			}
		}
		if got > c.bound {
			t.Errorf("%s: allocated %.1f MiB, want at most %.1f MiB", c.name, float64(got)/(1<<20), float64(c.bound)/(1<<20))
		}
	}
}
