package perceptron

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/expansion"
	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/internal/kernelperceptron"
	"github.com/rosenblatt-go/rosenblatt/internal/linmodel"
	"github.com/rosenblatt-go/rosenblatt/internal/modelfile"
	"github.com/rosenblatt-go/rosenblatt/linear"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// separable returns n integer-valued samples in [-r, r]^d labelled ±1 by a
// planted integer separator (u, b0) with y·(u·x + b0) ≥ gap for every
// sample, so its geometric margin (with the bias as a weight on a constant
// 1) is at least gap/‖(u, b0)‖.
func separable(rng *rand.Rand, n, d, r int, gap float64, bias bool) (X []float64, y []int, u []float64, b0 float64) {
	u = make([]float64, d)
	for j := range u {
		u[j] = float64(rng.IntN(5) - 2)
	}
	u[0] = 3
	if bias {
		b0 = float64(rng.IntN(3) - 1)
	}
	for len(y) < n {
		x := make([]float64, d)
		m := b0
		for j := range x {
			x[j] = float64(rng.IntN(2*r+1) - r)
			m += u[j] * x[j]
		}
		if math.Abs(m) < gap {
			continue
		}
		X = append(X, x...)
		if m > 0 {
			y = append(y, 1)
		} else {
			y = append(y, -1)
		}
	}
	return X, y, u, b0
}

// intMulticlass returns n integer-valued samples with k classes given by the
// argmax of k planted integer score vectors (not necessarily separable by
// the learners, which is fine for the parity tests).
func intMulticlass(rng *rand.Rand, n, d, k int) ([]float64, []int) {
	C := make([]float64, k*d)
	for i := range C {
		C[i] = float64(rng.IntN(7) - 3)
	}
	var X []float64
	var y []int
	for range n {
		x := make([]float64, d)
		for j := range x {
			x[j] = float64(rng.IntN(9) - 4)
		}
		best, bk := math.Inf(-1), 0
		for c := range k {
			s := 0.0
			for j := range x {
				s += C[c*d+j] * x[j]
			}
			if s > best {
				best, bk = s, c
			}
		}
		X = append(X, x...)
		y = append(y, 10*bk-7) // labels need not be 0..k-1
	}
	return X, y
}

func to32(x []float64) []float32 {
	out := make([]float32, len(x))
	for i, v := range x {
		out[i] = float32(v)
	}
	return out
}

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 7)) }

// availableImpls lists the kernel implementations this CPU can run.
func availableImpls() []*kernel.Impl {
	var out []*kernel.Impl
	for _, im := range kernel.Impls() {
		if im.Available() {
			out = append(out, im)
		}
	}
	return out
}

// orders replicates the trainers' shuffling: the visiting order of each
// epoch (nil without shuffling).
func orders(n, epochs int, shuffle bool, seed uint64) [][]int {
	out := make([][]int, epochs)
	var rng *rand.Rand
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	if shuffle {
		rng = rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	}
	for e := range out {
		if rng != nil {
			rng.Shuffle(n, func(i, j int) { order[i], order[j] = order[j], order[i] })
		}
		out[e] = append([]int(nil), order...)
	}
	return out
}

