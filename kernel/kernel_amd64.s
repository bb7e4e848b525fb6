//go:build !purego

#include "textflag.h"

// AVX2+FMA kernels for amd64 (the "avx2" implementation).
//
// Conventions for every function in this file:
//   - lengths are turned into byte counts at entry, so the float32 and
//     float64 versions share one structure (a YMM register is 32 bytes:
//     8 float32 or 4 float64);
//   - all vector loads and stores are unaligned (VMOVUPS/VMOVUPD): Go only
//     guarantees 4- or 8-byte alignment;
//   - reductions keep independent partial sums so the FMA latency is hidden;
//   - no kernel reads or writes a byte outside its slices. A reduction whose
//     length is not a whole number of vectors finishes with the last 32
//     bytes of the slice, which overlap bytes already summed; those lanes
//     are cleared with VANDPS against a mask from tailMask, so every element
//     counts once. (VMASKMOVPS would also be correct on hardware, but
//     emulators such as qemu 7.2 fault on its masked-off bytes past a page
//     end.) Inputs shorter than one vector take one XMM vector (plus an
//     overlapping one) or single elements;
//   - element-wise kernels (axpy, scale) finish with one XMM vector and a
//     scalar loop;
//   - VZEROUPPER before every RET.

// tailMask: 32 zero bytes then 32 bytes of ones. The 32 bytes at
// tailMask+r (0 <= r < 32) have only their last r bytes set: ANDed with the
// last 32 bytes of a slice, they keep the r bytes not yet summed. The 16
// bytes at tailMask+16+r (0 <= r < 16) do the same for an XMM vector.
DATA tailMask<>+0x00(SB)/8, $0
DATA tailMask<>+0x08(SB)/8, $0
DATA tailMask<>+0x10(SB)/8, $0
DATA tailMask<>+0x18(SB)/8, $0
DATA tailMask<>+0x20(SB)/8, $0xffffffffffffffff
DATA tailMask<>+0x28(SB)/8, $0xffffffffffffffff
DATA tailMask<>+0x30(SB)/8, $0xffffffffffffffff
DATA tailMask<>+0x38(SB)/8, $0xffffffffffffffff
GLOBL tailMask<>(SB), RODATA|NOPTR, $64

// HSUMPS: X0[0] = sum of the eight float32 lanes of Y0. Clobbers X1.
// Steps: fold the high 128 bits onto the low (4 sums), the high 64 onto the
// low (2 sums), then lane 1 onto lane 0.
#define HSUMPS \
	VEXTRACTF128 $1, Y0, X1; \
	VADDPS       X1, X0, X0; \
	VMOVHLPS     X0, X0, X1; \
	VADDPS       X1, X0, X0; \
	VMOVSHDUP    X0, X1;     \
	VADDSS       X1, X0, X0

// HSUMPD: X0[0] = sum of the four float64 lanes of Y0. Clobbers X1.
// Steps: fold the high 128 bits onto the low (2 sums), then lane 1 onto lane 0.
#define HSUMPD \
	VEXTRACTF128 $1, Y0, X1; \
	VADDPD       X1, X0, X0; \
	VUNPCKHPD    X0, X0, X1; \
	VADDSD       X1, X0, X0

// ROWS4PS: X0 = [sum(Y0), sum(Y1), sum(Y2), sum(Y3)] in float32 lanes: the
// four row sums of a matvec block. Clobbers Y1, Y2. With a..d the lanes of
// Y0..Y3:
//   VHADDPS Y1, Y0, Y0  ->  [a01 a23 b01 b23 | a45 a67 b45 b67]
//   VHADDPS Y3, Y2, Y2  ->  [c01 c23 d01 d23 | c45 c67 d45 d67]
//   VHADDPS Y2, Y0, Y0  ->  [a0-3 b0-3 c0-3 d0-3 | a4-7 b4-7 c4-7 d4-7]
//   fold high half onto low -> [a b c d]
#define ROWS4PS \
	VHADDPS      Y1, Y0, Y0; \
	VHADDPS      Y3, Y2, Y2; \
	VHADDPS      Y2, Y0, Y0; \
	VEXTRACTF128 $1, Y0, X1; \
	VADDPS       X1, X0, X0

// ROWS4PD: Y0 = [sum(Y0), sum(Y1), sum(Y2), sum(Y3)] in float64 lanes: the
// four row sums of a matvec block. Clobbers Y1, Y2. With a..d the lanes of
// Y0..Y3:
//   VHADDPD Y1, Y0, Y0               ->  [a01 b01 | a23 b23]
//   VHADDPD Y3, Y2, Y2               ->  [c01 d01 | c23 d23]
//   VPERM2F128 $0x21, Y2, Y0, Y1     ->  [a23 b23 | c01 d01]
//   VBLENDPD $0x0c, Y2, Y0, Y0       ->  [a01 b01 | c23 d23]
//   add                              ->  [a b c d]
#define ROWS4PD \
	VHADDPD      Y1, Y0, Y0;        \
	VHADDPD      Y3, Y2, Y2;        \
	VPERM2F128   $0x21, Y2, Y0, Y1; \
	VBLENDPD     $0x0c, Y2, Y0, Y0; \
	VADDPD       Y1, Y0, Y0

// func dotAVX2F32(x, y []float32) float32
TEXT ·dotAVX2F32(SB), NOSPLIT, $0-52
	// SI = &x[0], DI = &y[0], CX = bytes left
	MOVQ x_base+0(FP), SI
	MOVQ y_base+24(FP), DI
	MOVQ x_len+8(FP), CX
	SHLQ $2, CX

	// Y0..Y3 = four independent partial sums; the main loop adds
	// Y4..Y7 and folds them in afterwards
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	CMPQ   CX, $32
	JB     small
	CMPQ   CX, $256
	JB     tail
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7

	PCALIGN $32

loop:
	// 8 vectors (256 bytes) per iteration; Y8..Y11 = x vectors
	VMOVUPS     (SI), Y8
	VMOVUPS     32(SI), Y9
	VMOVUPS     64(SI), Y10
	VMOVUPS     96(SI), Y11
	VFMADD231PS (DI), Y8, Y0
	VFMADD231PS 32(DI), Y9, Y1
	VFMADD231PS 64(DI), Y10, Y2
	VFMADD231PS 96(DI), Y11, Y3
	VMOVUPS     128(SI), Y8
	VMOVUPS     160(SI), Y9
	VMOVUPS     192(SI), Y10
	VMOVUPS     224(SI), Y11
	VFMADD231PS 128(DI), Y8, Y4
	VFMADD231PS 160(DI), Y9, Y5
	VFMADD231PS 192(DI), Y10, Y6
	VFMADD231PS 224(DI), Y11, Y7
	ADDQ        $256, SI
	ADDQ        $256, DI
	SUBQ        $256, CX
	CMPQ        CX, $256
	JAE         loop

	// fold the loop's eight partial sums into Y0..Y3
	VADDPS Y4, Y0, Y0
	VADDPS Y5, Y1, Y1
	VADDPS Y6, Y2, Y2
	VADDPS Y7, Y3, Y3
	TESTQ  CX, CX
	JZ     sum

