package main

import (
	"bytes"
	"errors"
	"github.com/rosenblatt-go/rosenblatt/internal/cli"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Tests of the output files (atomic writes, the same-file guard, devices)
// and of the bounded reading of model and report files. The cliCases here
// run in process and as the built program, like those of cli_test.go.

// copyTestdata copies testdata files into dir.
func copyTestdata(names ...string) func(t *testing.T, dir string) {
	return func(t *testing.T, dir string) {
		t.Helper()
		for _, n := range names {
			b, err := os.ReadFile(td(n))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, n), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// setups runs several setups in order.
func setups(fs ...func(t *testing.T, dir string)) func(t *testing.T, dir string) {
	return func(t *testing.T, dir string) {
		t.Helper()
		for _, f := range fs {
			f(t, dir)
		}
	}
}

// symlink makes dir/name a symbolic link to target (relative to dir).
func symlink(target, name string) func(t *testing.T, dir string) {
	return func(t *testing.T, dir string) {
		t.Helper()
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Skipf("no symbolic links here: %v", err)
		}
	}
}

// hardlink makes dir/name a hard link of dir/target.
func hardlink(target, name string) func(t *testing.T, dir string) {
	return func(t *testing.T, dir string) {
		t.Helper()
		if err := os.Link(filepath.Join(dir, target), filepath.Join(dir, name)); err != nil {
			t.Skipf("no hard links here: %v", err)
		}
	}
}

// snapshot records the bytes of dir/name at setup; unchanged checks them
// after the run. The tests that use it run one case at a time.
var snapshots = map[string][]byte{}

func snapshot(name string) func(t *testing.T, dir string) {
	return func(t *testing.T, dir string) {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		snapshots[name] = b
	}
}

// unchanged fails unless the files snapshotted are as they were and no
// temporary file is left in dir.
func unchanged(names ...string) func(t *testing.T, dir, stdout, stderr string) {
	return func(t *testing.T, dir, _, _ string) {
		t.Helper()
		for _, n := range names {
			b, err := os.ReadFile(filepath.Join(dir, n))
			if err != nil {
				t.Fatalf("%s: %v (the input must be left alone)", n, err)
			}
			if !bytes.Equal(b, snapshots[n]) {
				t.Errorf("%s changed: %d bytes, was %d (the input must be left alone)", n, len(b), len(snapshots[n]))
			}
		}
		noTempFiles(t, dir)
	}
}

// noTempFiles fails if dir holds a temporary output file.
func noTempFiles(t *testing.T, dir string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}

// sparseFile creates dir/name holding head, then extended with zeros (a
// hole, no disk space) to size bytes.
func sparseFile(name, head string, size int64) func(t *testing.T, dir string) {
	return func(t *testing.T, dir string) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(head), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Truncate(p, size); err != nil {
			t.Skipf("cannot make a %d-byte sparse file here: %v", size, err)
		}
	}
}

// irisModelExtended returns a setup writing the iris model, then extending it
// with a hole to size bytes.
func irisModelExtended(name string, size int64) func(t *testing.T, dir string) {
	return func(t *testing.T, dir string) {
		t.Helper()
		trainIris()(t, dir)
		b, err := os.ReadFile(filepath.Join(dir, "iris.model"))
		if err != nil {
			t.Fatal(err)
		}
		sparseFile(name, string(b), size)(t, dir)
	}
}

const tenGB = 10 << 30

var sameFile = "the output is an input file"

var outputCases = []cliCase{
	// The same-file guard: -o naming an input is refused, -f or not, and
	// the input is left as it was.
	{name: "train -o DATA", setup: setups(copyTestdata("iris.train.libsvm"), snapshot("iris.train.libsvm")),
		args: []string{"train", "-o", "iris.train.libsvm", "iris.train.libsvm"}, code: exitFail,
		stderr: []string{"iris.train.libsvm: " + sameFile + " iris.train.libsvm", "refused even with -f"},
		check:  unchanged("iris.train.libsvm")},
	{name: "train -f -o DATA", setup: setups(copyTestdata("iris.train.libsvm"), snapshot("iris.train.libsvm")),
		args: []string{"train", "-f", "-o", "iris.train.libsvm", "iris.train.libsvm"}, code: exitFail,
		stderr: []string{sameFile}, check: unchanged("iris.train.libsvm")},
	{name: "train -f -o a symbolic link to DATA", setup: setups(copyTestdata("iris.train.libsvm"), symlink("iris.train.libsvm", "link.model"), snapshot("iris.train.libsvm")),
		args: []string{"train", "-f", "-o", "link.model", "iris.train.libsvm"}, code: exitFail,
		stderr: []string{"link.model: " + sameFile + " iris.train.libsvm"}, check: unchanged("iris.train.libsvm")},
	{name: "train -f -o a hard link of DATA", setup: setups(copyTestdata("iris.train.libsvm"), hardlink("iris.train.libsvm", "hard.model"), snapshot("iris.train.libsvm")),
		args: []string{"train", "-f", "-o", "hard.model", "iris.train.libsvm"}, code: exitFail,
		stderr: []string{"hard.model: " + sameFile}, check: unchanged("iris.train.libsvm")},
	{name: "train -f -o the -test file", setup: setups(copyTestdata("iris.train.libsvm", "iris.test.libsvm"), snapshot("iris.test.libsvm")),
		args: []string{"train", "-f", "-test", "iris.test.libsvm", "-o", "iris.test.libsvm", "iris.train.libsvm"}, code: exitFail,
		stderr: []string{sameFile + " iris.test.libsvm"}, check: unchanged("iris.test.libsvm")},
	{name: "train -f -o the IDX label file", setup: setups(copyTestdata("tiny-images-idx3-ubyte", "tiny-labels-idx1-ubyte"), snapshot("tiny-labels-idx1-ubyte")),
		args: []string{"train", "-f", "-o", "tiny-labels-idx1-ubyte", "tiny-images-idx3-ubyte"}, code: exitFail,
		stderr: []string{sameFile + " tiny-labels-idx1-ubyte"}, check: unchanged("tiny-labels-idx1-ubyte")},
	{name: "predict -f -o MODEL", setup: setups(trainIris(), snapshot("iris.model")),
		args: []string{"predict", "-f", "-o", "iris.model", "iris.model", "{td}/iris.test.libsvm"}, code: exitFail,
		stderr: []string{"iris.model: " + sameFile + " iris.model"}, check: unchanged("iris.model")},
	{name: "predict -f -o DATA", setup: setups(trainIris(), copyTestdata("iris.test.libsvm"), snapshot("iris.test.libsvm")),
		args: []string{"predict", "-f", "-o", "iris.test.libsvm", "iris.model", "iris.test.libsvm"}, code: exitFail,
		stderr: []string{sameFile + " iris.test.libsvm"}, check: unchanged("iris.test.libsvm")},

	// -f through a symbolic link replaces the file it points to, not the
	// link.
	{name: "train -f -o a symbolic link to an old model", setup: setups(writeFile("old.model", "old"), symlink("old.model", "link.model")),
		args: []string{"train", "-q", "-f", "-o", "link.model", "{td}/iris.train.libsvm"}, code: exitOK,
		check: func(t *testing.T, dir, _, _ string) {
			if fi, err := os.Lstat(filepath.Join(dir, "link.model")); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
				t.Errorf("link.model is no longer a symbolic link (%v)", err)
			}
			loadModel32(t, filepath.Join(dir, "old.model"))
			noTempFiles(t, dir)
		}},
	{name: "train -o a dangling symbolic link", setup: symlink("new.model", "link.model"),
		args: []string{"train", "-q", "-o", "link.model", "{td}/iris.train.libsvm"}, code: exitFail, stderr: []string{"link.model: file exists"}},
	{name: "train -f -o a dangling symbolic link", setup: symlink("new.model", "link.model"),
		args: []string{"train", "-q", "-f", "-o", "link.model", "{td}/iris.train.libsvm"}, code: exitOK,
		check: func(t *testing.T, dir, _, _ string) { loadModel32(t, filepath.Join(dir, "new.model")) }},
	{name: "train -f -o a directory", setup: func(t *testing.T, dir string) { os.Mkdir(filepath.Join(dir, "d"), 0o755) },
		args: []string{"train", "-q", "-f", "-o", "d", "{td}/iris.train.libsvm"}, code: exitFail, stderr: []string{"d: is a directory"}},

	// A voted kernel model, whose size its reader learns in two steps.
	{name: "predict a voted kernel model", setup: trainIris("-kernel", "rbf", "-algo", "voted"),
		args: []string{"predict", "iris.model", "{td}/iris.test.libsvm"}, code: exitOK, check: checkPredictions(0)},

	// Model and report files are checked from their first bytes and read
	// no further than their header (or limit) allows: a 10 GB file is
	// refused without being read.
	{name: "predict a 10 GB model of zeros", setup: sparseFile("zero.model", "", tenGB),
		args: []string{"predict", "zero.model", "{td}/iris.test.libsvm"}, code: exitFail,
		stderr: []string{"zero.model: malformed file: not a model file"}},
	{name: "predict a model padded to 10 GB", setup: irisModelExtended("big.model", tenGB),
		args: []string{"predict", "big.model", "{td}/iris.test.libsvm"}, code: exitFail,
		stderr: []string{"big.model: linear: corrupt model file: the header implies", "the file has 10737418240 (truncated or padded)"}},
	{name: "eval a 10 GB JSON model", setup: sparseFile("big.json", "{", tenGB),
		args: []string{"eval", "big.json", "{td}/iris.test.libsvm"}, code: exitFail,
		stderr: []string{"big.json: file too large: 10 GiB, more than the limit of 1 GiB"}},
	{name: "eval a model whose header claims more than the file", setup: func(t *testing.T, dir string) {
		trainIris()(t, dir)
		b, _ := os.ReadFile(filepath.Join(dir, "iris.model"))
		b[16] = 0xff // features: the header implies a larger file
		writeFile("short.model", string(b))(t, dir)
	}, args: []string{"eval", "short.model", "{td}/iris.test.libsvm"}, code: exitFail,
		stderr: []string{"short.model: linear: corrupt model file:", "the header implies", "truncated"}},
	{name: "bench compare a 10 GB report", setup: sparseFile("big.json", "{", tenGB),
		args: []string{"bench", "compare", "big.json", "big.json"}, code: exitFail,
		stderr: []string{"big.json: file too large: 10 GiB, more than the 64 MiB this command reads"}},
}

