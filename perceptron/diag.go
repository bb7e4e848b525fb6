package perceptron

import (
	"errors"
	"fmt"
)

// Epoch holds the statistics of one training epoch. The perceptron
// algorithms compute them on the fly, with the weights in force when each
// sample was visited (the epoch's starting weights for Batch, the batch's
// for MiniBatch), so they cost no extra pass over the data; they describe
// the training run, not the final model (see Diagnostics for that).
type Epoch struct {
	// Epoch is the 1-based epoch number.
	Epoch int
	// Mistakes counts samples with y·(w·x + b) ≤ 0 (a zero score is a
	// mistake, and so would be a NaN one: the test is !(y·(w·x + b) > 0);
	// training that meets a non-finite score ends with ErrDiverged). For
	// one-vs-rest it is summed over the classes; for the Argmax strategy it
	// counts samples whose true class did not score strictly highest.
	Mistakes int
	// Updates counts weight updates: the mistakes for the perceptrons, the
	// margin violations y·(w·x + b) < 1 for SVM, summed over classes.
	Updates int
	// Loss is the perceptron loss (1/N)·Σ max(0, −y·(w·x + b)), summed over
	// the classes for one-vs-rest; for Argmax it is
	// (1/N)·Σ max(0, max_{k≠y} sₖ − s_y).
	Loss float64
	// Accuracy is the fraction of correct decisions, 1 − Mistakes/N (over
	// N·K binary decisions for one-vs-rest).
	Accuracy float64
	// Objective is the SVM primal objective after the epoch (summed over
	// the classes for one-vs-rest), computed with an extra pass over the
	// data; 0 for the other algorithms.
	Objective float64
}

// Diagnostics describes a training run and the model it returned. It is
// designed to serve every model of this package (linear and, later,
// kernel models): fields that do not apply to a model are zero.
type Diagnostics struct {
	// Epochs has one entry per epoch run.
	Epochs []Epoch
	// Converged reports that training ended on its own criterion: an epoch
	// without mistakes (perceptrons) or an objective change below Tol (SVM).
	Converged bool
	// Stopped reports that the Callback ended training with ErrStop.
	Stopped bool
	// Updates is the total number of weight updates.
	Updates int

	// Evaluated reports that the fields below were computed by a final
	// pass of the returned model over the training data. It is false for
	// voted models, whose exact evaluation costs one dot product per kept
	// vector and sample.
	Evaluated bool
	// TrainAccuracy is the returned model's accuracy on the training data,
	// counting a zero score as wrong as the training rule does (so it can
	// be slightly below what Predict gives, which maps a zero score to −1),
	// and a NaN score as wrong too.
	TrainAccuracy float64
	// TrainLoss is the returned model's perceptron loss on the training data.
	TrainLoss float64

	// Separable reports that the returned (binary, linear) model separates
	// the training data: every y·(w·x + b) > 0.
	Separable bool
	// Margin is the model's geometric margin γ = minᵢ yᵢ(w·xᵢ + b)/‖(w,b)‖
	// on the training data (negative if it does not separate them; b is
	// treated as a weight on a constant feature 1, and omitted with NoBias).
	Margin float64
	// Radius is the data radius R = maxᵢ ‖(xᵢ, 1)‖ (‖xᵢ‖ with NoBias).
	Radius float64
	// Bound is Novikoff's mistake bound R²/γ² when Separable, else 0. Any
	// separating model's bound is an upper bound on the mistakes of the
	// Online perceptron on that data (the best separator gives the
	// tightest).
	Bound float64

	// Classes holds the per-class diagnostics of a one-vs-rest model, in the
	// order of Model.Classes.
	Classes []Diagnostics
}

// endEpoch records epoch number ep, marks the diagnostics converged when the
// epoch met the algorithm's convergence test (stopping training if stop),
// and runs the caller's per-epoch callback, for which ErrStop ends training
// and any other error aborts it. It reports whether training ends.
func (d *Diagnostics) endEpoch(ep int, e Epoch, converged, stop bool, callback func(Epoch) error) (done bool, err error) {
	d.Epochs = append(d.Epochs, e)
	d.Updates += e.Updates
	if converged {
		d.Converged, done = true, stop
	}
	if callback != nil {
		if err := callback(e); err != nil {
			if !errors.Is(err, ErrStop) {
				return false, fmt.Errorf("perceptron: callback after epoch %d: %w", ep, err)
			}
			d.Stopped, done = true, true
		}
	}
	return done, nil
}
