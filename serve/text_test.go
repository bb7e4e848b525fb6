package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math"
	"math/rand/v2"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/internal/memtest"
	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/linear"
	"github.com/rosenblatt-go/rosenblatt/model"
	"github.com/rosenblatt-go/rosenblatt/perceptron"
	"github.com/rosenblatt-go/rosenblatt/text"
)

// Label names that JSON must escape, and one that it need not.
var textNames = []string{`say "hi"`, "tab\there", "<b>&amp;</b>", "ünïcödé 東京"}

// textVocab is each class's words: the documents of class c draw most of
// their words from textVocab[c].
var textVocab = [][]string{
	{"cat", "kitten", "purr", "meow", "whiskers", "café", "naïve", "litter"},
	{"dog", "puppy", "bark", "woof", "leash", "fetch", "bone", "Ärger"},
	{"stock", "market", "bond", "yield", "rally", "東京", "日本", "price"},
	{"goal", "match", "score", "team", "coach", "ΣΊΣΥΦΟΣ", "league", "cup"},
}

// textDoc returns a document of class c (other classes' words mixed in
// with probability mix), with punctuation, emoji and upper case.
func textDoc(rng *rand.Rand, c int, mix float64) string {
	var sb strings.Builder
	for i := range 6 + rng.IntN(14) {
		if i > 0 {
			sb.WriteString([]string{" ", " ", ", ", "! ", " 🙂 ", "\t"}[rng.IntN(6)])
		}
		k := c
		if rng.Float64() < mix {
			k = rng.IntN(len(textVocab))
		}
		w := textVocab[k][rng.IntN(len(textVocab[k]))]
		if rng.IntN(5) == 0 {
			w = strings.ToUpper(w)
		}
		sb.WriteString(w)
	}
	return sb.String()
}

// trainTextModel trains a 4-class text model of element type T on
// documents of textDoc.
func trainTextModel[T kernel.Float](t testing.TB) *model.Text {
	t.Helper()
	f, err := text.New(text.Options{Bits: 12, WordNGrams: 2, CharMin: 2, CharMax: 3, TF: text.Log, Signed: true})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	r := text.NewRows[T](f)
	for i := range 400 {
		r.AppendString(textDoc(rng, i%4, 0.3), 10+i%4)
	}
	m, _, err := perceptron.Fit(context.Background(), r.CSR, r.CSR.Y, perceptron.Options{Algorithm: linear.Averaged, MaxIter: 5})
	if err != nil {
		t.Fatal(err)
	}
	tm, err := model.NewText(f, m, textNames)
	if err != nil {
		t.Fatal(err)
	}
	return tm
}

// textServer returns a server of tm (its file written, so that the
// default decoder reads it) with options opt.
func textServer(t testing.TB, tm *model.Text, opt Options) *Server {
	t.Helper()
	path := filepath.Join(t.TempDir(), "docs.model")
	if err := model.SaveFile(path, tm, model.Binary); err != nil {
		t.Fatal(err)
	}
	opt.Logger, opt.Poll = slog.New(slog.NewTextHandler(io.Discard, nil)), -1
	s, err := New(path, nil, opt)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// do serves one request to url and returns the recorder.
func do(s *Server, url, body string) *httptest.ResponseRecorder {
	w := httptest.NewRecorder()
	s.ServeHTTP(w, httptest.NewRequest("POST", url, strings.NewReader(body)))
	return w
}

// wantText returns the library's label name and scores of doc.
func wantText(t *testing.T, tm *model.Text, doc string) (string, []float64) {
	t.Helper()
	name, err := tm.PredictText(doc)
	if err != nil {
		t.Fatal(err)
	}
	sc := make([]float64, tm.NumScores())
	if err := tm.ScoresText(sc, doc); err != nil {
		t.Fatal(err)
	}
	return name, sc
}

// sameScores fails unless the server's scores are the library's, bit for
// bit in the model's element type.
func sameScores(t *testing.T, what string, got, want []float64, elem string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d scores, want %d", what, len(got), len(want))
	}
	for j := range got {
		g, w := got[j], want[j]
		if elem == "float32" {
			g, w = float64(float32(g)), float64(float32(w))
		}
		if math.Float64bits(g) != math.Float64bits(w) {
			t.Fatalf("%s: score %d is %v, the library's %v", what, j, got[j], want[j])
		}
	}
}

