package perceptron

import (
	"slices"
	"unsafe"

	"github.com/rosenblatt-go/rosenblatt/internal/linmodel"
	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/linear"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/internal/modelkern"
	"github.com/rosenblatt-go/rosenblatt/internal/parallel"
	"github.com/rosenblatt-go/rosenblatt/internal/usedcols"
)

// One-vs-rest on sparse data. A sparse sample's score for class c gathers
// one weight per stored value from class c's weight vector; with K classes
// stored one after the other (the trainer's K×D layout), scoring a sample
// for all of them touches K cache lines per stored value, scattered over
// K·D weights that do not fit in the caches for text-sized D. So for the
// sequential perceptrons (Online, Averaged, Voted: the algorithms the dense
// epochBlock serves) each goroutine keeps its classes' weights (and
// averaging sums) interleaved by feature, in blocks of up to eight classes:
// block b holds feature j of its classes side by side at [j·w, j·w+w),
// w ≤ 8 its width. Scoring a sample for a block then reads one cache line
// per stored value (two at most, where a feature's values straddle a line
// boundary), and the sums run as independent chains.
//
// The blocks are the weights during the epochs; the trainer's K×D W and U
// are brought up to date from them (syncOut) where they are read: at the
// end of training, and before a pass over the data with fixed weights.
// Training from zero weights (no Init, not Voted)
// makes no K×D W and U unless such a pass needs them (ensureDense): the
// model's weights are written straight from the blocks at the end
// (fromBlocks), in one pass over the used columns, so a fit writes each of
// the model's K×D arrays once; an Averaged fit writes no K×D array at all:
// it keeps its served average (compactServed) and its running weights and
// sums (compactAvg) compact until a dense use, a continuation, Update or
// MarshalJSON needs them dense (fromBlocksCompact). The
// updates check the values they write, so the end of an epoch needs no
// scan of the weights for non-finite values (diverged).
//
// Online and Averaged skip a visit every class of the group gets right, so
// a group of one block (at most eight classes: newOvrGroups cuts a
// worker's classes into such groups, which it trains one after the other)
// hands its epoch to modelkern.ScanBlock2, which scores the visits in pairs
// and returns only at one that some class gets wrong: most visits of a few
// epochs never leave the kernel (on the manual pages' NAME lines, Zen 5,
// the epochs took 4.6 ms instead of 8.2, BenchmarkTextOvRParts in
// bench/results/text/mantext-scan-parts-zen5.txt).
//
// Each class's score is one sequential sum over the sample's stored values
// in order, whatever its block or group, so the model does not depend on
// Workers.
//
// The blocks hold only the features the data uses: text rows of 2²⁰
// hashed features use a few percent of them (the manual pages' NAME lines
// 33 000), and a fit's weights in the blocks then fit in the caches. The
// trainer renumbers the used columns 0..Du−1 most frequent first (ovrCols:
// a copy of the column indices, renumbered, with the rows' offsets and
// values shared), trains in that space, and syncIn/syncOut gather and
// scatter the used columns of the K×D W and U, whose other columns no
// update touches (they keep the start's values, zero by default).

// blockWidth is the most classes one block interleaves: eight float32
// weights of a feature fill half a cache line, eight float64 one.
const blockWidth = 8

// blockPad is the values a block of width w has past its last feature:
// scoreBlock (modelkern.ScoreBlock) may read eight lanes for widths 5 to 8.
func blockPad(w int) int {
	if w > 4 {
		return blockWidth - w
	}
	return 0
}

// ovrGroup is classes c0..c0+G−1 of a worker's range, interleaved in
// blocks (a worker trains its range's groups one after the other).
type ovrGroup[T kernel.Float] struct {
	c0, G, d int        // d: the used features (ovrCols)
	W, U     [][]T      // per block: d × width values; U nil unless Averaged
	ahead    [][]T      // scores of the visits scored with it (epochSparseOvR), scoreAhead of them
	vis      []ovrVisit // the epoch's visits (visitsOf; the first group of a worker's range)
	tmp      []T        // D values: a class's weights scattered (Voted, checks)
	tmpU     []T        // D values: a class's averaging sums scattered (checks)
}

