package fuzz

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"sync"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// gramSentinels are the error kinds package gram reports.
var gramSentinels = []error{
	gram.ErrInvalidKernel, gram.ErrShape, gram.ErrEmpty, gram.ErrNonFinite,
	gram.ErrOverflow, gram.ErrBudget, gram.ErrImpl,
}

// gramInput decodes a fuzz input: a header (rows, d, kernel and its
// parameters, how the values are made, threads) and the values.
type gramInput struct {
	n, d    int
	k       gram.Kernel
	threads int
	X       []float32
	exact   bool // small integers and a linear kernel: every sum is exact
}

func decodeGram(data []byte) (in gramInput, ok bool) {
	if len(data) < 8 {
		return in, false
	}
	h, data := data[:8], data[8:]
	in.n = 1 + int(h[0])%40
	in.d = 1 + int(h[1])%40
	in.threads = 1 + int(h[3])%3
	gamma := float64(binary.LittleEndian.Uint16(h[4:6])) / 4096 // may be 0: invalid
	degree := int(h[6]%6) - 1                                   // may be < 1: invalid
	switch h[2] % 4 {
	case 0:
		in.k = gram.Linear{}
	case 1:
		in.k = gram.Polynomial{Gamma: gamma, Coef0: float64(int8(h[7])) / 16, Degree: degree}
	case 2:
		in.k = gram.RBF{Gamma: gamma / float64(in.d)}
	default:
		in.k = gram.RBF{Gamma: math.Float64frombits(uint64(h[7]) << 56)} // odd values: NaN, Inf, huge, negative
	}
	mode := (h[2] / 4) % 3
	in.exact = mode == 1 && h[2]%4 == 0
	in.X = make([]float32, in.n*in.d)
	for i := range in.X {
		switch mode {
		case 0: // raw bits: NaN, Inf, huge and tiny values included
			var b [4]byte
			copy(b[:], data[min(len(data), 4*i):])
			in.X[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[:]))
		case 1: // small integers
			if i < len(data) {
				in.X[i] = float32(int8(data[i]) / 8)
			}
		default: // [-1, 1)
			if i < len(data) {
				in.X[i] = float32(int8(data[i])) / 128
			}
		}
	}
	return in, true
}

// gramRef returns the float64 reference of K(x, y) for float32 data and the
// error bound every implementation must meet (see the package docs of
// gram: one chain of multiply-adds per dot product, and the exp bound).
func gramRef(k gram.Kernel, x, y []float32) (ref, tol float64) {
	const u = 0x1p-24
	var dot, abs, nx, ny, dist float64
	for i := range x {
		a, b := float64(x[i]), float64(y[i])
		dot += a * b
		abs += math.Abs(a * b)
		nx += a * a
		ny += b * b
		dist += (a - b) * (a - b)
	}
	d := float64(len(x))
	gd := 2 * (d + 2) * u / (1 - (d+2)*u)
	tdot := gd*abs + (d+2)*0x1p-149 // underflow: each rounding may lose half a subnormal
	switch k := k.(type) {
	case gram.Polynomial:
		g, c := float64(float32(k.Gamma)), float64(float32(k.Coef0))
		base := g*dot + c
		db := g*tdot + 4*u*(math.Abs(g*dot)+math.Abs(c))
		m := float64(k.Degree)
		hi := math.Abs(base) + db
		return math.Pow(base, m), m*math.Pow(hi, m-1)*db + 4*(m+1)*u*math.Pow(hi, m) + 4*(m+1)*0x1p-149
	case gram.RBF:
		g := float64(float32(k.Gamma))
		dt := gd*(nx+ny+2*abs) + 4*u*(nx+ny)
		ref := math.Exp(-g * dist)
		return ref, g*dt*math.Exp(-g*math.Max(dist-dt, 0)) + 8*u*ref + 5e-38
	}
	return dot, tdot
}

