package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeString(s string) func(io.Writer) error {
	return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
}

func content(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// noTemps fails if dir holds a temporary file.
func noTemps(t *testing.T, dir string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), tempMarker) {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
}

// TestTargetWrite: a new file is linked into place, an existing one is
// refused without Replace and replaced with it (its mode kept), a file
// that appeared after it was examined is left alone, and a failed write
// leaves nothing behind.
func TestTargetWrite(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out")
	if err := (Target{Path: p}).Write(writeString("one")); err != nil {
		t.Fatal(err)
	}
	if err := (Target{Path: p}).Write(writeString("two")); !errors.Is(err, ErrExists) {
		t.Errorf("second write without Replace: %v, want ErrExists", err)
	}
	if got := content(t, p); got != "one" {
		t.Errorf("content %q after a refused write", got)
	}
	if err := os.Chmod(p, 0o600); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(p)
	if err := (Target{Path: p, Prev: fi, Replace: true}).Write(writeString("three")); err != nil {
		t.Fatal(err)
	}
	if got := content(t, p); got != "three" {
		t.Errorf("content %q, want three", got)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600 kept", fi.Mode().Perm())
	}
	// Prev nil (examined absent), but a file is there now.
	if err := (Target{Path: p, Replace: true}).Write(writeString("four")); !errors.Is(err, ErrChanged) {
		t.Errorf("replacing a file that appeared: %v, want ErrChanged", err)
	}
	boom := errors.New("boom")
	if err := (Target{Path: filepath.Join(dir, "failed")}).Write(func(io.Writer) error { return boom }); !errors.Is(err, boom) {
		t.Errorf("failed write: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "failed")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a failed write created its target: %v", err)
	}
	noTemps(t, dir)
}

// TestReplace: Replace follows a symbolic link and replaces the file it
// points to, creates a new file, and refuses a directory.
func TestReplace(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real")
	if err := os.WriteFile(real, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink("real", link); err != nil {
		t.Skip("no symbolic links:", err)
	}
	if err := Replace(link, writeString("new")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v", err)
	}
	if got := content(t, real); got != "new" {
		t.Errorf("content %q, want new", got)
	}
	if err := Replace(filepath.Join(dir, "fresh"), writeString("x")); err != nil {
		t.Fatal(err)
	}
	if err := Replace(dir, writeString("x")); !errors.Is(err, ErrNotRegular) {
		t.Errorf("replacing a directory: %v, want ErrNotRegular", err)
	}
	noTemps(t, dir)
}
