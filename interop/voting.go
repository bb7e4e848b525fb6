package interop

import (
	"fmt"
	"io"
	"slices"
	"sync"

	"github.com/rosenblatt-go/rosenblatt/expansion"

	"github.com/rosenblatt-go/rosenblatt/dataset"
)

// Voting is a binary or one-vs-one expansion.Model[float64] read from a LIBSVM file whose
// labels are not in increasing order, predicting as svm-predict does: a
// class with as many votes as another wins if the file lists it first,
// and a decision value of exactly 0 votes for the pair's class the file
// lists second. (The expansion.Model alone breaks vote ties in increasing label
// order.) Its other methods are the expansion.Model's.
type Voting struct {
	*expansion.Model[float64]
	rank   []int // the file position of each class, in increasing label order
	labels []int // increasing
	pool   sync.Pool
}

// newVoting returns m predicting with the file order rank.
func newVoting(m *expansion.Model[float64], rank []int) *Voting {
	return &Voting{Model: m, rank: rank, labels: m.Classes()}
}

// WriteLIBSVM writes the model as a LIBSVM file with the labels in the
// order of the file it was read from, so that svm-predict breaks ties as
// before; see the package function WriteLIBSVM.
func (v *Voting) WriteLIBSVM(w io.Writer) error { return writeLIBSVM[float64](w, v.Model, v.rank) }

// MarshalBinary refuses: the module's formats have no vote order, and the
// expansion.Model (v.Model) alone would break ties differently. Write v with
// WriteLIBSVM, or marshal v.Model to accept that.
func (v *Voting) MarshalBinary() ([]byte, error) { return nil, errVoting }

// MarshalJSON refuses, as MarshalBinary does.
func (v *Voting) MarshalJSON() ([]byte, error) { return nil, errVoting }

var errVoting = fmt.Errorf("%w: a LIBSVM model whose labels are not in increasing order breaks vote ties in its file's order, which the module's formats do not hold (write it in LIBSVM's format, or marshal its Model field to break ties in increasing label order)", ErrUnsupported)

// String describes the model.
func (v *Voting) String() string {
	return v.Model.String() + ", votes counted in LIBSVM's label order"
}

type votes struct {
	sc    []float64
	count []int
}

func (v *Voting) get(rows int) *votes {
	s, _ := v.pool.Get().(*votes)
	if s == nil {
		s = &votes{count: make([]int, len(v.rank))}
	}
	if n := rows * v.NumScores(); cap(s.sc) < n {
		s.sc = make([]float64, n)
	}
	s.sc = s.sc[:rows*v.NumScores()]
	return s
}

// decide counts the votes of one sample's decision values sc.
func (v *Voting) decide(sc []float64, count []int) int {
	clear(count)
	k := len(v.rank)
	r := 0
	for a := 0; a < k-1; a++ {
		for b := a + 1; b < k; b++ {
			switch {
			case sc[r] > 0:
				count[b]++
			case sc[r] < 0:
				count[a]++
			case v.rank[a] > v.rank[b]: // 0: the class listed second
				count[a]++
			default:
				count[b]++
			}
			r++
		}
	}
	best := 0
	for c := 1; c < k; c++ {
		if count[c] > count[best] || count[c] == count[best] && v.rank[c] < v.rank[best] {
			best = c
		}
	}
	return v.labels[best]
}

// Predict returns the label svm-predict gives x.
func (v *Voting) Predict(x []float64) (int, error) {
	s := v.get(1)
	defer v.pool.Put(s)
	if err := v.Scores(s.sc, x); err != nil {
		return 0, err
	}
	return v.decide(s.sc, s.count), nil
}

// PredictSparse returns the label svm-predict gives the sparse sample x.
func (v *Voting) PredictSparse(x dataset.SparseRow[float64]) (int, error) {
	s := v.get(1)
	defer v.pool.Put(s)
	if err := v.ScoresSparse(s.sc, x); err != nil {
		return 0, err
	}
	return v.decide(s.sc, s.count), nil
}

// votingBlock is the number of rows whose decision values the batch
// methods hold at once.
const votingBlock = 256

// PredictBatch writes the label of each row of X (Dims columns) to dst.
func (v *Voting) PredictBatch(dst []int, X []float64) error {
	d := v.Dims()
	if len(X)%d != 0 || len(dst) != len(X)/d {
		return fmt.Errorf("%w: len(X) = %d, Dims = %d, len(dst) = %d", expansion.ErrDims, len(X), d, len(dst))
	}
	r := v.NumScores()
	for lo := 0; lo < len(dst); lo += votingBlock {
		hi := min(lo+votingBlock, len(dst))
		s := v.get(hi - lo)
		if err := v.ScoresBatch(s.sc, X[lo*d:hi*d]); err != nil {
			v.pool.Put(s)
			return err
		}
		for i := lo; i < hi; i++ {
			dst[i] = v.decide(s.sc[(i-lo)*r:(i-lo+1)*r], s.count)
		}
		v.pool.Put(s)
	}
	return nil
}

// PredictBatchSparse writes the label of each row of X to dst.
func (v *Voting) PredictBatchSparse(dst []int, X *dataset.CSR[float64]) error {
	if X == nil || len(dst) != X.Rows {
		return fmt.Errorf("%w: len(dst) = %d for a matrix of %v rows", expansion.ErrDims, len(dst), rowsOf(X))
	}
	r := v.NumScores()
	for lo := 0; lo < len(dst); lo += votingBlock {
		hi := min(lo+votingBlock, len(dst))
		s := v.get(hi - lo)
		if err := v.ScoresBatchSparse(s.sc, X.Slice(lo, hi)); err != nil {
			v.pool.Put(s)
			return err
		}
		for i := lo; i < hi; i++ {
			dst[i] = v.decide(s.sc[(i-lo)*r:(i-lo+1)*r], s.count)
		}
		v.pool.Put(s)
	}
	return nil
}

func rowsOf(X *dataset.CSR[float64]) any {
	if X == nil {
		return "nil"
	}
	return X.Rows
}

// fileRank returns the file position of each class in increasing label
// order, or nil if the file lists them in increasing order.
func fileRank(labels []int) []int {
	if slices.IsSorted(labels) {
		return nil
	}
	sorted := slices.Sorted(slices.Values(labels))
	rank := make([]int, len(labels))
	for pos, y := range labels {
		i, _ := slices.BinarySearch(sorted, y)
		rank[i] = pos
	}
	return rank
}
