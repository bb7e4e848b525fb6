package svm

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync/atomic"
	"unsafe"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/expansion"
	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/internal/parallel"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// Info describes a training run.
type Info struct {
	// Problems has one entry per binary machine, in the order of the
	// model's decision functions.
	Problems []Problem
	// Converged reports that every machine met the tolerance; false means
	// some machine stopped at MaxIter (its entry says which).
	Converged bool
	// Precomputed reports that the kernel SVM computed the kernel values
	// once and shared them between the machines: the N×N matrix, or for
	// one-vs-one the class blocks (see Options.GramBytes).
	Precomputed bool
}

// Problem describes one binary machine of a fit: the kernel SVM's (SMO) or
// the linear SVM's (dual coordinate descent, whose weights and bias are
// those of the augmented rows x̃ᵢ = (xᵢ, B)).
type Problem struct {
	// Positive is the label of the machine's y = +1 rows; Negative that of
	// its y = −1 rows, unless Rest is set (one-vs-rest: every other class).
	Positive, Negative int
	Rest               bool
	// Rows is the number of training rows of the machine.
	Rows int
	// Iterations is the number of SMO steps, or of the linear SVM's outer
	// iterations (passes over its active rows).
	Iterations int
	// Converged reports that the machine met the tolerance Tol on the
	// full set.
	Converged bool
	// Gap is the final maximal KKT violation m(α) − M(α) (SMO), or
	// PGmax − PGmin of the last pass (dual coordinate descent).
	Gap float64
	// Dual is the dual objective at the returned α, minimised: ½αᵀQα − Σαᵢ
	// (LIBSVM's "obj"), for the linear SVM ½‖w̃‖² + ½Σ Dᵢᵢαᵢ² − Σαᵢ
	// (LIBLINEAR's "Objective value") with w̃ = Σαᵢyᵢx̃ᵢ recomputed from α.
	Dual float64
	// Primal is ½‖w‖² + C·Σᵢ loss at the returned model (½‖w‖² for the
	// hard margin). Primal + Dual ≥ 0 is the duality gap, 0 at the
	// optimum.
	Primal float64
	// Bias is b: −ρ for the kernel SVM, B·w_B for the linear one.
	Bias float64
	// SV and BoundedSV count the support vectors (α > 0) and those at the
	// bound (α = C; none for the squared hinge, whose α has no bound).
	SV, BoundedSV int
	// Margin is 1/‖w‖, the distance from the decision boundary to the
	// margin hyperplanes w·φ(x) + b = ±1 (1/‖w̃‖ for the linear SVM); for
	// the hard margin (C = +Inf) it is the dual bound √D/2 ≥ γ_D on the
	// data's maximum margin, equal to γ_D to within Tol (MaxMargin
	// brackets γ_D from both sides).
	Margin float64
}

// problem is one binary machine: its rows (positive class first) and
// their labels.
type problem struct {
	pos, neg int // class indices; neg = −1 for "rest"
	rows     []int32
	y        []int8
}

// makeProblems lists the binary machines of a scheme, in the order of the
// model's decision functions.
func makeProblems(scheme fit.Scheme, k int, cls []int32) []problem {
	build := func(pos, neg int) problem {
		p := problem{pos: pos, neg: neg}
		for i, c := range cls {
			if int(c) == pos {
				p.rows = append(p.rows, int32(i))
				p.y = append(p.y, 1)
			}
		}
		for i, c := range cls {
			if int(c) != pos && (neg < 0 || int(c) == neg) {
				p.rows = append(p.rows, int32(i))
				p.y = append(p.y, -1)
			}
		}
		return p
	}
	var ps []problem
	switch scheme {
	case fit.Binary:
		ps = append(ps, build(1, 0))
	case fit.OneVsRest:
		for c := range k {
			ps = append(ps, build(c, -1))
		}
	default:
		for a := 0; a < k-1; a++ {
			for b := a + 1; b < k; b++ {
				ps = append(ps, build(b, a))
			}
		}
	}
	return ps
}