// ovrCols is the data renumbered to the features it uses: the rows with
// their column indices replaced by the features' ranks (rows; offsets and
// values are the data's), and m.Cols[r] the column of rank r (the most frequent first).
type ovrCols[T kernel.Float] struct {
	rows *sparseRows[T]
	m    *usedcols.Columns // m.Cols: the column of each rank; and their lookup (compactServed)
}

// usedCols renumbers the columns of sp (d columns) that hold a stored
// value 0..Du−1, the most frequent first (usedcols.RenumberByCount).
func usedCols[T kernel.Float](sp *sparseRows[T], d int) *ovrCols[T] {
	idx := poolI32.get(len(sp.idx))
	m := usedcols.RenumberByCount(idx, sp.idx, d)
	return &ovrCols[T]{rows: &sparseRows[T]{ptr: sp.ptr, idx: idx, val: sp.val}, m: m}
}

// vec returns sample i with its columns renumbered.
func (o *ovrCols[T]) vec(i int) vec[T] {
	lo, hi := o.rows.ptr[i], o.rows.ptr[i+1]
	return vec[T]{idx: o.rows.idx[lo:hi:hi], val: o.rows.val[lo:hi:hi]}
}

// block returns class c's block, its width and its lane in it.
func (g *ovrGroup[T]) block(c int) (b, w, l int) {
	r := c - g.c0
	b = r / blockWidth
	return b, min(blockWidth, g.G-b*blockWidth), r % blockWidth
}

// newOvrGroups returns the blocks of every class's group (one entry per
// class), for the workers' ranges of classes grp. With split, a range of
// more than blockWidth classes is cut into groups of at most blockWidth
// (as even as may be), each a single block, which the worker trains one
// after the other: every visit of an epoch is then scanned group by group
// (modelkern.ScanBlock2), where a range's several blocks would be scored
// visit by visit. A class's updates depend only on its own scores, so
// the model is the same either way.
func newOvrGroups[T kernel.Float](grp [][2]int, K, d int, averaged, split bool) []*ovrGroup[T] {
	byClass := make([]*ovrGroup[T], K)
	var cut [][2]int
	for _, r := range grp {
		n := 1
		if split {
			n = (r[1] - r[0] + blockWidth - 1) / blockWidth
		}
		for i := range n {
			cut = append(cut, [2]int{r[0] + i*(r[1]-r[0])/n, r[0] + (i+1)*(r[1]-r[0])/n})
		}
	}
	for _, r := range cut {
		g := &ovrGroup[T]{c0: r[0], G: r[1] - r[0], d: d}
		for range scoreAhead {
			g.ahead = append(g.ahead, make([]T, g.G))
		}
		for b := 0; b*blockWidth < g.G; b++ {
			w := min(blockWidth, g.G-b*blockWidth)
			pool := poolOf[T]()
			g.W = append(g.W, pool.getOr(d*w+blockPad(w), dataset.Alloc[T]))
			if averaged {
				g.U = append(g.U, pool.getOr(d*w+blockPad(w), dataset.Alloc[T]))
			}
		}
		for c := r[0]; c < r[1]; c++ {
			byClass[c] = g
		}
	}
	return byClass
}

// groupsOf returns each group once, in class order.
func groupsOf[T kernel.Float](byClass []*ovrGroup[T]) []*ovrGroup[T] {
	return groupsIn(byClass, 0, len(byClass))
}

// groupsIn returns the groups of classes c0..c1−1 (whole groups), in class
// order.
func groupsIn[T kernel.Float](byClass []*ovrGroup[T], c0, c1 int) []*ovrGroup[T] {
	var gs []*ovrGroup[T]
	for c := c0; c < c1; c += byClass[c].G {
		gs = append(gs, byClass[c])
	}
	return gs
}

