package cli

import (
	"errors"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/svm"
)

// ParseC reads an SVM's C as the commands take it (-c): a positive number,
// or "inf" (any case, also "+inf", "infinity") for the hard margin. Errors
// wrap svm.ErrOption.
func ParseC(s string) (float64, error) {
	var c float64
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "inf", "+inf", "infinity", "+infinity":
		c = math.Inf(1)
	default:
		v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil {
			return 0, fmt.Errorf("%w: C = %q is not a number", svm.ErrOption, s)
		}
		c = v
	}
	if !(c > 0) {
		return 0, fmt.Errorf("%w: C = %q, want > 0 or inf", svm.ErrOption, s)
	}
	return c, nil
}

// KernelEnv is the environment variable that caps package kernel's choice
// of implementation.
const KernelEnv = "ROSENBLATT_KERNEL"

// ErrUnknownKernel is wrapped by KernelSelection's error.
var ErrUnknownKernel = errors.New("unknown kernel implementation")

// knownKernels are the implementation names of any build, for the message.
var knownKernels = []string{"generic", "avx2", "avx512", "neon"}

// KernelSelection reports a ROSENBLATT_KERNEL value that names no
// implementation of this build (package kernel then runs the best one this
// CPU has), wrapping ErrUnknownKernel; nil when the variable is unset or names one.
// The commands print it once at start.
func KernelSelection() error { return kernelSelection(os.Getenv(KernelEnv)) }

func kernelSelection(limit string) error {
	if limit == "" {
		return nil
	}
	var names []string
	for _, im := range kernel.Impls() {
		if im.Name() == limit {
			return nil
		}
		names = append(names, im.Name())
	}
	why := "names no implementation"
	for _, n := range knownKernels {
		if n == limit {
			why = "is not an implementation of this build"
		}
	}
	return fmt.Errorf("%w: %s=%q %s (this build has %s); using %s",
		ErrUnknownKernel, KernelEnv, limit, why, strings.Join(names, ", "), kernel.ActiveImpl().Name())
}