tail:
	// CX < 256: 4, 2 and 1 whole vectors as the bits of CX say, then
	// the overlapping masked last vector, spread over the partial sums so that no sum
	// takes more than two of these steps
	CMPQ        CX, $128
	JB          tail64
	VMOVUPS     (SI), Y8
	VMOVUPS     32(SI), Y9
	VMOVUPS     64(SI), Y10
	VMOVUPS     96(SI), Y11
	VFMADD231PS (DI), Y8, Y0
	VFMADD231PS 32(DI), Y9, Y1
	VFMADD231PS 64(DI), Y10, Y2
	VFMADD231PS 96(DI), Y11, Y3
	ADDQ        $128, SI
	ADDQ        $128, DI
	SUBQ        $128, CX

tail64:
	CMPQ        CX, $64
	JB          tail32
	VMOVUPS     (SI), Y8
	VMOVUPS     32(SI), Y9
	VFMADD231PS (DI), Y8, Y2
	VFMADD231PS 32(DI), Y9, Y3
	ADDQ        $64, SI
	ADDQ        $64, DI
	SUBQ        $64, CX

tail32:
	CMPQ        CX, $32
	JB          tailmask
	VMOVUPS     (SI), Y8
	VFMADD231PS (DI), Y8, Y0
	ADDQ        $32, SI
	ADDQ        $32, DI
	SUBQ        $32, CX

tailmask:
	// 0 < CX < 32 bytes left: Y12 = mask of the last CX bytes of a vector;
	// Y8, Y9 = the last 32 bytes of x and y (in bounds: the input is at
	// least 32 bytes long) with the lanes already summed cleared
	TESTQ       CX, CX
	JZ          sum
	LEAQ        tailMask<>(SB), AX
	VMOVDQU     (AX)(CX*1), Y12
	VANDPS      -32(SI)(CX*1), Y12, Y8
	VANDPS      -32(DI)(CX*1), Y12, Y9
	VFMADD231PS Y9, Y8, Y1

sum:
	// pairwise sum of the four partial sums, then across lanes
	VADDPS Y1, Y0, Y0
	VADDPS Y3, Y2, Y2
	VADDPS Y2, Y0, Y0
	HSUMPS
	VMOVSS X0, ret+48(FP)
	VZEROUPPER
	RET

small:
	// CX < 32 bytes in all: one XMM vector into X0 and the overlapping
	// last 16 bytes, masked by X12, into X1; or, below 16 bytes, single
	// elements into X0 (SI, DI advance)
	CMPQ        CX, $16
	JB          scalar
	VMOVUPS     (SI), X8
	VFMADD231PS (DI), X8, X0
	SUBQ        $16, CX
	JZ          sum
	LEAQ        tailMask<>+16(SB), AX
	VMOVDQU     (AX)(CX*1), X12
	VANDPS      (SI)(CX*1), X12, X8
	VANDPS      (DI)(CX*1), X12, X9
	VFMADD231PS X9, X8, X1
	JMP         sum

scalar:
	TESTQ       CX, CX
	JZ          sum

scalarloop:
	VMOVSS      (SI), X8
	VMOVSS      (DI), X9
	VFMADD231SS X9, X8, X0
	ADDQ        $4, SI
	ADDQ        $4, DI
	SUBQ        $4, CX
	JNZ         scalarloop
	JMP         sum

// func sqdistAVX2F32(x, y []float32) float32
TEXT ·sqdistAVX2F32(SB), NOSPLIT, $0-52
	// SI = &x[0], DI = &y[0], CX = bytes left
	MOVQ x_base+0(FP), SI
	MOVQ y_base+24(FP), DI
	MOVQ x_len+8(FP), CX
	SHLQ $2, CX

	// Y0..Y3 = four independent partial sums; the main loop adds
	// Y4..Y7 and folds them in afterwards
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	CMPQ   CX, $32
	JB     small
	CMPQ   CX, $256
	JB     tail
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7

	PCALIGN $32

loop:
	// 8 vectors (256 bytes) per iteration; Y8..Y11 = x-y differences
	VMOVUPS     (SI), Y8
	VMOVUPS     32(SI), Y9
	VMOVUPS     64(SI), Y10
	VMOVUPS     96(SI), Y11
	VSUBPS      (DI), Y8, Y8
	VSUBPS      32(DI), Y9, Y9
	VSUBPS      64(DI), Y10, Y10
	VSUBPS      96(DI), Y11, Y11
	VFMADD231PS Y8, Y8, Y0
	VFMADD231PS Y9, Y9, Y1
	VFMADD231PS Y10, Y10, Y2
	VFMADD231PS Y11, Y11, Y3
	VMOVUPS     128(SI), Y8
	VMOVUPS     160(SI), Y9
	VMOVUPS     192(SI), Y10
	VMOVUPS     224(SI), Y11
	VSUBPS      128(DI), Y8, Y8
	VSUBPS      160(DI), Y9, Y9
	VSUBPS      192(DI), Y10, Y10
	VSUBPS      224(DI), Y11, Y11
	VFMADD231PS Y8, Y8, Y4
	VFMADD231PS Y9, Y9, Y5
	VFMADD231PS Y10, Y10, Y6
	VFMADD231PS Y11, Y11, Y7
	ADDQ        $256, SI
	ADDQ        $256, DI
	SUBQ        $256, CX
	CMPQ        CX, $256
	JAE         loop

	// fold the loop's eight partial sums into Y0..Y3
	VADDPS Y4, Y0, Y0
	VADDPS Y5, Y1, Y1
	VADDPS Y6, Y2, Y2
	VADDPS Y7, Y3, Y3
	TESTQ  CX, CX
	JZ     sum

tail:
	// CX < 256: 4, 2 and 1 whole vectors as the bits of CX say, then
	// the overlapping masked last vector, spread over the partial sums so that no sum
	// takes more than two of these steps
	CMPQ        CX, $128
	JB          tail64
	VMOVUPS     (SI), Y8
	VMOVUPS     32(SI), Y9
	VMOVUPS     64(SI), Y10
	VMOVUPS     96(SI), Y11
	VSUBPS      (DI), Y8, Y8
	VSUBPS      32(DI), Y9, Y9
	VSUBPS      64(DI), Y10, Y10
	VSUBPS      96(DI), Y11, Y11
	VFMADD231PS Y8, Y8, Y0
	VFMADD231PS Y9, Y9, Y1
	VFMADD231PS Y10, Y10, Y2
	VFMADD231PS Y11, Y11, Y3
	ADDQ        $128, SI
	ADDQ        $128, DI
	SUBQ        $128, CX

tail64:
	CMPQ        CX, $64
	JB          tail32
	VMOVUPS     (SI), Y8
	VMOVUPS     32(SI), Y9
	VSUBPS      (DI), Y8, Y8
	VSUBPS      32(DI), Y9, Y9
	VFMADD231PS Y8, Y8, Y2
	VFMADD231PS Y9, Y9, Y3
	ADDQ        $64, SI
	ADDQ        $64, DI
	SUBQ        $64, CX

tail32:
	CMPQ        CX, $32
	JB          tailmask
	VMOVUPS     (SI), Y8
	VSUBPS      (DI), Y8, Y8
	VFMADD231PS Y8, Y8, Y0
	ADDQ        $32, SI
	ADDQ        $32, DI
	SUBQ        $32, CX