// byWorker runs f on the groups of each worker's range of classes
// (groups(K, t.cw)), one range per goroutine (parallel.Run: one on the
// caller, a worker's panic re-raised there).
func (t *linTrainer[T]) byWorker(f func(g *ovrGroup[T])) {
	grp := groups(t.K, t.cw)
	parallel.Run(len(grp), func(w int) {
		for _, g := range groupsIn(t.blk, grp[w][0], grp[w][1]) {
			f(g)
		}
	})
}

// syncIn copies the used columns of the trainer's K×D W and U into the
// blocks.
func (t *linTrainer[T]) syncIn() {
	d, cols := t.dt.d, t.ovr.m.Cols
	for _, g := range groupsOf(t.blk) {
		for c := g.c0; c < g.c0+g.G; c++ {
			b, w, l := g.block(c)
			interleave(g.W[b], t.W[c*d:(c+1)*d], cols, w, l)
			if g.U != nil {
				interleave(g.U[b], t.U[c*d:(c+1)*d], cols, w, l)
			}
		}
	}
}

// syncOut copies the blocks into the used columns of the trainer's K×D W
// and U (made first if they are not: ensureDense), each worker's groups
// on a goroutine of their own (byWorker).
func (t *linTrainer[T]) syncOut() {
	t.ensureDense()
	d, cols := t.dt.d, t.ovr.m.Cols
	t.byWorker(func(g *ovrGroup[T]) { t.syncOutGroup(g, d, cols) })
}

// syncOutGroup is syncOut for the classes of group g.
func (t *linTrainer[T]) syncOutGroup(g *ovrGroup[T], d int, cols []int32) {
	for c := g.c0; c < g.c0+g.G; c++ {
		b, w, l := g.block(c)
		deinterleave(t.W[c*d:(c+1)*d], g.W[b], cols, w, l)
		if g.U != nil {
			deinterleave(t.U[c*d:(c+1)*d], g.U[b], cols, w, l)
		}
	}
}

// ensureDense makes the trainer's K×D W (and U, for Averaged) if a
// training from zero weights has not made them yet (newLinTrainer): zero,
// as the columns no update touches are.
func (t *linTrainer[T]) ensureDense() {
	if t.W != nil {
		return
	}
	n := t.K * t.dt.d
	t.W = dataset.Alloc[T](n)
	if t.UB != nil {
		t.U = dataset.Alloc[T](n)
	}
}

// clearBlocks sets the blocks' weights and sums to zero (a reset to a zero
// start while W and U are not made).
func (t *linTrainer[T]) clearBlocks() {
	for _, g := range groupsOf(t.blk) {
		for b := range g.W {
			clear(g.W[b])
			if g.U != nil {
				clear(g.U[b])
			}
		}
	}
}

// fromBlocks returns the model's K×D weights written straight from the
// blocks, for a training from zero weights whose W and U were never made
// (ensureDense): the running weights W, and for Averaged the sums U and
// the average A = W − U/steps (averageOf's values, bit for bit). The
// columns the data does not use are zero in all three, as they would be
// in W and U; each worker's groups are written on a goroutine of their
// own (byWorker), in one pass over the used columns. t.step must be positive.
//
// It also sets servedN2 to the squared norm of each class's served weights
// (A, or W for Online), summed in float64 over the used columns as it
// writes them, for diagnose (sqNorm would read all K×D values again), and
// servedOK to whether they are all finite, for servedFinite.
func (t *linTrainer[T]) fromBlocks() (W, U, A []T) {
	W, U, A, _ = t.writeBlocks(false)
	return W, U, A
}

