// Package svm trains support vector machines exactly: the soft- and
// hard-margin SVMs (Boser, Guyon and Vapnik 1992; Cortes and Vapnik 1995),
// linear and kernelised, with their support vectors, on the rosenblatt
// kernels (package kernel) and kernel matrices (package gram).
//
//   - Fit: the kernel SVM (C-SVC) by SMO with second-order working set
//     selection and shrinking (Fan, Chen & Lin, JMLR 2005; LIBSVM's
//     Solver), on a precomputed kernel matrix when it fits Options.GramBytes
//     and on gram's LRU row cache otherwise; linear, polynomial and RBF
//     kernels; binary, one-vs-one (the default, as in LIBSVM) and
//     one-vs-rest. C = +Inf trains the hard-margin machine.
//   - FitLinear: the linear SVM by dual coordinate descent with shrinking
//     (Hsieh et al., ICML 2008; LIBLINEAR's -s 3 hinge loss and -s 1
//     squared hinge), binary and one-vs-rest, on dense or CSR rows; its
//     model is the module's one linear model, a linear.Model.
//   - MaxMargin: the data set's maximum margin γ_D, bracketed by a
//     separator that achieves Gamma and a dual bound Upper, with the radius
//     R and the bound R²/γ².
//
// # The C convention
//
// The whole package uses LIBSVM's and LIBLINEAR's form of the soft-margin
// problem,
//
//	min ½‖w‖² + C·Σᵢ ξᵢ,   ξᵢ = max(0, 1 − yᵢ(w·φ(xᵢ) + b)),
//
// whose dual is max Σαᵢ − ½αᵀQα subject to yᵀα = 0 and 0 ≤ αᵢ ≤ C. Textbooks
// also write the same problem as min ‖θ‖² + C_n·Σᵢ (1 − yᵢθ·xᵢ)₊; dividing that
// objective by 2 does not move its minimiser and gives ½‖θ‖² + (C_n/2)·Σξᵢ,
// so
//
//	C (this package, LIBSVM, LIBLINEAR, scikit-learn) = C_n / 2.
//
// For example C_n = 2 in that form is C = 1, the default. The perceptron
// package's Pegasos SVM takes the same C. C = +Inf is the hard margin of
// both: min ½‖w‖² subject to yᵢ(w·φ(xᵢ) + b) ≥ 1.
//
// # The bias
//
// trainDense's machines have LIBSVM's unregularised bias b (the equality
// constraint yᵀα = 0 of the dual); b = −ρ with ρ computed as LIBSVM's
// calculate_rho does: the mean of yᵢ∇ᵢ over the free support vectors, or
// the midpoint of the feasible interval when there are none.
//
// FitLinear follows LIBLINEAR's -B convention instead: a constant feature
// B (LinearOptions.BiasFeature, default 1) is appended to every row, and its weight
// w_B is regularised like the others, so the model's bias is b = B·w_B and
// the problem is comparable with liblinear-train -B 1. LinearOptions.NoBias
// drops it (LIBLINEAR's default -B −1). The feature is never materialised:
// the solver adds B·w_B to each dot product.
//
// MaxMargin measures the margin for any of the three (MarginOptions): a free
// bias (Fit's, the default), NoBias (the textbook min ‖θ‖² subject to
// yᵢθ·xᵢ ≥ 1) and a BiasFeature (FitLinear's and the perceptron's, whose
// Novikoff bound treats b as the weight of a constant feature 1).
//
// # Hard margin
//
// With C = +Inf the dual min ½αᵀQα − Σαᵢ over α ≥ 0 (and yᵀα = 0) is
// bounded only when the data are separable: on non-separable data it
// decreases without bound, and SMO run on it with U = ∞ has no fixed point,
// so neither convergence nor an iteration cap tells an impossible problem
// from a slow one. The package solves the hard margin in its equivalent
// geometric form instead, the nearest points of two convex hulls in the
// kernel's feature space (Bennett & Bredensteiner 2000; Keerthi et al.
// 2000):
//
//	D* = min ‖Σᵢ λᵢyᵢφ(xᵢ)‖²  over  λ ≥ 0,  Σ_{yᵢ=+1} λᵢ = Σ_{yᵢ=−1} λᵢ = 1
//
// (with NoBias or a BiasFeature: one simplex, Σλᵢ = 1, the distance from
// the origin to the hull of the yᵢφ(xᵢ)). This problem is bounded for every
// data set. The data are separable iff D* > 0; then γ_D = √D*/2 and the
// hard-margin solution is α = (2/D*)·λ* (1/D* and γ_D = √D* for one
// simplex). The solver (LIBSVM's ν-SVM SMO, pairs within a constraint
// group, second-order selection) stops when α = c·λ, with c from the current
// λ, meets the same criterion as a soft-margin machine, m(α) − M(α) ≤ Tol,
// so the returned model satisfies yᵢ(w·φ(xᵢ) + b) ≥ 1 − Tol: a separator.
// Every feasible λ bounds the margin from above, γ_D ≤ √D(λ)/2, so the
// solver can also prove the opposite: when D(λ) falls below what the
// element type resolves (16·(d+2)·u·max Kᵢᵢ, u the unit roundoff; see
// floorD), no separator has a margin above √D(λ)/2 that the kernel values
// could distinguish from 0, and training fails with an error wrapping
// ErrNotSeparable whose message gives that bound. For float32 data that
// verdict is checked in float64 first (the machine's rows converted, its
// kernel values recomputed): data separable by a margin float32 cannot
// resolve are separable for trainDense and MaxMargin, as for the float64
// diagnostics, with float64's α and bias (stored in float32, whose scores
// may not resolve that margin). If the iteration cap
// comes first, a positive Frank–Wolfe lower bound 2·Σ_g min_{i∈g} ∇ᵢ − D
// on D* still proves separability; otherwise the error is ErrNotSeparable
// with the bound found so far. So ErrNotSeparable means: the classes' hulls
// touch, or come closer than T resolves, or no separation could be proven
// within MaxIter — and the message says which, with the proven bound.
//
// # Which solver
//
// FitLinear when the classes are (nearly) linearly separable or the data
// are large or sparse: each pass costs O(nnz), and there is no kernel
// matrix. Fit with the RBF kernel when a linear model underfits; its cost
// grows with N² (the kernel matrix), so beyond a few tens of thousands of
// rows the kernel perceptron or a linear model on features is the
// practical choice. MaxMargin when you need γ_D itself. The perceptron
// package's Pegasos SVM approximates the linear soft-margin problem by
// stochastic subgradient steps: it is cheaper per epoch but never reaches
// the exact optimum (no support vectors, no KKT certificate) — use it only
// for streaming or online updates.
//
// # Errors and data
//
// Every error wraps a sentinel (ErrEmpty, ErrDims, ErrNonFinite, ErrLabels,
// ErrOption, ErrNotSeparable, ErrBudget, ErrModel, and for model files
// ErrCorrupt, ErrVersion, ErrMismatch) for errors.Is; errors of
// package gram are wrapped too. Bad input never panics. The caller's slices
// are never modified; models keep copies of their support vectors. Training
// stops when its context is cancelled (the error wraps the context's). A
// machine that reaches its iteration cap is not an error: the model is
// returned and Info.Converged is false.
//
// # Model files
//
// The kernel SVM's model is package expansion's Model, and the linear
// SVM's package linear's Model (Algorithm linear.DualCD), the module's one
// linear model type; both implement encoding.BinaryMarshaler and
// json.Marshaler and their inverses, in the module's one model-file format
// (magic, version, element type, kind, D, labels, a body, CRC-32C): a
// kernel model stores its kernel, support vectors (with their training
// rows when known), the coefficients αᵢyᵢ of every decision function and
// the biases; a linear model the weights of the columns some class uses
// and its biases (files of kinds 40 and 41, the dense form this package
// wrote before, are read too). Decoders check the checksum and the size
// the header implies before they allocate, and then every field as the
// constructors do (expansion.New, linear.New); a bad file is an error
// wrapping the decoding package's ErrCorrupt, never a
// panic. Package model loads any model file by content, and model.Inspect
// describes a file from its header without reading the rest.
//
// # Determinism
//
// SMO is deterministic: the same data and options give a bit-identical
// model, whatever Options.Workers. The linear solver's random order comes
// only from LinearOptions.Seed, and its model is bit-identical for a given
// seed whatever LinearOptions.Workers. Across kernel implementations the
// arithmetic differs in the last bit (fused multiply-adds), so the models
// agree to within rounding, not bit for bit; on integer data with a linear
// or polynomial kernel the kernel matrices themselves are exact and equal
// on every implementation.
package svm
