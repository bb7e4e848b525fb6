//go:build !purego

#include "textflag.h"

// NEON micro-kernels of package gram (Go declarations in micro_arm64.go).
// The Go assembler has VLD1, VST1, VEOR and vector-by-vector VFMLA but not
// FMLA by element, so those are emitted with WORD; every WORD carries its
// mnemonic in a comment, the encodings were produced by
// aarch64-linux-gnu-as, and wordenc_test.go re-checks each one against the
// assembler when it is installed.

// func sgemm8x12(kc int, a, b, c *float32, ldc int, acc int)
//
// The 8×12 tile c[r·ldc+j] (+)= Σₖ a[k·8+r]·b[k·12+j] for k < kc,
// one FMA chain per value in k order. V0..V23 hold the tile (row r in
// V(3r)..V(3r+2)), V24..V26 the 12 values of b at k, V28.. the 8 values
// of a at k (used by element); R0 walks a, R1 walks b, R2 counts k, R5..R12
// point at the tile's rows.
TEXT ·sgemm8x12(SB), NOSPLIT, $0-48
	MOVD kc+0(FP), R2
	MOVD a+8(FP), R0
	MOVD b+16(FP), R1
	MOVD c+24(FP), R5
	MOVD ldc+32(FP), R4
	LSL $2, R4, R4 // row stride in bytes
	ADD R4, R5, R6
	ADD R4, R6, R7
	ADD R4, R7, R8
	ADD R4, R8, R9
	ADD R4, R9, R10
	ADD R4, R10, R11
	ADD R4, R11, R12
	MOVD acc+40(FP), R3
	CBZ R3, zero
	VLD1 (R5), [V0.S4, V1.S4, V2.S4]
	VLD1 (R6), [V3.S4, V4.S4, V5.S4]
	VLD1 (R7), [V6.S4, V7.S4, V8.S4]
	VLD1 (R8), [V9.S4, V10.S4, V11.S4]
	VLD1 (R9), [V12.S4, V13.S4, V14.S4]
	VLD1 (R10), [V15.S4, V16.S4, V17.S4]
	VLD1 (R11), [V18.S4, V19.S4, V20.S4]
	VLD1 (R12), [V21.S4, V22.S4, V23.S4]
	B start
zero:
	VEOR V0.B16, V0.B16, V0.B16
	VEOR V1.B16, V1.B16, V1.B16
	VEOR V2.B16, V2.B16, V2.B16
	VEOR V3.B16, V3.B16, V3.B16
	VEOR V4.B16, V4.B16, V4.B16
	VEOR V5.B16, V5.B16, V5.B16
	VEOR V6.B16, V6.B16, V6.B16
	VEOR V7.B16, V7.B16, V7.B16
	VEOR V8.B16, V8.B16, V8.B16
	VEOR V9.B16, V9.B16, V9.B16
	VEOR V10.B16, V10.B16, V10.B16
	VEOR V11.B16, V11.B16, V11.B16
	VEOR V12.B16, V12.B16, V12.B16
	VEOR V13.B16, V13.B16, V13.B16
	VEOR V14.B16, V14.B16, V14.B16
	VEOR V15.B16, V15.B16, V15.B16
	VEOR V16.B16, V16.B16, V16.B16
	VEOR V17.B16, V17.B16, V17.B16
	VEOR V18.B16, V18.B16, V18.B16
	VEOR V19.B16, V19.B16, V19.B16
	VEOR V20.B16, V20.B16, V20.B16
	VEOR V21.B16, V21.B16, V21.B16
	VEOR V22.B16, V22.B16, V22.B16
	VEOR V23.B16, V23.B16, V23.B16
