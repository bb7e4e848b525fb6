package svm

import (
	"context"
	"math"

	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// This file holds the SMO solver of the C-SVC dual (LIBSVM's Solver, Fan,
// Chen & Lin, JMLR 6, 2005):
//
//	min ½αᵀQα − eᵀα   subject to   yᵀα = 0,  0 ≤ αᵢ ≤ C,   Qᵢⱼ = yᵢyⱼKᵢⱼ.
//
// It follows LIBSVM's Solver::Solve step for step — second-order working
// set selection (WSS2), the two-variable update with its bound handling,
// shrinking with the unshrink at 10·ε, the gradient reconstruction from
// Ḡ, and calculate_rho — with one change of variables that makes the hot
// loops cheaper: instead of the gradient G = Qα − e it keeps
//
//	Fₖ = yₖGₖ = fₖ − yₖ,   fₖ = Σⱼ αⱼyⱼKₖⱼ (the decision value without bias),
//
// so that the update after a step on (i, j) is
//
//	F += (yᵢΔαᵢ)·K[:, i] + (yⱼΔαⱼ)·K[:, j]
//
// on unsigned kernel columns: two kernel.Axpy calls over the active prefix,
// with no sign flips. In these terms −yₜGₜ = −Fₜ, I_up = {y=+1, α<C} ∪
// {y=−1, α>0}, I_low = {y=+1, α>0} ∪ {y=−1, α<C}, m(α) = max_{I_up} −F,
// M(α) = min_{I_low} −F, and WSS2's quadratic coefficient is
// Kᵢᵢ + Kⱼⱼ − 2Kᵢⱼ for either sign pattern.
//
// Positions: as in LIBSVM, shrinking swaps variables so that the active
// ones form the prefix [0, active); every per-variable array is kept in
// position order and gidx maps a position to its index in the column
// source. Columns are gathered from the source's rows (a precomputed
// kernel matrix, or gram's LRU row cache) into two scratch slices in
// position order, so the update loop runs over contiguous memory.

// tau replaces a non-positive quadratic coefficient (LIBSVM's TAU).
const tau = 1e-12

// colSource gives kernel rows: row(p) is K(x_p, ·) over the source's index
// space, valid until the next call.
type colSource[T kernel.Float] interface {
	row(p int32) []T
}

// matrixSource serves rows of a precomputed kernel matrix.
type matrixSource[T kernel.Float] struct{ m *gram.Matrix[T] }

func (s matrixSource[T]) row(p int32) []T { return s.m.Row(int(p)) }

// cacheSource serves rows from gram's LRU row cache.
type cacheSource[T kernel.Float] struct{ c *gram.Cache[T] }

func (s cacheSource[T]) row(p int32) []T { return s.c.Row(int(p)) }

// Variable flags: membership of I_up and I_low, and the bound status.
const (
	fUp    uint8 = 1 << iota // in I_up: can move in the direction −y
	fLow                     // in I_low
	fLower                   // α = 0
	fUpper                   // α = C
)

// smoResult is the solution of one binary problem, in the problem's own
// index order.
type smoResult struct {
	alpha     []float64
	rho       float64 // b = −rho
	obj       float64 // ½αᵀQα − eᵀα
	wsq       float64 // αᵀQα = ‖w‖²
	hinge     float64 // Σ max(0, 1 − yᵢ(fᵢ + b))
	gap       float64 // m(α) − M(α) at the end
	iter      int
	converged bool
	nsv, nbsv int
}

// smo is the solver state of one binary problem.
type smo[T kernel.Float] struct {
	k         kernel.Kernels[T]
	src       colSource[T]
	l, active int
	c, eps    float64
	shrinking bool
	unshrink  bool
	noBias    bool // no bias: coordinate descent without Σαy = 0 (solveNoBias)
	maxIter   int
	ctx       context.Context

	// Per position.
	y     []int8
	alpha []float64
	F     []T // yₖGₖ
	Fbar  []T // yₖḠₖ = Σ_{α_m = C} C·y_m·K_{km}
	flags []uint8
	kd    []float64 // Kₖₖ
	gidx  []int32   // index in the column source
	orig  []int32   // index in the problem

	ci, cj []T // scratch columns, position order
	gap    float64
}

// newSMO prepares a problem: y (±1), the source index of every variable
// and the kernel diagonal, all in problem order.
func newSMO[T kernel.Float](k kernel.Kernels[T], src colSource[T], y []int8, gidx []int32, kd []float64, c, eps float64, shrinking bool, maxIter int, ctx context.Context) *smo[T] {
	l := len(y)
	s := &smo[T]{
		k: k, src: src, l: l, active: l, c: c, eps: eps, shrinking: shrinking, maxIter: maxIter, ctx: ctx,
		y: make([]int8, l), alpha: make([]float64, l), F: make([]T, l), Fbar: make([]T, l),
		flags: make([]uint8, l), kd: make([]float64, l), gidx: make([]int32, l), orig: make([]int32, l),
		ci: make([]T, l), cj: make([]T, l),
	}
	copy(s.y, y)
	copy(s.gidx, gidx)
	copy(s.kd, kd)
	for p := range l {
		s.orig[p] = int32(p)
		s.F[p] = T(-float64(y[p])) // α = 0: f = 0, F = −y
		s.flags[p] = s.flagsOf(p)
	}
	return s
}

// flagsOf computes the flags of position p from y and α.
func (s *smo[T]) flagsOf(p int) uint8 {
	a := s.alpha[p]
	var f uint8
	lb, ub := a <= 0, a >= s.c
	if lb {
		f |= fLower
	}
	if ub {
		f |= fUpper
	}
	if s.y[p] > 0 {
		if !ub {
			f |= fUp
		}
		if !lb {
			f |= fLow
		}
	} else {
		if !lb {
			f |= fUp
		}
		if !ub {
			f |= fLow
		}
	}
	return f
}

// column gathers K(x_p, x_q) for the positions q in [from, to) into
// dst[from:to].
func (s *smo[T]) column(dst []T, p, from, to int) {
	row := s.src.row(s.gidx[p])
	g := s.gidx[from:to]
	d := dst[from:to]
	for q, gi := range g {
		d[q] = row[gi]
	}
}

func (s *smo[T]) swap(i, j int) {
	s.y[i], s.y[j] = s.y[j], s.y[i]
	s.alpha[i], s.alpha[j] = s.alpha[j], s.alpha[i]
	s.F[i], s.F[j] = s.F[j], s.F[i]
	s.Fbar[i], s.Fbar[j] = s.Fbar[j], s.Fbar[i]
	s.flags[i], s.flags[j] = s.flags[j], s.flags[i]
	s.kd[i], s.kd[j] = s.kd[j], s.kd[i]
	s.gidx[i], s.gidx[j] = s.gidx[j], s.gidx[i]
	s.orig[i], s.orig[j] = s.orig[j], s.orig[i]
}

// solve runs SMO to the tolerance or the iteration cap. It returns the
// context's error if the context is cancelled.
func (s *smo[T]) solve() (smoResult, error) {
	if s.noBias {
		return s.solveNoBias()
	}
	l := s.l
	iter := 0
	counter := min(l, 1000) + 1
	converged := false
	for iter < s.maxIter {
		if counter--; counter == 0 {
			counter = min(l, 1000)
			if err := s.ctx.Err(); err != nil {
				return smoResult{}, err
			}
			if s.shrinking {
				s.shrink()
			}
		}
		i, j, ok := s.selectWorkingSet()
		if !ok {
			s.reconstruct()
			s.active = l
			i, j, ok = s.selectWorkingSet()
			if !ok {
				converged = true
				break
			}
			counter = 1 // shrink at the next iteration
		}
		iter++
		s.step(i, j)
	}
	if !converged && s.active < l {
		s.reconstruct()
		s.active = l
	}
	if !converged {
		s.measureGap()
	}
	return s.result(iter, converged), nil
}

// selectWorkingSet is LIBSVM's WSS2. It leaves column i in s.ci[:active]
// and the violation m(α) − M(α) in s.gap; ok is false when the violation
// is below ε (or no pair can move).
func (s *smo[T]) selectWorkingSet() (i, j int, ok bool) {
	n := s.active
	F, flags := s.F[:n], s.flags[:n]
	gmax := math.Inf(-1)
	i = -1
	for t, f := range flags {
		if f&fUp != 0 {
			if v := -float64(F[t]); v >= gmax {
				gmax, i = v, t
			}
		}
	}
	gmax2 := math.Inf(-1)
	j = -1
	if i >= 0 {
		s.column(s.ci, i, 0, n)
		ci := s.ci[:n]
		kd := s.kd[:n]
		kii := s.kd[i]
		objMin := math.Inf(1)
		for t, f := range flags {
			if f&fLow == 0 {
				continue
			}
			ft := float64(F[t])
			if ft >= gmax2 {
				gmax2 = ft
			}
			if gd := gmax + ft; gd > 0 {
				quad := kii + kd[t] - 2*float64(ci[t])
				if quad <= 0 {
					quad = tau
				}
				if od := -(gd * gd) / quad; od <= objMin {
					objMin, j = od, t
				}
			}
		}
	} else {
		for t, f := range flags {
			if f&fLow != 0 {
				gmax2 = max(gmax2, float64(F[t]))
			}
		}
	}
	s.gap = gmax + gmax2
	if s.gap < s.eps || j < 0 {
		return i, j, false
	}
	return i, j, true
}

// measureGap sets s.gap to m(α) − M(α) over the active set.
func (s *smo[T]) measureGap() {
	gmax, gmax2 := math.Inf(-1), math.Inf(-1)
	for t, f := range s.flags[:s.active] {
		if f&fUp != 0 {
			gmax = max(gmax, -float64(s.F[t]))
		}
		if f&fLow != 0 {
			gmax2 = max(gmax2, float64(s.F[t]))
		}
	}
	s.gap = gmax + gmax2
}

// step updates αᵢ and αⱼ (LIBSVM's update with its careful bound
// handling), then F, the flags and F̄.
func (s *smo[T]) step(i, j int) {
	n := s.active
	s.column(s.cj, j, 0, n)
	ci, cj := s.ci, s.cj
	yi, yj := float64(s.y[i]), float64(s.y[j])
	gi, gj := yi*float64(s.F[i]), yj*float64(s.F[j])
	quad := s.kd[i] + s.kd[j] - 2*float64(ci[j])
	if quad <= 0 {
		quad = tau
	}
	C := s.c
	oi, oj := s.alpha[i], s.alpha[j]
	ai, aj := oi, oj
	if s.y[i] != s.y[j] {
		delta := (-gi - gj) / quad
		diff := ai - aj
		ai += delta
		aj += delta
		if diff > 0 {
			if aj < 0 {
				aj, ai = 0, diff
			}
		} else if ai < 0 {
			ai, aj = 0, -diff
		}
		if diff > 0 { // C_i − C_j = 0
			if ai > C {
				ai, aj = C, C-diff
			}
		} else if aj > C {
			aj, ai = C, C+diff
		}
	} else {
		delta := (gi - gj) / quad
		sum := ai + aj
		ai -= delta
		aj += delta
		if sum > C {
			if ai > C {
				ai, aj = C, sum-C
			}
		} else if aj < 0 {
			aj, ai = 0, sum
		}
		if sum > C {
			if aj > C {
				aj, ai = C, sum-C
			}
		} else if ai < 0 {
			ai, aj = 0, sum
		}
	}
	s.alpha[i], s.alpha[j] = ai, aj
	dai, daj := ai-oi, aj-oj
	F := s.F[:n]
	if dai != 0 {
		s.k.Axpy(T(yi*dai), ci[:n], F)
	}
	if daj != 0 {
		s.k.Axpy(T(yj*daj), cj[:n], F)
	}
	ui, uj := s.flags[i]&fUpper != 0, s.flags[j]&fUpper != 0
	s.flags[i], s.flags[j] = s.flagsOf(i), s.flagsOf(j)
	if ui != (s.flags[i]&fUpper != 0) {
		s.column(ci, i, n, s.l)
		a := C * yi
		if ui {
			a = -a
		}
		s.k.Axpy(T(a), ci[:s.l], s.Fbar)
	}
	if uj != (s.flags[j]&fUpper != 0) {
		s.column(cj, j, n, s.l)
		a := C * yj
		if uj {
			a = -a
		}
		s.k.Axpy(T(a), cj[:s.l], s.Fbar)
	}
}

// beShrunk is LIBSVM's be_shrunk: a bounded variable that cannot be part
// of a violating pair while m and M stay where they are.
func (s *smo[T]) beShrunk(p int, gmax1, gmax2 float64) bool {
	f := s.flags[p]
	switch f & (fUp | fLow) {
	case fUp: // in I_up only
		return float64(s.F[p]) > gmax2
	case fLow: // in I_low only
		return -float64(s.F[p]) > gmax1
	}
	return false
}

// shrink is LIBSVM's do_shrinking.
func (s *smo[T]) shrink() {
	gmax1, gmax2 := math.Inf(-1), math.Inf(-1) // m(α) and −M(α)
	for t, f := range s.flags[:s.active] {
		if f&fUp != 0 {
			gmax1 = max(gmax1, -float64(s.F[t]))
		}
		if f&fLow != 0 {
			gmax2 = max(gmax2, float64(s.F[t]))
		}
	}
	if !s.unshrink && gmax1+gmax2 <= s.eps*10 {
		s.unshrink = true
		s.reconstruct()
		s.active = s.l
	}
	for p := 0; p < s.active; p++ {
		if s.beShrunk(p, gmax1, gmax2) {
			s.active--
			for s.active > p {
				if !s.beShrunk(s.active, gmax1, gmax2) {
					s.swap(p, s.active)
					break
				}
				s.active--
			}
		}
	}
}

// reconstruct recomputes F of the inactive variables from F̄ and the free
// variables (LIBSVM's reconstruct_gradient).
func (s *smo[T]) reconstruct() {
	n, l := s.active, s.l
	if n == l {
		return
	}
	for p := n; p < l; p++ {
		s.F[p] = s.Fbar[p] - T(s.y[p])
	}
	nfree := 0
	for _, f := range s.flags[:n] {
		if f&(fLower|fUpper) == 0 {
			nfree++
		}
	}
	if nfree*l > 2*n*(l-n) {
		for p := n; p < l; p++ {
			s.column(s.ci, p, 0, n)
			var sum float64
			for q, f := range s.flags[:n] {
				if f&(fLower|fUpper) == 0 {
					sum += s.alpha[q] * float64(s.y[q]) * float64(s.ci[q])
				}
			}
			s.F[p] += T(sum)
		}
	} else {
		for q, f := range s.flags[:n] {
			if f&(fLower|fUpper) == 0 {
				s.column(s.ci, q, n, l)
				s.k.Axpy(T(s.alpha[q]*float64(s.y[q])), s.ci[n:l], s.F[n:l])
			}
		}
	}
}

// result computes ρ (LIBSVM's calculate_rho), the objective values and
// the counts, and returns α in problem order. It needs every F current
// (active == l).
func (s *smo[T]) result(iter int, converged bool) smoResult {
	ub, lb := math.Inf(1), math.Inf(-1)
	nfree := 0
	var sumFree float64
	for p, f := range s.flags {
		v := float64(s.F[p])
		switch f & (fUp | fLow) {
		case fUp:
			ub = min(ub, v)
		case fLow:
			lb = max(lb, v)
		default:
			nfree++
			sumFree += v
		}
	}
	r := smoResult{iter: iter, converged: converged, gap: s.gap, alpha: make([]float64, s.l)}
	switch {
	case s.noBias:
	case nfree > 0:
		r.rho = sumFree / float64(nfree)
	default:
		r.rho = (ub + lb) / 2
	}
	b := -r.rho
	for p, a := range s.alpha {
		y := float64(s.y[p])
		F := float64(s.F[p])
		r.alpha[s.orig[p]] = a
		r.obj += a * (y*F - 1)
		r.wsq += a * y * (F + y) // αᵢyᵢfᵢ
		r.hinge += max(0, 1-y*(F+y+b))
		if a > 0 {
			r.nsv++
			if a >= s.c {
				r.nbsv++
			}
		}
	}
	r.obj /= 2
	return r
}

// solveNoBias minimises ½αᵀQα − eᵀα over 0 ≤ α ≤ C without the equality
// constraint (the machine without a bias) by coordinate descent: each
// step takes the variable of largest projected gradient |PGₚ| (Gₚ =
// (Qα)ₚ − 1, clipped at a bound it cannot cross) and minimises exactly in
// it, αₚ ← clip(αₚ − Gₚ/Qₚₚ, 0, C), updating every Gₖ by one kernel
// column. It stops when max |PG| ≤ ε (s.gap holds it).
func (s *smo[T]) solveNoBias() (smoResult, error) {
	l := s.l
	iter := 0
	counter := min(l, 1000) + 1
	converged := false
	for iter < s.maxIter {
		if counter--; counter == 0 {
			counter = min(l, 1000)
			if err := s.ctx.Err(); err != nil {
				return smoResult{}, err
			}
		}
		best, p := 0.0, -1
		for q := range l {
			g := float64(s.y[q]) * float64(s.F[q]) // Gq = yq·Fq
			a := s.alpha[q]
			switch {
			case a <= 0:
				g = min(g, 0)
			case a >= s.c:
				g = max(g, 0)
			}
			if math.Abs(g) > best {
				best, p = math.Abs(g), q
			}
		}
		s.gap = best
		if p < 0 || best <= s.eps {
			converged = true
			break
		}
		if !(s.kd[p] > 0) {
			break // a zero kernel row cannot move (its gradient stays −1)
		}
		iter++
		yp := float64(s.y[p])
		g := yp * float64(s.F[p])
		old := s.alpha[p]
		na := min(max(old-g/s.kd[p], 0), s.c)
		s.alpha[p] = na
		d := (na - old) * yp
		if d == 0 {
			continue
		}
		s.column(s.ci, p, 0, l)
		s.k.Axpy(T(d), s.ci[:l], s.F[:l]) // Fₖ = yₖGₖ += Δαₚ·yₚ·K(xₚ, xₖ)
	}
	return s.result(iter, converged), nil
}
