package serve

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// linearStub is a 3-class linear model whose scores, and so its label, depend
// on every feature: a response tells the values the server scored.
type linearStub[T kernel.Float] struct{ d int }

func (m linearStub[T]) Dims() int      { return m.d }
func (m linearStub[T]) Classes() []int { return []int{0, 1, 2} }
func (m linearStub[T]) NumScores() int { return 3 }
func (m linearStub[T]) Scores(dst, x []T) error {
	for c := range dst {
		var s T
		for j, v := range x {
			s += T(math.Sin(float64(1+c*m.d+j))) * v
		}
		dst[c] = s + T(c)/8
	}
	return nil
}
func (m linearStub[T]) Predict(x []T) (int, error) {
	var sc [3]T
	m.Scores(sc[:], x)
	best := 0
	for c := range sc {
		if sc[c] > sc[best] {
			best = c
		}
	}
	return best, nil
}

// testServer returns a server of model m.
func testServer(t testing.TB, m Model) *Server {
	t.Helper()
	path := filepath.Join(t.TempDir(), "m.model")
	if err := os.WriteFile(path, []byte("model"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := New(path, func(string, []byte) (Model, error) { return m, nil },
		Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// exchange sends one request through buffers b (not the pool) and returns
// what the client sees: status, Content-Type and body.
func exchange(s *Server, b *buffers, ct, query string, body []byte) string {
	r := httptest.NewRequest("POST", "/predict"+query, bytes.NewReader(body))
	if ct != "" {
		r.Header.Set("Content-Type", ct)
	}
	w := httptest.NewRecorder()
	if e := s.answer(w, r, ct, s.first(), b); e != nil {
		fail(w, e)
	}
	b.done()
	return fmt.Sprintf("%d %s\n%s", w.Code, w.Header().Get("Content-Type"), w.Body)
}

// priors are requests that fill every buffer with values of their own
// (scaled by v): batches with scores, JSON and binary, a row longer than
// the model's, a single sample.
func priors(d int, v float64) []struct {
	ct   string
	body []byte
} {
	var rows []string
	X := make([]float64, 0, 40*d)
	for i := range 40 {
		f := make([]string, d)
		for j := range f {
			x := v * float64(1+i*d+j) / 7
			f[j] = fmt.Sprint(x)
			X = append(X, x)
		}
		rows = append(rows, "["+strings.Join(f, ",")+"]")
	}
	long := make([]string, 8*d)
	for j := range long {
		long[j] = fmt.Sprint(v * float64(j+3))
	}
	return []struct {
		ct   string
		body []byte
	}{
		{"application/json", []byte(`{"scores": true, "rows": [` + strings.Join(rows, ",") + `]}`)},
		{"application/octet-stream", AppendRequest(nil, X, d, true)},
		{"application/octet-stream", AppendRequest(nil, []float32{float32(v), 2, 3, 4, 5, 6, 7, 8, 9}[:d], d, true)},
		{"application/json", []byte(`{"x": [` + strings.Join(long, ",") + `]}`)},
		{"application/json", []byte(`{"rows": [[` + strings.Join(long, ",") + `]]}`)},
		{"application/json", []byte(`{"x": [` + strings.Join(long[:d], ",") + `], "scores": true}`)},
	}
}

// checkIndependent serves body (with the content type and query) through
// fresh buffers and through buffers that served different earlier
// requests (the same shapes, other values), and fails if the three
// exchanges differ by a byte: a response that depended on what a buffer
// held before would differ.
func checkIndependent(t *testing.T, s *Server, ct, query string, body []byte) {
	d := s.first().dims
	used := func(v float64) *buffers {
		b := new(buffers)
		for _, p := range priors(d, v) {
			exchange(s, b, p.ct, "", p.body)
		}
		return b
	}
	fresh := exchange(s, new(buffers), ct, query, body)
	for _, v := range []float64{1.75, -3.5} {
		if got := exchange(s, used(v), ct, query, body); got != fresh {
			t.Fatalf("%s %q after requests of values ×%v:\n%s\nwith fresh buffers:\n%s", ct, body, v, got, fresh)
		}
	}
}

// TestPooledBuffersNeverLeak: requests that are short, null, truncated or
// malformed get the same bytes whatever the buffers served before (the
// leak this holds: a JSON null used to leave the previous request's value
// in the pooled row, and the response's scores told it).
func TestPooledBuffersNeverLeak(t *testing.T) {
	for _, s := range []*Server{testServer(t, linearStub[float32]{4}), testServer(t, linearStub[float64]{4})} {
		for _, c := range leakSeeds {
			ct := "application/json"
			if c.binary {
				ct = "application/octet-stream"
			}
			query := ""
			if c.scores {
				query = "?scores=1"
			}
			checkIndependent(t, s, ct, query, c.body)
		}
		// The requests that leaked are refused, naming the null.
		got := exchange(s, new(buffers), "application/json", "", []byte(`{"x": [1, null, 3, 4]}`))
		if !strings.HasPrefix(got, "400 ") || !strings.Contains(got, "row 0, feature 1 is null") {
			t.Errorf("a null feature: %s", got)
		}
	}
}

// leakSeeds are requests that read less than a buffer holds.
var leakSeeds = []struct {
	body           []byte
	binary, scores bool
}{
	{[]byte(`{"x": [null, null, null, null]}`), false, true},
	{[]byte(`{"x": [1, null, 3, 4]}`), false, true},
	{[]byte(`{"x": [1, 2, 3, 4, null]}`), false, true},
	{[]byte(`{"rows": [[1, 2, 3, 4], [null, 2, 3, 4]], "scores": true}`), false, false},
	{[]byte(`{"rows": [[1, 2, 3, 4], [1, 2, 3, 4, null, null]]}`), false, true},
	{[]byte(`{"x": [1, 2]}`), false, true},
	{[]byte(`{"x": [1, 2, 3, 4]`), false, true},
	{[]byte(`{"rows": [[1, 2, 3, 4], [5, 6`), false, true},
	{[]byte(`{"rows": [[1, 2, 3, 4], [5, 6, 7, 8]]}`), false, true},
	{[]byte(`{"x": [0.5, -1, 2, 3]}`), false, true},
	{[]byte(`{"rows": [[], [1]]}`), false, false},
	{[]byte(`{"x": []}`), false, false},
	{[]byte(`{"x": [1, 2, 3, {}]}`), false, false},
	{AppendRequest(nil, []float32{1, 2, 3, 4}, 4, true), true, true},
	{AppendRequest(nil, []float32{1, 2, 3, 4, 5, 6, 7, 8}, 4, true)[:30], true, true},
	{AppendRequest(nil, []float64{1, 2, 3, 4}, 4, true)[:20], true, false},
	{binary.LittleEndian.AppendUint32([]byte("RBRQ\x04\x01\x00\x00"), 3), true, true},
}

// FuzzJSONRequest: no response ever depends on an earlier request. Each
// input is served through fresh buffers and through buffers that served
// two different sets of earlier requests; the three responses must be the
// same bytes. The seeds run as a test with go test.
func FuzzJSONRequest(f *testing.F) {
	for _, c := range leakSeeds {
		f.Add(c.body, c.binary, c.scores)
	}
	f.Add([]byte(`{"rows": [[1e-300, 2, 3, 4]], "scores": false}`), false, true)
	f.Add([]byte(`{"rows": [null]}`), false, false)
	f.Add([]byte(` {"scores": true, "x": [1, 2, 3, 4]} `), false, false)
	s32, s64 := testServer(f, linearStub[float32]{4}), testServer(f, linearStub[float64]{4})
	f.Fuzz(func(t *testing.T, body []byte, isBinary, scores bool) {
		ct, query := "application/json", ""
		if isBinary {
			ct = "application/octet-stream"
		}
		if scores {
			query = "?scores=1"
		}
		checkIndependent(t, s32, ct, query, body)
		checkIndependent(t, s64, ct, query, body)
	})
}