// FuzzGram computes the kernel matrix of decoded data on every
// implementation this CPU runs and checks: errors wrap a gram sentinel and
// nothing panics; results are exactly symmetric, the RBF diagonal is exactly
// 1, every value is within the bound of the float64 reference (exact for
// small integers), Rows and Cross agree bit for bit with Compute,
// RowsOfEach hands each query's row once with Cross's values, and the
// data are not modified.
func FuzzGram(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 0, 16, 2, 16, 1, 2, 3, 4})
	f.Add([]byte{6, 16, 4, 1, 0, 16, 3, 16, 9, 200, 7, 1, 3, 99, 250, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
	f.Add([]byte{16, 32, 10, 2, 0, 64, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17})
	f.Add([]byte{17, 5, 9, 0, 0, 8, 4, 240, 128, 127, 1, 255, 0, 64, 65, 66})
	f.Add([]byte{3, 3, 3, 0, 0, 0, 0, 0x7f, 0, 0, 0xc0, 0x7f}) // NaN value, odd gamma
	f.Add([]byte{2, 2, 1, 0, 0, 16, 0, 8, 0, 0, 0x80, 0x7f})   // +Inf value
	f.Add([]byte{1, 1, 0, 0, 0, 16, 2, 0, 0xff, 0xff, 0x7f, 0x7f})
	f.Fuzz(func(t *testing.T, data []byte) {
		in, ok := decodeGram(data)
		if !ok {
			return
		}
		keep := append([]float32(nil), in.X...)
		var first *gram.Matrix[float32]
		for _, im := range kernel.Impls() {
			if !im.Available() {
				continue
			}
			opts := &gram.Options{Impl: im, Threads: in.threads}
			m, err := gram.Compute(in.X, in.d, in.k, opts)
			for i := range keep {
				if math.Float32bits(in.X[i]) != math.Float32bits(keep[i]) {
					t.Fatalf("%s: Compute modified X[%d]", im.Name(), i)
				}
			}
			if err != nil {
				matched := 0
				for _, s := range gramSentinels {
					if errors.Is(err, s) {
						matched++
					}
				}
				if matched != 1 {
					t.Fatalf("%s: error %q wraps %d gram sentinels, want 1", im.Name(), err, matched)
				}
				if first != nil {
					t.Fatalf("%s fails (%v) where another implementation succeeded", im.Name(), err)
				}
				continue
			}
			if first == nil {
				first = m
			}
			checkGram(t, im.Name(), in, m)
			r, err := gram.NewRows(in.X, in.d, in.k, opts)
			if err != nil {
				t.Fatalf("%s: NewRows: %v after Compute succeeded", im.Name(), err)
			}
			c, err := gram.Cross(in.X, in.X, in.d, in.k, opts)
			if err != nil {
				t.Fatalf("%s: Cross: %v after Compute succeeded", im.Name(), err)
			}
			// RowsOfEach: every query's row once, Cross's values bit for bit.
			seen := make([]int, in.n)
			var mu sync.Mutex
			if err := r.RowsOfEach(in.X, in.threads, func(lo, hi int, K []float32) error {
				mu.Lock()
				defer mu.Unlock()
				for i := lo; i < hi; i++ {
					seen[i]++
					for j := range in.n {
						if v := K[(i-lo)*in.n+j]; math.Float32bits(v) != math.Float32bits(c.At(i, j)) {
							return fmt.Errorf("RowsOfEach[%d][%d] = %v, Cross = %v", i, j, v, c.At(i, j))
						}
					}
				}
				return nil
			}); err != nil {
				t.Fatalf("%s: %v", im.Name(), err)
			}
			for i, n := range seen {
				if n != 1 {
					t.Fatalf("%s: RowsOfEach handed query %d %d times", im.Name(), i, n)
				}
			}
			_, rbf := in.k.(gram.RBF)
			var row []float32
			for i := 0; i < in.n; i++ {
				row = r.Row(row, i)
				for j, v := range row {
					if v != m.At(i, j) {
						t.Fatalf("%s: Rows.Row(%d)[%d] = %v, Compute = %v", im.Name(), i, j, v, m.At(i, j))
					}
					if (i != j || !rbf) && c.At(i, j) != m.At(i, j) {
						t.Fatalf("%s: Cross[%d][%d] = %v, Compute = %v", im.Name(), i, j, c.At(i, j), m.At(i, j))
					}
				}
			}
		}
	})
}

func checkGram(t *testing.T, impl string, in gramInput, m *gram.Matrix[float32]) {
	t.Helper()
	n, d := in.n, in.d
	if m.Rows != n || m.Cols != n || len(m.Data) != n*n {
		t.Fatalf("%s: shape %d×%d, want %d×%d", impl, m.Rows, m.Cols, n, n)
	}
	_, rbf := in.k.(gram.RBF)
	for i := 0; i < n; i++ {
		if rbf && m.At(i, i) != 1 {
			t.Fatalf("%s: RBF diagonal [%d][%d] = %v", impl, i, i, m.At(i, i))
		}
		for j := 0; j < n; j++ {
			v := m.At(i, j)
			if math.Float32bits(v) != math.Float32bits(m.At(j, i)) {
				t.Fatalf("%s: [%d][%d] = %v but [%d][%d] = %v", impl, i, j, v, j, i, m.At(j, i))
			}
			if rbf && i == j {
				continue
			}
			ref, tol := gramRef(in.k, in.X[i*d:(i+1)*d], in.X[j*d:(j+1)*d])
			if in.exact {
				tol = 0
			}
			if !(math.Abs(float64(v)-ref) <= tol) {
				t.Fatalf("%s: %v [%d][%d] = %v, want %v ± %.3g", impl, in.k, i, j, v, ref, tol)
			}
		}
	}
}