// fromBlocksCompact is fromBlocks for Averaged with everything kept
// compact: it returns the served average of the used columns
// (compactServed: no K×D array at all) and the running weights and sums
// of the used columns (compactAvg; the other columns are zero, as
// fromBlocks writes them). The trainer's columns must be the model's (no
// augmented column).
func (t *linTrainer[T]) fromBlocksCompact() (*linmodel.CompactServed[T], *linmodel.CompactAvg[T]) {
	_, _, A, avg := t.writeBlocks(true)
	return linmodel.NewCompactServed(t.ovr.m, A, t.dt.d), avg
}

// writeBlocks is fromBlocks, or with compact (Averaged only), the arrays
// of fromBlocksCompact: the average A compact (K × (len(cols)+1), as
// compactServed lays it out) and the compact running weights and sums.
func (t *linTrainer[T]) writeBlocks(compact bool) (W, U, A []T, avg *linmodel.CompactAvg[T]) {
	d, cols, n := t.dt.d, t.ovr.m.Cols, t.K*t.dt.d
	nc := len(cols)
	switch {
	case compact:
		// dataset.Alloc: the whole pages of bench/textset use 553 000
		// columns, 13 MB a class block, and the fresh arrays fault in as
		// huge pages.
		A = dataset.Alloc[T](t.K * (nc + 1))
		avg = &linmodel.CompactAvg[T]{Cols: cols, W: dataset.Alloc[T](t.K * nc), U: dataset.Alloc[T](t.K * nc)}
	case t.UB != nil:
		W, U, A = dataset.Alloc[T](n), dataset.Alloc[T](n), dataset.Alloc[T](n)
	default:
		W = dataset.Alloc[T](n)
	}
	steps := T(t.step)
	n2 := make([]float64, t.K)
	nf := make([]T, t.K) // Σ v − v per class: 0 exactly when every served value is finite
	t.byWorker(func(g *ovrGroup[T]) {
		// The columns in chunks, every class of the group over a chunk
		// before the next: a class reads every w-th value of its
		// interleaved block, and a chunk of the block stays in the cache
		// for the group's other classes (class by class over all the
		// columns, each class read the whole block from memory again).
		// Each class's sums still run over the columns in order.
		for lo := 0; lo < len(cols); lo += writeChunk {
			hi := min(lo+writeChunk, len(cols))
			for c := g.c0; c < g.c0+g.G; c++ {
				b, w, l := g.block(c)
				bw := g.W[b]
				s, f := n2[c], nf[c]
				switch {
				case compact:
					bu := g.U[b]
					ac := A[c*(nc+1) : c*(nc+1)+nc][lo:hi]
					cw, cu := avg.W[c*nc+lo:c*nc+hi], avg.U[c*nc+lo:c*nc+hi]
					for r := range ac {
						p := (lo+r)*w + l
						wv, uv := bw[p], bu[p]
						a := wv - uv/steps
						cw[r], cu[r], ac[r] = wv, uv, a
						s += float64(a) * float64(a)
						f += a - a
					}
				case U == nil:
					wc := W[c*d : (c+1)*d]
					for r, j := range cols[lo:hi] {
						v := bw[(lo+r)*w+l]
						wc[j] = v
						s += float64(v) * float64(v)
						f += v - v
					}
				default:
					wc, uc, ac, bu := W[c*d:(c+1)*d], U[c*d:(c+1)*d], A[c*d:(c+1)*d], g.U[b]
					for r, j := range cols[lo:hi] {
						p := (lo+r)*w + l
						wv, uv := bw[p], bu[p]
						a := wv - uv/steps
						wc[j], uc[j], ac[j] = wv, uv, a
						s += float64(a) * float64(a)
						f += a - a
					}
				}
				n2[c], nf[c] = s, f
			}
		}
	})
	t.servedN2, t.servedOK = n2, !slices.ContainsFunc(nf, func(f T) bool { return f != 0 })
	return W, U, A, avg
}

