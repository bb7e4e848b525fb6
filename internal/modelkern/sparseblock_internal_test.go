package modelkern

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// scoreBlockPlain is ScoreBlock's documented loop, lane by lane.
func scoreBlockPlain[T Float](dst, blk []T, idx []int32, val []T) {
	w := len(dst)
	for l := range dst {
		var s T
		for k, j := range idx {
			s += val[k] * blk[int(j)*w+l]
		}
		dst[l] = s
	}
}

// TestScoreBlockExact: on every path of this build (generic, and the
// assembly paths the CPU has), ScoreBlock's scores equal the Go loops'
// (scoreBlockGeneric and the documented per-lane loop) bit for bit, on
// random float data of mixed signs and magnitudes, for w = 1..8, 0..40
// non-zeros with repeated indices, the last feature (padding included)
// among them. The assembly rounds a multiply then an add per lane; a fused
// or reordered sum would differ in the last bits on most of these cases.
//
// Built with GOAMD64=v3 or above, Go fuses s += v·b on amd64 where it
// chooses (not even the two Go loops then agree), so the test is skipped
// there.
func TestScoreBlockExact(t *testing.T) {
	if fusingAMD64 {
		t.Skip("the Go compiler fuses multiply-adds on this amd64 build (GOAMD64 ≥ v3)")
	}
	testScoreBlockExact[float32](t)
	testScoreBlockExact[float64](t)
}

func testScoreBlockExact[T Float](t *testing.T) {
	rng := rand.New(rand.NewPCG(7, uint64(unsafeSizeof[T]())))
	rnd := func() T { return T((rng.Float64() - 0.5) * math.Exp2(float64(rng.IntN(20)-10))) }
	for _, im := range kernel.Impls() {
		if !im.Available() {
			continue
		}
		k := On[T](im)
		for w := 1; w <= 8; w++ {
			const d = 37
			blk := make([]T, d*w+scoreBlockLanes(w)-w)
			for i := range blk {
				blk[i] = rnd()
			}
			for nnz := 0; nnz <= 40; nnz++ {
				for rep := range 4 {
					idx := make([]int32, nnz)
					val := make([]T, nnz)
					for i := range idx {
						idx[i] = int32(rng.IntN(d))
						if rep == 0 && i == nnz-1 {
							idx[i] = d - 1
						}
						val[i] = rnd()
					}
					got := make([]T, w+1)
					got[w] = 42 // past dst: must stay
					want, plain := make([]T, w), make([]T, w)
					k.ScoreBlock(got[:w], blk, idx, val)
					scoreBlockGeneric(want, blk, idx, val)
					scoreBlockPlain(plain, blk, idx, val)
					if !slices.Equal(want, plain) {
						t.Fatalf("%T w=%d nnz=%d: generic %v, plain loop %v", want[0], w, nnz, want, plain)
					}
					for l := range want {
						if math.Float64bits(float64(got[l])) != math.Float64bits(float64(want[l])) {
							t.Fatalf("%s %T w=%d nnz=%d lane %d: %v, the Go loop %v", im.Name(), want[0], w, nnz, l, got[:w], want)
						}
					}
					if got[w] != 42 {
						t.Fatalf("%s %T w=%d: wrote past dst", im.Name(), want[0], w)
					}
				}
			}
		}
	}
}

func unsafeSizeof[T Float]() int {
	if is32[T]() {
		return 4
	}
	return 8
}

// TestScoreBlockBadIndex: on every path, an index that is negative, or
// whose feature's lanes (eight for w ≥ 5) are not inside blk, panics with
// Go's index-out-of-range error, as the Go loop does; an index of the last
// complete feature does not.
func TestScoreBlockBadIndex(t *testing.T) {
	testScoreBlockBadIndex[float32](t)
	testScoreBlockBadIndex[float64](t)
}

