package gram

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// Packed.CrossBlock writes Cross's values, bit for bit, into its block and
// the transposed mirror block of a larger matrix, and GramInto Compute's
// into its block (on every path, with the default and small block sizes,
// on one and two goroutines); no other value of the matrix is touched.
func testCrossBlock[T kernel.Float](t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for _, sh := range crossShapes {
		na, nb, d := sh[0], sh[1], sh[2]
		A, B := randData[T](rng, na, d), randData[T](rng, nb, d)
		for _, k0 := range testKernels {
			k := kernelFor(k0, d)
			for _, path := range availablePaths() {
				for _, opts := range []*Options{{Impl: path}, {Impl: path, Threads: 1}, smallBlocks(path)} {
					what := fmt.Sprintf("%s/%v/%v/kc=%d/threads=%d", path, sh, k, opts.kc, opts.Threads)
					want, err := Cross(A, B, d, k, opts)
					if err != nil {
						t.Fatalf("%s: %v", what, err)
					}
					// The block at (1, na+2) of an (na+nb+3)-wide matrix,
					// the mirror at (na+2, 1): sentinels everywhere else.
					ld := na + nb + 3
					const sentinel = -7
					M := make([]T, (na+nb+3)*ld)
					for i := range M {
						M[i] = sentinel
					}
					pa, err := Pack(A, d, k, opts)
					if err != nil {
						t.Fatal(err)
					}
					pb, err := Pack(B, d, k, opts)
					if err != nil {
						t.Fatal(err)
					}
					if err := pa.CrossBlock(M[1*ld+na+2:], M[(na+2)*ld+1:], ld, pb, opts.Threads); err != nil {
						t.Fatalf("%s: CrossBlock: %v", what, err)
					}
					// A's own matrix at (1, 1), B's at (na+2, na+2).
					if err := pa.GramInto(M[1*ld+1:], ld, opts.Threads); err != nil {
						t.Fatalf("%s: GramInto: %v", what, err)
					}
					if err := pb.GramInto(M[(na+2)*ld+na+2:], ld, opts.Threads); err != nil {
						t.Fatalf("%s: GramInto: %v", what, err)
					}
					ga, err := Compute(A, d, k, opts)
					if err != nil {
						t.Fatal(err)
					}
					gb, err := Compute(B, d, k, opts)
					if err != nil {
						t.Fatal(err)
					}
					pa.Release()
					pb.Release()
					for r := range na + nb + 3 {
						for c := range ld {
							got := M[r*ld+c]
							var w T = sentinel
							switch {
							case r >= 1 && r < 1+na && c >= na+2 && c < na+2+nb:
								w = want.At(r-1, c-na-2)
							case c >= 1 && c < 1+na && r >= na+2 && r < na+2+nb:
								w = want.At(c-1, r-na-2)
							case r >= 1 && r < 1+na && c >= 1 && c < 1+na:
								w = ga.At(r-1, c-1)
							case r >= na+2 && r < na+2+nb && c >= na+2 && c < na+2+nb:
								w = gb.At(r-na-2, c-na-2)
							}
							if got != w && !(got != got && w != w) {
								t.Fatalf("%s: M[%d][%d] = %v, want %v", what, r, c, got, w)
							}
						}
					}
				}
			}
		}
	}
}

func TestCrossBlock(t *testing.T) {
	t.Run("f32", testCrossBlock[float32])
	t.Run("f64", testCrossBlock[float64])
}

// TestCrossBlockShape: a stride below the block's width, a slice too
// short for the block or sets packed differently are ErrShape, and nothing
// is written.
func TestCrossBlockShape(t *testing.T) {
	A := []float64{1, 2, 3, 4, 5, 6} // 3×2
	B := []float64{1, 0, 0, 1}       // 2×2
	pa, err := Pack(A, 2, Linear{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	pb, err := Pack(B, 2, Linear{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	pr, err := Pack(B, 2, RBF{Gamma: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name        string
		dst, mirror int
		ld          int
		q           *Packed[float64]
	}{
		{"stride below width", 100, 0, 1, pb},
		{"dst short", 2*5 + 1, 0, 5, pb},
		{"mirror stride below height", 100, 100, 2, pb},
		{"mirror short", 100, 1*5 + 2, 5, pb},
		{"other kernel", 100, 0, 5, pr},
	} {
		dst := make([]float64, c.dst)
		var mirror []float64
		if c.mirror > 0 {
			mirror = make([]float64, c.mirror)
		}
		err := pa.CrossBlock(dst, mirror, c.ld, c.q, 0)
		if !errors.Is(err, ErrShape) {
			t.Errorf("%s: err = %v, want ErrShape", c.name, err)
		}
		for i, v := range dst {
			if v != 0 {
				t.Fatalf("%s: dst[%d] = %v written", c.name, i, v)
			}
		}
	}
	if err := pa.GramInto(make([]float64, 2*4+2), 4, 0); !errors.Is(err, ErrShape) {
		t.Errorf("GramInto into a short block: err = %v, want ErrShape", err)
	}
	dst := make([]float64, 3*2)
	if err := pa.CrossBlock(dst, nil, 2, pb, 0); err != nil {
		t.Fatalf("exact fit: %v", err)
	}
	if want := []float64{1, 2, 3, 4, 5, 6}; fmt.Sprint(dst) != fmt.Sprint(want) {
		t.Errorf("A·Bᵀ with B = I: %v, want %v", dst, want)
	}
	if _, err := Pack([]float64{1, 2, 3}, 2, Linear{}, nil); !errors.Is(err, ErrShape) {
		t.Errorf("Pack of 3 values, d = 2: err = %v, want ErrShape", err)
	}
}