// releaseBlocks gives the blocks, the visits and the renumbered indices
// to the scratch pools (slicePool), once syncOut or the model has copied
// the blocks for the last time; the trainer must not train again.
func (t *linTrainer[T]) releaseBlocks() {
	pool := poolOf[T]()
	for _, g := range groupsOf(t.blk) {
		for b := range g.W {
			pool.put(g.W[b])
			if g.U != nil {
				pool.put(g.U[b])
			}
		}
		poolVisit.put(g.vis)
		g.W, g.U, g.vis = nil, nil, nil
	}
	poolI32.put(t.ovr.rows.idx)
	t.ovr.rows.idx = nil
}

// zeroOutside reports whether the columns the data does not use hold zero
// weights and sums (a training without a start), so that the served
// weights are zero there too.
func (t *linTrainer[T]) zeroOutside() bool {
	st := t.start
	return t.ovr != nil && (st == nil || st.W == nil && st.U == nil)
}

// servedFinite reports whether the served weights W (K×d) are all finite:
// with zeroOutside, only the used columns are read; written by fromBlocks,
// none (it checked them as it wrote them).
func (t *linTrainer[T]) servedFinite(W []T) bool {
	if t.servedN2 != nil { // fromBlocks wrote W, and checked it
		return t.servedOK
	}
	if !t.zeroOutside() || len(W) != t.K*t.dt.d {
		return linmodel.AllFinite(W)
	}
	d := t.dt.d
	var bad T
	for c := range t.K {
		w := W[c*d : (c+1)*d]
		for _, j := range t.ovr.m.Cols {
			bad += w[j] - w[j]
		}
	}
	return bad == 0
}

// servedDots returns the served weights' scores for evaluate (the final
// pass): from the blocks (the running weights, or for Averaged the
// average w − u/steps formed block by block, as averageOf forms it), with
// scoreBlock on the renumbered rows. The scores are the model's up to the
// order of the sums (the same for integer data).
//
// It must come after finish, which has copied the blocks into the model:
// the average is formed in place of the averaging sums, which are not
// read again (releaseBlocks).
func (t *linTrainer[T]) servedDots() func(dst []T, lo, hi int) {
	gs := groupsOf(t.blk)
	served := make([][][]T, len(gs))
	steps := T(t.step)
	for gi, g := range gs {
		served[gi] = g.W
		if g.U != nil {
			served[gi] = g.U
			for b, w := range g.W {
				u := g.U[b][:len(w)]
				for p, v := range w {
					u[p] = v - u[p]/steps
				}
			}
		}
	}
	K := t.K
	return func(dst []T, lo, hi int) {
		for gi, g := range gs {
			for b, blk := range served[gi] {
				c0, c1 := g.c0+b*blockWidth, g.c0+min((b+1)*blockWidth, g.G)
				i := lo
				for ; i+1 < hi; i += 2 { // two rows at a time, as the epochs score them
					r := (i - lo) * K
					scoreBlock2(dst[r+c0:r+c1], dst[r+K+c0:r+K+c1], blk, t.ovr.vec(i), t.ovr.vec(i+1))
				}
				if i < hi {
					r := (i - lo) * K
					scoreBlock(dst[r+c0:r+c1], blk, t.ovr.vec(i))
				}
			}
		}
	}
}

// interleave sets lane of the block to the columns cols of w.
func interleave[T kernel.Float](blk, w []T, cols []int32, width, lane int) {
	for r, j := range cols {
		blk[r*width+lane] = w[j]
	}
}

// deinterleave sets the columns cols of w to lane of the block.
func deinterleave[T kernel.Float](w, blk []T, cols []int32, width, lane int) {
	for r, j := range cols {
		w[j] = blk[r*width+lane]
	}
}

// weights returns class c's weight vector (in the trainer's layout): a
// view of W, or with blocks, the class's weights scattered into a scratch
// vector valid until the next call for the group (its other columns are
// W's: no update changes them).
func (t *linTrainer[T]) weights(c int) []T { return t.vector(false, c) }

// sums returns class c's averaging sums as weights returns its weights
// (nil unless Averaged).
func (t *linTrainer[T]) sums(c int) []T {
	if t.UB == nil {
		return nil
	}
	return t.vector(true, c)
}

