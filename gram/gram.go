// Package gram computes Gram and kernel matrices: G[i][j] = K(xᵢ, xⱼ) for the
// rows of a data set (Compute), K(aᵢ, bⱼ) between two sets (Cross, or
// CrossInto into the caller's buffer), rows K(xᵢ, X) and K(q, X) on demand,
// one at a time or in batches against a packed copy of the data (Rows), an
// LRU row cache with a byte budget that fills its misses in batches
// (Cache), and blocks of a larger matrix from sets packed once (Pack,
// Packed.GramInto, Packed.CrossBlock with its mirror block), for float32
// and float64.
//
// # Kernels
//
//	Linear{}                          K(x, y) = x·y
//	Polynomial{Gamma, Coef0, Degree}  K(x, y) = (γ·x·y + c)^m
//	RBF{Gamma}                        K(x, y) = exp(−γ‖x − y‖²)
//
// RBF is evaluated from norms, ‖x‖² + ‖y‖² − 2x·y, clamped at 0, so it costs
// one dot product per pair; the diagonal of a Gram matrix is exactly 1.
// Invalid parameters (γ ≤ 0, degree < 1, NaN or infinite values) are errors
// wrapping ErrInvalidKernel.
//
// # Implementation
//
// The dot products are computed the way GotoBLAS and BLIS compute a matrix
// product: the data are packed into panels of MR rows (the "A" side) and NR
// rows (the "B" side), interleaved along the feature axis and split into
// blocks of KC features; a register-blocked micro-kernel accumulates an MR×NR
// tile of dot products in vector registers. Since G = X·Xᵀ both panels come
// from the same X and only the tiles of the lower triangle are computed; each
// value is written to its own place and its mirror, so the result is exactly
// symmetric. The kernel function is applied to each tile as soon as its last
// KC block is done, while it is still in the L1 cache. Tiles are spread over
// goroutines (Options.Threads, default GOMAXPROCS); nothing is allocated per
// tile.
//
// The micro-kernels exist for the same implementations as the kernel
// package's vector kernels, and the choice is the kernel package's (see
// kernel.ActiveImpl and the ROSENBLATT_KERNEL variable, or Options.Impl):
// gram keeps its functions in a table indexed by kernel.ID (registry in
// engine.go, filled by micro_GOARCH.go) and runs the entry of the chosen
// implementation, so one choice drives everything:
//
//	name     micro-kernel f32 / f64       kernel function (RBF exp, power)
//	avx512   12×32 / 12×16, AVX-512F       AVX2+FMA assembly
//	avx2     6×16 / 6×8, AVX2+FMA          AVX2+FMA assembly
//	neon     8×12 / 8×6, ASIMD             Go (polynomial exp as avx2)
//	generic  4×4 / 4×4, portable Go        portable Go (math.Exp)
//
// The avx512 micro-kernels are the avx2 ones with ZMM registers and twice the
// rows: one definition in the generator (_asm/gram_x86.go), instantiated for
// each instruction set.
//
// # Numerics
//
// Every dot product is one sequential chain of (fused, on the assembly paths)
// multiply-adds over the features in order 0, 1, …, D−1, whatever the tile
// size, block size, tile position or thread count. So on one implementation a
// value does not depend on where it was computed: Compute, Cross, Rows and
// Cache return bit-identical values for the same pair. Against the exact
// product the usual bound holds,
//
//	|s − x·y| ≤ γ_D · Σ|xₖyₖ|,   γ_D = D·u / (1 − D·u),
//
// with u the unit roundoff of T (2⁻²⁴ or 2⁻⁵³). The assembly paths' exp
// (used for RBF; the NEON path runs the same polynomial in Go) reduces the
// argument to r = x − n·ln2, |r| ≤ ln2/2, and evaluates Cephes' expf
// polynomial (float32) or the Taylor series of degree 13 (float64); its
// relative error is at most 4u (measured: 1.3u and 3u). Arguments below −86
// (float32) or −708 (float64) give 0, an absolute error under 5·10⁻³⁸ and
// 4·10⁻³⁰⁸. The generic path uses math.Exp. The tests check all of this
// against a float64 double loop.
//
// # Errors
//
// Bad input never panics and never yields silent garbage: a length that is
// not N·d, an empty set, NaN or infinite values, data whose kernel values
// could overflow T, invalid kernel parameters, an implementation the CPU
// lacks and a result over the memory budget each return an error that
// errors.Is matches to one of the Err variables. The data are never
// modified.
package gram