// TestTextPredict: a text model answers /predict's {"text"} and
// {"texts"} and the Open Inference Protocol's BYTES input with the
// labels' names and scores the library gives for the same documents
// (model.Text.PredictText, ScoresText), float32 and float64, through the
// file the command would serve.
func TestTextPredict(t *testing.T) {
	for _, tm := range []*model.Text{trainTextModel[float32](t), trainTextModel[float64](t)} {
		elem := model.Elem(tm)
		t.Run(elem, func(t *testing.T) {
			s := textServer(t, tm, Options{})
			rng := rand.New(rand.NewPCG(7, 8))
			docs := make([]string, 120)
			seen := map[string]bool{}
			for i := range docs {
				docs[i] = textDoc(rng, i%4, 0.6)
				name, _ := wantText(t, tm, docs[i])
				seen[name] = true
			}
			docs = append(docs, "", "   ", "🙂🙂", "\u0000 nul and \u2028 line separator")
			if len(seen) < 4 {
				t.Fatalf("the test documents have %d labels, want all 4", len(seen))
			}
			body, _ := json.Marshal(map[string]any{"texts": docs})
			w := do(s, "/predict?scores=1", string(body))
			if w.Code != 200 {
				t.Fatalf("%d %s", w.Code, w.Body)
			}
			var resp struct {
				Model  string
				Labels []string
				Scores [][]float64
			}
			if err := json.Unmarshal(w.Body.Bytes(), &resp); err != nil {
				t.Fatalf("%v: %s", err, w.Body)
			}
			if resp.Model != s.Current().Version || len(resp.Labels) != len(docs) || len(resp.Scores) != len(docs) {
				t.Fatalf("response %s", w.Body)
			}
			for i, d := range docs {
				name, sc := wantText(t, tm, d)
				if resp.Labels[i] != name {
					t.Fatalf("text %d %q: %q, the library's %q", i, d, resp.Labels[i], name)
				}
				sameScores(t, fmt.Sprintf("text %d", i), resp.Scores[i], sc, elem)
			}
			// One document, with the scores asked for in the body.
			for _, d := range docs[:8] {
				body, _ := json.Marshal(map[string]any{"scores": true, "text": d})
				w := do(s, "/predict", string(body))
				var one struct {
					Label  string
					Scores []float64
				}
				if err := json.Unmarshal(w.Body.Bytes(), &one); w.Code != 200 || err != nil {
					t.Fatalf("%d %s", w.Code, w.Body)
				}
				name, sc := wantText(t, tm, d)
				if one.Label != name {
					t.Fatalf("%q: %q, the library's %q", d, one.Label, name)
				}
				sameScores(t, d, one.Scores, sc, elem)
			}
			// The Open Inference Protocol: BYTES [n] flat, and [n, 1]
			// one array per row.
			nested := make([][]string, len(docs))
			for i, d := range docs {
				nested[i] = []string{d}
			}
			flat, _ := json.Marshal(docs)
			rows, _ := json.Marshal(nested)
			for _, c := range []struct{ shape, data string }{
				{fmt.Sprintf("[%d]", len(docs)), string(flat)},
				{fmt.Sprintf("[%d, 1]", len(docs)), string(rows)},
			} {
				body := `{"id": "r\"1", "inputs": [{"name": "input", "shape": ` + c.shape + `, "datatype": "BYTES", "parameters": {"content_type": "str"}, "data": ` + c.data + `}]}`
				w := do(s, "/v2/models/docs/infer", body)
				if w.Code != 200 {
					t.Fatalf("%d %s", w.Code, w.Body)
				}
				var ir struct {
					ID      string `json:"id"`
					Outputs []struct {
						Name, Datatype string
						Shape          []int
						Data           json.RawMessage
					}
				}
				if err := json.Unmarshal(w.Body.Bytes(), &ir); err != nil {
					t.Fatalf("%v: %s", err, w.Body)
				}
				if ir.ID != `r"1` || len(ir.Outputs) != 2 || ir.Outputs[0].Datatype != "BYTES" || ir.Outputs[0].Shape[0] != len(docs) {
					t.Fatalf("response %s", w.Body)
				}
				var names []string
				var sc []float64
				json.Unmarshal(ir.Outputs[0].Data, &names)
				json.Unmarshal(ir.Outputs[1].Data, &sc)
				k := tm.NumScores()
				for i, d := range docs {
					name, want := wantText(t, tm, d)
					if names[i] != name {
						t.Fatalf("infer, text %d: %q, the library's %q", i, names[i], name)
					}
					sameScores(t, "infer", sc[i*k:(i+1)*k], want, elem)
				}
			}
			// The featurized rows in the binary format: the inner model's
			// integer labels.
			d := tm.Dims()
			X := make([]float64, 8*d)
			fr := text.NewRows[float64](tm.Featurizer())
			for i, doc := range docs[:8] {
				var row dataset.SparseRow[float64]
				row = fr.Row(row, []byte(doc))
				for k, j := range row.Idx {
					X[i*d+int(j)] = row.Val[k]
				}
			}
			r := httptest.NewRequest("POST", "/predict", bytes.NewReader(AppendRequest(nil, X, d, false)))
			r.Header.Set("Content-Type", "application/octet-stream")
			bw := httptest.NewRecorder()
			s.ServeHTTP(bw, r)
			var br Response
			if err := ParseResponse(&br, bw.Body.Bytes()); bw.Code != 200 || err != nil {
				t.Fatalf("binary: %d %v %q", bw.Code, err, bw.Body)
			}
			for i, doc := range docs[:8] {
				want, _ := tm.PredictTextLabel(doc)
				if br.Labels[i] != want {
					t.Fatalf("binary, text %d: label %d, the library's %d", i, br.Labels[i], want)
				}
			}
			// The metadata and /healthz say what the model takes and answers.
			w = httptest.NewRecorder()
			s.ServeHTTP(w, httptest.NewRequest("GET", "/v2/models/docs", nil))
			if !strings.Contains(w.Body.String(), `"inputs":[{"name":"input","datatype":"BYTES","shape":[-1]}]`) ||
				!strings.Contains(w.Body.String(), `{"name":"label","datatype":"BYTES","shape":[-1]}`) {
				t.Fatalf("metadata %s", w.Body)
			}
			if got := s.Current().Names; !slicesEqual(got, textNames) {
				t.Fatalf("Info.Names %q", got)
			}
		})
	}
}

