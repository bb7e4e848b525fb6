//go:build unix

package main

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// Outputs that name one of the process's descriptors (-, /dev/stdout,
// /proc/self/fd/N, /dev/fd/N, a link to one of them) are written to that
// descriptor in place: appended to what a shell's >> opened, never
// renamed over, no -f needed; and a descriptor, or standard output itself,
// that is one of the inputs is refused. Each case runs in process (run
// with an *os.File as standard output) and as the built program.

// fdCase is a command line run with standard output, and maybe descriptor
// 3, on files of the case's directory.
type fdCase struct {
	name string
	args []string // {td}: testdata; {fd}: the number of the extra descriptor
	// out is the file standard output goes to, opened as >> opens it
	// (after writing "OLD\n" to it if it is new), or as > does if trunc.
	out   string
	trunc bool
	// extra, if set, is a file opened as out is (for appending) and given
	// to the command as an extra descriptor ({fd}).
	extra string
	code  int
	// stderr holds substrings of the standard error.
	stderr []string
	// files are what files of the directory must hold afterwards.
	files map[string]string
}

func TestOutputToDescriptor(t *testing.T) {
	base := t.TempDir()
	trainIris()(t, base)
	copyTestdata("iris.test.libsvm")(t, base)
	labels := mustRun(t, "predict", filepath.Join(base, "iris.model"), td("iris.test.libsvm"))
	model, _ := os.ReadFile(filepath.Join(base, "iris.model"))
	data, _ := os.ReadFile(filepath.Join(base, "iris.test.libsvm"))
	report := benchReport(t)
	reportData, _ := os.ReadFile(report)
	sameFile := []string{"the output is an input file"}
	cases := []fdCase{
		// Written in place.
		{name: "train -f -o /dev/stdout -json >> log", args: []string{"train", "-f", "-o", "/dev/stdout", "-json", "{td}/iris.train.libsvm"},
			out: "log", stderr: []string{"saved:          /dev/stdout (JSON"}, files: map[string]string{"log": "OLD\n{\"format\":\"rosenblatt-perceptron\"*"}},
		{name: "predict -o /dev/stdout > out", args: []string{"predict", "-o", "/dev/stdout", "iris.model", "iris.test.libsvm"},
			out: "out", trunc: true, files: map[string]string{"out": labels}},
		{name: "predict -o /dev/stdout >> log", args: []string{"predict", "-o", "/dev/stdout", "iris.model", "iris.test.libsvm"},
			out: "log", files: map[string]string{"log": "OLD\n" + labels}},
		{name: "predict -f -o /proc/self/fd/1 >> log", args: []string{"predict", "-f", "-o", "/proc/self/fd/1", "iris.model", "iris.test.libsvm"},
			out: "log", files: map[string]string{"log": "OLD\n" + labels}},
		{name: "predict -o - >> log", args: []string{"predict", "-o", "-", "iris.model", "iris.test.libsvm"},
			out: "log", files: map[string]string{"log": "OLD\n" + labels}},
		{name: "predict -o /dev/fd/N N>> log", args: []string{"predict", "-o", "/dev/fd/{fd}", "iris.model", "iris.test.libsvm"},
			out: "out", extra: "log", files: map[string]string{"log": "OLD\n" + labels, "out": "OLD\n"}},
		{name: "predict -f -o a link to /dev/stdout >> log", args: []string{"predict", "-f", "-o", "stdout.link", "iris.model", "iris.test.libsvm"},
			out: "log", files: map[string]string{"log": "OLD\n" + labels}},
		{name: "predict -f -o fds/1 >> log, fds a link to /dev/fd", args: []string{"predict", "-f", "-o", "fds/1", "iris.model", "iris.test.libsvm"},
			out: "log", files: map[string]string{"log": "OLD\n" + labels}},
		{name: "predict -o /dev/fd/N of a closed descriptor", args: []string{"predict", "-o", "/dev/fd/987", "iris.model", "iris.test.libsvm"},
			out: "out", code: exitFail, stderr: []string{"/dev/fd/987: dup: bad file descriptor"}, files: map[string]string{"out": "OLD\n"}},

		// The same-file guard, for descriptors and standard output.
		{name: "predict -o /dev/stdout >> DATA", args: []string{"predict", "-o", "/dev/stdout", "iris.model", "iris.test.libsvm"},
			out: "iris.test.libsvm", code: exitFail, stderr: sameFile, files: map[string]string{"iris.test.libsvm": string(data)}},
		{name: "predict -o /dev/fd/N N>> MODEL", args: []string{"predict", "-o", "/dev/fd/{fd}", "iris.model", "iris.test.libsvm"},
			out: "out", extra: "iris.model", code: exitFail, stderr: sameFile, files: map[string]string{"iris.model": string(model)}},
		{name: "predict >> DATA", args: []string{"predict", "iris.model", "iris.test.libsvm"},
			out: "iris.test.libsvm", code: exitFail, stderr: []string{"standard output: the output is an input file iris.test.libsvm"},
			files: map[string]string{"iris.test.libsvm": string(data)}},
		{name: "predict >> MODEL", args: []string{"predict", "iris.model", "iris.test.libsvm"},
			out: "iris.model", code: exitFail, stderr: sameFile, files: map[string]string{"iris.model": string(model)}},
		{name: "eval >> DATA", args: []string{"eval", "iris.model", "iris.test.libsvm"},
			out: "iris.test.libsvm", code: exitFail, stderr: sameFile, files: map[string]string{"iris.test.libsvm": string(data)}},
		{name: "train -test DATA >> DATA", args: []string{"train", "-o", "new.model", "-test", "iris.test.libsvm", "{td}/iris.train.libsvm"},
			out: "iris.test.libsvm", code: exitFail, stderr: sameFile, files: map[string]string{"iris.test.libsvm": string(data)}},
		{name: "bench compare R R >> R", args: []string{"bench", "compare", "report.json", "report.json"},
			out: "report.json", code: exitFail, stderr: sameFile, files: map[string]string{"report.json": string(reportData)}},
		// Nothing written to standard output, nothing to refuse.
		{name: "train -q -test DATA >> DATA", args: []string{"train", "-q", "-o", "new.model", "-test", "iris.test.libsvm", "{td}/iris.train.libsvm"},
			out: "iris.test.libsvm", files: map[string]string{"iris.test.libsvm": string(data)}},
	}
	setup := func(t *testing.T) string {
		dir := t.TempDir()
		for name, b := range map[string][]byte{"iris.model": model, "iris.test.libsvm": data, "report.json": reportData} {
			if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		symlink("/dev/stdout", "stdout.link")(t, dir)
		symlink("/dev/fd", "fds")(t, dir)
		return dir
	}
	// open opens dir/name as the shell does for >> (or > if trunc),
	// writing "OLD\n" to a new file first.
	open := func(t *testing.T, dir, name string, trunc bool) *os.File {
		p := filepath.Join(dir, name)
		if _, err := os.Stat(p); errors.Is(err, fs.ErrNotExist) {
			os.WriteFile(p, []byte("OLD\n"), 0o644)
		}
		flags := os.O_WRONLY | os.O_APPEND
		if trunc {
			flags = os.O_WRONLY | os.O_TRUNC
		}
		f, err := os.OpenFile(p, flags, 0)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	check := func(t *testing.T, c fdCase, dir string, code int, stderr string) {
		t.Helper()
		if code != c.code {
			t.Fatalf("exit %d, want %d; stderr %q", code, c.code, stderr)
		}
		for _, s := range c.stderr {
			if !strings.Contains(stderr, s) {
				t.Errorf("stderr lacks %q: %q", s, stderr)
			}
		}
		for name, want := range c.files {
			got, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			if prefix, ok := strings.CutSuffix(want, "*"); ok {
				if !bytes.HasPrefix(got, []byte(prefix)) {
					t.Errorf("%s starts with %.60q, want %q", name, got, prefix)
				}
			} else if string(got) != want {
				t.Errorf("%s = %.80q (%d bytes), want %.80q (%d bytes)", name, got, len(got), want, len(want))
			}
		}
		if fi, err := os.Lstat(filepath.Join(dir, "stdout.link")); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			t.Errorf("stdout.link is no longer a symbolic link (%v)", err)
		}
		noTempFiles(t, dir)
	}
	for _, c := range cases {
		expand := func(fd int) []string {
			args := make([]string, len(c.args))
			r := strings.NewReplacer("{td}", filepath.Join(pkgDir, "testdata"), "{fd}", strconv.Itoa(fd))
			for i, a := range c.args {
				args[i] = r.Replace(a)
			}
			return args
		}
		t.Run(c.name+"/in process", func(t *testing.T) {
			dir := setup(t)
			t.Chdir(dir)
			out := open(t, dir, c.out, c.trunc)
			fd := -1
			if c.extra != "" {
				fd = int(open(t, dir, c.extra, false).Fd())
			}
			var errb bytes.Buffer
			code := run(expand(fd), out, &errb)
			check(t, c, dir, code, errb.String())
		})
		t.Run(c.name+"/binary", func(t *testing.T) {
			if err := binaryProbe(); err != nil {
				t.Skipf("cannot execute the test binary here: %v", err)
			}
			dir := setup(t)
			cmd := exec.Command(os.Args[0], expand(3)...)
			cmd.Dir = dir
			cmd.Env = commandEnv()
			cmd.Stdout = open(t, dir, c.out, c.trunc)
			if c.extra != "" {
				cmd.ExtraFiles = []*os.File{open(t, dir, c.extra, false)}
			}
			var errb bytes.Buffer
			cmd.Stderr = &errb
			err := cmd.Run()
			var ee *exec.ExitError
			if err != nil && !errors.As(err, &ee) {
				t.Fatalf("running the binary: %v", err)
			}
			check(t, c, dir, cmd.ProcessState.ExitCode(), errb.String())
		})
	}
}

// mkfifo makes a named pipe dir/name.fifo and returns its path.
func mkfifo(t *testing.T, dir, name string) string {
	t.Helper()
	p := filepath.Join(dir, name+".fifo")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