tailmask:
	// 0 < CX < 32 bytes left: Y12 = mask of the last CX bytes of a vector;
	// Y8, Y9 = the last 32 bytes of x and y (in bounds: the input is at
	// least 32 bytes long) with the lanes already summed cleared (0-0 there)
	TESTQ       CX, CX
	JZ          sum
	LEAQ        tailMask<>(SB), AX
	VMOVDQU     (AX)(CX*1), Y12
	VANDPS      -32(SI)(CX*1), Y12, Y8
	VANDPS      -32(DI)(CX*1), Y12, Y9
	VSUBPS      Y9, Y8, Y8
	VFMADD231PS Y8, Y8, Y1

sum:
	// pairwise sum of the four partial sums, then across lanes
	VADDPS Y1, Y0, Y0
	VADDPS Y3, Y2, Y2
	VADDPS Y2, Y0, Y0
	HSUMPS
	VMOVSS X0, ret+48(FP)
	VZEROUPPER
	RET

small:
	// CX < 32 bytes in all: one XMM vector into X0 and the overlapping
	// last 16 bytes, masked by X12, into X1; or, below 16 bytes, single
	// elements into X0 (SI, DI advance)
	CMPQ        CX, $16
	JB          scalar
	VMOVUPS     (SI), X8
	VSUBPS      (DI), X8, X8
	VFMADD231PS X8, X8, X0
	SUBQ        $16, CX
	JZ          sum
	LEAQ        tailMask<>+16(SB), AX
	VMOVDQU     (AX)(CX*1), X12
	VANDPS      (SI)(CX*1), X12, X8
	VANDPS      (DI)(CX*1), X12, X9
	VSUBPS      X9, X8, X8
	VFMADD231PS X8, X8, X1
	JMP         sum

scalar:
	TESTQ       CX, CX
	JZ          sum

scalarloop:
	VMOVSS      (SI), X8
	VMOVSS      (DI), X9
	VSUBSS      X9, X8, X8
	VFMADD231SS X8, X8, X0
	ADDQ        $4, SI
	ADDQ        $4, DI
	SUBQ        $4, CX
	JNZ         scalarloop
	JMP         sum

// func axpyAVX2F32(a float32, x, y []float32)
TEXT ·axpyAVX2F32(SB), NOSPLIT, $0-56
	// Y0 = a in every lane, SI = &x[0], DI = &y[0], CX = bytes left
	VBROADCASTSS a+0(FP), Y0
	MOVQ         x_base+8(FP), SI
	MOVQ         y_base+32(FP), DI
	MOVQ         x_len+16(FP), CX
	SHLQ         $2, CX
	CMPQ         CX, $128
	JB           tail

	PCALIGN $32

loop:
	// 4 vectors (128 bytes) per iteration: Yk = a*x + y, stored to y
	VMOVUPS     (SI), Y1
	VMOVUPS     32(SI), Y2
	VMOVUPS     64(SI), Y3
	VMOVUPS     96(SI), Y4
	VFMADD213PS (DI), Y0, Y1
	VFMADD213PS 32(DI), Y0, Y2
	VFMADD213PS 64(DI), Y0, Y3
	VFMADD213PS 96(DI), Y0, Y4
	VMOVUPS     Y1, (DI)
	VMOVUPS     Y2, 32(DI)
	VMOVUPS     Y3, 64(DI)
	VMOVUPS     Y4, 96(DI)
	ADDQ        $128, SI
	ADDQ        $128, DI
	SUBQ        $128, CX
	CMPQ        CX, $128
	JAE         loop

tail:
	// CX < 128: 2 and 1 whole vectors, one XMM vector, then single elements
	CMPQ        CX, $64
	JB          tail32
	VMOVUPS     (SI), Y1
	VMOVUPS     32(SI), Y2
	VFMADD213PS (DI), Y0, Y1
	VFMADD213PS 32(DI), Y0, Y2
	VMOVUPS     Y1, (DI)
	VMOVUPS     Y2, 32(DI)
	ADDQ        $64, SI
	ADDQ        $64, DI
	SUBQ        $64, CX

tail32:
	CMPQ        CX, $32
	JB          tail16
	VMOVUPS     (SI), Y1
	VFMADD213PS (DI), Y0, Y1
	VMOVUPS     Y1, (DI)
	ADDQ        $32, SI
	ADDQ        $32, DI
	SUBQ        $32, CX

tail16:
	CMPQ        CX, $16
	JB          scalar
	VMOVUPS     (SI), X1
	VFMADD213PS (DI), X0, X1
	VMOVUPS     X1, (DI)
	ADDQ        $16, SI
	ADDQ        $16, DI
	SUBQ        $16, CX

scalar:
	// fewer than 16 bytes left: one element at a time, X1 = a*x[i] + y[i].
	// Scalars are loaded with VMOVSS, never as a memory operand of the
	// arithmetic: qemu 7.2 reads 16 bytes for those and faults at a page end
	TESTQ       CX, CX
	JZ          done

scalarloop:
	VMOVSS      (SI), X1
	VMOVSS      (DI), X2
	VFMADD213SS X2, X0, X1
	VMOVSS      X1, (DI)
	ADDQ        $4, SI
	ADDQ        $4, DI
	SUBQ        $4, CX
	JNZ         scalarloop

done:
	VZEROUPPER
	RET

// func scaleAVX2F32(a float32, x []float32)
TEXT ·scaleAVX2F32(SB), NOSPLIT, $0-32
	// Y0 = a in every lane, SI = &x[0], CX = bytes left
	VBROADCASTSS a+0(FP), Y0
	MOVQ         x_base+8(FP), SI
	MOVQ         x_len+16(FP), CX
	SHLQ         $2, CX
	CMPQ         CX, $128
	JB           tail

	PCALIGN $32

loop:
	// 4 vectors (128 bytes) per iteration: Yk = a*x, stored back to x
	VMULPS  (SI), Y0, Y1
	VMULPS  32(SI), Y0, Y2
	VMULPS  64(SI), Y0, Y3
	VMULPS  96(SI), Y0, Y4
	VMOVUPS Y1, (SI)
	VMOVUPS Y2, 32(SI)
	VMOVUPS Y3, 64(SI)
	VMOVUPS Y4, 96(SI)
	ADDQ    $128, SI
	SUBQ    $128, CX
	CMPQ    CX, $128
	JAE     loop

tail:
	// CX < 128: 2 and 1 whole vectors, one XMM vector, then single elements
	CMPQ    CX, $64
	JB      tail32
	VMULPS  (SI), Y0, Y1
	VMULPS  32(SI), Y0, Y2
	VMOVUPS Y1, (SI)
	VMOVUPS Y2, 32(SI)
	ADDQ    $64, SI
	SUBQ    $64, CX

tail32:
	CMPQ    CX, $32
	JB      tail16
	VMULPS  (SI), Y0, Y1
	VMOVUPS Y1, (SI)
	ADDQ    $32, SI
	SUBQ    $32, CX

tail16:
	CMPQ    CX, $16
	JB      scalar
	VMULPS  (SI), X0, X1
	VMOVUPS X1, (SI)
	ADDQ    $16, SI
	SUBQ    $16, CX

