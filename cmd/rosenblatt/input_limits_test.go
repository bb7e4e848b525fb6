package main

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// End-to-end tests of the input bounds: what the dataset readers allocate
// is bounded by the input unless -cols (or a model's width) asks for more,
// lines have a maximum length, IDX headers are checked before the data is
// read, and numbers are decimal. They run in process through run.

// gzipFile writes b gzip-compressed to dir/name and returns the path.
func gzipFile(t *testing.T, dir, name string, b []byte) string {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// runIn runs a command line in process in dir and returns its exit code,
// stdout and stderr.
func runIn(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	t.Chdir(dir)
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

// repeatedGzip is 2²⁰ lines of LIBSVM, 4 MiB of text, gzip-compressed
// to a few KB: far more than 16 bytes of text per compressed byte.
var repeatedGzip = func() string {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(strings.Repeat("1 1:1\n-1 2:1\n", 1<<19)))
	zw.Close()
	return b.String()
}()

func TestInputLimits(t *testing.T) {
	tests := []struct {
		name   string
		files  map[string]string // written to the temporary directory first
		args   []string
		code   int
		stderr []string // substrings of stderr
		model  bool     // m.model must exist afterwards
	}{
		{name: "a huge index in a tiny file", files: map[string]string{"big.libsvm": "1 1000000000:1\n"},
			args: []string{"train", "-o", "m.model", "big.libsvm"}, code: exitFail,
			stderr: []string{"big.libsvm: dataset: data set too large: the largest index, 1000000000, makes weights of 1 classes × 1000000000 features", "give the feature count with -cols"}},
		{name: "a huge index in a tiny file, dense", files: map[string]string{"big.libsvm": "1 1000000000:1\n"},
			args: []string{"train", "-dense", "-o", "m.model", "big.libsvm"}, code: exitFail,
			stderr: []string{"big.libsvm:1:3: index 1000000000 makes a 1×1000000000 matrix", "give the feature count (Cols)"}},
		{name: "a huge index and more rows", files: map[string]string{"big.libsvm": "1 1000000000:1\n-1 1:1\n"},
			args: []string{"train", "-o", "m.model", "big.libsvm"}, code: exitFail,
			stderr: []string{"big.libsvm: dataset: data set too large: the largest index, 1000000000, makes weights of 2 classes × 1000000000 features"}},
		{name: "a huge index and more rows, dense", files: map[string]string{"big.libsvm": "1 1000000000:1\n-1 1:1\n"},
			args: []string{"train", "-dense", "-o", "m.model", "big.libsvm"}, code: exitFail,
			stderr: []string{"big.libsvm:2:1: 2 rows of 1000000000 features exceed the limit of 1073741824 values"}},
		{name: "a sparse file without -cols", files: map[string]string{"sparse.libsvm": "1 300000:1\n-1 1:1\n"},
			args: []string{"train", "-o", "m.model", "sparse.libsvm"}, code: exitFail,
			stderr: []string{"sparse.libsvm: dataset: data set too large: the largest index, 300000, makes weights of 2 classes × 300000 features (2400000 bytes), more than the 1052160 bytes these 2 stored values justify"}},
		{name: "a sparse file without -cols, dense", files: map[string]string{"sparse.libsvm": "1 300000:1\n-1 1:1\n"},
			args: []string{"train", "-dense", "-o", "m.model", "sparse.libsvm"}, code: exitFail,
			stderr: []string{"sparse.libsvm:1:3: index 300000 makes a 2×300000 matrix", "more than 18 bytes of input justify"}},
		{name: "-cols asks for the width", files: map[string]string{"sparse.libsvm": "1 300000:1\n-1 1:1\n"},
			args: []string{"train", "-q", "-cols", "300000", "-o", "m.model", "sparse.libsvm"}, code: exitOK, model: true},
		{name: "hexadecimal float", files: map[string]string{"hex.libsvm": "1 1:0.5\n-1 1:0x1p-3\n"},
			args: []string{"train", "-o", "m.model", "hex.libsvm"}, code: exitFail,
			stderr: []string{`hex.libsvm:2:6: value "0x1p-3" is not a number`}},
		{name: "digit separator in CSV", files: map[string]string{"sep.csv": "1,2\n-1,1_000\n"},
			args: []string{"train", "-label-col", "0", "-o", "m.model", "sep.csv"}, code: exitFail,
			stderr: []string{`sep.csv:2:4: value "1_000" is not a number`}},
		{name: "a gzip file of repeated lines", files: map[string]string{"rep.libsvm.gz": repeatedGzip},
			args: []string{"train", "-o", "m.model", "rep.libsvm.gz"}, code: exitFail,
			stderr: []string{"rep.libsvm.gz", "data set too large: the gzip stream decompresses to more than", "16 times the", "-gzip-ratio"}},
		{name: "-gzip-ratio lifts the bound", files: map[string]string{"rep.libsvm.gz": repeatedGzip},
			args: []string{"train", "-q", "-epochs", "1", "-gzip-ratio", "0", "-o", "m.model", "rep.libsvm.gz"}, code: exitOK, model: true},
		{name: "negative -gzip-ratio", files: map[string]string{"rep.libsvm.gz": repeatedGzip},
			args: []string{"train", "-gzip-ratio", "-1", "-o", "m.model", "rep.libsvm.gz"}, code: exitUsage, stderr: []string{"-gzip-ratio -1"}},
		{name: "digit separator in a label", files: map[string]string{"lab.libsvm": "1 1:1\n1_0 1:2\n"},
			args: []string{"train", "-o", "m.model", "lab.libsvm"}, code: exitFail,
			stderr: []string{`lab.libsvm:2:1: label "1_0" is not an integer`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, content := range tt.files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			code, stdout, stderr := runIn(t, dir, tt.args...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.code, stdout, stderr)
			}
			for _, s := range tt.stderr {
				if !strings.Contains(stderr, s) {
					t.Errorf("stderr lacks %q:\n%s", s, stderr)
				}
			}
			if _, err := os.Stat(filepath.Join(dir, "m.model")); (err == nil) != tt.model {
				t.Errorf("m.model exists: %v, want %v", err == nil, tt.model)
			}
		})
	}
}

