package serve_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/internal/cputime"
	"github.com/rosenblatt-go/rosenblatt/serve"
)

// BenchmarkHandlerCPU is the handler in process (no network, no HTTP
// parsing) on bodies of the shape bench/results/serving/wrk-zen5.sh sends
// over loopback: 1 or 64 samples of 784 features with six decimals, binary,
// JSON /predict and the Open Inference Protocol's inference (label and
// scores), against a binary d = 784 float32 model. Besides the wall time it
// reports the CPU time of the benchmark's thread a request (cpu-ns/op),
// which a machine shared with other processes changes least: what the
// handler adds to the HTTP exchange that wrk measures.
func BenchmarkHandlerCPU(b *testing.B) {
	const d = 784
	m := trainBinary[float32](b, 1, 200, d, false)
	s, _, _ := newServer(b, marshal(b, m), serve.Options{Poll: -1})
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 64} {
		X := make([]float32, n*d)
		text := make([]json.RawMessage, n*d)
		for i := range X {
			v := strconv.FormatFloat(rng.Float64(), 'f', 6, 64) // as the wrk script's bodies
			f, _ := strconv.ParseFloat(v, 32)
			X[i], text[i] = float32(f), json.RawMessage(v)
		}
		rows := make([][]json.RawMessage, n)
		for i := range rows {
			rows[i] = text[i*d : (i+1)*d]
		}
		var jb []byte
		if n == 1 {
			jb, _ = json.Marshal(map[string]any{"x": rows[0]})
		} else {
			jb, _ = json.Marshal(map[string]any{"rows": rows})
		}
		ob, _ := json.Marshal(map[string]any{"inputs": []any{map[string]any{"name": "input", "shape": []int{n, d}, "datatype": "FP32", "data": text}}})
		for _, c := range []struct {
			enc, ct, url string
			body         []byte
		}{{"binary", ctBin, "/predict", serve.AppendRequest(nil, X, d, false)}, {"json", ctJSON, "/predict", jb},
			{"oip", ctJSON, "/v2/models/m/infer", ob}} {
			b.Run(fmt.Sprintf("enc=%s/n=%d", c.enc, n), func(b *testing.B) {
				rd := bytes.NewReader(c.body)
				r := httptest.NewRequest("POST", c.url, io.NopCloser(rd))
				r.Header.Set("Content-Type", c.ct)
				w := &discard{h: http.Header{}}
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				b.ReportAllocs()
				cpu := cputime.Thread()
				for b.Loop() {
					rd.Reset(c.body)
					s.ServeHTTP(w, r)
				}
				b.ReportMetric(float64(cputime.Thread()-cpu)/float64(b.N), "cpu-ns/op")
				if w.code != 200 {
					b.Fatal(w.code)
				}
			})
		}
	}
}
