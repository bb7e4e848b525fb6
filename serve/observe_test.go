package serve_test

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/rosenblatt-go/rosenblatt/serve"
)

// recorder is an Observer that records what it is told.
type recorder struct {
	mu       sync.Mutex
	requests []string        // "model protocol code"
	inflight map[string]int  // by "model protocol"
	peak     map[string]int  // the most inflight has been, by "model protocol"
	reloads  []string        // "model version ok|err"
	errs     []error         // the reloads' errors
	elapsed  []time.Duration // of each request
	order    []string        // "in+", "in-", "req": the calls in order
}

func (r *recorder) Request(model, protocol string, code int, elapsed time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.requests = append(r.requests, fmt.Sprintf("%s %s %d", model, protocol, code))
	r.elapsed = append(r.elapsed, elapsed)
	r.order = append(r.order, "req")
}

func (r *recorder) InFlight(model, protocol string, delta int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.inflight == nil {
		r.inflight, r.peak = map[string]int{}, map[string]int{}
	}
	k := model + " " + protocol
	r.inflight[k] += delta
	r.peak[k] = max(r.peak[k], r.inflight[k])
	r.order = append(r.order, fmt.Sprintf("in%+d", delta))
}

func (r *recorder) Reload(model, version string, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	outcome := "ok"
	if err != nil {
		outcome = "err"
	}
	r.reloads = append(r.reloads, model+" "+version+" "+outcome)
	r.errs = append(r.errs, err)
}

// TestObserver: the Observer is told of every inference request, with
// its model, protocol and status, refusals included (405, 413 from the
// Content-Length, 415, 400, 404 for a model the server does not have,
// counted under the model ""), each between an InFlight +1 and -1; and
// of every reload that changed the model or failed (with the version kept
// and an error wrapping serve.ErrModel), a refused one included, but not
// of one that found the file unchanged.
func TestObserver(t *testing.T) {
	a, b, _ := twoModels(t, 4)
	obs := new(recorder)
	s, path, _ := newServer(t, a, serve.Options{Poll: -1, Observer: obs, MaxBodyBytes: 1 << 10})
	va := s.Current().Version
	require.Equal(t, []string{"m " + va + " ok"}, obs.reloads, "the first load")

	do := func(method, url, ct, body string) int {
		w := httptest.NewRecorder()
		r := httptest.NewRequest(method, url, strings.NewReader(body))
		if ct != "" {
			r.Header.Set("Content-Type", ct)
		}
		s.ServeHTTP(w, r)
		return w.Code
	}
	bin := serve.AppendRequest(nil, []float32{0.5, 0, 0, 0}, 4, false)
	cases := []struct {
		method, url, ct, body string
		want                  string
	}{
		{"POST", "/predict", "application/json", `{"x":[0.5,0,0,0]}`, "m predict-json 200"},
		{"POST", "/predict", "application/octet-stream", string(bin), "m predict-binary 200"},
		{"POST", "/predict", "application/octet-stream; charset=x", string(bin[:10]), "m predict-binary 400"},
		{"POST", "/predict", "", `{"x":[0.5,0,0]}`, "m predict-json 400"},
		{"POST", "/predict", "text/csv", `1,2,3,4`, "m predict-json 415"},
		{"GET", "/predict", "", "", "m predict-json 405"},
		{"POST", "/predict", "application/json", strings.Repeat(" ", 2<<10), "m predict-json 413"},
		{"POST", "/v2/models/m/infer", "", `{"inputs":[{"name":"input","shape":[1,4],"datatype":"FP32","data":[0.5,0,0,0]}]}`, "m oip-rest 200"},
		{"POST", "/v2/models/m/versions/" + va + "/infer", "", `{"inputs":[]}`, "m oip-rest 400"},
		{"POST", "/v2/models/other/infer", "", `{}`, " oip-rest 404"},
		{"POST", "/v2/models/m/versions/0000/infer", "", `{}`, " oip-rest 404"},
	}
	var want []string
	for _, c := range cases {
		code := do(c.method, c.url, c.ct, c.body)
		require.True(t, strings.HasSuffix(c.want, fmt.Sprint(code)), "%s %s: status %d, want %s", c.method, c.url, code, c.want)
		want = append(want, c.want)
	}
	require.Equal(t, want, obs.requests)
	// Every request: in+1, in-1, then req; none left in flight.
	require.Equal(t, slices.Repeat([]string{"in+1", "in-1", "req"}, len(cases)), obs.order)
	for k, v := range obs.inflight {
		require.Zero(t, v, k)
		require.Equal(t, 1, obs.peak[k], k)
	}
	for _, e := range obs.elapsed {
		require.Greater(t, e, time.Duration(0))
	}
	// /healthz and metadata are not inference requests.
	require.Equal(t, 200, do("GET", "/healthz", "", ""))
	require.Equal(t, 200, do("GET", "/v2/models/m", "", ""))
	require.Len(t, obs.requests, len(cases))

	// Reloads: unchanged (not told), corrupt (told, version kept), a new
	// model (told), a model of another width (refused: told).
	_, err := s.Reload()
	require.NoError(t, err)
	require.Len(t, obs.reloads, 1)
	writeAtomic(t, path, []byte("not a model"))
	_, err = s.Reload()
	require.ErrorIs(t, err, serve.ErrModel)
	writeAtomic(t, path, b)
	changed, err := s.Reload()
	require.NoError(t, err)
	require.True(t, changed)
	vb := s.Current().Version
	writeAtomic(t, path, marshal(t, trainBinary[float32](t, 3, 40, 5, false)))
	_, err = s.Reload()
	require.ErrorIs(t, err, serve.ErrModel)
	require.Equal(t, []string{"m " + va + " ok", "m " + va + " err", "m " + vb + " ok", "m " + vb + " err"}, obs.reloads)
	for i, e := range obs.errs {
		require.Equal(t, i%2 == 1, e != nil, i)
		if e != nil {
			require.True(t, errors.Is(e, serve.ErrModel), e)
		}
	}
	require.Contains(t, obs.errs[3].Error(), "input width")
}

// TestHandle: an added handler answers its pattern beside the server's
// routes; a pattern the server has is refused with ErrOption.
func TestHandle(t *testing.T) {
	s, _, _ := newServer(t, marshal(t, trainBinary[float32](t, 1, 50, 4, false)), serve.Options{Poll: -1})
	require.NoError(t, s.Handle("GET /metrics", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("metrics\n"))
	})))
	w := httptest.NewRecorder()
	s.ServeHTTP(w, httptest.NewRequest("GET", "/metrics", nil))
	require.Equal(t, "metrics\n", w.Body.String())
	for _, p := range []string{"/predict", "POST /predict", "/healthz", "GET /v2/health/live", "GET /v2/models/{name}"} {
		require.ErrorIs(t, s.Handle(p, http.NotFoundHandler()), serve.ErrOption, p)
	}
	w = httptest.NewRecorder()
	s.ServeHTTP(w, httptest.NewRequest("GET", "/v2/health/live", nil))
	require.Equal(t, 200, w.Code)
}
