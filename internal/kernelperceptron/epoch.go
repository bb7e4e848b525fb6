package kernelperceptron

import (
	"errors"
	"fmt"
	"math"

	"github.com/rosenblatt-go/rosenblatt/expansion"
	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/internal/linmodel"
	"github.com/rosenblatt-go/rosenblatt/internal/parallel"
	"github.com/rosenblatt-go/rosenblatt/internal/perceptrontrain"
	"github.com/rosenblatt-go/rosenblatt/linear"
)

// run trains the epochs and returns the model of the given scheme and
// labels and the run's diagnostics.
func (t *Trainer[T]) run(scheme fit.Scheme, labels []int) (*expansion.Model[T], *perceptrontrain.Diagnostics, error) {
	cfg, n := t.cfg, t.dt.N
	diag := &perceptrontrain.Diagnostics{}
	if t.K > 1 && !t.argmax {
		diag.Classes = make([]perceptrontrain.Diagnostics, t.K)
	}
	// One-vs-rest on the full matrix splits the classes among goroutines;
	// the row cache is not safe for concurrent use, so with it one
	// goroutine visits each sample for all classes (and fetches its row at
	// most once per visit).
	grp := t.groups()
	stats := make([]perceptrontrain.ClassStats, t.K)
	if err := t.checkBudget(0); err != nil {
		return nil, nil, err
	}
	epochs := 0
	visits := float64(t.smp.Visits)
	for ep := 1; ep <= cfg.Epochs; ep++ {
		e := perceptrontrain.Epoch{Epoch: ep, Samples: t.smp.Visits, Steps: t.smp.Visits}
		t.epoch(&e, stats, grp)
		epochs = ep
		if err := t.checkBudget(ep); err != nil {
			return nil, nil, err
		}
		if t.diverged(stats) {
			return nil, nil, t.locate(ep, stats, grp, labels)
		}
		if t.argmax {
			e.Updates = e.Mistakes
			e.Loss /= visits
			e.Accuracy = 1 - float64(e.Mistakes)/visits
		} else {
			for c := range stats {
				e.Mistakes += stats[c].Mistakes
				e.Updates += stats[c].Updates
				e.Loss += stats[c].Loss / visits
			}
			e.Accuracy = 1 - float64(e.Mistakes)/(visits*float64(t.K))
		}
		// A clean epoch of random draws need not have seen every sample:
		// check the decision values of all of them (O(N·K)).
		clean := e.Mistakes == 0
		var wrong []bool // per class, with random draws
		if clean && t.smp.Random() {
			wrong = make([]bool, t.K)
			for j := range n {
				if t.argmax {
					clean = clean && !t.wrongNow(j)
					continue
				}
				for c := range t.K {
					a := t.F[c*n+j] + t.B[c]*t.bf(j)
					if int(t.cls[j]) != c {
						a = -a
					}
					if !(a > 0) {
						wrong[c], clean = true, false
					}
				}
			}
		}
		if !t.argmax && t.K > 1 {
			for c := range stats {
				cd := &diag.Classes[c]
				cd.Epochs = append(cd.Epochs, perceptrontrain.Epoch{Epoch: ep, Samples: e.Samples, Steps: e.Steps, Mistakes: stats[c].Mistakes, Updates: stats[c].Updates,
					Loss: stats[c].Loss / visits, Accuracy: 1 - float64(stats[c].Mistakes)/visits})
				cd.Updates += stats[c].Updates
				cd.Converged = stats[c].Mistakes == 0 && (wrong == nil || !wrong[c])
			}
		}
		done, err := diag.EndEpoch(ep, e, clean, cfg.StopClean, cfg.Callback)
		if err != nil {
			return nil, nil, err
		}
		if done {
			break
		}
	}
	t.diagnose(cfg.Kernel, diag)
	if cfg.DataMargin {
		perceptrontrain.DataMargins(t.dt.X, t.dt.D, t.cls, t.K, cfg.Kernel, cfg.Bias, cfg.BiasFeature, cfg.Workers, cfg.Impl, diag)
	}
	p := t.finish(cfg.Kernel, scheme, labels)
	if !linmodel.AllFinite(p.Coef) || !linmodel.AllFinite(p.Bias) {
		// Only the averages a − u/c and b − ub/c are formed here, from
		// finite values.
		return nil, nil, perceptrontrain.DivergedErr[T](perceptrontrain.DivEvent{}, epochs, "averaged coefficients", false, nil)
	}
	m, err := expansion.Build(p, nil)
	if err != nil {
		if errors.Is(err, expansion.ErrNonFinite) {
			return nil, nil, fmt.Errorf("%w: %w", linear.ErrNonFinite, err)
		}
		return nil, nil, fmt.Errorf("%w: %w", perceptrontrain.ErrOption, err)
	}
	return m, diag, nil
}

// groups splits the classes among goroutines: one-vs-rest on the full
// matrix only (the row cache is not safe for concurrent use).
func (t *Trainer[T]) groups() [][2]int {
	if !t.argmax && t.G != nil {
		return perceptrontrain.Groups(t.K, t.cfg.Workers)
	}
	return [][2]int{{0, t.K}}
}

