//go:build !purego

#include "textflag.h"

// AVX-512F kernels for amd64 (the "avx512" implementation).
//
// They mirror the AVX2 kernels in kernel_amd64.s with ZMM registers
// (64 bytes: 16 float32 or 8 float64) and one difference: every tail, of
// reductions and element-wise kernels alike, is a single masked vector
// operation. The opmask K1 holds one bit per element of the tail, built as
// (1<<k)-1 for a tail of k elements; masked loads use zeroing (.Z), so the
// lanes past the end read as 0 and, like masked stores, never touch memory
// past the end of the slice (AVX-512 suppresses faults on masked-off lanes).
// Lengths are turned into byte counts at entry. Registers are zeroed with
// VEX VXORPS on the YMM name, which clears the whole ZMM register; only
// Z0-Z15 are used, so VZEROUPPER before RET cleans all upper state.
// Cross-lane sums fold ZMM to YMM with VEXTRACTF64X4 and continue with the
// AVX code of kernel_amd64.s.

// HSUMPS: X0[0] = sum of the eight float32 lanes of Y0. Clobbers X1.
#define HSUMPS \
	VEXTRACTF128 $1, Y0, X1; \
	VADDPS       X1, X0, X0; \
	VMOVHLPS     X0, X0, X1; \
	VADDPS       X1, X0, X0; \
	VMOVSHDUP    X0, X1;     \
	VADDSS       X1, X0, X0

// HSUMPD: X0[0] = sum of the four float64 lanes of Y0. Clobbers X1.
#define HSUMPD \
	VEXTRACTF128 $1, Y0, X1; \
	VADDPD       X1, X0, X0; \
	VUNPCKHPD    X0, X0, X1; \
	VADDSD       X1, X0, X0

// ROWS4PS: X0 = [sum(Y0), sum(Y1), sum(Y2), sum(Y3)] in float32 lanes.
// Clobbers Y1, Y2. See kernel_amd64.s for the lane diagram.
#define ROWS4PS \
	VHADDPS      Y1, Y0, Y0; \
	VHADDPS      Y3, Y2, Y2; \
	VHADDPS      Y2, Y0, Y0; \
	VEXTRACTF128 $1, Y0, X1; \
	VADDPS       X1, X0, X0

// ROWS4PD: Y0 = [sum(Y0), sum(Y1), sum(Y2), sum(Y3)] in float64 lanes.
// Clobbers Y1, Y2. See kernel_amd64.s for the lane diagram.
#define ROWS4PD \
	VHADDPD      Y1, Y0, Y0;        \
	VHADDPD      Y3, Y2, Y2;        \
	VPERM2F128   $0x21, Y2, Y0, Y1; \
	VBLENDPD     $0x0c, Y2, Y0, Y0; \
	VADDPD       Y1, Y0, Y0

// FOLDPS Zr, Yr, Yt: Yr = low half + high half of Zr (clobbers Yt).
#define FOLDPS(zr, yr, yt) \
	VEXTRACTF64X4 $1, zr, yt; \
	VADDPS        yt, yr, yr

// FOLDPD Zr, Yr, Yt: Yr = low half + high half of Zr (clobbers Yt).
#define FOLDPD(zr, yr, yt) \
	VEXTRACTF64X4 $1, zr, yt; \
	VADDPD        yt, yr, yr

// func dotAVX512F32(x, y []float32) float32
TEXT ·dotAVX512F32(SB), NOSPLIT, $0-52
	// SI = &x[0], DI = &y[0], CX = bytes left
	MOVQ x_base+0(FP), SI
	MOVQ y_base+24(FP), DI
	MOVQ x_len+8(FP), CX
	SHLQ $2, CX

	// Z0..Z3 = four independent partial sums; the main loop adds
	// Z4..Z7 and folds them in afterwards
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	CMPQ   CX, $512
	JB     tail
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7

	PCALIGN $32

loop:
	// 8 vectors (512 bytes) per iteration; Z8..Z11 = x vectors
	VMOVUPS     (SI), Z8
	VMOVUPS     64(SI), Z9
	VMOVUPS     128(SI), Z10
	VMOVUPS     192(SI), Z11
	VFMADD231PS (DI), Z8, Z0
	VFMADD231PS 64(DI), Z9, Z1
	VFMADD231PS 128(DI), Z10, Z2
	VFMADD231PS 192(DI), Z11, Z3
	VMOVUPS     256(SI), Z8
	VMOVUPS     320(SI), Z9
	VMOVUPS     384(SI), Z10
	VMOVUPS     448(SI), Z11
	VFMADD231PS 256(DI), Z8, Z4
	VFMADD231PS 320(DI), Z9, Z5
	VFMADD231PS 384(DI), Z10, Z6
	VFMADD231PS 448(DI), Z11, Z7
	ADDQ        $512, SI
	ADDQ        $512, DI
	SUBQ        $512, CX
	CMPQ        CX, $512
	JAE         loop

	// fold the loop's eight partial sums into Z0..Z3
	VADDPS Z4, Z0, Z0
	VADDPS Z5, Z1, Z1
	VADDPS Z6, Z2, Z2
	VADDPS Z7, Z3, Z3
	TESTQ  CX, CX
	JZ     sum

tail:
	// CX < 512: 4, 2 and 1 whole vectors as the bits of CX say, then
	// one masked vector, spread over the partial sums so that no sum
	// takes more than two of these steps
	CMPQ        CX, $256
	JB          tail128
	VMOVUPS     (SI), Z8
	VMOVUPS     64(SI), Z9
	VMOVUPS     128(SI), Z10
	VMOVUPS     192(SI), Z11
	VFMADD231PS (DI), Z8, Z0
	VFMADD231PS 64(DI), Z9, Z1
	VFMADD231PS 128(DI), Z10, Z2
	VFMADD231PS 192(DI), Z11, Z3
	ADDQ        $256, SI
	ADDQ        $256, DI
	SUBQ        $256, CX

