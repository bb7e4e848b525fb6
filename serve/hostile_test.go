package serve_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/rosenblatt-go/rosenblatt/internal/memtest"
	"github.com/rosenblatt-go/rosenblatt/serve"
)

// stalled is a request body that gives its first bytes, then waits until
// release is closed, then gives the rest.
type stalled struct {
	first, rest []byte
	sent        chan struct{} // closed once first has been read
	release     chan struct{}
	once        sync.Once
}

func newStalled(body []byte, at int) *stalled {
	return &stalled{first: body[:at], rest: body[at:], sent: make(chan struct{}), release: make(chan struct{})}
}

func (s *stalled) Read(p []byte) (int, error) {
	if len(s.first) > 0 {
		n := copy(p, s.first)
		s.first = s.first[n:]
		return n, nil
	}
	s.once.Do(func() { close(s.sent) })
	<-s.release
	if len(s.rest) == 0 {
		return 0, io.EOF
	}
	n := copy(p, s.rest)
	s.rest = s.rest[n:]
	return n, nil
}

// TestDeclaredSizeNotAllocated: a binary header declaring 60 MiB of values
// followed by 100 KB costs about what arrived, not what it declared: the
// body grows with the bytes.
func TestDeclaredSizeNotAllocated(t *testing.T) {
	const d = 16
	s, _, _ := newServer(t, marshal(t, trainBinary[float32](t, 1, 50, d, false)), serve.Options{MaxBodyBytes: 256 << 20})
	const declared = 60 << 20
	req := append(binHeader("RBRQ", 4, 0, declared/(4*d), d), make([]byte, 100_000)...)
	var w *httptest.ResponseRecorder
	alloc := memtest.Allocated(func() {
		r := httptest.NewRequest("POST", "/predict", bytes.NewReader(req))
		r.Header.Set("Content-Type", ctBin)
		w = httptest.NewRecorder()
		s.ServeHTTP(w, r)
	})
	require.Equal(t, 400, w.Code, w.Body.String())
	require.Contains(t, w.Body.String(), "truncated: 100000 value bytes")
	require.Less(t, alloc, uint64(1<<20), "a 60 MiB declaration with 100 KB sent allocated %d bytes", alloc)
	now, peak := serve.InFlight(s)
	require.Zero(t, now)
	require.LessOrEqual(t, peak, int64(2*100_000+64<<10))
}

