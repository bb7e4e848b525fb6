//go:build linux

package serve_test

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/linear"

	"github.com/rosenblatt-go/rosenblatt/online"
	"github.com/rosenblatt-go/rosenblatt/serve"
)

func learnProcessCPU() float64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

// BenchmarkLearnLoopback: single-sample POST /learn requests over
// loopback TCP from 256 client goroutines (client and server in this
// process, sharing its CPUs), each with its own idempotency key, at each
// sync policy: dense 784-feature samples (six-decimal values, as the
// serving benchmarks send) and sparse ones of 12 stored values of 2^20,
// to binary float32 models. updates/s is wall time; cpu-µs/update the
// process's CPU time (client and server) per request.
func BenchmarkLearnLoopback(b *testing.B) {
	for _, c := range []struct {
		name   string
		d, nnz int
	}{{"dense784", 784, 0}, {"sparse12", 1 << 20, 12}} {
		st := linear.State[float32]{Scheme: fit.Binary, Algorithm: linear.Online, Dims: c.d, Labels: []int{-1, 1},
			W: make([]float32, c.d), B: []float32{0}, Eta: 1, Bias: true, BiasFeature: 1, Steps: 1}
		m, _ := linear.New(st)
		data := marshal(b, m)
		rng := rand.New(rand.NewPCG(1, 2))
		bodies := make([][]byte, 1024)
		for i := range bodies {
			var buf bytes.Buffer
			if c.nnz > 0 {
				buf.WriteString(`{"idx":[`)
				col := 0
				for j := range c.nnz {
					col += 1 + rng.IntN(c.d/c.nnz-1)
					if j > 0 {
						buf.WriteByte(',')
					}
					buf.WriteString(strconv.Itoa(col))
				}
				buf.WriteString(`],"x":[`)
			} else {
				buf.WriteString(`{"x":[`)
			}
			for j := range max(c.nnz, c.d*learnBoolInt(c.nnz == 0)) {
				if j > 0 {
					buf.WriteByte(',')
				}
				buf.WriteString(strconv.FormatFloat(rng.Float64(), 'f', 6, 64))
			}
			fmt.Fprintf(&buf, `],"y":%d,"key":"`, 2*rng.IntN(2)-1)
			bodies[i] = buf.Bytes()
		}
		for _, sp := range []struct {
			name string
			p    online.SyncPolicy
			iv   time.Duration
		}{{"none", online.SyncNone, 0}, {"group-0", online.SyncGroup, 0}, {"group-10ms", online.SyncGroup, 10 * time.Millisecond}, {"request", online.SyncEveryRequest, 0}} {
			b.Run(c.name+"/fsync="+sp.name, func(b *testing.B) {
				dir := b.TempDir()
				path := filepath.Join(dir, "m.model")
				writeAtomic(b, path, data)
				lo := serve.LearnOptions{Dir: filepath.Join(dir, "learn"), Token: testToken,
					Online: online.Options{Sync: sp.p, SyncInterval: sp.iv, CheckpointEvery: -1, CheckpointInterval: -1}}
				s, err := serve.NewLearning(path, lo, serve.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Poll: -1})
				if err != nil {
					b.Fatal(err)
				}
				hs := httptest.NewServer(s)
				defer func() { hs.Close(); s.CloseLearning() }()
				tr := &http.Transport{MaxIdleConnsPerHost: 512}
				client := &http.Client{Transport: tr}
				var next atomic.Int64
				b.SetParallelism(128)
				b.ResetTimer()
				c0 := learnProcessCPU()
				b.RunParallel(func(pb *testing.PB) {
					var body []byte
					for pb.Next() {
						i := next.Add(1)
						body = append(append(body[:0], bodies[i&1023]...), strconv.FormatInt(i, 10)+`"}`...)
						req, _ := http.NewRequest("POST", hs.URL+"/learn", bytes.NewReader(body))
						req.Header.Set("Authorization", "Bearer "+testToken)
						req.Header.Set("Content-Type", "application/json")
						resp, err := client.Do(req)
						if err != nil {
							b.Error(err)
							return
						}
						io.Copy(io.Discard, resp.Body)
						resp.Body.Close()
						if resp.StatusCode != 200 {
							b.Errorf("status %d", resp.StatusCode)
							return
						}
					}
				})
				b.StopTimer()
				cpu := learnProcessCPU() - c0
				tr.CloseIdleConnections()
				if st, _ := s.LearnStatus(); st.Requests != int64(b.N) {
					b.Fatalf("%d requests learnt of %d", st.Requests, b.N)
				}
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "updates/s")
				b.ReportMetric(cpu/float64(b.N)*1e6, "cpu-µs/update")
			})
		}
	}
}

func learnBoolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
