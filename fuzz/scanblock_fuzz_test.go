package fuzz

import (
	"math"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/internal/modelkern"
	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/parity"
)

// fuzzScanBlock2 checks modelkern.ScanBlock2 on every implementation against
// a plain loop: the visits scored one by one with the generic ScoreBlock
// (whose scores every path matches bit for bit, NaNs up to their payload:
// sameScores), the first one that some
// lane gets wrong (a = score + bias not finite, zero, or of the wrong
// sign), its scores and its pair's. It scans on from each stop to the end
// of the list. ix[0] picks the block's width w = 1..8, ix[1] its features
// d = 1..8, ix[2] c0; each later byte b is a visit of b%6 stored values
// (their indices from the bytes after it) of class b/6 % (w+3) − 1 + c0
// (classes outside the block too). The values (weights, biases, the
// samples') come from data, cyclically.
func fuzzScanBlock2[T kernel.Float](t *testing.T, data, ix []byte) {
	if fusingAMD64 {
		t.Skip("the Go compiler fuses multiply-adds on this amd64 build (GOAMD64 ≥ v3): the generic scores round differently")
	}
	v := parity.Floats[T](data)
	if len(v) == 0 || len(ix) < 3 {
		return
	}
	next := 0
	value := func() T { next++; return v[(next-1)%len(v)] }
	w, d, c0 := 1+int(ix[0])%8, 1+int(ix[1])%8, int(ix[2])%4
	blk := make([]T, d*w+blockPad(w))
	for i := range blk {
		blk[i] = value()
	}
	bias := make([]T, w)
	for l := range bias {
		bias[l] = value()
	}
	var idx []int32
	var val []T
	var vis []modelkern.Visit
	for k := 3; k < len(ix); k++ {
		b := int(ix[k])
		lo := len(idx)
		for s := range b % 6 {
			at := ix[(k+1+s)%len(ix)]
			idx = append(idx, int32(int(at)%d))
			val = append(val, value())
		}
		vis = append(vis, modelkern.Visit{Lo: lo, Hi: len(idx), Row: int32(k), Class: int32(b/6%(w+3) - 1 + c0)})
	}
	var generic *kernel.Impl
	for _, im := range impls(t) {
		if im.Name() == "generic" {
			generic = im
		}
	}
	if generic == nil {
		t.Fatal("no generic implementation")
	}
	ref := modelkern.On[T](generic)
	score := func(u modelkern.Visit) []T {
		s := make([]T, w)
		ref.ScoreBlock(s, blk, idx[u.Lo:u.Hi], val[u.Lo:u.Hi])
		return s
	}
	right := func(s []T, u modelkern.Visit) bool {
		for l := range w {
			a := float64(s[l] + bias[l])
			if math.IsNaN(a) || math.IsInf(a, 0) || a == 0 || (a > 0) != (l == int(u.Class)-c0) {
				return false
			}
		}
		return true
	}
	for _, im := range impls(t) {
		k := modelkern.On[T](im)
		for start := 0; start <= len(vis); {
			dst0, dst1 := make([]T, w), make([]T, w)
			j, n := k.ScanBlock2(dst0, dst1, blk, idx, val, vis[start:], bias, c0)
			// the plain loop's stop
			wj, wn := len(vis)-start, 0
			var s0, s1 []T
			for p, u := range vis[start:] {
				if s := score(u); !right(s, u) {
					wj, wn, s0 = p, 1, s
					if p%2 == 0 && start+p+1 < len(vis) {
						wn, s1 = 2, score(vis[start+p+1])
					}
					break
				}
			}
			if j != wj || n != wn {
				t.Fatalf("%s: from visit %d of %d (w=%d, d=%d, c0=%d): stop (%d, %d), the plain loop's (%d, %d)", im, start, len(vis), w, d, c0, j, n, wj, wn)
			}
			if n >= 1 && !sameScores(dst0, s0) || n == 2 && !sameScores(dst1, s1) {
				t.Fatalf("%s: from visit %d: scores %v, %v; ScoreBlock's %v, %v", im, start, dst0, dst1, s0, s1)
			}
			start += j + 1
		}
	}
}

// sameScores reports whether a and b hold the same bits, any NaN matching
// any NaN: which NaN a product or sum of two NaNs gives depends on the
// order of its operands, which ScoreBlock's contract leaves open (its
// paths agree bit for bit on every other value).
func sameScores[T kernel.Float](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != a[i] && b[i] != b[i] {
			continue
		}
		if !parity.SameBits(a[i:i+1], b[i:i+1]) {
			return false
		}
	}
	return true
}

// blockPad is the padding ScoreBlock needs past the last feature of a
// block of width w (eight lanes read for w > 4).
func blockPad(w int) int {
	if w > 4 {
		return 8 - w
	}
	return 0
}

func FuzzScanBlock2F32(f *testing.F) { addScanSeeds(f); f.Fuzz(fuzzScanBlock2[float32]) }
func FuzzScanBlock2F64(f *testing.F) { addScanSeeds(f); f.Fuzz(fuzzScanBlock2[float64]) }

func addScanSeeds(f *testing.F) {
	for i, s := range seeds {
		f.Add(s, []byte{byte(i), byte(3 * i), byte(i), 17, 200, 5, 9, 2, 31, 64, 3, 255, 0, 128})
	}
	// zeros: every score and bias 0, so every visit is wrong (a = 0)
	f.Add([]byte{1, 0, 0, 0, 0}, []byte{5, 3, 1, 17, 200, 5, 9, 2, 31})
	// small integers, the biases of lanes 0..2 negative: runs of right
	// visits of classes outside the block between wrong ones
	f.Add([]byte{1, 0, 1, 0, 0, 0, 0, 0xff, 0xfe, 0xfd, 1, 2}, []byte{2, 1, 0, 60, 61, 66, 0, 72, 3, 78, 60, 9, 61, 67})
}
