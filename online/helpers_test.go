package online

import (
	"crypto/sha256"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/linear"

	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// crash stops the learner as a killed process would: no checkpoint, no
// fsync, the files and the lock dropped.
func (l *Learner[T]) crash() {
	l.closeOnce.Do(func() { close(l.quit) })
	<-l.done
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closed = true
	l.seg.Close()
	l.lock.Close()
}

// baseModel makes a linear model with small random weights: binary
// (classes ≤ 2) or of kind (one-vs-rest or argmax) over classes labels
// 0..classes-1, online or averaged (with its training state).
func baseModel[T kernel.Float](t testing.TB, kind fit.Scheme, algo linear.Algorithm, d, classes int, seed uint64) *linear.Model[T] {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	st := linear.State[T]{Scheme: kind, Algorithm: algo, Dims: d, Bias: true, BiasFeature: 1, Eta: 0.5}
	if kind == fit.Binary {
		st.Labels = []int{-1, 1}
	} else {
		for c := range classes {
			st.Labels = append(st.Labels, 3*c-2)
		}
	}
	r := st.Rows()
	rnd := func(n int) []T {
		v := make([]T, n)
		for i := range v {
			v[i] = T(rng.NormFloat64() * 0.1)
		}
		return v
	}
	if algo == linear.Averaged {
		st.Steps = 17
		st.CW, st.CB, st.U, st.UB = rnd(r*d), rnd(r), rnd(r*d), rnd(r)
		st.W, st.B = averageOf(st.CW, st.U, st.Steps), averageOf(st.CB, st.UB, st.Steps)
	} else {
		st.Steps = 5
		st.W, st.B = rnd(r*d), rnd(r)
	}
	m, err := linear.New(st)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func sumOf[T kernel.Float](t testing.TB, m *linear.Model[T]) [32]byte {
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

// stream makes n random requests of 1 to 4 samples, dense or sparse
// (about a fifth of the columns), labelled by a hidden linear rule with
// some noise, so that the model makes and corrects mistakes.
func stream[T kernel.Float](m *linear.Model[T], n int, sparse bool, seed uint64) [][]Sample[T] {
	rng := rand.New(rand.NewPCG(seed, 11))
	d, labels := m.Dims(), m.Classes()
	hidden := make([]float64, d*len(labels))
	for i := range hidden {
		hidden[i] = rng.NormFloat64()
	}
	out := make([][]Sample[T], n)
	for i := range out {
		req := make([]Sample[T], 1+rng.IntN(4))
		for j := range req {
			var s Sample[T]
			dense := make([]float64, d)
			if sparse {
				for c := range d {
					if rng.IntN(5) == 0 {
						s.Idx = append(s.Idx, int32(c))
						v := math.Round(rng.NormFloat64()*8) / 4
						s.X = append(s.X, T(v))
						dense[c] = v
					}
				}
				if s.Idx == nil {
					s.Idx = []int32{}
				}
			} else {
				s.X = make([]T, d)
				for c := range d {
					v := math.Round(rng.NormFloat64()*8) / 4
					s.X[c] = T(v)
					dense[c] = v
				}
			}
			best, bs := 0, math.Inf(-1)
			for k := range labels {
				a := 0.0
				for c := range d {
					a += hidden[k*d+c] * dense[c]
				}
				if a > bs {
					best, bs = k, a
				}
			}
			if len(labels) == 2 && labels[0] == -1 && labels[1] == 1 {
				best = 0
				if hidden[0]*dense[0]+dense[1%d] > 0 {
					best = 1
				}
			}
			if rng.IntN(10) == 0 {
				best = rng.IntN(len(labels))
			}
			s.Y = labels[best]
			req[j] = s
		}
		out[i] = req
	}
	return out
}

// dense returns s's values as a dense row of d features.
func dense[T kernel.Float](s Sample[T], d int) []T {
	if s.Idx == nil {
		return s.X
	}
	x := make([]T, d)
	for j, c := range s.Idx {
		x[c] = s.X[j]
	}
	return x
}

// sameState fails unless a and b are equal bit for bit.
func sameState[T kernel.Float](t testing.TB, what string, a, b *linear.Model[T]) {
	t.Helper()
	sa, err := a.State()
	if err != nil {
		t.Fatal(err)
	}
	sb, err := b.State()
	if err != nil {
		t.Fatal(err)
	}
	if sa.Steps != sb.Steps {
		t.Fatalf("%s: steps %d and %d", what, sa.Steps, sb.Steps)
	}
	for _, p := range []struct {
		n    string
		x, y []T
	}{{"W", sa.W, sb.W}, {"B", sa.B, sb.B}, {"CW", sa.CW, sb.CW}, {"CB", sa.CB, sb.CB}, {"U", sa.U, sb.U}, {"UB", sa.UB, sb.UB}} {
		if len(p.x) != len(p.y) {
			t.Fatalf("%s: %s has %d and %d values", what, p.n, len(p.x), len(p.y))
		}
		for i := range p.x {
			if bits(p.x[i]) != bits(p.y[i]) {
				t.Fatalf("%s: %s[%d] = %v and %v", what, p.n, i, p.x[i], p.y[i])
			}
		}
	}
}

func bits[T kernel.Float](v T) uint64 {
	if f, ok := any(v).(float32); ok {
		return uint64(math.Float32bits(f))
	}
	return math.Float64bits(float64(v))
}

func clone[T kernel.Float](t testing.TB, m *linear.Model[T]) *linear.Model[T] {
	st, err := m.State()
	if err != nil {
		t.Fatal(err)
	}
	c, err := linear.New(st)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

var _ = slices.Clone[[]int]