// TestInflightBudget: the requests in flight hold at most
// MaxInflightBytes; a request that would take the total over it gets 503
// (and Retry-After), one that alone needs more gets 413, both naming the
// flag; what a request held is given back when it ends.
func TestInflightBudget(t *testing.T) {
	const d, budget = 16, 1 << 20
	s, _, _ := newServer(t, marshal(t, trainBinary[float32](t, 1, 50, d, false)), serve.Options{MaxInflightBytes: budget})
	send := func(body io.Reader) *httptest.ResponseRecorder {
		r := httptest.NewRequest("POST", "/predict", body)
		r.Header.Set("Content-Type", ctBin)
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		return w
	}
	rows := func(n int) []byte { return serve.AppendRequest(nil, randRows[float32](uint64(n), n, d), d, false) }

	// A slow request of 460 KiB sends 300 KiB and waits.
	slow := newStalled(rows(7360), 16+300<<10)
	done := make(chan *httptest.ResponseRecorder)
	go func() { done <- send(slow) }()
	<-slow.sent
	now, _ := serve.InFlight(s)
	require.Equal(t, int64(7360*d*4), now, "the slow request holds its body's room")

	// 600 KiB more would take the total over the budget: 503.
	w := send(bytes.NewReader(rows(9600)))
	require.Equal(t, 503, w.Code, w.Body.String())
	require.Contains(t, w.Body.String(), "over the server's in-flight budget of 1 MiB (-max-inflight-bytes)")
	require.Equal(t, "1", w.Header().Get("Retry-After"))
	// A small one is answered.
	require.Equal(t, 200, send(bytes.NewReader(rows(3))).Code)

	close(slow.release)
	w = <-done
	require.Equal(t, 200, w.Code, w.Body.String())

	// 1.2 MiB of values alone: 413.
	w = send(bytes.NewReader(rows(20000)))
	require.Equal(t, 413, w.Code, w.Body.String())
	require.Contains(t, w.Body.String(), "more than the server's in-flight budget of 1 MiB (-max-inflight-bytes)")

	// A JSON body of 600 KB whose values take 96 KB: it is read through
	// the scanner's 16 KiB buffer, so it holds its values (and room to
	// grow them), not its text, and is answered.
	row := "[" + strings.TrimSuffix(strings.Repeat("1.0000000000000000000001,", d), ",") + "]"
	jsonRows := func(n int) []byte {
		return []byte(`{"rows": [` + strings.TrimSuffix(strings.Repeat(row+",", n), ",") + `]}`)
	}
	jb := jsonRows(1500)
	require.Greater(t, len(jb), 600_000)
	alloc := memtest.Allocated(func() {
		r := httptest.NewRequest("POST", "/predict", bytes.NewReader(jb))
		w = httptest.NewRecorder()
		s.ServeHTTP(w, r)
	})
	require.Equal(t, 200, w.Code, w.Body.String())
	if !raceEnabled { // the race detector allocates
		require.Less(t, alloc, uint64(len(jb))*3/4, "a %d-byte JSON body allocated %d bytes", len(jb), alloc)
	}
	// One whose values alone (20000 rows of 16 float32) need more than
	// the budget: 413, naming the flag.
	r := httptest.NewRequest("POST", "/predict", bytes.NewReader(jsonRows(20000)))
	w = httptest.NewRecorder()
	s.ServeHTTP(w, r)
	require.Equal(t, 413, w.Code, w.Body.String())
	require.Contains(t, w.Body.String(), "more than the server's in-flight budget of 1 MiB (-max-inflight-bytes)")

	now, peak := serve.InFlight(s)
	require.Zero(t, now, "every request gives back what it held")
	require.LessOrEqual(t, peak, int64(budget))
	require.Greater(t, peak, int64(budget/2))
}

// TestMaxScores: rows × scores over MaxScores is refused with 413 naming
// the flag, binary (from the header, before the body is read) or JSON
// (however the scores are asked for); without scores, or under the limit,
// the same rows are answered.
func TestMaxScores(t *testing.T) {
	const d = 5
	s, _, _ := newServer(t, marshal(t, trainOVR[float32](t, 3, 90, d)), serve.Options{MaxScores: 30})
	require.Equal(t, 3, s.Current().NumScores)
	jsonRows := func(n int, scores string) []byte {
		rows := make([][]float32, n)
		for i := range rows {
			rows[i] = []float32{1, 2, 3, 4, 5}
		}
		b, _ := json.Marshal(map[string]any{"rows": rows})
		return append(b[:len(b)-1], scores+"}"...)
	}
	for _, c := range []struct {
		name, ct, query string
		body            []byte
		code            int
	}{
		{"binary over", ctBin, "", serve.AppendRequest(nil, randRows[float32](1, 11, d), d, true), 413},
		{"binary header only", ctBin, "", binHeader("RBRQ", 4, 1, 11, d), 413},
		{"binary query over", ctBin, "?scores=1", serve.AppendRequest(nil, randRows[float32](1, 11, d), d, false), 413},
		{"binary without scores", ctBin, "", serve.AppendRequest(nil, randRows[float32](1, 11, d), d, false), 200},
		{"binary at the limit", ctBin, "", serve.AppendRequest(nil, randRows[float32](1, 10, d), d, true), 200},
		{"JSON field after rows", ctJSON, "", jsonRows(11, `,"scores":true`), 413},
		{"JSON query", ctJSON, "?scores=1", jsonRows(11, ""), 413},
		{"JSON without scores", ctJSON, "", jsonRows(11, ""), 200},
		{"JSON at the limit", ctJSON, "", jsonRows(10, `,"scores":true`), 200},
	} {
		r := httptest.NewRequest("POST", "/predict"+c.query, bytes.NewReader(c.body))
		r.Header.Set("Content-Type", c.ct)
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		require.Equal(t, c.code, w.Code, "%s: %s", c.name, w.Body)
		if c.code == 413 {
			require.Contains(t, w.Body.String(), "11 rows × 3 scores make 33 decision values, over the limit of 30 a request (-max-scores)", c.name)
		}
	}
}

