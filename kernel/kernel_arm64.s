//go:build !purego

#include "textflag.h"

// NEON (Advanced SIMD) kernels for arm64. The Go declarations, with the plain
// Go loop each one computes, are in kernel_arm64.go.
//
// The Go assembler (as of Go 1.26) has VFMLA, VLD1, VST1, VEOR, VDUP and VMOV
// but no vector FADD, FADDP, FSUB or FMUL, so those are emitted with WORD.
// Every WORD carries its mnemonic in a comment; the encodings were produced
// by aarch64-linux-gnu-as, and arm64_internal_test.go re-checks each one
// against the assembler when it is installed.
//
// Register use common to all functions: R0-R11 hold pointers and counts,
// V0-V7 hold accumulators, V16-V25 hold loaded data, V31 holds the
// broadcast scalar a. Loads and stores post-increment their pointer (.P),
// so a pointer always addresses the next unprocessed element. All loads are
// element-aligned only (LD1 needs no alignment), and nothing is read or
// written outside the slices: tails shrink from 16 (or 8) elements to one
// vector and then to single elements.

// func dotNEONF32(x, y []float32) float32
TEXT ·dotNEONF32(SB), NOSPLIT, $0-52
	// R0: x cursor, R1: y cursor, R2: n, R3: loop counter.
	// V0-V3: four partial-sum vectors (16 lanes of the sum).
	MOVD	x_base+0(FP), R0
	MOVD	x_len+8(FP), R2
	MOVD	y_base+24(FP), R1
	VEOR	V0.B16, V0.B16, V0.B16
	VEOR	V1.B16, V1.B16, V1.B16
	VEOR	V2.B16, V2.B16, V2.B16
	VEOR	V3.B16, V3.B16, V3.B16
	LSR	$4, R2, R3
	CBZ	R3, tail8

loop16:
	// V4-V7: x[i:i+16], V16-V19: y[i:i+16]; Vk += x*y, one FMA chain each.
	VLD1.P	64(R0), [V4.S4, V5.S4, V6.S4, V7.S4]
	VLD1.P	64(R1), [V16.S4, V17.S4, V18.S4, V19.S4]
	VFMLA	V4.S4, V16.S4, V0.S4
	VFMLA	V5.S4, V17.S4, V1.S4
	VFMLA	V6.S4, V18.S4, V2.S4
	VFMLA	V7.S4, V19.S4, V3.S4
	SUBS	$1, R3, R3
	BNE	loop16

tail8:
	// n&8: two more vectors into V0, V1.
	TBZ	$3, R2, tail4
	VLD1.P	32(R0), [V4.S4, V5.S4]
	VLD1.P	32(R1), [V16.S4, V17.S4]
	VFMLA	V4.S4, V16.S4, V0.S4
	VFMLA	V5.S4, V17.S4, V1.S4

tail4:
	// n&4: one more vector into V2.
	TBZ	$2, R2, reduce
	VLD1.P	16(R0), [V4.S4]
	VLD1.P	16(R1), [V16.S4]
	VFMLA	V4.S4, V16.S4, V2.S4

reduce:
	// V0 = (V0+V1)+(V2+V3), then its four lanes pairwise into F0.
	WORD	$0x4e21d400 // fadd  v0.4s, v0.4s, v1.4s
	WORD	$0x4e23d442 // fadd  v2.4s, v2.4s, v3.4s
	WORD	$0x4e22d400 // fadd  v0.4s, v0.4s, v2.4s
	WORD	$0x6e20d400 // faddp v0.4s, v0.4s, v0.4s
	WORD	$0x7e30d800 // faddp s0, v0.2s
	AND	$3, R2, R3
	CBZ	R3, done

tail1:
	// n&3 single elements: F0 += x[i]*y[i] (F4: x[i], F16: y[i]).
	FMOVS.P	4(R0), F4
	FMOVS.P	4(R1), F16
	FMADDS	F4, F0, F16, F0
	SUBS	$1, R3, R3
	BNE	tail1

done:
	FMOVS	F0, ret+48(FP)
	RET

// func dotNEONF64(x, y []float64) float64
TEXT ·dotNEONF64(SB), NOSPLIT, $0-56
	// R0: x cursor, R1: y cursor, R2: n, R3: loop counter.
	// V0-V3: four partial-sum vectors (8 lanes of the sum).
	MOVD	x_base+0(FP), R0
	MOVD	x_len+8(FP), R2
	MOVD	y_base+24(FP), R1
	VEOR	V0.B16, V0.B16, V0.B16
	VEOR	V1.B16, V1.B16, V1.B16
	VEOR	V2.B16, V2.B16, V2.B16
	VEOR	V3.B16, V3.B16, V3.B16
	LSR	$3, R2, R3
	CBZ	R3, tail4

