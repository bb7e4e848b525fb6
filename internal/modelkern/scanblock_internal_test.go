package modelkern

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"unsafe"

	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// refScan is ScanBlock2 spelled out on the Go loop (scoreBlockGeneric):
// each visit scored alone, the first wrong one's position, its scores and
// those of the visit after it when the two were a pair (j even).
func refScan[T Float](blk []T, idx []int32, val []T, vis []Visit, bias []T, c0 int) (j, n int, s0, s1 []T) {
	w := len(bias)
	score := func(v Visit) []T {
		s := make([]T, w)
		scoreBlockGeneric(s, blk, idx[v.Lo:v.Hi], val[v.Lo:v.Hi])
		return s
	}
	for j, v := range vis {
		s := score(v)
		right := true
		for l := range w {
			a := s[l] + bias[l]
			if math.IsNaN(float64(a)) || math.IsInf(float64(a), 0) || a == 0 || (a > 0) != (l == int(v.Class)-c0) {
				right = false
			}
		}
		if right {
			continue
		}
		if j%2 == 0 && j+1 < len(vis) {
			return j, 2, s, score(vis[j+1])
		}
		return j, 1, s, nil
	}
	return len(vis), 0, nil, nil
}

// TestScanBlock2: on every path of this build, ScanBlock2 stops where the
// plain loop finds the first wrong visit, with that visit's scores (and
// those of the visit it was paired with) bit for bit the Go loop's, and
// writes nothing past dst0 and dst1; scanning on from each stop finds
// every wrong visit in turn. The lists have 0 to 13 visits of 0 to 19
// values, w = 1..8, classes inside and outside the block (c0 = 0 or 3, or
// one whose low 32 bits are 0, placing every class outside),
// and visits wrong in one lane only: a class lane not positive, another
// lane positive, a score of zero, NaN or ±Inf (an infinite value).
func TestScanBlock2(t *testing.T) {
	if fusingAMD64 {
		t.Skip("the Go compiler fuses multiply-adds on this amd64 build (GOAMD64 ≥ v3)")
	}
	testScanBlock2[float32](t)
	testScanBlock2[float64](t)
}

func testScanBlock2[T Float](t *testing.T) {
	rng := rand.New(rand.NewPCG(11, uint64(unsafeSizeof[T]())))
	const d = 37
	for _, im := range kernel.Impls() {
		if !im.Available() {
			continue
		}
		k := On[T](im)
		stops := 0
		for w := 1; w <= 8; w++ {
			// Small weights, a bias of −1 in every lane but the class
			// lanes of a few classes +1: most visits are right.
			blk := make([]T, d*w+scoreBlockLanes(w)-w)
			for i := range blk {
				blk[i] = T((rng.Float64() - 0.5) / 64)
			}
			for trial := range 60 {
				base := 3 * (trial % 2) // the classes are base + −2..w+1
				c0 := base
				if trial%3 == 2 {
					// no class is in the block, though their low 32 bits
					// less c0's are lanes (c0 is 0 on a 32-bit build)
					c0 = math.MaxInt &^ math.MaxUint32
				}
				var idx []int32
				var val []T
				nv := rng.IntN(14)
				vis := make([]Visit, nv)
				for v := range vis {
					nnz := rng.IntN(20)
					lo := len(idx)
					for range nnz {
						idx = append(idx, int32(rng.IntN(d)))
						val = append(val, T(rng.Float64()))
					}
					cls := int32(base + rng.IntN(w+4) - 2) // some outside the block
					if rng.IntN(8) == 0 {
						cls = []int32{math.MinInt32, math.MaxInt32}[rng.IntN(2)]
					}
					vis[v] = Visit{Lo: lo, Hi: len(idx), Row: int32(v), Class: cls}
					switch rng.IntN(12) {
					case 0: // an infinite value: ±Inf or NaN scores
						if nnz > 0 {
							val[lo+rng.IntN(nnz)] = T(math.Inf(1 - 2*rng.IntN(2)))
						}
					case 1: // an empty sample: the scores are 0
						vis[v].Hi = lo
					}
				}
				bias := make([]T, w)
				for l := range bias {
					bias[l] = -1
				}
				// the visits' classes mostly right: a class inside the block
				// is right only if its lane's bias is positive, so make the
				// lanes of a few classes positive and give the visits of
				// the others a class outside
				for l := range bias {
					if rng.IntN(3) == 0 {
						bias[l] = 1
					}
				}
				if trial%5 == 0 {
					bias[rng.IntN(w)] = 0 // zero scores for the empty samples
				}
				for start := 0; ; {
					dst0, dst1 := make([]T, w+1), make([]T, w+1)
					dst0[w], dst1[w] = 42, 43
					j, n := k.ScanBlock2(dst0[:w], dst1[:w], blk, idx, val, vis[start:], bias, c0)
					wj, wn, s0, s1 := refScan(blk, idx, val, vis[start:], bias, c0)
					name := fmt.Sprintf("%s %T w=%d trial %d from %d", im.Name(), blk[0], w, trial, start)
					if j != wj || n != wn {
						t.Fatalf("%s: stop (%d, %d), want (%d, %d)", name, j, n, wj, wn)
					}
					if dst0[w] != 42 || dst1[w] != 43 {
						t.Fatalf("%s: wrote past dst0 or dst1", name)
					}
					if n >= 1 && !sameBits(dst0[:w], s0) || n == 2 && !sameBits(dst1[:w], s1) {
						t.Fatalf("%s: scores %v, %v; the Go loop's %v, %v", name, dst0[:w], dst1[:w], s0, s1)
					}
					if j == len(vis)-start {
						break
					}
					stops++
					start += j + 1
				}
			}
		}
		if stops < 200 {
			t.Fatalf("%s %T: only %d wrong visits: the test does not test", im.Name(), T(0), stops)
		}
	}
}

