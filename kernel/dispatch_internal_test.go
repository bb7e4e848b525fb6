package kernel

import (
	"strings"
	"testing"
)

// TestChoose checks the cap logic on a made-up list, so every case is covered
// whatever this CPU is.
func TestChoose(t *testing.T) {
	list := []*Impl{
		{name: "generic", rank: 0, available: true},
		{name: "avx2", rank: 1, available: true},
		{name: "avx512", rank: 2, available: false},
	}
	cases := []struct{ limit, want string }{
		{"", "avx2"},
		{"generic", "generic"},
		{"avx2", "avx2"},
		{"avx512", "avx2"}, // a cap, never above what the CPU has
		{"neon", "avx2"},   // not of this build: no cap
		{"AVX2", "avx2"},   // names are lower case
		{"sse", "avx2"},
	}
	for _, c := range cases {
		if got := choose(list, c.limit); got.name != c.want {
			t.Errorf("choose(%q) = %s, want %s", c.limit, got.name, c.want)
		}
	}
	if got := choose(list[:1], "avx2"); got.name != "generic" {
		t.Errorf("choose(generic only, avx2) = %s, want generic", got.name)
	}
}

func TestOnUnavailablePanics(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "not available") {
			t.Fatalf("recovered %v, want a not-available panic", r)
		}
	}()
	On[float32](&Impl{name: "fake"})
}
