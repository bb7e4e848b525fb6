package svm

import (
	"context"
	"math"

	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// This file holds the hard-margin solver. The hard-margin dual
//
//	min ½αᵀQα − eᵀα   subject to   yᵀα = 0 (biased only),  α ≥ 0
//
// is unbounded below when the data are not separable, so SMO with U = ∞
// run on it has nothing to converge to, and an iteration cap cannot tell a
// slow separable problem from an impossible one. We solve the same problem
// in its geometric form instead (Bennett & Bredensteiner, ICML 2000;
// Keerthi et al., IEEE TNN 11, 2000): the nearest points of two convex
// hulls in the kernel's feature space,
//
//	biased:   min ½‖Σᵢ λᵢyᵢφ(xᵢ)‖²  subject to  Σ_{yᵢ=+1} λᵢ = Σ_{yᵢ=−1} λᵢ = 1, λ ≥ 0,
//	unbiased: min ½‖Σᵢ λᵢyᵢφ(xᵢ)‖²  subject to  Σᵢ λᵢ = 1, λ ≥ 0,
//
// the distance D^½ between the two classes' hulls (biased), or from the
// origin to the hull of the yᵢφ(xᵢ) (unbiased). This problem is bounded for
// every data set, and
//
//   - the data are separable iff D* > 0, the maximum margin is
//     γ_D = √D*/2 (biased) or √D* (unbiased), and the hard-margin solution
//     is α = c·λ with c = 2/D* (biased) or 1/D* (unbiased): minimising
//     f(cλ) = ½c²D − c·Σλ over the scale c gives exactly these c;
//   - every feasible λ gives an upper bound: γ_D ≤ √D(λ)/2 (or √D(λ)), so
//     a small D(λ) proves that no separator has a larger margin.
//
// The solver is LIBSVM's ν-SVM SMO (Solver_NU: pairs of variables within
// one constraint group, second-order working set selection) without
// shrinking. It stops when α = c·λ, with c from the current λ, satisfies
// LIBSVM's criterion of the C-SVC with U = ∞, m(α) − M(α) ≤ ε — the same
// KKT accuracy trainDense asks of a soft-margin machine — and reports the data
// as not separable when D(λ) falls below the resolution of the element
// type (see floorD).

// nearest is the solver state. Positions are problem indices (no
// shrinking).
type nearest[T kernel.Float] struct {
	k       kernel.Kernels[T]
	src     colSource[T]
	l       int
	biased  bool
	off     float64 // constant added to every kernel value (a bias feature B²)
	eps     float64
	floor   float64 // D below this is "not separable"
	maxIter int
	ctx     context.Context

	y    []int8
	lam  []float64
	f    []T // Σ λₘyₘKₖₘ, without off
	sy   float64
	kd   []float64
	gidx []int32
	c0   []T // scratch columns
	c1   []T
	ck   []T
}

// nearestResult is the solution.
type nearestResult struct {
	alpha     []float64 // c·λ
	bias      float64   // b of f(x) = Σ αᵢyᵢK(xᵢ, x) + b
	d         float64   // D(λ) = ‖Σλᵢyᵢφᵢ‖² (with off)
	lower     float64   // Frank–Wolfe lower bound on D*
	gap       float64   // m(α) − M(α) of α = cλ
	iter      int
	converged bool
	separable bool // false: D fell below the floor
}

func newNearest[T kernel.Float](k kernel.Kernels[T], src colSource[T], y []int8, gidx []int32, kd []float64, biased bool, off, eps, floor float64, maxIter int, ctx context.Context) *nearest[T] {
	l := len(y)
	s := &nearest[T]{
		k: k, src: src, l: l, biased: biased, off: off, eps: eps, floor: floor, maxIter: maxIter, ctx: ctx,
		y: y, lam: make([]float64, l), f: make([]T, l), kd: kd, gidx: gidx,
		c0: make([]T, l), c1: make([]T, l), ck: make([]T, l),
	}
	return s
}

func (s *nearest[T]) column(dst []T, p int) []T {
	row := s.src.row(s.gidx[p])
	for q, g := range s.gidx {
		dst[q] = row[g]
	}
	return dst
}

// group returns the constraint group of position p: the class for the
// biased problem (0 for y = +1), 0 for all in the unbiased one.
func (s *nearest[T]) group(p int) int {
	if s.biased && s.y[p] < 0 {
		return 1
	}
	return 0
}

// move shifts weight t from position k to position i: λᵢ += t, λₖ −= t,
// updating f.
func (s *nearest[T]) move(i, k int, ci, ck []T, t float64) {
	s.lam[i] += t
	s.lam[k] -= t
	if s.lam[k] < 0 {
		s.lam[k] = 0
	}
	yi, yk := float64(s.y[i]), float64(s.y[k])
	s.k.Axpy(T(t*yi), ci, s.f)
	s.k.Axpy(T(-t*yk), ck, s.f)
	s.sy += t*yi - t*yk
}

func (s *nearest[T]) solve() (nearestResult, error) {
	ng := 1
	if s.biased {
		ng = 2
	}
	// Start from one point of each group with λ = 1.
	first := [2]int{-1, -1}
	for p := range s.l {
		if g := s.group(p); first[g] < 0 {
			first[g] = p
		}
	}
	for g := range ng {
		p := first[g]
		s.lam[p] = 1
		s.k.Axpy(T(s.y[p]), s.column(s.c0, p), s.f)
		s.sy += float64(s.y[p])
	}
	var r nearestResult
	var imin [2]int
	// Per group: the minimum of g over all members (the α problem's
	// I_up, U = ∞) and over those that can grow (λ < 1), the maximum over
	// λ > 0.
	var gmin, gminUp, gmaxPos [2]float64
	cols := [2][]T{s.c0, s.c1}
	iter := 0
	for {
		if iter%1000 == 0 {
			if err := s.ctx.Err(); err != nil {
				return r, err
			}
		}
		var D float64
		for g := range ng {
			imin[g] = -1
			gmin[g], gminUp[g], gmaxPos[g] = math.Inf(1), math.Inf(1), math.Inf(-1)
		}
		for p, fp := range s.f {
			gp := s.grad(p, fp)
			grp := s.group(p)
			gmin[grp] = min(gmin[grp], gp)
			lp := s.lam[p]
			if lp < 1 && gp < gminUp[grp] {
				gminUp[grp], imin[grp] = gp, p
			}
			if lp > 0 {
				D += lp * gp
				gmaxPos[grp] = max(gmaxPos[grp], gp)
			}
		}
		r.d = D
		// KKT violation of α = cλ in the α problem with U = ∞, and the
		// Frank–Wolfe lower bound D* ≥ D + 2·min_s ∇f·(s − λ).
		if s.biased {
			c := 2 / D
			m := max(1-c*gmin[0], c*gmaxPos[1]-1)
			M := min(1-c*gmaxPos[0], c*gmin[1]-1)
			r.gap = m - M
			r.lower = 2*(gmin[0]+gmin[1]) - D
		} else {
			r.gap = (gmaxPos[0] - gmin[0]) / D
			r.lower = 2*gmin[0] - D
		}
		if !(D > s.floor) {
			r.iter = iter
			return r, nil // not separable
		}
		if r.gap <= s.eps {
			r.converged = true
			break
		}
		if iter >= s.maxIter {
			break
		}
		iter++
		// Second-order choice of the variable to decrease, against the
		// first-order choice imin of its group to increase.
		var icol [2][]T
		for g := range ng {
			if imin[g] >= 0 {
				icol[g] = s.column(cols[g], imin[g])
			}
		}
		best, kbest := 0.0, -1
		var qbest, gdbest float64
		for p, lp := range s.lam {
			if lp <= 0 {
				continue
			}
			grp := s.group(p)
			i := imin[grp]
			if i < 0 {
				continue
			}
			gd := s.grad(p, s.f[p]) - gminUp[grp]
			if gd <= 0 {
				continue
			}
			yy := float64(s.y[i]) * float64(s.y[p])
			quad := s.kd[i] + s.kd[p] - 2*yy*(float64(icol[grp][p])+s.off)
			if quad <= 0 {
				quad = tau
			}
			if sc := gd * gd / quad; sc > best {
				best, kbest, qbest, gdbest = sc, p, quad, gd
			}
		}
		if kbest < 0 {
			break // no pair can move: optimal up to rounding
		}
		grp := s.group(kbest)
		t := min(gdbest/qbest, s.lam[kbest])
		s.move(imin[grp], kbest, icol[grp], s.column(s.ck, kbest), t)
	}
	r.iter = iter
	// Converged: α = cλ satisfies yᵢ(f(xᵢ) + b) ≥ 1 − ε > 0, a separator.
	// Stopped early: separable if the lower bound on D* is positive.
	r.separable = r.converged || r.lower > 0
	c := 2 / r.d
	if !s.biased {
		c = 1 / r.d
	}
	r.alpha = make([]float64, s.l)
	var sum float64
	var nfree int
	for p, lp := range s.lam {
		a := c * lp
		r.alpha[p] = a
		if a > 0 {
			gp := s.grad(p, s.f[p])
			sum += float64(s.y[p]) * (c*gp - 1) // yᵢGᵢ of the α problem
			nfree++
		}
	}
	switch {
	case s.biased:
		r.bias = -sum / float64(nfree)
	default:
		r.bias = s.off * c * s.sy // the bias feature's weight times B
	}
	return r, nil
}

// grad returns the gradient gₚ = yₚ·Σₘ λₘyₘ(Kₚₘ + off) of position p
// whose f value is fp.
func (s *nearest[T]) grad(p int, fp T) float64 {
	return float64(s.y[p]) * (float64(fp) + s.off*s.sy)
}

// floorD is the smallest D = ‖Σλᵢyᵢφᵢ‖² the solver trusts, for data of
// dimension d whose largest kernel diagonal is r2 = max Kᵢᵢ: the kernel
// values carry relative errors up to about (d+2)·u (gram's dot-product
// bound, plus the norms of RBF), and D sums (Σλ)² ≤ 4 of them, so below
// 16·(d+2)·u·r2 a computed D cannot be told from 0.
func floorD[T kernel.Float](d int, r2 float64) float64 {
	return 16 * float64(d+2) * unitRoundoff[T]() * r2
}