// solution is the result of one machine, with α in the problem's row
// order.
type solution struct {
	alpha []float64
	info  Problem
}

// trainDense fits a C-SVC on the row-major data X (d features per row) with
// labels y: binary for two distinct labels, one-vs-one or one-vs-rest
// (Options.Multiclass) for more. See trainDenseContext.
func trainDense[T kernel.Float](X []T, d int, y []int, opts Options) (*expansion.Model[T], *Info, error) {
	return trainDenseContext(context.Background(), X, d, y, opts)
}

// trainDenseContext is trainDense with a context: cancelling it stops training
// within about a thousand SMO iterations, and the error wraps the
// context's error.
//
// The model keeps copies of its support vectors; X and y are not
// modified. Errors wrap ErrEmpty, ErrDims, ErrNonFinite, ErrLabels (fewer
// than two classes), ErrOption, ErrBudget or, with C = +Inf,
// ErrNotSeparable. A machine that reaches Options.MaxIter is not an
// error: the model is returned and Info.Converged is false.
func trainDenseContext[T kernel.Float](ctx context.Context, X []T, d int, y []int, opts Options) (*expansion.Model[T], *Info, error) {
	n, err := checkShape(X, d, y)
	if err != nil {
		return nil, nil, err
	}
	cfg, err := opts.resolve(d)
	if err != nil {
		return nil, nil, err
	}
	if err := checkFinite(X, d); err != nil {
		return nil, nil, err
	}
	return solveAll(ctx, &trainer[T]{cfg: cfg, X: X, d: d, n: n}, y)
}

// solveAll trains the machines of tr's data (dense X or sparse sp) with labels
// y and assembles the model.
func solveAll[T kernel.Float](ctx context.Context, tr *trainer[T], y []int) (*expansion.Model[T], *Info, error) {
	cfg := tr.cfg
	labels, cls := classesOf(y)
	if len(labels) < 2 {
		return nil, nil, fmt.Errorf("%w: only one class (%d) in the labels", ErrLabels, labels[0])
	}
	scheme := fit.Binary
	switch {
	case len(labels) > 2 && cfg.multi == fit.Binary:
		return nil, nil, fmt.Errorf("%w: Multiclass = %v, but the labels have %d classes", ErrOption, cfg.multi, len(labels))
	case len(labels) > 2 && cfg.multi == fit.OneVsRest:
		scheme = fit.OneVsRest
	case len(labels) > 2:
		scheme = fit.OneVsOne
	}
	probs := makeProblems(scheme, len(labels), cls)
	tr.k, tr.labels = kernel.On[T](cfg.impl), labels
	tr.workers = max(1, min(cfg.threads, len(probs)))
	if err := tr.precompute(scheme, len(labels), cls); err != nil {
		return nil, nil, err
	}
	if tr.blocks != nil {
		defer tr.blocks.release()
	}
	sols, err := tr.run(ctx, probs)
	if err != nil {
		return nil, nil, err
	}
	info := &Info{Converged: true, Precomputed: tr.G != nil || tr.blocks != nil}
	for i, p := range probs {
		pi := sols[i].info
		pi.Positive = labels[p.pos]
		if p.neg >= 0 {
			pi.Negative = labels[p.neg]
		} else {
			pi.Rest = true
		}
		info.Problems = append(info.Problems, pi)
		info.Converged = info.Converged && pi.Converged
	}
	m, err := assemble(tr.X, tr.sp, tr.d, tr.n, labels, scheme, cfg, probs, sols)
	if err != nil {
		return nil, nil, err
	}
	return m, info, nil
}

