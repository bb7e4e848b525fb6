package dataset

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/internal/memtest"
	"github.com/rosenblatt-go/rosenblatt/internal/smalltest"
)

// gzipFile writes text gzip-compressed to dir/name and returns the path
// and the compressed size.
func gzipFile(t *testing.T, dir, name, text string) (string, int) {
	t.Helper()
	p := filepath.Join(dir, name)
	writeGzip(t, p, []byte(text))
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return p, int(fi.Size())
}

// TestGzipRatio: a gzip file of repeated lines (about 1000 bytes of text per
// compressed byte) is refused by LoadLIBSVM, LoadLIBSVMSparse and LoadCSV
// once its text passes DefaultGzipRatio times the compressed bytes plus
// GzipSlack, having allocated about what that much text costs, not what
// the whole file would; MaxGzipRatio < 0 reads it, and a file within the
// ratio reads as before. In a small run (package smalltest) the files
// have half the lines, the CSV one still twice GzipSlack of text.
func TestGzipRatio(t *testing.T) {
	dir := t.TempDir()
	lines := smalltest.N(1<<20, 1<<19)
	lib, zlen := gzipFile(t, dir, "rep.libsvm.gz", strings.Repeat("1 1:1\n", lines))
	csv, _ := gzipFile(t, dir, "rep.csv.gz", strings.Repeat("1,1\n", lines))
	text := 6 * lines
	if text < 64*zlen {
		t.Fatalf("the file compresses only %d×", text/zlen)
	}
	for _, tc := range []struct {
		name string
		load func(ratio int) error
	}{
		{"libsvm", func(r int) error { _, err := LoadLIBSVM[float32](lib, LIBSVMOptions{MaxGzipRatio: r}); return err }},
		{"libsvm-sparse", func(r int) error {
			_, err := LoadLIBSVMSparse[float32](lib, LIBSVMOptions{MaxGzipRatio: r})
			return err
		}},
		{"csv", func(r int) error { _, err := LoadCSV[float32](csv, CSVOptions{MaxGzipRatio: r}); return err }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			alloc := memtest.Allocated(func() { err = tc.load(0) })
			if !errors.Is(err, ErrTooLarge) || !errors.Is(err, ErrGzipRatio) || !strings.Contains(err.Error(), "-gzip-ratio") {
				t.Fatalf("got %v, want ErrTooLarge and ErrGzipRatio naming the flag", err)
			}
			// The text read before the refusal is at most 16 times the
			// compressed bytes read (all of them, at most) plus 1 MiB; the
			// readers take at most 40 bytes per byte of text.
			if bound := uint64(40*(DefaultGzipRatio*zlen+GzipSlack)) + 1<<20; alloc > bound {
				t.Errorf("allocated %d bytes before the refusal, more than %d", alloc, bound)
			}
			if err := tc.load(-1); err != nil {
				t.Errorf("with no ratio: %v", err)
			}
			if err := tc.load(2000); err != nil {
				t.Errorf("with a ratio of 2000: %v", err)
			}
		})
	}
	// Real data compresses a few times: read as before.
	raw, err := os.ReadFile(filepath.Join("testdata", "heart_scale.libsvm"))
	if err != nil {
		t.Skip(err)
	}
	p, _ := gzipFile(t, dir, "heart.libsvm.gz", string(raw))
	if _, err := LoadLIBSVM[float32](p, LIBSVMOptions{}); err != nil {
		t.Fatal(err)
	}
}
