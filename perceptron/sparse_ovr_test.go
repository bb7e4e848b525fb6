package perceptron

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/internal/linmodel"
	"github.com/rosenblatt-go/rosenblatt/linear"
)

// ovrTextLike returns n integer-valued sparse rows of d columns, K classes,
// in the shape of hashed text: class k's rows hold a large value in column
// 3 + 4k (its signature) and small noise in a few of the columns 1, 5, 9,
// …; every other column (0, the even ones, those past the classes') holds
// no value in any row. One-vs-rest separates the classes, so a fit can
// stop early.
func ovrTextLike(t *testing.T, n, d, K int) ([]float64, *dataset.CSR[float64], []int) {
	t.Helper()
	rng := newRand(71)
	X, y := make([]float64, n*d), make([]int, n)
	for i := range n {
		k := rng.IntN(K)
		y[i] = k * 10 // labels need not be 0..K−1
		x := X[i*d : (i+1)*d]
		x[3+4*k] = float64(3 + rng.IntN(3))
		for range 3 {
			j := 1 + 4*rng.IntN(d/4)
			x[j] = float64(rng.IntN(5) - 2)
		}
	}
	c, err := dataset.FromDense(&dataset.Data[float64]{X: X, Y: y, Rows: n, Cols: d})
	if err != nil {
		t.Fatal(err)
	}
	return X, c, y
}

// TestSparseOvRMatchesPerClass checks the sparse one-vs-rest trainer (all
// classes in one pass over the samples, weights interleaved by feature over
// the columns the data uses) against two references, bit for bit on
// integer data: the dense one-vs-rest fit (the same model and diagnostics,
// epochs and early stop included; the final pass of Averaged up to
// rounding), and, where a class's training does not depend on the others'
// (every epoch run, or Online, which stops changing once clean), a binary
// fit of each class against the rest (the same scores on every row). With
// a warm start whose weights fill the columns no row uses, those columns
// must come out as they went in. With 19 classes, Online and Averaged
// train a worker's classes in groups of at most eight, one after the
// other (newOvrGroups' split), and Voted in blocks of one group.
func TestSparseOvRMatchesPerClass(t *testing.T) {
	for _, K := range []int{5, 19} {
		testSparseOvRMatchesPerClass(t, K)
	}
}

func testSparseOvRMatchesPerClass(t *testing.T, K int) {
	const n = 160
	d := 4*K + 12
	X, c, y := ovrTextLike(t, n, d, K)
	w0, b0 := make([]float64, K*d), make([]float64, K)
	rng := newRand(72)
	for i := range w0 {
		w0[i] = float64(rng.IntN(3) - 1)
	}
	for i := range b0 {
		b0[i] = float64(rng.IntN(3) - 1)
	}
	stopped := false
	for _, algo := range []linear.Algorithm{linear.Online, linear.Averaged, linear.Voted} {
		for _, all := range []bool{true, false} {
			for _, workers := range []int{1, 2} {
				for _, warm := range []bool{false, true} {
					o := Options{Algorithm: algo, MaxIter: 12, Stop: stopOf(all), Shuffle: true, Seed: 5, Workers: workers}
					if warm {
						o.Init = Weights{W: w0, B: b0}
					}
					t.Run(fmt.Sprintf("K=%d/%v/all=%v/workers=%d/warm=%v", K, algo, all, workers, warm), func(t *testing.T) {
						dm, dd, err := trainMulti(X, d, y, o)
						if err != nil {
							t.Fatal(err)
						}
						sm, sd, err := trainMultiSparse(c, y, o)
						if err != nil {
							t.Fatal(err)
						}
						if !sameModel(t, dm, sm) {
							t.Fatal("the sparse one-vs-rest model differs from the dense one")
						}
						if !sameDiagnostics(dd, sd, algo != linear.Averaged) {
							t.Fatalf("diagnostics differ:\ndense  %+v\nsparse %+v", *dd, *sd)
						}
						if len(sd.Epochs) < o.MaxIter {
							stopped = true
						}
						if !all && algo != linear.Online {
							return
						}
						sc := make([]float64, K)
						for k := range K {
							yk := make([]int, n)
							for i := range yk {
								yk[i] = -1
								if y[i] == k*10 {
									yk[i] = 1
								}
							}
							ob := o
							if warm {
								ob.Init = Weights{W: w0[k*d : (k+1)*d], B: b0[k : k+1]}
							}
							if !all {
								// The binary fit stops at its own first clean
								// epoch; one-vs-rest runs until every class is
								// clean, and a clean class changes nothing.
								ob.MaxIter = len(sd.Epochs)
							}
							bm, _, err := trainBinarySparse(c, yk, ob)
							if err != nil {
								t.Fatal(err)
							}
							bs := make([]float64, 1)
							for i := range n {
								if err := sm.ScoresSparse(sc, c.Row(i)); err != nil {
									t.Fatal(err)
								}
								if err := bm.ScoresSparse(bs, c.Row(i)); err != nil {
									t.Fatal(err)
								}
								if sc[k] != bs[0] {
									t.Fatalf("class %d row %d: one-vs-rest score %v, binary %v", k, i, sc[k], bs[0])
								}
							}
						}
					})
				}
			}
		}
	}
	if !stopped {
		t.Error("no fit stopped early: the early-stop cases test nothing")
	}
}

