//go:build unix

package serve_test

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rosenblatt-go/rosenblatt/serve"
)

// TestReloadNotRegular: a FIFO (with no writer: opening it to read would
// wait for ever), a directory or a device at the model path is refused
// without being read, at once, and the model in use is kept; /healthz
// says a reload failed and names no path.
func TestReloadNotRegular(t *testing.T) {
	const d = 4
	a := marshal(t, trainBinary[float32](t, 1, 50, d, false))
	s, path, logs := newServer(t, a, serve.Options{})
	va := s.Current().Version
	dir := filepath.Dir(path)
	fifo := filepath.Join(dir, "fifo")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	for _, c := range []struct {
		name, kind string
		put        func()
	}{
		{"FIFO", "a FIFO", func() { require.NoError(t, os.Rename(fifo, path)) }},
		{"directory", "a directory", func() { require.NoError(t, os.Remove(path)); require.NoError(t, os.Mkdir(path, 0o755)) }},
		{"device", "a device", func() { require.NoError(t, os.Remove(path)); require.NoError(t, os.Symlink("/dev/zero", path)) }},
	} {
		c.put()
		err := within(t, "a reload of "+c.name, func() error { _, err := s.Reload(); return err })
		require.ErrorIs(t, err, serve.ErrModel, c.name)
		require.ErrorContains(t, err, c.kind+", not a regular file: refused unread", c.name)
		require.Equal(t, va, s.Current().Version, c.name)
		w := httptest.NewRecorder()
		s.ServeHTTP(w, httptest.NewRequest("GET", "/healthz", nil))
		require.Equal(t, 200, w.Code)
		require.Contains(t, w.Body.String(), `"lastReloadError":"reload failed; see the server log"`)
		require.NotContains(t, w.Body.String(), dir)
		require.Contains(t, logs.String(), c.kind)
	}
}