// TestModelWidthLiftsTheBound checks that predict and eval read a sparse
// file with the model's width, which the user asked for by training it.
func TestModelWidthLiftsTheBound(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "sparse.libsvm"), []byte("1 300000:1\n-1 1:1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runIn(t, dir, "train", "-q", "-cols", "300000", "-o", "m.model", "sparse.libsvm"); code != exitOK {
		t.Fatalf("train: exit %d: %s", code, stderr)
	}
	code, stdout, stderr := runIn(t, dir, "eval", "m.model", "sparse.libsvm")
	if code != exitOK || !strings.Contains(stdout, "2 rows") {
		t.Fatalf("eval: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}

// TestLineLimit feeds train a gzip-compressed file of 65 MiB without a
// newline, with -gzip-ratio 0 (it compresses a thousandfold): it must fail
// at the 64 MiB line limit with the line's position.
func TestLineLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("decompresses 65 MiB")
	}
	dir := t.TempDir()
	gzipFile(t, dir, "zero.libsvm.gz", bytes.Repeat([]byte("1"), 65<<20))
	code, _, stderr := runIn(t, dir, "train", "-gzip-ratio", "0", "-o", "m.model", "zero.libsvm.gz")
	if code != exitFail || !strings.Contains(stderr, "zero.libsvm.gz:1: line longer than 67108864 bytes") {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
}

// TestIDXHeaderLimit gives train a 2 kB gzip-compressed IDX image file
// whose header claims 2 GiB of pixels: it must fail before decompressing.
func TestIDXHeaderLimit(t *testing.T) {
	dir := t.TempDir()
	idx := func(dims ...uint32) []byte {
		b := []byte{0, 0, 8, byte(len(dims))}
		for _, d := range dims {
			b = binary.BigEndian.AppendUint32(b, d)
		}
		return b
	}
	gzipFile(t, dir, "x-images-idx3-ubyte.gz", append(idx(1<<21, 32, 32), make([]byte, 1<<20)...))
	gzipFile(t, dir, "x-labels-idx1-ubyte.gz", append(idx(1<<21), make([]byte, 1<<21)...))
	code, _, stderr := runIn(t, dir, "train", "-o", "m.model", "x-images-idx3-ubyte.gz")
	if code != exitFail || !strings.Contains(stderr, "announce 2147483648 bytes of data, more than the") {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
}
