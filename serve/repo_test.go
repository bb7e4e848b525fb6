package serve_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"github.com/rosenblatt-go/rosenblatt/linear"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/rosenblatt-go/rosenblatt/serve"
)

// version is the version the server names a model file's bytes by: the
// first 16 hex digits of their SHA-256.
func version(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:8])
}

// newRepo returns a server of the repository dir, logging to the
// returned buffer.
func newRepo(t testing.TB, dir string, opt serve.Options) (*serve.Server, *logBuffer) {
	t.Helper()
	lb := new(logBuffer)
	opt.Logger = slog.New(slog.NewTextHandler(lb, nil))
	s, err := serve.NewRepository(dir, nil, opt)
	require.NoError(t, err)
	return s, lb
}

// handle sends one request to s and returns its status and body.
func handle(s http.Handler, method, url, ct, body string) (int, string) {
	w := httptest.NewRecorder()
	r := httptest.NewRequest(method, url, strings.NewReader(body))
	if ct != "" {
		r.Header.Set("Content-Type", ct)
	}
	s.ServeHTTP(w, r)
	return w.Code, w.Body.String()
}

// index returns the repository index as "name version state" lines.
func index(t *testing.T, s http.Handler, body string) []string {
	t.Helper()
	code, out := handle(s, "POST", "/v2/repository/index", "", body)
	require.Equal(t, 200, code, out)
	var idx []serve.ModelStatus
	require.NoError(t, json.Unmarshal([]byte(out), &idx))
	var lines []string
	for _, m := range idx {
		require.Equal(t, m.State == "UNAVAILABLE", m.Reason != "", "%+v: a reason iff unavailable (no reload failed here)", m)
		lines = append(lines, fmt.Sprintf("%s %s %s", m.Name, m.Version, m.State))
	}
	return lines
}

