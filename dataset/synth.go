package dataset

import "math"

// SynthOptions configures SynthSeparable.
type SynthOptions struct {
	D      int     // number of features, at least 1
	Seed   uint64  // splitmix64 seed
	Gamma  float64 // keep a candidate row x only if |x·w| >= Gamma; 0 <= Gamma <= sqrt(D)
	NTrain int     // number of training rows, >= 0
	NTest  int     // number of test rows, >= 0
}

// splitmix64 constants.
const (
	smGolden = 0x9E3779B97F4A7C15
	smMul1   = 0xBF58476D1CE4E5B9
	smMul2   = 0x94D049BB133111EB
)

// splitmix64 returns output i (1-based) of the splitmix64 generator started
// at state seed: the counter form of the usual stateful next().
func splitmix64(seed, i uint64) uint64 {
	z := seed + i*smGolden
	z = (z ^ z>>30) * smMul1
	z = (z ^ z>>27) * smMul2
	return z ^ z>>31
}

// Separator returns the hidden separator w ∈ {±1}^D that SynthSeparable
// draws for these options: w[j] = +1 if the top bit of splitmix64 output j+1
// is set, else -1.
func (o SynthOptions) Separator() []float32 {
	w := make([]float32, max(o.D, 0))
	for j := range w {
		w[j] = -1
		if splitmix64(o.Seed, uint64(j+1))>>63 == 1 {
			w[j] = 1
		}
	}
	return w
}

// SynthSeparable generates a linearly separable data set with labels ±1 and
// no bias term, exactly as the project's reference generator
// gen_synthetic.py does (the Go port reproduces it bit for bit):
//
//   - splitmix64 in counter form, out(i) = mix(Seed + i·0x9E3779B97F4A7C15)
//     for i = 1, 2, 3, ...;
//   - draws 1..D give the hidden separator w (see Separator);
//   - each candidate row takes the next D draws, x[j] = float32((out>>40)·2⁻²³ − 1),
//     a value in [-1, 1) that is exact in float32;
//   - m = x·w is computed exactly in float64 (every partial sum is a
//     multiple of 2⁻²³ smaller than D < 2²⁹ in magnitude); the row is kept
//     iff |m| >= Gamma, with label +1 if m > 0, else -1;
//   - the first NTrain kept rows form the training set, the next NTest the
//     test set.
//
// So every row satisfies y·(x·w) >= Gamma and ‖x‖ <= sqrt(D): the
// geometric margin is at least Gamma/sqrt(D). Asking for fewer training rows
// changes the test set, which starts right after them.
//
// It returns an error wrapping ErrInvalid for D < 1, negative counts, or a
// Gamma outside [0, sqrt(D)] (a larger Gamma would keep too few candidates to
// finish in reasonable time), and ErrTooLarge if the data would not fit in
// memory addressable by an int.
func SynthSeparable(o SynthOptions) (train, test *Data[float32], err error) {
	switch {
	case o.D < 1 || o.D >= 1<<29:
		return nil, nil, errorf(ErrInvalid, "synth: D = %d, want 1 <= D < 2^29", o.D)
	case o.NTrain < 0 || o.NTest < 0:
		return nil, nil, errorf(ErrInvalid, "synth: negative row count (NTrain %d, NTest %d)", o.NTrain, o.NTest)
	case !(o.Gamma >= 0 && o.Gamma <= math.Sqrt(float64(o.D))): // also rejects NaN
		return nil, nil, errorf(ErrInvalid, "synth: Gamma = %v, want 0 <= Gamma <= sqrt(D) = %v", o.Gamma, math.Sqrt(float64(o.D)))
	}
	nTrain, ok1 := mulOK(o.NTrain, o.D)
	nTest, ok2 := mulOK(o.NTest, o.D)
	if !ok1 || !ok2 || nTrain > math.MaxInt-nTest {
		return nil, nil, errorf(ErrTooLarge, "synth: %d+%d rows of %d features", o.NTrain, o.NTest, o.D)
	}
	w := o.Separator()
	train = &Data[float32]{X: Alloc[float32](nTrain), Y: make([]int, o.NTrain), Rows: o.NTrain, Cols: o.D}
	test = &Data[float32]{X: Alloc[float32](nTest), Y: make([]int, o.NTest), Rows: o.NTest, Cols: o.D}
	next := uint64(o.D) + 1 // counter of the next draw
	for _, d := range []*Data[float32]{train, test} {
		for r := 0; r < d.Rows; {
			row := d.X[r*o.D : (r+1)*o.D]
			var m float64
			for j := range row {
				x := float64(splitmix64(o.Seed, next)>>40)*0x1p-23 - 1 // exact
				next++
				row[j] = float32(x) // exact: a multiple of 2^-23 in [-1, 1)
				if w[j] > 0 {
					m += x
				} else {
					m -= x
				}
			}
			if math.Abs(m) >= o.Gamma {
				d.Y[r] = -1
				if m > 0 {
					d.Y[r] = 1
				}
				r++ // keep the row; otherwise the next candidate overwrites it
			}
		}
	}
	return train, test, nil
}