tail128:
	CMPQ        CX, $128
	JB          tail64
	VMOVUPS     (SI), Z8
	VMOVUPS     64(SI), Z9
	VFMADD231PS (DI), Z8, Z2
	VFMADD231PS 64(DI), Z9, Z3
	ADDQ        $128, SI
	ADDQ        $128, DI
	SUBQ        $128, CX

tail64:
	CMPQ        CX, $64
	JB          tailmask
	VMOVUPS     (SI), Z8
	VFMADD231PS (DI), Z8, Z0
	ADDQ        $64, SI
	ADDQ        $64, DI
	SUBQ        $64, CX

tailmask:
	// CX < 64 bytes left: K1 = one bit per remaining element,
	// Z8, Z9 = the masked x and y lanes (zero elsewhere)
	TESTQ       CX, CX
	JZ          sum
	SHRQ        $2, CX
	MOVL        $1, AX
	SHLL        CX, AX
	DECL        AX
	KMOVW       AX, K1
	VMOVUPS.Z   (SI), K1, Z8
	VMOVUPS.Z   (DI), K1, Z9
	VFMADD231PS Z9, Z8, Z1

sum:
	// pairwise sum of the four partial sums, fold to YMM, then across lanes
	VADDPS Z1, Z0, Z0
	VADDPS Z3, Z2, Z2
	VADDPS Z2, Z0, Z0
	FOLDPS(Z0, Y0, Y1)
	HSUMPS
	VMOVSS X0, ret+48(FP)
	VZEROUPPER
	RET

// func sqdistAVX512F32(x, y []float32) float32
TEXT ·sqdistAVX512F32(SB), NOSPLIT, $0-52
	// SI = &x[0], DI = &y[0], CX = bytes left
	MOVQ x_base+0(FP), SI
	MOVQ y_base+24(FP), DI
	MOVQ x_len+8(FP), CX
	SHLQ $2, CX

	// Z0..Z3 = four independent partial sums; the main loop adds
	// Z4..Z7 and folds them in afterwards
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	CMPQ   CX, $512
	JB     tail
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7

	PCALIGN $32

loop:
	// 8 vectors (512 bytes) per iteration; Z8..Z11 = x-y differences
	VMOVUPS     (SI), Z8
	VMOVUPS     64(SI), Z9
	VMOVUPS     128(SI), Z10
	VMOVUPS     192(SI), Z11
	VSUBPS      (DI), Z8, Z8
	VSUBPS      64(DI), Z9, Z9
	VSUBPS      128(DI), Z10, Z10
	VSUBPS      192(DI), Z11, Z11
	VFMADD231PS Z8, Z8, Z0
	VFMADD231PS Z9, Z9, Z1
	VFMADD231PS Z10, Z10, Z2
	VFMADD231PS Z11, Z11, Z3
	VMOVUPS     256(SI), Z8
	VMOVUPS     320(SI), Z9
	VMOVUPS     384(SI), Z10
	VMOVUPS     448(SI), Z11
	VSUBPS      256(DI), Z8, Z8
	VSUBPS      320(DI), Z9, Z9
	VSUBPS      384(DI), Z10, Z10
	VSUBPS      448(DI), Z11, Z11
	VFMADD231PS Z8, Z8, Z4
	VFMADD231PS Z9, Z9, Z5
	VFMADD231PS Z10, Z10, Z6
	VFMADD231PS Z11, Z11, Z7
	ADDQ        $512, SI
	ADDQ        $512, DI
	SUBQ        $512, CX
	CMPQ        CX, $512
	JAE         loop

	// fold the loop's eight partial sums into Z0..Z3
	VADDPS Z4, Z0, Z0
	VADDPS Z5, Z1, Z1
	VADDPS Z6, Z2, Z2
	VADDPS Z7, Z3, Z3
	TESTQ  CX, CX
	JZ     sum

tail:
	// CX < 512: 4, 2 and 1 whole vectors as the bits of CX say, then
	// one masked vector, spread over the partial sums so that no sum
	// takes more than two of these steps
	CMPQ        CX, $256
	JB          tail128
	VMOVUPS     (SI), Z8
	VMOVUPS     64(SI), Z9
	VMOVUPS     128(SI), Z10
	VMOVUPS     192(SI), Z11
	VSUBPS      (DI), Z8, Z8
	VSUBPS      64(DI), Z9, Z9
	VSUBPS      128(DI), Z10, Z10
	VSUBPS      192(DI), Z11, Z11
	VFMADD231PS Z8, Z8, Z0
	VFMADD231PS Z9, Z9, Z1
	VFMADD231PS Z10, Z10, Z2
	VFMADD231PS Z11, Z11, Z3
	ADDQ        $256, SI
	ADDQ        $256, DI
	SUBQ        $256, CX

tail128:
	CMPQ        CX, $128
	JB          tail64
	VMOVUPS     (SI), Z8
	VMOVUPS     64(SI), Z9
	VSUBPS      (DI), Z8, Z8
	VSUBPS      64(DI), Z9, Z9
	VFMADD231PS Z8, Z8, Z2
	VFMADD231PS Z9, Z9, Z3
	ADDQ        $128, SI
	ADDQ        $128, DI
	SUBQ        $128, CX

tail64:
	CMPQ        CX, $64
	JB          tailmask
	VMOVUPS     (SI), Z8
	VSUBPS      (DI), Z8, Z8
	VFMADD231PS Z8, Z8, Z0
	ADDQ        $64, SI
	ADDQ        $64, DI
	SUBQ        $64, CX

