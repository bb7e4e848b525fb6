package perceptron

import (
	"fmt"

	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/linear"

	"github.com/rosenblatt-go/rosenblatt/gram"
)

// KernelOptions configures the dual (kernel) perceptron of FitKernel.
// The zero value is valid: the dual perceptron with
// the linear kernel, with Options' defaults.
type KernelOptions struct {
	// Options are the settings shared with the linear models. Algorithm
	// must be Online (the dual perceptron), Averaged or Voted (ErrOption
	// otherwise); Multiclass is fit.OneVsRest (any of the three; also
	// fit.Auto, the default) or fit.Argmax (the multiclass kernel
	// perceptron; Online or Averaged); fit.Binary requires labels ±1. MaxIter, Eta,
	// Sampling (SampleSweep or SampleReplace), Shuffle, Seed, Stop,
	// Normalize, NormalizeFeatures, NoBias, VotedMaxBytes, Callback and
	// Workers mean what they mean for the linear models, and so does
	// BiasFeature B (1 by default: a mistake moves b by η·y·B²). Normalize
	// scales each sample by s = 1/‖(x, B)‖ before the kernel sees it, and
	// s·B is the bias's feature: f(x) = Σᵢ αᵢ·η·yᵢ·K(s(xᵢ)·xᵢ, s(x)·x) +
	// b·s(x), the primal perceptron on the normalised augmented points for
	// the linear kernel. VotedMaxBytes bounds the voted kernel
	// perceptron's record of its mistakes and kept functions. Tau,
	// BatchSize, Lambda, C and Tol are ignored. Init is a Dual (α₀, b₀),
	// or nil for α = 0, b = 0.
	// Workers is also the number of goroutines that compute the Gram
	// matrix.
	Options

	// Kernel is the kernel function: gram.Linear{}, gram.Polynomial{...}
	// or gram.RBF{...} (or pointers to them). nil means gram.Linear{}.
	// Invalid parameters are an error wrapping ErrOption and
	// gram.ErrInvalidKernel.
	Kernel gram.Kernel

	// MaxBytes is the memory budget for kernel values. If the whole N×N
	// Gram matrix fits (N²·sizeof(T) ≤ MaxBytes) it is computed once, in
	// parallel; otherwise training computes the rows it needs on demand and
	// keeps the most recently used ones in an LRU cache (gram.Cache) of
	// MaxBytes. Both give bit-identical models; the cache trades memory for
	// recomputation. A budget smaller than one row (N·sizeof(T)) is an
	// error wrapping ErrBudget. 0 means gram.DefaultMaxBytes; negative
	// means no limit (always the full matrix). The budget does not count
	// the packed copy of the data the cache keeps (N·D values), the
	// working memory of its batches (see gram.Rows.RowBatch) or the
	// trainer's O(N·K) state.
	MaxBytes int64

	// trace, if not nil, is called on every mistake with the score row
	// (the true class for Argmax) and the training row (tests).
	trace func(c, i int)
}

// kernelKind returns whether a multiclass kernel fit is Argmax, and its
// model's scheme.
func (cfg *config) kernelKind() (argmax bool, scheme fit.Scheme) {
	if cfg.strategy == fit.Argmax {
		return true, fit.Argmax
	}
	return false, fit.OneVsRest
}

// resolveKernel checks the options of a kernel training call.
func (o *KernelOptions) resolveKernel(multi bool) (config, gram.Kernel, error) {
	cfg, err := o.resolve()
	if err != nil {
		return cfg, nil, err
	}
	switch cfg.algo {
	case linear.Online, linear.Averaged, linear.Voted:
	default:
		return cfg, nil, fmt.Errorf("%w: the kernel perceptron supports the Online, Averaged and Voted algorithms, not %v", ErrOption, cfg.algo)
	}
	if multi && cfg.strategy == fit.Argmax && cfg.algo == linear.Voted {
		return cfg, nil, fmt.Errorf("%w: the Argmax scheme supports the Online and Averaged algorithms, not %v", ErrOption, cfg.algo)
	}
	if cfg.w0 != nil || (cfg.b0 != nil && !cfg.dual) {
		return cfg, nil, fmt.Errorf("%w: the kernel perceptron takes no Weights (its warm start is Dual)", ErrOption)
	}
	if cfg.dual && (cfg.algo == linear.Voted || (multi && cfg.strategy == fit.Argmax)) {
		return cfg, nil, fmt.Errorf("%w: a Dual warm start is for the binary and one-vs-rest Online and Averaged kernel perceptrons", ErrOption)
	}
	if cfg.margin && cfg.scaling == linear.ScaleAugmented {
		return cfg, nil, fmt.Errorf("%w: DataMargin on a kernel model with Normalize (its points (φ(x), B)/‖(φ(x), B)‖ are no kernel's); use NormalizeFeatures or no normalisation", ErrOption)
	}
	k, err := canonicalKernel(o.Kernel)
	if err != nil {
		return cfg, nil, err
	}
	return cfg, k, nil
}

// canonicalKernel returns k as a gram kernel value (nil → Linear), checking
// its parameters.
func canonicalKernel(k gram.Kernel) (gram.Kernel, error) {
	var out gram.Kernel
	switch v := k.(type) {
	case nil:
		return gram.Linear{}, nil
	case gram.Linear, gram.Polynomial, gram.RBF:
		out = v
	case *gram.Linear:
		if v != nil {
			out = *v
		}
	case *gram.Polynomial:
		if v != nil {
			out = *v
		}
	case *gram.RBF:
		if v != nil {
			out = *v
		}
	default:
		return nil, fmt.Errorf("%w: unsupported kernel type %T", ErrOption, k)
	}
	if out == nil {
		return nil, fmt.Errorf("%w: %w: nil %T", ErrOption, gram.ErrInvalidKernel, k)
	}
	if err := out.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrOption, err)
	}
	return out, nil
}
