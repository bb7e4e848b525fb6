package dataset

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/rosenblatt-go/rosenblatt/internal/smalltest"
)

// TestSplitmix64 checks the generator against the published splitmix64
// outputs for seed 0 (Vigna's splitmix64.c, as used to seed xoshiro) and the
// counter form against the stateful form.
func TestSplitmix64(t *testing.T) {
	want := []uint64{0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, 0x06c45d188009454f}
	for i, w := range want {
		if got := splitmix64(0, uint64(i+1)); got != w {
			t.Errorf("out(%d) = %#x, want %#x", i+1, got, w)
		}
	}
	state := uint64(42)
	for i := uint64(1); i <= 1000; i++ {
		state += smGolden
		z := state
		z = (z ^ z>>30) * smMul1
		z = (z ^ z>>27) * smMul2
		z ^= z >> 31
		if got := splitmix64(42, i); got != z {
			t.Fatalf("counter form differs from stateful form at %d", i)
		}
	}
}

// synthHashes returns the sha256 of X as little-endian float32 and of Y as
// int8, as gen_synthetic.py computes them.
func synthHashes(d *Data[float32]) (hx, hy string, pos int) {
	h := sha256.New()
	buf := make([]byte, 4*d.Cols)
	for i := range d.Rows {
		for j, v := range d.Row(i) {
			binary.LittleEndian.PutUint32(buf[4*j:], math.Float32bits(v))
		}
		h.Write(buf)
	}
	hx = hex.EncodeToString(h.Sum(nil))
	ys := make([]byte, d.Rows)
	for i, y := range d.Y {
		ys[i] = byte(int8(y))
		if y == 1 {
			pos++
		}
	}
	s := sha256.Sum256(ys)
	return hx, hex.EncodeToString(s[:]), pos
}

// synth256Options are the options of the reference synth256 set of the
// project's gen_synthetic.py (internal/fixtures.Synth256Options).
var synth256Options = SynthOptions{D: 256, Seed: 42, Gamma: 1, NTrain: 200000, NTest: 50000}

// synth256 returns the first nTrain and the next nTest rows of synth256.
func synth256(t *testing.T, nTrain, nTest int) (train, test *Data[float32]) {
	t.Helper()
	o := synth256Options
	o.NTrain, o.NTest = nTrain, nTest
	train, test, err := SynthSeparable(o)
	if err != nil {
		t.Fatal(err)
	}
	return train, test
}

func TestSynth256Reference(t *testing.T) {
	o := synth256Options
	type want struct {
		hx, hy string
		pos    int
		first4 []float64 // X[0][0:4] as printed by Python (float32 widened)
	}
	wTrain := want{"1bc00dc2c7dd7d7ff81f75308ff682aef79948a7ba8760389fc8166918e45f19",
		"33a0bb900462686df0a3b97d3f8e0a8c0006b49aaf06b05b8012967aeb17e1ec", 100077,
		[]float64{0.6418142318725586, -0.9740267992019653, 0.6858243942260742, -0.40989530086517334}}
	wTest := want{"3cdd675e2c7807c83067e96dca15e7c7166d7cad5e05fb5515532098beac9f6b",
		"27ae7e7ffe7a10a8fdec7946f8a2246ed2f3a128ac0194c72f38438f3d2865dd", 25013,
		[]float64{0.9232100248336792, -0.3451359272003174, 0.04195702075958252, 0.4424123764038086}}
	if smalltest.Small() {
		// A tenth of the rows in a small run (package smalltest): the
		// generator's first 20000 rows and the 5000 after them, whose
		// hashes are those of the reference's first 25000 training rows
		// (the native run checks all of them against the reference).
		o.NTrain, o.NTest = 20000, 5000
		wTrain = want{"0c959245ceb4d99cf1ed5ba39e51e0954074418782435ac1a940e323b330ee31",
			"6f7ffd3c7616e76b022a25508da9e2186a1300edbb6b63097370a7d5347b2c44", 10067, wTrain.first4}
		wTest = want{"4a10a0017532e3f46607dd2eabc4e72c432b24ac34c6b5102639719ea40ea670",
			"fd87d3bed50a8a219950c240e20c5753c6b257ad4bd5440d6891fd8746792c09", 2494,
			[]float64{-0.034458279609680176, 0.6520576477050781, 0.46053528785705566, 0.24042069911956787}}
	}
	start := time.Now()
	train, test, err := SynthSeparable(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("generated in %v", time.Since(start))
	tests := []struct {
		name string
		d    *Data[float32]
		rows int
		want
	}{
		{"train", train, o.NTrain, wTrain},
		{"test", test, o.NTest, wTest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.d.Rows != tt.rows || tt.d.Cols != 256 || len(tt.d.X) != tt.rows*256 || len(tt.d.Y) != tt.rows {
				t.Fatalf("shape %dx%d", tt.d.Rows, tt.d.Cols)
			}
			for j, want := range tt.first4 {
				if got := float64(tt.d.X[j]); got != want {
					t.Errorf("X[0][%d] = %v, want %v", j, got, want)
				}
			}
			hx, hy, pos := synthHashes(tt.d)
			if hx != tt.hx {
				t.Errorf("sha256(X) = %s, want %s", hx, tt.hx)
			}
			if hy != tt.hy {
				t.Errorf("sha256(y) = %s, want %s", hy, tt.hy)
			}
			if pos != tt.pos {
				t.Errorf("#(+1) = %d, want %d", pos, tt.pos)
			}
		})
	}
	// Margin and norm, checked in exact (float64) arithmetic on the test set.
	w := synth256Options.Separator()
	maxNorm := 0.0
	for i := range test.Rows {
		var m, n2 float64
		for j, x := range test.Row(i) {
			m += float64(x) * float64(w[j])
			n2 += float64(x) * float64(x)
		}
		if float64(test.Y[i])*m < 1 {
			t.Fatalf("test row %d: y·(x·w) = %v < 1", i, float64(test.Y[i])*m)
		}
		maxNorm = max(maxNorm, math.Sqrt(n2))
	}
	if maxNorm > 16 {
		t.Fatalf("max row norm %v > 16", maxNorm)
	}
}

