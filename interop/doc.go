// Package interop reads and writes the model files of other tools: LIBSVM's
// (svm-train's output, read by svm-predict), LIBLINEAR's (liblinear-train's
// output, read by liblinear-predict) and ONNX-ML's (scikit-learn's models
// exported to ONNX, read by ONNX Runtime), so that a model trained with
// those tools predicts here, and a model of this module predicts with them.
//
// # LIBSVM
//
// ReadLIBSVM parses the text format of LIBSVM's svm_save_model (Chang and
// Lin, "LIBSVM: a library for support vector machines", ACM TIST 2011):
// a header (svm_type, kernel_type, degree, gamma, coef0, nr_class,
// total_sv, rho, label, probA, probB, nr_sv), the line "SV", then one line
// per support vector, "c₁ … c_{k−1} index:value …". The classifiers (svm_type
// c_svc and nu_svc, which share the decision function) with the linear,
// polynomial, RBF and sigmoid (tanh(γ·x·y + c₀), gram.Sigmoid) kernels
// become an expansion.Model[float64]: a binary model
// for two classes, one-vs-one for more, with LIBSVM's pairwise decision
// values mapped onto the model's sorted labels (a pair whose labels LIBSVM
// lists in decreasing order has its coefficients and ρ negated) so that the
// votes are LIBSVM's. The precomputed kernel, one-class SVMs and the
// regressions (epsilon_svr, nu_svr) are refused with ErrUnsupported. The probability lines (probA,
// probB, Platt's sigmoid per pair) are parsed and returned in LIBSVMFile,
// whose Probabilities method gives svm-predict -b 1's class probabilities
// and label (Platt's sigmoid per pair, coupled as Wu, Lin and Weng, 2004);
// the expansion.Model's Predict is svm-predict's vote without -b.
//
// WriteLIBSVM writes a binary or one-vs-one expansion.Model as a c_svc file that
// svm-predict reads; one-vs-rest has no LIBSVM form and is refused.
//
// # LIBLINEAR
//
// ReadLIBLINEAR parses the text format of LIBLINEAR's save_model (Fan,
// Chang, Hsieh, Wang and Lin, "LIBLINEAR: a library for large linear
// classification", JMLR 2008): solver_type, nr_class, label, nr_feature,
// bias, then "w" and nr_feature (+1 with a bias) lines of nr_w weights, the
// weight of feature j for class k at w[j·nr_w + k]. Every classification
// solver (the L2- and L1-regularised SVMs and logistic regressions, and
// Crammer and Singer's multiclass SVM, whose prediction is the argmax of
// the same per-class scores) becomes a linear SVM's linear.Model[float64]
// (Algorithm linear.DualCD, whatever the solver): binary for two classes
// (nr_w = 1; a positive score predicts the larger label), one-vs-rest
// otherwise, the bias feature's
// weight times the bias value becoming the bias term. The regressions and
// the one-class SVM are refused with ErrUnsupported.
//
// WriteLIBLINEAR writes a linear.Model (svm.FitLinear's, or a perceptron's
// that neither votes nor scales its samples) as a file liblinear-predict
// reads, with the bias as a bias feature of value 1.
//
// # ONNX-ML
//
// ReadONNX decodes an ONNX ModelProto (onnx.proto, protocol buffers) with a
// minimal wire reader of its own: only ModelProto, GraphProto, NodeProto,
// AttributeProto, TensorProto, ValueInfoProto and the opset imports are
// read, and nothing else of the protobuf runtime is needed. The graph must
// read one float or double tensor [N, features] and be a chain of:
//
//   - feature steps, applied to each sample as a Pipeline: Identity, Cast
//     (to float: rounding to float32; to double), and the ai.onnx.ml
//     operators Scaler ((x − offset)·scale) and Normalizer (MAX, L1, L2);
//   - one classifier: ai.onnx.ml's LinearClassifier (coefficients, E rows
//     of d, E = 1 for two classes, where a positive score is the second
//     label; intercepts; classlabels_ints or integer classlabels_strings;
//     post_transform NONE), ai.onnx.ml's SVMClassifier (LIBSVM's layout:
//     support_vectors, vectors_per_class, (k−1) rows of coefficients, rho
//     added to each pair's sum, a positive value voting for the pair's first
//     class; kernel_type LINEAR, POLY, RBF, SIGMOID with kernel_params [γ, coef0,
//     degree]; prob_a and prob_b kept in ONNXFile), or the linear graph
//     MatMul(X, W) + B with an optional ArgMax (axis 1) and Gather of the
//     labels from an initializer (labels 0…k−1 without it);
//   - Identity and Cast of the classifier's outputs.
//
// Any other operator, a post_transform other than NONE and
// SVMClassifier's linear mode (no
// support vectors) are refused with an *OperatorError, which matches
// ErrOperator and ErrUnsupported. A malformed file's error names the
// protobuf field (e.g. ModelProto.graph.node[0].attribute[3] (rho)).
//
// WriteONNX writes a linear.Model as a LinearClassifier, a binary or
// one-vs-one expansion.Model (or a Voting) as an SVMClassifier, and a Pipeline
// as its steps before its classifier. ONNX-ML's attributes are float32: a
// float32 model, or a model read from an ONNX file, reads back bit for
// bit; a float64 model with values that are not float32s is refused unless
// ONNXOptions.Round is set.
//
// # Ties
//
// The tools break ties in their file's label order; the models of this
// module in increasing label order. ReadLIBSVM returns a file whose labels
// are not in increasing order (LIBSVM lists them in order of first
// appearance) also as a Voting, which counts votes as svm-predict does;
// with the expansion.Model alone, or a file in increasing order, a prediction
// differs from svm-predict's only where a decision value is exactly 0.
// A LIBLINEAR model's prediction differs from liblinear-predict's only
// where a decision value is exactly 0 or two classes' scores are equal.
//
// # Hostile files
//
// The parsers and the ONNX decoder allocate in proportion to the file's size: a header count is
// checked against the bytes that must follow it before anything of that
// size is allocated, and support vectors are kept sparse when a dense
// matrix would be larger than the file. Errors name the line and wrap
// ErrSyntax (malformed), ErrUnsupported (a valid file of a model this
// module does not hold) or ErrModel (an inconsistent model).
package interop
