package roofline

// The portable Go loops: the roofline of the generic implementation, which
// is scalar Go code compiled by the same compiler as these loops.

// genericChains is the number of independent accumulators of fmaGeneric:
// each step is a multiply and a dependent add (or one fused
// multiply-add, where the compiler fuses them), so its latency is at most
// about 6 cycles, and 12 chains keep two multiply-add pipes busy without
// spilling amd64's 16 floating-point registers.
const genericChains = 12

// fmaGeneric runs n iterations of s ← s·a + a on genericChains
// accumulators. They start at different values, so that the compiler
// cannot merge identical chains; the multiply is in the chain, so it
// cannot be hoisted out of the loop.
func fmaGeneric[T float32 | float64](n int, a T) T {
	s0, s1, s2, s3, s4, s5 := T(0), T(1), T(2), T(3), T(4), T(5)
	s6, s7, s8, s9, s10, s11 := T(6), T(7), T(8), T(9), T(10), T(11)
	for range n {
		s0 = s0*a + a
		s1 = s1*a + a
		s2 = s2*a + a
		s3 = s3*a + a
		s4 = s4*a + a
		s5 = s5*a + a
		s6 = s6*a + a
		s7 = s7*a + a
		s8 = s8*a + a
		s9 = s9*a + a
		s10 = s10*a + a
		s11 = s11*a + a
	}
	return ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7)) + ((s8 + s9) + (s10 + s11))
}

// readGeneric reads buf passes times, its two halves at once (as a Dot
// reads x and y), and returns the sum of its words times passes: one call
// of readPass per pass.
func readGeneric(buf []uint64, passes int) uint64 {
	h := len(buf) / 2
	a, b := buf[:h], buf[h:2*h]
	var s uint64
	for range passes {
		s += readPass(a, b)
	}
	return s
}

// readPass returns the sum of the words of a and b (as long as a), read
// as integer loads and adds into eight independent sums, eight words of
// each per iteration: an indexed loop like the generic kernels' (kernel's
// dotGeneric), with the bounds checks proved away.
//
// It is a function of its own, not inlined, so that the pass loop's
// variables do not compete for registers with the eight sums: inside one
// function, the Go compiler (1.26, amd64, 13 allocatable integer
// registers) kept the loop index in a stack slot, a store and a reload
// in its dependency chain every iteration, which held this loop to 13.4
// and 12.0 bytes per cycle at L1 and L2 on a Zen 3 where the generic
// float64 Dot read 15.5 and 15.9 (rosenblatt bench put that Dot at
// 107–130% of the generic roof at L1, L2 and L3; this one reads 17.6 and
// 16.3: bench/results/roofline/generic-read-zen3.txt). A call per pass
// costs what the kernels' own call per operation does.
//
//go:noinline
func readPass(a, b []uint64) uint64 {
	var s0, s1, s2, s3, s4, s5, s6, s7 uint64
	b = b[:len(a)]
	for i := 0; i <= len(a)-8; i += 8 {
		s0 += a[i]
		s1 += b[i]
		s2 += a[i+1]
		s3 += b[i+1]
		s4 += a[i+2]
		s5 += b[i+2]
		s6 += a[i+3]
		s7 += b[i+3]
		s0 += a[i+4]
		s1 += b[i+4]
		s2 += a[i+5]
		s3 += b[i+5]
		s4 += a[i+6]
		s5 += b[i+6]
		s6 += a[i+7]
		s7 += b[i+7]
	}
	return ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7))
}

// readGenericFloat reads buf passes times as float64s, the dot product of
// its two halves, and returns it times passes: one call of readPassFloat
// per pass. Which of it and readGeneric reads faster depends on the core:
// rosenblatt bench put the generic float64 Dot at 101–132% of the integer
// loop's roof at L2, L3 and DRAM on a Zen 3, a roof its kernels
// systematically beat, so the generic roof is the faster of the two loops.
func readGenericFloat(buf []uint64, passes int) float64 {
	f := Float64s(buf)
	h := len(f) / 2
	a, b := f[:h], f[h:2*h]
	var s float64
	for range passes {
		s += readPassFloat(a, b)
	}
	return s
}

// readPassFloat returns the dot product of a and b (as long as a): the
// generic float64 Dot's own instructions (scalar floating-point loads,
// multiplies and adds, two loads, a multiply and an add per element),
// eight elements of each per iteration into four independent sums that
// each take the sum of two products, so that the adds' dependency chains
// are half as long per element as the Dot's (its four sums take one
// product each).
//
// Eight sums of one product each would be the same chains, but with eight
// products in flight they need 16 floating-point registers, one more than
// Go's amd64 ABI leaves (X15 is zero): the compiler kept one sum on the
// stack, a store and a reload in its chain every iteration, and the loop
// read 10.7 bytes per cycle at L1 and L2 on a Zen 3 where the Dot read 15.5
// and 15.9 (this one reads 15.7 and 15.9). It is not inlined for the same
// reason as readPass.
//
//go:noinline
func readPassFloat(a, b []float64) float64 {
	var s0, s1, s2, s3 float64
	b = b[:len(a)]
	for i := 0; i <= len(a)-8; i += 8 {
		s0 += a[i]*b[i] + a[i+1]*b[i+1]
		s1 += a[i+2]*b[i+2] + a[i+3]*b[i+3]
		s2 += a[i+4]*b[i+4] + a[i+5]*b[i+5]
		s3 += a[i+6]*b[i+6] + a[i+7]*b[i+7]
	}
	return (s0 + s1) + (s2 + s3)
}

// chainOne and chainZero are 1 and 0, in variables so that the compiler
// can fold nothing in chainGeneric.
var chainOne, chainZero uint64 = 1, 0

// chainGeneric runs n iterations of ChainSteps dependent single-cycle
// integer operations, alternately x += one and x ^= zero, and returns x
// (n·ChainSteps/2 with one = 1 and zero = 0). Alternating them keeps the
// compiler from merging steps: it turns two adds of a variable into one
// LEAQ (x)(one*2), but has no rule combining an add with a xor (checked on
// amd64 and arm64 with go build -gcflags=-S).
func chainGeneric(n int, one, zero uint64) uint64 {
	var x uint64
	for range n {
		x += one
		x ^= zero
		x += one
		x ^= zero
		x += one
		x ^= zero
		x += one
		x ^= zero
		x += one
		x ^= zero
		x += one
		x ^= zero
		x += one
		x ^= zero
		x += one
		x ^= zero
		x += one
		x ^= zero
		x += one
		x ^= zero
		x += one
		x ^= zero
		x += one
		x ^= zero
		x += one
		x ^= zero
		x += one
		x ^= zero
		x += one
		x ^= zero
		x += one
		x ^= zero
		x += one
		x ^= zero
		x += one
		x ^= zero
		x += one
		x ^= zero
		x += one
		x ^= zero
		x += one
		x ^= zero
		x += one
		x ^= zero
		x += one
		x ^= zero
		x += one
		x ^= zero
		x += one
		x ^= zero
		x += one
		x ^= zero
		x += one
		x ^= zero
		x += one
		x ^= zero
		x += one
		x ^= zero
		x += one
		x ^= zero
		x += one
		x ^= zero
		x += one
		x ^= zero
	}
	return x
}
