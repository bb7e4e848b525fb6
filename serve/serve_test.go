package serve_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rosenblatt-go/rosenblatt/linear"

	"github.com/stretchr/testify/require"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/serve"
	"github.com/rosenblatt-go/rosenblatt/svm"
)

const (
	ctJSON = "application/json"
	ctBin  = "application/octet-stream"
)

// binHeader is a binary request header with the given fields.
func binHeader(magic string, size, flags byte, n, d uint32) []byte {
	b := append([]byte(magic), size, flags, 0, 0)
	b = binary.LittleEndian.AppendUint32(b, n)
	return binary.LittleEndian.AppendUint32(b, d)
}

// TestMalformed sends malformed requests: each gets its 4xx status and a
// message naming the problem, and names the model version.
func TestMalformed(t *testing.T) {
	const d = 4
	m := trainBinary[float32](t, 1, 50, d, false)
	s, _, _ := newServer(t, marshal(t, m), serve.Options{MaxBodyBytes: 4096})
	version := s.Current().Version
	row := serve.AppendRequest(nil, []float32{1, 2, 3, 4}, d, false)
	withValue := func(v float32) []byte {
		b := bytes.Clone(row)
		binary.LittleEndian.PutUint32(b[16+8:], math.Float32bits(v))
		return b
	}
	big64 := serve.AppendRequest(nil, []float64{1, 2, 1e300, 4}, d, false)
	for _, c := range []struct {
		name, method, ct, body string
		raw                    []byte
		code                   int
		msg                    string
	}{
		{name: "bad JSON", ct: ctJSON, body: `{"x": [1, 2,, 3]}`, code: 400, msg: "bad JSON at byte"},
		{name: "truncated JSON", ct: ctJSON, body: `{"x": [1, 2`, code: 400, msg: "truncated"},
		{name: "empty body", ct: ctJSON, body: ``, code: 400, msg: "empty body"},
		{name: "no content type, bad JSON", body: `[`, code: 400, msg: "bad JSON"},
		{name: "unknown field", ct: ctJSON, body: `{"features": [1, 2, 3, 4]}`, code: 400, msg: `unknown field "features"`},
		{name: "trailing data", ct: ctJSON, body: `{"x": [1, 2, 3, 4]} {}`, code: 400, msg: "data after the request"},
		{name: "string value", ct: ctJSON, body: `{"x": [1, "2", 3, 4]}`, code: 400, msg: "bad JSON"},
		{name: "overflows float32", ct: ctJSON, body: `{"x": [1, 1e39, 3, 4]}`, code: 400, msg: "1e39"},
		{name: "both x and rows", ct: ctJSON, body: `{"x": [1, 2, 3, 4], "rows": [[1, 2, 3, 4]]}`, code: 400, msg: `both "x" and "rows"`},
		{name: "neither", ct: ctJSON, body: `{"scores": true}`, code: 400, msg: `neither "x"`},
		{name: "null", ct: ctJSON, body: `null`, code: 400, msg: `the request is null, not an object`},
		{name: "array", ct: ctJSON, body: `[[1, 2, 3, 4]]`, code: 400, msg: `the request is an array, not an object`},
		{name: "field twice", ct: ctJSON, body: `{"x": [1, 2, 3, 4], "x": [1, 2, 3, 4]}`, code: 400, msg: `field "x" twice`},
		{name: "field case", ct: ctJSON, body: `{"X": [1, 2, 3, 4]}`, code: 400, msg: `unknown field "X"`},
		{name: "x null", ct: ctJSON, body: `{"x": null}`, code: 400, msg: `"x" is null`},
		{name: "rows not an array", ct: ctJSON, body: `{"rows": 3}`, code: 400, msg: `"rows" is a number, not an array of rows`},
		{name: "rows null", ct: ctJSON, body: `{"rows": null}`, code: 400, msg: `"rows" is null`},
		{name: "a null row", ct: ctJSON, body: `{"rows": [[1, 2, 3, 4], null]}`, code: 400, msg: `row 1 has 0 features`},
		{name: "many empty rows", ct: ctJSON, body: `{"rows": [` + strings.Repeat(`[],`, 1000) + `[]]}`, code: 400, msg: `row 0 has 0 features`},
		{name: "scores null", ct: ctJSON, body: `{"x": [1, 2, 3, 4], "scores": null}`, code: 400, msg: `"scores" is null, not true or false`},
		{name: "scores not a boolean", ct: ctJSON, body: `{"x": [1, 2, 3, 4], "scores": 1}`, code: 400, msg: `bad JSON`},
		{name: "rows not closed", ct: ctJSON, body: `{"rows": [[1, 2, 3, 4]`, code: 400, msg: `truncated JSON at byte 22`},
		{name: "object not closed", ct: ctJSON, body: `{"x":[1,2,3,4]`, code: 400, msg: `truncated JSON at byte 14`},
		{name: "NaN", ct: ctJSON, body: `{"x": [1, NaN, 3, 4]}`, code: 400, msg: `row 0, feature 1 is NaN, not a number`},
		{name: "Infinity", ct: ctJSON, body: `{"rows": [[1, 2, 3, 4], [1, 2, Infinity, 4]]}`, code: 400, msg: `row 1, feature 2 is Infinity, not a number`},
		{name: "-Infinity", ct: ctJSON, body: `{"x": [-Infinity, 2, 3, 4]}`, code: 400, msg: `row 0, feature 0 is -Infinity, not a number`},
		{name: "overflows, no Go type", ct: ctJSON, body: `{"x": [1, 2, -1e39, 4]}`, code: 400, msg: `row 0, feature 2: -1e39 is beyond the range of the model's 32-bit floating point`},
		{name: "leading zero", ct: ctJSON, body: `{"x": [1, 02, 3, 4]}`, code: 400, msg: `"02" is not a JSON number`},
		{name: "hex", ct: ctJSON, body: `{"x": [1, 2, 0x1p3, 4]}`, code: 400, msg: `bad JSON at byte`},
		{name: "null feature", ct: ctJSON, body: `{"x": [1, null, 3, 4]}`, code: 400, msg: `row 0, feature 1 is null`},
		{name: "null in a row", ct: ctJSON, body: `{"rows": [[1, 2, 3, 4], [1, 2, 3, null]]}`, code: 400, msg: `row 1, feature 3 is null`},
		{name: "null past a row", ct: ctJSON, body: `{"rows": [[1, 2, 3, 4, null]]}`, code: 400, msg: `row 0, feature 4 is null`},
		{name: "array value", ct: ctJSON, body: `{"x": [1, [2, 3], 4, 5]}`, code: 400, msg: `row 0, feature 1 is an array, not a number`},
		{name: "boolean value", ct: ctJSON, body: `{"rows": [[1, 2, 3, 4], [1, 2, true, 4]]}`, code: 400, msg: `row 1, feature 2 is a boolean, not a number`},
		{name: "row not an array", ct: ctJSON, body: `{"rows": [[1, 2, 3, 4], 5]}`, code: 400, msg: `row 1 is a number, not an array of numbers`},
		{name: "overlong row", ct: ctJSON, body: `{"rows": [[` + strings.Repeat("0,", 1000) + `0]]}`, code: 400, msg: `row 0 has 1001 features, the model has 4`},
		{name: "empty batch", ct: ctJSON, body: `{"rows": []}`, code: 400, msg: "empty batch"},
		{name: "x too short", ct: ctJSON, body: `{"x": [1, 2, 3]}`, code: 400, msg: `"x" has 3 features, the model has 4`},
		{name: "x empty", ct: ctJSON, body: `{"x": []}`, code: 400, msg: `"x" has 0 features`},
		{name: "ragged rows", ct: ctJSON, body: `{"rows": [[1, 2, 3, 4], [1, 2, 3, 4, 5]]}`, code: 400, msg: "row 1 has 5 features, the model has 4"},
		{name: "JSON over the limit", ct: ctJSON, body: `{"x": [` + strings.Repeat("1,", 3000) + `1]}`, code: 413, msg: "over the limit of 4096"},
		{name: "short header", ct: ctBin, raw: []byte("RBRQ\x04"), code: 400, msg: "shorter than its 16-byte header"},
		{name: "bad magic", ct: ctBin, raw: append(binHeader("RBXX", 4, 0, 1, d), make([]byte, 16)...), code: 400, msg: `magic "RBXX"`},
		{name: "bad value size", ct: ctBin, raw: append(binHeader("RBRQ", 2, 0, 1, d), make([]byte, 8)...), code: 400, msg: "value size 2"},
		{name: "unknown flag", ct: ctBin, raw: append(binHeader("RBRQ", 4, 2, 1, d), make([]byte, 16)...), code: 400, msg: "unknown flags"},
		{name: "no rows", ct: ctBin, raw: binHeader("RBRQ", 4, 0, 0, d), code: 400, msg: "empty batch"},
		{name: "wrong width", ct: ctBin, raw: append(binHeader("RBRQ", 4, 0, 1, 3), make([]byte, 12)...), code: 400, msg: "rows of 3 features, the model has 4"},
		{name: "truncated values", ct: ctBin, raw: row[:len(row)-3], code: 400, msg: "truncated: 13 value bytes, the header implies 16"},
		{name: "extra bytes", ct: ctBin, raw: append(bytes.Clone(row), 0), code: 400, msg: "more bytes follow"},
		{name: "NaN", ct: ctBin, raw: withValue(float32(math.NaN())), code: 400, msg: "row 0, feature 2 is NaN"},
		{name: "+Inf", ct: ctBin, raw: withValue(float32(math.Inf(1))), code: 400, msg: "row 0, feature 2 is +Inf"},
		{name: "float64 beyond float32", ct: ctBin, raw: big64, code: 400, msg: "1e+300 overflows"},
		{name: "header implies too much", ct: ctBin, raw: binHeader("RBRQ", 4, 0, 1000, d), code: 413, msg: "over the limit of 4096"},
		{name: "content type", ct: "text/plain", body: `1 2 3 4`, code: 415, msg: "Content-Type \"text/plain\""},
		{name: "form content type", ct: "application/x-www-form-urlencoded", body: `{"x": [1, 2, 3, 4]}`, code: 415, msg: "curl -d sends it: add -H 'Content-Type: application/json'"},
		{name: "GET", method: "GET", code: 405, msg: "use POST"},
	} {
		t.Run(c.name, func(t *testing.T) {
			body := c.raw
			if body == nil {
				body = []byte(c.body)
			}
			method := c.method
			if method == "" {
				method = "POST"
			}
			r := httptest.NewRequest(method, "/predict", bytes.NewReader(body))
			if c.ct != "" {
				r.Header.Set("Content-Type", c.ct)
			}
			w := httptest.NewRecorder()
			s.ServeHTTP(w, r)
			require.Equal(t, c.code, w.Code, "body: %s", w.Body)
			require.Contains(t, w.Body.String(), c.msg)
			require.Equal(t, version, w.Header().Get("X-Model-Version"))
			require.True(t, strings.HasPrefix(w.Header().Get("Content-Type"), "text/plain"))
		})
	}
}