func TestSynth256Prefix(t *testing.T) {
	full, _ := synth256(t, 300, 50)
	small, next := synth256(t, 100, 200)
	if !dataEqual(small, full.Subset(100)) {
		t.Fatal("Synth256(100, ...) is not a prefix of Synth256(300, ...)")
	}
	if !dataEqual(next, full.Slice(100, 300)) {
		t.Fatal("the test rows do not continue the training rows")
	}
}

func TestSynthSeparable(t *testing.T) {
	tests := []struct {
		name string
		o    SynthOptions
	}{
		{"tiny", SynthOptions{D: 1, Seed: 1, Gamma: 0.5, NTrain: 50, NTest: 10}},
		{"gamma 0", SynthOptions{D: 3, Seed: 7, Gamma: 0, NTrain: 100, NTest: 0}},
		{"gamma sqrt(D)", SynthOptions{D: 4, Seed: 9, Gamma: 2, NTrain: 5, NTest: 5}},
		{"wide", SynthOptions{D: 1000, Seed: 123, Gamma: 3, NTrain: 20, NTest: 20}},
		{"empty", SynthOptions{D: 8, Seed: 1, Gamma: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			train, test, err := SynthSeparable(tt.o)
			if err != nil {
				t.Fatal(err)
			}
			w := tt.o.Separator()
			for _, d := range []*Data[float32]{train, test} {
				if err := d.Validate(); err != nil || d.Cols != tt.o.D {
					t.Fatalf("invalid data: %v, cols %d", err, d.Cols)
				}
				for i := range d.Rows {
					var m float64
					for j, x := range d.Row(i) {
						if x < -1 || x >= 1 || float64(x)*(1<<23) != math.Trunc(float64(x)*(1<<23)) {
							t.Fatalf("x = %v not a multiple of 2^-23 in [-1, 1)", x)
						}
						m += float64(x) * float64(w[j])
					}
					if y := d.Y[i]; (y != 1 && y != -1) || math.Abs(m) < tt.o.Gamma || (m > 0) != (y == 1) {
						t.Fatalf("row %d: label %d, x·w = %v, gamma %v", i, y, m, tt.o.Gamma)
					}
				}
			}
			// Deterministic.
			train2, test2, _ := SynthSeparable(tt.o)
			if !dataEqual(train, train2) || !dataEqual(test, test2) {
				t.Fatal("not deterministic")
			}
		})
	}
	a, _, _ := SynthSeparable(SynthOptions{D: 16, Seed: 1, Gamma: 1, NTrain: 10})
	b, _, _ := SynthSeparable(SynthOptions{D: 16, Seed: 2, Gamma: 1, NTrain: 10})
	if slices.Equal(a.X, b.X) {
		t.Fatal("different seeds gave the same data")
	}
}

func TestSynthSeparableErrors(t *testing.T) {
	tests := []struct {
		name string
		o    SynthOptions
		kind error
	}{
		{"D 0", SynthOptions{D: 0, Gamma: 1, NTrain: 1}, ErrInvalid},
		{"negative rows", SynthOptions{D: 4, Gamma: 1, NTrain: -1}, ErrInvalid},
		{"negative test rows", SynthOptions{D: 4, Gamma: 1, NTest: -1}, ErrInvalid},
		{"gamma too large", SynthOptions{D: 4, Gamma: 2.01, NTrain: 1}, ErrInvalid},
		{"gamma negative", SynthOptions{D: 4, Gamma: -1, NTrain: 1}, ErrInvalid},
		{"gamma NaN", SynthOptions{D: 4, Gamma: math.NaN(), NTrain: 1}, ErrInvalid},
		{"too large", SynthOptions{D: 1 << 20, Gamma: 1, NTrain: math.MaxInt / 2}, ErrTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, _, err := SynthSeparable(tt.o); !errors.Is(err, tt.kind) {
				t.Fatalf("got %v, want %v", err, tt.kind)
			}
		})
	}
}
