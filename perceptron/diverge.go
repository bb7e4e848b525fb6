package perceptron

import (
	"github.com/rosenblatt-go/rosenblatt/internal/linmodel"
	"github.com/rosenblatt-go/rosenblatt/internal/perceptrontrain"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// The machinery the linear trainers share with the kernel perceptron's
// (package kernelperceptron) is package perceptrontrain's: the epoch
// statistics and run diagnostics they fill (converted to Epoch and
// Diagnostics by toEpoch and toDiagnostics), the sampler, the voted
// budget and the divergence checks (see perceptrontrain.Locate).
type (
	classStats    = perceptrontrain.ClassStats
	divEvent      = perceptrontrain.DivEvent
	divState      = perceptrontrain.DivState
	divergedError = perceptrontrain.DivergedError
	votedBudget   = perceptrontrain.VotedBudget
	sampler       = perceptrontrain.Sampler
	epochStats    = perceptrontrain.Epoch
	runDiag       = perceptrontrain.Diagnostics
)

// groups splits K classes into at most workers contiguous ranges.
var groups = perceptrontrain.Groups

// nonFiniteLinear names the first non-finite quantity of a linear class:
// its weights w, bias b or (if u is not nil) averaging sums u and ub; ""
// if all are finite.
func nonFiniteLinear[T kernel.Float](w []T, b T, u []T, ub T) string {
	switch {
	case !linmodel.AllFinite(w):
		return "weights"
	case !perceptrontrain.Finite(b):
		return "bias"
	case u != nil && (!linmodel.AllFinite(u) || !perceptrontrain.Finite(ub)):
		return "averaging sum"
	}
	return ""
}

// toEpoch is e as an Epoch.
func toEpoch(e epochStats) Epoch { return Epoch(e) }

// toDiagnostics is d as Diagnostics (nil for nil), its epochs and classes
// converted.
func toDiagnostics(d *runDiag) *Diagnostics {
	if d == nil {
		return nil
	}
	out := &Diagnostics{Converged: d.Converged, Stopped: d.Stopped, Updates: d.Updates,
		Evaluated: d.Evaluated, TrainAccuracy: d.TrainAccuracy, TrainLoss: d.TrainLoss, Separable: d.Separable,
		Margin: d.Margin, Radius: d.Radius, Bound: d.Bound,
		MarginAugmented: d.MarginAugmented, RadiusAugmented: d.RadiusAugmented, BoundAugmented: d.BoundAugmented,
		DataMargin: d.DataMargin, DataMarginErr: d.DataMarginErr}
	if d.Epochs != nil {
		out.Epochs = make([]Epoch, len(d.Epochs))
		for i, e := range d.Epochs {
			out.Epochs[i] = toEpoch(e)
		}
	}
	if d.Classes != nil {
		out.Classes = make([]Diagnostics, len(d.Classes))
		for c := range d.Classes {
			out.Classes[c] = *toDiagnostics(&d.Classes[c])
		}
	}
	return out
}