// TestPredict checks valid requests, JSON and binary, single and batch,
// float32 and float64 models: the labels and scores are exactly the
// model's own Predict and Scores.
func TestPredict(t *testing.T) {
	const d = 5
	type model interface {
		serve.Model
		MarshalBinary() ([]byte, error)
	}
	for _, mc := range []struct {
		name string
		m    model
	}{
		{"binary-float32", trainBinary[float32](t, 2, 60, d, false)},
		{"binary-float64", trainBinary[float64](t, 2, 60, d, false)},
		{"ovr3-float32", trainOVR[float32](t, 3, 90, d)},
	} {
		s, _, _ := newServer(t, marshal(t, mc.m), serve.Options{})
		version := s.Current().Version
		bits := 32
		if s.Current().Elem == "float64" {
			bits = 64
		}
		for _, n := range []int{1, 3, 20} { // 20: the PredictBatch path
			X := randRows[float64](uint64(n), n, d)
			want := make([]int, n)
			wantSc := make([]float64, 0, n*mc.m.NumScores())
			for i := range n {
				x := X[i*d : (i+1)*d]
				switch m := mc.m.(type) {
				case *linear.Model[float32]:
					x32 := make([]float32, d)
					for j, v := range x {
						x32[j] = float32(v)
					}
					want[i], _ = m.Predict(x32)
					sc := make([]float32, m.NumScores())
					require.NoError(t, m.Scores(sc, x32))
					for _, v := range sc {
						wantSc = append(wantSc, float64(v))
					}
				case *linear.Model[float64]:
					want[i], _ = m.Predict(x)
					sc := make([]float64, m.NumScores())
					require.NoError(t, m.Scores(sc, x))
					wantSc = append(wantSc, sc...)
				}
			}
			t.Run(fmt.Sprintf("%s/n=%d/binary", mc.name, n), func(t *testing.T) {
				for _, scores := range []bool{false, true} {
					r := httptest.NewRequest("POST", "/predict", bytes.NewReader(serve.AppendRequest(nil, X, d, scores)))
					r.Header.Set("Content-Type", ctBin)
					w := httptest.NewRecorder()
					s.ServeHTTP(w, r)
					require.Equal(t, 200, w.Code, w.Body.String())
					require.Equal(t, version, w.Header().Get("X-Model-Version"))
					var resp serve.Response
					require.NoError(t, serve.ParseResponse(&resp, w.Body.Bytes()))
					require.Equal(t, want, resp.Labels)
					if scores {
						require.Equal(t, mc.m.NumScores(), resp.K)
						require.Equal(t, wantSc, resp.Scores)
					} else {
						require.Zero(t, resp.K)
						require.Empty(t, resp.Scores)
					}
				}
			})
			t.Run(fmt.Sprintf("%s/n=%d/json", mc.name, n), func(t *testing.T) {
				rows := make([][]float64, n)
				for i := range rows {
					rows[i] = X[i*d : (i+1)*d]
				}
				body, _ := json.Marshal(map[string]any{"rows": rows})
				if n == 1 {
					body, _ = json.Marshal(map[string]any{"x": rows[0]})
				}
				r := httptest.NewRequest("POST", "/predict?scores=1", bytes.NewReader(body))
				w := httptest.NewRecorder()
				s.ServeHTTP(w, r)
				require.Equal(t, 200, w.Code, w.Body.String())
				var resp jsonResponse
				require.NoError(t, json.Unmarshal(w.Body.Bytes(), &resp), w.Body.String())
				require.Equal(t, version, resp.Model)
				var num []json.Number
				if n == 1 {
					require.NotNil(t, resp.Label)
					require.Equal(t, want[0], *resp.Label)
					require.NoError(t, json.Unmarshal(resp.Scores, &num))
				} else {
					require.Equal(t, want, resp.Labels)
					var rs [][]json.Number
					require.NoError(t, json.Unmarshal(resp.Scores, &rs))
					for _, r := range rs {
						num = append(num, r...)
					}
				}
				// Shortest round-trip formatting in the model's type: exact.
				sc := make([]float64, len(num))
				for i, v := range num {
					var err error
					sc[i], err = strconv.ParseFloat(string(v), bits)
					require.NoError(t, err)
				}
				require.Equal(t, wantSc, sc)
			})
		}
	}
}

