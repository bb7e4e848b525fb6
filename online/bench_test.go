//go:build linux

package online

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/linear"

	"github.com/rosenblatt-go/rosenblatt/internal/cputime"
)

// procCPU is the CPU time of the process (every thread), in seconds: on a
// machine shared with other processes, the work done, without the time
// spent waiting for a CPU.
func procCPU() float64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

// benchStream makes n samples: sparse ones of nnz stored values among d
// features, or dense ones of d, labelled at random among labels.
func benchStream(n, d, nnz int, labels []int, seed uint64) []Sample[float32] {
	rng := rand.New(rand.NewPCG(seed, 1))
	out := make([]Sample[float32], n)
	for i := range out {
		s := Sample[float32]{Y: labels[rng.IntN(len(labels))]}
		if nnz > 0 {
			seen := map[int32]bool{}
			for len(s.Idx) < nnz {
				c := int32(rng.IntN(d))
				if !seen[c] {
					seen[c] = true
					s.Idx = append(s.Idx, c)
				}
			}
			sortIdx(s.Idx)
			s.X = make([]float32, nnz)
			for j := range s.X {
				s.X[j] = float32(rng.NormFloat64())
			}
		} else {
			s.X = make([]float32, d)
			for j := range s.X {
				s.X[j] = float32(rng.Float64())
			}
		}
		out[i] = s
	}
	return out
}

func sortIdx(a []int32) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

var syncPolicies = []struct {
	name string
	p    SyncPolicy
	iv   time.Duration
}{{"none", SyncNone, 0}, {"group", SyncGroup, 0}, {"group-10ms", SyncGroup, 10 * time.Millisecond}, {"request", SyncEveryRequest, 0}}

// BenchmarkLearn: samples learnt per second in process, b.N samples in
// requests of batch samples from one goroutine (batch 1: from 64
// goroutines, so that group commit has requests to group), at each sync
// policy. The model: 784-feature binary or 10-class one-vs-rest (dense),
// or binary over 2^20 features with 12 stored values a sample (sparse).
func BenchmarkLearn(b *testing.B) {
	cases := []struct {
		name       string
		kind       fit.Scheme
		d, nnz, cl int
	}{
		{"dense784-binary", fit.Binary, 784, 0, 2},
		{"dense784-ovr10", fit.OneVsRest, 784, 0, 10},
		{"sparse12-binary", fit.Binary, 1 << 20, 12, 2},
		{"sparse12-ovr10", fit.OneVsRest, 1 << 20, 12, 10},
	}
	for _, c := range cases {
		base := baseModel[float32](b, c.kind, linear.Online, c.d, c.cl, 1)
		xs := benchStream(4096, c.d, c.nnz, base.Classes(), 2)
		for _, sp := range syncPolicies {
			for _, batch := range []int{1, 256} {
				if sp.p == SyncEveryRequest && batch == 1 && c.nnz == 0 && c.kind != fit.Binary {
					continue
				}
				b.Run(fmt.Sprintf("%s/sync=%s/batch=%d", c.name, sp.name, batch), func(b *testing.B) {
					l, err := Open(b.TempDir(), base, [32]byte{}, Options{Sync: sp.p, SyncInterval: sp.iv, CheckpointEvery: -1, CheckpointInterval: -1, Logger: quiet})
					if err != nil {
						b.Fatal(err)
					}
					defer l.Close()
					b.ResetTimer()
					c0 := procCPU()
					if batch == 1 {
						var next atomic.Int64
						b.SetParallelism(32) // 64 goroutines on 2 CPUs
						b.RunParallel(func(pb *testing.PB) {
							for pb.Next() {
								i := next.Add(1)
								if _, err := l.Learn("", xs[i%int64(len(xs)):][:1]); err != nil {
									b.Error(err)
									return
								}
							}
						})
					} else {
						for i := 0; i < b.N; i += batch {
							j := i % len(xs)
							n := min(batch, b.N-i, len(xs)-j)
							if _, err := l.Learn("", xs[j:j+n]); err != nil {
								b.Fatal(err)
							}
						}
					}
					b.StopTimer()
					cpu := procCPU() - c0
					b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "samples/s")
					b.ReportMetric(cpu/float64(b.N)*1e9, "cpu-ns/sample")
					b.ReportMetric(float64(b.N)/cpu, "samples/cpu-s")
				})
			}
		}
	}
}