import (
	"errors"
	"fmt"
	"math"
	"runtime"

	"github.com/rosenblatt-go/rosenblatt/kernel"
)

var (
	// ErrInvalidKernel reports an invalid kernel: nil, γ ≤ 0, degree < 1,
	// or a NaN or infinite parameter.
	ErrInvalidKernel = errors.New("gram: invalid kernel parameters")
	// ErrShape reports a length that is not rows·d, a dimension d < 1, or two
	// sets (or a query and a set) with different dimensions.
	ErrShape = errors.New("gram: inconsistent shape")
	// ErrEmpty reports a data set with no rows.
	ErrEmpty = errors.New("gram: empty data set")
	// ErrNonFinite reports a NaN or infinite value in the data.
	ErrNonFinite = errors.New("gram: NaN or infinite value in data")
	// ErrOverflow reports data whose kernel values could overflow the
	// element type: a squared norm, or (γ·max‖x‖²+|c|)^m for Polynomial,
	// exceeds a quarter of its largest finite value.
	ErrOverflow = errors.New("gram: kernel values could overflow")
	// ErrBudget reports a computation whose memory (result plus packed
	// copies of the data) exceeds Options.MaxBytes, or a cache budget too
	// small for one row.
	ErrBudget = errors.New("gram: memory budget exceeded")
	// ErrImpl reports an Options.Impl this CPU cannot run.
	ErrImpl = errors.New("gram: implementation not available on this CPU")
)

// DefaultMaxBytes is the memory budget used when Options.MaxBytes is 0:
// 2 GiB, a 23170×23170 float32 or 16384×16384 float64 Gram matrix.
const DefaultMaxBytes int64 = 2 << 30

// Options tune a computation. A nil *Options means the zero value: the
// active implementation, GOMAXPROCS goroutines and DefaultMaxBytes.
type Options struct {
	// Impl selects the implementation (one of kernel.Impls()); nil means
	// kernel.ActiveImpl(). An implementation the CPU lacks is an error.
	Impl *kernel.Impl
	// Threads is the number of goroutines; 0 or less means GOMAXPROCS.
	Threads int
	// MaxBytes is the memory budget of one call: the result matrix plus the
	// packed copies of the data. 0 means DefaultMaxBytes, a negative value
	// means no limit.
	MaxBytes int64

	// kc, mc, nc override the block sizes (tests and tuning).
	kc, mc, nc int
}

// Kernel is a kernel function: Linear, Polynomial or RBF.
type Kernel interface {
	// Validate reports invalid parameters, wrapping ErrInvalidKernel.
	Validate() error
	// String describes the kernel and its parameters.
	String() string
	spec() spec
}

type kind int

const (
	kindLinear kind = iota
	kindPoly
	kindRBF
	kindSigmoid
)

type spec struct {
	kind   kind
	gamma  float64
	coef0  float64
	degree int
}

// Linear is the linear kernel K(x, y) = x·y: the plain Gram matrix.
type Linear struct{}

// Validate never fails: the linear kernel has no parameters.
func (Linear) Validate() error { return nil }

// String returns "linear".
func (Linear) String() string { return "linear" }

func (Linear) spec() spec { return spec{kind: kindLinear} }

