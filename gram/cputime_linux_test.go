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

// TestGramPartsCPUTime splits the time of TestGramCPUTime's linear Gram
// matrix (the engine's own block sizes, one goroutine, CPU time of the
// thread) into its parts, in interleaved rounds:
//
//   - prepare: the norms and the packed A and B panels;
//   - run: the blocked product with the mirror to the upper triangle;
//   - run-nomirror: run with the per-tile mirror replaced by a no-op (the
//     result's upper triangle is then wrong: only the time means something);
//   - micro: the micro-kernel alone, called as often and with the same
//     feature blocks as run calls it, on panels that stay in L1 and one
//     tile of C: the ceiling of run on this machine at this moment;
//   - walk-A, walk-B, walk-C, walk-ABC: the micro-kernel calls of run in
//     its order, reading the real A panels, B panels or C (the others in
//     L1 as for micro), or all three: what each costs over micro.
//
// GFLOP/s counts N(N+1)·D, as TestGramCPUTime does, for every part:
//
//	ROSENBLATT_CPUTIME_ROUNDS=5 go test -run TestGramPartsCPUTime -v ./gram
func TestGramPartsCPUTime(t *testing.T) {
	rounds := cputime.Rounds(t)
	const n, d = 4096, 784
	X := randData[float32](rand.New(rand.NewPCG(11, 12)), n, d)
	e, err := setup[float32](Linear{}, &Options{Impl: kernel.ActiveImpl(), Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	mk := e.mk
	mr, nr := mk.mr, mk.nr
	quiet := *mk
	if quiet.mirror != nil {
		quiet.mirror = func(dst []float32, ldd int, src []float32, lds int) {}
	}
	eq := *e
	eq.mk = &quiet
	// The micro-kernel calls of run: one per tile of the triangle and
	// feature block.
	tiles := 0
	for jr := 0; jr < n; jr += nr {
		for ir := 0; ir < n; ir += mr {
			if ir+mr-1 >= jr {
				tiles++
			}
		}
	}
	nblk, klen := kBlocks(d, e.kc)
	pa, pb, tile := make([]float32, (klen+3)*mr), make([]float32, (klen+3)*nr), make([]float32, mr*nr)
	for i := range pa {
		pa[i] = 1e-3
	}
	for i := range pb {
		pb[i] = 1e-3
	}
	C := make([]float32, n*n)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	// walk makes run's micro-kernel calls in run's order on one
	// goroutine, on the real A panels, B panels and C if realA, realB,
	// realC, on the L1-resident pa, pb and tile otherwise.
	walk := func(s *set[float32], realA, realB, realC bool) {
		tasks, _, _ := e.plan(s, s, true, 0)
		for _, tk := range tasks {
			for b := 0; b < nblk; b++ {
				k0 := b * klen
				kl := min(klen, d-k0)
				for jr := tk.j0; jr < tk.j1; jr += nr {
					bs := pb
					if realB {
						bs = s.b[k0*s.npadB+jr*kl:][:kl*nr]
					}
					for ir := tk.i0; ir < tk.i1; ir += mr {
						if ir+mr-1 < jr {
							continue
						}
						as, c, ldc := pa, tile, nr
						if realA {
							as = s.a[k0*s.npadA+ir*kl:][:kl*mr]
						}
						if realC && ir+mr <= n && jr+nr <= n {
							c, ldc = C[ir*n+jr:], n
						}
						mk.kern(kl, as, bs, c, ldc, b > 0)
					}
				}
			}
		}
	}
	names := []string{"prepare", "run", "run-nomirror", "micro", "walk-A", "walk-B", "walk-C", "walk-ABC"}
	times := make([][]float64, len(names))
	for r := 0; r <= rounds; r++ {
		var s *set[float32]
		for i := range names {
			t0 := cputime.Thread()
			switch i {
			case 0:
				if s, err = prepare(e, X, n, d, true, true); err != nil {
					t.Fatal(err)
				}
			case 1:
				e.run(s, s, C, n, true)
			case 2:
				eq.run(s, s, C, n, true)
			case 3:
				for b := 0; b < nblk; b++ {
					kl := min(klen, d-b*klen)
					for x := 0; x < tiles; x++ {
						mk.kern(kl, pa, pb, tile, nr, b > 0)
					}
				}
			case 4:
				walk(s, true, false, false)
			case 5:
				walk(s, false, true, false)
			case 6:
				walk(s, false, false, true)
			case 7:
				walk(s, true, true, true)
			}
			if r > 0 { // the first round pages in C and the buffers
				times[i] = append(times[i], float64(cputime.Thread()-t0)/1e6)
			}
		}
		s.release()
	}
	flop := float64(n) * float64(n+1) * float64(d)
	fmt.Printf("gram float32 %d×%d linear %s kc=%d mc=%d nc=%d, 1 goroutine, CPU time of the thread, %d rounds; micro = %d tiles × %d feature blocks of %d\n",
		n, d, e.im.Name(), e.kc, e.mc, e.nc, rounds, tiles, nblk, klen)
	for i, name := range names {
		v := slices.Clone(times[i])
		slices.Sort(v)
		fmt.Printf("%-14s min %7.1f ms  median %7.1f ms  %6.1f GFLOP/s\n", name, v[0], v[len(v)/2], flop/v[0]/1e6)
	}
}