// TestReload: a bad new file keeps the model in use and is logged (once),
// /healthz says why, the same bytes again change nothing, and a good file
// is put in use with a new version.
func TestReload(t *testing.T) {
	const d = 4
	a := marshal(t, trainBinary[float32](t, 1, 50, d, false))
	b := marshal(t, trainBinary[float32](t, 1, 50, d, true))
	s, path, logs := newServer(t, a, serve.Options{})
	va := s.Current().Version

	changed, err := s.Reload()
	require.NoError(t, err)
	require.False(t, changed, "the same bytes again")

	bad := bytes.Clone(b)
	bad[len(bad)-1] ^= 1 // checksum
	writeAtomic(t, path, bad)
	changed, err = s.Reload()
	require.ErrorIs(t, err, serve.ErrModel)
	require.ErrorIs(t, err, linear.ErrCorrupt)
	require.False(t, changed)
	require.Equal(t, va, s.Current().Version)
	require.Contains(t, logs.String(), "keeping the model in use")
	require.Contains(t, logs.String(), "checksum")
	_, err = s.Reload()
	require.Error(t, err)
	require.Equal(t, 1, strings.Count(logs.String(), "reload failed"), "the same bad bytes are logged once")

	w := httptest.NewRecorder()
	s.ServeHTTP(w, httptest.NewRequest("GET", "/healthz", nil))
	require.Equal(t, 200, w.Code)
	var h struct {
		Status, Model, LastReloadError string
	}
	require.NoError(t, json.Unmarshal(w.Body.Bytes(), &h))
	require.Equal(t, "ok", h.Status)
	require.Equal(t, va, h.Model)
	// A stranger learns that the reload failed, not why nor where.
	require.Equal(t, "reload failed; see the server log", h.LastReloadError)
	require.NotContains(t, w.Body.String(), "checksum")
	require.NotContains(t, w.Body.String(), path)
	require.Contains(t, w.Body.String(), `"lastReloadFailedAt":"`)

	for _, c := range []struct {
		name string
		data []byte
		err  error
	}{
		{"empty", nil, linear.ErrCorrupt},
		{"not a model", []byte("hello"), linear.ErrCorrupt},
		{"truncated", b[:len(b)/2], linear.ErrCorrupt},
	} {
		writeAtomic(t, path, c.data)
		_, err = s.Reload()
		require.ErrorIs(t, err, c.err, c.name)
		require.Equal(t, va, s.Current().Version, c.name)
	}
	require.NoError(t, os.Remove(path))
	_, err = s.Reload()
	require.ErrorIs(t, err, os.ErrNotExist)
	require.Equal(t, va, s.Current().Version)

	writeAtomic(t, path, b)
	changed, err = s.Reload()
	require.NoError(t, err)
	require.True(t, changed)
	require.NotEqual(t, va, s.Current().Version)
	require.Contains(t, logs.String(), "model loaded")
}