// Polynomial is the kernel K(x, y) = (Gamma·x·y + Coef0)^Degree. The
// textbook (1 + x·y)^m is Polynomial{Gamma: 1, Coef0: 1, Degree: m}.
type Polynomial struct {
	Gamma  float64 // scale of the dot product, > 0
	Coef0  float64 // constant term, finite
	Degree int     // power, ≥ 1
}

// Validate reports Gamma ≤ 0, Degree < 1 and NaN or infinite parameters.
func (p Polynomial) Validate() error {
	switch {
	case !(p.Gamma > 0) || math.IsInf(p.Gamma, 0):
		return fmt.Errorf("%w: polynomial gamma = %v, want finite > 0", ErrInvalidKernel, p.Gamma)
	case math.IsNaN(p.Coef0) || math.IsInf(p.Coef0, 0):
		return fmt.Errorf("%w: polynomial coef0 = %v, want finite", ErrInvalidKernel, p.Coef0)
	case p.Degree < 1:
		return fmt.Errorf("%w: polynomial degree = %d, want ≥ 1", ErrInvalidKernel, p.Degree)
	}
	return nil
}

// String describes the kernel, e.g. "poly(gamma=1, coef0=1, degree=3)".
func (p Polynomial) String() string {
	return fmt.Sprintf("poly(gamma=%g, coef0=%g, degree=%d)", p.Gamma, p.Coef0, p.Degree)
}

func (p Polynomial) spec() spec {
	return spec{kind: kindPoly, gamma: p.Gamma, coef0: p.Coef0, degree: p.Degree}
}

// RBF is the Gaussian kernel K(x, y) = exp(−Gamma·‖x − y‖²).
type RBF struct {
	Gamma float64 // width parameter, > 0
}

// Validate reports Gamma ≤ 0, NaN or infinite.
func (r RBF) Validate() error {
	if !(r.Gamma > 0) || math.IsInf(r.Gamma, 0) {
		return fmt.Errorf("%w: rbf gamma = %v, want finite > 0", ErrInvalidKernel, r.Gamma)
	}
	return nil
}

// String describes the kernel, e.g. "rbf(gamma=0.5)".
func (r RBF) String() string { return fmt.Sprintf("rbf(gamma=%g)", r.Gamma) }

func (r RBF) spec() spec { return spec{kind: kindRBF, gamma: r.Gamma} }

// Sigmoid is the kernel K(x, y) = tanh(Gamma·x·y + Coef0) of LIBSVM's
// kernel_type sigmoid and ONNX-ML's SIGMOID (Lin and Lin, "A study on
// sigmoid kernels for SVM and the training of non-PSD kernels by SMO-type
// methods", 2003). It is not positive semi-definite for every Gamma and
// Coef0.
type Sigmoid struct {
	Gamma float64 // scale of the dot product, > 0
	Coef0 float64 // constant term, finite
}

// Validate reports Gamma ≤ 0 and NaN or infinite parameters.
func (s Sigmoid) Validate() error {
	switch {
	case !(s.Gamma > 0) || math.IsInf(s.Gamma, 0):
		return fmt.Errorf("%w: sigmoid gamma = %v, want finite > 0", ErrInvalidKernel, s.Gamma)
	case math.IsNaN(s.Coef0) || math.IsInf(s.Coef0, 0):
		return fmt.Errorf("%w: sigmoid coef0 = %v, want finite", ErrInvalidKernel, s.Coef0)
	}
	return nil
}

// String describes the kernel, e.g. "sigmoid(gamma=0.5, coef0=0)".
func (s Sigmoid) String() string {
	return fmt.Sprintf("sigmoid(gamma=%g, coef0=%g)", s.Gamma, s.Coef0)
}

func (s Sigmoid) spec() spec { return spec{kind: kindSigmoid, gamma: s.Gamma, coef0: s.Coef0} }

// sigmoidTile replaces each s = dst[j] by tanh(gamma·s + coef0).
func sigmoidTile[T kernel.Float](dst []T, gamma, coef0 T) {
	for j, s := range dst {
		dst[j] = T(math.Tanh(float64(gamma*s + coef0)))
	}
}

