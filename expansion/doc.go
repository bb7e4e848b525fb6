// Package expansion is the trained kernel expansion the kernel perceptron
// (perceptron.FitKernel) and SMO (svm.Fit) both return: decision functions
//
//	f_r(x) = Σₛ coef[r][s]·K(svₛ, x) + b_r
//
// over shared support vectors svₛ, dense or sparse (CSR), with a kernel of
// package gram, the class labels and a decision scheme (fit.Scheme):
// fit.Binary (the sign), fit.OneVsRest and fit.Argmax (the largest score),
// fit.OneVsOne (LIBSVM's vote over the pairs of classes).
//
// One prediction path serves both trainers: a sample's kernel row against
// the support vectors (gram.Rows.RowOf; a batch's a block of rows at a
// time with gram.Rows.RowsOfEach, the support vectors packed once) reduced
// with the coefficients while in cache, one-vs-one by class groups of
// support vectors. Predict and the batch methods give the same values bit
// for bit.
//
// A kernel perceptron's model is a variant (Parts.Perceptron): it may
// scale samples before the kernel sees them (linear.Scaling) and carry its bias
// on a feature B, and the voted perceptron (Freund and Schapire, 1999)
// keeps its kept functions as prefixes of its mistakes (Voted) and scores
// by their vote Σⱼ cⱼ·sign(fⱼ(x)).
//
// Training state only a continued fit needs — the SMO dual variables α
// (an SVM's coefficients are αᵢyᵢ, its file may keep the support vectors'
// training rows), the kernel perceptron's α counts, decision values and
// averaging sums — is not part of a served model: a warm start of the
// kernel perceptron is perceptron.Dual{Alpha, B}, given beside the model.
//
// Model files keep the formats the two trainers wrote before they shared
// this type, bit for bit: kinds 16–18 for a kernel perceptron, 32–34 for a
// kernel SVM (package model reads any model file; model.Kind names the
// kinds). New builds a model from its Parts, the way back from another
// tool's format (package interop reads LIBSVM and ONNX models into it).
package expansion
