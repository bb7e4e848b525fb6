package expansion

import (
	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// grouped is how a one-vs-one model reduces a kernel row to its decision
// values. Function (a, b) has non-zero coefficients only on the support
// vectors of classes a and b, so the R×S coefficient matrix of k classes
// is mostly zeros (R = k(k−1)/2 functions, each using about 2/k of the S
// support vectors): a dense product with the kernel row, as for
// one-vs-rest, would spend about k/2 times the multiply-adds needed and
// read the whole matrix for every sample. Instead the support vectors are
// ordered by class (the packed copy the kernel rows are computed from is
// in that order) and each class's group keeps the coefficients of the
// functions that use it as one dense block: a sample's decision values
// are one kernel.Dots per group, whose partial sums are added to those
// functions' values, about (k−1)·S multiply-adds on blocks that stay in
// cache. LIBSVM's svm_predict_values sums over the same two classes'
// ranges for each pair.
type grouped[T Float] struct {
	perm   []int // kernel row position p holds support vector perm[p]
	groups []svGroup[T]
	most   int // the largest len(funcs)
}

// svGroup is a run of kernel row positions and the functions using it.
type svGroup[T Float] struct {
	lo, hi int
	funcs  []int // the decision functions with a non-zero coefficient in [lo, hi)
	coef   []T   // len(funcs)×(hi−lo) coefficients, row-major
}

// groupSupport returns the grouping of the support vectors of a
// one-vs-one model with k classes, S support vectors and coefficients
// coef (R×S), or nil when it would not save at least half of the dense
// product's multiply-adds (other schemes, two classes, or coefficients
// that do not follow the classes). A support vector's group is the class
// its first non-zero coefficient votes for; one whose coefficients are
// all zero contributes nothing and is left out of every group. Any
// grouping gives the decision values (up to rounding): a function's
// coefficients outside its groups are zero.
func groupSupport[T Float](scheme fit.Scheme, k, s int, coef []T) *grouped[T] {
	if scheme != fit.OneVsOne || k < 3 || s == 0 {
		return nil
	}
	r := len(coef) / s
	cls := make([]int, s)
	count := make([]int, k+1)
	for i := range cls {
		cls[i] = k // no non-zero coefficient
		for f := 0; f < r; f++ {
			if c := coef[f*s+i]; c != 0 {
				a, b := pairOf(k, f)
				if c > 0 {
					cls[i] = b
				} else {
					cls[i] = a
				}
				break
			}
		}
		count[cls[i]]++
	}
	start := make([]int, k+2)
	for c := range k + 1 {
		start[c+1] = start[c] + count[c]
	}
	g := &grouped[T]{perm: make([]int, s)}
	next := append([]int(nil), start[:k+1]...)
	for i, c := range cls {
		g.perm[next[c]] = i
		next[c]++
	}
	cost := 0
	for c := range k {
		lo, hi := start[c], start[c+1]
		if lo == hi {
			continue
		}
		grp := svGroup[T]{lo: lo, hi: hi}
		for f := 0; f < r; f++ {
			for _, i := range g.perm[lo:hi] {
				if coef[f*s+i] != 0 {
					grp.funcs = append(grp.funcs, f)
					break
				}
			}
		}
		grp.coef = make([]T, len(grp.funcs)*(hi-lo))
		for t, f := range grp.funcs {
			row := grp.coef[t*(hi-lo):]
			for p, i := range g.perm[lo:hi] {
				row[p] = coef[f*s+i]
			}
		}
		cost += len(grp.coef)
		g.most = max(g.most, len(grp.funcs))
		g.groups = append(g.groups, grp)
	}
	if 2*cost > r*s {
		return nil
	}
	return g
}

// scores writes the decision values of the kernel row kr (in g's order)
// into dst: bias plus, per group, the partial sums of one Dots (part holds
// at least g.most values).
func (g *grouped[T]) scores(k kernel.Kernels[T], dst, kr, part, bias []T) {
	clear(dst)
	for i := range g.groups {
		grp := &g.groups[i]
		p := part[:len(grp.funcs)]
		k.Dots(p, grp.coef, kr[grp.lo:grp.hi])
		for t, f := range grp.funcs {
			dst[f] += p[t]
		}
	}
	for r, b := range bias {
		dst[r] += b
	}
}