// assemble builds the model from the machines' solutions: the union of
// their support vectors (in training row order) and an R×S coefficient
// matrix. The support vectors are copied from X, or from sp (as sparse
// rows) if it is not nil.
func assemble[T kernel.Float](X []T, sp *dataset.CSR[T], d, n int, labels []int, scheme fit.Scheme, cfg config, probs []problem, sols []solution) (*expansion.Model[T], error) {
	pos := make([]int32, n)
	for i := range pos {
		pos[i] = -1
	}
	for i, p := range probs {
		for q, a := range sols[i].alpha {
			if a > 0 {
				pos[p.rows[q]] = 0
			}
		}
	}
	var index []int
	for i, v := range pos {
		if v == 0 {
			pos[i] = int32(len(index))
			index = append(index, i)
		}
	}
	s := len(index)
	p := expansion.Parts[T]{Kernel: cfg.kern, Dims: d, Labels: labels, Scheme: scheme, Index: index,
		Coef: make([]T, len(probs)*s), Bias: make([]T, len(probs))}
	if sp != nil {
		p.Sparse = selectRows(sp, index)
	} else {
		p.SV = make([]T, s*d)
		for j, i := range index {
			copy(p.SV[j*d:(j+1)*d], X[i*d:(i+1)*d])
		}
	}
	for r, pr := range probs {
		for q, a := range sols[r].alpha {
			if a > 0 {
				p.Coef[r*s+int(pos[pr.rows[q]])] = T(a * float64(pr.y[q]))
			}
		}
		p.Bias[r] = T(sols[r].info.Bias)
	}
	m, err := expansion.Build(p, cfg.impl)
	if err != nil {
		if errors.Is(err, expansion.ErrNonFinite) {
			return nil, fmt.Errorf("%w: %w", ErrNonFinite, err)
		}
		return nil, fmt.Errorf("%w: %w", ErrOption, err)
	}
	return m, nil
}

// trainer runs the binary machines of one trainDense call.
type trainer[T kernel.Float] struct {
	cfg     config
	X       []T
	sp      *dataset.CSR[T] // sparse data (X nil): see sparse.go
	d, n    int
	k       kernel.Kernels[T]
	G       *gram.Matrix[T] // kernel matrix of all rows, or nil
	blocks  *classBlocks[T] // one-vs-one: per-class kernel matrices, or nil
	workers int
	labels  []int // the classes' labels, for the errors
}

// classBlocks holds what one-vs-one machines need to assemble their l×l
// kernel matrices without the N×N one: each class's rows packed once
// (gram.Pack) and its kernel matrix (diag). A machine's matrix
// [Kpp Kpn; Knp Knn] is assembled in its goroutine's storage from the two
// diagonal blocks and one gram Packed.CrossBlock for Kpn and its mirror Knp;
// every off-diagonal block belongs to one machine, so every kernel value
// is computed once, as the N×N matrix would, and the values are gram's,
// bit-identical to the N×N matrix's. The memory is Σ n_c² + workers·max l²
// values and two packed copies of the data, about 18 % of N² for ten equal
// classes on two goroutines: where fresh memory is dear (a virtual machine
// faults 400 MB in in about a second of system time) that is most of the
// difference to the N×N matrix. Only the kernel values are checked against
// GramBytes: classBlocks also makes an N×d copy of the rows sorted by class
// (dropped once packed) and the packed copies (gram.Pack with MaxBytes −1,
// kept for the fit), a few times the data's own size, which come on top.
type classBlocks[T kernel.Float] struct {
	packed []*gram.Packed[T]
	diag   []*gram.Matrix[T]
}

// workerState is what a goroutine keeps between its machines.
type workerState[T kernel.Float] struct {
	sub []T // storage of the last machine's kernel matrix
}

// problemErr names the machine of a hard-margin problem that is not
// separable (when there are more than two classes); other errors are
// returned as they are.
func (tr *trainer[T]) problemErr(p *problem, err error) error {
	if !errors.Is(err, ErrNotSeparable) || len(tr.labels) <= 2 {
		return err
	}
	if p.neg < 0 {
		return fmt.Errorf("class %d against the rest: %w", tr.labels[p.pos], err)
	}
	return fmt.Errorf("class %d against %d: %w", tr.labels[p.pos], tr.labels[p.neg], err)
}

