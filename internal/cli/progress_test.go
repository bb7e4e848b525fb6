package cli

import (
	"bytes"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
)

// forceTerminal makes every writer pass for a terminal during the test.
func forceTerminal(t *testing.T) {
	t.Helper()
	old := IsTerminal
	IsTerminal = func(io.Writer) bool { return true }
	t.Cleanup(func() { IsTerminal = old })
}

func TestProgressSilent(t *testing.T) {
	cases := []struct {
		name     string
		quiet    bool
		terminal bool
	}{
		{"not a terminal", false, false},
		{"quiet on a terminal", true, true},
		{"quiet", true, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.terminal {
				forceTerminal(t)
			}
			var buf bytes.Buffer
			p := NewProgress(5, "work", c.quiet, &buf)
			if _, ok := p.(silentProgress); !ok {
				t.Errorf("got %T, want a silent progress", p)
			}
			p.Describe("step")
			p.Add(3)
			p.Add(10) // past the total: still fine
			p.Finish()
			if buf.Len() != 0 {
				t.Errorf("silent Progress wrote %q", buf.String())
			}
		})
	}
}

func TestProgressVisible(t *testing.T) {
	forceTerminal(t)
	old := ProgressThrottle
	ProgressThrottle = 0
	t.Cleanup(func() { ProgressThrottle = old })
	var buf bytes.Buffer
	p := NewProgress(4, "bench", false, &buf)
	if _, ok := p.(*barProgress); !ok {
		t.Fatalf("got %T, want a bar", p)
	}
	// The bar is drawn at once, empty.
	if s := buf.String(); !strings.Contains(s, "bench") || !strings.Contains(s, "0/4") {
		t.Errorf("blank bar %q lacks the description and the count 0/4", s)
	}
	p.Describe("epoch 2")
	p.Add(1)
	p.Add(3)
	p.Finish()
	p.Finish() // a second Finish is harmless
	p.Add(1)   // so is an Add after it
	out := buf.String()
	for _, s := range []string{"epoch 2", "1/4"} {
		if !strings.Contains(out, s) {
			t.Errorf("output %q lacks %q", out, s)
		}
	}
	// The bar erases itself at the end: the last thing written is a
	// carriage return after blanks (or the ANSI erase-line sequence).
	if !strings.HasSuffix(out, "\r") {
		t.Errorf("bar not erased at the end: %q", out[max(len(out)-40, 0):])
	}
}

func TestProgressConcurrent(t *testing.T) {
	forceTerminal(t)
	var buf syncBuffer
	p := NewProgress(400, "epochs", false, &buf)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 100 {
				p.Add(1)
			}
		})
	}
	wg.Wait()
	p.Finish()
	if !strings.Contains(buf.String(), "epochs") {
		t.Errorf("no bar drawn")
	}
}

func TestProgressUnknownTotal(t *testing.T) {
	forceTerminal(t)
	var buf syncBuffer
	p := NewProgress(0, "reading", false, &buf)
	p.Add(7)
	p.Finish()
	if !strings.Contains(buf.String(), "reading") {
		t.Errorf("spinner %q lacks the description", buf.String())
	}
}

func TestIsTerminal(t *testing.T) {
	if IsTerminal(&bytes.Buffer{}) {
		t.Errorf("a buffer is a terminal")
	}
	f, err := os.CreateTemp(t.TempDir(), "x")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if IsTerminal(f) {
		t.Errorf("a regular file is a terminal")
	}
}

// syncBuffer is a bytes.Buffer safe for the bar's concurrent writes.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
