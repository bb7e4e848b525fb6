package perceptron

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
// ends with a non-finite value, locate trains again from the start (the
// run is deterministic: same order, same arithmetic) with the checks on in
// that epoch only: the state was finite at the end of the previous one, so
// the first non-finite value it finds is the one to report. Divergence
// costs the time of the run once more; training that does not diverge
// pays only the comparisons. The three trainers (linTrainer, argmaxTrainer,
// dualTrainer) share this machinery: divState, locate, divergedErr.

// divEvent is the first non-finite value of a checked epoch.
type divEvent struct {
	found bool
	pos   int    // position of the sample in the epoch's visiting order
	row   int    // the sample's row
	class int    // the class (index into the labels)
	qty   string // what became non-finite (divergedError.Quantity)
}

// record keeps e as the first event unless one came before it.
func (f *divEvent) record(pos, row, class int, qty string) {
	if !f.found || pos < f.pos || (pos == f.pos && class < f.class) {
		*f = divEvent{found: true, pos: pos, row: row, class: class, qty: qty}
	}
}

// merge returns the first of f and the classes' first events.
func (f divEvent) merge(stats []classStats) divEvent {
	for c := range stats {
		if s := stats[c].first; s.found {
			f.record(s.pos, s.row, s.class, s.qty)
		}
	}
	return f
}

// divState is a trainer's divergence bookkeeping. Trainers whose classes
// keep classStats record there (nonFinite, first); the others here.
type divState struct {
	// nonFinite reports a non-finite value seen during the epoch:
	// training diverged.
	nonFinite bool
	// checked makes every update check the values it changed and record
	// the first non-finite one (locate).
	checked bool
	// first is, in a checked epoch, the first non-finite value.
	first divEvent
}

// locate trains again from the start (reset) up to epoch ep (epoch runs
// one), checking every value epoch ep changes, and returns the first
// non-finite value found, here or in stats.
func (d *divState) locate(ep int, stats []classStats, reset func(), epoch func() error) (divEvent, error) {
	reset()
	d.nonFinite, d.first = false, divEvent{}
	for e := 1; e <= ep; e++ {
		d.checked = e == ep
		if err := epoch(); err != nil {
			d.checked = false
			return divEvent{}, err
		}
	}
	d.checked = false
	return d.first.merge(stats), nil
}

// divergedErr returns the *divergedError of ev in epoch ep. If ev was not
// found, it reports qty for no particular sample; if it was and the model
// has several score rows (multi), it names the class.
func divergedErr[T kernel.Float](ev divEvent, ep int, qty string, multi bool, labels []int) error {
	e := &divergedError{Epoch: ep, Sample: -1, Quantity: qty, Type: linmodel.TypeName[T]()}
	if ev.found {
		e.Sample, e.Quantity = ev.row, ev.qty
		if multi {
			e.HasClass, e.Class = true, labels[ev.class]
		}
	}
	return e
}

// anyNonFinite reports whether a value of the slices is not finite.
func anyNonFinite[T kernel.Float](vs ...[]T) bool {
	for _, v := range vs {
		if !linmodel.AllFinite(v) {
			return true
		}
	}
	return false
}

// nonFiniteLinear names the first non-finite quantity of a linear class:
// its weights w, bias b or (if u is not nil) averaging sums u and ub; ""
// if all are finite.
func nonFiniteLinear[T kernel.Float](w []T, b T, u []T, ub T) string {
	switch {
	case !linmodel.AllFinite(w):
		return "weights"
	case !finite(b):
		return "bias"
	case u != nil && (!linmodel.AllFinite(u) || !finite(ub)):
		return "averaging sum"
	}
	return ""
}