tailmask:
	// CX < 64 bytes left: K1 = one bit per remaining element,
	// Z8, Z9 = the masked x and y lanes (zero elsewhere, so 0-0 there)
	TESTQ       CX, CX
	JZ          sum
	SHRQ        $2, CX
	MOVL        $1, AX
	SHLL        CX, AX
	DECL        AX
	KMOVW       AX, K1
	VMOVUPS.Z   (SI), K1, Z8
	VMOVUPS.Z   (DI), K1, Z9
	VSUBPS      Z9, Z8, Z8
	VFMADD231PS Z8, Z8, Z1

sum:
	// pairwise sum of the four partial sums, fold to YMM, then across lanes
	VADDPS Z1, Z0, Z0
	VADDPS Z3, Z2, Z2
	VADDPS Z2, Z0, Z0
	FOLDPS(Z0, Y0, Y1)
	HSUMPS
	VMOVSS X0, ret+48(FP)
	VZEROUPPER
	RET

// func axpyAVX512F32(a float32, x, y []float32)
TEXT ·axpyAVX512F32(SB), NOSPLIT, $0-56
	// Z0 = a in every lane, SI = &x[0], DI = &y[0], CX = bytes left
	VBROADCASTSS a+0(FP), Z0
	MOVQ         x_base+8(FP), SI
	MOVQ         y_base+32(FP), DI
	MOVQ         x_len+16(FP), CX
	SHLQ         $2, CX
	CMPQ         CX, $256
	JB           tail

	PCALIGN $32

loop:
	// 4 vectors (256 bytes) per iteration: Zk = a*x + y, stored to y
	VMOVUPS     (SI), Z1
	VMOVUPS     64(SI), Z2
	VMOVUPS     128(SI), Z3
	VMOVUPS     192(SI), Z4
	VFMADD213PS (DI), Z0, Z1
	VFMADD213PS 64(DI), Z0, Z2
	VFMADD213PS 128(DI), Z0, Z3
	VFMADD213PS 192(DI), Z0, Z4
	VMOVUPS     Z1, (DI)
	VMOVUPS     Z2, 64(DI)
	VMOVUPS     Z3, 128(DI)
	VMOVUPS     Z4, 192(DI)
	ADDQ        $256, SI
	ADDQ        $256, DI
	SUBQ        $256, CX
	CMPQ        CX, $256
	JAE         loop

tail:
	// CX < 256: 2 and 1 whole vectors, then one masked vector
	CMPQ        CX, $128
	JB          tail64
	VMOVUPS     (SI), Z1
	VMOVUPS     64(SI), Z2
	VFMADD213PS (DI), Z0, Z1
	VFMADD213PS 64(DI), Z0, Z2
	VMOVUPS     Z1, (DI)
	VMOVUPS     Z2, 64(DI)
	ADDQ        $128, SI
	ADDQ        $128, DI
	SUBQ        $128, CX

tail64:
	CMPQ        CX, $64
	JB          tailmask
	VMOVUPS     (SI), Z1
	VFMADD213PS (DI), Z0, Z1
	VMOVUPS     Z1, (DI)
	ADDQ        $64, SI
	ADDQ        $64, DI
	SUBQ        $64, CX

tailmask:
	// CX < 64 bytes left: K1 = one bit per remaining element,
	// Z1 = masked x, Z2 = masked y, then Z2 += a*Z1 stored under K1
	TESTQ       CX, CX
	JZ          done
	SHRQ        $2, CX
	MOVL        $1, AX
	SHLL        CX, AX
	DECL        AX
	KMOVW       AX, K1
	VMOVUPS.Z   (SI), K1, Z1
	VMOVUPS.Z   (DI), K1, Z2
	VFMADD231PS Z1, Z0, Z2
	VMOVUPS     Z2, K1, (DI)

done:
	VZEROUPPER
	RET

// func scaleAVX512F32(a float32, x []float32)
TEXT ·scaleAVX512F32(SB), NOSPLIT, $0-32
	// Z0 = a in every lane, SI = &x[0], CX = bytes left
	VBROADCASTSS a+0(FP), Z0
	MOVQ         x_base+8(FP), SI
	MOVQ         x_len+16(FP), CX
	SHLQ         $2, CX
	CMPQ         CX, $256
	JB           tail

	PCALIGN $32

loop:
	// 4 vectors (256 bytes) per iteration: Zk = a*x, stored back to x
	VMULPS  (SI), Z0, Z1
	VMULPS  64(SI), Z0, Z2
	VMULPS  128(SI), Z0, Z3
	VMULPS  192(SI), Z0, Z4
	VMOVUPS Z1, (SI)
	VMOVUPS Z2, 64(SI)
	VMOVUPS Z3, 128(SI)
	VMOVUPS Z4, 192(SI)
	ADDQ    $256, SI
	SUBQ    $256, CX
	CMPQ    CX, $256
	JAE     loop

tail:
	// CX < 256: 2 and 1 whole vectors, then one masked vector
	CMPQ    CX, $128
	JB      tail64
	VMULPS  (SI), Z0, Z1
	VMULPS  64(SI), Z0, Z2
	VMOVUPS Z1, (SI)
	VMOVUPS Z2, 64(SI)
	ADDQ    $128, SI
	SUBQ    $128, CX

tail64:
	CMPQ    CX, $64
	JB      tailmask
	VMULPS  (SI), Z0, Z1
	VMOVUPS Z1, (SI)
	ADDQ    $64, SI
	SUBQ    $64, CX