// vector is weights, or with sums, sums.
func (t *linTrainer[T]) vector(sums bool, c int) []T {
	d := t.dt.d
	if t.blk == nil {
		if sums {
			return t.U[c*d : (c+1)*d]
		}
		return t.W[c*d : (c+1)*d]
	}
	g := t.blk[c]
	blocks, tmp := g.W, &g.tmp
	if sums {
		blocks, tmp = g.U, &g.tmpU
	}
	b, w, l := g.block(c)
	all := t.W // the unused columns: never updated, W's and U's are current
	if sums {
		all = t.U
	}
	if all == nil { // a zero start, W and U not made (ensureDense)
		*tmp = slices.Grow((*tmp)[:0], d)[:d]
		clear(*tmp)
	} else {
		*tmp = append((*tmp)[:0], all[c*d:(c+1)*d]...)
	}
	deinterleave(*tmp, blocks[b], t.ovr.m.Cols, w, l)
	return *tmp
}

// add adds a·x to class c's weights.
func (t *linTrainer[T]) add(c int, a T, x vec[T], s *classStats) { t.addTo(false, c, a, x, s) }

// addU adds a·x to class c's averaging sums.
func (t *linTrainer[T]) addU(c int, a T, x vec[T], s *classStats) { t.addTo(true, c, a, x, s) }

// addTo is add, or with sums, addU.
func (t *linTrainer[T]) addTo(sums bool, c int, a T, x vec[T], s *classStats) {
	if t.blk == nil {
		d := t.dt.d
		all := t.W
		if sums {
			all = t.U
		}
		axpyv(t.k, a, x, all[c*d:(c+1)*d])
		return
	}
	g := t.blk[c]
	blocks := g.W
	if sums {
		blocks = g.U
	}
	b, w, l := g.block(c)
	if !scatterFinite(blocks[b], w, l, a, x) {
		s.NonFinite = true
	}
}

// scatterFinite adds a·x to the lane of a block and reports whether every
// value it wrote is finite (v − v is 0 exactly for a finite v).
func scatterFinite[T kernel.Float](blk []T, width, lane int, a T, x vec[T]) bool {
	var bad T
	val := x.val[:len(x.idx)]
	for k, j := range x.idx {
		p := int(j)*width + lane
		v := blk[p] + a*val[k]
		blk[p] = v
		bad += v - v
	}
	return bad == 0
}

// epochSparseOvR runs one epoch of a sequential perceptron for the classes
// of group g over the epoch's visits vis (visitsOf, shared by a worker's
// groups): each sample is scored for the group's classes, block by block,
// then visited for each class in turn (a class's update changes no other
// class's score).
//
// The samples are scored two at a time (scoreBlock2: two independent
// chains of sums, so one sample's latency overlaps the other's): visit j's
// scores come with visit j+1's, computed before visit j's updates. Those of
// visit j+1 are used only if no weight changed in between (visit reports
// it: most visits of a few epochs change nothing); else the sample is
// scored again. Each score is thus the one a visit-by-visit scoring gives,
// bit for bit. Online and Averaged (one block a group) scan instead
// (modelkern.ScanBlock2, scanChunk visits a call): the visits every class of
// the group gets right, which they skip anyway, never leave the kernel,
// and the pair it stops in comes back scored as scoreBlock2 scores it.
func (t *linTrainer[T]) epochSparseOvR(g *ovrGroup[T], vis []ovrVisit, stats []classStats) {
	coef := T(t.cfg.eta)
	// Online and Averaged do nothing on a correctly classified sample
	// (a finite score of the right sign): visit only the others.
	fast := t.scans()
	// g.ahead[next:have] hold the scores of visits j.. with the current
	// weights.
	next, have := 0, 0
	B := t.B[g.c0 : g.c0+g.G]
	// Online and Averaged scan (modelkern.ScanBlock2: their groups are one
	// block each, newOvrGroups): the kernel scores the visits on until
	// one is wrong for some class of the group, and returns its scores and
	// those of the visit it paired it with. Voted scores pair by pair.
	rows := t.ovr.rows
	for j := 0; j < len(vis); j++ {
		if next == have {
			if fast {
				n := 0
				for n == 0 && j < len(vis) {
					var s int
					s, n = t.k.ScanBlock2(g.ahead[0], g.ahead[1], g.W[0], rows.idx, rows.val, vis[j:min(len(vis), j+scanChunk)], B, g.c0)
					j += s
				}
				if n == 0 {
					break // every visit left was right
				}
				have, next = n, 0
			} else {
				have, next = t.scoreVisits(g, vis, j), 0
			}
		}
		sc := g.ahead[next][:len(B)]
		next++
		v := &vis[j]
		yc := int(v.Class) - g.c0 // the row's class in the group, if there
		for r, b := range B {
			a := sc[r] + b
			if fast && a-a == 0 && (a > 0) == (r == yc) && a != 0 {
				continue
			}
			if t.visit(g.c0+r, int(v.Row), t.ovr.visitVec(v), a, t.step+int64(j), coef, &stats[g.c0+r]) {
				have = next // the later scores are stale
			}
		}
	}
}