// TestRepository: a directory of model files is served under the files'
// names without their extensions: /predict needs a name when there are
// several (path or query), the Open Inference Protocol's endpoints route
// by name, the server metadata, /healthz and the repository index list
// them; a bad file is listed unavailable (503) and affects no other
// model; dotfiles, backups and directories are not models; of two files
// of one name the first is served and the other logged; a file added,
// removed, repaired or replaced by one of another width is picked up by
// Reload as for one model file, each model on its own.
func TestRepository(t *testing.T) {
	dir := t.TempDir()
	ma := trainBinary[float32](t, 1, 50, 4, false)
	mb := trainOVR[float64](t, 2, 90, 5)
	fa, fb := marshal(t, ma), marshal(t, mb)
	writeAtomic(t, filepath.Join(dir, "a.model"), fa)
	writeAtomic(t, filepath.Join(dir, "a.zzz"), fb) // same name as a.model: not served
	writeAtomic(t, filepath.Join(dir, "b.json"), fb)
	writeAtomic(t, filepath.Join(dir, "bad.model"), []byte("not a model"))
	writeAtomic(t, filepath.Join(dir, ".c.model"), fa)
	writeAtomic(t, filepath.Join(dir, "c.model~"), fa)
	require.NoError(t, os.Mkdir(filepath.Join(dir, "d.model"), 0o755))
	obs := new(recorder)
	s, logs := newRepo(t, dir, serve.Options{Poll: -1, Observer: obs})
	va, vb := version(fa), version(fb)
	require.Equal(t, []string{"a " + va + " READY", "b " + vb + " READY", "bad  UNAVAILABLE"}, index(t, s, ""))
	require.Equal(t, []string{"a " + va + " READY", "b " + vb + " READY"}, index(t, s, `{"ready": true}`))
	require.Contains(t, logs.String(), "bad.model")
	require.Contains(t, logs.String(), `a.zzz reason="a.model is served as \"a\" already"`)
	for _, body := range []string{`{"ready": 1}`, `{"x": true}`, `[]`, `{} {}`} {
		code, out := handle(s, "POST", "/v2/repository/index", "", body)
		require.Equal(t, 400, code, body)
		require.Contains(t, out, `"error"`)
	}

	// /predict: a name is needed; by path or query; JSON and binary.
	code, out := handle(s, "POST", "/predict", ctJSON, `{"x":[1,0,0,0]}`)
	require.Equal(t, 400, code)
	require.Contains(t, out, "serves 3 models: name one")
	la, err := ma.Predict([]float32{1, 0, 0, 0})
	require.NoError(t, err)
	lb, err := mb.Predict([]float64{1, 0, 0, 0, 0})
	require.NoError(t, err)
	for _, c := range []struct{ url, body, want string }{
		{"/predict/a", `{"x":[1,0,0,0]}`, fmt.Sprintf(`{"model":"%s","label":%d}`, va, la)},
		{"/predict?model=a", `{"x":[1,0,0,0]}`, fmt.Sprintf(`{"model":"%s","label":%d}`, va, la)},
		{"/predict?scores=0&model=b", `{"x":[1,0,0,0,0]}`, fmt.Sprintf(`{"model":"%s","label":%d}`, vb, lb)},
	} {
		code, out := handle(s, "POST", c.url, ctJSON, c.body)
		require.Equal(t, 200, code, c.url+": "+out)
		require.JSONEq(t, c.want, out, c.url)
	}
	code, out = handle(s, "POST", "/predict/b", ctBin, string(serve.AppendRequest(nil, []float64{1, 0, 0, 0, 0}, 5, false)))
	require.Equal(t, 200, code, out)
	var resp serve.Response
	require.NoError(t, serve.ParseResponse(&resp, []byte(out)))
	require.Equal(t, []int{lb}, resp.Labels)
	for _, c := range []struct {
		url  string
		code int
		msg  string
	}{
		{"/predict/bad", 503, `model "bad" is not available`},
		{"/predict/zz", 404, `unknown model "zz": this server serves 3 models`},
		{"/predict?model=c", 404, `unknown model "c"`},
		{"/predict/a.model", 404, `unknown model "a.model"`},
		{"/predict/a", 400, "the model has 4"}, // b's width: a's model answered
	} {
		code, out := handle(s, "POST", c.url, ctJSON, `{"x":[1,0,0,0,0]}`)
		require.Equal(t, c.code, code, c.url+": "+out)
		require.Contains(t, out, c.msg, c.url)
	}

	// The Open Inference Protocol by name.
	code, out = handle(s, "POST", "/v2/models/b/infer", "", `{"inputs":[{"name":"input","shape":[1,5],"datatype":"FP64","data":[1,0,0,0,0]}],"outputs":[{"name":"label"}]}`)
	require.Equal(t, 200, code, out)
	require.Contains(t, out, fmt.Sprintf(`"model_name":"b","model_version":"%s"`, vb))
	require.Contains(t, out, fmt.Sprintf(`"data":[%d]`, lb))
	code, out = handle(s, "GET", "/v2/models/a", "", "")
	require.Equal(t, 200, code, out)
	require.Contains(t, out, `"name":"a"`)
	require.Contains(t, out, `"shape":[-1,4]`)
	code, _ = handle(s, "GET", "/v2/models/bad/ready", "", "")
	require.Equal(t, 503, code)
	code, _ = handle(s, "GET", "/v2/models/b/ready", "", "")
	require.Equal(t, 200, code)
	code, out = handle(s, "GET", "/v2", "", "")
	require.Equal(t, 200, code)
	require.Contains(t, out, `"models":["a","b","bad"]`)
	code, out = handle(s, "GET", "/healthz", "", "")
	require.Equal(t, 200, code)
	var h struct {
		Status string
		Models []struct {
			Name, State, Model string
			Dims               int
		}
	}
	require.NoError(t, json.Unmarshal([]byte(out), &h))
	require.Equal(t, "ok", h.Status)
	require.Len(t, h.Models, 3)
	require.Equal(t, []any{"a", "READY", va, 4}, []any{h.Models[0].Name, h.Models[0].State, h.Models[0].Model, h.Models[0].Dims})
	require.Equal(t, []any{"bad", "UNAVAILABLE", "", 0}, []any{h.Models[2].Name, h.Models[2].State, h.Models[2].Model, h.Models[2].Dims})

	// Changes, each picked up by Reload, each model on its own.
	mc := trainBinary[float32](t, 3, 50, 3, true)
	fc := marshal(t, mc)
	writeAtomic(t, filepath.Join(dir, "c.model"), fc)           // added
	require.NoError(t, os.Remove(filepath.Join(dir, "b.json"))) // removed
	writeAtomic(t, filepath.Join(dir, "bad.model"), fa)         // repaired
	fa5 := marshal(t, trainBinary[float32](t, 4, 50, 5, false))
	writeAtomic(t, filepath.Join(dir, "a.model"), fa5) // another width: refused
	changed, err := s.Reload()
	require.True(t, changed)
	require.ErrorIs(t, err, serve.ErrModel)
	require.Contains(t, err.Error(), "input width from 4 to 5")
	code, out = handle(s, "POST", "/v2/repository/index", "", "")
	require.Equal(t, 200, code)
	require.Contains(t, out, `{"name":"a","version":"`+va+`","state":"READY","reason":"the last reload failed and the model in use stays; see the server log"}`)
	require.Contains(t, out, `{"name":"bad","version":"`+va+`","state":"READY"}`)
	require.Contains(t, out, `{"name":"c","version":"`+version(fc)+`","state":"READY"}`)
	require.NotContains(t, out, `"b"`)
	code, _ = handle(s, "POST", "/predict/b", ctJSON, `{"x":[1,0,0,0,0]}`)
	require.Equal(t, 404, code)
	code, out = handle(s, "POST", "/predict/bad", ctJSON, `{"x":[1,0,0,0]}`)
	require.Equal(t, 200, code, out)
	require.Contains(t, out, va)
	code, out = handle(s, "POST", "/predict/c", ctJSON, `{"x":[1,0,0]}`)
	require.Equal(t, 200, code, out)
	require.Contains(t, out, version(fc))
	require.Contains(t, obs.reloads, "b  ok", "the removal told to the Observer")
	require.Contains(t, obs.reloads, "c "+version(fc)+" ok")
	require.Contains(t, obs.reloads, "bad "+va+" ok")
	require.Contains(t, obs.reloads, "a "+va+" err")

	// A repository of one model answers /predict unnamed.
	for _, f := range []string{"a.model", "a.zzz", "bad.model"} {
		require.NoError(t, os.Remove(filepath.Join(dir, f)))
	}
	_, err = s.Reload()
	require.NoError(t, err)
	code, out = handle(s, "POST", "/predict", ctJSON, `{"x":[1,0,0]}`)
	require.Equal(t, 200, code, out)
	require.Contains(t, out, version(fc))
	// And one of none says so.
	require.NoError(t, os.Remove(filepath.Join(dir, "c.model")))
	_, err = s.Reload()
	require.NoError(t, err)
	code, out = handle(s, "POST", "/predict", ctJSON, `{"x":[1,0,0]}`)
	require.Equal(t, 404, code)
	require.Contains(t, out, "no model")
	require.Equal(t, serve.Info{}, s.Current())
}