tailmask:
	// CX < 64 bytes left: K1 = one bit per remaining element,
	// Z1 = a * masked x, stored under K1
	TESTQ     CX, CX
	JZ        done
	SHRQ      $2, CX
	MOVL      $1, AX
	SHLL      CX, AX
	DECL      AX
	KMOVW     AX, K1
	VMOVUPS.Z (SI), K1, Z1
	VMULPS    Z1, Z0, Z1
	VMOVUPS   Z1, K1, (SI)

done:
	VZEROUPPER
	RET

// func matvecAVX512F32(dst, m, w []float32)
TEXT ·matvecAVX512F32(SB), NOSPLIT, $0-72
	// DX = &dst[i], BX = rows left, SI = &m[i*d], DI = &w[0],
	// R8 = row length in bytes (d*4), R12 = R8 rounded down to 128 bytes,
	// R13 = R8 mod 64 (bytes of the masked tail), K1 = its element mask
	MOVQ  dst_base+0(FP), DX
	MOVQ  dst_len+8(FP), BX
	MOVQ  m_base+24(FP), SI
	MOVQ  w_base+48(FP), DI
	MOVQ  w_len+56(FP), R8
	SHLQ  $2, R8
	MOVQ  R8, R12
	ANDQ  $-128, R12
	MOVQ  R8, R13
	ANDQ  $63, R13
	MOVQ  R13, CX
	SHRQ  $2, CX
	MOVL  $1, AX
	SHLL  CX, AX
	DECL  AX
	KMOVW AX, K1
	CMPQ  BX, $4
	JB    rows1

block4:
	// four rows at a time, each load of w shared by the four:
	// SI, R9, R10, R11 = rows 0..3, AX = byte offset in the row,
	// Z0..Z3 and Z4..Z7 = partial sums of rows 0..3 (even / odd vectors),
	// Z8, Z9 = w vectors
	LEAQ   (SI)(R8*1), R9
	LEAQ   (R9)(R8*1), R10
	LEAQ   (R10)(R8*1), R11
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
	JAE    block4v64

	PCALIGN $32

block4loop:
	// 2 vectors (128 bytes) of each of the four rows
	VMOVUPS     (DI)(AX*1), Z8
	VMOVUPS     64(DI)(AX*1), Z9
	VFMADD231PS (SI)(AX*1), Z8, Z0
	VFMADD231PS (R9)(AX*1), Z8, Z1
	VFMADD231PS (R10)(AX*1), Z8, Z2
	VFMADD231PS (R11)(AX*1), Z8, Z3
	VFMADD231PS 64(SI)(AX*1), Z9, Z4
	VFMADD231PS 64(R9)(AX*1), Z9, Z5
	VFMADD231PS 64(R10)(AX*1), Z9, Z6
	VFMADD231PS 64(R11)(AX*1), Z9, Z7
	ADDQ        $128, AX
	CMPQ        AX, R12
	JB          block4loop

block4v64:
	// one whole vector if the row has 64 more bytes
	TESTQ       $64, R8
	JZ          block4mask
	VMOVUPS     (DI)(AX*1), Z8
	VFMADD231PS (SI)(AX*1), Z8, Z0
	VFMADD231PS (R9)(AX*1), Z8, Z1
	VFMADD231PS (R10)(AX*1), Z8, Z2
	VFMADD231PS (R11)(AX*1), Z8, Z3
	ADDQ        $64, AX

block4mask:
	// the R13-byte tail under K1: Z8 = masked w, Z9..Z11 = masked row lanes
	TESTQ       R13, R13
	JZ          block4sum
	VMOVUPS.Z   (DI)(AX*1), K1, Z8
	VMOVUPS.Z   (SI)(AX*1), K1, Z9
	VMOVUPS.Z   (R9)(AX*1), K1, Z10
	VMOVUPS.Z   (R10)(AX*1), K1, Z11
	VFMADD231PS Z9, Z8, Z4
	VFMADD231PS Z10, Z8, Z5
	VFMADD231PS Z11, Z8, Z6
	VMOVUPS.Z   (R11)(AX*1), K1, Z9
	VFMADD231PS Z9, Z8, Z7

block4sum:
	// Y0..Y3 = row partial sums folded to YMM, X0 = the four row sums,
	// stored to dst[i:i+4]; next block
	VADDPS  Z4, Z0, Z0
	VADDPS  Z5, Z1, Z1
	VADDPS  Z6, Z2, Z2
	VADDPS  Z7, Z3, Z3
	FOLDPS(Z0, Y0, Y8)
	FOLDPS(Z1, Y1, Y9)
	FOLDPS(Z2, Y2, Y10)
	FOLDPS(Z3, Y3, Y11)
	ROWS4PS
	VMOVUPS X0, (DX)
	ADDQ    $16, DX
	LEAQ    (R11)(R8*1), SI
	SUBQ    $4, BX
	CMPQ    BX, $4
	JAE     block4

rows1:
	// the last BX < 4 rows one at a time, like dot:
	// R9 = R8 rounded down to 256 bytes, SI = the row, AX = byte offset,
	// Z0..Z3 = partial sums, Z8..Z11 = w vectors
	TESTQ BX, BX
	JZ    done
	MOVQ  R8, R9
	ANDQ  $-256, R9

row:
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	XORL   AX, AX
	CMPQ   AX, R9
	JAE    rowv128

	PCALIGN $32

rowloop:
	// 4 vectors (256 bytes) per iteration
	VMOVUPS     (DI)(AX*1), Z8
	VMOVUPS     64(DI)(AX*1), Z9
	VMOVUPS     128(DI)(AX*1), Z10
	VMOVUPS     192(DI)(AX*1), Z11
	VFMADD231PS (SI)(AX*1), Z8, Z0
	VFMADD231PS 64(SI)(AX*1), Z9, Z1
	VFMADD231PS 128(SI)(AX*1), Z10, Z2
	VFMADD231PS 192(SI)(AX*1), Z11, Z3
	ADDQ        $256, AX
	CMPQ        AX, R9
	JB          rowloop