// run solves the problems on tr.workers goroutines, largest first.
func (tr *trainer[T]) run(ctx context.Context, probs []problem) ([]solution, error) {
	order := make([]int, len(probs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return len(probs[b].rows) - len(probs[a].rows) })
	sols := make([]solution, len(probs))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var next atomic.Int64
	errs := make([]error, tr.workers)
	parallel.Run(tr.workers, func(w int) {
		ws := new(workerState[T])
		for {
			t := int(next.Add(1) - 1)
			if t >= len(order) {
				return
			}
			i := order[t]
			sol, err := tr.solve(ctx, &probs[i], ws)
			if err != nil {
				errs[w] = tr.problemErr(&probs[i], err)
				cancel()
				return
			}
			sols[i] = sol
		}
	})
	var ctxErr error
	for _, err := range errs {
		switch {
		case err == nil:
		case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
			ctxErr = err
		default:
			return nil, err
		}
	}
	if ctxErr != nil {
		return nil, fmt.Errorf("svm: training stopped: %w", ctxErr)
	}
	return sols, nil
}

// precompute computes the kernel matrices shared by the machines, if
// they fit Options.GramBytes: for one-vs-one the class blocks, else the
// N×N matrix. The class blocks take the same products as the N×N matrix
// and a fifth of its memory for ten classes (fresh memory is what the N×N
// matrix spent most of its time on: on Fashion-MNIST 10k on a quiet Zen 5
// guest, 0.25 s of products and up to a second of system time faulting in
// its 400 MB); for three classes they can take more than N², and the N×N
// matrix is used where it is smaller.
func (tr *trainer[T]) precompute(scheme fit.Scheme, k int, cls []int32) error {
	cfg := &tr.cfg
	if cfg.gramBytes < 0 {
		return nil
	}
	if tr.sp != nil {
		return tr.precomputeSparse()
	}
	size := int64(sizeOf[T]())
	n, d := int64(tr.n), tr.d
	gopts := &gram.Options{Impl: cfg.impl, Threads: cfg.threads, MaxBytes: -1}
	full := n * n * size
	if scheme == fit.OneVsOne {
		counts := make([]int64, k)
		for _, c := range cls {
			counts[c]++
		}
		var diag, lmax int64
		for a, na := range counts {
			diag += na * na
			for _, nb := range counts[a+1:] {
				lmax = max(lmax, na+nb)
			}
		}
		blocks := (diag + int64(tr.workers)*lmax*lmax) * size
		if blocks <= cfg.gramBytes && (blocks <= full || full > cfg.gramBytes) {
			b, err := tr.classBlocks(k, counts, cls)
			if err != nil {
				return err
			}
			tr.blocks = b
			return nil
		}
	}
	if full <= cfg.gramBytes {
		G := &gram.Matrix[T]{Data: dataset.Alloc[T](int(n * n))[:0]}
		G, err := gram.ComputeInto(G, tr.X, d, cfg.kern, gopts)
		if err != nil {
			return gramErr(err)
		}
		tr.G = G
	}
	return nil
}