// epoch shuffles and runs one epoch, with its statistics in e (Argmax) or
// stats (the binary perceptrons).
func (t *Trainer[T]) epoch(e *perceptrontrain.Epoch, stats []perceptrontrain.ClassStats, grp [][2]int) {
	t.smp.Next()
	clear(stats)
	t.NonFinite = false
	switch {
	case t.argmax:
		t.epochArgmax(e)
	default:
		// One group runs on the caller; a worker's panic is re-raised
		// on the caller (see package parallel).
		parallel.Run(len(grp), func(g int) { t.epochClasses(grp[g][0], grp[g][1], stats) })
	}
	t.step += int64(t.smp.Visits)
}

// diverged reports whether the epoch just run produced a non-finite value
// (see perceptrontrain.Locate): a flagged score, or a
// non-finite decision value, coefficient, bias or averaging sum. The check
// of the state is O(K·N), as is the epoch's own loop.
func (t *Trainer[T]) diverged(stats []perceptrontrain.ClassStats) bool {
	if t.NonFinite {
		return true
	}
	for c := range stats {
		if stats[c].NonFinite {
			return true
		}
	}
	return perceptrontrain.AnyNonFinite(t.F, t.A, t.B, t.U, t.UF, t.UB)
}

// locate trains again from the start up to epoch ep (on the same kernel
// values), checking every value epoch ep changes, and returns the
// *divergedError of the first non-finite one.
func (t *Trainer[T]) locate(ep int, stats []perceptrontrain.ClassStats, grp [][2]int, labels []int) error {
	trace := t.trace
	t.trace = nil
	defer func() { t.trace = trace }()
	ev, _ := t.DivState.Locate(ep, stats, t.reset, func() error {
		t.epoch(&perceptrontrain.Epoch{}, stats, grp)
		return nil
	})
	return perceptrontrain.DivergedErr[T](ev, ep, "decision values", t.K > 1, labels)
}

// check records, in a checked epoch, the first non-finite value among
// class c's decision values, coefficient of row j, bias and averaging sums
// after an update on row j at position pos (and a mistake count at its
// maximum).
func (t *Trainer[T]) check(c, j, pos int, first *perceptrontrain.DivEvent) {
	n := t.dt.N
	bad := ""
	switch {
	case !linmodel.AllFinite(t.F[c*n : (c+1)*n]):
		bad = "decision values"
	case !perceptrontrain.Finite(t.A[c*n+j]):
		bad = "coefficients"
	case !perceptrontrain.Finite(t.B[c]):
		bad = "bias"
	case t.U != nil && (!perceptrontrain.Finite(t.U[c*n+j]) || !linmodel.AllFinite(t.UF[c*n:(c+1)*n]) || !perceptrontrain.Finite(t.UB[c])):
		bad = "averaging sum"
	case t.alpha[c*n+j] == math.MaxInt32:
		bad = "mistake count"
	default:
		return
	}
	first.Record(pos, j, c, bad)
}

// checkBudget returns the perceptrontrain.ErrBudget error of a voted kernel perceptron
// whose kept state would exceed the budget (ep 0: before training, when
// the final functions do not fit).
func (t *Trainer[T]) checkBudget(ep int) error {
	b := t.bud
	if b == nil || b.Max < 0 {
		return nil
	}
	if ep == 0 {
		if need := b.Used.Load(); need > b.Max {
			return fmt.Errorf("%w: VotedMaxBytes = %d bytes is less than one kept function per class (%d × %d bytes)", perceptrontrain.ErrBudget, b.Max, t.K, votedVBytes[T]())
		}
		return nil
	}
	if !b.Over.Load() {
		return nil
	}
	mistakes, kept := 0, 0
	for c := range t.vot {
		mistakes += len(t.vot[c].seq)
		kept += len(t.vot[c].vc)
	}
	return fmt.Errorf("%w: in epoch %d the voted kernel perceptron has kept %d mistakes and %d decision functions (%d bytes, with the final function of each class reserved); one more would exceed VotedMaxBytes = %d bytes (run fewer epochs, raise VotedMaxBytes, or use Averaged)",
		perceptrontrain.ErrBudget, ep, mistakes, kept, b.Used.Load(), b.Max)
}

