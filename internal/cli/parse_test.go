package cli

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/svm"
)

// TestParseC: a whole positive number or inf, nothing after it.
func TestParseC(t *testing.T) {
	for _, s := range []string{"1x", "1,5", "2 3", "", "nan", "-inf", "0", "-1"} {
		if c, err := ParseC(s); !errors.Is(err, svm.ErrOption) {
			t.Errorf("ParseC(%q) = %v, %v; want an error", s, c, err)
		}
	}
	for s, want := range map[string]float64{" 2.5 ": 2.5, "0.5": 0.5, "1e3": 1000, "+Inf": math.Inf(1), "INF": math.Inf(1), "infinity": math.Inf(1)} {
		if c, err := ParseC(s); err != nil || c != want {
			t.Errorf("ParseC(%q) = %v, %v; want %v", s, c, err, want)
		}
	}
}

// TestKernelSelection: every implementation of the build is accepted
// (available here or not), anything else wraps ErrUnknownKernel naming the
// variable, the build's list and the implementation that runs.
func TestKernelSelection(t *testing.T) {
	for _, im := range kernel.Impls() {
		if err := kernelSelection(im.Name()); err != nil {
			t.Errorf("%s: %v", im.Name(), err)
		}
	}
	if err := kernelSelection(""); err != nil {
		t.Errorf("unset: %v", err)
	}
	for limit, why := range map[string]string{"avx3": "names no implementation", "AVX2": "names no implementation"} {
		err := kernelSelection(limit)
		if !errors.Is(err, ErrUnknownKernel) || !strings.Contains(err.Error(), why) ||
			!strings.Contains(err.Error(), "ROSENBLATT_KERNEL=\""+limit+"\"") ||
			!strings.Contains(err.Error(), "using "+kernel.ActiveImpl().Name()) {
			t.Errorf("%s: %v", limit, err)
		}
	}
	in := map[string]bool{}
	for _, im := range kernel.Impls() {
		in[im.Name()] = true
	}
	for _, n := range knownKernels {
		if !in[n] { // every build lacks some: amd64 neon, arm64 avx2
			if err := kernelSelection(n); !errors.Is(err, ErrUnknownKernel) || !strings.Contains(err.Error(), "is not an implementation of this build") {
				t.Errorf("%s: %v", n, err)
			}
		}
	}
}