// Matrix is a dense row-major matrix of kernel values.
type Matrix[T kernel.Float] struct {
	Rows, Cols int // shape
	Data       []T // Rows·Cols values, row i at Data[i·Cols : (i+1)·Cols]
}

// Row returns row i as a slice of Data (not a copy). It panics if i is out
// of range.
func (m *Matrix[T]) Row(i int) []T {
	if i < 0 || i >= m.Rows {
		panic(fmt.Sprintf("gram: row %d out of range [0, %d)", i, m.Rows))
	}
	return m.Data[i*m.Cols : (i+1)*m.Cols : (i+1)*m.Cols]
}

// At returns the value at row i, column j. It panics if i or j is out of
// range.
func (m *Matrix[T]) At(i, j int) T {
	if j < 0 || j >= m.Cols {
		panic(fmt.Sprintf("gram: column %d out of range [0, %d)", j, m.Cols))
	}
	return m.Row(i)[j]
}

// Compute returns the symmetric N×N matrix G[i][j] = K(xᵢ, xⱼ) of the
// row-major N×d data set X (N = len(X)/d). Only the lower triangle is
// computed and every value is also stored at its mirror position, so the
// result is exactly symmetric; for RBF the diagonal is exactly 1. X is not
// modified.
func Compute[T kernel.Float](X []T, d int, k Kernel, opts *Options) (*Matrix[T], error) {
	return ComputeInto(nil, X, d, k, opts)
}

// ComputeInto is Compute writing into dst's storage when its capacity holds
// N·N values (the old contents are overwritten; nothing is allocated for
// the result), or into a new matrix when dst is nil or too small. It returns
// the matrix it filled. Reusing a matrix saves the time the operating system
// takes to hand out and clear N² fresh values, which for a large N is a
// noticeable part of the whole.
func ComputeInto[T kernel.Float](dst *Matrix[T], X []T, d int, k Kernel, opts *Options) (*Matrix[T], error) {
	e, err := setup[T](k, opts)
	if err != nil {
		return nil, err
	}
	n, err := rowsOf(X, d, "X")
	if err != nil {
		return nil, err
	}
	if err := e.budget(int64(n)*int64(n), int64(n)*int64(d)*2, "Gram matrix"); err != nil {
		return nil, err
	}
	sa, err := prepare(e, X, n, d, true, true)
	if err != nil {
		return nil, err
	}
	defer sa.release()
	if err := e.checkOverflow(sa.maxNorm); err != nil {
		return nil, err
	}
	m := dst
	if m == nil || cap(m.Data) < n*n {
		m = &Matrix[T]{Data: make([]T, n*n)}
	}
	m.Rows, m.Cols, m.Data = n, n, m.Data[:n*n]
	e.run(sa, sa, m.Data, n, true)
	return m, nil
}

// Cross returns the N×M matrix C[i][j] = K(aᵢ, bⱼ) between the row-major
// sets A (N×d) and B (M×d): the kernel values a trained model needs to score
// N new samples against its M training samples. A and B are not modified.
func Cross[T kernel.Float](A, B []T, d int, k Kernel, opts *Options) (*Matrix[T], error) {
	e, err := setup[T](k, opts)
	if err != nil {
		return nil, err
	}
	na, err := rowsOf(A, d, "A")
	if err != nil {
		return nil, err
	}
	nb, err := rowsOf(B, d, "B")
	if err != nil {
		return nil, err
	}
	if err := e.budget(int64(na)*int64(nb), (int64(na)+int64(nb))*int64(d), "cross matrix"); err != nil {
		return nil, err
	}
	sa, err := prepare(e, A, na, d, true, false)
	if err != nil {
		return nil, err
	}
	defer sa.release()
	sb, err := prepare(e, B, nb, d, false, true)
	if err != nil {
		return nil, err
	}
	defer sb.release()
	if err := e.checkOverflow(max(sa.maxNorm, sb.maxNorm)); err != nil {
		return nil, err
	}
	m := &Matrix[T]{Rows: na, Cols: nb, Data: make([]T, na*nb)}
	e.run(sa, sb, m.Data, nb, false)
	return m, nil
}