scalar:
	// fewer than 16 bytes left: one element at a time, X1 = a*x[i]
	TESTQ   CX, CX
	JZ      done

scalarloop:
	VMOVSS  (SI), X1
	VMULSS  X1, X0, X1
	VMOVSS  X1, (SI)
	ADDQ    $4, SI
	SUBQ    $4, CX
	JNZ     scalarloop

done:
	VZEROUPPER
	RET

// func matvecAVX2F32(dst, m, w []float32)
TEXT ·matvecAVX2F32(SB), NOSPLIT, $0-72
	// DX = &dst[i], BX = rows left, SI = &m[i*d], DI = &w[0],
	// R8 = row length in bytes (d*4), R12 = R8 rounded down to 64 bytes,
	// Y12 = mask keeping the last R8 mod 32 bytes of a vector,
	// X13 = mask keeping the last R8 mod 16 bytes of an XMM vector
	MOVQ    dst_base+0(FP), DX
	MOVQ    dst_len+8(FP), BX
	MOVQ    m_base+24(FP), SI
	MOVQ    w_base+48(FP), DI
	MOVQ    w_len+56(FP), R8
	SHLQ    $2, R8
	MOVQ    R8, R12
	ANDQ    $-64, R12
	LEAQ    tailMask<>(SB), AX
	MOVQ    R8, CX
	ANDQ    $31, CX
	VMOVDQU (AX)(CX*1), Y12
	MOVQ    R8, CX
	ANDQ    $15, CX
	VMOVDQU 16(AX)(CX*1), X13
	// CX = the matrix's size in bytes: past 1 MiB (beyond L2) the block
	// loop prefetches, below it the prefetches would only cost issue slots
	MOVQ    BX, CX
	IMULQ   R8, CX
	CMPQ    R8, $32
	JB      rows1
	CMPQ    BX, $4
	JB      rows1

block4:
	// four rows (of at least 32 bytes) at a time, each load of w shared by
	// the four: SI, R9, R10, R11 = rows 0..3, AX = byte offset in the row,
	// Y0..Y3 and Y4..Y7 = partial sums of rows 0..3 (even / odd vectors),
	// Y8, Y9 = w vectors, R13 = next block (prefetch)
	LEAQ   (SI)(R8*1), R9
	LEAQ   (R9)(R8*1), R10
	LEAQ   (R10)(R8*1), R11
	LEAQ   (R11)(R8*1), R13 // R13 = the next block, prefetched linearly
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	XORL   AX, AX
	CMPQ   AX, R12
	JAE    block4v32
	CMPQ   CX, $0x100000
	JAE    block4pf

	PCALIGN $32

block4loop:
	// 2 vectors (64 bytes) of each of the four rows
	VMOVUPS     (DI)(AX*1), Y8
	VMOVUPS     32(DI)(AX*1), Y9
	VFMADD231PS (SI)(AX*1), Y8, Y0
	VFMADD231PS (R9)(AX*1), Y8, Y1
	VFMADD231PS (R10)(AX*1), Y8, Y2
	VFMADD231PS (R11)(AX*1), Y8, Y3
	VFMADD231PS 32(SI)(AX*1), Y9, Y4
	VFMADD231PS 32(R9)(AX*1), Y9, Y5
	VFMADD231PS 32(R10)(AX*1), Y9, Y6
	VFMADD231PS 32(R11)(AX*1), Y9, Y7
	ADDQ        $64, AX
	CMPQ        AX, R12
	JB          block4loop
	JMP         block4v32

	PCALIGN $32

block4pf:
	// the same for a large matrix, while the next four rows (4·R8
	// contiguous bytes) are prefetched in order, 256 bytes per iteration:
	// a matrix streamed from DRAM is then fetched as one stream rather than
	// as four interleaved ones
	PREFETCHT0  (R13)(AX*4)
	PREFETCHT0  64(R13)(AX*4)
	PREFETCHT0  128(R13)(AX*4)
	PREFETCHT0  192(R13)(AX*4)
	VMOVUPS     (DI)(AX*1), Y8
	VMOVUPS     32(DI)(AX*1), Y9
	VFMADD231PS (SI)(AX*1), Y8, Y0
	VFMADD231PS (R9)(AX*1), Y8, Y1
	VFMADD231PS (R10)(AX*1), Y8, Y2
	VFMADD231PS (R11)(AX*1), Y8, Y3
	VFMADD231PS 32(SI)(AX*1), Y9, Y4
	VFMADD231PS 32(R9)(AX*1), Y9, Y5
	VFMADD231PS 32(R10)(AX*1), Y9, Y6
	VFMADD231PS 32(R11)(AX*1), Y9, Y7
	ADDQ        $64, AX
	CMPQ        AX, R12
	JB          block4pf

block4v32:
	// one whole vector if the row has 32 more bytes
	TESTQ       $32, R8
	JZ          block4tail
	VMOVUPS     (DI)(AX*1), Y8
	VFMADD231PS (SI)(AX*1), Y8, Y0
	VFMADD231PS (R9)(AX*1), Y8, Y1
	VFMADD231PS (R10)(AX*1), Y8, Y2
	VFMADD231PS (R11)(AX*1), Y8, Y3

block4tail:
	// the last R8 mod 32 bytes: the last 32 bytes of w and of each row,
	// ANDed with Y12 so the lanes already summed are cleared;
	// Y8 = w, Y9..Y11 = rows
	TESTQ       $31, R8
	JZ          block4sum
	VANDPS      -32(DI)(R8*1), Y12, Y8
	VANDPS      -32(SI)(R8*1), Y12, Y9
	VANDPS      -32(R9)(R8*1), Y12, Y10
	VANDPS      -32(R10)(R8*1), Y12, Y11
	VFMADD231PS Y9, Y8, Y4
	VFMADD231PS Y10, Y8, Y5
	VFMADD231PS Y11, Y8, Y6
	VANDPS      -32(R11)(R8*1), Y12, Y9
	VFMADD231PS Y9, Y8, Y7

block4sum:
	// X0 = the four row sums, stored to dst[i:i+4]; next block
	VADDPS  Y4, Y0, Y0
	VADDPS  Y5, Y1, Y1
	VADDPS  Y6, Y2, Y2
	VADDPS  Y7, Y3, Y3
	ROWS4PS
	VMOVUPS X0, (DX)
	ADDQ    $16, DX
	LEAQ    (R11)(R8*1), SI
	SUBQ    $4, BX
	CMPQ    BX, $4
	JAE     block4

rows1:
	// the remaining rows one at a time (all of them if a row is shorter
	// than 32 bytes), like dot: R9 = R8 rounded down to 128 bytes,
	// SI = the row, AX = byte offset, Y0..Y3 = partial sums,
	// Y8..Y11 = w vectors
	TESTQ BX, BX
	JZ    done
	MOVQ  R8, R9
	ANDQ  $-128, R9

row:
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	XORL   AX, AX
	CMPQ   R8, $32
	JB     rowsmall
	CMPQ   AX, R9
	JAE    rowv64

	PCALIGN $32