loop8:
	// V4-V7: x[i:i+8], V16-V19: y[i:i+8]; Vk += x*y.
	VLD1.P	64(R0), [V4.D2, V5.D2, V6.D2, V7.D2]
	VLD1.P	64(R1), [V16.D2, V17.D2, V18.D2, V19.D2]
	VFMLA	V4.D2, V16.D2, V0.D2
	VFMLA	V5.D2, V17.D2, V1.D2
	VFMLA	V6.D2, V18.D2, V2.D2
	VFMLA	V7.D2, V19.D2, V3.D2
	SUBS	$1, R3, R3
	BNE	loop8

tail4:
	// n&4: two more vectors into V0, V1.
	TBZ	$2, R2, tail2
	VLD1.P	32(R0), [V4.D2, V5.D2]
	VLD1.P	32(R1), [V16.D2, V17.D2]
	VFMLA	V4.D2, V16.D2, V0.D2
	VFMLA	V5.D2, V17.D2, V1.D2

tail2:
	// n&2: one more vector into V2.
	TBZ	$1, R2, reduce
	VLD1.P	16(R0), [V4.D2]
	VLD1.P	16(R1), [V16.D2]
	VFMLA	V4.D2, V16.D2, V2.D2

reduce:
	// V0 = (V0+V1)+(V2+V3), then its two lanes into F0.
	WORD	$0x4e61d400 // fadd  v0.2d, v0.2d, v1.2d
	WORD	$0x4e63d442 // fadd  v2.2d, v2.2d, v3.2d
	WORD	$0x4e62d400 // fadd  v0.2d, v0.2d, v2.2d
	WORD	$0x7e70d800 // faddp d0, v0.2d

	// n&1: F0 += x[n-1]*y[n-1] (F4: x, F16: y).
	TBZ	$0, R2, done
	FMOVD	(R0), F4
	FMOVD	(R1), F16
	FMADDD	F4, F0, F16, F0

done:
	FMOVD	F0, ret+48(FP)
	RET

// func sqdistNEONF32(x, y []float32) float32
TEXT ·sqdistNEONF32(SB), NOSPLIT, $0-52
	// R0: x cursor, R1: y cursor, R2: n, R3: loop counter.
	// V0-V3: four partial-sum vectors; V4-V7 become the differences x-y.
	MOVD	x_base+0(FP), R0
	MOVD	x_len+8(FP), R2
	MOVD	y_base+24(FP), R1
	VEOR	V0.B16, V0.B16, V0.B16
	VEOR	V1.B16, V1.B16, V1.B16
	VEOR	V2.B16, V2.B16, V2.B16
	VEOR	V3.B16, V3.B16, V3.B16
	LSR	$4, R2, R3
	CBZ	R3, tail8

loop16:
	// V4-V7: x[i:i+16] - y[i:i+16] (y in V16-V19); Vk += d*d.
	VLD1.P	64(R0), [V4.S4, V5.S4, V6.S4, V7.S4]
	VLD1.P	64(R1), [V16.S4, V17.S4, V18.S4, V19.S4]
	WORD	$0x4eb0d484 // fsub v4.4s, v4.4s, v16.4s
	WORD	$0x4eb1d4a5 // fsub v5.4s, v5.4s, v17.4s
	WORD	$0x4eb2d4c6 // fsub v6.4s, v6.4s, v18.4s
	WORD	$0x4eb3d4e7 // fsub v7.4s, v7.4s, v19.4s
	VFMLA	V4.S4, V4.S4, V0.S4
	VFMLA	V5.S4, V5.S4, V1.S4
	VFMLA	V6.S4, V6.S4, V2.S4
	VFMLA	V7.S4, V7.S4, V3.S4
	SUBS	$1, R3, R3
	BNE	loop16

tail8:
	// n&8: two more vectors into V0, V1.
	TBZ	$3, R2, tail4
	VLD1.P	32(R0), [V4.S4, V5.S4]
	VLD1.P	32(R1), [V16.S4, V17.S4]
	WORD	$0x4eb0d484 // fsub v4.4s, v4.4s, v16.4s
	WORD	$0x4eb1d4a5 // fsub v5.4s, v5.4s, v17.4s
	VFMLA	V4.S4, V4.S4, V0.S4
	VFMLA	V5.S4, V5.S4, V1.S4

tail4:
	// n&4: one more vector into V2.
	TBZ	$2, R2, reduce
	VLD1.P	16(R0), [V4.S4]
	VLD1.P	16(R1), [V16.S4]
	WORD	$0x4eb0d484 // fsub v4.4s, v4.4s, v16.4s
	VFMLA	V4.S4, V4.S4, V2.S4

