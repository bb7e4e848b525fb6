package perceptron

import (
	"bytes"
	"fmt"
	"runtime"
	"sync"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/linear"
)

// TestSharedRowsSameModel: a shuffled dense one-vs-rest fit of a sequential
// perceptron gives the same model bit for bit on one goroutine (each worker
// gathering its own samples) and on several (the samples gathered once into
// the rowRing), also with GOMAXPROCS 1, where the goroutines waiting on
// each other must yield. The data spans many more windows than the ring
// holds.
func TestSharedRowsSameModel(t *testing.T) {
	X, y := threeClasses(400) // 1200 samples: 38 windows of ringRows
	if len(y) <= 4*ringSlots*ringRows {
		t.Fatalf("%d samples: too few for the ring to wrap", len(y))
	}
	for _, algo := range []linear.Algorithm{linear.Online, linear.Averaged, linear.Voted} {
		var want []byte
		for _, procs := range []int{0, 1} {
			for _, w := range []int{1, 2, 3} {
				name := fmt.Sprintf("%v/procs=%d/workers=%d", algo, procs, w)
				prev := runtime.GOMAXPROCS(0)
				if procs > 0 {
					runtime.GOMAXPROCS(procs)
				}
				o := Options{Algorithm: algo, Multiclass: fit.OneVsRest, MaxIter: 4, Shuffle: true, Seed: 3, Workers: w}
				m, _, err := trainMulti(X, 2, y, o)
				runtime.GOMAXPROCS(prev)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				got, err := m.MarshalBinary()
				if err != nil {
					t.Fatal(err)
				}
				if want == nil {
					want = got
				} else if !bytes.Equal(got, want) {
					t.Errorf("%s: the model differs from the one of one goroutine", name)
				}
			}
		}
	}
}

// TestRowRing: goroutines acquiring every window of a shuffled order get
// exactly the rows of that order, however they interleave (GOMAXPROCS 1
// and the default), and one that leaves early (an abort, as after a panic)
// does not keep the others waiting (what they read then does not matter:
// the epoch re-raises the panic).
func TestRowRing(t *testing.T) {
	const d, n = 5, 1000
	X := make([]float64, n*d)
	for i := range X {
		X[i] = float64(i)
	}
	order := make([]int32, n)
	for i := range order {
		order[i] = int32((i * 389) % n)
	}
	nw := (n + ringRows - 1) / ringRows
	for _, procs := range []int{1, 0} {
		for _, quit := range []bool{false, true} {
			prev := runtime.GOMAXPROCS(procs)
			tr := &linTrainer[float64]{dt: &data[float64]{d: d}}
			tr.smp.Visits = n
			r := tr.sharedRows(3)
			var wg sync.WaitGroup
			errs := make([]error, 3)
			for g := range 3 {
				wg.Go(func() {
					for w := range nw {
						if quit && g == 0 && w == 2 {
							r.abort.Store(true)
							return // leaves without marking window 2 used
						}
						xw := r.acquire(w, order, X, d)
						if !quit {
							for j := range len(xw) / d {
								row := int(order[w*ringRows+j])
								if xw[j*d] != X[row*d] || xw[j*d+d-1] != X[row*d+d-1] {
									errs[g] = fmt.Errorf("window %d, row %d: got %v, want row %d", w, j, xw[j*d:j*d+d], row)
									return
								}
							}
						}
						r.used[w].Add(1)
					}
				})
			}
			wg.Wait()
			runtime.GOMAXPROCS(prev)
			for g, err := range errs {
				if err != nil {
					t.Errorf("procs=%d quit=%v goroutine %d: %v", procs, quit, g, err)
				}
			}
		}
	}
}
