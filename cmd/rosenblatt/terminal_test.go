package main

import (
	"bytes"
	"io"
	"sync"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/internal/cli"
)

// forceTerminal makes every writer pass for a terminal during the test.
func forceTerminal(t *testing.T) {
	t.Helper()
	old := cli.IsTerminal
	cli.IsTerminal = func(io.Writer) bool { return true }
	t.Cleanup(func() { cli.IsTerminal = old })
}

// syncBuffer is a bytes.Buffer safe for concurrent writes (a server's
// log).
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
