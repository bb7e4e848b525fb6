package kernel

import (
	"errors"
	"fmt"
	"os"
	"strings"
)

// Which implementation runs on which CPU
//
// Every build has the portable Go implementation. The assembly ones exist only
// on their architecture and only without the purego build tag. At start-up the
// package takes the best implementation the CPU (and its operating system,
// which must save the wide registers) supports:
//
//	name     GOARCH  needs (github.com/klauspost/cpuid/v2)    files
//	avx512   amd64   AVX512F (OS saves ZMM and opmask state)   kernel_avx512_amd64.s
//	avx2     amd64   AVX2 and FMA3 (OS saves YMM state)        kernel_amd64.s
//	neon     arm64   ASIMD (every arm64 CPU has it)            kernel_arm64.s
//	generic  any     nothing                                   kernel_generic.go
//
// So a Zen 4, Ice Lake or Sapphire Rapids machine runs avx512; Haswell to
// Comet Lake, Zen 1 to Zen 3 and Alder Lake run avx2; Apple M-series, Graviton
// and Ampere run neon; anything else, and every build with -tags purego,
// runs generic.
//
// The environment variable ROSENBLATT_KERNEL caps the choice: "generic",
// "avx2", "avx512" or "neon" selects that implementation or, if the CPU lacks
// it, the best one below it. It never selects an implementation the CPU
// cannot run. A value that names no implementation of this build is not
// ignored: SelectionError returns it (the package prints nothing; the
// rosenblatt command prints it once at start), and the best implementation
// is used.
//
// Packages with micro-kernels of their own (gram) do not choose again: they
// keep one entry per ID in a table and take the entry of the Impl chosen
// here (or passed by their caller), so one decision holds for the whole
// module.

// EnvVar is the name of the environment variable that caps the implementation.
const EnvVar = "ROSENBLATT_KERNEL"

// ErrUnknownKernel is wrapped by SelectionError when ROSENBLATT_KERNEL names
// no implementation of this build.
var ErrUnknownKernel = errors.New("kernel: unknown kernel implementation")

// Impl is one implementation of every kernel for both element types.
type Impl struct {
	name      string
	id        ID  // selects the implementation's functions (kernel_GOARCH.go)
	rank      int // order among the implementations of a build; higher is faster
	available bool
}

// ID identifies an implementation across packages: the dispatch switches of
// this package (dot32, dot64, ... in kernel_amd64.go, kernel_arm64.go and
// kernel_noasm.go) switch on it, and a package with micro-kernels of its own
// (gram) keeps a table indexed by it, so that it runs the implementation
// chosen here without matching names or detecting CPU features again. The
// switches call the assembly directly: a call through a func value would go
// through an ABI wrapper that costs a few nanoseconds, as much as a
// 16-element Dot.
type ID uint8

// The implementation IDs. Every build has IDGeneric; the others exist only
// in builds for their architecture without the purego tag (see Impls).
const (
	IDGeneric ID = iota // portable Go, every build
	IDAVX2              // amd64 AVX2+FMA
	IDAVX512            // amd64 AVX-512F
	IDNEON              // arm64 Advanced SIMD
	NumIDs              // the number of IDs, for tables indexed by ID
)

// ID returns the implementation's ID.
func (im *Impl) ID() ID { return im.id }

// Name returns the implementation's name: "avx512", "avx2", "neon" or "generic".
func (im *Impl) Name() string { return im.name }

// Available reports whether this CPU can run the implementation.
func (im *Impl) Available() bool { return im.available }

// String returns the name.
func (im *Impl) String() string { return im.name }

// impls lists this build's implementations, worst first. archImpls is
// defined once per architecture/tag combination (kernel_amd64.go,
// kernel_arm64.go, kernel_noasm.go).
var impls = append([]*Impl{{name: "generic", id: IDGeneric, available: true}}, archImpls()...)

// active and selectionErr are set once, at package initialisation, which
// prints nothing: a program reports selectionErr through SelectionError.
var active, selectionErr = choose(impls, os.Getenv(EnvVar))

// knownNames are all implementation names of any build, for error messages.
var knownNames = []string{"generic", "avx2", "avx512", "neon"}

// choose returns the best available implementation whose rank is at most
// that of the one named by limit ("" means no limit).
func choose(list []*Impl, limit string) (*Impl, error) {
	maxRank := int(^uint(0) >> 1)
	var err error
	if limit != "" {
		found := false
		for _, im := range list {
			if im.name == limit {
				maxRank, found = im.rank, true
			}
		}
		if !found {
			names := make([]string, len(list))
			for i, im := range list {
				names[i] = im.name
			}
			why := "names no implementation"
			for _, n := range knownNames {
				if n == limit {
					why = "is not an implementation of this build"
				}
			}
			err = fmt.Errorf("%w: %s=%q %s (this build has %s)",
				ErrUnknownKernel, EnvVar, limit, why, strings.Join(names, ", "))
		}
	}
	best := list[0]
	for _, im := range list {
		if im.available && im.rank <= maxRank && im.rank >= best.rank {
			best = im
		}
	}
	if err != nil {
		err = fmt.Errorf("%w; using %s", err, best.name)
	}
	return best, err
}

// Active returns the name of the implementation the package-level functions
// use.
func Active() string { return active.name }

// ActiveImpl returns the implementation the package-level functions use.
func ActiveImpl() *Impl { return active }

// Impls returns every implementation of this build, worst first, including
// those this CPU cannot run (see Impl.Available). Tests and benchmarks walk it
// with On to exercise each path in one process.
func Impls() []*Impl { return append([]*Impl(nil), impls...) }

// Best returns the best implementation this CPU can run, ignoring
// ROSENBLATT_KERNEL.
func Best() *Impl {
	im, _ := choose(impls, "")
	return im
}

// SelectionError reports a ROSENBLATT_KERNEL value that names no
// implementation of this build, wrapping ErrUnknownKernel; it is nil when the
// variable is unset or valid. The package does not print it: a program that
// honours the variable reports it (the rosenblatt command prints it once to
// standard error at start).
func SelectionError() error { return selectionErr }
