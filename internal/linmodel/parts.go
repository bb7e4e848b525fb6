package linmodel

import (
	"math"
	"unsafe"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/internal/modelkern"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// Parts is a linear model as its trainer leaves it: what package linear's
// Model serves and the training state that only continuation needs. The
// enumerations are linear's (Algorithm, Scaling) by value, and the scheme
// fit's. A trainer
// fills Parts and hands it to Wrap, which gives the model these very
// arrays (nothing is copied); it must not change them afterwards. PartsOf
// gives the trainers the parts of a model back, to continue from: they
// must not change those arrays either.
//
// W (Rows×Dims, row-major) and B (Rows) are the served weights and biases,
// Rows being 1 for a binary model and len(Labels) otherwise; nil for a
// voted model, or W nil when Served holds them compactly. V, VB, VC and
// VOff are a voted model's vectors, biases, survival counts and each
// class's first vector. Steps, Lambda, CW, CB, U, UB and Avg are the
// training state: the samples visited, Pegasos's λ, an averaged model's
// running weights and averaging sums (dense, or compact in Avg).
type Parts[T Float] struct {
	Scheme             fit.Scheme // Binary, OneVsRest or Argmax
	Algorithm, Scaling uint8
	Dims               int
	Labels             []int
	Bias               bool
	BiasFeature        float64
	Eta                float64
	Steps              int64
	Lambda             float64
	Resumable          bool

	W, B   []T
	V, VB  []T
	VC     []int64
	VOff   []int
	CW, CB []T
	U, UB  []T
	Avg    *CompactAvg[T]
	Served *CompactServed[T]

	// Impl is the kernel implementation the model predicts with: nil for
	// the one package kernel chose (tests set another).
	Impl *kernel.Impl
}

// The bridge, set by package linear when it is initialised (before any
// package that imports it): wrap turns parts into a *linear.Model of the
// element type, parts takes them out of one. The models travel as
// unsafe.Pointer, this package not being able to name them (linear
// imports it).
var (
	wrap32  func(*Parts[float32]) unsafe.Pointer
	wrap64  func(*Parts[float64]) unsafe.Pointer
	parts32 func(unsafe.Pointer) (*Parts[float32], error)
	parts64 func(unsafe.Pointer) (*Parts[float64], error)
)

// Register installs package linear's side of the bridge. Only package
// linear calls it, from its init function.
func Register(w32 func(*Parts[float32]) unsafe.Pointer, w64 func(*Parts[float64]) unsafe.Pointer,
	p32 func(unsafe.Pointer) (*Parts[float32], error), p64 func(unsafe.Pointer) (*Parts[float64], error)) {
	wrap32, wrap64, parts32, parts64 = w32, w64, p32, p64
}

// Wrap returns the model of p, holding p's arrays; M must be
// linear.Model[T] (Wrap[linear.Model[T]](p)).
//
// An element type of its own (a named float32 or float64, which Float
// admits) is served by the model of its underlying type: Parts[T] and
// Parts[float32] (or float64) have one memory layout, as have the models,
// whose T appears only as the element of slices and as the argument of
// their kernels' functions, of one shape.
func Wrap[M any, T Float](p *Parts[T]) *M {
	if unsafe.Sizeof(T(0)) == 4 {
		return (*M)(wrap32((*Parts[float32])(unsafe.Pointer(p))))
	}
	return (*M)(wrap64((*Parts[float64])(unsafe.Pointer(p))))
}

// PartsOf returns the parts of m, a *linear.Model[T] (its own arrays, to
// read only), or the model's error (an untrained model).
func PartsOf[T Float, M any](m *M) (*Parts[T], error) {
	if unsafe.Sizeof(T(0)) == 4 {
		p, err := parts32(unsafe.Pointer(m))
		return (*Parts[T])(unsafe.Pointer(p)), err
	}
	p, err := parts64(unsafe.Pointer(m))
	return (*Parts[T])(unsafe.Pointer(p)), err
}

// AugScale returns the factor s = 1/‖(x, B)‖ of the augmented scaling
// (linear.ScaleAugmented) for a sample of squared norm sq and bias feature
// bf (0 without a bias; then 1/‖x‖, and 1 for x = 0). Training and the
// model compute it alike, so that their scores agree bit for bit.
func AugScale(sq, bf float64) float64 {
	if bf > 0 {
		return 1 / math.Sqrt(sq+bf*bf)
	}
	if sq > 0 {
		return 1 / math.Sqrt(sq)
	}
	return 1
}

// AverageOf returns w − u/steps, fresh: an averaged perceptron's average
// from its running weights w and averaging sums u after steps samples.
// Training, Update and the files form it alike.
func AverageOf[T Float](w, u []T, steps int64) []T {
	c := T(steps)
	a := dataset.Alloc[T](len(w))
	for i := range w {
		a[i] = w[i] - u[i]/c
	}
	return a
}

// SqNorm returns ‖v‖² in float64: k.Dot, or where that overflows T (a
// float32 vector longer than about 1.8e19) a float64 sum. Pegasos's
// projection in training and in Update computes it alike.
func SqNorm[T Float](k modelkern.Kernels[T], v []T) float64 {
	n := float64(k.Dot(v, v))
	if math.IsInf(n, 0) || math.IsNaN(n) {
		n = 0
		for _, x := range v {
			n += float64(x) * float64(x)
		}
	}
	return n
}

// ParallelMinWork is the number of multiply-adds each goroutine of a
// split batch gets at least (package linear's ScoresBatch and
// PredictBatch): 2²¹, some 20 µs of work at the rate of modelkern.Dots2
// on Zen 5, so that a split pays for starting and joining the goroutines
// even when the other cores are busy. Measured on the shared 2-vCPU Zen 5
// guest (bench/results/perceptron/predict-batch-zen5.txt), splitting a
// 10-class batch of 200 samples of 784 features (1.6 Mi multiply-adds)
// over two goroutines was slower than one (wall clock, median 177 against
// 122 ns per sample), so such a batch runs on the calling goroutine; one
// of 1000 samples is split. A variable for the tests, which lower it to
// split small batches (here, not in package linear, so that the tests of
// the trainers can set it too).
var ParallelMinWork = 1 << 21
