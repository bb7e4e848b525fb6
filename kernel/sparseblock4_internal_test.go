package kernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
)

// TestScoreBlock4: on every path of this build, ScoreBlock4's four score
// vectors equal four ScoreBlock calls' (and so the Go loop's) bit for bit,
// for w = 1..8 and non-zero counts in 0..11 for each sample (the joint
// loop, then the rest of each sample alone, any of them the shortest or
// empty), with repeated indices and the last feature among them, and it
// writes nothing past any dst. A swapped accumulator, a lane of the wrong
// sample or a sum in another order shows in the last bits.
func TestScoreBlock4(t *testing.T) {
	if fusingAMD64 {
		t.Skip("the Go compiler fuses multiply-adds on this amd64 build (GOAMD64 ≥ v3)")
	}
	testScoreBlock4[float32](t)
	testScoreBlock4[float64](t)
}

func testScoreBlock4[T Float](t *testing.T) {
	rng := rand.New(rand.NewPCG(4, uint64(unsafeSizeof[T]())))
	rnd := func() T { return T((rng.Float64() - 0.5) * math.Exp2(float64(rng.IntN(20)-10))) }
	const d = 37
	sample := func(nnz int) ([]int32, []T) {
		idx, val := make([]int32, nnz), make([]T, nnz)
		for i := range idx {
			idx[i], val[i] = int32(rng.IntN(d)), rnd()
		}
		if nnz > 0 && rng.IntN(2) == 0 {
			idx[rng.IntN(nnz)] = int32(d - 1)
		}
		return idx, val
	}
	for _, im := range impls {
		if !im.available {
			continue
		}
		k := Kernels[T]{im: im}
		for w := 1; w <= 8; w++ {
			blk := make([]T, d*w+scoreBlockLanes(w)-w)
			for i := range blk {
				blk[i] = rnd()
			}
			for trial := range 400 {
				var idx [4][]int32
				var val [4][]T
				var dst [4][]T
				want := make([][]T, 4)
				for s := range 4 {
					n := rng.IntN(12)
					if trial%7 == s {
						n = 0
					}
					idx[s], val[s] = sample(n)
					buf := make([]T, w+1)
					buf[w] = T(40 + s) // past dst: must stay
					dst[s] = buf[:w]
					want[s] = make([]T, w)
					k.ScoreBlock(want[s], blk, idx[s], val[s])
				}
				k.ScoreBlock4(dst, blk, idx, val)
				for s := range 4 {
					for l := range w {
						if math.Float64bits(float64(dst[s][l])) != math.Float64bits(float64(want[s][l])) {
							t.Fatalf("%s %T w=%d trial %d sample %d (nnz %d) lane %d: %v; ScoreBlock %v",
								im.name, want[0][0], w, trial, s, len(idx[s]), l, dst[s], want[s])
						}
					}
					if dst[s][:w+1][w] != T(40+s) {
						t.Fatalf("%s %T w=%d trial %d: wrote past dst[%d]", im.name, want[0][0], w, trial, s)
					}
				}
			}
		}
	}
}

// TestScoreBlock4BadIndex: an index outside the block in any one of the
// four samples (negative, past the last feature, or in a last feature
// whose padding is missing for w > 4) panics with Go's index-out-of-range
// error on every path, as ScoreBlock on that sample does, and writes no
// dst of the samples before it on a path with assembly; a valid quadruple
// does not panic; dst lengths that differ, or len(idx[k]) != len(val[k]),
// panic.
func TestScoreBlock4BadIndex(t *testing.T) {
	testScoreBlock4BadIndex[float32](t)
	testScoreBlock4BadIndex[float64](t)
}

func testScoreBlock4BadIndex[T Float](t *testing.T) {
	for _, im := range impls {
		if !im.available {
			continue
		}
		k := Kernels[T]{im: im}
		for w := 1; w <= 8; w++ {
			const d = 5
			blk := make([]T, d*w+scoreBlockLanes(w)-w)
			for _, bad := range []int32{d - 1, d, -1, math.MinInt32, math.MaxInt32} {
				for _, short := range []bool{false, true} {
					if short && w <= 4 {
						continue
					}
					b := blk
					if short {
						b = blk[:len(blk)-1] // the last feature's padding not inside
					}
					for which := range 4 {
						var idx [4][]int32
						var val [4][]T
						var dst [4][]T
						odd := []int32{0, 1, bad, 2}
						for s := range 4 {
							idx[s] = []int32{0, 1, 2, 3, 4, 0}[:5-s%2]
							if short {
								idx[s] = idx[s][:4] // feature d−1 only in the odd sample
							}
							if s == which {
								idx[s] = odd
							}
							val[s], dst[s] = make([]T, len(idx[s])), make([]T, w)
						}
						name := fmt.Sprintf("%s/%T/w=%d/idx=%d/short=%v/sample %d", im.name, blk[0], w, bad, short, which)
						err := catch(func() { k.ScoreBlock4(dst, b, idx, val) })
						want := catch(func() { k.ScoreBlock(make([]T, w), b, odd, make([]T, len(odd))) })
						if (err == nil) != (want == nil) {
							t.Errorf("%s: recovered %v, ScoreBlock on the sample %v", name, err, want)
							continue
						}
						if err != nil {
							if re, ok := err.(runtime.Error); !ok || !containsStr(re.Error(), "out of range") {
								t.Errorf("%s: recovered %v, want an index-out-of-range runtime error", name, err)
							}
						}
					}
				}
			}
		}
	}
	k := Kernels[T]{im: active}
	two := func() [4][]T { return [4][]T{make([]T, 2), make([]T, 2), make([]T, 2), make([]T, 2)} }
	d := two()
	d[3] = make([]T, 3)
	if err := catch(func() { k.ScoreBlock4(d, make([]T, 100), [4][]int32{}, [4][]T{}) }); err == nil {
		t.Error("len(dst[3]) != len(dst[0]): no panic")
	}
	if err := catch(func() { k.ScoreBlock4(two(), make([]T, 100), [4][]int32{2: {1}}, [4][]T{}) }); err == nil {
		t.Error("len(idx[2]) != len(val[2]): no panic")
	}
}
