package serve_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/rosenblatt-go/rosenblatt/serve"
)

// within runs f and fails the test if it has not returned after 5 s.
func within[T any](t *testing.T, what string, f func() T) T {
	t.Helper()
	c := make(chan T, 1)
	go func() { c <- f() }()
	select {
	case v := <-c:
		return v
	case <-time.After(5 * time.Second):
		t.Fatalf("%s did not return", what)
		panic("unreachable")
	}
}

// TestReloadNoLockAcrossIO: a reload blocked in its read does not hold up
// another; the blocked one's outcome, older than the other's, is dropped
// when it returns.
func TestReloadNoLockAcrossIO(t *testing.T) {
	a, b, path := twoModels(t, 4)
	var block atomic.Bool
	started, release := make(chan struct{}), make(chan struct{})
	read := func(p string) ([]byte, error) {
		data, err := os.ReadFile(p)
		if block.CompareAndSwap(true, false) {
			close(started)
			<-release
		}
		return data, err
	}
	s, err := serve.New(path, decode, serve.Options{ReadFile: read, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	require.NoError(t, err)
	va := s.Current().Version

	writeAtomic(t, path, b)
	block.Store(true)
	first := make(chan bool, 1)
	go func() {
		changed, err := s.Reload()
		if err != nil {
			t.Error(err)
		}
		first <- changed
	}()
	<-started // the first reload has read b and waits
	res := within(t, "a reload while another is in its read", func() [2]any {
		changed, err := s.Reload()
		return [2]any{changed, err}
	})
	require.Nil(t, res[1])
	require.Equal(t, true, res[0], "the second reload puts b in use")
	vb := s.Current().Version
	require.NotEqual(t, va, vb)
	writeAtomic(t, path, a)
	_, err = s.Reload()
	require.NoError(t, err)
	require.Equal(t, va, s.Current().Version)

	close(release)
	require.False(t, <-first, "the older reload's b must not replace the newer reload's a")
	require.Equal(t, va, s.Current().Version)
}

// TestReloadTransient: a read that fails with EMFILE is retried at once; one
// that keeps failing with a permission error is not taken as the file's
// state, so Watch tries again at its next looks (the file unchanged), and
// it is logged once.
func TestReloadTransient(t *testing.T) {
	a, b, path := twoModels(t, 4)
	var calls, fail atomic.Int64
	var failWith atomic.Value
	read := func(p string) ([]byte, error) {
		calls.Add(1)
		if fail.Add(-1) >= 0 {
			return nil, &os.PathError{Op: "open", Path: p, Err: failWith.Load().(error)}
		}
		return os.ReadFile(p)
	}
	logs := new(logBuffer)
	s, err := serve.New(path, decode, serve.Options{ReadFile: read, Poll: 5 * time.Millisecond, Logger: slog.New(slog.NewTextHandler(logs, nil))})
	require.NoError(t, err)
	va := s.Current().Version

	writeAtomic(t, path, b)
	failWith.Store(syscall.EMFILE)
	fail.Store(2)
	calls.Store(0)
	changed, err := s.Reload()
	require.NoError(t, err)
	require.True(t, changed)
	require.Equal(t, int64(3), calls.Load(), "two EMFILE, then the read")
	vb := s.Current().Version

	writeAtomic(t, path, a)
	failWith.Store(syscall.EACCES)
	fail.Store(1 << 40)
	calls.Store(0)
	_, err = s.Reload()
	require.ErrorIs(t, err, serve.ErrModel)
	require.ErrorIs(t, err, os.ErrPermission)
	tries := calls.Load()
	require.Greater(t, tries, int64(1), "retried")
	require.Equal(t, vb, s.Current().Version)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go s.Watch(ctx)
	deadline := time.Now().Add(10 * time.Second)
	for calls.Load() < 3*tries && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	require.GreaterOrEqual(t, calls.Load(), 3*tries, "Watch tries the unchanged file again")
	require.Equal(t, 1, strings.Count(logs.String(), "permission denied"), "logged once:\n%s", logs)

	fail.Store(0) // the permission is fixed: the next look loads a
	deadline = time.Now().Add(10 * time.Second)
	for s.Current().Version != va && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	require.Equal(t, va, s.Current().Version)
	w := httptest.NewRecorder()
	s.ServeHTTP(w, httptest.NewRequest("GET", "/healthz", nil))
	require.NotContains(t, w.Body.String(), "lastReloadError")
}

// TestReloadLimit: a model file over MaxModelBytes is refused unread and
// the model in use kept; the error names the limit's flag.
func TestReloadLimit(t *testing.T) {
	const d = 4
	a := marshal(t, trainBinary[float32](t, 1, 50, d, false))
	s, path, logs := newServer(t, a, serve.Options{MaxModelBytes: int64(len(a))})
	va := s.Current().Version
	writeAtomic(t, path, append(marshal(t, trainBinary[float32](t, 1, 50, d, true)), 0))
	_, err := s.Reload()
	require.ErrorIs(t, err, serve.ErrModel)
	require.Contains(t, err.Error(), "more than "+strconv.Itoa(len(a))+" bytes, the limit (-max-model-bytes)")
	require.Equal(t, va, s.Current().Version)
	require.Contains(t, logs.String(), "-max-model-bytes")
}

// TestReloadGuard: a reload to a model of another input width, other
// labels or another kind is refused by default: the model in use stays,
// Reload's error wraps ErrModel and names -allow-model-change, the log
// says so and /healthz says what would have changed; a model of the same
// shape is then put in use (and clears the refusal); with
// AllowModelChange the change is made.
func TestReloadGuard(t *testing.T) {
	a := marshal(t, trainBinary[float32](t, 1, 50, 4, false))
	same := marshal(t, trainBinary[float32](t, 2, 50, 4, true))
	for _, c := range []struct {
		name, what string
		data       []byte
	}{
		{"width", "the input width from 4 to 5", marshal(t, trainBinary[float32](t, 1, 50, 5, false))},
		{"labels", "the labels from [-1 1] to ", marshal(t, trainOVR[float32](t, 1, 90, 4))},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, path, logs := newServer(t, a, serve.Options{Poll: -1})
			va := s.Current().Version
			writeAtomic(t, path, c.data)
			changed, err := s.Reload()
			require.False(t, changed)
			require.ErrorIs(t, err, serve.ErrModel)
			require.Contains(t, err.Error(), c.what)
			require.Contains(t, err.Error(), "-allow-model-change")
			require.Equal(t, va, s.Current().Version)
			require.Contains(t, logs.String(), "-allow-model-change")
			health := func() map[string]any {
				w := httptest.NewRecorder()
				s.ServeHTTP(w, httptest.NewRequest("GET", "/healthz", nil))
				var h map[string]any
				require.NoError(t, json.Unmarshal(w.Body.Bytes(), &h))
				return h
			}
			h := health()
			require.Contains(t, h["lastReloadRefused"], c.what)
			require.Equal(t, va, h["model"])

			writeAtomic(t, path, same)
			changed, err = s.Reload()
			require.NoError(t, err)
			require.True(t, changed)
			require.NotContains(t, health(), "lastReloadRefused")

			s2, path2, _ := newServer(t, a, serve.Options{Poll: -1, AllowModelChange: true})
			writeAtomic(t, path2, c.data)
			changed, err = s2.Reload()
			require.NoError(t, err)
			require.True(t, changed)
		})
	}
}

// TestReloadGuardKind: a model of the same width and labels but another
// kind (a binary perceptron replaced by a binary kernel perceptron, both
// fixtures of package model, read by the default Decoder) is refused too.
func TestReloadGuardKind(t *testing.T) {
	read := func(name string) []byte {
		data, err := os.ReadFile("../model/testdata/fixtures/" + name)
		require.NoError(t, err)
		return data
	}
	path := t.TempDir() + "/m.model"
	writeAtomic(t, path, read("perceptron-binary-f32.model"))
	s, err := serve.New(path, nil, serve.Options{Poll: -1, Logger: slog.New(slog.DiscardHandler)})
	require.NoError(t, err)
	writeAtomic(t, path, read("kernel-perceptron-binary-f32.model"))
	_, err = s.Reload()
	require.ErrorIs(t, err, serve.ErrModel)
	require.Contains(t, err.Error(), `the kind from "binary perceptron" to "binary kernel perceptron"`)
	require.NotContains(t, err.Error(), "input width")
	require.Equal(t, "binary perceptron", s.Current().Kind)
}
