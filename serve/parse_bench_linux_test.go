package serve

import (
	"math/rand/v2"
	"runtime"
	"strconv"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/internal/cputime"
)

// BenchmarkParseNumber parses the six-decimal values of the wrk script's
// bodies (784 a sample, as "0.123456,"), in float32, one op a value.
func BenchmarkParseNumber(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	var body []byte
	var ends []int
	for range 784 {
		body = strconv.AppendFloat(body, rng.Float64(), 'f', 6, 64)
		ends = append(ends, len(body))
		body = append(body, ',')
	}
	b.ReportAllocs()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cpu := cputime.Thread()
	i, at := 0, 0
	for b.Loop() {
		k, _, ok := parseNumber(body[at:], 32)
		if !ok || at+k != ends[i] {
			b.Fatal(i)
		}
		at += k + 1
		if i++; i == len(ends) {
			i, at = 0, 0
		}
	}
	b.ReportMetric(float64(cputime.Thread()-cpu)/float64(b.N), "cpu-ns/op")
}

// BenchmarkParseShortOnly is parseShort alone on the same values.
func BenchmarkParseShortOnly(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	var body []byte
	for range 784 {
		body = strconv.AppendFloat(body, rng.Float64(), 'f', 6, 64)
		body = append(body, ',')
	}
	body = append(body, "                    "...)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cpu := cputime.Thread()
	var sum float64
	for b.Loop() {
		at := 0
		for range 784 {
			k, f, _ := parseShort(body[at:], 32)
			sum += f
			at += k + 1
		}
	}
	b.ReportMetric(float64(cputime.Thread()-cpu)/float64(b.N)/784, "cpu-ns/value")
	_ = sum
}