reduce:
	// V0 = (V0+V1)+(V2+V3), then its four lanes pairwise into F0.
	WORD	$0x4e21d400 // fadd  v0.4s, v0.4s, v1.4s
	WORD	$0x4e23d442 // fadd  v2.4s, v2.4s, v3.4s
	WORD	$0x4e22d400 // fadd  v0.4s, v0.4s, v2.4s
	WORD	$0x6e20d400 // faddp v0.4s, v0.4s, v0.4s
	WORD	$0x7e30d800 // faddp s0, v0.2s
	AND	$3, R2, R3
	CBZ	R3, done

tail1:
	// n&3 single elements: F4 = x[i]-y[i]; F0 += F4*F4.
	FMOVS.P	4(R0), F4
	FMOVS.P	4(R1), F16
	FSUBS	F16, F4, F4
	FMADDS	F4, F0, F4, F0
	SUBS	$1, R3, R3
	BNE	tail1

done:
	FMOVS	F0, ret+48(FP)
	RET

// func sqdistNEONF64(x, y []float64) float64
TEXT ·sqdistNEONF64(SB), NOSPLIT, $0-56
	// R0: x cursor, R1: y cursor, R2: n, R3: loop counter.
	// V0-V3: four partial-sum vectors; V4-V7 become the differences x-y.
	MOVD	x_base+0(FP), R0
	MOVD	x_len+8(FP), R2
	MOVD	y_base+24(FP), R1
	VEOR	V0.B16, V0.B16, V0.B16
	VEOR	V1.B16, V1.B16, V1.B16
	VEOR	V2.B16, V2.B16, V2.B16
	VEOR	V3.B16, V3.B16, V3.B16
	LSR	$3, R2, R3
	CBZ	R3, tail4

loop8:
	// V4-V7: x[i:i+8] - y[i:i+8] (y in V16-V19); Vk += d*d.
	VLD1.P	64(R0), [V4.D2, V5.D2, V6.D2, V7.D2]
	VLD1.P	64(R1), [V16.D2, V17.D2, V18.D2, V19.D2]
	WORD	$0x4ef0d484 // fsub v4.2d, v4.2d, v16.2d
	WORD	$0x4ef1d4a5 // fsub v5.2d, v5.2d, v17.2d
	WORD	$0x4ef2d4c6 // fsub v6.2d, v6.2d, v18.2d
	WORD	$0x4ef3d4e7 // fsub v7.2d, v7.2d, v19.2d
	VFMLA	V4.D2, V4.D2, V0.D2
	VFMLA	V5.D2, V5.D2, V1.D2
	VFMLA	V6.D2, V6.D2, V2.D2
	VFMLA	V7.D2, V7.D2, V3.D2
	SUBS	$1, R3, R3
	BNE	loop8

tail4:
	// n&4: two more vectors into V0, V1.
	TBZ	$2, R2, tail2
	VLD1.P	32(R0), [V4.D2, V5.D2]
	VLD1.P	32(R1), [V16.D2, V17.D2]
	WORD	$0x4ef0d484 // fsub v4.2d, v4.2d, v16.2d
	WORD	$0x4ef1d4a5 // fsub v5.2d, v5.2d, v17.2d
	VFMLA	V4.D2, V4.D2, V0.D2
	VFMLA	V5.D2, V5.D2, V1.D2

tail2:
	// n&2: one more vector into V2.
	TBZ	$1, R2, reduce
	VLD1.P	16(R0), [V4.D2]
	VLD1.P	16(R1), [V16.D2]
	WORD	$0x4ef0d484 // fsub v4.2d, v4.2d, v16.2d
	VFMLA	V4.D2, V4.D2, V2.D2

reduce:
	// V0 = (V0+V1)+(V2+V3), then its two lanes into F0.
	WORD	$0x4e61d400 // fadd  v0.2d, v0.2d, v1.2d
	WORD	$0x4e63d442 // fadd  v2.2d, v2.2d, v3.2d
	WORD	$0x4e62d400 // fadd  v0.2d, v0.2d, v2.2d
	WORD	$0x7e70d800 // faddp d0, v0.2d

	// n&1: F4 = x[n-1]-y[n-1]; F0 += F4*F4.
	TBZ	$0, R2, done
	FMOVD	(R0), F4
	FMOVD	(R1), F16
	FSUBD	F16, F4, F4
	FMADDD	F4, F0, F4, F0

done:
	FMOVD	F0, ret+48(FP)
	RET