// writeChunk is how many used columns writeBlocks writes for every class
// of a group before the next columns: a chunk of a block of eight
// classes' weights and sums, 2·4096·8·4 bytes for float32 (128 KiB), stays
// in a core's L2 while the group's classes read it.
const writeChunk = 4096

// scanChunk is the most visits epochSparseOvR hands modelkern.ScanBlock2 at
// once: an assembly call cannot be preempted, so a scan of a whole epoch
// of long rows would hold up the garbage collector's stop of the world
// (and the other workers waiting for it) for a large part of a second;
// 512 visits of the whole manual pages (516 stored values each, about
// 1.4 µs a visit in their epochs) take about 0.7 ms, and a call per 512
// visits measured no slower on the NAME lines
// (bench/results/text/mantext-scan-chunk-zen5.txt).
const scanChunk = 512

// scans reports whether the one-vs-rest epochs scan (modelkern.ScanBlock2):
// Online and Averaged, which skip the visits every class gets right, and
// whose groups newOvrGroups therefore cuts to one block each.
func (t *linTrainer[T]) scans() bool { return t.cfg.algo != linear.Voted }

// ovrVisit is a visit of an epoch: where its stored values are in the
// renumbered rows (ovrCols: Lo, Hi), the row and its class
// (modelkern.ScanBlock2 reads such lists).
type ovrVisit = modelkern.Visit

// visitsOf returns the epoch's visits in order, in g's scratch. Looking
// the rows up here, in a loop whose loads are independent of one another,
// takes the cache misses of the shuffled rows' offsets and classes off
// the visits' path (the epochs of a fit of the manual pages' NAME lines
// measured 16% faster than with each visit looking its row up).
func (t *linTrainer[T]) visitsOf(g *ovrGroup[T]) []ovrVisit {
	E := t.smp.Visits
	if cap(g.vis) < E {
		g.vis = poolVisit.get(E)
	}
	vis, ptr := g.vis[:E], t.ovr.rows.ptr
	for j := range vis {
		i := t.rowAt(j)
		vis[j] = ovrVisit{Lo: ptr[i], Hi: ptr[i+1], Row: int32(i), Class: t.cls[i]}
	}
	return vis
}

// visitVec returns the renumbered sample of visit v.
func (o *ovrCols[T]) visitVec(v *ovrVisit) vec[T] {
	return vec[T]{idx: o.rows.idx[v.Lo:v.Hi:v.Hi], val: o.rows.val[v.Lo:v.Hi:v.Hi]}
}