// TestNew: a first model that does not load, or bad options, are errors.
func TestNew(t *testing.T) {
	dir := t.TempDir()
	path := dir + "/m.model"
	writeAtomic(t, path, []byte("not a model"))
	_, err := serve.New(path, decode, serve.Options{})
	require.ErrorIs(t, err, serve.ErrModel)
	_, err = serve.New(dir+"/missing", decode, serve.Options{})
	require.ErrorIs(t, err, os.ErrNotExist)
	writeAtomic(t, path, marshal(t, trainBinary[float32](t, 1, 50, 3, false)))
	notClassifier := func(string, []byte) (serve.Model, error) { return struct{ serve.Model }{}, nil }
	_, err = serve.New(path, notClassifier, serve.Options{})
	require.ErrorIs(t, err, serve.ErrModel)
	require.Contains(t, err.Error(), "neither a Classifier[float32] nor a Classifier[float64]")
	nilModel := func(string, []byte) (serve.Model, error) { return (*linear.Model[float32])(nil), nil }
	_, err = serve.New(path, nilModel, serve.Options{})
	require.ErrorIs(t, err, serve.ErrModel)
	require.Contains(t, err.Error(), "panicked")
	_, err = serve.New(path, decode, serve.Options{ReadTimeout: -1})
	require.ErrorIs(t, err, serve.ErrOption)
	_, err = serve.New(path, decode, serve.Options{MaxModelBytes: 10})
	require.ErrorIs(t, err, serve.ErrModel)
	require.Contains(t, err.Error(), "more than 10 bytes")
}

