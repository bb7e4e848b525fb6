package perceptrontrain

import (
	"github.com/rosenblatt-go/rosenblatt/internal/linmodel"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// Divergence. The weights, biases and averaging sums only grow by adding
// finite steps, so once a value is ±Inf or NaN it stays non-finite (and
// every score computed with a non-finite weight vector is non-finite). So
// the trainers check cheaply, in two places: every score a visit looks at
// (one comparison per sample and class, the score being at hand; it also
// catches a score that overflows with finite weights), and all of the
// state at the end of each epoch (O(K·D), against the epoch's O(N·K·D)).
// The SVM's norm and scale, which are recomputed and can come back from
// Inf, are checked at each step (two comparisons). Checking the updated
// vector after every update would name the sample directly, but costs
// O(D) per mistake, as much as the update itself. Instead, when an epoch
// ends with a non-finite value, Locate trains again from the start (the
// run is deterministic: same order, same arithmetic) with the checks on in
// that epoch only: the state was finite at the end of the previous one, so
// the first non-finite value it finds is the one to report. Divergence
// costs the time of the run once more; training that does not diverge
// pays only the comparisons. The three trainers (package perceptron's
// linear and multiclass ones, package kernelperceptron's) share this
// machinery: DivState, Locate, DivergedErr.

// DivEvent is the first non-finite value of a checked epoch.
type DivEvent struct {
	Found bool
	Pos   int    // position of the sample in the epoch's visiting order
	Row   int    // the sample's row
	Class int    // the class (index into the labels)
	Qty   string // what became non-finite (DivergedError.Quantity)
}

// Record keeps the event (pos, row, class, qty) as the first unless one
// came before it.
func (f *DivEvent) Record(pos, row, class int, qty string) {
	if !f.Found || pos < f.Pos || (pos == f.Pos && class < f.Class) {
		*f = DivEvent{Found: true, Pos: pos, Row: row, Class: class, Qty: qty}
	}
}

// Merge returns the first of f and the classes' first events.
func (f DivEvent) Merge(stats []ClassStats) DivEvent {
	for c := range stats {
		if s := stats[c].First; s.Found {
			f.Record(s.Pos, s.Row, s.Class, s.Qty)
		}
	}
	return f
}

// DivState is a trainer's divergence bookkeeping. Trainers whose classes
// keep ClassStats record there (NonFinite, First); the others here.
type DivState struct {
	// NonFinite reports a non-finite value seen during the epoch:
	// training diverged.
	NonFinite bool
	// Checked makes every update check the values it changed and record
	// the first non-finite one (Locate).
	Checked bool
	// First is, in a checked epoch, the first non-finite value.
	First DivEvent
}

// Locate trains again from the start (reset) up to epoch ep (epoch runs
// one), checking every value epoch ep changes, and returns the first
// non-finite value found, here or in stats.
func (d *DivState) Locate(ep int, stats []ClassStats, reset func(), epoch func() error) (DivEvent, error) {
	reset()
	d.NonFinite, d.First = false, DivEvent{}
	for e := 1; e <= ep; e++ {
		d.Checked = e == ep
		if err := epoch(); err != nil {
			d.Checked = false
			return DivEvent{}, err
		}
	}
	d.Checked = false
	return d.First.Merge(stats), nil
}

// DivergedErr returns the *DivergedError of ev in epoch ep. If ev was not
// found, it reports qty for no particular sample; if it was and the model
// has several score rows (multi), it names the class.
func DivergedErr[T kernel.Float](ev DivEvent, ep int, qty string, multi bool, labels []int) error {
	e := &DivergedError{Epoch: ep, Sample: -1, Quantity: qty, Type: linmodel.TypeName[T]()}
	if ev.Found {
		e.Sample, e.Quantity = ev.Row, ev.Qty
		if multi {
			e.HasClass, e.Class = true, labels[ev.Class]
		}
	}
	return e
}

// AnyNonFinite reports whether a value of the slices is not finite.
func AnyNonFinite[T kernel.Float](vs ...[]T) bool {
	for _, v := range vs {
		if !linmodel.AllFinite(v) {
			return true
		}
	}
	return false
}

// Finite reports whether a is neither NaN nor ±Inf: a − a is 0 exactly
// for a finite a and NaN otherwise (one subtraction, where math.IsNaN and
// math.IsInf are two tests of the converted value).
func Finite[T kernel.Float](a T) bool { return a-a == 0 }