// Every write error of standard output is exit status 1 with a message,
// in every command that prints (in process: a writer that fails).
func TestStdoutWriteErrors(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "iris.model")
	mustRun(t, "train", "-q", "-o", model, td("iris.train.libsvm"))
	report := benchReport(t)
	full := errors.New("no room left")
	for _, c := range stdoutCases(model, report) {
		for _, after := range []int{0, 10} { // the first write fails, or a later one
			t.Run(strings.Join(c, " "), func(t *testing.T) {
				var errb bytes.Buffer
				w := &failingWriter{after: after, err: full}
				if code := run(c, w, &errb); code != exitFail {
					t.Fatalf("exit %d, want %d; stderr %q", code, exitFail, errb.String())
				}
				if !strings.Contains(errb.String(), "no room left") {
					t.Errorf("stderr does not report the write error: %q", errb.String())
				}
			})
		}
	}
}

// stdoutCases are the command lines that print to standard output.
func stdoutCases(model, report string) [][]string {
	return [][]string{
		{"help"},
		{"demo", "-epochs", "2"},
		{"cpu"},
		{"train", "-f", "-epochs", "3", "-o", model, td("iris.train.libsvm")},
		{"predict", model, td("iris.test.libsvm")},
		{"predict", "-o", "/dev/stdout", model, td("iris.test.libsvm")},
		{"train", "-json", "-o", "-", td("iris.train.libsvm")},
		{"eval", model, td("iris.test.libsvm")},
		{"bench", "compare", report, report},
	}
}