// func axpyNEONF32(a float32, x, y []float32)
TEXT ·axpyNEONF32(SB), NOSPLIT, $0-56
	// R0: x cursor, R1: y cursor, R2: n, R3: loop counter.
	// V31: a in every lane; V4-V7: x block; V16-V19: y block, updated in place.
	FMOVS	a+0(FP), F31
	VDUP	V31.S[0], V31.S4
	MOVD	x_base+8(FP), R0
	MOVD	x_len+16(FP), R2
	MOVD	y_base+32(FP), R1
	LSR	$4, R2, R3
	CBZ	R3, tail8

loop16:
	// y[i:i+16] += a*x[i:i+16]; the store advances R1.
	VLD1.P	64(R0), [V4.S4, V5.S4, V6.S4, V7.S4]
	VLD1	(R1), [V16.S4, V17.S4, V18.S4, V19.S4]
	VFMLA	V31.S4, V4.S4, V16.S4
	VFMLA	V31.S4, V5.S4, V17.S4
	VFMLA	V31.S4, V6.S4, V18.S4
	VFMLA	V31.S4, V7.S4, V19.S4
	VST1.P	[V16.S4, V17.S4, V18.S4, V19.S4], 64(R1)
	SUBS	$1, R3, R3
	BNE	loop16

tail8:
	// n&8: two vectors.
	TBZ	$3, R2, tail4
	VLD1.P	32(R0), [V4.S4, V5.S4]
	VLD1	(R1), [V16.S4, V17.S4]
	VFMLA	V31.S4, V4.S4, V16.S4
	VFMLA	V31.S4, V5.S4, V17.S4
	VST1.P	[V16.S4, V17.S4], 32(R1)

tail4:
	// n&4: one vector.
	TBZ	$2, R2, tail
	VLD1.P	16(R0), [V4.S4]
	VLD1	(R1), [V16.S4]
	VFMLA	V31.S4, V4.S4, V16.S4
	VST1.P	[V16.S4], 16(R1)

tail:
	AND	$3, R2, R3
	CBZ	R3, done

tail1:
	// n&3 single elements: F16 = y[i] + a*x[i] (F4: x[i]).
	FMOVS.P	4(R0), F4
	FMOVS	(R1), F16
	FMADDS	F4, F16, F31, F16
	FMOVS.P	F16, 4(R1)
	SUBS	$1, R3, R3
	BNE	tail1

done:
	RET

// func axpyNEONF64(a float64, x, y []float64)
TEXT ·axpyNEONF64(SB), NOSPLIT, $0-56
	// R0: x cursor, R1: y cursor, R2: n, R3: loop counter.
	// V31: a in both lanes; V4-V7: x block; V16-V19: y block, updated in place.
	FMOVD	a+0(FP), F31
	VDUP	V31.D[0], V31.D2
	MOVD	x_base+8(FP), R0
	MOVD	x_len+16(FP), R2
	MOVD	y_base+32(FP), R1
	LSR	$3, R2, R3
	CBZ	R3, tail4

loop8:
	// y[i:i+8] += a*x[i:i+8]; the store advances R1.
	VLD1.P	64(R0), [V4.D2, V5.D2, V6.D2, V7.D2]
	VLD1	(R1), [V16.D2, V17.D2, V18.D2, V19.D2]
	VFMLA	V31.D2, V4.D2, V16.D2
	VFMLA	V31.D2, V5.D2, V17.D2
	VFMLA	V31.D2, V6.D2, V18.D2
	VFMLA	V31.D2, V7.D2, V19.D2
	VST1.P	[V16.D2, V17.D2, V18.D2, V19.D2], 64(R1)
	SUBS	$1, R3, R3
	BNE	loop8

tail4:
	// n&4: two vectors.
	TBZ	$2, R2, tail2
	VLD1.P	32(R0), [V4.D2, V5.D2]
	VLD1	(R1), [V16.D2, V17.D2]
	VFMLA	V31.D2, V4.D2, V16.D2
	VFMLA	V31.D2, V5.D2, V17.D2
	VST1.P	[V16.D2, V17.D2], 32(R1)

tail2:
	// n&2: one vector.
	TBZ	$1, R2, tail1
	VLD1.P	16(R0), [V4.D2]
	VLD1	(R1), [V16.D2]
	VFMLA	V31.D2, V4.D2, V16.D2
	VST1.P	[V16.D2], 16(R1)

tail1:
	// n&1: F16 = y[n-1] + a*x[n-1] (F4: x[n-1]).
	TBZ	$0, R2, done
	FMOVD	(R0), F4
	FMOVD	(R1), F16
	FMADDD	F4, F16, F31, F16
	FMOVD	F16, (R1)

done:
	RET

// func scaleNEONF32(a float32, x []float32)
TEXT ·scaleNEONF32(SB), NOSPLIT, $0-32
	// R0: read cursor, R1: write cursor (both start at x), R2: n,
	// R3: loop counter. V31: a in every lane; V4-V7: x block.
	FMOVS	a+0(FP), F31
	VDUP	V31.S[0], V31.S4
	MOVD	x_base+8(FP), R0
	MOVD	x_len+16(FP), R2
	MOVD	R0, R1
	LSR	$4, R2, R3
	CBZ	R3, tail8