start:
loop:
	VLD1.P 48(R1), [V24.S4, V25.S4, V26.S4]
	VLD1.P 32(R0), [V28.S4, V29.S4]
	WORD $0x4f9c1300 // fmla v0.4s, v24.4s, v28.s[0]
	WORD $0x4f9c1321 // fmla v1.4s, v25.4s, v28.s[0]
	WORD $0x4f9c1342 // fmla v2.4s, v26.4s, v28.s[0]
	WORD $0x4fbc1303 // fmla v3.4s, v24.4s, v28.s[1]
	WORD $0x4fbc1324 // fmla v4.4s, v25.4s, v28.s[1]
	WORD $0x4fbc1345 // fmla v5.4s, v26.4s, v28.s[1]
	WORD $0x4f9c1b06 // fmla v6.4s, v24.4s, v28.s[2]
	WORD $0x4f9c1b27 // fmla v7.4s, v25.4s, v28.s[2]
	WORD $0x4f9c1b48 // fmla v8.4s, v26.4s, v28.s[2]
	WORD $0x4fbc1b09 // fmla v9.4s, v24.4s, v28.s[3]
	WORD $0x4fbc1b2a // fmla v10.4s, v25.4s, v28.s[3]
	WORD $0x4fbc1b4b // fmla v11.4s, v26.4s, v28.s[3]
	WORD $0x4f9d130c // fmla v12.4s, v24.4s, v29.s[0]
	WORD $0x4f9d132d // fmla v13.4s, v25.4s, v29.s[0]
	WORD $0x4f9d134e // fmla v14.4s, v26.4s, v29.s[0]
	WORD $0x4fbd130f // fmla v15.4s, v24.4s, v29.s[1]
	WORD $0x4fbd1330 // fmla v16.4s, v25.4s, v29.s[1]
	WORD $0x4fbd1351 // fmla v17.4s, v26.4s, v29.s[1]
	WORD $0x4f9d1b12 // fmla v18.4s, v24.4s, v29.s[2]
	WORD $0x4f9d1b33 // fmla v19.4s, v25.4s, v29.s[2]
	WORD $0x4f9d1b54 // fmla v20.4s, v26.4s, v29.s[2]
	WORD $0x4fbd1b15 // fmla v21.4s, v24.4s, v29.s[3]
	WORD $0x4fbd1b36 // fmla v22.4s, v25.4s, v29.s[3]
	WORD $0x4fbd1b57 // fmla v23.4s, v26.4s, v29.s[3]
	SUBS $1, R2, R2
	BNE loop
	VST1 [V0.S4, V1.S4, V2.S4], (R5)
	VST1 [V3.S4, V4.S4, V5.S4], (R6)
	VST1 [V6.S4, V7.S4, V8.S4], (R7)
	VST1 [V9.S4, V10.S4, V11.S4], (R8)
	VST1 [V12.S4, V13.S4, V14.S4], (R9)
	VST1 [V15.S4, V16.S4, V17.S4], (R10)
	VST1 [V18.S4, V19.S4, V20.S4], (R11)
	VST1 [V21.S4, V22.S4, V23.S4], (R12)
	RET

// func dgemm8x6(kc int, a, b, c *float64, ldc int, acc int)
//
// The 8×6 tile c[r·ldc+j] (+)= Σₖ a[k·8+r]·b[k·6+j] for k < kc,
// one FMA chain per value in k order. V0..V23 hold the tile (row r in
// V(3r)..V(3r+2)), V24..V26 the 6 values of b at k, V28.. the 8 values
// of a at k (used by element); R0 walks a, R1 walks b, R2 counts k, R5..R12
// point at the tile's rows.
TEXT ·dgemm8x6(SB), NOSPLIT, $0-48
	MOVD kc+0(FP), R2
	MOVD a+8(FP), R0
	MOVD b+16(FP), R1
	MOVD c+24(FP), R5
	MOVD ldc+32(FP), R4
	LSL $3, R4, R4 // row stride in bytes
	ADD R4, R5, R6
	ADD R4, R6, R7
	ADD R4, R7, R8
	ADD R4, R8, R9
	ADD R4, R9, R10
	ADD R4, R10, R11
	ADD R4, R11, R12
	MOVD acc+40(FP), R3
	CBZ R3, zero
	VLD1 (R5), [V0.D2, V1.D2, V2.D2]
	VLD1 (R6), [V3.D2, V4.D2, V5.D2]
	VLD1 (R7), [V6.D2, V7.D2, V8.D2]
	VLD1 (R8), [V9.D2, V10.D2, V11.D2]
	VLD1 (R9), [V12.D2, V13.D2, V14.D2]
	VLD1 (R10), [V15.D2, V16.D2, V17.D2]
	VLD1 (R11), [V18.D2, V19.D2, V20.D2]
	VLD1 (R12), [V21.D2, V22.D2, V23.D2]
	B start
