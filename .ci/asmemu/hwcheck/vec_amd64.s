#include "textflag.h"

// A program for hwcheck.py: AVX-512 and AVX features emu.py models but the
// kernel files may not use yet (opmask merging and zeroing, embedded
// broadcast, memory operands of each FMA order, VEX writes clearing a ZMM's
// upper bits, aligned moves, extraction, scalar forms). Its output is
// compared bit for bit between the CPU and the interpreter.

// func vec(in *float32, ind *float64, k uint64, out *float32)
// in: 64 float32 (64-byte aligned), ind: 32 float64, out: 400 float32
// (prefilled); k is the opmask (K1 all 16 bits, K2 the low 8).
TEXT ·vec(SB), NOSPLIT, $0-32
	MOVQ in+0(FP), SI
	MOVQ ind+8(FP), BX
	MOVQ k+16(FP), AX
	MOVQ out+24(FP), DI
	KMOVW AX, K1
	KMOVB AX, K2
	// masked loads: zeroing and merging
	VMOVUPS.Z 4(SI), K1, Z0
	VMOVUPS 0(DI), Z1
	VMOVUPS 8(SI), K1, Z1
	VMOVUPS Z0, 0(DI)
	VMOVUPS Z1, 64(DI)
	// masked store: masked-off lanes keep out's values
	VMOVUPS 64(SI), Z2
	VMOVUPS Z2, K1, 128(DI)
	// embedded broadcast FMA, memory FMAs of each order
	VMOVUPS 128(SI), Z3
	VMOVUPS 0(SI), Z4
	VFMADD231PS.BCST 12(SI), Z3, Z4
	VMOVUPS Z4, 192(DI)
	VMOVUPS 0(SI), Z5
	VMOVUPS 64(SI), Z6
	VFMADD213PS 128(SI), Z5, Z6
	VMOVUPS Z6, 256(DI)
	VMOVUPS 0(SI), Y7
	VMOVUPS 32(SI), Y8
	VFMADD132PS 96(SI), Y7, Y8
	VMOVUPS Y8, 320(DI)
	VMOVUPS 0(SI), Y9
	VMOVUPS 32(SI), Y10
	VFMSUB231PS Y9, Y10, Y10
	VMOVUPS Y10, 352(DI)
	VMOVUPS 0(SI), Z11
	VMOVUPS 64(SI), Z12
	VFNMADD231PS Z11, Z12, K1, Z12
	VMOVUPS Z12, 384(DI)
	VMOVUPS 0(SI), Z13
	VMOVUPS 128(SI), Z14
	VFNMSUB213PS.Z Z13, Z14, K1, Z14
	VMOVUPS Z14, 448(DI)
	// arithmetic: broadcast, masked merge, masked zero, max/min
	VMOVUPS 0(SI), Z15
	VADDPS.BCST 20(SI), Z15, Z16
	VMOVUPS Z16, 512(DI)
	VMOVUPS 64(SI), Z17
	VMOVUPS 128(SI), Z18
	VMULPS Z17, Z18, K1, Z18
	VMOVUPS Z18, 576(DI)
	VSUBPS.Z 0(SI), Z17, K1, Z19
	VMOVUPS Z19, 640(DI)
	VMOVUPS 0(SI), Y20
	VMAXPS 32(SI), Y20, Y21
	VMINPS 32(SI), Y20, Y22
	VMOVUPS Y21, 704(DI)
	VMOVUPS Y22, 736(DI)
	// bitwise with a mask, broadcast from a register and from memory
	VMOVUPS 0(SI), Z23
	VMOVUPS 64(SI), Z24
	VPXORD Z23, Z24, K1, Z24
	VMOVUPS Z24, 768(DI)
	VMOVUPS 8(SI), X25
	VBROADCASTSS X25, Z26
	VMOVUPS Z26, 832(DI)
	VBROADCASTSS 16(SI), Y27
	VMOVUPS Z27, 896(DI)
	// VEX write clears the upper bits of a ZMM
	VMOVUPS 0(SI), Z28
	VMOVUPS 64(SI), Z0
	VXORPS Y0, Y0, Y0
	VMOVUPS Z0, 960(DI)
	// aligned moves, extraction
	VMOVAPS 64(SI), Z1
	VEXTRACTF32X4 $2, Z1, X2
	VMOVUPS X2, 1024(DI)
	VEXTRACTF64X4 $1, Z1, Y3
	VMOVUPS Y3, 1040(DI)
	VPERM2F128 $0x81, 0(SI), Y1, Y4
	VMOVUPS Y4, 1072(DI)
	// float64: masked, broadcast, scalar with memory
	VMOVUPD 0(BX), Z5
	VFMADD231PD.BCST 8(BX), Z5, K2, Z5
	VMOVUPD Z5, 1104(DI)
	VMOVUPD.Z 64(BX), K2, Z6
	VMOVUPD Z6, 1168(DI)
	VBROADCASTSD 24(BX), Z7
	VMOVUPD Z7, 1232(DI)
	VMOVUPD 0(BX), X8
	VMOVUPD 16(BX), X9
	VFMADD231SD 32(BX), X8, X9
	VMOVUPD X9, 1296(DI)
	VADDSD 40(BX), X8, X10
	VMOVUPD X10, 1312(DI)
	VMOVSD 48(BX), X11
	VMOVUPD X11, 1328(DI)
	VMOVUPD 0(BX), Y12
	VMOVUPD 32(BX), Y13
	VFNMADD213PD 64(BX), Y12, Y13
	VMOVUPD Y13, 1344(DI)
	VDIVPD 32(BX), Y12, Y14
	VMOVUPD Y14, 1376(DI)
	VZEROUPPER
	RET
