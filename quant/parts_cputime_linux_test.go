package quant

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/internal/cputime"
	"github.com/rosenblatt-go/rosenblatt/internal/kerneltest"
)

// TestPredictPartsCPUTime splits PredictU8 of a 10-class one-vs-rest
// model at d = 768 into its parts, in thread CPU time (fastest of
// interleaved rounds, as bench's TestQuantPredictCPUTime): the integer
// scores (accU8: the kernel DotsU8I8 and the zero point), their rescaling
// to float32 scores and argmax (rescale), both, the whole call and, where
// PredictU8 runs it, the kernel's fused call alone (DotsU8I8RescaleArgmax,
// and Fused10.Predict, which PredictU8 calls). It
// prints a table and asserts nothing; run it with
//
//	ROSENBLATT_CPUTIME_ROUNDS=40 go test -run TestPredictPartsCPUTime -v ./quant
func TestPredictPartsCPUTime(t *testing.T) {
	rounds := cputime.Rounds(t)
	q0, u, sx, z := partsModel(t)
	cls := q0.NumScores()
	type part struct {
		name string
		call func()
	}
	var parts []part
	for _, im := range kerneltest.Int8Impls() {
		if !im.Available() || im.Name() == "generic" {
			continue
		}
		q := q0.OnInt8(im)
		acc, tmp := make([]int32, cls), make([]float32, cls)
		q.accU8(acc, u, z)
		parts = append(parts,
			part{im.Name() + " accU8 (kernel)", func() { q.accU8(acc, u, z) }},
			part{im.Name() + " rescale", func() { _, _ = q.rescale(nil, tmp, acc, float64(sx), 1, 1) }},
			part{im.Name() + " accU8 + rescale", func() { q.accU8(acc, u, z); _, _ = q.rescale(nil, tmp, acc, float64(sx), 1, 1) }},
			part{im.Name() + " PredictU8", func() { _, _ = q.PredictU8(u, sx, z) }})
		if q.f10ok {
			var out [10]float32
			parts = append(parts,
				part{im.Name() + " DotsU8I8RescaleArgmax", func() {
					_, _, _ = q.k.DotsU8I8RescaleArgmax(tmp, q.q, u, q.sum, z, q.rs, q.rb, float64(sx))
				}},
				part{im.Name() + " Fused10.Predict", func() { _, _ = q.f10.Predict(&out, u, z, float64(sx)) }})
		}
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	const calls = 5000
	best := make([]float64, len(parts))
	for r := 0; r < rounds; r++ {
		for i, p := range parts {
			t0 := cputime.Thread()
			for range calls {
				p.call()
			}
			if v := float64(cputime.Thread()-t0) / calls; r == 0 || v < best[i] {
				best[i] = v
			}
		}
	}
	fmt.Printf("PredictU8's parts, d = %d, %d classes, zero point %d: fastest of %d rounds of %d calls (thread CPU time)\n", q0.d, cls, z, rounds, calls)
	for i, p := range parts {
		fmt.Printf("%-36s min %6.1f ns\n", p.name, best[i])
	}
}

// partsModel returns TestPredictPartsCPUTime's model (trainCases'
// ovr10/d=768) and a sample of values in [0, 1) as unsigned bytes.
func partsModel(t *testing.T) (*Model, []uint8, float32, uint8) {
	rng := rand.New(rand.NewPCG(768, 1))
	q := trainCases[2].quantized(t, rng)
	x, u := make([]float32, q.d), make([]uint8, q.d)
	for i := range x {
		x[i] = rng.Float32()
	}
	sx, z, err := QuantizeInput(u, x)
	if err != nil {
		t.Fatal(err)
	}
	return q, u, sx, z
}
