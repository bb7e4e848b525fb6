package kernel

import "fmt"

// The int8 kernels: integer dot products of 8-bit vectors into int32, for
// quantised models. DotU8I8, DotsU8I8 (one sample, many weight vectors)
// and MatVecU8I8 (many samples, one weight vector) multiply unsigned bytes
// by signed ones (the form of x86's VPDPBUSD, "VNNI"); DotI8 and DotsI8
// multiply signed bytes by signed bytes (the form of arm64's SDOT). The exported
// functions and the Int8Kernels methods are generated with the float
// kernels' (int8_amd64.go, int8_arm64.go, int8_noasm.go); this file holds
// the implementations' registry and the portable Go code, the reference of
// every test.
//
// # Exactness
//
// Every implementation computes the sum in int32 arithmetic, as the plain
// loop
//
//	var s int32
//	for i := range x { s += int32(x[i]) * int32(w[i]) }
//
// does, and returns exactly the plain loop's value, bit for bit, for every
// input and length: integer addition modulo 2³² does not depend on the
// order, and no implementation saturates or rounds an intermediate (see the
// generator's int8_x86.go and int8_neon.go for how each keeps its 16-bit
// partial sums in range). That value is the exact sum whenever the exact sum
// fits in an int32, which is guaranteed when
//
//	len(x) ≤ 65 793  (DotU8I8, DotsU8I8, MatVecU8I8: |x[i]·w[i]| ≤ 255·128 = 32 640)
//	len(x) ≤ 131 071 (DotI8, DotsI8: |x[i]·y[i]| ≤ 128·128 = 16 384)
//
// and otherwise the exact sum reduced modulo 2³² (two's-complement
// wraparound), never a saturated or undefined value.
//
// # Which implementation runs
//
// The int8 kernels have implementations of their own, Int8Impl, because
// their instructions are CPU features within an implementation of the float
// kernels (AVX512_VNNI within AVX-512, AVX-VNNI on AVX2-class CPUs such as
// Alder Lake and Zen 5, the dot-product extension of arm64). Each Int8Impl
// belongs to an Impl, and the int8 functions run the best available one
// whose Impl is the active implementation or below it:
//
//	int8 name   belongs to  needs (github.com/klauspost/cpuid/v2)            method
//	avx512vnni  avx512      AVX512F, AVX512BW, AVX512_VNNI                  VPDPBUSD zmm
//	avxvnni     avx2        AVX2, AVX-VNNI                                  VPDPBUSD ymm (VEX)
//	avx2        avx2        AVX2                                            VPMADDUBSW on 4-bit halves of x (unsigned),
//	                                                                        VPMOVSXBW and VPMADDWD (signed)
//	neondot     neon        ASIMDDP (HWCAP_ASIMDDP)                         UDOT, SDOT
//	neon        neon        nothing beyond ASIMD                            widening SMLAL, SMULL + SADALP
//	generic     generic     nothing                                         Go
//
// So a Zen 4 or 5, Ice Lake or Sapphire Rapids runs avx512vnni; an AVX-512
// CPU without VNNI (Skylake-SP) runs avxvnni or avx2; Alder Lake and later
// run avxvnni; Haswell to Zen 3 run avx2; and ROSENBLATT_KERNEL=avx2 on a
// Zen 5 runs avxvnni. Impl.Int8Impls lists each implementation's and
// Int8Impl.Kernels calls one, so tests and benchmarks run every variant
// the CPU supports in one process.
//
// DotsU8I8 is the fastest form on AVX2 without VNNI (1.8 times float32
// Dots there, against 1.5 for DotsI8 and MatVecU8I8). A model with
// signed inputs x can use it: Σ x·w = Σ (x XOR 0x80)·w − 128·Σ w, x XOR 0x80
// being x+128 as an unsigned byte, with the row sums Σ w of its weights
// computed once. A 10-class int8 model's whole prediction (package quant's
// fused path) takes neither form on AVX2 without VNNI: its rows are widened to int16
// once, and each 16 bytes of the sample, widened, multiply every row with
// one VPMADDWD, for unsigned and signed samples alike.

// int8ID selects an Int8Impl's functions in the generated switches.
type int8ID uint8

const (
	i8Generic    int8ID = iota // portable Go, every build
	i8AVX2                     // amd64 AVX2 (VPMADDUBSW on 4-bit halves)
	i8AVXVNNI                  // amd64 AVX-VNNI (VEX VPDPBUSD, YMM)
	i8AVX512VNNI               // amd64 AVX512_VNNI (EVEX VPDPBUSD, ZMM)
	i8NEON                     // arm64 ASIMD (widening multiplies)
	i8NEONDot                  // arm64 ASIMD dot product (UDOT, SDOT)
)

// Int8Impl is one implementation of the int8 kernels (DotU8I8, DotI8,
// DotsU8I8, DotsI8, MatVecU8I8) within an Impl (see Impl.Int8Impls). Get
// its kernels with Kernels; the package-level functions use
// ActiveImpl().Int8().
type Int8Impl struct {
	name      string
	id        int8ID
	impl      ID  // the implementation it belongs to
	rank      int // order among the int8 implementations of a build; higher is faster
	available bool
}