rowv128:
	// 2 and 1 whole vectors as the bits of R8 say, then the masked tail
	TESTQ       $128, R8
	JZ          rowv64
	VMOVUPS     (DI)(AX*1), Z8
	VMOVUPS     64(DI)(AX*1), Z9
	VFMADD231PS (SI)(AX*1), Z8, Z0
	VFMADD231PS 64(SI)(AX*1), Z9, Z1
	ADDQ        $128, AX

rowv64:
	TESTQ       $64, R8
	JZ          rowmask
	VMOVUPS     (DI)(AX*1), Z8
	VFMADD231PS (SI)(AX*1), Z8, Z2
	ADDQ        $64, AX

rowmask:
	TESTQ       R13, R13
	JZ          rowsum
	VMOVUPS.Z   (DI)(AX*1), K1, Z8
	VMOVUPS.Z   (SI)(AX*1), K1, Z9
	VFMADD231PS Z9, Z8, Z3

rowsum:
	// X0[0] = the row sum, stored to dst[i]; next row
	VADDPS Z1, Z0, Z0
	VADDPS Z3, Z2, Z2
	VADDPS Z2, Z0, Z0
	FOLDPS(Z0, Y0, Y1)
	HSUMPS
	VMOVSS X0, (DX)
	ADDQ   $4, DX
	ADDQ   R8, SI
	DECQ   BX
	JNZ    row

done:
	VZEROUPPER
	RET

// func dotAVX512F64(x, y []float64) float64
TEXT ·dotAVX512F64(SB), NOSPLIT, $0-56
	// SI = &x[0], DI = &y[0], CX = bytes left
	MOVQ x_base+0(FP), SI
	MOVQ y_base+24(FP), DI
	MOVQ x_len+8(FP), CX
	SHLQ $3, CX

	// Z0..Z3 = four independent partial sums; the main loop adds
	// Z4..Z7 and folds them in afterwards
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	CMPQ   CX, $512
	JB     tail
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7

	PCALIGN $32

loop:
	// 8 vectors (512 bytes) per iteration; Z8..Z11 = x vectors
	VMOVUPD     (SI), Z8
	VMOVUPD     64(SI), Z9
	VMOVUPD     128(SI), Z10
	VMOVUPD     192(SI), Z11
	VFMADD231PD (DI), Z8, Z0
	VFMADD231PD 64(DI), Z9, Z1
	VFMADD231PD 128(DI), Z10, Z2
	VFMADD231PD 192(DI), Z11, Z3
	VMOVUPD     256(SI), Z8
	VMOVUPD     320(SI), Z9
	VMOVUPD     384(SI), Z10
	VMOVUPD     448(SI), Z11
	VFMADD231PD 256(DI), Z8, Z4
	VFMADD231PD 320(DI), Z9, Z5
	VFMADD231PD 384(DI), Z10, Z6
	VFMADD231PD 448(DI), Z11, Z7
	ADDQ        $512, SI
	ADDQ        $512, DI
	SUBQ        $512, CX
	CMPQ        CX, $512
	JAE         loop

	// fold the loop's eight partial sums into Z0..Z3
	VADDPD Z4, Z0, Z0
	VADDPD Z5, Z1, Z1
	VADDPD Z6, Z2, Z2
	VADDPD Z7, Z3, Z3
	TESTQ  CX, CX
	JZ     sum

tail:
	// CX < 512: 4, 2 and 1 whole vectors as the bits of CX say, then
	// one masked vector, spread over the partial sums so that no sum
	// takes more than two of these steps
	CMPQ        CX, $256
	JB          tail128
	VMOVUPD     (SI), Z8
	VMOVUPD     64(SI), Z9
	VMOVUPD     128(SI), Z10
	VMOVUPD     192(SI), Z11
	VFMADD231PD (DI), Z8, Z0
	VFMADD231PD 64(DI), Z9, Z1
	VFMADD231PD 128(DI), Z10, Z2
	VFMADD231PD 192(DI), Z11, Z3
	ADDQ        $256, SI
	ADDQ        $256, DI
	SUBQ        $256, CX

tail128:
	CMPQ        CX, $128
	JB          tail64
	VMOVUPD     (SI), Z8
	VMOVUPD     64(SI), Z9
	VFMADD231PD (DI), Z8, Z2
	VFMADD231PD 64(DI), Z9, Z3
	ADDQ        $128, SI
	ADDQ        $128, DI
	SUBQ        $128, CX

tail64:
	CMPQ        CX, $64
	JB          tailmask
	VMOVUPD     (SI), Z8
	VFMADD231PD (DI), Z8, Z0
	ADDQ        $64, SI
	ADDQ        $64, DI
	SUBQ        $64, CX

tailmask:
	// CX < 64 bytes left: K1 = one bit per remaining element,
	// Z8, Z9 = the masked x and y lanes (zero elsewhere)
	TESTQ       CX, CX
	JZ          sum
	SHRQ        $3, CX
	MOVL        $1, AX
	SHLL        CX, AX
	DECL        AX
	KMOVW       AX, K1
	VMOVUPD.Z   (SI), K1, Z8
	VMOVUPD.Z   (DI), K1, Z9
	VFMADD231PD Z9, Z8, Z1

sum:
	// pairwise sum of the four partial sums, fold to YMM, then across lanes
	VADDPD Z1, Z0, Z0
	VADDPD Z3, Z2, Z2
	VADDPD Z2, Z0, Z0
	FOLDPD(Z0, Y0, Y1)
	HSUMPD
	VMOVSD X0, ret+48(FP)
	VZEROUPPER
	RET