// writeRecorder is a ResponseWriter that records its writes' sizes.
type writeRecorder struct {
	h       http.Header
	body    bytes.Buffer
	largest int
}

func (w *writeRecorder) Header() http.Header { return w.h }
func (w *writeRecorder) WriteHeader(int)     {}
func (w *writeRecorder) Write(p []byte) (int, error) {
	w.largest = max(w.largest, len(p))
	return w.body.Write(p)
}

// TestStreamed: a large response goes out in pieces of the writer's
// buffer, never whole, and is the same response.
func TestStreamed(t *testing.T) {
	const d, n = 5, 20000
	m := trainOVR[float32](t, 3, 90, d)
	s, _, _ := newServer(t, marshal(t, m), serve.Options{})
	X := randRows[float32](7, n, d)
	rows := make([][]float32, n)
	for i := range rows {
		rows[i] = X[i*d : (i+1)*d]
	}
	jsonBody, _ := json.Marshal(map[string]any{"rows": rows, "scores": true})
	for _, c := range []struct {
		ct   string
		body []byte
	}{{ctBin, serve.AppendRequest(nil, X, d, true)}, {ctJSON, jsonBody}} {
		r := httptest.NewRequest("POST", "/predict", bytes.NewReader(c.body))
		r.Header.Set("Content-Type", c.ct)
		w := &writeRecorder{h: http.Header{}}
		s.ServeHTTP(w, r)
		require.Greater(t, w.body.Len(), 300_000, c.ct)
		require.LessOrEqual(t, w.largest, 32<<10, "%s: a write of %d bytes of a %d-byte response", c.ct, w.largest, w.body.Len())
		var resp serve.Response
		if c.ct == ctBin {
			require.NoError(t, serve.ParseResponse(&resp, w.body.Bytes()))
		} else {
			require.NoError(t, parseJSON(&resp, w.body.Bytes(), s.Current().Version))
		}
		require.Len(t, resp.Labels, n)
		require.Len(t, resp.Scores, 3*n)
		sc := make([]float32, 3)
		for _, i := range []int{0, n / 2, n - 1} {
			want, _ := m.Predict(X[i*d : (i+1)*d])
			require.Equal(t, want, resp.Labels[i], "%s row %d", c.ct, i)
			require.NoError(t, m.Scores(sc, X[i*d:(i+1)*d]))
			require.Equal(t, float64(sc[1]), resp.Scores[3*i+1], "%s row %d", c.ct, i)
		}
	}
}

// TestConnLimit: Run serves at most MaxConns connections; another waits
// until one closes, then is answered.
func TestConnLimit(t *testing.T) {
	const d = 4
	s, _, _ := newServer(t, marshal(t, trainBinary[float32](t, 1, 50, d, false)), serve.Options{MaxConns: 2})
	url := start(t, s)
	addr := strings.TrimPrefix(url, "http://")
	var idle []net.Conn
	for range 2 {
		c, err := net.Dial("tcp", addr)
		require.NoError(t, err)
		idle = append(idle, c)
	}
	defer func() {
		for _, c := range idle {
			c.Close()
		}
	}()
	// Both slots are taken (the server has accepted both, or will).
	time.Sleep(50 * time.Millisecond)
	client := &http.Client{Timeout: 300 * time.Millisecond, Transport: &http.Transport{DisableKeepAlives: true}}
	_, err := client.Get(url + "/healthz")
	var ne net.Error
	require.True(t, errors.As(err, &ne) && ne.Timeout(), "a third connection was answered: %v", err)
	idle[0].Close()
	client.Timeout = 10 * time.Second
	resp, err := client.Get(url + "/healthz")
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, 200, resp.StatusCode)
}

