// Package kernelperceptron is the training engine of the kernel (dual)
// perceptron behind perceptron.FitKernel: Rosenblatt's rule in the dual,
//
//	f(x) = Σⱼ αⱼ·η·yⱼ·K(xⱼ, x) + b,
//
// where αⱼ counts the mistakes on training row j (Aizerman, Braverman and
// Rozonoer's potential functions; Freund and Schapire, 1999), plain
// (Online), averaged or voted as Freund and Schapire define them, binary,
// one-vs-rest, or the multiclass kernel perceptron (on a mistake the true
// class's function moves towards the row and the highest-scoring wrong
// class's away from it), on dense or CSR rows.
//
// The trainer keeps the decision values of every training row, so a
// correct visit costs O(1) and a mistake on row j one kernel.Axpy of
// η·y·K(xⱼ, ·): a row of the Gram matrix, computed once (package gram,
// in parallel) when it fits Config.MaxBytes, else from an LRU row cache
// filled in batches of the rows the coming visits will get wrong. The
// averaged perceptron keeps step-weighted sums beside the decision values
// (the cached-weights trick), so averaging costs O(N) per mistake; the
// voted perceptron keeps its mistakes and kept functions as prefixes of
// one sequence. Both kernel paths give the same model bit for bit.
//
// Package perceptron resolves and checks the options, prepares the rows
// (checked, scaled) and converts the diagnostics this package fills
// (package perceptrontrain's, shared with the linear trainers) to its
// own; the model is package expansion's kernel expansion, with the
// support vectors copied.
package kernelperceptron
