package bench

import (
	"fmt"
	"runtime"
	"slices"
	"testing"

	"github.com/viterin/vek"
	"github.com/viterin/vek/vek32"

	"github.com/rosenblatt-go/rosenblatt/internal/cputime"
	"github.com/rosenblatt-go/rosenblatt/internal/roofline"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// TestVecCPUTime measures Dot, SqDist, Axpy, MatVec and Dots through the public
// API on the active implementation ("auto", which ROSENBLATT_KERNEL caps)
// against vek at n = 16 … 4096, in CPU time of the measuring thread (as
// TestDotCPUTime does): rounds of every candidate interleaved, the fastest
// round of each reported with its ratio to vek's fastest and its fraction
// of the L1 roof. The roof is the one `rosenblatt bench` uses: flops per
// byte read times the L1 read bandwidth of the active implementation's
// read loop (internal/roofline), measured here on a 24 KiB working set, the
// best of as many trials as rounds and one more before every round (on a
// shared machine one trial can catch a busy moment: the roof is the
// fastest, as each time is). vek has no axpy: its peer is the two
// passes a vek user writes, vek32.MulNumber_Into into a scratch vector and
// Add_Inplace. SqDist's peer is vek's Distance, which also takes the square
// root (one VSQRTSS/SD at the end); SqDist counts 3 flops an element (a
// subtraction and an FMA). MatVec's shapes are BenchmarkMatVec's (rows of min(n, 256)), Dots' ten
// rows of n. ROSENBLATT_VEC_SIZES="32,96,896" measures those n instead. It
// prints a table and asserts nothing:
//
//	ROSENBLATT_KERNEL=avx2 ROSENBLATT_CPUTIME_ROUNDS=20 go -C bench test -run TestVecCPUTime -v .
func TestVecCPUTime(t *testing.T) {
	rounds := cputime.Rounds(t)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	fmt.Printf("CPU: %s; active: %s\n", cpuName(), kernel.ActiveImpl().Name())
	l1 := l1ReadGBs(rounds)
	print32 := vecCPUTime[float32](rounds, &l1)
	print64 := vecCPUTime[float64](rounds, &l1)
	fmt.Printf("L1 read (24 KiB, %s read loop): %.1f GB/s (best of %d trials, %d first, then one before each round)\n",
		kernel.ActiveImpl().Name(), l1, 3*rounds, rounds)
	print32(l1)
	print64(l1)
}

// l1ReadGBs returns the best read bandwidth of the active implementation's
// read loop on a 24 KiB buffer over rounds trials, in CPU time. The buffer
// is written first, as the bench command's are (fillRandom): a fresh
// allocation is memory the Go heap never touched, whose pages the kernel
// maps to its one shared zero page, and on AMD Zen, whose L1 finds a line
// by a tag of its virtual address (the way predictor's µtag), six virtual
// pages aliasing one physical page miss L1 on most loads: the loop read
// 69-82 GB/s there on a Zen 3 (EPYC family 25 model 1) that reads 167-206
// GB/s from written memory, and every kernel ran at 120-230% of that roof.
func l1ReadGBs(rounds int) float64 {
	loops := roofline.For(kernel.ActiveImpl())
	buf := make([]uint64, 24<<10/8)
	for i := range buf {
		buf[i] = uint64(i)*0x9e3779b97f4a7c15 | 1
	}
	const passes = 20000
	best := 0.0
	for range rounds {
		t0 := cputime.Thread()
		sink64 += float64(loops.Read(buf, passes))
		best = max(best, float64(len(buf)*8*passes)/float64(cputime.Thread()-t0))
	}
	return best
}

// vecCase is one kernel call of one candidate at one size.
type vecCase struct {
	kernel, impl string
	n            int
	flops, bytes float64 // per call: flops, and bytes read
	call         func()
}

func vecCases[T kernel.Float]() []vecCase {
	var cs []vecCase
	size := 4.0
	if !is32[T]() {
		size = 8
	}
	for _, n := range sizesFromEnv("ROSENBLATT_VEC_SIZES", []int{16, 64, 256, 1024, 4096}) {
		x, y := randSlice[T](n, 1), randSlice[T](n, 2)
		tmp := make([]T, n)
		a := T(1e-3)
		ours := func() { kernel.Axpy(a, x, y); a = -a }
		var vekAxpy, vekDot, vekDist func()
		if is32[T]() {
			x32, y32, t32 := any(x).([]float32), any(y).([]float32), any(tmp).([]float32)
			a32 := float32(1e-3)
			vekAxpy = func() { vek32.MulNumber_Into(t32, x32, a32); vek32.Add_Inplace(y32, t32); a32 = -a32 }
			vekDot = func() { sink32 += vek32.Dot(x32, y32) }
			vekDist = func() { sink32 += vek32.Distance(x32, y32) }
		} else {
			x64, y64, t64 := any(x).([]float64), any(y).([]float64), any(tmp).([]float64)
			a64 := 1e-3
			vekAxpy = func() { vek.MulNumber_Into(t64, x64, a64); vek.Add_Inplace(y64, t64); a64 = -a64 }
			vekDot = func() { sink64 += vek.Dot(x64, y64) }
			vekDist = func() { sink64 += vek.Distance(x64, y64) }
		}
		fl, by := 2*float64(n), 2*float64(n)*size
		cs = append(cs,
			vecCase{"Dot", "auto", n, fl, by, func() { sink64 += float64(kernel.Dot(x, y)) }},
			vecCase{"Dot", "vek", n, fl, by, vekDot},
			vecCase{"SqDist", "auto", n, 3 * float64(n), by, func() { sink64 += float64(kernel.SqDist(x, y)) }},
			vecCase{"SqDist", "vek", n, 3 * float64(n), by, vekDist},
			vecCase{"Axpy", "auto", n, fl, by, ours},
			vecCase{"Axpy", "vek", n, fl, by, vekAxpy})
		for _, dots := range []bool{false, true} {
			rows, d, name := n/min(n, 256), min(n, 256), "MatVec"
			if dots {
				rows, d, name = 10, n, "Dots"
			}
			m, w, dst := randSlice[T](rows*d, 3), randSlice[T](d, 4), make([]T, rows)
			ours := func() { kernel.MatVec(dst, m, w) }
			if dots {
				ours = func() { kernel.Dots(dst, m, w) }
			}
			var peer func()
			if is32[T]() {
				d32, m32, w32 := any(dst).([]float32), any(m).([]float32), any(w).([]float32)
				peer = func() { vek32.MatMul_Into(d32, m32, w32, len(w32)) }
			} else {
				d64, m64, w64 := any(dst).([]float64), any(m).([]float64), any(w).([]float64)
				peer = func() { vek.MatMul_Into(d64, m64, w64, len(w64)) }
			}
			fl, by := 2*float64(rows*d), float64(rows*d+d)*size
			cs = append(cs, vecCase{name, "auto", n, fl, by, ours}, vecCase{name, "vek", n, fl, by, peer})
		}
	}
	return cs
}

func vecCPUTime[T kernel.Float](rounds int, l1 *float64) (print func(l1 float64)) {
	cs := vecCases[T]()
	times := make([][]float64, len(cs))
	for r := 0; r < rounds; r++ {
		*l1 = max(*l1, l1ReadGBs(1))
		for i, c := range cs {
			calls := max(2000, int(4e6/c.flops))
			t0 := cputime.Thread()
			for range calls {
				c.call()
			}
			times[i] = append(times[i], float64(cputime.Thread()-t0)/float64(calls))
		}
	}
	best := map[string]float64{}
	for i, c := range cs {
		best[fmt.Sprintf("%s/%d/%s", c.kernel, c.n, c.impl)] = slices.Min(times[i])
	}
	return func(l1 float64) { vecPrint[T](cs, times, best, l1) }
}

// vecPrint prints vecCPUTime's table for the cases cs with their times,
// against the L1 read bandwidth l1.
func vecPrint[T kernel.Float](cs []vecCase, times [][]float64, best map[string]float64, l1 float64) {
	for i, c := range cs {
		v := slices.Clone(times[i])
		slices.Sort(v)
		gf := c.flops / v[0]
		roof := c.flops / c.bytes * l1
		fmt.Printf("%-6s %s n=%-5d %-5s min %8.2f ns  median %8.2f ns  %6.1f GFLOP/s  %4.0f%% of L1 roof %5.1f  %.2fx vek\n",
			c.kernel, typeName[T](), c.n, c.impl, v[0], v[len(v)/2], gf, 100*gf/roof, roof, best[fmt.Sprintf("%s/%d/vek", c.kernel, c.n)]/v[0])
	}
}