// Name returns the implementation's name: "avx512vnni", "avxvnni", "avx2",
// "neondot", "neon" or "generic".
func (v *Int8Impl) Name() string { return v.name }

// String returns the name.
func (v *Int8Impl) String() string { return v.name }

// Available reports whether this CPU can run the implementation.
func (v *Int8Impl) Available() bool { return v.available }

// Impl returns the implementation of the float kernels this one belongs
// to: it runs when that implementation, or a faster one, is active.
func (v *Int8Impl) Impl() *Impl { return implByID(v.impl) }

// implByID returns this build's implementation with ID id.
func implByID(id ID) *Impl {
	for _, im := range impls {
		if im.id == id {
			return im
		}
	}
	panic(fmt.Sprintf("kernel: no implementation with ID %d", id))
}

// int8Impls lists this build's int8 implementations, worst first.
// archInt8Impls is generated once per architecture/tag combination.
var int8Impls = append([]*Int8Impl{{name: "generic", id: i8Generic, impl: IDGeneric, available: true}}, archInt8Impls()...)

// activeInt8 is the int8 implementation of the active implementation,
// ActiveImpl().Int8().
var activeInt8 = chooseInt8(int8Impls, active)

// chooseInt8 returns the best available int8 implementation of list that
// belongs to im or to an implementation ranked below it.
func chooseInt8(list []*Int8Impl, im *Impl) *Int8Impl {
	best := list[0]
	for _, v := range list {
		if v.available && v.rank >= best.rank && implByID(v.impl).rank <= im.rank {
			best = v
		}
	}
	return best
}

// Int8 returns the int8 implementation that runs when im is the active
// implementation: the best one this CPU supports among those belonging to im
// or to an implementation below it. ActiveImpl().Int8() is the one the
// package-level int8 functions use.
func (im *Impl) Int8() *Int8Impl { return chooseInt8(int8Impls, im) }

// Int8Impls returns the int8 implementations that belong to im, worst
// first, including those this CPU cannot run (see Int8Impl.Available): on
// amd64, avx2 and avxvnni belong to avx2 and avx512vnni to avx512; on
// arm64, neon and neondot to neon; generic to generic. Walking Impls and
// each one's Int8Impls visits every int8 implementation of the build once,
// as tests and benchmarks do with Int8Impl.Kernels to exercise each path in
// one process.
func (im *Impl) Int8Impls() []*Int8Impl {
	var out []*Int8Impl
	for _, v := range int8Impls {
		if v.impl == im.id {
			out = append(out, v)
		}
	}
	return out
}

// Int8Kernels is the set of int8 kernels of one implementation. Get one
// with Int8Impl.Kernels. An Int8Kernels value is immutable and safe for
// concurrent use.
type Int8Kernels struct {
	im *Int8Impl
}

// Kernels returns the int8 kernels of implementation v. It panics if v is
// not available on this CPU: running it would fault with an illegal
// instruction.
func (v *Int8Impl) Kernels() Int8Kernels {
	if !v.available {
		panic("kernel: int8 implementation " + v.name + " is not available on this CPU")
	}
	return Int8Kernels{im: v}
}

// Impl returns the int8 implementation these kernels belong to.
func (k Int8Kernels) Impl() *Int8Impl { return k.im }

// The portable Go implementation of the int8 kernels: plain loops with four
// int32 partial sums (which wrap modulo 2³² exactly as a single sum does).

func dotU8I8Generic(x []uint8, w []int8) int32 {
	w = w[:len(x)]
	var s0, s1, s2, s3 int32
	i := 0
	for ; i <= len(x)-4; i += 4 {
		s0 += int32(x[i]) * int32(w[i])
		s1 += int32(x[i+1]) * int32(w[i+1])
		s2 += int32(x[i+2]) * int32(w[i+2])
		s3 += int32(x[i+3]) * int32(w[i+3])
	}
	for ; i < len(x); i++ {
		s0 += int32(x[i]) * int32(w[i])
	}
	return s0 + s1 + s2 + s3
}

func dotI8Generic(x, y []int8) int32 {
	y = y[:len(x)]
	var s0, s1, s2, s3 int32
	i := 0
	for ; i <= len(x)-4; i += 4 {
		s0 += int32(x[i]) * int32(y[i])
		s1 += int32(x[i+1]) * int32(y[i+1])
		s2 += int32(x[i+2]) * int32(y[i+2])
		s3 += int32(x[i+3]) * int32(y[i+3])
	}
	for ; i < len(x); i++ {
		s0 += int32(x[i]) * int32(y[i])
	}
	return s0 + s1 + s2 + s3
}

func dotsU8I8Generic(dst []int32, w []int8, x []uint8) {
	d := len(x)
	for k := range dst {
		dst[k] = dotU8I8Generic(x, w[k*d:k*d+d])
	}
}

func dotsI8Generic(dst []int32, w []int8, x []int8) {
	d := len(x)
	for k := range dst {
		dst[k] = dotI8Generic(x, w[k*d:k*d+d])
	}
}

func matvecU8I8Generic(dst []int32, m []uint8, w []int8) {
	d := len(w)
	for i := range dst {
		dst[i] = dotU8I8Generic(m[i*d:i*d+d], w)
	}
}
