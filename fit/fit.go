// Package fit holds what every trainer of the module shares: Report, the
// summary of one training run of perceptron.Fit, perceptron.FitKernel,
// svm.Fit or svm.FitLinear, and Scheme, how a classifier of several
// classes is made of decision functions (the trainers' Options.Multiclass,
// and the models' Scheme).
//
// The fields mean the same for every trainer; those that do not apply to
// one are zero. The trainer's own, more detailed account (per-epoch
// statistics and margins of the perceptrons, per-machine solver figures of
// the SVMs) is Report.Detail.
package fit

import "time"

// Report summarises one training run.
type Report struct {
	// Epochs is the number of passes over the training data: the
	// perceptrons' epochs, the outer iterations of dual coordinate descent
	// (the most of any of its machines). 0 for SMO, which counts
	// Iterations instead.
	Epochs int
	// Iterations is the number of optimisation steps: weight updates of
	// the perceptrons (a mistake, or a Pegasos or mini-batch step), SMO's
	// pair steps and dual coordinate descent's passes, summed over the
	// binary machines.
	Iterations int
	// Mistakes is the perceptrons' count of training mistakes over all
	// epochs (a score of exactly 0 counts as one), summed over the classes.
	Mistakes int
	// Objective is the primal objective at the returned model, summed over
	// the binary machines: ½‖w‖² + C·Σ loss for the SVMs, and the last
	// epoch's λ/2·‖θ‖² + mean hinge for Pegasos. 0 for the perceptrons.
	Objective float64
	// Dual is the SVMs' dual objective (minimised, LIBSVM's and
	// LIBLINEAR's "obj"), summed over the binary machines.
	Dual float64
	// Gap is the duality gap Objective + Dual ≥ 0 of the SVMs, 0 at the
	// optimum.
	Gap float64
	// SupportVectors counts the support vectors: the distinct training
	// rows a kernel model keeps, or for the linear SVM the rows with
	// αᵢ > 0 summed over the machines.
	SupportVectors int
	// Converged reports that training ended on its own criterion: an
	// epoch without mistakes, an objective change below Tol, or every SVM
	// machine within its tolerance.
	Converged bool
	// Stopped reports that a callback ended training early (the model so
	// far is returned).
	Stopped bool
	// Time is the wall time of the fit, checks and preparation included.
	Time time.Duration
	// Detail is the trainer's own account: *perceptron.Diagnostics for
	// perceptron.Fit and FitKernel, *svm.Info for svm.Fit and
	// svm.FitLinear (one svm.Problem per binary machine).
	Detail any
}
