package perceptrontrain

import "math/rand/v2"

// Sampling is perceptron.Sampling, value for value (perceptron converts
// one to the other): which samples an epoch visits, documented there.
type Sampling uint8

const (
	SampleDefault Sampling = iota // resolved before a Sampler sees it
	SampleSweep
	SampleSubsets
	SampleReplace
)

// Sampler chooses the samples of each epoch (Options.Sampling): the
// visiting order of SampleSweep (nil order: storage order), or the samples
// SampleSubsets and SampleReplace draw.
type Sampler struct {
	N, B   int      // samples; mini-batch size (1 for the online algorithms)
	Mode   Sampling // resolved
	Visits int      // samples visited per epoch
	order  []int32  // the epoch's visits (nil: storage order)
	perm   []int32  // SampleSubsets: a permutation of the samples
	rng    *rand.Rand
	seed   uint64
}

// NewSampler sets up the sampling of n samples in batches of B; shuffle
// asks for a fresh permutation per epoch under SampleSweep.
func NewSampler(n, B int, mode Sampling, shuffle bool, seed uint64) Sampler {
	s := Sampler{N: n, B: B, Mode: mode, Visits: n, seed: seed}
	switch mode {
	case SampleSweep:
		if shuffle {
			s.order = make([]int32, n)
		}
	case SampleSubsets:
		s.Visits = (n + B - 1) / B * B
		s.order = make([]int32, s.Visits)
		s.perm = make([]int32, n)
	case SampleReplace:
		s.Visits = (n + B - 1) / B * B
		s.order = make([]int32, s.Visits)
	}
	s.Reset()
	return s
}

// Random reports whether the epochs are drawn at random, so that an epoch
// need not visit every sample.
func (s *Sampler) Random() bool { return s.Mode == SampleSubsets || s.Mode == SampleReplace }

// Reset seeds the generator afresh and restores the initial order.
func (s *Sampler) Reset() {
	if s.order == nil {
		return
	}
	for i := range s.order {
		s.order[i] = int32(i % s.N)
	}
	for i := range s.perm {
		s.perm[i] = int32(i)
	}
	s.rng = rand.New(rand.NewPCG(s.seed, s.seed^0x9e3779b97f4a7c15))
}

// Next fills the order of the next epoch: a fresh permutation
// (SampleSweep with shuffling), ⌈N/B⌉ fresh B-subsets of the samples, each
// the first B entries of a partial Fisher–Yates shuffle of perm (uniform
// among the B-subsets, independent of the previous steps), or N
// independent uniform draws.
func (s *Sampler) Next() {
	switch {
	case s.order == nil:
	case s.Mode == SampleSweep:
		// rand.Rand.Shuffle's Fisher–Yates, the same draws (Uint64N is its
		// uint64n), without a call of a swap function per sample.
		o := s.order[:s.N]
		for i := len(o) - 1; i > 0; i-- {
			j := int(s.rng.Uint64N(uint64(i + 1)))
			o[i], o[j] = o[j], o[i]
		}
	case s.Mode == SampleSubsets:
		p := s.perm
		for lo := 0; lo < s.Visits; lo += s.B {
			for j := range s.B {
				r := j + s.rng.IntN(s.N-j)
				p[j], p[r] = p[r], p[j]
			}
			copy(s.order[lo:lo+s.B], p[:s.B])
		}
	case s.Mode == SampleReplace:
		for j := range s.order {
			s.order[j] = int32(s.rng.IntN(s.N))
		}
	}
}

// At returns the sample of visit j of the epoch.
func (s *Sampler) At(j int) int {
	if s.order != nil {
		return int(s.order[j])
	}
	return j
}

// Order is the epoch's visiting order, nil for storage order.
func (s *Sampler) Order() []int32 { return s.order }