// start runs s on 127.0.0.1:0 until the test ends and returns its URL.
func start(t testing.TB, s *serve.Server) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	})
	return "http://" + ln.Addr().String()
}

// TestLoad drives the server on loopback with concurrent clients while the
// model file is replaced over and over (two models that disagree on the
// requests, and now and then a corrupt file), found by Watch or by Reload,
// with binary and JSON requests, while slow connections each declare a
// 60 MiB binary body, send 200 KiB of it and wait:
// no request fails, every response's labels and scores are exactly
// those of the model version it names, the slow connections are neither
// answered nor refused while they wait, and the bytes they hold are
// counted against the in-flight budget, which the requests in flight
// never exceed.
func TestLoad(t *testing.T) {
	const d, clients = 16, 4
	const budget, slow, slowSent = 8 << 20, 24, 200 << 10
	requests := 3000
	if testing.Short() {
		requests = 600
	}
	ma := trainBinary[float32](t, 1, 100, d, false)
	mb := trainBinary[float32](t, 1, 100, d, true)
	fa, fb := marshal(t, ma), marshal(t, mb)
	s, path, _ := newServer(t, fa, serve.Options{Poll: time.Millisecond, MaxInflightBytes: budget})
	base := start(t, s)
	url := base + "/predict"
	stopSlow := make(chan struct{})
	slowGot := slowClients(t, strings.TrimPrefix(base, "http://"), slow, d, 60<<20, slowSent, stopSlow)
	deadline := time.Now().Add(10 * time.Second)
	for now, _ := serve.InFlight(s); now < slow*slowSent && time.Now().Before(deadline); now, _ = serve.InFlight(s) {
		time.Sleep(time.Millisecond)
	}
	held, _ := serve.InFlight(s)
	require.GreaterOrEqual(t, held, int64(slow*slowSent), "the slow connections' bytes are held")
	require.LessOrEqual(t, held, int64(slow*2*slowSent), "the slow connections hold what they sent, not what they declared")

	// The requests and what each model answers to them.
	const kinds = 8
	type expect struct {
		labels []int
		scores []float64
	}
	bodies, jsonBodies := make([][]byte, kinds), make([][]byte, kinds)
	want := map[string][]expect{}
	versions := map[string]*linear.Model[float32]{}
	s.Reload()
	versions[s.Current().Version] = ma
	writeAtomic(t, path, fb)
	_, err := s.Reload()
	require.NoError(t, err)
	versions[s.Current().Version] = mb
	differ := 0
	for k := range kinds {
		n := 1 + k*3 // up to 22 rows: both the Predict and the PredictBatch paths
		X := randRows[float32](uint64(100+k), n, d)
		bodies[k] = serve.AppendRequest(nil, X, d, true)
		rows := make([][]float32, n)
		for i := range rows {
			rows[i] = X[i*d : (i+1)*d]
		}
		jsonBodies[k], _ = json.Marshal(map[string]any{"rows": rows, "scores": true})
		for v, m := range versions {
			e := expect{labels: make([]int, n)}
			sc := make([]float32, 1)
			for i := range n {
				e.labels[i], err = m.Predict(X[i*d : (i+1)*d])
				require.NoError(t, err)
				require.NoError(t, m.Scores(sc, X[i*d:(i+1)*d]))
				e.scores = append(e.scores, float64(sc[0]))
			}
			want[v] = append(want[v], e)
		}
		va, vb := want[s.Current().Version], want[hexOther(versions, s.Current().Version)]
		for i := range va[k].labels {
			if va[k].labels[i] != vb[k].labels[i] {
				differ++
			}
		}
	}
	require.Greater(t, differ, 10, "the two models must disagree on the requests")

	var sent, failed atomic.Int64
	seen := make([]map[string]int, clients)
	var wg sync.WaitGroup
	for c := range clients {
		seen[c] = map[string]int{}
		wg.Go(func() {
			client := &http.Client{Timeout: 30 * time.Second}
			var resp serve.Response
			var err error
			for i := sent.Add(1); i <= int64(requests); i = sent.Add(1) {
				k := int(i) % kinds
				isJSON := i%4 == 0 // one request in four is JSON, the others binary
				ct, req := ctBin, bodies[k]
				if isJSON {
					ct, req = ctJSON, jsonBodies[k]
				}
				code, v, body := post(t, client, url, ct, req)
				e, ok := want[v]
				if code != 200 || !ok {
					failed.Add(1)
					t.Errorf("request %d: status %d, model %q: %s", i, code, v, body)
					continue
				}
				if isJSON {
					err = parseJSON(&resp, body, v)
				} else {
					err = serve.ParseResponse(&resp, body)
				}
				if err != nil {
					t.Errorf("request %d: %v", i, err)
					failed.Add(1)
					continue
				}
				if fmt.Sprint(resp.Labels) != fmt.Sprint(e[k].labels) || fmt.Sprint(resp.Scores) != fmt.Sprint(e[k].scores) {
					failed.Add(1)
					t.Errorf("request %d: model %s answered %v %v, that model answers %v %v", i, v, resp.Labels, resp.Scores, e[k].labels, e[k].scores)
				}
				seen[c][v]++
			}
		})
	}
	// Replace the model while the clients run: alternately by Watch (wait
	// for it to notice) and by Reload, with a corrupt file now and then.
	corrupt := bytes.Clone(fa)
	corrupt[100] ^= 0xff
	swaps := 0
	for round := 0; sent.Load() < int64(requests); round++ {
		next := fa
		if round%2 == 0 {
			next = fb
		}
		if round%5 == 4 {
			writeAtomic(t, path, corrupt)
			_, err := s.Reload()
			require.ErrorIs(t, err, serve.ErrModel)
		}
		writeAtomic(t, path, next)
		if round%2 == 0 {
			_, err := s.Reload()
			require.NoError(t, err)
		} else {
			deadline := time.Now().Add(10 * time.Second)
			for s.Current().Version != versionOf(versions, next, t) && time.Now().Before(deadline) {
				time.Sleep(time.Millisecond)
			}
		}
		require.Equal(t, versionOf(versions, next, t), s.Current().Version, "round %d", round)
		swaps++
		time.Sleep(2 * time.Millisecond)
	}
	wg.Wait()
	require.Zero(t, failed.Load())
	close(stopSlow)
	for i, got := range slowGot() {
		require.Empty(t, got, "slow connection %d was answered while it sent", i)
	}
	_, peak := serve.InFlight(s)
	require.LessOrEqual(t, peak, int64(budget))
	t.Logf("in flight: %d bytes held by %d slow connections, peak %d of a budget of %d", held, slow, peak, budget)
	total := map[string]int{}
	for _, m := range seen {
		for v, n := range m {
			total[v] += n
		}
	}
	t.Logf("%d requests, %d swaps, responses per model version: %v", requests, swaps, total)
	require.Len(t, total, 2, "both models must have answered")
	require.Greater(t, swaps, 2)
}