// func sqdistAVX512F64(x, y []float64) float64
TEXT ·sqdistAVX512F64(SB), NOSPLIT, $0-56
	// SI = &x[0], DI = &y[0], CX = bytes left
	MOVQ x_base+0(FP), SI
	MOVQ y_base+24(FP), DI
	MOVQ x_len+8(FP), CX
	SHLQ $3, CX

	// Z0..Z3 = four independent partial sums; the main loop adds
	// Z4..Z7 and folds them in afterwards
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	CMPQ   CX, $512
	JB     tail
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7

	PCALIGN $32

loop:
	// 8 vectors (512 bytes) per iteration; Z8..Z11 = x-y differences
	VMOVUPD     (SI), Z8
	VMOVUPD     64(SI), Z9
	VMOVUPD     128(SI), Z10
	VMOVUPD     192(SI), Z11
	VSUBPD      (DI), Z8, Z8
	VSUBPD      64(DI), Z9, Z9
	VSUBPD      128(DI), Z10, Z10
	VSUBPD      192(DI), Z11, Z11
	VFMADD231PD Z8, Z8, Z0
	VFMADD231PD Z9, Z9, Z1
	VFMADD231PD Z10, Z10, Z2
	VFMADD231PD Z11, Z11, Z3
	VMOVUPD     256(SI), Z8
	VMOVUPD     320(SI), Z9
	VMOVUPD     384(SI), Z10
	VMOVUPD     448(SI), Z11
	VSUBPD      256(DI), Z8, Z8
	VSUBPD      320(DI), Z9, Z9
	VSUBPD      384(DI), Z10, Z10
	VSUBPD      448(DI), Z11, Z11
	VFMADD231PD Z8, Z8, Z4
	VFMADD231PD Z9, Z9, Z5
	VFMADD231PD Z10, Z10, Z6
	VFMADD231PD Z11, Z11, Z7
	ADDQ        $512, SI
	ADDQ        $512, DI
	SUBQ        $512, CX
	CMPQ        CX, $512
	JAE         loop

	// fold the loop's eight partial sums into Z0..Z3
	VADDPD Z4, Z0, Z0
	VADDPD Z5, Z1, Z1
	VADDPD Z6, Z2, Z2
	VADDPD Z7, Z3, Z3
	TESTQ  CX, CX
	JZ     sum

tail:
	// CX < 512: 4, 2 and 1 whole vectors as the bits of CX say, then
	// one masked vector, spread over the partial sums so that no sum
	// takes more than two of these steps
	CMPQ        CX, $256
	JB          tail128
	VMOVUPD     (SI), Z8
	VMOVUPD     64(SI), Z9
	VMOVUPD     128(SI), Z10
	VMOVUPD     192(SI), Z11
	VSUBPD      (DI), Z8, Z8
	VSUBPD      64(DI), Z9, Z9
	VSUBPD      128(DI), Z10, Z10
	VSUBPD      192(DI), Z11, Z11
	VFMADD231PD Z8, Z8, Z0
	VFMADD231PD Z9, Z9, Z1
	VFMADD231PD Z10, Z10, Z2
	VFMADD231PD Z11, Z11, Z3
	ADDQ        $256, SI
	ADDQ        $256, DI
	SUBQ        $256, CX

tail128:
	CMPQ        CX, $128
	JB          tail64
	VMOVUPD     (SI), Z8
	VMOVUPD     64(SI), Z9
	VSUBPD      (DI), Z8, Z8
	VSUBPD      64(DI), Z9, Z9
	VFMADD231PD Z8, Z8, Z2
	VFMADD231PD Z9, Z9, Z3
	ADDQ        $128, SI
	ADDQ        $128, DI
	SUBQ        $128, CX

tail64:
	CMPQ        CX, $64
	JB          tailmask
	VMOVUPD     (SI), Z8
	VSUBPD      (DI), Z8, Z8
	VFMADD231PD Z8, Z8, Z0
	ADDQ        $64, SI
	ADDQ        $64, DI
	SUBQ        $64, CX

tailmask:
	// CX < 64 bytes left: K1 = one bit per remaining element,
	// Z8, Z9 = the masked x and y lanes (zero elsewhere, so 0-0 there)
	TESTQ       CX, CX
	JZ          sum
	SHRQ        $3, CX
	MOVL        $1, AX
	SHLL        CX, AX
	DECL        AX
	KMOVW       AX, K1
	VMOVUPD.Z   (SI), K1, Z8
	VMOVUPD.Z   (DI), K1, Z9
	VSUBPD      Z9, Z8, Z8
	VFMADD231PD Z8, Z8, Z1

sum:
	// pairwise sum of the four partial sums, fold to YMM, then across lanes
	VADDPD Z1, Z0, Z0
	VADDPD Z3, Z2, Z2
	VADDPD Z2, Z0, Z0
	FOLDPD(Z0, Y0, Y1)
	HSUMPD
	VMOVSD X0, ret+48(FP)
	VZEROUPPER
	RET

// func axpyAVX512F64(a float64, x, y []float64)
TEXT ·axpyAVX512F64(SB), NOSPLIT, $0-56
	// Z0 = a in every lane, SI = &x[0], DI = &y[0], CX = bytes left
	VBROADCASTSD a+0(FP), Z0
	MOVQ         x_base+8(FP), SI
	MOVQ         y_base+32(FP), DI
	MOVQ         x_len+16(FP), CX
	SHLQ         $3, CX
	CMPQ         CX, $256
	JB           tail

	PCALIGN $32

