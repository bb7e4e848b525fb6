package svm

import (
	"context"
	"math"
	"math/bits"
	"math/rand/v2"

	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// This file holds the dual coordinate descent solver of the linear SVM
// (Hsieh, Chang, Lin, Keerthi & Sundararajan, ICML 2008; LIBLINEAR's
// solve_l2r_l1l2_svc):
//
//	min ½αᵀQ̄α − eᵀα  subject to  0 ≤ αᵢ ≤ U,   Q̄ = Q + D,  Qᵢⱼ = yᵢyⱼx̃ᵢ·x̃ⱼ,
//
// with U = C, Dᵢᵢ = 0 for the hinge loss (L1-loss SVM, LIBLINEAR -s 3) and
// U = ∞, Dᵢᵢ = 1/(2C) for the squared hinge (L2-loss, -s 1). The primal
// weight vector w = Σαᵢyᵢx̃ᵢ is kept up to date, so one coordinate step
// costs a dot product and an axpy with row i:
//
//	G = yᵢw·x̃ᵢ − 1 + Dᵢᵢαᵢ,   αᵢ ← min(max(αᵢ − G/Q̄ᵢᵢ, 0), U),   w += (Δαᵢyᵢ)·x̃ᵢ.
//
// x̃ᵢ = (xᵢ, B) carries LIBLINEAR's bias feature (-B): the bias b = B·w_B is
// regularised with w. Every outer iteration visits the active variables in
// a random order; shrinking drops a variable at a bound whose projected
// gradient lies outside the previous iteration's [PGmin, PGmax], and the
// solver stops when PGmax − PGmin ≤ ε on the full set (after unshrinking
// once the active set meets it), or after MaxIter iterations — exactly
// LIBLINEAR's rules.
//
// One-vs-rest machines share the passes over the data: a goroutine runs a
// group of classes in lockstep, visiting each row once per outer iteration
// for all the classes that have it active, so the row is read from memory
// once for all of them. The visiting order of outer iteration t is one
// permutation of all rows drawn from the seed (the same for every group),
// restricted to each class's active set; so a class's trajectory depends
// only on the seed and its own data, not on how classes are grouped or on
// Options.Workers.

// dcdClass is the state of one class's machine.
type dcdClass struct {
	cls      int32 // class index whose rows have y = +1
	pgmaxOld float64
	pgminOld float64
	pgmaxNew float64
	pgminNew float64
	iter     int
	nactive  int
	done     bool
	conv     bool
	gap      float64
}

// maxGroup is the largest number of classes a group runs in lockstep (the
// width of a row's active-class mask).
const maxGroup = 64

// Layout of a row's state: one block of stride float64s per row, read
// together (a pass visits rows in random order, so each row costs one
// cache miss for its state, not one per array):
//
//	[0] bits of the mask of classes that have the row active
//	[1] bits of the mask of classes for which the row is positive
//	[2] ‖xᵢ‖² + B² + Dᵢᵢ (Q̄ᵢᵢ)
//	[3 …] αᵢ of each class
const (
	stActive = 0
	stPos    = 1
	stQD     = 2
	stAlpha  = 3
)

// dcdGroup solves the machines of a group of classes in lockstep.
type dcdGroup[T kernel.Float] struct {
	rows    solverRows[T]
	n, d    int
	B       float64
	upper   float64 // U
	diag    float64 // Dᵢᵢ
	eps     float64
	maxIter int
	seed    uint64
	ctx     context.Context

	cs     []dcdClass
	W      []T // K×d, class by class (made by finalize when wi is used)
	wi     []T // d×K, interleaved: the solver's weights of sparse one-vs-rest rows (see visitRow)
	sp     sparseRow[T]
	kern   kernel.Kernels[T]
	tmp    []T       // a row's weights of one class (visitRow)
	iden   []int32   // 0, 1, 2, …: the positions of tmp
	wb     []float64 // bias weights
	stride int
	state  []float64 // n×stride, see stActive…
	alive  []uint64  // bit i: row i is active for some class
}

// sparseRow is the stored values of row i of sparse rows (csrRows), the
// kernels of their Dot and Axpy, and the most values a row has.
type sparseRow[T kernel.Float] interface {
	sparseRow(i int) (idx []int32, val []T)
	kernels() kernel.Kernels[T]
	maxRow() int
}

// newDCDGroup returns the group of classes. With interleave (sparse rows
// of one-vs-rest machines, a sparseRow) and at least interleaveMin classes
// the solver keeps the group's weights interleaved, column by column
// (visitRow).
func newDCDGroup[T kernel.Float](rows solverRows[T], cls []int32, sq []float64, classes []int32, B, upper, diag, eps float64, maxIter int, seed uint64, interleave bool, ctx context.Context) *dcdGroup[T] {
	n, d, k := rows.Len(), rows.Dim(), len(classes)
	stride := (stAlpha + k + 7) &^ 7 // whole 64-byte lines
	g := &dcdGroup[T]{
		rows: rows, n: n, d: d, B: B, upper: upper, diag: diag, eps: eps, maxIter: maxIter, seed: seed, ctx: ctx,
		cs: make([]dcdClass, k), wb: make([]float64, k),
		stride: stride, state: make([]float64, n*stride), alive: make([]uint64, (n+63)/64),
	}
	if sp, ok := rows.(sparseRow[T]); ok && interleave && k >= interleaveMin {
		g.sp, g.wi, g.kern = sp, make([]T, d*k), sp.kernels()
		g.tmp, g.iden = make([]T, sp.maxRow()), make([]int32, sp.maxRow())
		for n := range g.iden {
			g.iden[n] = int32(n)
		}
	} else {
		g.W = make([]T, k*d)
	}
	all := uint64(1)<<k - 1
	if k == 64 {
		all = ^uint64(0)
	}
	for c, cl := range classes {
		g.cs[c] = dcdClass{cls: cl, pgmaxOld: math.Inf(1), pgminOld: math.Inf(-1), nactive: n}
	}
	for i := range n {
		st := g.state[i*stride : (i+1)*stride]
		var pos uint64
		for c, cl := range classes {
			if cls[i] == cl {
				pos |= 1 << c
			}
		}
		st[stActive] = math.Float64frombits(all)
		st[stPos] = math.Float64frombits(pos)
		st[stQD] = sq[i] + B*B + diag
		g.alive[i/64] |= 1 << (i % 64)
	}
	return g
}

// alpha returns αᵢ of class c.
func (g *dcdGroup[T]) alpha(i, c int) float64 { return g.state[i*g.stride+stAlpha+c] }

func (g *dcdGroup[T]) solve() error {
	n, d := g.n, g.d
	rng := rand.New(rand.NewPCG(g.seed, 0x5eed5eed))
	perm := make([]int32, n)
	for i := range perm {
		perm[i] = int32(i)
	}
	running := len(g.cs)
	for running > 0 {
		if err := g.ctx.Err(); err != nil {
			return err
		}
		// The same permutation of all rows in every group, every class.
		for i := n - 1; i > 0; i-- {
			j := rng.IntN(i + 1)
			perm[i], perm[j] = perm[j], perm[i]
		}
		for c := range g.cs {
			g.cs[c].pgmaxNew, g.cs[c].pgminNew = math.Inf(-1), math.Inf(1)
		}
		for _, i32 := range perm {
			if i := int(i32); g.alive[i/64]&(1<<(i%64)) != 0 {
				if g.wi != nil {
					g.visitRow(i)
				} else {
					g.visit(i, d)
				}
			}
		}
		for c := range g.cs {
			cs := &g.cs[c]
			if cs.done {
				continue
			}
			cs.iter++
			cs.gap = cs.pgmaxNew - cs.pgminNew
			if cs.gap <= g.eps {
				if cs.nactive == n {
					cs.conv = true
					g.finish(c)
					running--
					continue
				}
				g.reactivate(c)
				cs.pgmaxOld, cs.pgminOld = math.Inf(1), math.Inf(-1)
			} else {
				cs.pgmaxOld, cs.pgminOld = cs.pgmaxNew, cs.pgminNew
				if cs.pgmaxOld <= 0 {
					cs.pgmaxOld = math.Inf(1)
				}
				if cs.pgminOld >= 0 {
					cs.pgminOld = math.Inf(-1)
				}
			}
			if cs.iter >= g.maxIter {
				g.finish(c)
				running--
			}
		}
	}
	return nil
}

// visit makes the coordinate steps of row i for every class that has it
// active (LIBLINEAR's inner loop, with its shrinking test).
func (g *dcdGroup[T]) visit(i, d int) {
	st := g.state[i*g.stride : (i+1)*g.stride]
	act := math.Float64bits(st[stActive])
	pos := math.Float64bits(st[stPos])
	qd := st[stQD]
	alpha := st[stAlpha:]
	for m := act; m != 0; m &= m - 1 {
		c := bits.TrailingZeros64(m)
		cs := &g.cs[c]
		w := g.W[c*d : (c+1)*d]
		yi := -1.0
		if pos&(1<<c) != 0 {
			yi = 1
		}
		a := alpha[c]
		G := yi*(float64(g.rows.Dot(i, w))+g.B*g.wb[c]) - 1 + a*g.diag
		na, keep, move := g.step(cs, a, G, qd)
		if !keep {
			act &^= 1 << c
			continue
		}
		if move {
			alpha[c] = na
			dy := (na - a) * yi
			g.rows.Axpy(i, T(dy), w)
			g.wb[c] += dy * g.B
		}
	}
	st[stActive] = math.Float64frombits(act)
	if act == 0 {
		g.alive[i/64] &^= 1 << (i % 64)
	}
}

// step is the coordinate step of class cs at a row whose αᵢ is a and whose
// gradient is G (LIBLINEAR's, with its shrinking test): keep is false if
// the row leaves the class's active set, move whether αᵢ moves to na.
func (g *dcdGroup[T]) step(cs *dcdClass, a, G, qd float64) (na float64, keep, move bool) {
	PG := 0.0
	switch {
	case a == 0:
		if G > cs.pgmaxOld {
			cs.nactive--
			return a, false, false
		} else if G < 0 {
			PG = G
		}
	case a == g.upper:
		if G < cs.pgminOld {
			cs.nactive--
			return a, false, false
		} else if G > 0 {
			PG = G
		}
	default:
		PG = G
	}
	cs.pgmaxNew = max(cs.pgmaxNew, PG)
	cs.pgminNew = min(cs.pgminNew, PG)
	if math.Abs(PG) > 1e-12 {
		return min(max(a-G/qd, 0), g.upper), true, true
	}
	return a, true, false
}

// visitRow is visit on sparse rows with the group's weights interleaved
// (wi[j·K + c] is w_c[j]): one-vs-rest machines of short texts share a row
// and thousands of used columns, so K class-by-class weight vectors make
// every coordinate step of every class a gather from a vector of its own,
// K cache misses per stored value, while interleaved the row's columns are
// one or two cache lines each for all K classes. Each class's dot product
// and update is visit's (the same kernel on the same values in the same
// positions of a gathered copy), so the machines are visit's, bit for
// bit, whatever the group's K.
func (g *dcdGroup[T]) visitRow(i int) {
	st := g.state[i*g.stride : (i+1)*g.stride]
	act := math.Float64bits(st[stActive])
	pos := math.Float64bits(st[stPos])
	qd := st[stQD]
	alpha := st[stAlpha:]
	idx, val := g.sp.sparseRow(i)
	k := len(g.cs)
	for m := act; m != 0; m &= m - 1 {
		c := bits.TrailingZeros64(m)
		cs := &g.cs[c]
		yi := -1.0
		if pos&(1<<c) != 0 {
			yi = 1
		}
		// The class's weights of the row's columns, gathered (the first
		// active class brings their lines into the cache for the others),
		// then the dot product of csrRows.Dot: the same kernel over the
		// values in the same positions, so the same bits.
		tmp := g.tmp[:len(idx)]
		for n, j := range idx {
			tmp[n] = g.wi[int(j)*k+c]
		}
		dot := g.kern.DotSparse(g.iden[:len(idx)], val, tmp)
		a := alpha[c]
		G := yi*(float64(dot)+g.B*g.wb[c]) - 1 + a*g.diag
		na, keep, move := g.step(cs, a, G, qd)
		if !keep {
			act &^= 1 << c
			continue
		}
		if move {
			alpha[c] = na
			dy := (na - a) * yi
			// csrRows.Axpy's kernel on the gathered weights, scattered back.
			g.kern.AxpySparse(T(dy), g.iden[:len(idx)], val, tmp)
			for n, j := range idx {
				g.wi[int(j)*k+c] = tmp[n]
			}
			g.wb[c] += dy * g.B
		}
	}
	st[stActive] = math.Float64frombits(act)
	if act == 0 {
		g.alive[i/64] &^= 1 << (i % 64)
	}
}

// setActive sets or clears class c's bit of every row.
func (g *dcdGroup[T]) setActive(c int, on bool) {
	for i := range g.n {
		st := g.state[i*g.stride : (i+1)*g.stride]
		act := math.Float64bits(st[stActive])
		if on {
			act |= 1 << c
		} else {
			act &^= 1 << c
		}
		st[stActive] = math.Float64frombits(act)
		if act != 0 {
			g.alive[i/64] |= 1 << (i % 64)
		} else {
			g.alive[i/64] &^= 1 << (i % 64)
		}
	}
}

// finish ends class c: its rows leave the active sets.
func (g *dcdGroup[T]) finish(c int) {
	g.cs[c].done = true
	g.setActive(c, false)
	g.cs[c].nactive = 0
}

// reactivate puts every row back into class c's active set.
func (g *dcdGroup[T]) reactivate(c int) {
	g.setActive(c, true)
	g.cs[c].nactive = g.n
}