loop16:
	// x[i:i+16] *= a.
	VLD1.P	64(R0), [V4.S4, V5.S4, V6.S4, V7.S4]
	WORD	$0x6e3fdc84 // fmul v4.4s, v4.4s, v31.4s
	WORD	$0x6e3fdca5 // fmul v5.4s, v5.4s, v31.4s
	WORD	$0x6e3fdcc6 // fmul v6.4s, v6.4s, v31.4s
	WORD	$0x6e3fdce7 // fmul v7.4s, v7.4s, v31.4s
	VST1.P	[V4.S4, V5.S4, V6.S4, V7.S4], 64(R1)
	SUBS	$1, R3, R3
	BNE	loop16

tail8:
	// n&8: two vectors.
	TBZ	$3, R2, tail4
	VLD1.P	32(R0), [V4.S4, V5.S4]
	WORD	$0x6e3fdc84 // fmul v4.4s, v4.4s, v31.4s
	WORD	$0x6e3fdca5 // fmul v5.4s, v5.4s, v31.4s
	VST1.P	[V4.S4, V5.S4], 32(R1)

tail4:
	// n&4: one vector.
	TBZ	$2, R2, tail
	VLD1.P	16(R0), [V4.S4]
	WORD	$0x6e3fdc84 // fmul v4.4s, v4.4s, v31.4s
	VST1.P	[V4.S4], 16(R1)

tail:
	AND	$3, R2, R3
	CBZ	R3, done

tail1:
	// n&3 single elements: F4 = x[i]*a.
	FMOVS	(R1), F4
	FMULS	F31, F4, F4
	FMOVS.P	F4, 4(R1)
	SUBS	$1, R3, R3
	BNE	tail1

done:
	RET

// func scaleNEONF64(a float64, x []float64)
TEXT ·scaleNEONF64(SB), NOSPLIT, $0-32
	// R0: read cursor, R1: write cursor (both start at x), R2: n,
	// R3: loop counter. V31: a in both lanes; V4-V7: x block.
	FMOVD	a+0(FP), F31
	VDUP	V31.D[0], V31.D2
	MOVD	x_base+8(FP), R0
	MOVD	x_len+16(FP), R2
	MOVD	R0, R1
	LSR	$3, R2, R3
	CBZ	R3, tail4

loop8:
	// x[i:i+8] *= a.
	VLD1.P	64(R0), [V4.D2, V5.D2, V6.D2, V7.D2]
	WORD	$0x6e7fdc84 // fmul v4.2d, v4.2d, v31.2d
	WORD	$0x6e7fdca5 // fmul v5.2d, v5.2d, v31.2d
	WORD	$0x6e7fdcc6 // fmul v6.2d, v6.2d, v31.2d
	WORD	$0x6e7fdce7 // fmul v7.2d, v7.2d, v31.2d
	VST1.P	[V4.D2, V5.D2, V6.D2, V7.D2], 64(R1)
	SUBS	$1, R3, R3
	BNE	loop8

tail4:
	// n&4: two vectors.
	TBZ	$2, R2, tail2
	VLD1.P	32(R0), [V4.D2, V5.D2]
	WORD	$0x6e7fdc84 // fmul v4.2d, v4.2d, v31.2d
	WORD	$0x6e7fdca5 // fmul v5.2d, v5.2d, v31.2d
	VST1.P	[V4.D2, V5.D2], 32(R1)

tail2:
	// n&2: one vector.
	TBZ	$1, R2, tail1
	VLD1.P	16(R0), [V4.D2]
	WORD	$0x6e7fdc84 // fmul v4.2d, v4.2d, v31.2d
	VST1.P	[V4.D2], 16(R1)

tail1:
	// n&1: F4 = x[n-1]*a.
	TBZ	$0, R2, done
	FMOVD	(R1), F4
	FMULD	F31, F4, F4
	FMOVD	F4, (R1)

done:
	RET

// func matvecNEONF32(dst, m, w []float32)
TEXT ·matvecNEONF32(SB), NOSPLIT, $0-72
	// R0: dst cursor, R1: rows left, R2: start of the next row of m,
	// R3: w, R4: d = len(w), R5: row stride in bytes (4d).
	MOVD	dst_base+0(FP), R0
	MOVD	dst_len+8(FP), R1
	MOVD	m_base+24(FP), R2
	MOVD	w_base+48(FP), R3
	MOVD	w_len+56(FP), R4
	LSL	$2, R4, R5
	CMP	$4, R1
	BLT	one