func mustMarshal[T kernel.Float](t testing.TB, m *linear.Model[T]) []byte {
	t.Helper()
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func sameModel[T kernel.Float](t testing.TB, a, b *linear.Model[T]) bool {
	t.Helper()
	return bytes.Equal(mustMarshal(t, a), mustMarshal(t, b))
}

// loadSet reads a LIBSVM file from testdata.
func loadSet[T kernel.Float](t testing.TB, name string, cols int) *dataset.Data[T] {
	t.Helper()
	d, err := dataset.LoadLIBSVM[T](filepath.Join("testdata", name), dataset.LIBSVMOptions{Cols: cols})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// dot is a plain float64 reference dot product.
func dot(x, y []float64) float64 {
	s := 0.0
	for i := range x {
		s += x[i] * y[i]
	}
	return s
}

// stopOf returns StopNever for all, StopClean otherwise.
func stopOf(all bool) Stopping {
	if all {
		return StopNever
	}
	return StopClean
}

// snap returns the parts of m's snapshot as the model holds them (through
// the trainers' bridge, internal/linmodel): its arrays, to read only.
func snap[T kernel.Float](m *linear.Model[T]) *linmodel.Parts[T] {
	p, err := linmodel.PartsOf[T](m)
	if err != nil {
		panic(err)
	}
	return p
}

// sampleScale returns the factors of x's scores under p's scaling, as
// the model computes them: score = (w·x)·mul + b·bmul.
func sampleScale[T kernel.Float](p *linmodel.Parts[T], x []T) (mul, bmul T) {
	k := linmodel.KernelsFor[T](nil)
	switch linear.Scaling(p.Scaling) {
	case linear.ScaleAugmented:
		f := T(linmodel.AugScale(float64(k.Dot(x, x)), p.BiasFeature))
		return f, f
	case linear.ScaleFeatures:
		if nx := k.Dot(x, x); nx > 0 {
			return T(1 / math.Sqrt(float64(nx))), 1
		}
	}
	return 1, 1
}

// gemmMinRows is the number of weight vectors from which package linear's
// ScoresBatch multiplies by gram.CrossInto (its own constant).
const gemmMinRows = 64

// useGEMM reports whether linear's ScoresBatch takes the matrix product
// for n weight vectors.
func useGEMM(n int) bool { return n >= gemmMinRows }

// scoreChunk is the number of weight vectors one kernel call of linear's
// Predict scores (its own constant).
const scoreChunk = 64

// FileInfo describes a model file's header, as the tests read it.
type FileInfo struct {
	Version   int              // format version
	ElemBits  int              // 32 or 64
	Kind      Kind             // the kind byte (a linear model's: 1 binary, 2 one-vs-rest, 3 argmax)
	Algorithm linear.Algorithm // training algorithm
	Dims      int              // features per sample
	Labels    int              // number of labels (2 for binary)
	Vectors   int              // voted vectors or support vectors
}

// testFileErrs are the sentinels of the perceptron models' files.
var testFileErrs = modelfile.Errors{Corrupt: linear.ErrCorrupt, Version: linear.ErrVersion, Mismatch: linear.ErrMismatch}

// Inspect checks a file's envelope and header fields (size, checksum,
// the family's fields) without decoding it, as model.Inspect does; a
// kernel model's file is ErrMismatch besides, as the linear decoder says.
func Inspect(data []byte) (FileInfo, error) {
	h, _, err := testFileErrs.Open(data)
	info := FileInfo{Version: h.Version, ElemBits: h.ElemBits(), Kind: Kind(h.Kind), Algorithm: linear.Algorithm(h.Algorithm),
		Dims: h.Dims, Labels: h.Labels, Vectors: h.Count}
	if err != nil {
		return info, err
	}
	if info.Kind.IsKernel() {
		return info, fmt.Errorf("%w: a kernel model", linear.ErrMismatch)
	}
	if size, _, err := testFileErrs.EncodedSize(data); err != nil {
		return info, err
	} else if size != int64(len(data)) {
		return info, fmt.Errorf("%w: %d bytes, the header implies %d", linear.ErrCorrupt, len(data), size)
	}
	return info, nil
}

// EncodedSize is the size of a model file from its first bytes
// (modelfile's registry of the families).
func EncodedSize(prefix []byte) (size, need int64, err error) {
	return testFileErrs.EncodedSize(prefix)
}

// The trainers' former entry points, by data layout and problem, as the
// tests call them: train and trainKernel on dense rows (X row-major with
// cols features per row) or on a CSR matrix, binary (labels ±1) or
// multiclass.

func denseRows[T kernel.Float](X []T, cols int) *dataset.Data[T] {
	return &dataset.Data[T]{X: X, Cols: cols}
}

func trainBinary[T kernel.Float](X []T, cols int, y []int, opt Options) (*linear.Model[T], *Diagnostics, error) {
	return train(denseRows(X, cols), y, true, opt)
}

func trainMulti[T kernel.Float](X []T, cols int, y []int, opt Options) (*linear.Model[T], *Diagnostics, error) {
	return train(denseRows(X, cols), y, false, opt)
}

func trainBinarySparse[T kernel.Float](X *dataset.CSR[T], y []int, opt Options) (*linear.Model[T], *Diagnostics, error) {
	return train(X, y, true, opt)
}

func trainMultiSparse[T kernel.Float](X *dataset.CSR[T], y []int, opt Options) (*linear.Model[T], *Diagnostics, error) {
	return train(X, y, false, opt)
}

func trainKernelBinary[T kernel.Float](X []T, cols int, y []int, opt KernelOptions) (*expansion.Model[T], *Diagnostics, error) {
	return trainKernel(denseRows(X, cols), y, true, opt)
}

func trainKernelMulti[T kernel.Float](X []T, cols int, y []int, opt KernelOptions) (*expansion.Model[T], *Diagnostics, error) {
	return trainKernel(denseRows(X, cols), y, false, opt)
}

func trainKernelBinarySparse[T kernel.Float](X *dataset.CSR[T], y []int, opt KernelOptions) (*expansion.Model[T], *Diagnostics, error) {
	return trainKernel(X, y, true, opt)
}

func trainKernelMultiSparse[T kernel.Float](X *dataset.CSR[T], y []int, opt KernelOptions) (*expansion.Model[T], *Diagnostics, error) {
	return trainKernel(X, y, false, opt)
}

// newDualTrainer checks and prepares dense rows and sets up a kernel
// trainer on them, as trainKernel does.
func newDualTrainer[T kernel.Float](cfg *config, kern gram.Kernel, maxBytes int64, trace func(c, i int), X []T, n, d int, cls []int32, K int, argmax bool) (*kernelperceptron.Trainer[T], error) {
	if err := checkElem[T](cfg, n); err != nil {
		return nil, err
	}
	k := linmodel.KernelsFor[T](cfg.impl)
	dt, err := prepare(k, X, n, d, cfg.scaling, cfg.bfeat, false)
	if err != nil {
		return nil, err
	}
	return kernelperceptron.New(k, cfg.kernel(kern, maxBytes, argmax, trace), kernelData(dt), cls, K)
}

func continueDense[T kernel.Float](m *linear.Model[T], X []T, cols int, y []int, opt Options) (*linear.Model[T], *Diagnostics, error) {
	return continueFrom(m, denseRows(X, cols), y, opt)
}

func continueSparse[T kernel.Float](m *linear.Model[T], X *dataset.CSR[T], y []int, opt Options) (*linear.Model[T], *Diagnostics, error) {
	return continueFrom(m, X, y, opt)
}