// classBlocks packs each class and computes its kernel matrix, the
// classes spread over the goroutines. The diagonal blocks share one
// allocation (with huge pages where the system has them).
func (tr *trainer[T]) classBlocks(k int, counts []int64, cls []int32) (*classBlocks[T], error) {
	d := tr.d
	start := make([]int, k+1)
	var diag int
	for c := range k {
		start[c+1] = start[c] + int(counts[c])
		diag += int(counts[c] * counts[c])
	}
	// The rows sorted by class, for packing.
	sorted := dataset.Alloc[T](len(tr.X))
	fill := slices.Clone(start[:k])
	for i, c := range cls {
		copy(sorted[fill[c]*d:], tr.X[i*d:(i+1)*d])
		fill[c]++
	}
	b := &classBlocks[T]{packed: make([]*gram.Packed[T], k), diag: make([]*gram.Matrix[T], k)}
	slab := dataset.Alloc[T](diag)
	gopts := &gram.Options{Impl: tr.cfg.impl, Threads: max(1, tr.cfg.threads/tr.workers), MaxBytes: -1}
	errs := make([]error, k)
	var next atomic.Int64
	parallel.Run(tr.workers, func(int) {
		for {
			c := int(next.Add(1) - 1)
			if c >= k {
				return
			}
			n := int(counts[c])
			p, err := gram.Pack(sorted[start[c]*d:start[c+1]*d], d, tr.cfg.kern, gopts)
			if err != nil {
				errs[c] = gramErr(err)
				continue
			}
			b.packed[c] = p
			var off int
			for a := range c {
				off += int(counts[a] * counts[a])
			}
			m := &gram.Matrix[T]{Rows: n, Cols: n, Data: slab[off : off+n*n : off+n*n]}
			if err := p.GramInto(m.Data, n, 0); err != nil {
				errs[c] = gramErr(err)
				continue
			}
			b.diag[c] = m
		}
	})
	if err := errors.Join(errs...); err != nil {
		b.release()
		return nil, err
	}
	return b, nil
}

// release hands the packed classes back to gram.
func (b *classBlocks[T]) release() {
	for i, p := range b.packed {
		if p != nil {
			p.Release()
			b.packed[i] = nil
		}
	}
}

// pairMatrix assembles the kernel matrix of one-vs-one machine p (rows of
// class p.pos, then of class p.neg) in ws's storage: the classes' diagonal
// blocks copied, the off-diagonal block and its mirror computed by
// gram's Packed.CrossBlock on the goroutine's share of the threads.
func (tr *trainer[T]) pairMatrix(p *problem, ws *workerState[T]) (*gram.Matrix[T], error) {
	b := tr.blocks
	pos, neg := p.pos, p.neg
	np, nn := b.diag[pos].Rows, b.diag[neg].Rows
	l := np + nn
	if cap(ws.sub) < l*l {
		ws.sub = dataset.Alloc[T](l * l)
	}
	sub := ws.sub[:l*l]
	for i := range np {
		copy(sub[i*l:i*l+np], b.diag[pos].Row(i))
	}
	for j := range nn {
		copy(sub[(np+j)*l+np:(np+j+1)*l], b.diag[neg].Row(j))
	}
	threads := max(1, tr.cfg.threads/tr.workers)
	if err := b.packed[pos].CrossBlock(sub[np:], sub[np*l:], l, b.packed[neg], threads); err != nil {
		return nil, gramErr(err)
	}
	return &gram.Matrix[T]{Rows: l, Cols: l, Data: sub}, nil
}