four:
	// Four rows at a time, sharing each load of w.
	// R6-R9: cursors in rows i..i+3, R10: w cursor, R11: loop counter.
	// V0,V1: row i accumulators; V2,V3: i+1; V4,V5: i+2; V6,V7: i+3.
	MOVD	R2, R6
	ADD	R5, R6, R7
	ADD	R5, R7, R8
	ADD	R5, R8, R9
	MOVD	R3, R10
	VEOR	V0.B16, V0.B16, V0.B16
	VEOR	V1.B16, V1.B16, V1.B16
	VEOR	V2.B16, V2.B16, V2.B16
	VEOR	V3.B16, V3.B16, V3.B16
	VEOR	V4.B16, V4.B16, V4.B16
	VEOR	V5.B16, V5.B16, V5.B16
	VEOR	V6.B16, V6.B16, V6.B16
	VEOR	V7.B16, V7.B16, V7.B16
	LSR	$3, R4, R11
	CBZ	R11, four4

four8:
	// V16,V17: w[j:j+8]; V18-V25: the same columns of the four rows.
	VLD1.P	32(R10), [V16.S4, V17.S4]
	VLD1.P	32(R6), [V18.S4, V19.S4]
	VLD1.P	32(R7), [V20.S4, V21.S4]
	VLD1.P	32(R8), [V22.S4, V23.S4]
	VLD1.P	32(R9), [V24.S4, V25.S4]
	VFMLA	V16.S4, V18.S4, V0.S4
	VFMLA	V17.S4, V19.S4, V1.S4
	VFMLA	V16.S4, V20.S4, V2.S4
	VFMLA	V17.S4, V21.S4, V3.S4
	VFMLA	V16.S4, V22.S4, V4.S4
	VFMLA	V17.S4, V23.S4, V5.S4
	VFMLA	V16.S4, V24.S4, V6.S4
	VFMLA	V17.S4, V25.S4, V7.S4
	SUBS	$1, R11, R11
	BNE	four8

four4:
	// d&4: one more vector per row.
	TBZ	$2, R4, fourreduce
	VLD1.P	16(R10), [V16.S4]
	VLD1.P	16(R6), [V18.S4]
	VLD1.P	16(R7), [V20.S4]
	VLD1.P	16(R8), [V22.S4]
	VLD1.P	16(R9), [V24.S4]
	VFMLA	V16.S4, V18.S4, V0.S4
	VFMLA	V16.S4, V20.S4, V2.S4
	VFMLA	V16.S4, V22.S4, V4.S4
	VFMLA	V16.S4, V24.S4, V6.S4

fourreduce:
	// Each row's pair into one vector, then pairwise adds until
	// V0 = [dot i, dot i+1, dot i+2, dot i+3].
	WORD	$0x4e21d400 // fadd  v0.4s, v0.4s, v1.4s
	WORD	$0x4e23d442 // fadd  v2.4s, v2.4s, v3.4s
	WORD	$0x4e25d484 // fadd  v4.4s, v4.4s, v5.4s
	WORD	$0x4e27d4c6 // fadd  v6.4s, v6.4s, v7.4s
	WORD	$0x6e22d400 // faddp v0.4s, v0.4s, v2.4s
	WORD	$0x6e26d484 // faddp v4.4s, v4.4s, v6.4s
	WORD	$0x6e24d400 // faddp v0.4s, v0.4s, v4.4s
	AND	$3, R4, R11
	CBZ	R11, fourstore

four1:
	// d&3 single columns j: V16 = w[j] in every lane, V18 = column j of
	// the four rows; V0 += V16*V18.
	VLD1R.P	4(R10), [V16.S4]
	VLD1.P	4(R6), V18.S[0]
	VLD1.P	4(R7), V18.S[1]
	VLD1.P	4(R8), V18.S[2]
	VLD1.P	4(R9), V18.S[3]
	VFMLA	V16.S4, V18.S4, V0.S4
	SUBS	$1, R11, R11
	BNE	four1

fourstore:
	// R9 has walked to the end of row i+3, which is the start of row i+4.
	VST1.P	[V0.S4], 16(R0)
	MOVD	R9, R2
	SUB	$4, R1, R1
	CMP	$4, R1
	BGE	four

one:
	// The last len(dst)%4 rows, one at a time, as in dotNEONF32.
	// R2: cursor in the row, R10: w cursor, R11: loop counter,
	// V0-V3: partial sums.
	CBZ	R1, done

onerow:
	MOVD	R3, R10
	VEOR	V0.B16, V0.B16, V0.B16
	VEOR	V1.B16, V1.B16, V1.B16
	VEOR	V2.B16, V2.B16, V2.B16
	VEOR	V3.B16, V3.B16, V3.B16
	LSR	$4, R4, R11
	CBZ	R11, one8