// parseJSON parses a JSON response of float32 scores into r; its model
// must be version.
func parseJSON(r *serve.Response, body []byte, version string) error {
	var jr jsonResponse
	if err := json.Unmarshal(body, &jr); err != nil {
		return err
	}
	if jr.Model != version {
		return fmt.Errorf("body names model %s, the header %s", jr.Model, version)
	}
	var rows [][]json.Number
	if err := json.Unmarshal(jr.Scores, &rows); err != nil {
		return err
	}
	r.Labels, r.Scores, r.K = jr.Labels, r.Scores[:0], 1
	for _, row := range rows {
		for _, v := range row {
			f, err := strconv.ParseFloat(string(v), 32)
			if err != nil {
				return err
			}
			r.Scores = append(r.Scores, f)
		}
	}
	return nil
}

// hexOther returns the version in versions other than v.
func hexOther(versions map[string]*linear.Model[float32], v string) string {
	for o := range versions {
		if o != v {
			return o
		}
	}
	return ""
}

// versionOf returns the version of the model file data.
func versionOf(versions map[string]*linear.Model[float32], data []byte, t testing.TB) string {
	for v, m := range versions {
		if bytes.Equal(marshal(t, m), data) {
			return v
		}
	}
	t.Fatal("unknown model file")
	return ""
}

