package modelkern

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
	"unsafe"

	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// TestScoreBlock2: on every path of this build, ScoreBlock2's two score
// vectors equal two ScoreBlock calls' (and so the Go loop's) bit for bit,
// for w = 1..8 and every pair of non-zero counts in 0..19 (the joint loop,
// and the rest of either sample alone), with repeated indices and the last
// feature among them, and it writes nothing past either dst. A swapped
// accumulator, a lane of the wrong sample or a sum in another order shows
// in the last bits. ScoreBlock2Ahead gives the same bits whatever its
// prefetch addresses: none, the samples' own, or addresses nothing is
// mapped at (0, 1, the top of the address space), which must not fault.
func TestScoreBlock2(t *testing.T) {
	if fusingAMD64 {
		t.Skip("the Go compiler fuses multiply-adds on this amd64 build (GOAMD64 ≥ v3)")
	}
	testScoreBlock2[float32](t)
	testScoreBlock2[float64](t)
}

func testScoreBlock2[T Float](t *testing.T) {
	rng := rand.New(rand.NewPCG(9, uint64(unsafeSizeof[T]())))
	rnd := func() T { return T((rng.Float64() - 0.5) * math.Exp2(float64(rng.IntN(20)-10))) }
	sample := func(nnz, d int) ([]int32, []T) {
		idx, val := make([]int32, nnz), make([]T, nnz)
		for i := range idx {
			idx[i], val[i] = int32(rng.IntN(d)), rnd()
		}
		if nnz > 0 && rng.IntN(2) == 0 {
			idx[rng.IntN(nnz)] = int32(d - 1)
		}
		return idx, val
	}
	for _, im := range kernel.Impls() {
		if !im.Available() {
			continue
		}
		k := On[T](im)
		for w := 1; w <= 8; w++ {
			const d = 41
			blk := make([]T, d*w+scoreBlockLanes(w)-w)
			for i := range blk {
				blk[i] = rnd()
			}
			for n0 := range 20 {
				for n1 := range 20 {
					idx0, val0 := sample(n0, d)
					idx1, val1 := sample(n1, d)
					got0, got1 := make([]T, w+1), make([]T, w+1)
					got0[w], got1[w] = 42, 43 // past dst: must stay
					want0, want1 := make([]T, w), make([]T, w)
					k.ScoreBlock2(got0[:w], got1[:w], blk, idx0, val0, idx1, val1)
					k.ScoreBlock(want0, blk, idx0, val0)
					k.ScoreBlock(want1, blk, idx1, val1)
					for l := range w {
						if math.Float64bits(float64(got0[l])) != math.Float64bits(float64(want0[l])) ||
							math.Float64bits(float64(got1[l])) != math.Float64bits(float64(want1[l])) {
							t.Fatalf("%s %T w=%d nnz %d, %d lane %d: %v, %v; ScoreBlock %v, %v", im.Name(), want0[0], w, n0, n1, l, got0[:w], got1[:w], want0, want1)
						}
					}
					if got0[w] != 42 || got1[w] != 43 {
						t.Fatalf("%s %T w=%d nnz %d, %d: wrote past dst", im.Name(), want0[0], w, n0, n1)
					}
					var own [4]uintptr
					if n0 > 0 && n1 > 0 {
						own = [4]uintptr{uintptr(unsafe.Pointer(&idx0[0])), uintptr(unsafe.Pointer(&val0[0])), uintptr(unsafe.Pointer(&idx1[0])), uintptr(unsafe.Pointer(&val1[0]))}
					}
					for _, ahead := range []*[4]uintptr{nil, &own, {0, 1, ^uintptr(0), ^uintptr(0) - 63}} {
						a0, a1 := make([]T, w), make([]T, w)
						k.ScoreBlock2Ahead(a0, a1, blk, idx0, val0, idx1, val1, ahead)
						for l := range w {
							if math.Float64bits(float64(a0[l])) != math.Float64bits(float64(want0[l])) ||
								math.Float64bits(float64(a1[l])) != math.Float64bits(float64(want1[l])) {
								t.Fatalf("%s %T w=%d nnz %d, %d, ahead %v: lane %d differs from ScoreBlock's", im.Name(), want0[0], w, n0, n1, ahead, l)
							}
						}
					}
				}
			}
		}
	}
}

// TestScoreBlock2BadIndex: an index outside the block in either sample
// (negative, past the last feature, or in a last feature whose padding is
// missing for w > 4) panics with Go's index-out-of-range error on every
// path, as ScoreBlock on that sample does; a valid pair does not; and dst0
// and dst1 of different lengths panic.
func TestScoreBlock2BadIndex(t *testing.T) {
	testScoreBlock2BadIndex[float32](t)
	testScoreBlock2BadIndex[float64](t)
}

func testScoreBlock2BadIndex[T Float](t *testing.T) {
	for _, im := range kernel.Impls() {
		if !im.Available() {
			continue
		}
		k := On[T](im)
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
					for which := range 2 {
						good, odd := []int32{0, 1, 2, 3, 4, 0}, []int32{0, 1, bad, 2}
						idx0, idx1 := good[:5], odd
						if which == 1 {
							idx0, idx1 = odd, good
						}
						if short {
							idx0, idx1 = idx0[:4], idx1[:4] // feature d−1 only in the odd sample
						}
						val0, val1 := make([]T, len(idx0)), make([]T, len(idx1))
						name := fmt.Sprintf("%s/%T/w=%d/idx=%d/short=%v/sample %d", im.Name(), blk[0], w, bad, short, which)
						err := catch(func() { k.ScoreBlock2(make([]T, w), make([]T, w), b, idx0, val0, idx1, val1) })
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
	if err := catch(func() {
		Kernels[T]{id: activeID}.ScoreBlock2(make([]T, 2), make([]T, 3), make([]T, 100), nil, nil, nil, nil)
	}); err == nil {
		t.Error("len(dst0) != len(dst1): no panic")
	}
	if err := catch(func() {
		Kernels[T]{id: activeID}.ScoreBlock2(make([]T, 2), make([]T, 2), make([]T, 100), nil, nil, []int32{1}, nil)
	}); err == nil {
		t.Error("len(idx1) != len(val1): no panic")
	}
}
