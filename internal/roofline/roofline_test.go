package roofline

import (
	"math"
	"math/rand/v2"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// available returns the loops this CPU can run: generic and those of every
// available implementation.
func available(t *testing.T) []*Loops {
	t.Helper()
	var ls []*Loops
	for _, im := range kernel.Impls() {
		l := For(im)
		if l == nil {
			t.Errorf("implementation %s has no loops", im.Name())
			continue
		}
		if im.Available() {
			ls = append(ls, l)
		}
	}
	return ls
}

// TestEveryImplHasLoops: every kernel implementation of the build has
// loops, with the implementation's name, and no loops name another.
func TestEveryImplHasLoops(t *testing.T) {
	names := map[string]bool{}
	for _, im := range kernel.Impls() {
		names[im.Name()] = true
		if l := For(im); l == nil || l.Impl != im.Name() {
			t.Errorf("For(%s) = %+v", im.Name(), l)
		}
	}
	for _, l := range All() {
		if !names[l.Impl] {
			t.Errorf("loops for %q, which is no implementation of this build", l.Impl)
		}
		if l.ISA == "" || l.FMAChains < 1 || l.ReadAccumulators < 1 || l.VectorBits%128 != 0 {
			t.Errorf("%s: ISA %q, %d FMA chains, %d read accumulators, %d bits", l.Impl, l.ISA, l.FMAChains, l.ReadAccumulators, l.VectorBits)
		}
	}
	if For(nil) != nil {
		t.Errorf("For(nil) is not nil")
	}
}

// TestFMACount: each FMA loop performs FMAChains·Lanes multiply-adds per
// iteration, on every lane of every accumulator (with a = 1 the sum of all
// lanes grows by exactly that per iteration).
func TestFMACount(t *testing.T) {
	for _, l := range available(t) {
		for _, n := range []int{0, 1, 7, 100} {
			base32, base64 := l.FMA32(0, 1), l.FMA64(0, 1)
			if got, want := l.FMA32(n, 1)-base32, float32(l.FMAChains*l.Lanes(4)*n); got != want {
				t.Errorf("%s float32 n=%d: sum grew by %v, want %v", l.Impl, n, got, want)
			}
			if got, want := l.FMA64(n, 1)-base64, float64(l.FMAChains*l.Lanes(8)*n); got != want {
				t.Errorf("%s float64 n=%d: sum grew by %v, want %v", l.Impl, n, got, want)
			}
		}
		// The multiplicand is used: a = 0.5 adds a quarter per FMA in
		// the assembly loops (acc += a·a); the Go loop's s·a + a differs.
		if l.VectorBits > 0 {
			if got, want := l.FMA32(8, 0.5), float32(l.FMAChains*l.Lanes(4)*8)/4; got != want {
				t.Errorf("%s float32 a=0.5: %v, want %v", l.Impl, got, want)
			}
		}
		if l.FMAFlops(4) != 2*l.FMAChains*l.Lanes(4) || l.FMAFlops(8)*2 != l.FMAFlops(4) && l.VectorBits > 0 {
			t.Errorf("%s: flops per iteration %d (float32), %d (float64)", l.Impl, l.FMAFlops(4), l.FMAFlops(8))
		}
	}
}

// TestReadSum: each read loop reads every word of every whole block,
// passes times, and nothing past them.
func TestReadSum(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	buf := make([]uint64, 3*ReadBlock/8+5) // 3 blocks and a partial one
	for i := range buf {
		buf[i] = r.Uint64()
	}
	for _, l := range available(t) {
		for _, c := range []struct{ words, passes int }{{0, 3}, {ReadBlock / 8, 1}, {ReadBlock/8 - 1, 2}, {3 * ReadBlock / 8, 3}, {len(buf), 2}, {len(buf), 0}} {
			var want uint64
			for _, w := range buf[:c.words/(ReadBlock/8)*(ReadBlock/8)] {
				want += w
			}
			want *= uint64(c.passes)
			if got := l.Read(buf[:c.words], c.passes); got != want {
				t.Errorf("%s: Read(%d words, %d passes) = %#x, want %#x", l.Impl, c.words, c.passes, got, want)
			}
		}
	}
}

// TestReadFloat: the generic loops' float64 read loop multiplies every
// word of the first half of every whole block with its partner in the
// second, passes times, and reads nothing past them; the assembly loops
// have none.
func TestReadFloat(t *testing.T) {
	buf := make([]uint64, 3*ReadBlock/8+5)
	for i := range buf {
		buf[i] = math.Float64bits(float64(i + 1))
	}
	for _, l := range available(t) {
		for _, c := range []struct{ words, passes int }{{0, 3}, {ReadBlock / 8, 1}, {ReadBlock/8 - 1, 2}, {3 * ReadBlock / 8, 3}, {len(buf), 2}, {len(buf), 0}} {
			whole := c.words / (ReadBlock / 8) * (ReadBlock / 8)
			var want float64
			for i := range whole / 2 {
				want += float64(i+1) * float64(whole/2+i+1) // exact: integers under 2⁵³
			}
			want *= float64(c.passes)
			got, ok := l.ReadFloat(buf[:c.words], c.passes)
			if ok != (l.Impl == "generic") || ok && got != want {
				t.Errorf("%s: ReadFloat(%d words, %d passes) = %v, %v; want %v, %v", l.Impl, c.words, c.passes, got, ok, want, l.Impl == "generic")
			}
		}
	}
}

func TestChain(t *testing.T) {
	for _, n := range []int{-1, 0, 1, 1000} {
		want := uint64(max(n, 0) * ChainSteps / 2)
		if got := Chain(n); got != want {
			t.Errorf("Chain(%d) = %d, want %d (%s)", n, got, want, ChainSource)
		}
	}
	if got := chainGeneric(10, 1, 0); got != 10*ChainSteps/2 {
		t.Errorf("chainGeneric(10) = %d", got)
	}
}

func TestLanes(t *testing.T) {
	cases := []struct {
		bits, size, want int
	}{{512, 4, 16}, {512, 8, 8}, {256, 4, 8}, {128, 8, 2}, {0, 4, 1}, {0, 8, 1}, {256, 0, 1}}
	for _, c := range cases {
		if got := (&Loops{VectorBits: c.bits}).Lanes(c.size); got != c.want {
			t.Errorf("Lanes(%d bits, %d bytes) = %d, want %d", c.bits, c.size, got, c.want)
		}
	}
}

// TestBest checks Best's arithmetic on a loop of known cost: a sleep. The
// rate can only come out lower than work per sleep time, never higher.
func TestBest(t *testing.T) {
	var calls atomic.Int64 // BestParallel runs it on two goroutines at once
	run := func(n int) {
		calls.Add(1)
		time.Sleep(time.Duration(n) * 200 * time.Microsecond)
	}
	rate := Best(run, 1, Trials{Count: 3, Min: 2 * time.Millisecond})
	if !(rate > 0) || rate > 5000 {
		t.Errorf("rate %v per second, want in (0, 5000]: a unit sleeps 200µs", rate)
	}
	if c := calls.Load(); c < 4 {
		t.Errorf("%d calls: want calibration and 3 trials", c)
	}
	rate = BestParallel(2, run, 1, Trials{Count: 2, Min: 2 * time.Millisecond})
	if !(rate > 0) || rate > 10000 {
		t.Errorf("parallel rate %v per second, want in (0, 10000]", rate)
	}
}

// TestCalibrate: the calibrated n is at least 1 and grows for a fast loop.
func TestCalibrate(t *testing.T) {
	if n := calibrate(func(int) { time.Sleep(3 * time.Millisecond) }, Trials{Min: time.Millisecond}); n != 1 {
		t.Errorf("slow loop: n = %d, want 1", n)
	}
	var sink uint64
	if n := calibrate(func(n int) { sink += Chain(n) }, Trials{Min: time.Millisecond}); n < 10 {
		t.Errorf("fast loop: n = %d, want ≥ 10", n)
	}
	runtime.KeepAlive(sink)
}

// TestFloatViews: the float views share the words' memory.
func TestFloatViews(t *testing.T) {
	if Float32s(nil) != nil || Float64s(nil) != nil {
		t.Errorf("views of an empty buffer are not nil")
	}
	buf := make([]uint64, 3)
	f32, f64 := Float32s(buf), Float64s(buf)
	if len(f32) != 6 || len(f64) != 3 {
		t.Fatalf("lengths %d and %d, want 6 and 3", len(f32), len(f64))
	}
	f32[5] = 1 // the high half of word 2 on a little-endian machine, the low on a big-endian one
	if buf[2] == 0 {
		t.Errorf("a float32 write did not reach the words")
	}
	f64[0] = 1
	if buf[0] != 0x3ff0000000000000 {
		t.Errorf("word 0 = %#x after writing 1.0 as float64", buf[0])
	}
}
