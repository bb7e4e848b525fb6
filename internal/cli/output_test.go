package cli

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestLineCol(t *testing.T) {
	data := []byte("ab\ncd\n\nef")
	cases := []struct {
		off       int64
		line, col int
	}{{0, 1, 1}, {1, 1, 2}, {2, 1, 3}, {3, 2, 1}, {5, 2, 3}, {6, 3, 1}, {7, 4, 1}, {8, 4, 2}, {9, 4, 3}, {99, 4, 3}, {-1, 1, 1}}
	for _, c := range cases {
		if l, col := LineCol(data, c.off); l != c.line || col != c.col {
			t.Errorf("offset %d: %d:%d, want %d:%d", c.off, l, col, c.line, c.col)
		}
	}
}

func TestWriteOutput(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "out.txt")
	write := func(s string) func(w io.Writer) error {
		return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
	}
	if err := WriteOutput(file, false, nil, write("one")); err != nil {
		t.Fatal(err)
	}
	if err := WriteOutput(file, false, nil, write("two")); !errors.Is(err, ErrExists) {
		t.Errorf("second write without force: %v, want ErrExists", err)
	}
	if err := CheckWritable(file, false); !errors.Is(err, ErrExists) {
		t.Errorf("checkWritable: %v, want ErrExists", err)
	}
	if err := CheckWritable(file, true); err != nil {
		t.Errorf("checkWritable with force: %v", err)
	}
	if b, _ := os.ReadFile(file); string(b) != "one" {
		t.Errorf("content %q after refused write", b)
	}
	if err := WriteOutput(file, true, nil, write("three")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(file); string(b) != "three" {
		t.Errorf("content %q after forced write", b)
	}
	// A failing writer leaves no partial file behind.
	fail := filepath.Join(dir, "fail.txt")
	boom := errors.New("boom")
	if err := WriteOutput(fail, false, nil, func(io.Writer) error { return boom }); !errors.Is(err, boom) {
		t.Errorf("failing writer: %v", err)
	}
	if _, err := os.Stat(fail); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("partial file left: %v", err)
	}
	// A directory that does not exist is an error.
	if err := WriteOutput(filepath.Join(dir, "no", "such.txt"), false, nil, write("x")); err == nil {
		t.Errorf("write into a missing directory succeeded")
	}
}