rowloop:
	// 4 vectors (128 bytes) per iteration
	VMOVUPS     (DI)(AX*1), Y8
	VMOVUPS     32(DI)(AX*1), Y9
	VMOVUPS     64(DI)(AX*1), Y10
	VMOVUPS     96(DI)(AX*1), Y11
	VFMADD231PS (SI)(AX*1), Y8, Y0
	VFMADD231PS 32(SI)(AX*1), Y9, Y1
	VFMADD231PS 64(SI)(AX*1), Y10, Y2
	VFMADD231PS 96(SI)(AX*1), Y11, Y3
	ADDQ        $128, AX
	CMPQ        AX, R9
	JB          rowloop

rowv64:
	// 2 and 1 whole vectors as the bits of R8 say, then the masked
	// overlapping last vector
	TESTQ       $64, R8
	JZ          rowv32
	VMOVUPS     (DI)(AX*1), Y8
	VMOVUPS     32(DI)(AX*1), Y9
	VFMADD231PS (SI)(AX*1), Y8, Y0
	VFMADD231PS 32(SI)(AX*1), Y9, Y1
	ADDQ        $64, AX

rowv32:
	TESTQ       $32, R8
	JZ          rowtail
	VMOVUPS     (DI)(AX*1), Y8
	VFMADD231PS (SI)(AX*1), Y8, Y2

rowtail:
	TESTQ       $31, R8
	JZ          rowsum
	VANDPS      -32(DI)(R8*1), Y12, Y8
	VANDPS      -32(SI)(R8*1), Y12, Y9
	VFMADD231PS Y9, Y8, Y3
	JMP         rowsum

rowsmall:
	// a row shorter than 32 bytes: one XMM vector and the overlapping last
	// 16 bytes masked by X13, or single elements
	CMPQ        R8, $16
	JB          rowscalar
	VMOVUPS     (DI), X8
	VFMADD231PS (SI), X8, X0
	TESTQ       $15, R8
	JZ          rowsum
	VANDPS      -16(DI)(R8*1), X13, X8
	VANDPS      -16(SI)(R8*1), X13, X9
	VFMADD231PS X9, X8, X1
	JMP         rowsum

rowscalar:
	CMPQ        AX, R8
	JAE         rowsum
	VMOVSS      (DI)(AX*1), X8
	VMOVSS      (SI)(AX*1), X9
	VFMADD231SS X9, X8, X0
	ADDQ        $4, AX
	JMP         rowscalar

rowsum:
	// X0[0] = the row sum, stored to dst[i]; next row
	VADDPS Y1, Y0, Y0
	VADDPS Y3, Y2, Y2
	VADDPS Y2, Y0, Y0
	HSUMPS
	VMOVSS X0, (DX)
	ADDQ   $4, DX
	ADDQ   R8, SI
	DECQ   BX
	JNZ    row

done:
	VZEROUPPER
	RET

// func dotAVX2F64(x, y []float64) float64
TEXT ·dotAVX2F64(SB), NOSPLIT, $0-56
	// SI = &x[0], DI = &y[0], CX = bytes left
	MOVQ x_base+0(FP), SI
	MOVQ y_base+24(FP), DI
	MOVQ x_len+8(FP), CX
	SHLQ $3, CX

	// Y0..Y3 = four independent partial sums; the main loop adds
	// Y4..Y7 and folds them in afterwards
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	CMPQ   CX, $32
	JB     small
	CMPQ   CX, $256
	JB     tail
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7

	PCALIGN $32

loop:
	// 8 vectors (256 bytes) per iteration; Y8..Y11 = x vectors
	VMOVUPD     (SI), Y8
	VMOVUPD     32(SI), Y9
	VMOVUPD     64(SI), Y10
	VMOVUPD     96(SI), Y11
	VFMADD231PD (DI), Y8, Y0
	VFMADD231PD 32(DI), Y9, Y1
	VFMADD231PD 64(DI), Y10, Y2
	VFMADD231PD 96(DI), Y11, Y3
	VMOVUPD     128(SI), Y8
	VMOVUPD     160(SI), Y9
	VMOVUPD     192(SI), Y10
	VMOVUPD     224(SI), Y11
	VFMADD231PD 128(DI), Y8, Y4
	VFMADD231PD 160(DI), Y9, Y5
	VFMADD231PD 192(DI), Y10, Y6
	VFMADD231PD 224(DI), Y11, Y7
	ADDQ        $256, SI
	ADDQ        $256, DI
	SUBQ        $256, CX
	CMPQ        CX, $256
	JAE         loop

	// fold the loop's eight partial sums into Y0..Y3
	VADDPD Y4, Y0, Y0
	VADDPD Y5, Y1, Y1
	VADDPD Y6, Y2, Y2
	VADDPD Y7, Y3, Y3
	TESTQ  CX, CX
	JZ     sum

tail:
	// CX < 256: 4, 2 and 1 whole vectors as the bits of CX say, then
	// the overlapping masked last vector, spread over the partial sums so that no sum
	// takes more than two of these steps
	CMPQ        CX, $128
	JB          tail64
	VMOVUPD     (SI), Y8
	VMOVUPD     32(SI), Y9
	VMOVUPD     64(SI), Y10
	VMOVUPD     96(SI), Y11
	VFMADD231PD (DI), Y8, Y0
	VFMADD231PD 32(DI), Y9, Y1
	VFMADD231PD 64(DI), Y10, Y2
	VFMADD231PD 96(DI), Y11, Y3
	ADDQ        $128, SI
	ADDQ        $128, DI
	SUBQ        $128, CX

tail64:
	CMPQ        CX, $64
	JB          tail32
	VMOVUPD     (SI), Y8
	VMOVUPD     32(SI), Y9
	VFMADD231PD (DI), Y8, Y2
	VFMADD231PD 32(DI), Y9, Y3
	ADDQ        $64, SI
	ADDQ        $64, DI
	SUBQ        $64, CX

tail32:
	CMPQ        CX, $32
	JB          tailmask
	VMOVUPD     (SI), Y8
	VFMADD231PD (DI), Y8, Y0
	ADDQ        $32, SI
	ADDQ        $32, DI
	SUBQ        $32, CX

tailmask:
	// 0 < CX < 32 bytes left: Y12 = mask of the last CX bytes of a vector;
	// Y8, Y9 = the last 32 bytes of x and y (in bounds: the input is at
	// least 32 bytes long) with the lanes already summed cleared
	TESTQ       CX, CX
	JZ          sum
	LEAQ        tailMask<>(SB), AX
	VMOVDQU     (AX)(CX*1), Y12
	VANDPD      -32(SI)(CX*1), Y12, Y8
	VANDPD      -32(DI)(CX*1), Y12, Y9
	VFMADD231PD Y9, Y8, Y1

sum:
	// pairwise sum of the four partial sums, then across lanes
	VADDPD Y1, Y0, Y0
	VADDPD Y3, Y2, Y2
	VADDPD Y2, Y0, Y0
	HSUMPD
	VMOVSD X0, ret+48(FP)
	VZEROUPPER
	RET

small:
	// CX < 32 bytes in all: one XMM vector into X0 and the overlapping
	// last 16 bytes, masked by X12, into X1; or, below 16 bytes, single
	// elements into X0 (SI, DI advance)
	CMPQ        CX, $16
	JB          scalar
	VMOVUPD     (SI), X8
	VFMADD231PD (DI), X8, X0
	SUBQ        $16, CX
	JZ          sum
	LEAQ        tailMask<>+16(SB), AX
	VMOVDQU     (AX)(CX*1), X12
	VANDPD      (SI)(CX*1), X12, X8
	VANDPD      (DI)(CX*1), X12, X9
	VFMADD231PD X9, X8, X1
	JMP         sum

