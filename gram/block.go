package gram

import (
	"fmt"

	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// Packed is a data set packed once (as both panels of the micro-kernel,
// with its norms checked) for repeated products: its own kernel matrix
// (GramInto) and blocks against other packed sets (CrossBlock), each
// written into a block of a larger matrix. A one-vs-one SVM packs each
// class once and assembles the kernel matrix of every pair of classes
// from them, where packing the two classes for every pair would pack each
// class k−1 times and allocate the packed copies again and again. The
// values are Compute's and Cross's, bit for bit. A Packed is safe for
// concurrent use; Release hands its memory back.
type Packed[T kernel.Float] struct {
	e *engine[T]
	s *set[T]
}

// Pack validates and packs the row-major set X (N×d) for kernel k. Errors
// are Compute's: ErrShape, ErrEmpty, ErrNonFinite, ErrOverflow,
// ErrInvalidKernel, ErrImpl, and ErrBudget if the packed copies exceed
// Options.MaxBytes. X is not modified and not retained.
func Pack[T kernel.Float](X []T, d int, k Kernel, opts *Options) (*Packed[T], error) {
	e, err := setup[T](k, opts)
	if err != nil {
		return nil, err
	}
	n, err := rowsOf(X, d, "X")
	if err != nil {
		return nil, err
	}
	if err := e.budget(0, int64(n)*int64(d)*2, "packed set"); err != nil {
		return nil, err
	}
	s, err := prepare(e, X, n, d, true, true)
	if err != nil {
		return nil, err
	}
	if err := e.checkOverflow(s.maxNorm); err != nil {
		s.release()
		return nil, err
	}
	return &Packed[T]{e: e, s: s}, nil
}

// Rows returns the number of rows of the packed set.
func (p *Packed[T]) Rows() int { return p.s.n }

// Release hands the packed copies back for reuse; p must not be used
// afterwards.
func (p *Packed[T]) Release() {
	p.s.release()
}

// withThreads returns p's engine, on threads goroutines if threads > 0.
func (p *Packed[T]) withThreads(threads int) *engine[T] {
	if threads <= 0 {
		return p.e
	}
	e := *p.e
	e.threads = threads
	return &e
}

// GramInto writes the N×N kernel matrix of the packed rows, Compute's
// values, into a block of a larger row-major matrix with row stride ld:
// dst[i·ld + j] = K(xᵢ, xⱼ). It runs on threads goroutines (0 means the
// Options the set was packed with). A stride below N or a dst too short
// for the block is an error wrapping ErrShape.
func (p *Packed[T]) GramInto(dst []T, ld, threads int) error {
	n := p.s.n
	if err := blockFits(len(dst), ld, n, n, "dst"); err != nil {
		return err
	}
	p.withThreads(threads).run(p.s, p.s, dst, ld, true)
	return nil
}

// CrossBlock writes the N×M kernel values K(pᵢ, qⱼ) of the rows of p and
// q into a block of a larger row-major matrix with row stride ld:
// dst[i·ld + j]. If mirror is not nil it also writes the transposed block,
// mirror[j·ld + i] = K(pᵢ, qⱼ), each tile transposed while it is still in
// cache: a symmetric matrix [Kpp Kpq; Kqp Kqq] is assembled from
// p.GramInto, q.GramInto and one CrossBlock (dst = the Kpq block, mirror =
// the Kqp block), without a second product. The values are Cross's, bit
// for bit. The blocks must not overlap; no other value of dst or mirror is
// written. It runs on threads goroutines (0 means p's Options). p and q
// must have been packed with the same kernel, implementation and width
// (ErrShape otherwise); a stride below the block's width, or a dst or
// mirror too short for its block, is an error wrapping ErrShape.
func (p *Packed[T]) CrossBlock(dst, mirror []T, ld int, q *Packed[T], threads int) error {
	if p.e.im != q.e.im || p.e.sp != q.e.sp || p.e.kc != q.e.kc || p.s.d != q.s.d {
		return fmt.Errorf("%w: sets packed for different kernels, implementations or widths", ErrShape)
	}
	na, nb := p.s.n, q.s.n
	if err := blockFits(len(dst), ld, na, nb, "dst"); err != nil {
		return err
	}
	if mirror != nil {
		if err := blockFits(len(mirror), ld, nb, na, "mirror"); err != nil {
			return err
		}
	}
	e := p.withThreads(threads)
	sa, sb := p.s, q.s
	tasks, _, _ := e.plan(sa, sb, false, 0)
	e.work(len(tasks), func(int) func(int) {
		w := worker[T]{e: e, sa: sa, sb: sb, C: dst, ldc: ld, tmp: make([]T, e.mk.mr*e.mk.nr)}
		return func(t int) {
			tk := tasks[t]
			w.block(tk)
			if mirror != nil {
				e.mk.trans(mirror[tk.j0*ld+tk.i0:], ld, dst[tk.i0*ld+tk.j0:], ld, tk.i1-tk.i0, tk.j1-tk.j0)
			}
		}
	})
	return nil
}

// blockFits checks that a rows×cols block with row stride ld fits in a
// slice of n values.
func blockFits(n, ld, rows, cols int, name string) error {
	if ld < cols || int64(n) < int64(rows-1)*int64(ld)+int64(cols) {
		return fmt.Errorf("%w: %s of %d values with stride %d does not hold a %d×%d block", ErrShape, name, n, ld, rows, cols)
	}
	return nil
}
