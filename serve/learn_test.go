package serve_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/linear"

	"github.com/rosenblatt-go/rosenblatt/online"
	"github.com/rosenblatt-go/rosenblatt/serve"
)

const testToken = "s3cret-token"

// linear returns a binary (classes 2) or one-vs-rest model file of d
// features, weights w0 everywhere.
func linearFile[T float32 | float64](t testing.TB, d, classes int, w0 T, algo linear.Algorithm) []byte {
	st := linear.State[T]{Scheme: fit.Binary, Algorithm: algo, Dims: d, Labels: []int{-1, 1}, Eta: 1, Bias: true, BiasFeature: 1, Steps: 1}
	if classes > 2 {
		st.Scheme, st.Labels = fit.OneVsRest, nil
		for c := range classes {
			st.Labels = append(st.Labels, c)
		}
	}
	r := st.Rows()
	st.W, st.B = make([]T, r*d), make([]T, r)
	for i := range st.W {
		st.W[i] = w0
	}
	if algo == linear.Averaged {
		st.CW, st.CB, st.U, st.UB = append([]T(nil), st.W...), make([]T, r), make([]T, r*d), make([]T, r)
	}
	m, err := linear.New(st)
	if err != nil {
		t.Fatal(err)
	}
	return marshal(t, m)
}

type learnServer struct {
	s    *serve.Server
	url  string
	path string
	log  *logBuffer
}

func newLearnServer(t *testing.T, data []byte, lo serve.LearnOptions) *learnServer {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "m.model")
	writeAtomic(t, path, data)
	if lo.Dir == "" {
		lo.Dir = filepath.Join(dir, "learn")
	}
	lb := new(logBuffer)
	s, err := serve.NewLearning(path, lo, serve.Options{Logger: slog.New(slog.NewTextHandler(lb, nil)), Poll: -1})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(s)
	t.Cleanup(func() {
		hs.Close()
		s.CloseLearning()
	})
	return &learnServer{s, hs.URL, path, lb}
}