scalar:
	TESTQ       CX, CX
	JZ          sum

scalarloop:
	VMOVSD      (SI), X8
	VMOVSD      (DI), X9
	VFMADD231SD X9, X8, X0
	ADDQ        $8, SI
	ADDQ        $8, DI
	SUBQ        $8, CX
	JNZ         scalarloop
	JMP         sum

// func sqdistAVX2F64(x, y []float64) float64
TEXT ·sqdistAVX2F64(SB), NOSPLIT, $0-56
	// SI = &x[0], DI = &y[0], CX = bytes left
	MOVQ x_base+0(FP), SI
	MOVQ y_base+24(FP), DI
	MOVQ x_len+8(FP), CX
	SHLQ $3, CX

	// Y0..Y3 = four independent partial sums; the main loop adds
	// Y4..Y7 and folds them in afterwards
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	CMPQ   CX, $32
	JB     small
	CMPQ   CX, $256
	JB     tail
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7

	PCALIGN $32

loop:
	// 8 vectors (256 bytes) per iteration; Y8..Y11 = x-y differences
	VMOVUPD     (SI), Y8
	VMOVUPD     32(SI), Y9
	VMOVUPD     64(SI), Y10
	VMOVUPD     96(SI), Y11
	VSUBPD      (DI), Y8, Y8
	VSUBPD      32(DI), Y9, Y9
	VSUBPD      64(DI), Y10, Y10
	VSUBPD      96(DI), Y11, Y11
	VFMADD231PD Y8, Y8, Y0
	VFMADD231PD Y9, Y9, Y1
	VFMADD231PD Y10, Y10, Y2
	VFMADD231PD Y11, Y11, Y3
	VMOVUPD     128(SI), Y8
	VMOVUPD     160(SI), Y9
	VMOVUPD     192(SI), Y10
	VMOVUPD     224(SI), Y11
	VSUBPD      128(DI), Y8, Y8
	VSUBPD      160(DI), Y9, Y9
	VSUBPD      192(DI), Y10, Y10
	VSUBPD      224(DI), Y11, Y11
	VFMADD231PD Y8, Y8, Y4
	VFMADD231PD Y9, Y9, Y5
	VFMADD231PD Y10, Y10, Y6
	VFMADD231PD Y11, Y11, Y7
	ADDQ        $256, SI
	ADDQ        $256, DI
	SUBQ        $256, CX
	CMPQ        CX, $256
	JAE         loop

	// fold the loop's eight partial sums into Y0..Y3
	VADDPD Y4, Y0, Y0
	VADDPD Y5, Y1, Y1
	VADDPD Y6, Y2, Y2
	VADDPD Y7, Y3, Y3
	TESTQ  CX, CX
	JZ     sum

tail:
	// CX < 256: 4, 2 and 1 whole vectors as the bits of CX say, then
	// the overlapping masked last vector, spread over the partial sums so that no sum
	// takes more than two of these steps
	CMPQ        CX, $128
	JB          tail64
	VMOVUPD     (SI), Y8
	VMOVUPD     32(SI), Y9
	VMOVUPD     64(SI), Y10
	VMOVUPD     96(SI), Y11
	VSUBPD      (DI), Y8, Y8
	VSUBPD      32(DI), Y9, Y9
	VSUBPD      64(DI), Y10, Y10
	VSUBPD      96(DI), Y11, Y11
	VFMADD231PD Y8, Y8, Y0
	VFMADD231PD Y9, Y9, Y1
	VFMADD231PD Y10, Y10, Y2
	VFMADD231PD Y11, Y11, Y3
	ADDQ        $128, SI
	ADDQ        $128, DI
	SUBQ        $128, CX

tail64:
	CMPQ        CX, $64
	JB          tail32
	VMOVUPD     (SI), Y8
	VMOVUPD     32(SI), Y9
	VSUBPD      (DI), Y8, Y8
	VSUBPD      32(DI), Y9, Y9
	VFMADD231PD Y8, Y8, Y2
	VFMADD231PD Y9, Y9, Y3
	ADDQ        $64, SI
	ADDQ        $64, DI
	SUBQ        $64, CX

tail32:
	CMPQ        CX, $32
	JB          tailmask
	VMOVUPD     (SI), Y8
	VSUBPD      (DI), Y8, Y8
	VFMADD231PD Y8, Y8, Y0
	ADDQ        $32, SI
	ADDQ        $32, DI
	SUBQ        $32, CX

tailmask:
	// 0 < CX < 32 bytes left: Y12 = mask of the last CX bytes of a vector;
	// Y8, Y9 = the last 32 bytes of x and y (in bounds: the input is at
	// least 32 bytes long) with the lanes already summed cleared (0-0 there)
	TESTQ       CX, CX
	JZ          sum
	LEAQ        tailMask<>(SB), AX
	VMOVDQU     (AX)(CX*1), Y12
	VANDPD      -32(SI)(CX*1), Y12, Y8
	VANDPD      -32(DI)(CX*1), Y12, Y9
	VSUBPD      Y9, Y8, Y8
	VFMADD231PD Y8, Y8, Y1

sum:
	// pairwise sum of the four partial sums, then across lanes
	VADDPD Y1, Y0, Y0
	VADDPD Y3, Y2, Y2
	VADDPD Y2, Y0, Y0
	HSUMPD
	VMOVSD X0, ret+48(FP)
	VZEROUPPER
	RET

small:
	// CX < 32 bytes in all: one XMM vector into X0 and the overlapping
	// last 16 bytes, masked by X12, into X1; or, below 16 bytes, single
	// elements into X0 (SI, DI advance)
	CMPQ        CX, $16
	JB          scalar
	VMOVUPD     (SI), X8
	VSUBPD      (DI), X8, X8
	VFMADD231PD X8, X8, X0
	SUBQ        $16, CX
	JZ          sum
	LEAQ        tailMask<>+16(SB), AX
	VMOVDQU     (AX)(CX*1), X12
	VANDPD      (SI)(CX*1), X12, X8
	VANDPD      (DI)(CX*1), X12, X9
	VSUBPD      X9, X8, X8
	VFMADD231PD X8, X8, X1
	JMP         sum

scalar:
	TESTQ       CX, CX
	JZ          sum

scalarloop:
	VMOVSD      (SI), X8
	VMOVSD      (DI), X9
	VSUBSD      X9, X8, X8
	VFMADD231SD X8, X8, X0
	ADDQ        $8, SI
	ADDQ        $8, DI
	SUBQ        $8, CX
	JNZ         scalarloop
	JMP         sum

// func axpyAVX2F64(a float64, x, y []float64)
TEXT ·axpyAVX2F64(SB), NOSPLIT, $0-56
	// Y0 = a in every lane, SI = &x[0], DI = &y[0], CX = bytes left
	VBROADCASTSD a+0(FP), Y0
	MOVQ         x_base+8(FP), SI
	MOVQ         y_base+32(FP), DI
	MOVQ         x_len+16(FP), CX
	SHLQ         $3, CX
	CMPQ         CX, $128
	JB           tail

	PCALIGN $32

