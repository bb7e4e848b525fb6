package perceptron

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"testing"
	"unsafe"

	"github.com/rosenblatt-go/rosenblatt/internal/linmodel"
	"github.com/rosenblatt-go/rosenblatt/linear"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/internal/modelkern"
)

// BenchmarkTextOvRParts times the parts of an averaged one-vs-rest fit on
// a text set of bench/textset (ROSENBLATT_TEXTSET=PREFIX reads
// PREFIX.train.libsvm, 2²⁰ features, float32; skipped without it), the
// fit of bench/textfit with Workers 1, so that what bounds the whole is
// measured:
//
//   - fit, fit-noeval: the whole fit (trainMultiSparse), and with
//     SkipEvaluation (no final pass for the training diagnostics);
//
//   - epochs: the 10 epochs alone (shuffled, every update), no model
//     written;
//
//   - pass: 10 passes of scoring only (modelkern.ScoreBlock on every row in a
//     fresh shuffled order, with the trained weights, no update): the
//     epochs' floor, and pass-prefetch the same with modelkern.PrefetchRow of
//     the row rowsAhead visits ahead;
//
//   - pass-pairs: pass with the visits scored two at a time
//     (modelkern.ScoreBlock2), and the prefetch; pass-visits: as
//     epochSparseOvR scores them (scoreVisits: pairs, each call
//     prefetching the rows of the pair after next, ScoreBlock2Ahead);
//
//   - write: writing the model from the blocks as the fit does
//     (fromBlocksCompact: the compact average, running weights and sums);
//
//   - form: forming a compact model's dense K×D weights, as its first
//     dense use (a dense sample, Update, a model file) does.
//
// Run it with
//
//	ROSENBLATT_TEXTSET=/tmp/mantext/mantext-name go test -run XXX -bench TextOvRParts ./perceptron
func BenchmarkTextOvRParts(b *testing.B) {
	t, train := textTrainer(b)
	for _, noEval := range []bool{false, true} {
		name := "fit"
		if noEval {
			name = "fit-noeval"
		}
		b.Run(name, func(b *testing.B) {
			o := textOptions
			o.SkipEvaluation = noEval
			for range b.N {
				if _, _, err := trainMultiSparse(textX, textX.Y, o); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("epochs", func(b *testing.B) {
		for range b.N {
			train()
		}
	})
	train()
	g := t.blk[0]
	sc := make([]float32, g.G) // the scores of the visit being scored
	pass := func(ahead int) {
		for range 10 {
			t.smp.Next()
			E := t.smp.Visits
			for j := range E {
				if ahead < E-j {
					nx := t.ovr.vec(t.rowAt(j + ahead))
					modelkern.PrefetchRow(nx.idx, nx.val)
				}
				for bi, blk := range g.W {
					scoreBlock(sc[bi*blockWidth:min((bi+1)*blockWidth, g.G)], blk, t.ovr.vec(t.rowAt(j)))
				}
			}
		}
	}
	b.Run("pass", func(b *testing.B) {
		for range b.N {
			pass(noAhead)
		}
	})
	b.Run("pass-prefetch", func(b *testing.B) {
		for range b.N {
			pass(rowsAhead)
		}
	})
	b.Run("pass-pairs", func(b *testing.B) {
		ahead := make([]float32, g.G)
		for range b.N {
			for range 10 {
				t.smp.Next()
				E := t.smp.Visits
				for j := 0; j < E; j += 2 {
					for _, a := range []int{rowsAhead, rowsAhead + 1} {
						if j+a < E {
							nx := t.ovr.vec(t.rowAt(j + a))
							modelkern.PrefetchRow(nx.idx, nx.val)
						}
					}
					x := t.ovr.vec(t.rowAt(j))
					for bi, blk := range g.W {
						lo, hi := bi*blockWidth, min((bi+1)*blockWidth, g.G)
						if j+1 < E {
							scoreBlock2(sc[lo:hi], ahead[lo:hi], blk, x, t.ovr.vec(t.rowAt(j+1)))
						} else {
							scoreBlock(sc[lo:hi], blk, x)
						}
					}
				}
			}
		}
	})
	b.Run("pass-visits", func(b *testing.B) { passVisits(b, t, g) })
	b.Run("write", func(b *testing.B) {
		for range b.N {
			if A, _ := t.fromBlocksCompact(); len(A.A) == 0 {
				b.Fatal("no weights")
			}
		}
	})
	// form: the dense K×D weights of a compact model formed on the first
	// dense use (compactServed.denseW), the cost the fit no longer pays.
	cs, _ := t.fromBlocksCompact()
	b.Run("form", func(b *testing.B) {
		for range b.N {
			c := linmodel.NewCompactServed(cs.Cols, cs.A, t.dt.d)
			if len(c.DenseW()) == 0 {
				b.Fatal("no weights")
			}
		}
	})
}

// textTrainer returns the trainer of BenchmarkTextOvRParts, trained for 10
// epochs, and train, which trains it again from the start (it skips
// without ROSENBLATT_TEXTSET).
func textTrainer(b *testing.B) (t *linTrainer[float32], train func()) {
	prefix := os.Getenv("ROSENBLATT_TEXTSET")
	if prefix == "" {
		b.Skip("ROSENBLATT_TEXTSET not set")
	}
	X, err := dataset.LoadLIBSVMSparse[float32](prefix+".train.libsvm", dataset.LIBSVMOptions{Cols: 1 << 20})
	if err != nil {
		b.Fatal(err)
	}
	textX = X
	o := textOptions
	cfg, err := o.resolve()
	if err != nil {
		b.Fatal(err)
	}
	labels, cls, err := multiClasses(X.Y)
	if err != nil {
		b.Fatal(err)
	}
	k := linmodel.KernelsFor[float32](cfg.impl)
	dt, err := prepareSparse(k, X, cfg.scaling, cfg.bfeat, true, true)
	if err != nil {
		b.Fatal(err)
	}
	t = newLinTrainer(k, &cfg, dt, cls, len(labels), nil)
	grp, scratch := t.groups()
	stats := make([]classStats, t.K)
	train = func() {
		t.reset()
		for range 10 {
			if _, err := t.epoch(stats, grp, scratch); err != nil {
				b.Fatal(err)
			}
		}
	}
	train()
	return t, train
}

// textOptions are bench/textfit's options, Workers 1; textX is the
// training set textTrainer read.
var (
	textOptions = Options{Algorithm: linear.Averaged, MaxIter: 10, Stop: StopNever, Shuffle: true, Seed: 1, NoBias: true, Workers: 1}
	textX       *dataset.CSR[float32]
)

// noAhead is a look-ahead past every epoch: no prefetch.
const noAhead = math.MaxInt

// rowsAhead is how many visits ahead the pass-prefetch benchmarks
// prefetch a row's stored values (modelkern.PrefetchRow).
const rowsAhead = 2

// BenchmarkTextOvRBound measures what bounds the scoring passes of
// BenchmarkTextOvRParts (same set, same trained weights; 10 passes of
// modelkern.ScoreBlock2 on pairs of visits, as pass-pairs without its
// prefetch, unless said), one change at a time:
//
//   - shuffled-real, storage-real: the visits in a fresh shuffled order, or
//     in storage order (the rows then stream through memory in order);
//   - shuffled-fold256, storage-fold256: the same with every column index
//     folded into the first 256 features (6 KiB of weights: L1 hits);
//   - fixedlen-shuffled, fixedlen-storage: every row read as 19 values (the
//     mean) from its start: constant trip counts, no mispredicted loop
//     exits;
//   - pfN-touchfalse, pfN-touchtrue: modelkern.PrefetchRow of the rows N
//     visits ahead, or a load of their first and last index and value;
//   - hugefalse, hugetrue: the rows and the block copied, or copied onto
//     transparent huge pages (dataset.Alloc of an 8 MiB arena; AnonHugeKB
//     reports the process's);
//   - aligned, aligned-one: every row's indices and values starting on a
//     cache line, in two arrays, or in one (a row's indices then its
//     values: one stream);
//   - pairs-w6, pairs-w8: the class block as trained (6 lanes, 24-byte
//     features that straddle cache lines) or padded to 8 lanes (32-byte
//     aligned features), with pass-pairs' prefetch;
//   - visits: epochSparseOvR's scoring (scoreVisits: pairs, each call
//     prefetching the rows of the pair after next).
//
// Run it with
//
//	ROSENBLATT_TEXTSET=/tmp/mantext/mantext-name go test -run XXX -bench TextOvRBound ./perceptron
func BenchmarkTextOvRBound(b *testing.B) {
	t, _ := textTrainer(b)
	g := t.blk[0]
	w := g.G
	rows := t.ovr.rows
	sc, ahead := make([]float32, w), make([]float32, w)
	shuffled := func(j int) int { return t.rowAt(j) }
	storage := func(j int) int { return j }
	// pairs runs 10 passes scoring the visits two at a time against blk,
	// row at(j) read by vecAt, pf (if not nil) called on the rows dist
	// visits ahead.
	pairs := func(b *testing.B, blk []float32, at func(int) int, vecAt func(int) vec[float32], dist int, pf func(int)) {
		for range b.N {
			for range 10 {
				t.smp.Next()
				E := t.smp.Visits
				for j := 0; j < E; j += 2 {
					if pf != nil && j+dist+1 < E {
						pf(at(j + dist))
						pf(at(j + dist + 1))
					}
					x := vecAt(at(j))
					if j+1 < E {
						scoreBlock2(sc, ahead, blk, x, vecAt(at(j+1)))
					} else {
						scoreBlock(sc, blk, x)
					}
				}
			}
		}
	}
	orig := rows.idx
	fold := make([]int32, len(orig))
	for i, j := range orig {
		fold[i] = j % 256
	}
	for _, order := range []string{"shuffled", "storage"} {
		at := shuffled
		if order == "storage" {
			at = storage
		}
		for _, v := range []struct {
			name string
			idx  []int32
		}{{"real", orig}, {"fold256", fold}} {
			b.Run(order+"-"+v.name, func(b *testing.B) {
				rows.idx = v.idx
				defer func() { rows.idx = orig }()
				pairs(b, g.W[0], at, t.ovr.vec, 0, nil)
			})
		}
		b.Run("fixedlen-"+order, func(b *testing.B) {
			pairs(b, g.W[0], at, func(i int) vec[float32] {
				lo := min(rows.ptr[i], len(rows.idx)-19)
				return vec[float32]{idx: rows.idx[lo : lo+19], val: rows.val[lo : lo+19]}
			}, 0, nil)
		})
	}
	var touched int32
	for _, dist := range []int{2, 8, 16} {
		for _, touch := range []bool{false, true} {
			b.Run(fmt.Sprintf("pf%d-touch%v", dist, touch), func(b *testing.B) {
				pairs(b, g.W[0], shuffled, t.ovr.vec, dist, func(r int) {
					nx := t.ovr.vec(r)
					if !touch {
						modelkern.PrefetchRow(nx.idx, nx.val)
					} else if n := len(nx.idx); n > 0 {
						touched += nx.idx[0] + nx.idx[n-1] + int32(nx.val[0]) + int32(nx.val[n-1])
					}
				})
			})
		}
	}
	{
		arena := dataset.Alloc[float32](8 << 20)
		idxH := unsafe.Slice((*int32)(unsafe.Pointer(&arena[0])), len(rows.idx))
		copy(idxH, rows.idx)
		off := (len(rows.idx) + 1023) &^ 1023
		valH := arena[off : off+len(rows.val)]
		copy(valH, rows.val)
		off = (off + len(rows.val) + 1023) &^ 1023
		blkH := arena[off : off+len(g.W[0])]
		copy(blkH, g.W[0])
		idxC, valC, blkC := slices.Clone(rows.idx), slices.Clone(rows.val), slices.Clone(g.W[0])
		origVal := rows.val
		for _, huge := range []bool{false, true} {
			b.Run(fmt.Sprintf("huge%v", huge), func(b *testing.B) {
				rows.idx, rows.val = idxC, valC
				blk := blkC
				if huge {
					rows.idx, rows.val, blk = idxH, valH, blkH
				}
				defer func() { rows.idx, rows.val = orig, origVal }()
				pairs(b, blk, shuffled, t.ovr.vec, 0, nil)
				b.ReportMetric(hugeKB(), "AnonHugeKB")
			})
		}
	}
	{
		n := len(rows.ptr) - 1
		st := make([]int, n+1) // row i's first value (a multiple of 16)
		for i := range n {
			st[i+1] = st[i] + (rows.ptr[i+1]-rows.ptr[i]+15)&^15
		}
		two, one := alignedFloats(2*st[n]), alignedFloats(2*st[n])
		idxA := unsafe.Slice((*int32)(unsafe.Pointer(&two[0])), st[n])
		valA := two[st[n]:]
		idxO := unsafe.Slice((*int32)(unsafe.Pointer(&one[0])), 2*st[n])
		for i := range n {
			lo, hi := rows.ptr[i], rows.ptr[i+1]
			copy(idxA[st[i]:], rows.idx[lo:hi])
			copy(valA[st[i]:], rows.val[lo:hi])
			copy(idxO[2*st[i]:], rows.idx[lo:hi])
			copy(one[2*st[i]+(hi-lo):], rows.val[lo:hi])
		}
		for _, mode := range []string{"aligned", "aligned-one"} {
			b.Run(mode, func(b *testing.B) {
				pairs(b, g.W[0], shuffled, func(i int) vec[float32] {
					k := rows.ptr[i+1] - rows.ptr[i]
					if mode == "aligned" {
						return vec[float32]{idx: idxA[st[i] : st[i]+k], val: valA[st[i] : st[i]+k]}
					}
					return vec[float32]{idx: idxO[2*st[i] : 2*st[i]+k], val: one[2*st[i]+k : 2*st[i]+2*k]}
				}, 0, nil)
			})
		}
	}
	for _, pw := range []int{w, 8} {
		blk := alignedFloats(g.d*pw + 8)
		for r := range g.d {
			copy(blk[r*pw:r*pw+w], g.W[0][r*w:r*w+w])
		}
		sc, ahead = make([]float32, pw), make([]float32, pw)
		b.Run(fmt.Sprintf("pairs-w%d", pw), func(b *testing.B) {
			pairs(b, blk, shuffled, t.ovr.vec, rowsAhead, func(r int) {
				nx := t.ovr.vec(r)
				modelkern.PrefetchRow(nx.idx, nx.val)
			})
		})
	}
	b.Run("visits", func(b *testing.B) { passVisits(b, t, g) })
	_ = touched
}

// passVisits runs 10 passes of epochSparseOvR's scoring (scoreVisits:
// scoreAhead visits at a time, and its prefetch) in fresh shuffled orders.
func passVisits(b *testing.B, t *linTrainer[float32], g *ovrGroup[float32]) {
	for range b.N {
		for range 10 {
			t.smp.Next()
			vis := t.visitsOf(g)
			for j := 0; j < len(vis); {
				j += t.scoreVisits(g, vis, j)
			}
		}
	}
}

// alignedFloats returns n zeros starting on a 64-byte boundary.
func alignedFloats(n int) []float32 {
	x := make([]float32, n+16)
	off := (16 - int(uintptr(unsafe.Pointer(&x[0]))/4%16)) % 16
	return x[off : off+n]
}

// hugeKB is the process's AnonHugePages (kB) from /proc/self/smaps_rollup.
func hugeKB() float64 {
	b, _ := os.ReadFile("/proc/self/smaps_rollup")
	for _, l := range bytes.Split(b, []byte("\n")) {
		if f := bytes.Fields(l); len(f) >= 2 && string(f[0]) == "AnonHugePages:" {
			v, _ := strconv.ParseFloat(string(f[1]), 64)
			return v
		}
	}
	return -1
}