// source returns the kernel column source of problem p, the source index
// of each of its rows and the kernel diagonal.
func (tr *trainer[T]) source(p *problem, ws *workerState[T]) (colSource[T], []int32, []float64, error) {
	l := len(p.rows)
	kd := make([]float64, l)
	if tr.blocks != nil && p.neg >= 0 {
		G, err := tr.pairMatrix(p, ws)
		if err != nil {
			return nil, nil, nil, err
		}
		gidx := make([]int32, l)
		for q := range gidx {
			gidx[q] = int32(q)
			kd[q] = float64(G.At(q, q))
		}
		return matrixSource[T]{G}, gidx, kd, nil
	}
	if tr.G != nil {
		for q, i := range p.rows {
			kd[q] = float64(tr.G.At(int(i), int(i)))
		}
		return matrixSource[T]{tr.G}, p.rows, kd, nil
	}
	if tr.sp != nil {
		return tr.sparseSource(p)
	}
	d := tr.d
	sub := make([]T, l*d)
	for q, i := range p.rows {
		copy(sub[q*d:(q+1)*d], tr.X[int(i)*d:int(i+1)*d])
	}
	gidx := make([]int32, l)
	for q := range gidx {
		gidx[q] = int32(q)
	}
	threads := max(1, tr.cfg.threads/tr.workers)
	gopts := &gram.Options{Impl: tr.cfg.impl, Threads: threads, MaxBytes: -1}
	if tr.cfg.gramBytes >= 0 && int64(l)*int64(l)*int64(sizeOf[T]()) <= tr.cfg.gramBytes/int64(tr.workers) {
		G, err := gram.Compute(sub, d, tr.cfg.kern, gopts)
		if err != nil {
			return nil, nil, nil, gramErr(err)
		}
		for q := range l {
			kd[q] = float64(G.At(q, q))
		}
		return matrixSource[T]{G}, gidx, kd, nil
	}
	c, err := gram.NewCache(sub, d, tr.cfg.kern, tr.cfg.cacheBytes/int64(tr.workers), gopts)
	if err != nil {
		if errors.Is(err, gram.ErrBudget) {
			return nil, nil, nil, fmt.Errorf("%w: CacheBytes/%d goroutines holds less than one kernel row of %d values: %w", ErrBudget, tr.workers, l, err)
		}
		return nil, nil, nil, gramErr(err)
	}
	if kd, err = kernelDiags(sub, d, tr.cfg.kern, gopts); err != nil {
		return nil, nil, nil, err
	}
	return cacheSource[T]{c}, gidx, kd, nil
}

// solve trains one binary machine.
func (tr *trainer[T]) solve(ctx context.Context, p *problem, ws *workerState[T]) (solution, error) {
	src, gidx, kd, err := tr.source(p, ws)
	if err != nil {
		return solution{}, err
	}
	l := len(p.rows)
	cfg := &tr.cfg
	info := Problem{Rows: l}
	if math.IsInf(cfg.c, 1) {
		r2 := slices.Max(kd)
		nr := newNearest(tr.k, src, p.y, gidx, kd, !cfg.noBias, 0, cfg.tol, floorD[T](tr.d, r2), cfg.iterCap(l), ctx)
		res, err := nr.solve()
		if err != nil {
			return solution{}, err
		}
		if !res.separable {
			if is32[T]() && res.iter < cfg.iterCap(l) {
				// float32 could not resolve the margin; float64 decides
				// (as MaxMargin and the diagnostics do).
				return tr.solve64(ctx, p)
			}
			return solution{}, notSeparable(res, true, tr.cfg.iterCap(l))
		}
		info.Iterations, info.Converged, info.Gap = res.iter, res.converged, res.gap
		info.Bias = res.bias
		info.Dual, info.Primal = -2/res.d, 2/res.d
		info.Margin = math.Sqrt(res.d) / 2
		for _, a := range res.alpha {
			if a > 0 {
				info.SV++
			}
		}
		return solution{alpha: res.alpha, info: info}, nil
	}
	s := newSMO(tr.k, src, p.y, gidx, kd, cfg.c, cfg.tol, cfg.shrinking && !cfg.noBias, cfg.iterCap(l), ctx)
	s.noBias = cfg.noBias
	res, err := s.solve()
	if err != nil {
		return solution{}, err
	}
	info.Iterations, info.Converged, info.Gap = res.iter, res.converged, res.gap
	info.Bias = -res.rho
	info.Dual = res.obj
	info.Primal = res.wsq/2 + cfg.c*res.hinge
	info.SV, info.BoundedSV = res.nsv, res.nbsv
	if res.wsq > 0 {
		info.Margin = 1 / math.Sqrt(res.wsq)
	} else {
		info.Margin = math.Inf(1)
	}
	return solution{alpha: res.alpha, info: info}, nil
}

