// Package perceptrontrain holds what the trainers of Rosenblatt's
// perceptron share: package perceptron's linear trainers (online, batch,
// mini-batch, averaged and voted (Freund and Schapire, 1999), Pegasos, the
// multiclass perceptron) and the kernel (dual) perceptron of package
// kernelperceptron. It has the sentinel errors that package perceptron
// exports, the statistics of an epoch and the diagnostics of a run that
// the trainers fill (perceptron converts them to its Epoch and Diagnostics
// once per epoch and once per fit), the sampling of each epoch's visits
// (a sweep in storage or shuffled order, B-subsets, draws with repeats,
// all from one PCG generator), the voted perceptron's memory budget, the
// divergence checks that find and name the first non-finite value of a
// run, and the data's own maximum margin, from an exact hard-margin solve
// (svm.MaxMargin), behind Novikoff's bound.
package perceptrontrain
