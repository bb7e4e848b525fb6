// Package modelreg lets the module's packages handle the models of
// packages linear and expansion without naming their instantiated types.
//
// Go compiles a generic type's methods, and all they reach, again in every
// package that names an instantiation of the type: a package that
// mentions *linear.Model[float32] in a type switch compiles its 200-odd
// methods, the kernels' dispatch, the model file codec and the Gram
// engine for itself, even if it calls two of them. Package linear (for
// linear.Model) and package interop (for expansion.Model, whose float64
// methods it compiles anyway for its readers) register here, from their
// init functions, a test of a model's type and a constructor of an empty
// model, so that a package taking a
// model as an interface value (quant.New, online.Supported, model's
// decoders and inspection, interop's writers) recognises and makes one
// without naming it, then uses it through an interface of the few methods
// it needs. The methods are compiled once, in the defining package.
package modelreg

// Family is a generic model type of the module.
type Family int

const (
	// Linear is linear.Model.
	Linear Family = iota
	// Expansion is expansion.Model.
	Expansion
	families
)

var (
	elemOf   [families]func(m any) int
	newModel [families]func(size int) any
)

// Register installs a family's type test and constructor: elem returns the
// size of m's element type (4 or 8) if m is a pointer to the family's
// model of float32 or float64, else 0; create returns a new, empty
// pointer to the model of element size 4 or 8. Only packages linear and
// interop call it, from their init functions.
func Register(f Family, elem func(m any) int, create func(size int) any) {
	elemOf[f], newModel[f] = elem, create
}

// ElemOf returns 4 if m is a pointer to f's model of float32, 8 if of
// float64, else 0. The Expansion family needs package interop linked
// (package model imports it), as New does.
func ElemOf(f Family, m any) int {
	if f < 0 || f >= families || elemOf[f] == nil {
		return 0 // not registered: no model of f can exist in this program
	}
	return elemOf[f](m)
}

// New returns a new, empty pointer to f's model of float32 (size 4) or
// float64 (size 8), for its UnmarshalBinary or UnmarshalJSON.
func New(f Family, size int) any {
	if f < 0 || f >= families || newModel[f] == nil {
		panic(missing(f))
	}
	return newModel[f](size)
}

// missing is the panic message of a call that needs f registered: a
// program that reaches it does not link the package that registers f.
func missing(f Family) string {
	if f == Linear {
		return "modelreg: package linear is not linked"
	}
	return "modelreg: package interop is not linked (it registers expansion.Model)"
}

// The LIBSVM and LIBLINEAR encoders of package interop, registered by it
// for package model: m is a pointer to an expansion.Model (LIBSVM) or a
// linear.Model (LIBLINEAR) of float32 or float64; ok is false for another
// type.
var marshalLIBSVM, marshalLIBLINEAR func(m any) (data []byte, ok bool, err error)

// RegisterInterop installs package interop's encoders. Only package interop
// calls it, from its init function.
func RegisterInterop(libsvm, liblinear func(m any) ([]byte, bool, error)) {
	marshalLIBSVM, marshalLIBLINEAR = libsvm, liblinear
}

// MarshalLIBSVM is interop.MarshalLIBSVM for an expansion.Model of either
// element type; ok is false if m is not one.
func MarshalLIBSVM(m any) (data []byte, ok bool, err error) {
	if marshalLIBSVM == nil {
		return nil, false, nil
	}
	return marshalLIBSVM(m)
}

// MarshalLIBLINEAR is interop.MarshalLIBLINEAR for a linear.Model of
// either element type; ok is false if m is not one.
func MarshalLIBLINEAR(m any) (data []byte, ok bool, err error) {
	if marshalLIBLINEAR == nil {
		return nil, false, nil
	}
	return marshalLIBLINEAR(m)
}

// Package interop's readers and its wrappers' contents, registered by it
// for package model (RegisterInteropReaders).
var (
	readInterop  func(data []byte, format string) (any, error)
	innerInterop func(m any) (any, bool)
)

// RegisterInteropReaders installs package interop's reader of a file of
// another tool and its test of a wrapper. Only package interop calls it,
// from its init function.
func RegisterInteropReaders(read func(data []byte, format string) (any, error), inner func(m any) (any, bool)) {
	readInterop, innerInterop = read, inner
}

// ReadInterop decodes a file of another tool: format is "libsvm",
// "liblinear" or "onnx". The model is an interop.Voting, an
// interop.Pipeline or a model of package linear or expansion.
func ReadInterop(data []byte, format string) (any, error) {
	if readInterop == nil {
		panic(missing(Expansion))
	}
	return readInterop(data, format)
}

// Inner returns the model inside m if m is an interop.Voting (its
// expansion.Model) or an interop.Pipeline (its classifier).
func Inner(m any) (any, bool) {
	if innerInterop == nil {
		return nil, false
	}
	return innerInterop(m)
}
