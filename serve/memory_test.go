package serve

import (
	"math"
	"runtime/debug"
	"testing"
)

// TestMemoryLimit: a Go memory limit is the memory the defaults are a
// quarter of; without one the figure is the cgroup's or the machine's.
func TestMemoryLimit(t *testing.T) {
	old := debug.SetMemoryLimit(1 << 30)
	defer debug.SetMemoryLimit(old)
	if n, src := memoryLimit(); n != 1<<30 || src != "GOMEMLIMIT" {
		t.Fatalf("with a 1 GiB Go memory limit: %d bytes from %s", n, src)
	}
	o, err := Options{}.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	if o.MaxModelBytes != 256<<20 || o.MaxInflightBytes != 256<<20 {
		t.Errorf("defaults under a 1 GiB limit: MaxModelBytes %d, MaxInflightBytes %d, want 256 MiB", o.MaxModelBytes, o.MaxInflightBytes)
	}
	debug.SetMemoryLimit(math.MaxInt64)
	if n, src := memoryLimit(); n <= 0 || src == "GOMEMLIMIT" {
		t.Fatalf("with no Go memory limit: %d bytes from %s", n, src)
	}
}
