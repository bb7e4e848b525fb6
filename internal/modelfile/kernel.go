package modelfile

import (
	"math"

	"github.com/rosenblatt-go/rosenblatt/gram"
)

// KernelSize is the size of a kernel function's section (WriteKernel).
const KernelSize = 24

// Kernel function codes of the kernel section.
const (
	KernelLinear = 0
	KernelPoly   = 1
	KernelRBF    = 2
	// KernelSigmoid is tanh(γ·x·y + coef0) (gram.Sigmoid): LIBSVM's and
	// ONNX-ML's sigmoid kernel, read from their files.
	KernelSigmoid = 3
)

// WriteKernel appends the 24-byte kernel section: code (0 linear, 1
// polynomial, 2 rbf, 3 sigmoid), 3 bytes 0, degree uint32, gamma float64,
// coef0 float64 (unused fields 0). k is gram.Linear, gram.Polynomial,
// gram.RBF or gram.Sigmoid.
func (w *Writer) WriteKernel(k gram.Kernel) {
	var code byte
	var gamma, coef0 float64
	var degree uint32
	switch v := k.(type) {
	case gram.Polynomial:
		code, gamma, coef0, degree = KernelPoly, v.Gamma, v.Coef0, uint32(v.Degree)
	case gram.RBF:
		code, gamma = KernelRBF, v.Gamma
	case gram.Sigmoid:
		code, gamma, coef0 = KernelSigmoid, v.Gamma, v.Coef0
	}
	w.b = append(w.b, code, 0, 0, 0)
	w.U32(degree)
	w.F64(gamma)
	w.F64(coef0)
}

// ParseKernel decodes a kernel section (KernelSize bytes). Unused fields
// must be zero, so that an accepted file re-encodes to the same bytes, and
// the parameters must be valid (gram's Validate); errors wrap e.Corrupt.
func (e Errors) ParseKernel(p []byte) (gram.Kernel, error) {
	code := p[0]
	degree := le.Uint32(p[4:])
	gammab := le.Uint64(p[8:])
	coef0b := le.Uint64(p[16:])
	gamma, coef0 := math.Float64frombits(gammab), math.Float64frombits(coef0b)
	if p[1] != 0 || p[2] != 0 || p[3] != 0 {
		return nil, e.Corruptf("reserved kernel bytes are not zero")
	}
	var k gram.Kernel
	switch code {
	case KernelLinear:
		if degree != 0 || gammab != 0 || coef0b != 0 {
			return nil, e.Corruptf("linear kernel with parameters")
		}
		k = gram.Linear{}
	case KernelPoly:
		if degree > math.MaxInt32 {
			return nil, e.Corruptf("polynomial degree %d", degree)
		}
		k = gram.Polynomial{Gamma: gamma, Coef0: coef0, Degree: int(degree)}
	case KernelRBF:
		if degree != 0 || coef0b != 0 {
			return nil, e.Corruptf("rbf kernel with a degree or coef0")
		}
		k = gram.RBF{Gamma: gamma}
	case KernelSigmoid:
		if degree != 0 {
			return nil, e.Corruptf("sigmoid kernel with a degree")
		}
		k = gram.Sigmoid{Gamma: gamma, Coef0: coef0}
	default:
		return nil, e.Corruptf("unknown kernel code %d", code)
	}
	if err := k.Validate(); err != nil {
		return nil, e.wrapCorrupt(err)
	}
	return k, nil
}

// JSONKernel is the JSON form of a kernel function.
type JSONKernel struct {
	Type   string  `json:"type"` // "linear", "poly", "rbf", "sigmoid"
	Gamma  float64 `json:"gamma,omitempty"`
	Coef0  float64 `json:"coef0,omitempty"`
	Degree int     `json:"degree,omitempty"`
}

// KernelJSON returns the JSON form of k (gram.Linear, gram.Polynomial or
// gram.RBF).
func KernelJSON(k gram.Kernel) JSONKernel {
	switch v := k.(type) {
	case gram.Polynomial:
		return JSONKernel{Type: "poly", Gamma: v.Gamma, Coef0: v.Coef0, Degree: v.Degree}
	case gram.RBF:
		return JSONKernel{Type: "rbf", Gamma: v.Gamma}
	case gram.Sigmoid:
		return JSONKernel{Type: "sigmoid", Gamma: v.Gamma, Coef0: v.Coef0}
	}
	return JSONKernel{Type: "linear"}
}

// Kernel returns the kernel function of j; parameters it does not take are
// an error wrapping e.Corrupt. The parameters' values are the caller's to
// validate.
func (e Errors) Kernel(j JSONKernel) (gram.Kernel, error) {
	switch j.Type {
	case "linear":
		if j != (JSONKernel{Type: "linear"}) {
			return nil, e.Corruptf("linear kernel with parameters")
		}
		return gram.Linear{}, nil
	case "poly":
		return gram.Polynomial{Gamma: j.Gamma, Coef0: j.Coef0, Degree: j.Degree}, nil
	case "rbf":
		if j.Coef0 != 0 || j.Degree != 0 {
			return nil, e.Corruptf("rbf kernel with a degree or coef0")
		}
		return gram.RBF{Gamma: j.Gamma}, nil
	case "sigmoid":
		if j.Degree != 0 {
			return nil, e.Corruptf("sigmoid kernel with a degree")
		}
		return gram.Sigmoid{Gamma: j.Gamma, Coef0: j.Coef0}, nil
	}
	return nil, e.Corruptf("kernel type %q", j.Type)
}