func (ls *learnServer) do(t *testing.T, method, path, token, body string) (int, []byte) {
	t.Helper()
	req, _ := http.NewRequest(method, ls.url+path, strings.NewReader(body))
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

type learnAnswer struct {
	Version   uint64 `json:"version"`
	Model     string `json:"model"`
	Duplicate bool   `json:"duplicate"`
	Mistakes  int    `json:"mistakes"`
	Predicted []int  `json:"predicted"`
}

func (ls *learnServer) learn(t *testing.T, body string) learnAnswer {
	t.Helper()
	code, b := ls.do(t, "POST", "/learn", testToken, body)
	if code != 200 {
		t.Fatalf("POST /learn %s: %d %s", body, code, b)
	}
	var a learnAnswer
	if err := json.Unmarshal(b, &a); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return a
}

// TestLearnAccess: without a configured token the learning and admin
// endpoints are closed (403); with one, a request without it or with
// another is refused (401), with it accepted; predictions are open unless
// protected, health always.
func TestLearnAccess(t *testing.T) {
	data := linearFile[float32](t, 3, 2, 0, linear.Online)
	closed := newLearnServer(t, data, serve.LearnOptions{})
	for _, p := range []string{"/learn", "/admin/checkpoint", "/admin/model"} {
		if code, b := closed.do(t, "POST", p, testToken, `{"x":[1,2,3],"y":1}`); code != 403 {
			t.Errorf("%s without a configured token: %d %s, want 403", p, code, b)
		}
	}
	open := newLearnServer(t, data, serve.LearnOptions{Token: testToken, ProtectPredict: true})
	for _, tok := range []string{"", "wrong", testToken + "x", testToken[:len(testToken)-1]} {
		if code, b := open.do(t, "POST", "/learn", tok, `{"x":[1,2,3],"y":1}`); code != 401 {
			t.Errorf("token %q: %d %s, want 401", tok, code, b)
		}
		if code, _ := open.do(t, "GET", "/learn/status", tok, ""); code != 401 {
			t.Errorf("status with token %q: %d, want 401", tok, code)
		}
		if code, _ := open.do(t, "POST", "/predict", tok, `{"x":[1,2,3]}`); code != 401 {
			t.Errorf("protected predict with token %q: %d, want 401", tok, code)
		}
	}
	if code, _ := open.do(t, "GET", "/healthz", "", ""); code != 200 {
		t.Errorf("healthz: %d", code)
	}
	if code, b := open.do(t, "POST", "/predict", testToken, `{"x":[1,2,3]}`); code != 200 {
		t.Errorf("predict with the token: %d %s", code, b)
	}
	if a := open.learn(t, `{"x":[1,2,3],"y":1}`); a.Version != 1 {
		t.Errorf("%+v", a)
	}
	if st, ok := open.s.LearnStatus(); !ok || st.Version != 1 || st.Samples != 1 {
		t.Errorf("status %+v", st)
	}
}

// TestLearnEndpoint: /learn applies the rule (the prediction before the
// update, the mistakes), dense and sparse, one sample or several, and a
// key is applied once; /predict then answers the learnt model.
func TestLearnEndpoint(t *testing.T) {
	for _, elem := range []string{"float32", "float64"} {
		t.Run(elem, func(t *testing.T) {
			data := linearFile[float32](t, 4, 3, 0, linear.Online)
			if elem == "float64" {
				data = linearFile[float64](t, 4, 3, 0, linear.Online)
			}
			ls := newLearnServer(t, data, serve.LearnOptions{Token: testToken})
			// From w = 0 every score is 0: a mistake for every row; the
			// prediction is the first class.
			a := ls.learn(t, `{"key":"one","x":[1,0,0,0],"y":2}`)
			if a.Version != 1 || a.Mistakes != 1 || len(a.Predicted) != 1 || a.Predicted[0] != 0 || a.Duplicate {
				t.Fatalf("%+v", a)
			}
			if a := ls.learn(t, `{"key":"one","x":[1,0,0,0],"y":2}`); !a.Duplicate || a.Version != 1 || a.Predicted != nil {
				t.Fatalf("re-sent key: %+v", a)
			}
			// Class 2 now wins on feature 0 and (its bias) on feature 1,
			// until class 1 learns it: rows (w, b) = (-e0, -1),
			// (-e0 + e1, 0), (e0 - e1, 0).
			a = ls.learn(t, `{"key":"two","samples":[{"x":[1,0,0,0],"y":2},{"idx":[1],"x":[1],"y":1},{"idx":[1],"x":[1],"y":1}]}`)
			if a.Version != 2 || fmt.Sprint(a.Predicted) != "[2 2 1]" || a.Mistakes != 1 {
				t.Fatalf("%+v: want predictions [2 2 1] and one mistake", a)
			}
			code, _, b := post(t, http.DefaultClient, ls.url+"/predict", "application/json", []byte(`{"rows":[[1,0,0,0],[0,1,0,0],[0,0,1,0]]}`))
			var p jsonResponse
			if code != 200 || json.Unmarshal(b, &p) != nil || fmt.Sprint(p.Labels) != "[2 1 1]" {
				t.Fatalf("predict after learning: %d %s, want labels [2 1 1]", code, b)
			}
			code, b = ls.do(t, "GET", "/learn/status", testToken, "")
			var st online.Status
			if code != 200 || json.Unmarshal(b, &st) != nil || st.Version != 2 || st.Duplicates != 1 || st.Samples != 4 {
				t.Fatalf("status: %d %s", code, b)
			}
			code, b = ls.do(t, "POST", "/admin/checkpoint", testToken, "")
			if code != 200 || !bytes.Contains(b, []byte(`"checkpoint":2`)) {
				t.Fatalf("checkpoint: %d %s", code, b)
			}
		})
	}
}

func TestLearnBadRequests(t *testing.T) {
	ls := newLearnServer(t, linearFile[float32](t, 3, 2, 0, linear.Online), serve.LearnOptions{Token: testToken})
	for body, want := range map[string]int{
		``:                                400,
		`{}`:                              400,
		`[1]`:                             400,
		`{"x":[1,2,3]}`:                   400,
		`{"y":1}`:                         400,
		`{"x":[1,2],"y":1}`:               400,
		`{"x":[1,2,3,4],"y":1}`:           400,
		`{"x":[1,2,3],"y":2}`:             400,
		`{"x":[1,2,3],"y":1.5}`:           400,
		`{"x":[1,2,3],"y":"1"}`:           400,
		`{"x":[1,null,3],"y":1}`:          400,
		`{"x":[1,NaN,3],"y":1}`:           400,
		`{"x":[1,2,3],"y":1,"x":[1,2,3]}`: 400,
		`{"x":[1,2,3],"y":1,"z":0}`:       400,
		`{"x":[1,2,3],"y":1} x`:           400,
		`{"idx":[0,0],"x":[1,2],"y":1}`:   400,
		`{"idx":[3],"x":[1],"y":1}`:       400,
		`{"idx":[0,1],"x":[1],"y":1}`:     400,
		`{"idx":[-1],"x":[1],"y":1}`:      400,
		`{"samples":[]}`:                  400,
		`{"samples":[{"x":[1,2,3]}]}`:     400,
		`{"samples":[{"x":[1,2,3],"y":1}],"x":[1,2,3]}`: 400,
		`{"key":5,"x":[1,2,3],"y":1}`:                   400,
		`{"key":"a\"b","x":[1,2,3],"y":1}`:              400,
		`{"x":[1,2,3],"y":1e300}`:                       400,
		`{"x":[1,2,3],"y":1`:                            400,
	} {
		if code, b := ls.do(t, "POST", "/learn", testToken, body); code != want {
			t.Errorf("%s: %d %s, want %d", body, code, b, want)
		}
	}
	if code, _ := ls.do(t, "GET", "/learn", testToken, ""); code != 405 {
		t.Errorf("GET /learn: %d", code)
	}
	if st, _ := ls.s.LearnStatus(); st.Version != 0 {
		t.Fatalf("bad requests moved the version to %d", st.Version)
	}
}

// TestLearnTrailingData: the body must end after the request's object.
func TestLearnTrailingData(t *testing.T) {
	ls := newLearnServer(t, linearFile[float32](t, 3, 2, 0, linear.Online), serve.LearnOptions{Token: testToken})
	if code, b := ls.do(t, "POST", "/learn", testToken, `{"x":[1,2,3],"y":1}{"x":[1,2,3],"y":1}`); code != 400 {
		t.Fatalf("two objects: %d %s, want 400", code, b)
	}
}

// TestLearnUnsupported: a model that does not learn online is served, and
// /learn says why (422).
func TestLearnUnsupported(t *testing.T) {
	st := linear.State[float32]{Scheme: fit.Binary, Algorithm: linear.SVM, Dims: 2, Labels: []int{-1, 1},
		W: []float32{1, 0}, B: []float32{0}, Eta: 1}
	m, _ := linear.New(st)
	ls := newLearnServer(t, marshal(t, m), serve.LearnOptions{Token: testToken})
	code, b := ls.do(t, "POST", "/learn", testToken, `{"x":[1,2],"y":1}`)
	if code != 422 || !strings.Contains(string(b), "SVM") {
		t.Fatalf("%d %s, want 422 naming the SVM", code, b)
	}
	if code, _, _ := post(t, http.DefaultClient, ls.url+"/predict", "application/json", []byte(`{"x":[1,2]}`)); code != 200 {
		t.Fatalf("predict: %d", code)
	}
}

// TestLearnModelReplaced: a model file replaced while learning is refused
// (the learnt model kept, the refusal logged) until POST /admin/model
// adopts it.
func TestLearnModelReplaced(t *testing.T) {
	ls := newLearnServer(t, linearFile[float32](t, 2, 2, 0, linear.Online), serve.LearnOptions{Token: testToken})
	ls.learn(t, `{"x":[1,0],"y":1}`) // w = (1, 0), b = 1
	writeAtomic(t, ls.path, linearFile[float32](t, 2, 2, -1, linear.Online))
	if _, err := ls.s.Reload(); !errors.Is(err, online.ErrBaseChanged) {
		t.Fatalf("reload of a replaced file: %v, want ErrBaseChanged", err)
	}
	predict := func() string {
		_, _, b := post(t, http.DefaultClient, ls.url+"/predict", "application/json", []byte(`{"x":[1,0]}`))
		return string(b)
	}
	if p := predict(); !strings.Contains(p, `"label":1`) {
		t.Fatalf("the learnt model must stay: %s", p)
	}
	if !strings.Contains(ls.log.String(), "changed on disk while learning") {
		t.Fatalf("the refusal is not logged: %s", ls.log.String())
	}
	code, b := ls.do(t, "POST", "/admin/model", testToken, "")
	if code != 200 || !bytes.Contains(b, []byte(`"adopted":true`)) {
		t.Fatalf("adopt: %d %s", code, b)
	}
	if p := predict(); !strings.Contains(p, `"label":-1`) {
		t.Fatalf("after adopting, the new file's model answers: %s", p)
	}
	if a := ls.learn(t, `{"x":[1,0],"y":1}`); a.Version != 3 || a.Predicted[0] != -1 {
		t.Fatalf("learning after adopting: %+v", a)
	}
}

// TestLearnRate: a client over its rate gets 429.
func TestLearnRate(t *testing.T) {
	ls := newLearnServer(t, linearFile[float32](t, 2, 2, 0, linear.Online), serve.LearnOptions{Token: testToken, Rate: 0.001, Burst: 2})
	codes := []int{}
	for range 3 {
		c, _ := ls.do(t, "POST", "/learn", testToken, `{"x":[1,0],"y":1}`)
		codes = append(codes, c)
	}
	if fmt.Sprint(codes) != "[200 200 429]" {
		t.Fatalf("codes %v, want [200 200 429]", codes)
	}
}
