package kernel

import (
	"errors"
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
	cases := []struct {
		limit, want string
		errPart     string
	}{
		{"", "avx2", ""},
		{"generic", "generic", ""},
		{"avx2", "avx2", ""},
		{"avx512", "avx2", ""}, // a cap, never above what the CPU has
		{"neon", "avx2", `"neon" is not an implementation of this build (this build has generic, avx2, avx512); using avx2`},
		{"AVX2", "avx2", `"AVX2" names no implementation`},
		{"sse", "avx2", `"sse" names no implementation`},
	}
	for _, c := range cases {
		got, err := choose(list, c.limit)
		if got.name != c.want {
			t.Errorf("choose(%q) = %s, want %s", c.limit, got.name, c.want)
		}
		if c.errPart == "" {
			if err != nil {
				t.Errorf("choose(%q): unexpected error %v", c.limit, err)
			}
			continue
		}
		if !errors.Is(err, ErrUnknownKernel) || !strings.Contains(err.Error(), c.errPart) {
			t.Errorf("choose(%q): error %v, want ErrUnknownKernel containing %q", c.limit, err, c.errPart)
		}
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
