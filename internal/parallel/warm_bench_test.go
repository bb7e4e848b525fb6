package parallel

import (
	"testing"
	"time"
)

// BenchmarkWarmRoundTrip: Claim and Run of an empty two-part job
// back to back (op=warm), against parallel.Run (op=run).
func BenchmarkWarmRoundTrip(b *testing.B) {
	b.Run("op=warm", func(b *testing.B) {
		claimed := 0
		for b.Loop() {
			t := Claim(2)
			if t.Parts() > 1 {
				claimed++
				t.Run(func(int) {})
			}
		}
		b.ReportMetric(float64(claimed)/float64(b.N), "claimed/op")
	})
	b.Run("op=run", func(b *testing.B) {
		for b.Loop() {
			Run(2, func(int) {})
		}
	})
	b.Run("op=kick", func(b *testing.B) {
		var in time.Duration
		for b.Loop() {
			time.Sleep(2 * SpinWindow)
			t0 := time.Now()
			t := Claim(2)
			in += time.Since(t0)
			if t.Parts() > 1 {
				t.Run(func(int) {})
			}
		}
		b.ReportMetric(float64(in.Nanoseconds())/float64(b.N), "ns/claim")
	})
}