loop:
	// 4 vectors (128 bytes) per iteration: Yk = a*x + y, stored to y
	VMOVUPD     (SI), Y1
	VMOVUPD     32(SI), Y2
	VMOVUPD     64(SI), Y3
	VMOVUPD     96(SI), Y4
	VFMADD213PD (DI), Y0, Y1
	VFMADD213PD 32(DI), Y0, Y2
	VFMADD213PD 64(DI), Y0, Y3
	VFMADD213PD 96(DI), Y0, Y4
	VMOVUPD     Y1, (DI)
	VMOVUPD     Y2, 32(DI)
	VMOVUPD     Y3, 64(DI)
	VMOVUPD     Y4, 96(DI)
	ADDQ        $128, SI
	ADDQ        $128, DI
	SUBQ        $128, CX
	CMPQ        CX, $128
	JAE         loop

tail:
	// CX < 128: 2 and 1 whole vectors, one XMM vector, then single elements
	CMPQ        CX, $64
	JB          tail32
	VMOVUPD     (SI), Y1
	VMOVUPD     32(SI), Y2
	VFMADD213PD (DI), Y0, Y1
	VFMADD213PD 32(DI), Y0, Y2
	VMOVUPD     Y1, (DI)
	VMOVUPD     Y2, 32(DI)
	ADDQ        $64, SI
	ADDQ        $64, DI
	SUBQ        $64, CX

tail32:
	CMPQ        CX, $32
	JB          tail16
	VMOVUPD     (SI), Y1
	VFMADD213PD (DI), Y0, Y1
	VMOVUPD     Y1, (DI)
	ADDQ        $32, SI
	ADDQ        $32, DI
	SUBQ        $32, CX

tail16:
	CMPQ        CX, $16
	JB          scalar
	VMOVUPD     (SI), X1
	VFMADD213PD (DI), X0, X1
	VMOVUPD     X1, (DI)
	ADDQ        $16, SI
	ADDQ        $16, DI
	SUBQ        $16, CX

scalar:
	// fewer than 16 bytes left: one element at a time, X1 = a*x[i] + y[i].
	// Scalars are loaded with VMOVSD, never as a memory operand of the
	// arithmetic: qemu 7.2 reads 16 bytes for those and faults at a page end
	TESTQ       CX, CX
	JZ          done

scalarloop:
	VMOVSD      (SI), X1
	VMOVSD      (DI), X2
	VFMADD213SD X2, X0, X1
	VMOVSD      X1, (DI)
	ADDQ        $8, SI
	ADDQ        $8, DI
	SUBQ        $8, CX
	JNZ         scalarloop

done:
	VZEROUPPER
	RET

// func scaleAVX2F64(a float64, x []float64)
TEXT ·scaleAVX2F64(SB), NOSPLIT, $0-32
	// Y0 = a in every lane, SI = &x[0], CX = bytes left
	VBROADCASTSD a+0(FP), Y0
	MOVQ         x_base+8(FP), SI
	MOVQ         x_len+16(FP), CX
	SHLQ         $3, CX
	CMPQ         CX, $128
	JB           tail

	PCALIGN $32

loop:
	// 4 vectors (128 bytes) per iteration: Yk = a*x, stored back to x
	VMULPD  (SI), Y0, Y1
	VMULPD  32(SI), Y0, Y2
	VMULPD  64(SI), Y0, Y3
	VMULPD  96(SI), Y0, Y4
	VMOVUPD Y1, (SI)
	VMOVUPD Y2, 32(SI)
	VMOVUPD Y3, 64(SI)
	VMOVUPD Y4, 96(SI)
	ADDQ    $128, SI
	SUBQ    $128, CX
	CMPQ    CX, $128
	JAE     loop

tail:
	// CX < 128: 2 and 1 whole vectors, one XMM vector, then single elements
	CMPQ    CX, $64
	JB      tail32
	VMULPD  (SI), Y0, Y1
	VMULPD  32(SI), Y0, Y2
	VMOVUPD Y1, (SI)
	VMOVUPD Y2, 32(SI)
	ADDQ    $64, SI
	SUBQ    $64, CX

tail32:
	CMPQ    CX, $32
	JB      tail16
	VMULPD  (SI), Y0, Y1
	VMOVUPD Y1, (SI)
	ADDQ    $32, SI
	SUBQ    $32, CX

tail16:
	CMPQ    CX, $16
	JB      scalar
	VMULPD  (SI), X0, X1
	VMOVUPD X1, (SI)
	ADDQ    $16, SI
	SUBQ    $16, CX

scalar:
	// fewer than 16 bytes left: one element at a time, X1 = a*x[i]
	TESTQ   CX, CX
	JZ      done

scalarloop:
	VMOVSD  (SI), X1
	VMULSD  X1, X0, X1
	VMOVSD  X1, (SI)
	ADDQ    $8, SI
	SUBQ    $8, CX
	JNZ     scalarloop

done:
	VZEROUPPER
	RET

// func matvecAVX2F64(dst, m, w []float64)
TEXT ·matvecAVX2F64(SB), NOSPLIT, $0-72
	// DX = &dst[i], BX = rows left, SI = &m[i*d], DI = &w[0],
	// R8 = row length in bytes (d*8), R12 = R8 rounded down to 64 bytes,
	// Y12 = mask keeping the last R8 mod 32 bytes of a vector,
	// X13 = mask keeping the last R8 mod 16 bytes of an XMM vector
	MOVQ    dst_base+0(FP), DX
	MOVQ    dst_len+8(FP), BX
	MOVQ    m_base+24(FP), SI
	MOVQ    w_base+48(FP), DI
	MOVQ    w_len+56(FP), R8
	SHLQ    $3, R8
	MOVQ    R8, R12
	ANDQ    $-64, R12
	LEAQ    tailMask<>(SB), AX
	MOVQ    R8, CX
	ANDQ    $31, CX
	VMOVDQU (AX)(CX*1), Y12
	MOVQ    R8, CX
	ANDQ    $15, CX
	VMOVDQU 16(AX)(CX*1), X13
	// CX = the matrix's size in bytes: past 1 MiB (beyond L2) the block
	// loop prefetches, below it the prefetches would only cost issue slots
	MOVQ    BX, CX
	IMULQ   R8, CX
	CMPQ    R8, $32
	JB      rows1
	CMPQ    BX, $4
	JB      rows1

block4:
	// four rows (of at least 32 bytes) at a time, each load of w shared by
	// the four: SI, R9, R10, R11 = rows 0..3, AX = byte offset in the row,
	// Y0..Y3 and Y4..Y7 = partial sums of rows 0..3 (even / odd vectors),
	// Y8, Y9 = w vectors, R13 = next block (prefetch)
	LEAQ   (SI)(R8*1), R9
	LEAQ   (R9)(R8*1), R10
	LEAQ   (R10)(R8*1), R11
	LEAQ   (R11)(R8*1), R13 // R13 = the next block, prefetched linearly
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	XORL   AX, AX
	CMPQ   AX, R12
	JAE    block4v32
	CMPQ   CX, $0x100000
	JAE    block4pf

	PCALIGN $32