// failingWriter accepts after bytes, then fails.
type failingWriter struct {
	after int
	err   error
}

func (w *failingWriter) Write(p []byte) (int, error) {
	if len(p) <= w.after {
		w.after -= len(p)
		return len(p), nil
	}
	n := w.after
	w.after = 0
	return n, w.err
}

func TestWriteOutputAtomic(t *testing.T) {
	write := func(s string) func(w io.Writer) error {
		return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
	}
	boom := errors.New("boom")
	failAfter := func(s string) func(w io.Writer) error {
		return func(w io.Writer) error { io.WriteString(w, s); return boom }
	}
	t.Run("a failed write with -f leaves the old file", func(t *testing.T) {
		dir := t.TempDir()
		file := filepath.Join(dir, "m.model")
		os.WriteFile(file, []byte("old"), 0o644)
		if err := cli.WriteOutput(file, true, nil, failAfter("partial new content")); !errors.Is(err, boom) {
			t.Fatalf("got %v, want boom", err)
		}
		fileContent(t, dir, "m.model", "old")
		noTempFiles(t, dir)
	})
	t.Run("a failed write leaves no file", func(t *testing.T) {
		dir := t.TempDir()
		if err := cli.WriteOutput(filepath.Join(dir, "m.model"), false, nil, failAfter("partial")); !errors.Is(err, boom) {
			t.Fatalf("got %v, want boom", err)
		}
		if ents, _ := os.ReadDir(dir); len(ents) != 0 {
			t.Errorf("left %v", ents)
		}
	})
	t.Run("a file that appears during the write is kept", func(t *testing.T) {
		dir := t.TempDir()
		file := filepath.Join(dir, "m.model")
		err := cli.WriteOutput(file, false, nil, func(w io.Writer) error {
			os.WriteFile(file, []byte("theirs"), 0o644) // another process
			_, err := io.WriteString(w, "ours")
			return err
		})
		if !errors.Is(err, cli.ErrExists) {
			t.Fatalf("got %v, want cli.ErrExists", err)
		}
		fileContent(t, dir, "m.model", "theirs")
		noTempFiles(t, dir)
	})
	t.Run("with -f, a file swapped during the write is kept", func(t *testing.T) {
		dir := t.TempDir()
		file := filepath.Join(dir, "m.model")
		os.WriteFile(file, []byte("old"), 0o644)
		err := cli.WriteOutput(file, true, nil, func(w io.Writer) error {
			// Another process renames its file over the target (made
			// before the old one goes, so it cannot reuse its inode).
			other := filepath.Join(dir, "other")
			os.WriteFile(other, []byte("theirs"), 0o644)
			os.Rename(other, file)
			_, err := io.WriteString(w, "ours")
			return err
		})
		if !errors.Is(err, cli.ErrChanged) {
			t.Fatalf("got %v, want cli.ErrChanged", err)
		}
		fileContent(t, dir, "m.model", "theirs")
		noTempFiles(t, dir)
	})
	t.Run("-f keeps the permission bits; a new file has those of any new file", func(t *testing.T) {
		dir := t.TempDir()
		file := filepath.Join(dir, "m.model")
		os.WriteFile(file, []byte("old"), 0o600)
		os.Chmod(file, 0o640)
		if err := cli.WriteOutput(file, true, nil, write("new")); err != nil {
			t.Fatal(err)
		}
		fileContent(t, dir, "m.model", "new")
		if fi, _ := os.Stat(file); fi.Mode().Perm() != 0o640 {
			t.Errorf("replaced file has mode %v, want the old 0640", fi.Mode().Perm())
		}
		ref := filepath.Join(dir, "ref")
		os.WriteFile(ref, nil, 0o644) // 0644 minus the umask
		fresh := filepath.Join(dir, "fresh.model")
		if err := cli.WriteOutput(fresh, false, nil, write("x")); err != nil {
			t.Fatal(err)
		}
		a, _ := os.Stat(ref)
		b, _ := os.Stat(fresh)
		if a.Mode() != b.Mode() {
			t.Errorf("new output file has mode %v, a file created with 0644 has %v", b.Mode(), a.Mode())
		}
	})
	t.Run("the same file as an input", func(t *testing.T) {
		dir := t.TempDir()
		in := filepath.Join(dir, "data")
		os.WriteFile(in, []byte("data"), 0o644)
		for _, force := range []bool{false, true} {
			if err := cli.CheckWritable(in, force, "x", in); !errors.Is(err, cli.ErrSameFile) {
				t.Errorf("cli.CheckWritable(force %v): %v, want cli.ErrSameFile", force, err)
			}
			if err := cli.WriteOutput(in, force, []string{in}, write("out")); !errors.Is(err, cli.ErrSameFile) {
				t.Errorf("cli.WriteOutput(force %v): %v, want cli.ErrSameFile", force, err)
			}
		}
		fileContent(t, dir, "data", "data")
		// Inputs that do not exist (yet) are no reason to refuse.
		if err := cli.CheckWritable(filepath.Join(dir, "new"), false, filepath.Join(dir, "missing")); err != nil {
			t.Errorf("new output, missing input: %v", err)
		}
	})
}

// runBinary runs the test binary as the command in dir with stdout, and
// returns its exit status, stderr and process state. It skips the test
// where the binary cannot be executed (see TestCLIBinary).
func runBinary(t *testing.T, dir string, env []string, stdout io.Writer, args ...string) (int, string, *os.ProcessState) {
	t.Helper()
	if err := binaryProbe(); err != nil {
		t.Skipf("cannot execute the test binary here: %v", err)
	}
	cmd := exec.Command(os.Args[0], args...)
	cmd.Dir = dir
	cmd.Env = append(commandEnv(), env...)
	var errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = stdout, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatalf("running the binary: %v", err)
	}
	return cmd.ProcessState.ExitCode(), errb.String(), cmd.ProcessState
}