// BenchmarkPredictWhileLearning: dense 784-feature predictions per second
// (b.N of them, from GOMAXPROCS goroutines) while another goroutine
// learns at rate updates/s (0: none; -1: as fast as it can, in requests
// of 64 samples, SyncNone), and the learner's prediction without learning
// against linear.Model.Predict's.
func BenchmarkPredictWhileLearning(b *testing.B) {
	base := baseModel[float32](b, fit.Binary, linear.Online, 784, 2, 1)
	xs := benchStream(1024, 784, 0, base.Classes(), 3)
	b.Run("model.Predict", func(b *testing.B) {
		cpu := predictParallel(b, func(i int) { base.Predict(xs[i&1023].X) })
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "predictions/s")
		b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/prediction")
	})
	for _, rate := range []int{0, 1000, -1} {
		b.Run(fmt.Sprintf("updates=%d", rate), func(b *testing.B) {
			l, err := Open(b.TempDir(), base, [32]byte{}, Options{Sync: SyncNone, CheckpointEvery: -1, CheckpointInterval: -1, Logger: quiet})
			if err != nil {
				b.Fatal(err)
			}
			defer l.Close()
			stop := make(chan struct{})
			done := make(chan int64)
			go func() {
				var n int64
				defer func() { done <- n }()
				if rate == 0 {
					<-stop
					return
				}
				tick := time.NewTicker(time.Millisecond)
				defer tick.Stop()
				t0 := time.Now()
				for i := 0; ; i++ {
					select {
					case <-stop:
						return
					default:
					}
					k := 64
					if rate > 0 {
						<-tick.C
						k = int(time.Since(t0).Seconds()*float64(rate)) - int(n)
						if k <= 0 {
							continue
						}
						k = min(k, 64)
					}
					j := (i * 64) % (1024 - 64)
					if _, err := l.Learn("", xs[j:j+k]); err != nil {
						b.Error(err)
						return
					}
					n += int64(k)
				}
			}()
			b.ResetTimer()
			cpu := predictParallel(b, func(i int) { l.Predict(xs[i&1023].X) })
			b.StopTimer()
			b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/prediction")
			close(stop)
			n := <-done
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "predictions/s")
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "updates/s")
		})
	}
}

// predictParallel runs predict from GOMAXPROCS goroutines, each locked to
// its thread, and returns their threads' CPU time in nanoseconds.
func predictParallel(b *testing.B, predict func(i int)) int64 {
	var cpu atomic.Int64
	b.RunParallel(func(pb *testing.PB) {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		t0 := cputime.Thread()
		for i := 0; pb.Next(); i++ {
			predict(i)
		}
		cpu.Add(cputime.Thread() - t0)
	})
	return cpu.Load()
}

// BenchmarkReplay: the time Open takes to replay a log of b.N samples
// (dense 784-feature binary, and sparse 12 of 2^20), reported per
// million samples.
func BenchmarkReplay(b *testing.B) {
	for _, c := range []struct {
		name   string
		d, nnz int
	}{{"dense784-binary", 784, 0}, {"sparse12-binary", 1 << 20, 12}} {
		b.Run(c.name, func(b *testing.B) {
			base := baseModel[float32](b, fit.Binary, linear.Online, c.d, 2, 1)
			xs := benchStream(4096, c.d, c.nnz, base.Classes(), 4)
			dir := b.TempDir()
			l, err := Open(dir, base, [32]byte{}, Options{Sync: SyncNone, CheckpointEvery: -1, CheckpointInterval: -1, Logger: quiet})
			if err != nil {
				b.Fatal(err)
			}
			for i := 0; i < b.N; i += 256 {
				j := i % len(xs)
				n := min(256, b.N-i, len(xs)-j)
				if _, err := l.Learn("", xs[j:j+n]); err != nil {
					b.Fatal(err)
				}
			}
			l.crash()
			b.ResetTimer()
			c0 := procCPU()
			l2, err := Open(dir, base, [32]byte{}, Options{Sync: SyncNone, CheckpointEvery: -1, CheckpointInterval: -1, Logger: quiet})
			cpu := procCPU() - c0
			b.StopTimer()
			if err != nil {
				b.Fatal(err)
			}
			if r := l2.Status().Recovery; r.Samples != int64(b.N) {
				b.Fatalf("replayed %d samples of %d", r.Samples, b.N)
			}
			l2.crash()
			b.ReportMetric(b.Elapsed().Seconds()/float64(b.N)*1e6, "s/M-samples")
			b.ReportMetric(cpu/float64(b.N)*1e6, "cpu-s/M-samples")
		})
	}
}