loop:
	// 4 vectors (256 bytes) per iteration: Zk = a*x + y, stored to y
	VMOVUPD     (SI), Z1
	VMOVUPD     64(SI), Z2
	VMOVUPD     128(SI), Z3
	VMOVUPD     192(SI), Z4
	VFMADD213PD (DI), Z0, Z1
	VFMADD213PD 64(DI), Z0, Z2
	VFMADD213PD 128(DI), Z0, Z3
	VFMADD213PD 192(DI), Z0, Z4
	VMOVUPD     Z1, (DI)
	VMOVUPD     Z2, 64(DI)
	VMOVUPD     Z3, 128(DI)
	VMOVUPD     Z4, 192(DI)
	ADDQ        $256, SI
	ADDQ        $256, DI
	SUBQ        $256, CX
	CMPQ        CX, $256
	JAE         loop

tail:
	// CX < 256: 2 and 1 whole vectors, then one masked vector
	CMPQ        CX, $128
	JB          tail64
	VMOVUPD     (SI), Z1
	VMOVUPD     64(SI), Z2
	VFMADD213PD (DI), Z0, Z1
	VFMADD213PD 64(DI), Z0, Z2
	VMOVUPD     Z1, (DI)
	VMOVUPD     Z2, 64(DI)
	ADDQ        $128, SI
	ADDQ        $128, DI
	SUBQ        $128, CX

tail64:
	CMPQ        CX, $64
	JB          tailmask
	VMOVUPD     (SI), Z1
	VFMADD213PD (DI), Z0, Z1
	VMOVUPD     Z1, (DI)
	ADDQ        $64, SI
	ADDQ        $64, DI
	SUBQ        $64, CX

tailmask:
	// CX < 64 bytes left: K1 = one bit per remaining element,
	// Z1 = masked x, Z2 = masked y, then Z2 += a*Z1 stored under K1
	TESTQ       CX, CX
	JZ          done
	SHRQ        $3, CX
	MOVL        $1, AX
	SHLL        CX, AX
	DECL        AX
	KMOVW       AX, K1
	VMOVUPD.Z   (SI), K1, Z1
	VMOVUPD.Z   (DI), K1, Z2
	VFMADD231PD Z1, Z0, Z2
	VMOVUPD     Z2, K1, (DI)

done:
	VZEROUPPER
	RET

// func scaleAVX512F64(a float64, x []float64)
TEXT ·scaleAVX512F64(SB), NOSPLIT, $0-32
	// Z0 = a in every lane, SI = &x[0], CX = bytes left
	VBROADCASTSD a+0(FP), Z0
	MOVQ         x_base+8(FP), SI
	MOVQ         x_len+16(FP), CX
	SHLQ         $3, CX
	CMPQ         CX, $256
	JB           tail

	PCALIGN $32

loop:
	// 4 vectors (256 bytes) per iteration: Zk = a*x, stored back to x
	VMULPD  (SI), Z0, Z1
	VMULPD  64(SI), Z0, Z2
	VMULPD  128(SI), Z0, Z3
	VMULPD  192(SI), Z0, Z4
	VMOVUPD Z1, (SI)
	VMOVUPD Z2, 64(SI)
	VMOVUPD Z3, 128(SI)
	VMOVUPD Z4, 192(SI)
	ADDQ    $256, SI
	SUBQ    $256, CX
	CMPQ    CX, $256
	JAE     loop

tail:
	// CX < 256: 2 and 1 whole vectors, then one masked vector
	CMPQ    CX, $128
	JB      tail64
	VMULPD  (SI), Z0, Z1
	VMULPD  64(SI), Z0, Z2
	VMOVUPD Z1, (SI)
	VMOVUPD Z2, 64(SI)
	ADDQ    $128, SI
	SUBQ    $128, CX

tail64:
	CMPQ    CX, $64
	JB      tailmask
	VMULPD  (SI), Z0, Z1
	VMOVUPD Z1, (SI)
	ADDQ    $64, SI
	SUBQ    $64, CX

tailmask:
	// CX < 64 bytes left: K1 = one bit per remaining element,
	// Z1 = a * masked x, stored under K1
	TESTQ     CX, CX
	JZ        done
	SHRQ      $3, CX
	MOVL      $1, AX
	SHLL      CX, AX
	DECL      AX
	KMOVW     AX, K1
	VMOVUPD.Z (SI), K1, Z1
	VMULPD    Z1, Z0, Z1
	VMOVUPD   Z1, K1, (SI)

done:
	VZEROUPPER
	RET

// func matvecAVX512F64(dst, m, w []float64)
TEXT ·matvecAVX512F64(SB), NOSPLIT, $0-72
	// DX = &dst[i], BX = rows left, SI = &m[i*d], DI = &w[0],
	// R8 = row length in bytes (d*8), R12 = R8 rounded down to 128 bytes,
	// R13 = R8 mod 64 (bytes of the masked tail), K1 = its element mask
	MOVQ  dst_base+0(FP), DX
	MOVQ  dst_len+8(FP), BX
	MOVQ  m_base+24(FP), SI
	MOVQ  w_base+48(FP), DI
	MOVQ  w_len+56(FP), R8
	SHLQ  $3, R8
	MOVQ  R8, R12
	ANDQ  $-128, R12
	MOVQ  R8, R13
	ANDQ  $63, R13
	MOVQ  R13, CX
	SHRQ  $3, CX
	MOVL  $1, AX
	SHLL  CX, AX
	DECL  AX
	KMOVW AX, K1
	CMPQ  BX, $4
	JB    rows1

