// Command oip-load is a load generator for the Open Inference Protocol's
// gRPC API: it sends ModelInfer requests of -rows random rows (of the
// model's width, from ModelMetadata) from -c concurrent workers over
// -conns connections for -d, and prints requests/s and the latency
// percentiles of the requests answered:
//
//	oip-load -addr 127.0.0.1:8081 -model iris [-rows 1] [-c 4] [-conns 1] [-d 10s] [-raw] [-scores] [-live]
//
// Each worker waits for its answer before sending again (a closed loop,
// as wrk does), so the latency is the server's plus the client's and the
// network's, measured from the call to its return. Requests send the rows
// as FP32 fp32_contents (-raw: raw_input_contents) and ask for the labels
// only unless -scores. -live sends ServerLive instead: the gRPC round trip
// alone, the ceiling of the machine, the client and the gRPC stack. Any
// failed request is counted and its first error printed; the exit status
// is 1 if any failed. It also prints its own CPU time over the measured
// span, per request: with the server's, what a request costs the machine
// whatever else runs on it.
package main

import (
	"context"
	"encoding/binary"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"sync"
	"syscall"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/rosenblatt-go/rosenblatt/server/oippb"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8081", "the server's gRPC `host:port`")
	name := flag.String("model", "", "the model's `name` (required)")
	rows := flag.Int("rows", 1, "rows (samples) per request")
	workers := flag.Int("c", 4, "concurrent requests")
	conns := flag.Int("conns", 1, "connections (the workers share them round-robin)")
	dur := flag.Duration("d", 10*time.Second, "how long to send")
	warm := flag.Duration("warmup", time.Second, "send this long first, unmeasured")
	raw := flag.Bool("raw", false, "send the rows as raw_input_contents")
	scores := flag.Bool("scores", false, "ask for the scores as well as the labels")
	live := flag.Bool("live", false, "send ServerLive instead of ModelInfer: the gRPC round trip without a payload or a model, the ceiling of the machine, client and gRPC stack")
	flag.Parse()
	if *name == "" || *rows < 1 || *workers < 1 || *conns < 1 || *dur <= 0 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(*addr, *name, *rows, *workers, *conns, *dur, *warm, *raw, *scores, *live); err != nil {
		fmt.Fprintln(os.Stderr, "oip-load:", err)
		os.Exit(1)
	}
}

func run(addr, name string, rows, workers, nconns int, dur, warm time.Duration, raw, scores, live bool) error {
	clients := make([]oippb.GRPCInferenceServiceClient, nconns)
	for i := range clients {
		conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
		if err != nil {
			return err
		}
		defer conn.Close()
		clients[i] = oippb.NewGRPCInferenceServiceClient(conn)
	}
	ctx := context.Background()
	md, err := clients[0].ModelMetadata(ctx, &oippb.ModelMetadataRequest{Name: name})
	if err != nil {
		return err
	}
	d := md.Inputs[0].Shape[1]
	rng := rand.New(rand.NewPCG(1, 2))
	x := make([]float32, int64(rows)*d)
	for i := range x {
		x[i] = float32(2*rng.Float64() - 1)
	}
	in := &oippb.ModelInferRequest_InferInputTensor{Name: "input", Datatype: "FP32", Shape: []int64{int64(rows), d}}
	req := &oippb.ModelInferRequest{ModelName: name, Inputs: []*oippb.ModelInferRequest_InferInputTensor{in}}
	if raw {
		b := make([]byte, 0, 4*len(x))
		for _, v := range x {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(v))
		}
		req.RawInputContents = [][]byte{b}
	} else {
		in.Contents = &oippb.InferTensorContents{Fp32Contents: x}
	}
	if !scores {
		req.Outputs = []*oippb.ModelInferRequest_InferRequestedOutputTensor{{Name: "label"}}
	}

	var mu sync.Mutex
	var lat []time.Duration
	failed := 0
	var firstErr error
	begin := time.Now()
	measureFrom := begin.Add(warm)
	end := measureFrom.Add(dur)
	// The client's CPU time over the measured span.
	var cpu0 time.Duration
	cpuAt := time.AfterFunc(time.Until(measureFrom), func() { mu.Lock(); cpu0 = cpuTime(); mu.Unlock() })
	defer cpuAt.Stop()
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := clients[w%nconns]
			mine := make([]time.Duration, 0, 1<<16)
			bad := 0
			var errw error
			for {
				t0 := time.Now()
				if t0.After(end) {
					break
				}
				var err error
				if live {
					var r *oippb.ServerLiveResponse
					if r, err = c.ServerLive(ctx, &oippb.ServerLiveRequest{}); err == nil && !r.Live {
						err = fmt.Errorf("ServerLive: not live")
					}
				} else {
					var r *oippb.ModelInferResponse
					if r, err = c.ModelInfer(ctx, req); err == nil && len(r.Outputs) == 0 {
						err = fmt.Errorf("a response without outputs")
					}
				}
				t1 := time.Now()
				if t0.Before(measureFrom) {
					continue
				}
				if err != nil {
					bad++
					if errw == nil {
						errw = err
					}
					continue
				}
				mine = append(mine, t1.Sub(t0))
			}
			mu.Lock()
			lat = append(lat, mine...)
			failed += bad
			if firstErr == nil {
				firstErr = errw
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	elapsed := time.Since(measureFrom)
	mu.Lock()
	clientCPU := cpuTime() - cpu0
	mu.Unlock()
	slices.Sort(lat)
	pct := func(p float64) time.Duration {
		if len(lat) == 0 {
			return 0
		}
		return lat[min(len(lat)-1, int(p*float64(len(lat))))]
	}
	enc := "fp32_contents"
	if raw {
		enc = "raw_input_contents"
	}
	if live {
		fmt.Printf("oip-load: %s ServerLive (no payload), %d workers over %d connections, %v (after %v warm-up), GOMAXPROCS %d\n",
			addr, workers, nconns, dur, warm, runtime.GOMAXPROCS(0))
	} else {
		fmt.Printf("oip-load: %s model %s, %d rows × %d features a request (%s), outputs %v, %d workers over %d connections, %v (after %v warm-up), GOMAXPROCS %d\n",
			addr, name, rows, d, enc, map[bool]string{false: "label", true: "label+scores"}[scores], workers, nconns, dur, warm, runtime.GOMAXPROCS(0))
	}
	fmt.Printf("requests %d, failed %d, %.0f requests/s, %.0f rows/s\n", len(lat), failed, float64(len(lat))/elapsed.Seconds(), float64(len(lat)*rows)/elapsed.Seconds())
	fmt.Printf("latency p50 %v, p90 %v, p99 %v, p99.9 %v, max %v\n", pct(.5), pct(.9), pct(.99), pct(.999), pct(1))
	if len(lat) > 0 {
		fmt.Printf("client CPU (user+system) %v, %.1f µs a request\n", clientCPU.Round(time.Millisecond), float64(clientCPU.Microseconds())/float64(len(lat)+failed))
	}
	if failed > 0 {
		return fmt.Errorf("%d requests failed; the first: %v", failed, firstErr)
	}
	return nil
}

// cpuTime returns the CPU time (user and system) the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