// CrossInto is Cross writing the N×M values into dst (row-major,
// len(dst) = N·M, dst[i·M+j] = K(aᵢ, bⱼ)) instead of a new matrix: the
// kernel values, or for Linear the products A·Bᵀ, of a batch of samples
// against a model's support or weight vectors. When one side has fewer rows
// than a register tile (a handful of class weight vectors, say), it is put
// on the side of the tile with fewer rows and the result transposed, so the
// micro-kernel's padding stays small; every value is the same one sequential
// chain of multiply-adds either way, identical to Cross's. The memory budget
// (Options.MaxBytes) covers the packed copies of A and B and, when
// transposed, a scratch copy of the result. A and B are not modified; dst
// of another length is an error wrapping ErrShape.
func CrossInto[T kernel.Float](dst, A, B []T, d int, k Kernel, opts *Options) error {
	e, err := setup[T](k, opts)
	if err != nil {
		return err
	}
	na, err := rowsOf(A, d, "A")
	if err != nil {
		return err
	}
	nb, err := rowsOf(B, d, "B")
	if err != nil {
		return err
	}
	if int64(len(dst)) != int64(na)*int64(nb) {
		return fmt.Errorf("%w: len(dst) = %d, want %d×%d", ErrShape, len(dst), na, nb)
	}
	flip := e.flip(na, nb)
	scratch := int64(0)
	if flip {
		scratch = int64(na) * int64(nb)
	}
	if err := e.budget(scratch, (int64(na)+int64(nb))*int64(d), "cross product"); err != nil {
		return err
	}
	if flip {
		A, B, na, nb = B, A, nb, na
	}
	sa, err := prepare(e, A, na, d, true, false)
	if err != nil {
		return err
	}
	defer sa.release()
	sb, err := prepare(e, B, nb, d, false, true)
	if err != nil {
		return err
	}
	defer sb.release()
	if err := e.checkOverflow(max(sa.maxNorm, sb.maxNorm)); err != nil {
		return err
	}
	if !flip {
		e.run(sa, sb, dst, nb, false)
		return nil
	}
	tmp := getBuf[T](na * nb)
	e.run(sa, sb, tmp, nb, false)
	e.mk.trans(dst, na, tmp, nb, na, nb)
	putBuf(tmp)
	return nil
}

// flip reports whether the product of na rows by nb rows needs fewer
// padded tile values with the B rows on the A side of the tile (mr rows)
// and the A rows on its B side (nr rows).
func (e *engine[T]) flip(na, nb int) bool {
	mr, nr := e.mk.mr, e.mk.nr
	pad := func(n, w int) int64 { return int64((n + w - 1) / w * w) }
	return pad(nb, mr)*pad(na, nr) < pad(na, mr)*pad(nb, nr)
}

// rowsOf returns len(X)/d after checking the shape.
func rowsOf[T kernel.Float](X []T, d int, name string) (int, error) {
	if d < 1 {
		return 0, fmt.Errorf("%w: dimension d = %d, want ≥ 1", ErrShape, d)
	}
	if len(X) == 0 {
		return 0, fmt.Errorf("%w: %s has no rows", ErrEmpty, name)
	}
	if len(X)%d != 0 {
		return 0, fmt.Errorf("%w: len(%s) = %d is not a multiple of d = %d", ErrShape, name, len(X), d)
	}
	return len(X) / d, nil
}

// threads returns the number of goroutines to use.
func (o *Options) threads() int {
	if o != nil && o.Threads > 0 {
		return o.Threads
	}
	return runtime.GOMAXPROCS(0)
}