// TestShutdown: Run's graceful shutdown lets a request in flight finish
// (it is inside the model's Predict when the shutdown begins) and returns
// nil; new connections are refused.
func TestShutdown(t *testing.T) {
	const d = 4
	bm := &blockingModel{Model: trainBinary[float32](t, 1, 50, d, false),
		entered: make(chan struct{}), release: make(chan struct{})}
	path := t.TempDir() + "/m.model"
	writeAtomic(t, path, marshal(t, bm.Model))
	s, err := serve.New(path, func(string, []byte) (serve.Model, error) { return bm, nil },
		serve.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	require.NoError(t, err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx, ln) }()
	url := "http://" + ln.Addr().String() + "/predict"

	body := serve.AppendRequest(nil, []float32{1, 2, 3, 4}, d, false)
	got := make(chan int, 1)
	go func() {
		resp, err := http.Post(url, ctBin, bytes.NewReader(body))
		if err != nil {
			t.Error(err)
			got <- 0
			return
		}
		resp.Body.Close()
		got <- resp.StatusCode
	}()
	<-bm.entered // the request is in the handler
	cancel()
	time.Sleep(50 * time.Millisecond) // time enough for Run to return if it did not wait
	select {
	case err := <-done:
		t.Fatalf("Run returned (%v) with a request in flight", err)
	default:
	}
	close(bm.release)
	require.Equal(t, 200, <-got)
	require.NoError(t, <-done)
	_, err = http.Post(url, ctBin, bytes.NewReader(body))
	require.Error(t, err)
}

// blockingModel is a model whose Predict signals entered and waits for
// release.
type blockingModel struct {
	*linear.Model[float32]
	entered, release chan struct{}
}

func (m *blockingModel) Predict(x []float32) (int, error) {
	m.entered <- struct{}{}
	<-m.release
	return m.Model.Predict(x)
}

// TestAllocs: the binary path allocates nothing per request beyond
// http.MaxBytesReader's one reader (the buffers are pooled, the headers
// shared), for one sample and for a batch with scores.
func TestAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	const d = 784
	m := trainBinary[float32](t, 1, 100, d, false)
	s, _, _ := newServer(t, marshal(t, m), serve.Options{})
	for _, c := range []struct {
		name   string
		n      int
		scores bool
	}{{"single", 1, false}, {"batch8-scores", 8, true}} {
		body := serve.AppendRequest(nil, randRows[float32](1, c.n, d), d, c.scores)
		rd := bytes.NewReader(body)
		r := httptest.NewRequest("POST", "/predict", io.NopCloser(rd))
		r.Header.Set("Content-Type", ctBin)
		w := &discard{h: http.Header{}}
		allocs := testing.AllocsPerRun(200, func() {
			rd.Reset(body)
			w.code = 0
			s.ServeHTTP(w, r)
		})
		require.Equal(t, 200, w.code, c.name)
		require.LessOrEqual(t, allocs, 1.0, c.name)
		t.Logf("%s: %v allocs per request", c.name, allocs)
	}
}