// epochClasses runs one epoch of the binary perceptrons c0..c1-1 (one-vs-rest
// classes, or the single binary problem): for each sample in order, each
// class compares its kept decision value with the label (O(1)); on a
// mistake the sample's kernel row is added to the class's decision values
// with one Axpy. A class's decision values, coefficients and bias are only
// touched by the goroutine that owns the class.
func (t *Trainer[T]) epochClasses(c0, c1 int, stats []perceptrontrain.ClassStats) {
	n := t.dt.N
	eta := T(t.cfg.Eta)
	bias := t.cfg.Bias
	bsq := T(t.cfg.biasSq()) // B²: the bias feature is bⱼ·B, its weight b/B
	for c := c0; c < c1; c++ {
		stats[c].MinMargin = math.Inf(1)
	}
	for jj := range t.smp.Visits {
		j := t.rowAt(jj)
		bj := t.bf(j)
		var row []T
		for c := c0; c < c1; c++ {
			f := t.F[c*n : (c+1)*n : (c+1)*n]
			a := f[j] + t.B[c]*bj
			y := T(-1)
			if t.cls[j] == int32(c) {
				y = 1
			}
			m := y * a
			s := &stats[c]
			if a-a != 0 { // ±Inf or NaN: a mistake, and divergence
				s.NonFinite = true
				if t.Checked {
					s.First.Record(jj, j, c, "score")
				}
			} else if m > 0 {
				s.MinMargin = min(s.MinMargin, float64(m))
				if t.vot != nil {
					t.vot[c].cnt++
				}
				continue
			}
			s.Mistakes++
			s.Updates++
			s.Loss -= float64(m)
			if row == nil {
				row = t.row(j, jj)
			}
			step := eta * y
			if t.vot != nil {
				// Keep the mistake (and close the current function), if
				// the budget allows (else the epoch ends with perceptrontrain.ErrBudget).
				v := &t.vot[c]
				need := votedQBytes[T]()
				if v.cnt > 0 {
					need += votedVBytes[T]()
				}
				if t.bud.Take(need) {
					if v.cnt > 0 {
						v.pre = append(v.pre, int32(len(v.seq)))
						v.vb = append(v.vb, t.B[c])
						v.vc = append(v.vc, v.cnt)
					}
					v.seq = append(v.seq, int32(j))
					v.step = append(v.step, step)
				}
				v.cnt = 1
			}
			t.k.Axpy(step, row, f)
			t.A[c*n+j] += step
			if t.alpha[c*n+j]++; t.alpha[c*n+j] == math.MaxInt32 {
				s.NonFinite = true // one more would wrap
			}
			if bias {
				t.B[c] += step * bj * bsq
			}
			if t.U != nil {
				ca := T(t.step+int64(jj)) * step
				t.U[c*n+j] += ca
				t.k.Axpy(ca, row, t.UF[c*n:(c+1)*n])
				if bias {
					t.UB[c] += ca * bj * bsq
				}
			}
			if t.Checked {
				t.check(c, j, jj, &s.First)
			}
			if t.trace != nil {
				t.trace(c, j)
			}
		}
	}
}

// epochArgmax runs one epoch of the multiclass kernel perceptron.
func (t *Trainer[T]) epochArgmax(e *perceptrontrain.Epoch) {
	n, K := t.dt.N, t.K
	eta := T(t.cfg.Eta)
	bias := t.cfg.Bias
	bsq := T(t.cfg.biasSq()) // B²: the bias feature is bⱼ·B, its weight b/B
	for jj := range t.smp.Visits {
		j := t.rowAt(jj)
		bj := t.bf(j)
		y := int(t.cls[j])
		p, sp := -1, T(0)
		var bad T // stays 0 while the scores are finite
		for c := range K {
			a := t.F[c*n+j] + t.B[c]*bj
			bad += a - a
			if c != y && (p < 0 || a > sp) {
				p, sp = c, a
			}
		}
		if bad != 0 { // a NaN makes mg NaN, a mistake; the epoch diverged
			t.NonFinite = true
			if t.Checked {
				for c := range K {
					if a := t.F[c*n+j] + t.B[c]*bj; a-a != 0 {
						t.First.Record(jj, j, c, "score")
					}
				}
			}
		}
		mg := t.F[y*n+j] + t.B[y]*bj - sp
		if mg > 0 {
			continue
		}
		e.Mistakes++
		e.Loss -= float64(mg)
		row := t.row(j, jj)
		t.k.Axpy(eta, row, t.F[y*n:(y+1)*n])
		t.k.Axpy(-eta, row, t.F[p*n:(p+1)*n])
		t.A[y*n+j] += eta
		t.A[p*n+j] -= eta
		t.alpha[y*n+j]++
		t.alpha[p*n+j]++
		if t.alpha[y*n+j] == math.MaxInt32 || t.alpha[p*n+j] == math.MaxInt32 {
			t.NonFinite = true // one more would wrap
		}
		if bias {
			t.B[y] += eta * bj * bsq
			t.B[p] -= eta * bj * bsq
		}
		if t.U != nil {
			ca := T(t.step+int64(jj)) * eta
			t.U[y*n+j] += ca
			t.U[p*n+j] -= ca
			t.k.Axpy(ca, row, t.UF[y*n:(y+1)*n])
			t.k.Axpy(-ca, row, t.UF[p*n:(p+1)*n])
			if bias {
				t.UB[y] += ca * bj * bsq
				t.UB[p] -= ca * bj * bsq
			}
		}
		if t.Checked {
			t.check(y, j, jj, &t.First)
			t.check(p, j, jj, &t.First)
		}
		if t.trace != nil {
			t.trace(y, j)
		}
	}
}