zero:
	VEOR V0.B16, V0.B16, V0.B16
	VEOR V1.B16, V1.B16, V1.B16
	VEOR V2.B16, V2.B16, V2.B16
	VEOR V3.B16, V3.B16, V3.B16
	VEOR V4.B16, V4.B16, V4.B16
	VEOR V5.B16, V5.B16, V5.B16
	VEOR V6.B16, V6.B16, V6.B16
	VEOR V7.B16, V7.B16, V7.B16
	VEOR V8.B16, V8.B16, V8.B16
	VEOR V9.B16, V9.B16, V9.B16
	VEOR V10.B16, V10.B16, V10.B16
	VEOR V11.B16, V11.B16, V11.B16
	VEOR V12.B16, V12.B16, V12.B16
	VEOR V13.B16, V13.B16, V13.B16
	VEOR V14.B16, V14.B16, V14.B16
	VEOR V15.B16, V15.B16, V15.B16
	VEOR V16.B16, V16.B16, V16.B16
	VEOR V17.B16, V17.B16, V17.B16
	VEOR V18.B16, V18.B16, V18.B16
	VEOR V19.B16, V19.B16, V19.B16
	VEOR V20.B16, V20.B16, V20.B16
	VEOR V21.B16, V21.B16, V21.B16
	VEOR V22.B16, V22.B16, V22.B16
	VEOR V23.B16, V23.B16, V23.B16
start:
loop:
	VLD1.P 48(R1), [V24.D2, V25.D2, V26.D2]
	VLD1.P 64(R0), [V28.D2, V29.D2, V30.D2, V31.D2]
	WORD $0x4fdc1300 // fmla v0.2d, v24.2d, v28.d[0]
	WORD $0x4fdc1321 // fmla v1.2d, v25.2d, v28.d[0]
	WORD $0x4fdc1342 // fmla v2.2d, v26.2d, v28.d[0]
	WORD $0x4fdc1b03 // fmla v3.2d, v24.2d, v28.d[1]
	WORD $0x4fdc1b24 // fmla v4.2d, v25.2d, v28.d[1]
	WORD $0x4fdc1b45 // fmla v5.2d, v26.2d, v28.d[1]
	WORD $0x4fdd1306 // fmla v6.2d, v24.2d, v29.d[0]
	WORD $0x4fdd1327 // fmla v7.2d, v25.2d, v29.d[0]
	WORD $0x4fdd1348 // fmla v8.2d, v26.2d, v29.d[0]
	WORD $0x4fdd1b09 // fmla v9.2d, v24.2d, v29.d[1]
	WORD $0x4fdd1b2a // fmla v10.2d, v25.2d, v29.d[1]
	WORD $0x4fdd1b4b // fmla v11.2d, v26.2d, v29.d[1]
	WORD $0x4fde130c // fmla v12.2d, v24.2d, v30.d[0]
	WORD $0x4fde132d // fmla v13.2d, v25.2d, v30.d[0]
	WORD $0x4fde134e // fmla v14.2d, v26.2d, v30.d[0]
	WORD $0x4fde1b0f // fmla v15.2d, v24.2d, v30.d[1]
	WORD $0x4fde1b30 // fmla v16.2d, v25.2d, v30.d[1]
	WORD $0x4fde1b51 // fmla v17.2d, v26.2d, v30.d[1]
	WORD $0x4fdf1312 // fmla v18.2d, v24.2d, v31.d[0]
	WORD $0x4fdf1333 // fmla v19.2d, v25.2d, v31.d[0]
	WORD $0x4fdf1354 // fmla v20.2d, v26.2d, v31.d[0]
	WORD $0x4fdf1b15 // fmla v21.2d, v24.2d, v31.d[1]
	WORD $0x4fdf1b36 // fmla v22.2d, v25.2d, v31.d[1]
	WORD $0x4fdf1b57 // fmla v23.2d, v26.2d, v31.d[1]
	SUBS $1, R2, R2
	BNE loop
	VST1 [V0.D2, V1.D2, V2.D2], (R5)
	VST1 [V3.D2, V4.D2, V5.D2], (R6)
	VST1 [V6.D2, V7.D2, V8.D2], (R7)
	VST1 [V9.D2, V10.D2, V11.D2], (R8)
	VST1 [V12.D2, V13.D2, V14.D2], (R9)
	VST1 [V15.D2, V16.D2, V17.D2], (R10)
	VST1 [V18.D2, V19.D2, V20.D2], (R11)
	VST1 [V21.D2, V22.D2, V23.D2], (R12)
	RET

