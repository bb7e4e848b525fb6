package roofline

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// The generic read roof against what it bounds: TestGenericReadVsDot
// prints the read bandwidth of the generic loops (Read and ReadFloat), of
// the loops they replaced (spilledRead and spilledReadFloat, kept here for
// the comparison) and of the generic Dot, float64 and float32, on the
// working sets of rosenblatt bench on a Zen 3 (half of L1D, L2 and L3, and
// 128 MiB), each the maximum over its trials, in GB/s and bytes per cycle
// of the clock Chain measures; the loops take turns, five trials at a
// time.
//
//	ROSENBLATT_ROOF_COMPARE=30 go test -run GenericReadVsDot -v ./internal/roofline
//
// runs it with 30 trials of at least 2 ms per figure (unset: skipped).

// spilledRead is the generic integer read loop before readPass: the pass
// loop and the eight sums in one function, where the compiler keeps the
// loop index on the stack.
func spilledRead(buf []uint64, passes int) uint64 {
	var s0, s1, s2, s3, s4, s5, s6, s7 uint64
	h := len(buf) / 2
	a, b := buf[:h], buf[h:2*h]
	b = b[:len(a)]
	for range passes {
		for i := 0; i <= len(a)-4; i += 4 {
			s0 += a[i]
			s1 += b[i]
			s2 += a[i+1]
			s3 += b[i+1]
			s4 += a[i+2]
			s5 += b[i+2]
			s6 += a[i+3]
			s7 += b[i+3]
		}
	}
	return ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7))
}

// spilledReadFloat is the generic float64 read loop before readPassFloat:
// eight sums of one product each, one of which the compiler keeps on the
// stack.
func spilledReadFloat(buf []uint64, passes int) float64 {
	var s0, s1, s2, s3, s4, s5, s6, s7 float64
	f := Float64s(buf)
	h := len(f) / 2
	a, b := f[:h], f[h:2*h]
	b = b[:len(a)]
	for range passes {
		for i := 0; i <= len(a)-8; i += 8 {
			s0 += a[i] * b[i]
			s1 += a[i+1] * b[i+1]
			s2 += a[i+2] * b[i+2]
			s3 += a[i+3] * b[i+3]
			s4 += a[i+4] * b[i+4]
			s5 += a[i+5] * b[i+5]
			s6 += a[i+6] * b[i+6]
			s7 += a[i+7] * b[i+7]
		}
	}
	return ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7))
}

func TestGenericReadVsDot(t *testing.T) {
	trials, _ := strconv.Atoi(os.Getenv("ROSENBLATT_ROOF_COMPARE"))
	if trials <= 0 {
		t.Skip("ROSENBLATT_ROOF_COMPARE=trials runs it")
	}
	var generic *kernel.Impl
	for _, im := range kernel.Impls() {
		if im.Name() == "generic" {
			generic = im
		}
	}
	k64, k32 := kernel.On[float64](generic), kernel.On[float32](generic)
	arena := make([]uint64, 128<<20/8)
	for i := range arena {
		arena[i] = math.Float64bits(float64(i) + 1) // normal float64s, as bench's arena
	}
	tr := Trials{Count: trials, Min: 2 * time.Millisecond}
	var sink float64
	clock := Best(func(n int) { sink += float64(Chain(n)) }, ChainSteps, tr)
	fmt.Printf("clock %.2f GHz (%s), %d trials of at least %s per figure\n", clock/1e9, ChainSource, tr.Count, tr.Min)
	l := genericLoops
	for _, size := range []int{16 << 10, 256 << 10, 16 << 20, 128 << 20} {
		buf := arena[:size/8]
		f64, f32 := Float64s(buf), Float32s(buf)
		x64, y64 := f64[:len(f64)/2:len(f64)/2], f64[len(f64)/2:]
		x32, y32 := f32[:len(f32)/2:len(f32)/2], f32[len(f32)/2:]
		loops := []struct {
			name string
			run  func(n int)
		}{
			{"generic Dot float64", func(n int) {
				for range n {
					sink += k64.Dot(x64, y64)
				}
			}},
			{"generic Dot float32", func(n int) {
				for range n {
					sink += float64(k32.Dot(x32, y32))
				}
			}},
			{"Read (readPass)", func(n int) { sink += float64(l.Read(buf, n)) }},
			{"ReadFloat (readPassFloat)", func(n int) { f, _ := l.ReadFloat(buf, n); sink += f }},
			{"before: spilledRead", func(n int) { sink += float64(spilledRead(buf, n)) }},
			{"before: spilledReadFloat", func(n int) { sink += spilledReadFloat(buf, n) }},
		}
		// Rounds of up to 5 trials of each loop in turn, so that a quiet
		// or a busy stretch of a shared machine falls on all of them.
		best := make([]float64, len(loops))
		for done := 0; done < trials; done += 5 {
			for i, lp := range loops {
				best[i] = max(best[i], Best(lp.run, float64(size), Trials{Count: min(5, trials-done), Min: tr.Min}))
			}
		}
		for i, lp := range loops {
			fmt.Printf("%-10s %-26s %6.1f GB/s %5.1f B/cycle\n", fmt.Sprintf("%d KiB", size>>10), lp.name, best[i]/1e9, best[i]/clock)
		}
	}
	if sink == 0.5 {
		t.Log(sink)
	}
}