// TestSparseOvRFromBlocks checks the model a one-vs-rest fit from zero
// weights writes straight from its blocks (fromBlocks: no K×D trainer
// arrays) against the one assembled through the trainer's K×D W and U
// (syncOut, averageW), which a start of zero biases takes (Init: Weights{B}
// makes the start's weights, zero): the same bits, on data with
// non-integer values, where a different order or form of the average
// w − u/steps, or a lane of the wrong class, shows; and the same
// diagnostics, the margins (which use the served weights' norms) up to
// rounding.
func TestSparseOvRFromBlocks(t *testing.T) {
	rng := newRand(91)
	const K = 6
	// More used columns than writeChunk: the blocks are written in
	// chunks of columns.
	c := textLike[float32](rng, 1000, 1<<13, 9, K)
	if used := len(slices.Compact(slices.Sorted(slices.Values(c.Idx)))); used <= writeChunk {
		t.Fatalf("%d used columns: not more than writeChunk", used)
	}
	for k := range c.Val {
		c.Val[k] = float32(rng.Float64()*2 - 0.7)
	}
	for _, algo := range []linear.Algorithm{linear.Online, linear.Averaged} {
		for _, workers := range []int{1, 2, 4} {
			for _, bf := range []float64{0, 0.5} { // normalized with a bias feature: the augmented column, and the running weights and sums written too
				t.Run(fmt.Sprintf("%v/workers=%d/B=%v", algo, workers, bf), func(t *testing.T) {
					o := Options{Algorithm: algo, MaxIter: 5, Stop: StopNever, Shuffle: true, Seed: 3, Workers: workers, BiasFeature: bf, Normalize: bf > 0}
					fused, fd, err := trainMultiSparse(c, c.Y, o)
					if err != nil {
						t.Fatal(err)
					}
					o.Init = Weights{B: make([]float64, K)}
					dense, dd, err := trainMultiSparse(c, c.Y, o)
					if err != nil {
						t.Fatal(err)
					}
					if !sameModel(t, fused, dense) {
						t.Fatal("the model written from the blocks differs from the one assembled through W and U")
					}
					// The margins divide by ‖w‖, which fromBlocks sums in
					// float64 as it writes the weights and the other path
					// with kernel.Dot in float32: the same up to float32's
					// rounding of a sum of 8192 squares (γₙ ≈ n·2⁻²⁴ ≈
					// 4.9e-4 relative at most, far less in practice, and the bounds square it).
					for k := range K {
						f, e := &fd.Classes[k], &dd.Classes[k]
						for _, p := range [][2]float64{{f.Margin, e.Margin}, {f.MarginAugmented, e.MarginAugmented},
							{f.Bound, e.Bound}, {f.BoundAugmented, e.BoundAugmented}} {
							if math.Abs(p[0]-p[1]) > 5e-4*math.Abs(p[1]) {
								t.Fatalf("class %d: margin or bound %v from the blocks, %v through W and U", k, p[0], p[1])
							}
						}
						f.Margin, f.MarginAugmented, f.Bound, f.BoundAugmented = e.Margin, e.MarginAugmented, e.Bound, e.BoundAugmented
					}
					if !sameDiagnostics(fd, dd, true) {
						t.Fatalf("diagnostics differ:\nfrom the blocks %+v\nthrough W, U     %+v", *fd, *dd)
					}
				})
			}
		}
	}
}

// TestFromBlocksNonFinite: the model written from the blocks reports a
// served weight that is not finite (servedFinite, which then reads no
// weight), as a pass over the written weights would: finite running
// weights and sums can still give an average w − u/steps that overflows,
// and the fit must then fail with the "averaged weights" divergence, not
// serve it.
func TestFromBlocksNonFinite(t *testing.T) {
	// And on more used columns than writeChunk: the most and the least
	// frequent column are then written in different chunks.
	wide := textLike[float32](newRand(93), 1000, 1<<13, 9, 3)
	for _, workers := range []int{1, 2} {
		for _, newTrainer := range []func() *linTrainer[float32]{averagedOvRTrainer(t, workers), averagedOvRTrainerOn(t, workers, wide, wide.Y)} {
			testFromBlocksNonFinite(t, workers, newTrainer)
		}
	}
}

