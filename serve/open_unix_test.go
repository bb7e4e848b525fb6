//go:build unix

package serve

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestOpenNonblockFIFO: a FIFO that appears at the model path after its
// stat (the check before the open) is opened at once, not waited on for a
// writer, and its fstat refuses it.
func TestOpenNonblockFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		f, err := openNonblock(fifo)
		if err != nil {
			done <- err
			return
		}
		defer f.Close()
		fi, err := f.Stat()
		if err == nil {
			err = checkModelFile(fifo, fi, 1<<20)
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "is a FIFO, not a regular file") {
			t.Fatalf("the FIFO's fstat: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("opening a FIFO with no writer blocked")
	}
}