// slowClients opens n connections that each POST a binary request
// declaring `declared` bytes of values (d features a row), send the
// header and sent value bytes, and wait until stop is closed; it returns
// once all have sent, and a wait that closes them and reports what each
// connection received (nothing, while it waited, is right).
func slowClients(t *testing.T, addr string, n, d, declared, sent int, stop <-chan struct{}) (wait func() []string) {
	t.Helper()
	rows := declared / (4 * d)
	body := append(binHeader("RBRQ", 4, 0, uint32(rows), uint32(d)), make([]byte, sent)...)
	var wg sync.WaitGroup
	got := make([]string, n)
	ready := make(chan struct{}, n)
	for i := range n {
		c, err := net.Dial("tcp", addr)
		require.NoError(t, err)
		wg.Go(func() {
			defer c.Close()
			fmt.Fprintf(c, "POST /predict HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: %d\r\n\r\n", 16+rows*4*d)
			c.Write(body)
			ready <- struct{}{}
			<-stop
			// Whatever the server said while the client waited.
			c.SetReadDeadline(time.Now().Add(20 * time.Millisecond))
			b, _ := io.ReadAll(c)
			got[i] = string(b)
		})
	}
	for range n {
		<-ready
	}
	return func() []string { wg.Wait(); return got }
}

// countingReader counts its Read calls.
type countingReader struct {
	r     io.Reader
	reads int
}

func (c *countingReader) Read(p []byte) (int, error) { c.reads++; return c.r.Read(p) }

// TestContentLengthOverLimit: a body whose Content-Length is over
// MaxBodyBytes is refused with 413 naming -max-body before a byte of it
// is read, and the connection is closed; a body over the limit with no
// Content-Length (chunked) is still refused as it is read.
func TestContentLengthOverLimit(t *testing.T) {
	const d = 4
	m := trainBinary[float32](t, 1, 50, d, false)
	s, _, _ := newServer(t, marshal(t, m), serve.Options{MaxBodyBytes: 4096})
	for _, ct := range []string{ctJSON, ctBin} {
		body := &countingReader{r: strings.NewReader(strings.Repeat(" ", 5000))}
		r := httptest.NewRequest("POST", "/predict", body)
		r.Header.Set("Content-Type", ct)
		r.ContentLength = 70 << 20
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		require.Equal(t, 413, w.Code, w.Body.String())
		require.Contains(t, w.Body.String(), "73400320 bytes (Content-Length) over the limit of 4096 bytes (-max-body)")
		require.Equal(t, "close", w.Header().Get("Connection"))
		require.Zero(t, body.reads, "the body was read")
	}
	// Chunked (ContentLength -1): refused by http.MaxBytesReader as read.
	body := `{"x": [` + strings.Repeat("1,", 3000) + `1]}`
	r := httptest.NewRequest("POST", "/predict", io.NopCloser(strings.NewReader(body)))
	r.ContentLength = -1
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	require.Equal(t, 413, w.Code, w.Body.String())
	require.Contains(t, w.Body.String(), "request body over the limit of 4096 bytes (-max-body)")
}

// TestShutdownIdleConnections: with nothing in flight, Run returns soon
// after its context ends although a connection is open that has sent no
// request (http.Server.Shutdown alone waits 5 s for such a connection)
// and a keep-alive connection is idle; the requests then get nothing.
func TestShutdownIdleConnections(t *testing.T) {
	const d = 4
	m := trainBinary[float32](t, 1, 50, d, false)
	s, _, _ := newServer(t, marshal(t, m), serve.Options{ShutdownTimeout: 20 * time.Second})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx, ln) }()
	url := "http://" + ln.Addr().String()
	resp, err := http.Get(url + "/healthz") // leaves an idle keep-alive connection
	require.NoError(t, err)
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	silent, err := net.Dial("tcp", ln.Addr().String()) // sends nothing
	require.NoError(t, err)
	defer silent.Close()
	time.Sleep(20 * time.Millisecond) // the silent connection is accepted
	cancel()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(3 * time.Second):
		t.Fatal("Run waited for connections with nothing in flight")
	}
}