// solve64 solves hard-margin machine p again in float64, on a float64
// copy of its rows: float32 data whose margin is below what float32 kernel
// values resolve are separable or not as float64 says, so that trainDense and
// MaxMargin (and the diagnostics, which solve in float64) agree. The
// machine's α and bias are float64's; the model stores them in T.
func (tr *trainer[T]) solve64(ctx context.Context, p *problem) (solution, error) {
	d, l := tr.d, len(p.rows)
	rows := make([]int32, l)
	for q := range rows {
		rows[q] = int32(q)
	}
	t64 := &trainer[float64]{cfg: tr.cfg, d: d, n: l, k: kernel.On[float64](tr.cfg.impl), workers: tr.workers, labels: tr.labels}
	if tr.sp != nil {
		idx := make([]int, l)
		for q, i := range p.rows {
			idx[q] = int(i)
		}
		sub := selectRows(tr.sp, idx)
		val := make([]float64, len(sub.Val))
		for i, v := range sub.Val {
			val[i] = float64(v)
		}
		t64.sp = &dataset.CSR[float64]{Ptr: sub.Ptr, Idx: sub.Idx, Val: val, Y: sub.Y, Rows: sub.Rows, Cols: sub.Cols}
	} else {
		t64.X = make([]float64, l*d)
		for q, i := range p.rows {
			for j, v := range tr.X[int(i)*d : int(i+1)*d] {
				t64.X[q*d+j] = float64(v)
			}
		}
	}
	return t64.solve(ctx, &problem{pos: p.pos, neg: p.neg, rows: rows, y: p.y}, new(workerState[float64]))
}

// notSeparable explains a failed hard-margin solve: the distance √D of
// the solver's last λ bounds the margin by √D/2 (two hulls) or √D (the
// hull of the yᵢφ(xᵢ) and the origin).
func notSeparable(r nearestResult, biased bool, maxIter int) error {
	dist := math.Sqrt(max(r.d, 0))
	bound := dist
	what := fmt.Sprintf("the convex hull of the yᵢφ(xᵢ) comes within %.3g of the origin", dist)
	if biased {
		bound /= 2
		what = fmt.Sprintf("the classes' convex hulls come within %.3g of each other", dist)
	}
	e := &NotSeparableError{Upper: bound, Resolved: r.iter < maxIter}
	if !e.Resolved {
		e.msg = fmt.Sprintf("%v: no separator found in %d iterations: %s, so the maximum margin is at most %.3g", ErrNotSeparable, r.iter, what, bound)
	} else {
		e.msg = fmt.Sprintf("%v: %s: the maximum margin is at most %.3g, below what the element type resolves", ErrNotSeparable, what, bound)
	}
	return e
}

// kernelDiags returns K(xᵢ, xᵢ) for the rows of the row-major X,
// computed by gram.Cross on blocks of rows so that the values are
// bit-identical to the diagonal of gram.Compute (and of the rows a Cache
// serves) on the same implementation.
func kernelDiags[T kernel.Float](X []T, d int, kern gram.Kernel, opts *gram.Options) ([]float64, error) {
	const block = 64
	n := len(X) / d
	kd := make([]float64, n)
	if _, ok := kern.(gram.RBF); ok {
		for i := range kd {
			kd[i] = 1 // gram's RBF diagonal is exactly 1
		}
		return kd, nil
	}
	for lo := 0; lo < n; lo += block {
		hi := min(n, lo+block)
		K, err := gram.Cross(X[lo*d:hi*d], X[lo*d:hi*d], d, kern, opts)
		if err != nil {
			return nil, gramErr(err)
		}
		for i := range hi - lo {
			kd[lo+i] = float64(K.At(i, i))
		}
	}
	return kd, nil
}

func sizeOf[T kernel.Float]() int {
	var z T
	return int(unsafe.Sizeof(z))
}