block4loop:
	// 2 vectors (64 bytes) of each of the four rows
	VMOVUPD     (DI)(AX*1), Y8
	VMOVUPD     32(DI)(AX*1), Y9
	VFMADD231PD (SI)(AX*1), Y8, Y0
	VFMADD231PD (R9)(AX*1), Y8, Y1
	VFMADD231PD (R10)(AX*1), Y8, Y2
	VFMADD231PD (R11)(AX*1), Y8, Y3
	VFMADD231PD 32(SI)(AX*1), Y9, Y4
	VFMADD231PD 32(R9)(AX*1), Y9, Y5
	VFMADD231PD 32(R10)(AX*1), Y9, Y6
	VFMADD231PD 32(R11)(AX*1), Y9, Y7
	ADDQ        $64, AX
	CMPQ        AX, R12
	JB          block4loop
	JMP         block4v32

	PCALIGN $32

block4pf:
	// the same for a large matrix, while the next four rows (4·R8
	// contiguous bytes) are prefetched in order, 256 bytes per iteration:
	// a matrix streamed from DRAM is then fetched as one stream rather than
	// as four interleaved ones
	PREFETCHT0  (R13)(AX*4)
	PREFETCHT0  64(R13)(AX*4)
	PREFETCHT0  128(R13)(AX*4)
	PREFETCHT0  192(R13)(AX*4)
	VMOVUPD     (DI)(AX*1), Y8
	VMOVUPD     32(DI)(AX*1), Y9
	VFMADD231PD (SI)(AX*1), Y8, Y0
	VFMADD231PD (R9)(AX*1), Y8, Y1
	VFMADD231PD (R10)(AX*1), Y8, Y2
	VFMADD231PD (R11)(AX*1), Y8, Y3
	VFMADD231PD 32(SI)(AX*1), Y9, Y4
	VFMADD231PD 32(R9)(AX*1), Y9, Y5
	VFMADD231PD 32(R10)(AX*1), Y9, Y6
	VFMADD231PD 32(R11)(AX*1), Y9, Y7
	ADDQ        $64, AX
	CMPQ        AX, R12
	JB          block4pf

block4v32:
	// one whole vector if the row has 32 more bytes
	TESTQ       $32, R8
	JZ          block4tail
	VMOVUPD     (DI)(AX*1), Y8
	VFMADD231PD (SI)(AX*1), Y8, Y0
	VFMADD231PD (R9)(AX*1), Y8, Y1
	VFMADD231PD (R10)(AX*1), Y8, Y2
	VFMADD231PD (R11)(AX*1), Y8, Y3

block4tail:
	// the last R8 mod 32 bytes: the last 32 bytes of w and of each row,
	// ANDed with Y12 so the lanes already summed are cleared;
	// Y8 = w, Y9..Y11 = rows
	TESTQ       $31, R8
	JZ          block4sum
	VANDPD      -32(DI)(R8*1), Y12, Y8
	VANDPD      -32(SI)(R8*1), Y12, Y9
	VANDPD      -32(R9)(R8*1), Y12, Y10
	VANDPD      -32(R10)(R8*1), Y12, Y11
	VFMADD231PD Y9, Y8, Y4
	VFMADD231PD Y10, Y8, Y5
	VFMADD231PD Y11, Y8, Y6
	VANDPD      -32(R11)(R8*1), Y12, Y9
	VFMADD231PD Y9, Y8, Y7

block4sum:
	// Y0 = the four row sums, stored to dst[i:i+4]; next block
	VADDPD  Y4, Y0, Y0
	VADDPD  Y5, Y1, Y1
	VADDPD  Y6, Y2, Y2
	VADDPD  Y7, Y3, Y3
	ROWS4PD
	VMOVUPD Y0, (DX)
	ADDQ    $32, DX
	LEAQ    (R11)(R8*1), SI
	SUBQ    $4, BX
	CMPQ    BX, $4
	JAE     block4

rows1:
	// the remaining rows one at a time (all of them if a row is shorter
	// than 32 bytes), like dot: R9 = R8 rounded down to 128 bytes,
	// SI = the row, AX = byte offset, Y0..Y3 = partial sums,
	// Y8..Y11 = w vectors
	TESTQ BX, BX
	JZ    done
	MOVQ  R8, R9
	ANDQ  $-128, R9

row:
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	XORL   AX, AX
	CMPQ   R8, $32
	JB     rowsmall
	CMPQ   AX, R9
	JAE    rowv64

	PCALIGN $32

rowloop:
	// 4 vectors (128 bytes) per iteration
	VMOVUPD     (DI)(AX*1), Y8
	VMOVUPD     32(DI)(AX*1), Y9
	VMOVUPD     64(DI)(AX*1), Y10
	VMOVUPD     96(DI)(AX*1), Y11
	VFMADD231PD (SI)(AX*1), Y8, Y0
	VFMADD231PD 32(SI)(AX*1), Y9, Y1
	VFMADD231PD 64(SI)(AX*1), Y10, Y2
	VFMADD231PD 96(SI)(AX*1), Y11, Y3
	ADDQ        $128, AX
	CMPQ        AX, R9
	JB          rowloop

rowv64:
	// 2 and 1 whole vectors as the bits of R8 say, then the masked
	// overlapping last vector
	TESTQ       $64, R8
	JZ          rowv32
	VMOVUPD     (DI)(AX*1), Y8
	VMOVUPD     32(DI)(AX*1), Y9
	VFMADD231PD (SI)(AX*1), Y8, Y0
	VFMADD231PD 32(SI)(AX*1), Y9, Y1
	ADDQ        $64, AX

rowv32:
	TESTQ       $32, R8
	JZ          rowtail
	VMOVUPD     (DI)(AX*1), Y8
	VFMADD231PD (SI)(AX*1), Y8, Y2

rowtail:
	TESTQ       $31, R8
	JZ          rowsum
	VANDPD      -32(DI)(R8*1), Y12, Y8
	VANDPD      -32(SI)(R8*1), Y12, Y9
	VFMADD231PD Y9, Y8, Y3
	JMP         rowsum

rowsmall:
	// a row shorter than 32 bytes: one XMM vector and the overlapping last
	// 16 bytes masked by X13, or single elements
	CMPQ        R8, $16
	JB          rowscalar
	VMOVUPD     (DI), X8
	VFMADD231PD (SI), X8, X0
	TESTQ       $15, R8
	JZ          rowsum
	VANDPD      -16(DI)(R8*1), X13, X8
	VANDPD      -16(SI)(R8*1), X13, X9
	VFMADD231PD X9, X8, X1
	JMP         rowsum

rowscalar:
	CMPQ        AX, R8
	JAE         rowsum
	VMOVSD      (DI)(AX*1), X8
	VMOVSD      (SI)(AX*1), X9
	VFMADD231SD X9, X8, X0
	ADDQ        $8, AX
	JMP         rowscalar

rowsum:
	// X0[0] = the row sum, stored to dst[i]; next row
	VADDPD Y1, Y0, Y0
	VADDPD Y3, Y2, Y2
	VADDPD Y2, Y0, Y0
	HSUMPD
	VMOVSD X0, (DX)
	ADDQ   $8, DX
	ADDQ   R8, SI
	DECQ   BX
	JNZ    row

done:
	VZEROUPPER
	RET