one16:
	// V16-V19: w[j:j+16], V20-V23: row[j:j+16].
	VLD1.P	64(R10), [V16.S4, V17.S4, V18.S4, V19.S4]
	VLD1.P	64(R2), [V20.S4, V21.S4, V22.S4, V23.S4]
	VFMLA	V16.S4, V20.S4, V0.S4
	VFMLA	V17.S4, V21.S4, V1.S4
	VFMLA	V18.S4, V22.S4, V2.S4
	VFMLA	V19.S4, V23.S4, V3.S4
	SUBS	$1, R11, R11
	BNE	one16

one8:
	TBZ	$3, R4, one4
	VLD1.P	32(R10), [V16.S4, V17.S4]
	VLD1.P	32(R2), [V20.S4, V21.S4]
	VFMLA	V16.S4, V20.S4, V0.S4
	VFMLA	V17.S4, V21.S4, V1.S4

one4:
	TBZ	$2, R4, onereduce
	VLD1.P	16(R10), [V16.S4]
	VLD1.P	16(R2), [V20.S4]
	VFMLA	V16.S4, V20.S4, V2.S4

onereduce:
	WORD	$0x4e21d400 // fadd  v0.4s, v0.4s, v1.4s
	WORD	$0x4e23d442 // fadd  v2.4s, v2.4s, v3.4s
	WORD	$0x4e22d400 // fadd  v0.4s, v0.4s, v2.4s
	WORD	$0x6e20d400 // faddp v0.4s, v0.4s, v0.4s
	WORD	$0x7e30d800 // faddp s0, v0.2s
	AND	$3, R4, R11
	CBZ	R11, onestore

one1:
	// F0 += w[j]*row[j] (F16: w[j], F20: row[j]).
	FMOVS.P	4(R10), F16
	FMOVS.P	4(R2), F20
	FMADDS	F16, F0, F20, F0
	SUBS	$1, R11, R11
	BNE	one1

onestore:
	// R2 has walked to the start of the next row.
	FMOVS.P	F0, 4(R0)
	SUBS	$1, R1, R1
	BNE	onerow

done:
	RET

// func matvecNEONF64(dst, m, w []float64)
TEXT ·matvecNEONF64(SB), NOSPLIT, $0-72
	// R0: dst cursor, R1: rows left, R2: start of the next row of m,
	// R3: w, R4: d = len(w), R5: row stride in bytes (8d).
	MOVD	dst_base+0(FP), R0
	MOVD	dst_len+8(FP), R1
	MOVD	m_base+24(FP), R2
	MOVD	w_base+48(FP), R3
	MOVD	w_len+56(FP), R4
	LSL	$3, R4, R5
	CMP	$4, R1
	BLT	one

four:
	// Four rows at a time, sharing each load of w.
	// R6-R9: cursors in rows i..i+3, R10: w cursor, R11: loop counter.
	// V0,V1: row i accumulators; V2,V3: i+1; V4,V5: i+2; V6,V7: i+3.
	MOVD	R2, R6
	ADD	R5, R6, R7
	ADD	R5, R7, R8
	ADD	R5, R8, R9
	MOVD	R3, R10
	VEOR	V0.B16, V0.B16, V0.B16
	VEOR	V1.B16, V1.B16, V1.B16
	VEOR	V2.B16, V2.B16, V2.B16
	VEOR	V3.B16, V3.B16, V3.B16
	VEOR	V4.B16, V4.B16, V4.B16
	VEOR	V5.B16, V5.B16, V5.B16
	VEOR	V6.B16, V6.B16, V6.B16
	VEOR	V7.B16, V7.B16, V7.B16
	LSR	$2, R4, R11
	CBZ	R11, four2

four4:
	// V16,V17: w[j:j+4]; V18-V25: the same columns of the four rows.
	VLD1.P	32(R10), [V16.D2, V17.D2]
	VLD1.P	32(R6), [V18.D2, V19.D2]
	VLD1.P	32(R7), [V20.D2, V21.D2]
	VLD1.P	32(R8), [V22.D2, V23.D2]
	VLD1.P	32(R9), [V24.D2, V25.D2]
	VFMLA	V16.D2, V18.D2, V0.D2
	VFMLA	V17.D2, V19.D2, V1.D2
	VFMLA	V16.D2, V20.D2, V2.D2
	VFMLA	V17.D2, V21.D2, V3.D2
	VFMLA	V16.D2, V22.D2, V4.D2
	VFMLA	V17.D2, V23.D2, V5.D2
	VFMLA	V16.D2, V24.D2, V6.D2
	VFMLA	V17.D2, V25.D2, V7.D2
	SUBS	$1, R11, R11
	BNE	four4

