package perceptron

import (
	"math"
	"os"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// BenchmarkTextOvRParts times the parts of an averaged one-vs-rest fit on
// a text set of bench/textset (ROSENBLATT_TEXTSET=PREFIX reads
// PREFIX.train.libsvm, 2²⁰ features, float32; skipped without it), the
// fit of bench/textfit with Workers 1, so that what bounds the whole is
// measured:
//
//   - epochs: the 10 epochs alone (shuffled, every update), no model
//     written;
//
//   - pass: 10 passes of scoring only (kernel.ScoreBlock on every row in a
//     fresh shuffled order, with the trained weights, no update): the
//     epochs' floor, and pass-prefetch the same with kernel.PrefetchRow of
//     the row rowsAhead visits ahead, as epochSparseOvR does;
//
//   - pass-pairs: pass with the visits scored two at a time
//     (kernel.ScoreBlock2, as epochSparseOvR scores them), and the
//     prefetch;
//
//   - write: writing the model from the blocks as the fit does
//     (fromBlocksCompact: the K×D average, which it allocates, and the
//     compact running weights and sums).
//
// Run it with
//
//	ROSENBLATT_TEXTSET=/tmp/mantext/mantext-name go test -run XXX -bench TextOvRParts ./perceptron
func BenchmarkTextOvRParts(b *testing.B) {
	prefix := os.Getenv("ROSENBLATT_TEXTSET")
	if prefix == "" {
		b.Skip("ROSENBLATT_TEXTSET not set")
	}
	X, err := dataset.LoadLIBSVMSparse[float32](prefix+".train.libsvm", dataset.LIBSVMOptions{Cols: 1 << 20})
	if err != nil {
		b.Fatal(err)
	}
	o := Options{Algorithm: Averaged, MaxIter: 10, RunAllEpochs: true, Shuffle: true, Seed: 1, NoBias: true, Workers: 1}
	cfg, err := o.resolve()
	if err != nil {
		b.Fatal(err)
	}
	labels, cls, err := multiClasses(X.Y)
	if err != nil {
		b.Fatal(err)
	}
	k := kernelsFor[float32](cfg.impl)
	dt, err := prepareSparse(k, X, cfg.scaling, cfg.bias, true)
	if err != nil {
		b.Fatal(err)
	}
	t := newLinTrainer(k, &cfg, dt, cls, len(labels), nil)
	grp, scratch := t.groups()
	stats := make([]classStats, t.K)
	train := func() {
		t.reset()
		for range 10 {
			if _, err := t.epoch(stats, grp, scratch); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("epochs", func(b *testing.B) {
		for range b.N {
			train()
		}
	})
	train()
	g := t.blk[0]
	pass := func(ahead int) {
		for range 10 {
			t.smp.next()
			E := t.smp.visits
			for j := range E {
				if ahead < E-j {
					nx := t.ovr.vec(t.rowAt(j + ahead))
					kernel.PrefetchRow(nx.idx, nx.val)
				}
				for bi, blk := range g.W {
					scoreBlock(g.sc[bi*blockWidth:min((bi+1)*blockWidth, g.G)], blk, t.ovr.vec(t.rowAt(j)))
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
				t.smp.next()
				E := t.smp.visits
				for j := 0; j < E; j += 2 {
					for _, a := range []int{rowsAhead, rowsAhead + 1} {
						if j+a < E {
							nx := t.ovr.vec(t.rowAt(j + a))
							kernel.PrefetchRow(nx.idx, nx.val)
						}
					}
					x := t.ovr.vec(t.rowAt(j))
					for bi, blk := range g.W {
						lo, hi := bi*blockWidth, min((bi+1)*blockWidth, g.G)
						if j+1 < E {
							scoreBlock2(g.sc[lo:hi], ahead[lo:hi], blk, x, t.ovr.vec(t.rowAt(j+1)))
						} else {
							scoreBlock(g.sc[lo:hi], blk, x)
						}
					}
				}
			}
		}
	})
	b.Run("write", func(b *testing.B) {
		for range b.N {
			if A, _ := t.fromBlocksCompact(); len(A) == 0 {
				b.Fatal("no weights")
			}
		}
	})
}

// noAhead is a look-ahead past every epoch: no prefetch.
const noAhead = math.MaxInt