func testScoreBlockBadIndex[T Float](t *testing.T) {
	for _, im := range kernel.Impls() {
		if !im.Available() {
			continue
		}
		k := On[T](im)
		for w := 1; w <= 8; w++ {
			const d = 5
			blk := make([]T, d*w+scoreBlockLanes(w)-w)
			for _, tc := range []struct {
				bad  int32
				fail bool
			}{{d - 1, false}, {d, true}, {-1, true}, {math.MinInt32, true}, {math.MaxInt32, true}} {
				for _, slack := range []int{0, 1} {
					if slack == 1 && !tc.fail {
						continue
					}
					b := blk
					if slack == 1 {
						// the last feature's w weights inside, its padding not
						b = blk[:len(blk)-1]
						if w <= 4 {
							continue
						}
					}
					idx := []int32{0, 1, tc.bad, 2}
					val := []T{1, 2, 3, 4}
					if slack == 1 {
						idx[2] = d - 1
					}
					name := fmt.Sprintf("%s/%T/w=%d/idx=%d/short=%d", im.Name(), blk[0], w, idx[2], slack)
					err := catch(func() { k.ScoreBlock(make([]T, w), b, idx, val) })
					if !tc.fail && slack == 0 {
						if err != nil {
							t.Errorf("%s: %v", name, err)
						}
						continue
					}
					if re, ok := err.(runtime.Error); !ok || !containsStr(re.Error(), "out of range") {
						t.Errorf("%s: recovered %v, want an index-out-of-range runtime error", name, err)
					}
				}
			}
		}
	}
	if err := catch(func() { Kernels[T]{id: activeID}.ScoreBlock(make([]T, 9), make([]T, 100), nil, nil) }); err == nil {
		t.Error("w = 9: no panic")
	}
	if err := catch(func() { Kernels[T]{id: activeID}.ScoreBlock(make([]T, 2), make([]T, 100), []int32{1}, nil) }); err == nil {
		t.Error("len(idx) != len(val): no panic")
	}
}

func catch(f func()) (err any) {
	defer func() { err = recover() }()
	f()
	return nil
}

func containsStr(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

// BenchmarkScoreBlock compares ScoreBlock's paths with the Go loop
// (generic) at the shapes of the manual-page text sets (bench/textset):
// six classes in one block of width 6, float32, 516 random non-zeros per
// sample into 553 023 used features (13 MB of weights: the whole pages) and
// 19 into 32 785 (the NAME lines; in the caches).
func BenchmarkScoreBlock(b *testing.B) {
	for _, c := range []struct{ d, nnz int }{{32785, 19}, {553023, 516}} {
		const w = 6
		rng := rand.New(rand.NewPCG(1, 2))
		blk := make([]float32, c.d*w+scoreBlockLanes(w)-w)
		for i := range blk {
			blk[i] = float32(rng.Float64() - 0.5)
		}
		const rows = 256
		idx := make([][]int32, rows)
		val := make([][]float32, rows)
		for r := range idx {
			idx[r] = make([]int32, c.nnz)
			val[r] = make([]float32, c.nnz)
			for i := range idx[r] {
				idx[r][i] = int32(rng.IntN(c.d))
				val[r][i] = float32(rng.Float64())
			}
			slices.Sort(idx[r])
		}
		dst := make([]float32, w)
		for _, im := range kernel.Impls() {
			if !im.Available() {
				continue
			}
			k := On[float32](im)
			b.Run(fmt.Sprintf("d=%d/nnz=%d/%s", c.d, c.nnz, im.Name()), func(b *testing.B) {
				r := 0
				for range b.N {
					k.ScoreBlock(dst, blk, idx[r], val[r])
					if r++; r == rows {
						r = 0
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*c.nnz), "ns/nnz")
			})
		}
	}
}

// TestPrefetchRow: PrefetchRow is only a hint, on every implementation: it
// returns for empty and nil rows (whose first element does not exist) and
// for a row at the very end of its array (the lines it prefetches reach
// past it), and changes none of the row's values.
func TestPrefetchRow(t *testing.T) {
	idx := []int32{3, 1, 4, 1, 5}
	val := []float32{9, 2, 6, 5, 3}
	want := slices.Clone(val)
	for _, im := range kernel.Impls() {
		if !im.Available() {
			continue
		}
		k := On[float32](im)
		k.PrefetchRow(nil, nil)
		k.PrefetchRow(idx[:0], val[:0])
		k.PrefetchRow(idx[4:], val[4:])
		k.PrefetchRow(idx, val)
		On[float64](im).PrefetchRow(idx[:1], []float64{1})
		if !slices.Equal(val, want) {
			t.Fatalf("%s: PrefetchRow changed the row's values to %v", im.Name(), val)
		}
	}
	PrefetchRow(idx, val)
}