// discard is a ResponseWriter that keeps its header map and the status.
type discard struct {
	h    http.Header
	code int
}

func (w *discard) Header() http.Header { return w.h }
func (w *discard) Write(p []byte) (int, error) {
	if w.code == 0 {
		w.code = 200
	}
	return len(p), nil
}
func (w *discard) WriteHeader(code int) { w.code = code }

// TestSVM serves an SVM (the XOR kernel SVM of svm's example) through a
// Decoder that returns it: a model kind plugs in by its methods alone.
func TestSVM(t *testing.T) {
	X := []float64{0, 0, 1, 1, 0, 1, 1, 0}
	m, _, err := svm.Fit(context.Background(), dataset.NewData(X, 2, nil), []int{-1, -1, 1, 1}, svm.Options{Kernel: gram.RBF{Gamma: 2}, C: 10})
	require.NoError(t, err)
	path := t.TempDir() + "/svm.model"
	writeAtomic(t, path, []byte("any bytes: the decoder below ignores them"))
	s, err := serve.New(path, func(string, []byte) (serve.Model, error) { return m, nil }, serve.Options{})
	require.NoError(t, err)
	require.Equal(t, "float64", s.Current().Elem)
	r := httptest.NewRequest("POST", "/predict", strings.NewReader(`{"rows": [[0, 0], [1, 1], [0, 1], [1, 0]]}`))
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	require.Equal(t, 200, w.Code, w.Body.String())
	var resp jsonResponse
	require.NoError(t, json.Unmarshal(w.Body.Bytes(), &resp))
	require.Equal(t, []int{-1, -1, 1, 1}, resp.Labels)
}

// TestSlowReload: while a reload reads a (slow) file, requests and
// /healthz are answered by the model in use, without waiting; a decoder
// that panics is an error and keeps the model.
func TestSlowReload(t *testing.T) {
	a, b, path := twoModels(t, 4)
	var slow atomic.Bool
	started, release := make(chan struct{}), make(chan struct{})
	read := func(p string) ([]byte, error) {
		if slow.Load() {
			close(started)
			<-release
		}
		return os.ReadFile(p)
	}
	panics := false
	dec := func(p string, data []byte) (serve.Model, error) {
		if panics {
			panic("decoder bug")
		}
		return decode(p, data)
	}
	s, err := serve.New(path, dec, serve.Options{ReadFile: read, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	require.NoError(t, err)
	va := s.Current().Version
	writeAtomic(t, path, b)
	slow.Store(true)
	done := make(chan error, 1)
	go func() { _, err := s.Reload(); done <- err }()
	<-started
	for _, req := range []*http.Request{
		httptest.NewRequest("GET", "/healthz", nil),
		httptest.NewRequest("POST", "/predict", strings.NewReader(`{"x": [1, 2, 3, 4]}`)),
	} {
		w := httptest.NewRecorder()
		s.ServeHTTP(w, req) // would block for ever if it waited for the reload
		require.Equal(t, 200, w.Code, w.Body.String())
		require.Equal(t, va, w.Header().Get("X-Model-Version"))
	}
	close(release)
	require.NoError(t, <-done)
	require.NotEqual(t, va, s.Current().Version)

	slow.Store(false)
	panics = true
	writeAtomic(t, path, a)
	_, err = s.Reload()
	require.ErrorIs(t, err, serve.ErrModel)
	require.Contains(t, err.Error(), "the decoder or the model panicked: decoder bug")
	require.NotEqual(t, va, s.Current().Version)
	w := httptest.NewRecorder()
	s.ServeHTTP(w, httptest.NewRequest("GET", "/healthz", nil))
	require.Contains(t, w.Body.String(), `"reloads":1`)
	require.Contains(t, w.Body.String(), `"lastReloadError":"reload failed; see the server log"`)
	require.NotContains(t, w.Body.String(), "panicked")
}