// scoreAhead is how many visits epochSparseOvR scores at once (the scan,
// modelkern.ScanBlock2, pairs them likewise, prefetching the rows of the
// pair after next itself): 2
// (modelkern.ScoreBlock2). On the NAME lines of the manual pages
// (bench/textset, Zen 5) four at once (a ScoreBlock4 interleaving four
// samples' sums) measured no faster, and software prefetches of the rows
// a few visits ahead by calls of their own (modelkern.PrefetchRow) measured
// slower (BenchmarkTextOvRBound, bench/results/text/mantext-bound-zen5.txt);
// the prefetch that rides on the scoring call (modelkern.ScoreBlock2Ahead,
// prefetchAhead visits ahead) took the 10 scoring passes from 8.3 to 6.2 ms
// and the fit from 15.7 to 13.4 ms (medians of BenchmarkTextOvRParts,
// bench/results/text/mantext-parts-session-zen5.txt).
const scoreAhead = 2

// prefetchAhead is how many visits ahead of the pair it scores
// scoreVisits asks for the rows of the next pair but one: the pair after
// next measured as fast as the next one on the NAME lines, and leaves the
// longer rows of the whole pages more time.
const prefetchAhead = 4

// scoreVisits sets g.ahead[k] to the scores of the sample of visit j+k
// for k < n = min(scoreAhead, len(vis)−j), block by block, and returns n;
// it asks the processor for the start of the rows of visits
// j+prefetchAhead and the one after, where there are such visits.
func (t *linTrainer[T]) scoreVisits(g *ovrGroup[T], vis []ovrVisit, j int) int {
	x := t.ovr.visitVec(&vis[j])
	if j+1 == len(vis) {
		for b, blk := range g.W {
			scoreBlock(g.ahead[0][b*blockWidth:min((b+1)*blockWidth, g.G)], blk, x)
		}
		return 1
	}
	y := t.ovr.visitVec(&vis[j+1])
	var ahead [4]uintptr // nothing to fetch: address 0, which a prefetch ignores
	if p := j + prefetchAhead; p+1 < len(vis) {
		rows := t.ovr.rows
		ahead = [4]uintptr{
			rowAddr(rows.idx, vis[p].Lo), rowAddr(rows.val, vis[p].Lo),
			rowAddr(rows.idx, vis[p+1].Lo), rowAddr(rows.val, vis[p+1].Lo),
		}
	}
	for b, blk := range g.W {
		lo, hi := b*blockWidth, min((b+1)*blockWidth, g.G)
		t.k.ScoreBlock2Ahead(g.ahead[0][lo:hi], g.ahead[1][lo:hi], blk, x.idx, x.val[:len(x.idx)], y.idx, y.val[:len(y.idx)], &ahead)
	}
	return 2
}

// rowAddr is the address of s[lo] (of s's end for lo = len(s)), for a
// prefetch: a hint, never read through.
func rowAddr[E any](s []E, lo int) uintptr {
	return uintptr(unsafe.Pointer(unsafe.SliceData(s[lo:])))
}

// scoreBlock sets dst[l] = Σₖ x.val[k]·blk[x.idx[k]·w + l] for the w =
// len(dst) classes of a block: each a sequential sum over the stored
// values, the classes' sums in independent lanes (modelkern.ScoreBlock: one
// YMM vector on amd64, the Go loop elsewhere, bit for bit the same sums).
// A lane's sum is the same whatever w, so the model does not depend on the
// blocking.
func scoreBlock[T kernel.Float](dst, blk []T, x vec[T]) {
	modelkern.ScoreBlock(dst, blk, x.idx, x.val[:len(x.idx)])
}

// scoreBlock2 is scoreBlock of x into dst and of y into dsty
// (modelkern.ScoreBlock2: the two samples' sums interleaved, bit for bit
// those of two scoreBlock calls).
func scoreBlock2[T kernel.Float](dst, dsty, blk []T, x, y vec[T]) {
	modelkern.ScoreBlock2(dst, dsty, blk, x.idx, x.val[:len(x.idx)], y.idx, y.val[:len(y.idx)])
}