// TestRepositoryErrors: a repository that is not a directory is refused;
// -max-models leaves the files beyond it out, logged.
func TestRepositoryErrors(t *testing.T) {
	dir := t.TempDir()
	_, err := serve.NewRepository(filepath.Join(dir, "none"), nil, serve.Options{})
	require.ErrorIs(t, err, serve.ErrModel)
	f := filepath.Join(dir, "f.model")
	writeAtomic(t, f, marshal(t, trainBinary[float32](t, 1, 50, 4, false)))
	_, err = serve.NewRepository(f, nil, serve.Options{})
	require.ErrorIs(t, err, serve.ErrModel)
	require.Contains(t, err.Error(), "not a directory")
	writeAtomic(t, filepath.Join(dir, "g.model"), marshal(t, trainBinary[float32](t, 2, 50, 4, false)))
	s, logs := newRepo(t, dir, serve.Options{Poll: -1, MaxModels: 1})
	require.Equal(t, []string{"f " + version(marshal(t, trainBinary[float32](t, 1, 50, 4, false))) + " READY"}, index(t, s, ""))
	require.Contains(t, logs.String(), "more than 1 models, the limit (-max-models)")
}

// TestRepositoryLoad drives a repository on loopback with concurrent
// clients (at least 2400 requests, 600 under -short, and 12 rounds of
// changes) (binary and JSON /predict by path and by query, and the Open
// Inference Protocol's inference) while Watch and Reload pick up its
// changes: two models replaced over and over by versions that disagree
// (one of them now and then by a corrupt file), a third removed and added
// back, and a bad file beside them all along. No request to a model that
// stays fails; the one that comes and goes answers or is 404; the bad one
// is 503; and every answer names a version that was on disk for the model
// it asked for and holds exactly what that version predicts.
func TestRepositoryLoad(t *testing.T) {
	const d, clients = 8, 4
	requests := 2400
	if testing.Short() {
		requests = 600
	}
	dir := t.TempDir()
	type version struct {
		name string
		m    *linear.Model[float32]
		file []byte
	}
	versions := map[string]version{} // by the version the server names
	files := map[string][2][]byte{}  // by model name: its two versions' files
	for i, name := range []string{"s0", "s1", "c0"} {
		var f [2][]byte
		for j := range 2 {
			m := trainBinary[float32](t, uint64(10+i), 100, d, j == 1)
			f[j] = marshal(t, m)
			versions[serveVersion(f[j])] = version{name, m, f[j]}
		}
		files[name] = f
		writeAtomic(t, filepath.Join(dir, name+".model"), f[0])
	}
	require.Len(t, versions, 6)
	writeAtomic(t, filepath.Join(dir, "bad.model"), []byte("RBLTPCPT but not a model"))
	s, _ := newRepo(t, dir, serve.Options{Poll: time.Millisecond})
	base := start(t, s)

	// The requests: rows whose labels the versions disagree on.
	const kinds = 6
	X := make([][]float32, kinds)
	for k := range X {
		X[k] = randRows[float32](uint64(200+k), 1+3*k, d) // up to 16 rows: Predict and PredictBatch
	}
	var sent, failed, gone atomic.Int64
	var stop atomic.Bool
	answered := make([]map[string]int, clients)
	var wg sync.WaitGroup
	for c := range clients {
		answered[c] = map[string]int{}
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(c), 7))
			client := &http.Client{Timeout: 30 * time.Second}
			fail := func(f string, a ...any) {
				failed.Add(1)
				t.Errorf(f, a...)
			}
			for i := sent.Add(1); !stop.Load(); i = sent.Add(1) {
				k := int(i) % kinds
				name := []string{"s0", "s1", "c0", "bad"}[rng.IntN(4)]
				n := len(X[k]) / d
				var url, ct string
				var body []byte
				proto := int(i/kinds) % 3
				switch proto {
				case 0:
					url, ct, body = base+"/predict/"+name, ctBin, serve.AppendRequest(nil, X[k], d, false)
				case 1:
					rows := make([][]float32, n)
					for r := range rows {
						rows[r] = X[k][r*d : (r+1)*d]
					}
					url, ct = base+"/predict?model="+name, ctJSON
					body, _ = json.Marshal(map[string]any{"rows": rows})
				case 2:
					url, ct = base+"/v2/models/"+name+"/infer", ctJSON
					body, _ = json.Marshal(map[string]any{"inputs": []any{map[string]any{
						"name": "input", "shape": []int{n, d}, "datatype": "FP32", "data": X[k]}},
						"outputs": []any{map[string]any{"name": "label"}}})
				}
				code, v, out := post(t, client, url, ct, body)
				switch {
				case name == "bad":
					if code != 503 {
						fail("request %d to the bad model: status %d: %s", i, code, out)
					}
					continue
				case name == "c0" && code == 404:
					gone.Add(1)
					continue
				case code != 200:
					fail("request %d to %s: status %d: %s", i, name, code, out)
					continue
				}
				ver, ok := versions[v]
				if !ok || ver.name != name {
					fail("request %d to %s answered by version %q, which was never on disk for it (it is %q's)", i, name, v, ver.name)
					continue
				}
				var labels []int
				switch proto {
				case 0:
					var r serve.Response
					if err := serve.ParseResponse(&r, out); err != nil {
						fail("request %d: %v", i, err)
						continue
					}
					labels = r.Labels
				case 1:
					var r jsonResponse
					if err := json.Unmarshal(out, &r); err != nil || r.Model != v {
						fail("request %d: %v, body names %q, header %q", i, err, r.Model, v)
						continue
					}
					labels = r.Labels
				case 2:
					var r struct {
						ModelName    string `json:"model_name"`
						ModelVersion string `json:"model_version"`
						Outputs      []struct {
							Name string
							Data []int
						}
					}
					if err := json.Unmarshal(out, &r); err != nil || r.ModelName != name || r.ModelVersion != v || len(r.Outputs) == 0 {
						fail("request %d: %v: %s", i, err, out)
						continue
					}
					labels = r.Outputs[0].Data
				}
				want := make([]int, n)
				for r := range n {
					want[r], _ = ver.m.Predict(X[k][r*d : (r+1)*d])
				}
				if fmt.Sprint(labels) != fmt.Sprint(want) {
					fail("request %d to %s: version %s answered %v; it predicts %v", i, name, v, labels, want)
				}
				answered[c][v]++
			}
		})
	}
	corrupt := []byte("RBLTPCPT corrupt")
	rounds := 0
	// At least 12 rounds, so that every version is on disk a while.
	for round := 0; round < 12 || sent.Load() < int64(requests); round++ {
		name := []string{"s0", "s1"}[round%2]
		path := filepath.Join(dir, name+".model")
		if round%5 == 4 {
			writeAtomic(t, path, corrupt)
			time.Sleep(3 * time.Millisecond)
		}
		writeAtomic(t, path, files[name][(round/2+1)%2])
		c0 := filepath.Join(dir, "c0.model")
		if round%3 == 0 {
			os.Remove(c0)
		} else {
			writeAtomic(t, c0, files["c0"][round%2])
		}
		if round%4 == 0 {
			s.Reload() // besides Watch
		}
		rounds++
		time.Sleep(4 * time.Millisecond)
	}
	stop.Store(true)
	wg.Wait()
	require.Zero(t, failed.Load())
	total := map[string]int{}
	for _, a := range answered {
		for v, n := range a {
			total[versions[v].name+" "+v[:4]] += n
		}
	}
	t.Logf("%d requests, %d rounds, c0 gone for %d; answers by model and version: %v", sent.Load()-clients, rounds, gone.Load(), total)
	require.Len(t, total, 6, "every version of every model answered")
	require.Positive(t, gone.Load(), "c0 was away for some requests")
}

// serveVersion is version, for use where the name is shadowed.
func serveVersion(data []byte) string { return version(data) }