block4:
	// four rows at a time, each load of w shared by the four:
	// SI, R9, R10, R11 = rows 0..3, AX = byte offset in the row,
	// Z0..Z3 and Z4..Z7 = partial sums of rows 0..3 (even / odd vectors),
	// Z8, Z9 = w vectors
	LEAQ   (SI)(R8*1), R9
	LEAQ   (R9)(R8*1), R10
	LEAQ   (R10)(R8*1), R11
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
	JAE    block4v64

	PCALIGN $32

block4loop:
	// 2 vectors (128 bytes) of each of the four rows
	VMOVUPD     (DI)(AX*1), Z8
	VMOVUPD     64(DI)(AX*1), Z9
	VFMADD231PD (SI)(AX*1), Z8, Z0
	VFMADD231PD (R9)(AX*1), Z8, Z1
	VFMADD231PD (R10)(AX*1), Z8, Z2
	VFMADD231PD (R11)(AX*1), Z8, Z3
	VFMADD231PD 64(SI)(AX*1), Z9, Z4
	VFMADD231PD 64(R9)(AX*1), Z9, Z5
	VFMADD231PD 64(R10)(AX*1), Z9, Z6
	VFMADD231PD 64(R11)(AX*1), Z9, Z7
	ADDQ        $128, AX
	CMPQ        AX, R12
	JB          block4loop

block4v64:
	// one whole vector if the row has 64 more bytes
	TESTQ       $64, R8
	JZ          block4mask
	VMOVUPD     (DI)(AX*1), Z8
	VFMADD231PD (SI)(AX*1), Z8, Z0
	VFMADD231PD (R9)(AX*1), Z8, Z1
	VFMADD231PD (R10)(AX*1), Z8, Z2
	VFMADD231PD (R11)(AX*1), Z8, Z3
	ADDQ        $64, AX

block4mask:
	// the R13-byte tail under K1: Z8 = masked w, Z9..Z11 = masked row lanes
	TESTQ       R13, R13
	JZ          block4sum
	VMOVUPD.Z   (DI)(AX*1), K1, Z8
	VMOVUPD.Z   (SI)(AX*1), K1, Z9
	VMOVUPD.Z   (R9)(AX*1), K1, Z10
	VMOVUPD.Z   (R10)(AX*1), K1, Z11
	VFMADD231PD Z9, Z8, Z4
	VFMADD231PD Z10, Z8, Z5
	VFMADD231PD Z11, Z8, Z6
	VMOVUPD.Z   (R11)(AX*1), K1, Z9
	VFMADD231PD Z9, Z8, Z7

block4sum:
	// Y0..Y3 = row partial sums folded to YMM, Y0 = the four row sums,
	// stored to dst[i:i+4]; next block
	VADDPD  Z4, Z0, Z0
	VADDPD  Z5, Z1, Z1
	VADDPD  Z6, Z2, Z2
	VADDPD  Z7, Z3, Z3
	FOLDPD(Z0, Y0, Y8)
	FOLDPD(Z1, Y1, Y9)
	FOLDPD(Z2, Y2, Y10)
	FOLDPD(Z3, Y3, Y11)
	ROWS4PD
	VMOVUPD Y0, (DX)
	ADDQ    $32, DX
	LEAQ    (R11)(R8*1), SI
	SUBQ    $4, BX
	CMPQ    BX, $4
	JAE     block4

rows1:
	// the last BX < 4 rows one at a time, like dot:
	// R9 = R8 rounded down to 256 bytes, SI = the row, AX = byte offset,
	// Z0..Z3 = partial sums, Z8..Z11 = w vectors
	TESTQ BX, BX
	JZ    done
	MOVQ  R8, R9
	ANDQ  $-256, R9

row:
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	XORL   AX, AX
	CMPQ   AX, R9
	JAE    rowv128

	PCALIGN $32

rowloop:
	// 4 vectors (256 bytes) per iteration
	VMOVUPD     (DI)(AX*1), Z8
	VMOVUPD     64(DI)(AX*1), Z9
	VMOVUPD     128(DI)(AX*1), Z10
	VMOVUPD     192(DI)(AX*1), Z11
	VFMADD231PD (SI)(AX*1), Z8, Z0
	VFMADD231PD 64(SI)(AX*1), Z9, Z1
	VFMADD231PD 128(SI)(AX*1), Z10, Z2
	VFMADD231PD 192(SI)(AX*1), Z11, Z3
	ADDQ        $256, AX
	CMPQ        AX, R9
	JB          rowloop

rowv128:
	// 2 and 1 whole vectors as the bits of R8 say, then the masked tail
	TESTQ       $128, R8
	JZ          rowv64
	VMOVUPD     (DI)(AX*1), Z8
	VMOVUPD     64(DI)(AX*1), Z9
	VFMADD231PD (SI)(AX*1), Z8, Z0
	VFMADD231PD 64(SI)(AX*1), Z9, Z1
	ADDQ        $128, AX

rowv64:
	TESTQ       $64, R8
	JZ          rowmask
	VMOVUPD     (DI)(AX*1), Z8
	VFMADD231PD (SI)(AX*1), Z8, Z2
	ADDQ        $64, AX

rowmask:
	TESTQ       R13, R13
	JZ          rowsum
	VMOVUPD.Z   (DI)(AX*1), K1, Z8
	VMOVUPD.Z   (SI)(AX*1), K1, Z9
	VFMADD231PD Z9, Z8, Z3

rowsum:
	// X0[0] = the row sum, stored to dst[i]; next row
	VADDPD Z1, Z0, Z0
	VADDPD Z3, Z2, Z2
	VADDPD Z2, Z0, Z0
	FOLDPD(Z0, Y0, Y1)
	HSUMPD
	VMOVSD X0, (DX)
	ADDQ   $8, DX
	ADDQ   R8, SI
	DECQ   BX
	JNZ    row

done:
	VZEROUPPER
	RET