func sameBits[T Float](a, b []T) bool {
	return slices.EqualFunc(a, b, func(x, y T) bool { return math.Float64bits(float64(x)) == math.Float64bits(float64(y)) })
}

// TestScanBlock2Bad: a visit whose sample is not inside idx (Lo > Hi, Hi
// past the end, a negative Lo) or an index outside the block panics with
// Go's slice or index out-of-range error on every path, wherever the visit
// is in the list (first or second of a pair, or alone at the end); lengths
// that differ panic too.
func TestScanBlock2Bad(t *testing.T) {
	testScanBlock2Bad[float32](t)
	testScanBlock2Bad[float64](t)
}

func testScanBlock2Bad[T Float](t *testing.T) {
	const w, d = 3, 4
	blk := make([]T, d*w)
	idx := []int32{0, 1, 2, 3, 0, 1, 5}
	val := make([]T, len(idx))
	good := Visit{Lo: 0, Hi: 4, Class: 9}
	for _, im := range kernel.Impls() {
		if !im.Available() {
			continue
		}
		k := On[T](im)
		for _, bad := range []Visit{{Lo: 3, Hi: 2}, {Lo: 0, Hi: 8}, {Lo: -1, Hi: 2}, {Lo: 4, Hi: 7}, {Lo: 0, Hi: math.MinInt}} {
			for at := range 3 {
				vis := []Visit{good, good, good}
				vis[at] = bad
				err := catch(func() {
					k.ScanBlock2(make([]T, w), make([]T, w), blk, idx, val, vis, []T{-1, -1, -1}, 0)
				})
				if re, ok := err.(runtime.Error); !ok || !containsStr(re.Error(), "out of range") {
					t.Errorf("%s %T visit %+v at %d: recovered %v, want an out-of-range runtime error", im.Name(), T(0), bad, at, err)
				}
			}
		}
	}
	k := Kernels[T]{id: activeID}
	for _, c := range []struct {
		name            string
		dst0, dst1, bia int
		nval            int
	}{{"dst1 shorter", 3, 2, 3, 7}, {"bias longer", 3, 3, 4, 7}, {"no lanes", 0, 0, 0, 7}, {"nine lanes", 9, 9, 9, 7}, {"val shorter", 3, 3, 3, 6}} {
		if err := catch(func() {
			k.ScanBlock2(make([]T, c.dst0), make([]T, c.dst1), make([]T, 100), idx, make([]T, c.nval), nil, make([]T, c.bia), 0)
		}); err == nil {
			t.Errorf("%s: no panic", c.name)
		}
	}
}

// TestVisitLayout: the offsets the generated scan reads (_asm's
// visitLoOff, visitHiOff, visitClassOff, visitSize) are Visit's.
func TestVisitLayout(t *testing.T) {
	var v Visit
	if unsafe.Sizeof(int(0)) != 8 {
		t.Skip("32-bit int: no scan assembly reads Visit")
	}
	got := [4]uintptr{unsafe.Offsetof(v.Lo), unsafe.Offsetof(v.Hi), unsafe.Offsetof(v.Class), unsafe.Sizeof(v)}
	if got != [4]uintptr{0, 8, 20, 24} {
		t.Fatalf("Visit's Lo, Hi, Class offsets and size %v, the assembly's 0, 8, 20, 24", got)
	}
}
