package gram

import (
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/internal/cputime"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// TestGramCPUTime measures the float32 4096×784 Gram matrix (linear and
// RBF, ComputeInto reusing the result) on one goroutine of the active
// implementation (ROSENBLATT_KERNEL caps it) in CPU time of the measuring
// thread: on a machine shared with other processes, time spent
// descheduled does not count. ROSENBLATT_GRAM_BLOCKS="kc:mc:nc,..." adds
// candidates with other block sizes (0 keeps the engine's own), for
// tuning. Rounds of every candidate are interleaved and the fastest and
// median of each are reported, in GFLOP/s counted as N(N+1)·D. It prints a
// table and asserts nothing:
//
//	ROSENBLATT_KERNEL=avx2 ROSENBLATT_CPUTIME_ROUNDS=10 go test -run TestGramCPUTime -v ./gram
func TestGramCPUTime(t *testing.T) {
	rounds := cputime.Rounds(t)
	const n, d = 4096, 784
	X := randData[float32](rand.New(rand.NewPCG(11, 12)), n, d)
	blocks := [][3]int{{0, 0, 0}}
	for _, s := range strings.Split(os.Getenv("ROSENBLATT_GRAM_BLOCKS"), ",") {
		var b [3]int
		if _, err := fmt.Sscanf(s, "%d:%d:%d", &b[0], &b[1], &b[2]); err == nil {
			blocks = append(blocks, b)
		}
	}
	type cand struct {
		name string
		k    Kernel
		opts *Options
	}
	var cands []cand
	for _, k := range []Kernel{Linear{}, RBF{Gamma: 1.0 / d}} {
		for _, b := range blocks {
			o := &Options{Impl: kernel.ActiveImpl(), Threads: 1, kc: b[0], mc: b[1], nc: b[2]}
			e, err := setup[float32](k, o)
			if err != nil {
				t.Fatal(err)
			}
			cands = append(cands, cand{fmt.Sprintf("%s %-6s kc=%d mc=%d nc=%d", o.Impl.Name(), strings.SplitN(k.String(), "(", 2)[0], e.kc, e.mc, e.nc), k, o})
		}
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	m := &Matrix[float32]{Data: make([]float32, n*n)}
	if _, err := ComputeInto(m, X, d, Linear{}, cands[0].opts); err != nil { // page in
		t.Fatal(err)
	}
	times := make([][]float64, len(cands))
	for r := 0; r < rounds; r++ {
		for i, c := range cands {
			t0 := cputime.Thread()
			if _, err := ComputeInto(m, X, d, c.k, c.opts); err != nil {
				t.Fatal(err)
			}
			times[i] = append(times[i], float64(cputime.Thread()-t0)/1e6)
		}
	}
	flop := float64(n) * float64(n+1) * float64(d)
	fmt.Printf("gram float32 %d×%d, 1 goroutine, CPU time of the thread, %d rounds\n", n, d, rounds)
	for i, c := range cands {
		v := slices.Clone(times[i])
		slices.Sort(v)
		fmt.Printf("%-40s min %7.1f ms  median %7.1f ms  %6.1f GFLOP/s\n", c.name, v[0], v[len(v)/2], flop/v[0]/1e6)
	}
}