func testFromBlocksNonFinite(t *testing.T, workers int, newTrainer func() *linTrainer[float32]) {
	for _, last := range []bool{false, true} {
		for _, overflow := range []bool{false, true} {
			lt := newTrainer()
			lt.step = 1
			g := lt.blk[2] // class 2: the second group's with 2 workers
			b, w, l := g.block(2)
			p := l // the most frequent used column
			if last {
				p = (len(lt.ovr.m.Cols)-1)*w + l // the least frequent
			}
			g.W[b][p], g.U[b][p] = 3e38, -1
			if overflow {
				g.U[b][p] = -3e38 // w − u/1 = 6e38: +Inf in float32
			}
			W, U, A := lt.fromBlocks()
			if got := lt.servedFinite(A); got == overflow {
				t.Errorf("workers=%d, last=%v, overflow=%v: servedFinite = %v", workers, last, overflow, got)
			}
			if !linmodel.AllFinite(W) || !linmodel.AllFinite(U) || linmodel.AllFinite(A) == overflow {
				t.Errorf("workers=%d, last=%v, overflow=%v: the written arrays do not match the check", workers, last, overflow)
			}
		}
	}
}

// averagedOvRTrainer returns a maker of fresh sparse one-vs-rest trainers
// (Averaged, float32, zero start, the given Workers) of 3 classes on a
// small integer set, groups 0 | 1, 2 with 2 workers.
func averagedOvRTrainer(t *testing.T, workers int) func() *linTrainer[float32] {
	t.Helper()
	_, y, c := sparseIntSet(7, 60, 10, 3)
	return averagedOvRTrainerOn(t, workers, c, y)
}

// averagedOvRTrainerOn is averagedOvRTrainer on c with the labels y
// (0, 1, 2).
func averagedOvRTrainerOn(t *testing.T, workers int, c *dataset.CSR[float32], y []int) func() *linTrainer[float32] {
	t.Helper()
	cls := make([]int32, len(y))
	for i, v := range y {
		cls[i] = int32(v)
	}
	o := Options{Algorithm: linear.Averaged, Workers: workers, MaxIter: 1}
	cfg, err := o.resolve()
	if err != nil {
		t.Fatal(err)
	}
	k := linmodel.KernelsFor[float32](nil)
	dt, err := prepareSparse(k, c, linear.ScaleNone, cfg.bfeat, false, false)
	if err != nil {
		t.Fatal(err)
	}
	return func() *linTrainer[float32] {
		lt := newLinTrainer(k, &cfg, dt, cls, 3, nil)
		if lt.ovr == nil {
			t.Fatal("no used columns: not the blocks' path")
		}
		return lt
	}
}

// TestSparseOvRScanFloat32 is TestSparseOvRMatchesPerClass's dense
// reference in float32, the type whose one-vs-rest epochs scan in
// assembly on amd64 (modelkern.ScanBlock2; float64 runs its Go loop): on
// integer data the sparse fit is the dense fit bit for bit, with 5 classes
// (one group) and 19 (groups of at most eight), one and two workers.
func TestSparseOvRScanFloat32(t *testing.T) {
	for _, K := range []int{5, 19} {
		const n = 160
		d := 4*K + 12
		X64, _, y := ovrTextLike(t, n, d, K)
		X := make([]float32, len(X64))
		for i, v := range X64 {
			X[i] = float32(v)
		}
		c, err := dataset.FromDense(&dataset.Data[float32]{X: X, Y: y, Rows: n, Cols: d})
		if err != nil {
			t.Fatal(err)
		}
		for _, algo := range []linear.Algorithm{linear.Online, linear.Averaged} {
			for _, workers := range []int{1, 2} {
				o := Options{Algorithm: algo, MaxIter: 12, Stop: StopNever, Shuffle: true, Seed: 9, Workers: workers}
				dm, _, err := trainMulti(X, d, y, o)
				if err != nil {
					t.Fatal(err)
				}
				sm, _, err := trainMultiSparse(c, y, o)
				if err != nil {
					t.Fatal(err)
				}
				if !sameModel(t, dm, sm) {
					t.Fatalf("K=%d %v workers=%d: the sparse float32 model differs from the dense one", K, algo, workers)
				}
			}
		}
	}
}