func slicesEqual(a, b []string) bool {
	return strings.Join(a, "\x00") == strings.Join(b, "\x00") && len(a) == len(b)
}

// TestTextEscapes: JSON escapes (surrogate pairs, a lone surrogate read as
// U+FFFD as encoding/json reads it, \u0000, \/) and multi-byte runes are
// decoded as encoding/json decodes them, also where they straddle the
// scanner's 16 KiB buffer: the label and scores are the library's of the
// decoded document.
func TestTextEscapes(t *testing.T) {
	tm := trainTextModel[float32](t)
	s := textServer(t, tm, Options{})
	piece := `caf\u00e9 \u00C9T\u00c9 dog\/puppy \ud83d\ude00 lone\ud800high \udc00low \"quoted\" tab\tnew\nline \u0000 東京 ΣΊΣΥΦΟΣ 😀 \\ `
	long := strings.Repeat(piece, 20<<10/len(piece)+50) // longer than the scanner's buffer, escapes across its end
	for i, lit := range []string{piece, long, long[7:], long[13:] + `a`} {
		for strings.HasSuffix(lit, `\`) && !strings.HasSuffix(lit, `\\`) {
			lit = lit[:len(lit)-1]
		}
		// Cut at a valid point: re-marshal what encoding/json decodes.
		var doc string
		if err := json.Unmarshal([]byte(`"`+lit+`"`), &doc); err != nil {
			// A cut escape: drop the piece's first bytes until it decodes.
			for k := 1; err != nil && k < 12; k++ {
				err = json.Unmarshal([]byte(`"`+lit[k:]+`"`), &doc)
				if err == nil {
					lit = lit[k:]
				}
			}
			if err != nil {
				t.Fatalf("case %d does not decode: %v", i, err)
			}
		}
		w := do(s, "/predict?scores=1", `{"text": "`+lit+`"}`)
		var one struct {
			Label  string
			Scores []float64
		}
		if err := json.Unmarshal(w.Body.Bytes(), &one); w.Code != 200 || err != nil {
			t.Fatalf("case %d: %d %s", i, w.Code, w.Body)
		}
		name, sc := wantText(t, tm, doc)
		if one.Label != name {
			t.Fatalf("case %d: %q, the library's %q", i, one.Label, name)
		}
		sameScores(t, strconv.Itoa(i), one.Scores, sc, "float32")
	}
	// The lone surrogates are U+FFFD, which separates tokens: "lone\ud800high"
	// is the words lone and high.
	a, _ := wantText(t, tm, "lone\uFFFDhigh")
	b := do(s, "/predict", `{"text": "lone\ud800high"}`)
	if !strings.Contains(b.Body.String(), `"label":`+string(mustJSON(a))) {
		t.Fatalf("a lone surrogate: %s, want %q", b.Body, a)
	}
}

func mustJSON(v any) []byte { b, _ := json.Marshal(v); return b }

// TestTextRefused: malformed or hostile text is refused with a 4xx naming
// the problem, text to a model that is not a text model and numbers to a
// text model are refused saying what the model takes, and limits name
// their flag.
func TestTextRefused(t *testing.T) {
	tm := trainTextModel[float32](t)
	s := textServer(t, tm, Options{MaxBodyBytes: 1 << 20, MaxInflightBytes: 4 << 20})
	big := strings.Repeat("ab ", 300<<10) // 900 KB: within -max-body, its featurizing over the budget
	for _, c := range []struct {
		url, body string
		code      int
		msg       string
	}{
		{"/predict", "{\"text\": \"bad \xff byte\"}", 400, "not valid UTF-8"},
		{"/predict", "{\"text\": \"a surrogate \xed\xa0\x80 in UTF-8\"}", 400, "not valid UTF-8"},
		{"/predict", "{\"text\": \"overlong \xc0\xaf\"}", 400, "not valid UTF-8"},
		{"/predict", "{\"text\": \"cut \xe6\x9d", 400, "truncated JSON"},
		{"/predict", "{\"text\": \"raw \x01 control\"}", 400, "control character"},
		{"/predict", "{\"text\": \"raw \n newline\"}", 400, "control character"},
		{"/predict", `{"text": "bad \x escape"}`, 400, "invalid escape"},
		{"/predict", `{"text": "bad \u12G4 escape"}`, 400, "invalid escape"},
		{"/predict", `{"text": "cut \u12`, 400, "truncated JSON"},
		{"/predict", `{"text": "unterminated`, 400, "truncated JSON"},
		{"/predict", `{"text": 5}`, 400, `"text" is a number, not a string`},
		{"/predict", `{"text": null}`, 400, `"text" is null, not a string`},
		{"/predict", `{"texts": ["a", 7]}`, 400, "text 1 is a number, not a string"},
		{"/predict", `{"texts": []}`, 400, "empty batch"},
		{"/predict", `{"texts": "a"}`, 400, "a string where an array was expected"},
		{"/predict", `{"text": "a", "texts": ["b"]}`, 400, `both "text" and "texts"`},
		{"/predict", `{"text": "a", "text": "b"}`, 400, `field "text" twice`},
		{"/predict", `{"scores": 1, "text": "a"}`, 400, `"scores" is a number, not true or false`},
		{"/predict", `{"text": "a"} {}`, 400, "data after the request object"},
		{"/predict", `{"txt": "a"}`, 400, `unknown field "txt"`},
		{"/predict", `{}`, 400, `neither "text"`},
		{"/predict", `["a"]`, 400, "an array, not an object"},
		{"/predict", `{"x": [1, 2]}`, 400, "the model is a text model"},
		{"/predict", `{"rows": [[1, 2]]}`, 400, "the model is a text model"},
		{"/predict", `{"text": "` + strings.Repeat("a", 1<<20) + `"}`, 413, "(-max-body)"},
		{"/predict", `{"text": "` + big + `"}`, 413, "(-max-inflight-bytes)"},
		{"/v2/models/docs/infer", `{"inputs": [{"name": "input", "shape": [1, 4096], "datatype": "FP32", "data": [1]}]}`, 400, "its input is BYTES"},
		{"/v2/models/docs/infer", `{"inputs": [{"name": "input", "shape": [2], "datatype": "BYTES", "data": ["a"]}]}`, 400, "holds 1 strings, its shape [2] needs 2"},
		{"/v2/models/docs/infer", `{"inputs": [{"name": "input", "shape": [1, 2], "datatype": "BYTES", "data": [["a", "b"]]}]}`, 400, "more than one string"},
		{"/v2/models/docs/infer", `{"inputs": [{"name": "input", "shape": [1, 2], "datatype": "BYTES", "data": ["a"]}]}`, 400, "[n] or [n, 1]"},
		{"/v2/models/docs/infer", `{"inputs": [{"name": "input", "shape": [1], "datatype": "BYTES", "data": [3]}]}`, 400, "input element 0 is a number, not a string"},
		{"/v2/models/docs/infer", "{\"inputs\": [{\"name\": \"input\", \"shape\": [1], \"datatype\": \"BYTES\", \"data\": [\"\xff\"]}]}", 400, "not valid UTF-8"},
		{"/v2/models/docs/infer", `{"inputs": [{"name": "input", "shape": [0], "datatype": "BYTES", "data": []}]}`, 400, "empty batch"},
		{"/v2/models/docs/infer", `{"inputs": [{"name": "input", "shape": [1], "datatype": "BYTES", "data": ["a"]}], "outputs": []}`, 400, "names no output"},
	} {
		w := do(s, c.url, c.body)
		if w.Code != c.code || !strings.Contains(w.Body.String(), c.msg) {
			t.Errorf("%.80q: %d %s, want %d %q", c.body, w.Code, w.Body, c.code, c.msg)
		}
	}
	if now, peak := InFlight(s); now != 0 || peak > 4<<20 {
		t.Fatalf("in flight after the refusals: %d, peak %d", now, peak)
	}
	// A model that is not a text model refuses text, saying what it takes.
	n := testServer(t, linearStub[float32]{4})
	for _, c := range []struct{ url, body, msg string }{
		{"/predict", `{"text": "a document"}`, `"text": the model is a model of another package, not a text model: it takes rows of 4 numbers`},
		{"/predict", `{"texts": ["a document"]}`, `"texts": the model is a model of another package, not a text model`},
		{"/v2/models/m/infer", `{"inputs": [{"name": "input", "shape": [1], "datatype": "BYTES", "data": ["a"]}]}`, `datatype \"BYTES\": the model is a model of another package, not a text model`},
	} {
		if w := do(n, c.url, c.body); w.Code != 400 || !strings.Contains(w.Body.String(), c.msg) {
			t.Errorf("%s %s: %d %s, want 400 %q", c.url, c.body, w.Code, w.Body, c.msg)
		}
	}
}

// TestTextMemory: what a text request allocates is what it took from the
// in-flight budget (the documents, the featurizing of the longest, the
// labels), give or take the response's buffers, and not over twice that
// (which would refuse requests the server can answer): a long document
// of one-letter words, the densest text there is, on a fresh server.
func TestTextMemory(t *testing.T) {
	if raceOn {
		t.Skip("the race detector allocates")
	}
	tm := trainTextModel[float32](t)
	s := textServer(t, tm, Options{})
	doc := strings.Repeat("a b ", 100<<10) // 400 KiB, 200 Ki words
	body := `{"text": "` + doc + `"}`
	var w *httptest.ResponseRecorder
	alloc := memtest.Allocated(func() { w = do(s, "/predict", body) })
	if w.Code != 200 {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
	_, peak := InFlight(s)
	t.Logf("%d-byte document: %d bytes allocated, %d taken from the budget", len(doc), alloc, peak)
	if alloc > uint64(peak)+uint64(len(body))+256<<10 {
		t.Fatalf("a %d-byte document allocated %d bytes, more than the %d it took from the budget", len(doc), alloc, peak)
	}
	if uint64(peak) > 2*alloc {
		t.Fatalf("a %d-byte document took %d bytes of the budget, over twice the %d it allocated", len(doc), peak, alloc)
	}
}

// TestTextPooledBuffersNeverLeak: a text request's response is the same
// bytes through fresh buffers and through buffers that served longer
// documents, batches with scores, numbers in the binary format and
// refused requests before.
func TestTextPooledBuffersNeverLeak(t *testing.T) {
	tm := trainTextModel[float64](t)
	s := textServer(t, tm, Options{})
	for _, c := range textLeakSeeds {
		checkTextIndependent(t, s, c)
	}
}

var textLeakSeeds = []string{
	`{"text": "a cat"}`,
	`{"text": ""}`,
	`{"texts": ["dog", "market rally", ""], "scores": true}`,
	`{"texts": ["dog", "market rally", 3]}`,
	`{"text": "a \u00e9 \ud800 dog"}`,
	`{"text": "cut`,
	"{\"text\": \"x\xff\"}",
	`{"texts": ["a", "b"`,
}

// checkTextIndependent fails if body's response through fresh buffers
// differs from its responses through buffers that served other requests.
func checkTextIndependent(t *testing.T, s *Server, body string) {
	t.Helper()
	d := s.first().dims
	rng := rand.New(rand.NewPCG(3, 4))
	var longDocs []string
	for i := range 8 {
		longDocs = append(longDocs, strings.Repeat(textDoc(rng, i%4, 0.5)+" ", 10))
	}
	priors := [][2]string{
		{"application/json", string(mustJSON(map[string]any{"texts": longDocs, "scores": true}))},
		{"application/json", string(mustJSON(map[string]any{"text": longDocs[0] + longDocs[1]}))},
		{"application/octet-stream", string(AppendRequest(nil, make([]float64, 3*d), d, true))},
		{"application/json", `{"texts": ["kitten purr purr", "dog`},
	}
	fresh := exchange(s, new(buffers), "application/json", "?scores=1", []byte(body))
	used := new(buffers)
	for _, p := range priors {
		exchange(s, used, p[0], "?scores=1", []byte(p[1]))
		if got := exchange(s, used, "application/json", "?scores=1", []byte(body)); got != fresh {
			t.Fatalf("%q after a request of %.40q:\n%s\nwith fresh buffers:\n%s", body, p[1], got, fresh)
		}
	}
}

// FuzzTextRequest: any body to a text model gets 200 or a 4xx, the same
// bytes through fresh and used buffers, and a 200 for a body that
// encoding/json reads as {"text": doc} answers the library's label of
// doc; as an inference request, 200 or a 4xx with {"error": ...}.
func FuzzTextRequest(f *testing.F) {
	for _, c := range textLeakSeeds {
		f.Add([]byte(c))
	}
	f.Add([]byte(`{"id": "x", "inputs": [{"name": "input", "shape": [2, 1], "datatype": "BYTES", "data": [["a \u00e9"], ["dog"]]}], "outputs": [{"name": "label"}]}`))
	tm := trainTextModel[float64](f)
	s := textServer(f, tm, Options{MaxBodyBytes: 1 << 16})
	f.Fuzz(func(t *testing.T, body []byte) {
		w := do(s, "/predict", string(body))
		if w.Code != 200 && (w.Code < 400 || w.Code > 499) {
			t.Fatalf("%q: %d %s", body, w.Code, w.Body)
		}
		var req struct{ Text *string }
		if w.Code == 200 && json.Unmarshal(body, &req) == nil && req.Text != nil && !bytes.Contains(body, []byte("texts")) {
			name, _ := tm.PredictText(*req.Text)
			if !strings.Contains(w.Body.String(), `"label":`+string(mustJSON(name))) {
				t.Fatalf("%q: %s, the library's %q", body, w.Body, name)
			}
		}
		checkTextIndependent(t, s, string(body))
		// The same body as an inference request: 200 or a 4xx {"error"}.
		w = do(s, "/v2/models/docs/infer", string(body))
		var e struct{ Error string }
		if w.Code != 200 && (w.Code < 400 || w.Code > 499 || json.Unmarshal(w.Body.Bytes(), &e) != nil || e.Error == "") {
			t.Fatalf("infer %q: %d %s", body, w.Code, w.Body)
		}
	})
}