four2:
	// d&2: one more vector per row.
	TBZ	$1, R4, fourreduce
	VLD1.P	16(R10), [V16.D2]
	VLD1.P	16(R6), [V18.D2]
	VLD1.P	16(R7), [V20.D2]
	VLD1.P	16(R8), [V22.D2]
	VLD1.P	16(R9), [V24.D2]
	VFMLA	V16.D2, V18.D2, V0.D2
	VFMLA	V16.D2, V20.D2, V2.D2
	VFMLA	V16.D2, V22.D2, V4.D2
	VFMLA	V16.D2, V24.D2, V6.D2

fourreduce:
	// Each row's pair into one vector, then pairwise adds to
	// V0 = [dot i, dot i+1], V1 = [dot i+2, dot i+3].
	WORD	$0x4e61d400 // fadd  v0.2d, v0.2d, v1.2d
	WORD	$0x4e63d442 // fadd  v2.2d, v2.2d, v3.2d
	WORD	$0x4e65d484 // fadd  v4.2d, v4.2d, v5.2d
	WORD	$0x4e67d4c6 // fadd  v6.2d, v6.2d, v7.2d
	WORD	$0x6e62d400 // faddp v0.2d, v0.2d, v2.2d
	WORD	$0x6e66d481 // faddp v1.2d, v4.2d, v6.2d

	// d&1: the last column j: V16 = w[j] in both lanes, V18/V19 = column
	// j of rows i, i+1 / i+2, i+3.
	TBZ	$0, R4, fourstore
	VLD1R.P	8(R10), [V16.D2]
	VLD1.P	8(R6), V18.D[0]
	VLD1.P	8(R7), V18.D[1]
	VLD1.P	8(R8), V19.D[0]
	VLD1.P	8(R9), V19.D[1]
	VFMLA	V16.D2, V18.D2, V0.D2
	VFMLA	V16.D2, V19.D2, V1.D2

fourstore:
	// R9 has walked to the end of row i+3, which is the start of row i+4.
	VST1.P	[V0.D2, V1.D2], 32(R0)
	MOVD	R9, R2
	SUB	$4, R1, R1
	CMP	$4, R1
	BGE	four

one:
	// The last len(dst)%4 rows, one at a time, as in dotNEONF64.
	// R2: cursor in the row, R10: w cursor, R11: loop counter,
	// V0-V3: partial sums.
	CBZ	R1, done

onerow:
	MOVD	R3, R10
	VEOR	V0.B16, V0.B16, V0.B16
	VEOR	V1.B16, V1.B16, V1.B16
	VEOR	V2.B16, V2.B16, V2.B16
	VEOR	V3.B16, V3.B16, V3.B16
	LSR	$3, R4, R11
	CBZ	R11, one4

one8:
	// V16-V19: w[j:j+8], V20-V23: row[j:j+8].
	VLD1.P	64(R10), [V16.D2, V17.D2, V18.D2, V19.D2]
	VLD1.P	64(R2), [V20.D2, V21.D2, V22.D2, V23.D2]
	VFMLA	V16.D2, V20.D2, V0.D2
	VFMLA	V17.D2, V21.D2, V1.D2
	VFMLA	V18.D2, V22.D2, V2.D2
	VFMLA	V19.D2, V23.D2, V3.D2
	SUBS	$1, R11, R11
	BNE	one8

one4:
	TBZ	$2, R4, one2
	VLD1.P	32(R10), [V16.D2, V17.D2]
	VLD1.P	32(R2), [V20.D2, V21.D2]
	VFMLA	V16.D2, V20.D2, V0.D2
	VFMLA	V17.D2, V21.D2, V1.D2

one2:
	TBZ	$1, R4, onereduce
	VLD1.P	16(R10), [V16.D2]
	VLD1.P	16(R2), [V20.D2]
	VFMLA	V16.D2, V20.D2, V2.D2

onereduce:
	WORD	$0x4e61d400 // fadd  v0.2d, v0.2d, v1.2d
	WORD	$0x4e63d442 // fadd  v2.2d, v2.2d, v3.2d
	WORD	$0x4e62d400 // fadd  v0.2d, v0.2d, v2.2d
	WORD	$0x7e70d800 // faddp d0, v0.2d

	// d&1: F0 += w[d-1]*row[d-1] (F16: w, F20: row).
	TBZ	$0, R4, onestore
	FMOVD.P	8(R10), F16
	FMOVD.P	8(R2), F20
	FMADDD	F16, F0, F20, F0

onestore:
	// R2 has walked to the start of the next row.
	FMOVD.P	F0, 8(R0)
	SUBS	$1, R1, R1
	BNE	onerow

done:
	RET
