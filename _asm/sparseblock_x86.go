package main

import (
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The block-scoring kernel of package modelkern for amd64
// (internal/modelkern/sparseblock_amd64.s): for a block of w ≤ 8 classes whose weights
// are interleaved by feature (feature j's at blk[j·w : j·w+w]),
//
//	acc[0:w] += val[k] · blk[idx[k]·w : idx[k]·w+w]   for k in order
//
// each lane one sequential sum over the non-zeros, as the Go loop
// (kernel.scoreBlockGeneric) computes it: the value broadcast, one VMULPS
// and one VADDPS per non-zero (no fused multiply-add: Go does not fuse
// s += v·b on amd64, and each lane must round as the Go loop does). The
// weights are read with VMASKMOVPS/VMASKMOVPD under a mask of the first w
// lanes (float64: two YMM registers for w > 4), so nothing past a
// feature's w weights is read. AVX only (YMM): the avx2 and avx512
// implementations share it.
//
// Index safety: the Go caller passes bound, the number of features whose
// weights lie inside blk (capped at 2³¹−1); each index, zero-extended, is
// checked below bound as an unsigned number (a negative one fails as one
// too large does) before its weights are read. On a failed check the
// kernel returns ok = false having written nothing, and the caller runs
// the Go loop, which panics at that index.

// scoreBlockFuncs emits scoreBlockAVX2F32 and scoreBlockAVX2F64.
func scoreBlockFuncs(f *asmFile) {
	m := f.ctx.StaticGlobal("blockMask")
	f.ctx.DataAttributes(rodataNoptr)
	for i := 0; i < 16; i++ {
		v := uint64(0)
		if i < 8 {
			v = ^uint64(0)
		}
		f.ctx.AddDatum(8*i, operand.U64(v))
	}
	for _, t := range []elem{f32, f64} {
		scoreBlockKernel(f, t, m)
		f.also(scoreBlockAVXName(t), scoreBlockAVXImpls[1:]...)
	}
	scoreBlock2Kernel(f, m)
	f.also(scoreBlock2AVXName, scoreBlockAVXImpls[1:]...)
	scanBlock2Kernel(f, m)
	f.also(scanBlock2AVXName, scoreBlockAVXImpls[1:]...)
	prefetchRowKernel(f)
	f.also(prefetchRowAVXName, scoreBlockAVXImpls[1:]...)
}

// prefetchRowKernel emits prefetchRowAVX2 (prefetchRowAVXName), of
// signature prefetchRowSig (sparseblock.go): PREFETCHT0 of the two cache
// lines from each of its addresses. A prefetch never faults, whatever the
// address, and changes nothing a program can read.
func prefetchRowKernel(f *asmFile) {
	g := f.fn(scoreBlockAVXImpls[0], f32, avx2, prefetchRowAVXName, "func"+prefetchRowSig)
	g.MOVQ(g.param("idx"), reg.RAX)
	g.MOVQ(g.param("val"), reg.RBX)
	g.PREFETCHT0(mem(reg.RAX, 0))
	g.PREFETCHT0(mem(reg.RAX, 64))
	g.PREFETCHT0(mem(reg.RBX, 0))
	g.PREFETCHT0(mem(reg.RBX, 64))
	g.RET()
}

func scoreBlockAVXFile() ([]byte, error) {
	f := newAsmFile(
		"The block-scoring kernel of package modelkern (the \"avx2\" and \"avx512\"",
		"implementations, which share it). The Go declarations are in",
		"sparseblock_amd64.go; the generator's sparseblock_x86.go holds the",
		"definition and conventions.",
	)
	scoreBlockFuncs(f)
	return f.render()
}

// scoreBlockKernel emits scoreBlockAVX2<T> (scoreBlockAVXName), of
// signature scoreBlockAVXSig (sparseblock.go).
func scoreBlockKernel(f *asmFile, t elem, mask operand.Mem) {
	g := f.fn(scoreBlockAVXImpls[0], t, avx2, scoreBlockAVXName(t), "func"+scoreBlockAVXSig)
	g.Comment("SI = &idx[0], DI = &val[0], DX = &blk[0], CX = non-zeros left,",
		"R8 = bound, R9 = w = len(dst), BX = &dst[0]")
	g.MOVQ(g.param("idx", "base"), reg.RSI)
	g.MOVQ(g.param("val", "base"), reg.RDI)
	g.MOVQ(g.param("blk", "base"), reg.RDX)
	g.MOVQ(g.param("idx", "len"), reg.RCX)
	g.MOVQ(g.param("bound"), reg.R8)
	g.MOVQ(g.param("dst", "base"), reg.RBX)
	g.MOVQ(g.param("dst", "len"), reg.R9)
	g.Comment("Y14 (and Y15 for float64 lanes 4..7) = the mask of the first w lanes:",
		"blockMask holds eight all-ones elements then eight zeros")
	g.LEAQ(mask, reg.R10)
	if t.is32() {
		g.Comment("float32: the 32 bytes at blockMask + 4·(16−w)")
		laneMaskF32(g, reg.R10, reg.R11)
	} else {
		g.Comment("float64: the 64 bytes at blockMask + 8·(8−w)")
		g.MOVQ(imm32(8), reg.R11)
		g.SUBQ(reg.R9, reg.R11)
		g.VMOVDQU(memx(reg.R10, 0, reg.R11, 8), reg.Y14)
		g.VMOVDQU(memx(reg.R10, 32, reg.R11, 8), reg.Y15)
	}
	g.VXORPS(reg.Y0, reg.Y0, reg.Y0)
	g.VXORPS(reg.Y1, reg.Y1, reg.Y1)
	g.TESTQ(reg.RCX, reg.RCX)
	g.JZ(lbl("store"))
	if !t.is32() {
		g.CMPQ(reg.R9, imm(4))
		g.JA(lbl("loop8"))
	}
	// one non-zero: Y0 (Y1) += v·weights, a multiply then an add
	step := func(two bool) {
		if t.is32() {
			scoreBlockStepF32(g, reg.RSI, reg.RDI, reg.RAX, reg.EAX, reg.Y2, reg.Y3, reg.Y0)
			g.DECQ(reg.RCX)
			return
		}
		g.MOVL(mem(reg.RSI, 0), reg.EAX)
		g.CMPQ(reg.RAX, reg.R8)
		g.JAE(lbl("bad"))
		g.IMULQ(reg.R9, reg.RAX)
		g.broadcast(mem(reg.RDI, 0), reg.Y2)
		g.VMASKMOVPD(memx(reg.RDX, 0, reg.RAX, 8), reg.Y14, reg.Y3)
		g.VMULPD(reg.Y3, reg.Y2, reg.Y3)
		g.VADDPD(reg.Y3, reg.Y0, reg.Y0)
		if two {
			g.VMASKMOVPD(memx(reg.RDX, 32, reg.RAX, 8), reg.Y15, reg.Y4)
			g.VMULPD(reg.Y4, reg.Y2, reg.Y4)
			g.VADDPD(reg.Y4, reg.Y1, reg.Y1)
		}
		g.ADDQ(imm(4), reg.RSI)
		g.ADDQ(imm(t.size), reg.RDI)
		g.DECQ(reg.RCX)
	}
	g.pcalign(16)
	g.Label("loop")
	step(false)
	g.JNZ(lbl("loop"))
	if !t.is32() {
		g.JMP(lbl("store"))
		g.pcalign(16)
		g.Label("loop8")
		step(true)
		g.JNZ(lbl("loop8"))
	}
	g.Label("store")
	g.Comment("dst[0:w] = the first w lanes")
	if t.is32() {
		g.VMASKMOVPS(reg.Y0, reg.Y14, mem(reg.RBX, 0))
	} else {
		g.VMASKMOVPD(reg.Y0, reg.Y14, mem(reg.RBX, 0))
		g.VMASKMOVPD(reg.Y1, reg.Y15, mem(reg.RBX, 32))
	}
	okRes := g.result()
	g.MOVB(operand.U8(1), okRes)
	g.VZEROUPPER()
	g.RET()
	g.Label("bad")
	g.Comment("an index outside blk: ok = false, dst not written")
	g.MOVB(operand.U8(0), okRes)
	g.VZEROUPPER()
	g.RET()
}

// scoreBlock2Kernel emits scoreBlock2AVX2F32 (scoreBlock2AVXName), of
// signature scoreBlock2AVXSig (sparseblock.go): scoreBlockKernel's float32
// step on two samples at once, each into an accumulator of its own (Y0 for
// sample 0, Y1 for sample 1), for as many non-zeros as both have, then the
// rest of the longer one alone. Each lane is still one sequential sum over
// its sample's non-zeros in order (a multiply then an add), so the scores
// are two scoreBlockAVX2F32 calls' bit for bit; the two chains of adds are
// independent, so one sample's latency (the adds, the gathers of its
// weights) overlaps the other's. Every index of both samples is checked
// before anything is stored. It starts with modelkern.ScoreBlock2Ahead's
// prefetch: two cache lines at each of ahead's four addresses, unless
// ahead is nil (a prefetch never faults and changes nothing a program can
// read).
func scoreBlock2Kernel(f *asmFile, mask operand.Mem) {
	t := f32
	g := f.fn(scoreBlockAVXImpls[0], t, avx2, scoreBlock2AVXName, "func"+scoreBlock2AVXSig)
	g.Comment("SI, DI = &idx0[0], &val0[0]; R10, R13 = &idx1[0], &val1[0];",
		"DX = &blk[0], R8 = bound, R9 = w = len(dst0);",
		"CX, R11 = the non-zeros of sample 0, 1 left after the joint loop,",
		"R12 = the joint loop's count (the fewer of the two)")
	g.Comment("PREFETCHT0 the two cache lines at each of ahead's four addresses",
		"(a later call's samples' indices and values), unless ahead is nil")
	g.MOVQ(g.param("ahead"), reg.RAX)
	g.TESTQ(reg.RAX, reg.RAX)
	g.JZ(lbl("start"))
	for k := range 4 {
		g.MOVQ(mem(reg.RAX, 8*k), reg.RBX)
		g.PREFETCHT0(mem(reg.RBX, 0))
		g.PREFETCHT0(mem(reg.RBX, 64))
	}
	g.Label("start")
	g.MOVQ(g.param("idx0", "base"), reg.RSI)
	g.MOVQ(g.param("val0", "base"), reg.RDI)
	g.MOVQ(g.param("idx1", "base"), reg.R10)
	g.MOVQ(g.param("val1", "base"), reg.R13)
	g.MOVQ(g.param("blk", "base"), reg.RDX)
	g.MOVQ(g.param("idx0", "len"), reg.RCX)
	g.MOVQ(g.param("idx1", "len"), reg.R11)
	g.MOVQ(g.param("bound"), reg.R8)
	g.MOVQ(g.param("dst0", "len"), reg.R9)
	g.Comment("Y14 = the mask of the first w lanes: the 32 bytes at blockMask + 4·(16−w)")
	g.LEAQ(mask, reg.RAX)
	laneMaskF32(g, reg.RAX, reg.R12)
	scoreBlock2Loops(g, "store")
	g.Label("store")
	g.Comment("dst0[0:w], dst1[0:w] = the first w lanes")
	g.MOVQ(g.param("dst0", "base"), reg.RSI)
	g.MOVQ(g.param("dst1", "base"), reg.RDI)
	g.VMASKMOVPS(reg.Y0, reg.Y14, mem(reg.RSI, 0))
	g.VMASKMOVPS(reg.Y1, reg.Y14, mem(reg.RDI, 0))
	okRes := g.result()
	g.MOVB(operand.U8(1), okRes)
	g.VZEROUPPER()
	g.RET()
	g.Label("bad")
	g.Comment("an index outside blk: ok = false, dst0 and dst1 not written")
	g.MOVB(operand.U8(0), okRes)
	g.VZEROUPPER()
	g.RET()
}

// scoreBlock2Loops emits the two-sample scoring of scoreBlock2Kernel (and
// of the scan, scanBlock2Kernel): Y0 and Y1 cleared, then the joint loop
// over min(CX, R11) non-zeros of both samples (SI, DI: sample 0's indices
// and values; R10, R13: sample 1's), then the rest of sample 0 (CX left),
// then of sample 1 (R11 left); it ends at label done, which the caller
// defines next (an index not below bound jumps to "bad").
func scoreBlock2Loops(g *x86, done string) {
	first := func() { scoreBlockStepF32(g, reg.RSI, reg.RDI, reg.RAX, reg.EAX, reg.Y2, reg.Y3, reg.Y0) }
	second := func() { scoreBlockStepF32(g, reg.R10, reg.R13, reg.RBX, reg.EBX, reg.Y4, reg.Y5, reg.Y1) }
	g.VXORPS(reg.Y0, reg.Y0, reg.Y0)
	g.VXORPS(reg.Y1, reg.Y1, reg.Y1)
	g.MOVQ(reg.RCX, reg.R12)
	g.CMPQ(reg.R11, reg.R12)
	g.CMOVQLT(reg.R11, reg.R12)
	g.SUBQ(reg.R12, reg.RCX)
	g.SUBQ(reg.R12, reg.R11)
	g.TESTQ(reg.R12, reg.R12)
	g.JZ(lbl("rest0"))
	g.pcalign(16)
	g.Label("both")
	first()
	second()
	g.DECQ(reg.R12)
	g.JNZ(lbl("both"))
	g.Label("rest0")
	g.TESTQ(reg.RCX, reg.RCX)
	g.JZ(lbl("rest1"))
	g.Label("loop0")
	first()
	g.DECQ(reg.RCX)
	g.JNZ(lbl("loop0"))
	g.Label("rest1")
	g.TESTQ(reg.R11, reg.R11)
	g.JZ(lbl(done))
	g.Label("loop1")
	second()
	g.DECQ(reg.R11)
	g.JNZ(lbl("loop1"))
}

// laneMaskF32 sets Y14 to the float32 mask of the first w = R9 lanes: the
// 32 bytes at base + 4·(16−w), base holding blockMask's address (eight
// all-ones elements, then eight zeros); tmp is clobbered.
func laneMaskF32(g *x86, base, tmp reg.Register) {
	g.MOVQ(imm32(16), tmp)
	g.SUBQ(reg.R9, tmp)
	g.VMOVDQU(memx(base, 0, tmp, 4), reg.Y14)
}

// scoreBlockStepF32 emits the float32 kernels' step on one non-zero: of
// the sample whose index and value pointers are ip and vp (both advanced),
// into accumulator acc (a multiply then an add), through the scratch
// registers x (x32 its low half), yv and yw; DX = &blk[0], R8 = bound,
// R9 = w, Y14 = the lane mask, and an index not below bound jumps to "bad".
func scoreBlockStepF32(g *x86, ip, vp, x, x32 reg.Register, yv, yw, acc reg.VecPhysical) {
	g.MOVL(mem(ip, 0), x32)
	g.CMPQ(x, reg.R8)
	g.JAE(lbl("bad"))
	g.IMULQ(reg.R9, x)
	g.broadcast(mem(vp, 0), yv)
	g.VMASKMOVPS(memx(reg.RDX, 0, x, 4), reg.Y14, yw)
	g.VMULPS(yw, yv, yw)
	g.VADDPS(yw, acc, acc)
	g.ADDQ(imm(4), ip)
	g.ADDQ(imm(4), vp)
}

// The one-vs-rest scan (modelkern.ScanBlock2): scoreBlock2Kernel's pairs run
// over a list of visits (modelkern.Visit: Lo, Hi, Row, Class at offsets 0, 8,
// 16, 20, 24 bytes each) until a visit's scores are wrong for some lane
// of the block, so that a trainer's epoch returns to Go only where it has
// something to do. Lane l is right when a = score[l] + bias[l] is finite,
// non-zero, and positive exactly for l = Class − c0: with the sign of the
// other lanes flipped, 0 < a < +Inf (ordered compares: a NaN is wrong).
const (
	visitSize     = 24
	visitLoOff    = 0
	visitHiOff    = 8
	visitClassOff = 20
)

// scanBlock2Kernel emits scanBlock2AVX2F32 (scanBlock2AVXName), of
// signature scanBlock2AVXSig (sparseblock.go). Each pair of visits is
// scored as scoreBlock2Kernel scores it (the same steps, so the same bits),
// after PREFETCHT0 of the first two cache lines of the indices and values
// of the visits four and five ahead; each visit's Lo ≤ Hi ≤ len(idx) and
// each index below bound is checked before anything is read through them
// (ok = false, nothing written: the Go loop then panics as indexing does).
func scanBlock2Kernel(f *asmFile, mask operand.Mem) {
	lanes := f.ctx.StaticGlobal("scanLanes")
	f.ctx.DataAttributes(rodataNoptr)
	for i := range 8 {
		f.ctx.AddDatum(4*i, operand.U32(i))
	}
	f.ctx.AddDatum(32, operand.U32(0x80000000)) // the sign bit
	f.ctx.AddDatum(36, operand.U32(0x7f800000)) // +Inf
	t := f32
	g := f.fn(scoreBlockAVXImpls[0], t, avx2, scanBlock2AVXName, "func"+scanBlock2AVXSig)
	left := g.AllocLocal(8)
	g.Comment("DX = &blk[0], R8 = bound, R9 = w = len(dst0), R14 = &vis[j];",
		"the pair loop's SI, DI, R10, R13, CX, R11, R12 as in scoreBlock2AVX2F32;",
		"left (a local) = the visits from R14 on")
	g.MOVQ(g.param("blk", "base"), reg.RDX)
	g.MOVQ(g.param("bound"), reg.R8)
	g.MOVQ(g.param("dst0", "len"), reg.R9)
	g.MOVQ(g.param("vis", "base"), reg.R14)
	g.MOVQ(g.param("vis", "len"), reg.RAX)
	g.MOVQ(reg.RAX, left)
	g.Comment("Y14 = the mask of the first w lanes: the 32 bytes at blockMask + 4·(16−w);",
		"Y13 = bias (its w lanes, the others 0); Y12 = the lane numbers 0..7;",
		"Y11 = the sign bit, Y10 = +Inf in every lane; Y9 = 0")
	g.LEAQ(mask, reg.RAX)
	laneMaskF32(g, reg.RAX, reg.R12)
	g.MOVQ(g.param("bias", "base"), reg.RAX)
	g.VMASKMOVPS(mem(reg.RAX, 0), reg.Y14, reg.Y13)
	g.LEAQ(lanes, reg.RAX)
	g.VMOVDQU(mem(reg.RAX, 0), reg.Y12)
	g.VBROADCASTSS(mem(reg.RAX, 32), reg.Y11)
	g.VBROADCASTSS(mem(reg.RAX, 36), reg.Y10)
	g.VXORPS(reg.Y9, reg.Y9, reg.Y9)

	// row sets ip, vp to the start of the indices and values of the visit
	// at off(R14) and cnt to its length, after checking Lo ≤ Hi ≤ len(idx)
	// (unsigned: a negative Lo or Hi fails too).
	row := func(off int, ip, vp, cnt reg.Register) {
		g.MOVQ(mem(reg.R14, off+visitLoOff), reg.RAX)
		g.MOVQ(mem(reg.R14, off+visitHiOff), cnt)
		g.CMPQ(cnt, g.param("idx", "len"))
		g.JHI(lbl("bad"))
		g.CMPQ(reg.RAX, cnt)
		g.JHI(lbl("bad"))
		g.SUBQ(reg.RAX, cnt)
		g.MOVQ(g.param("idx", "base"), ip)
		g.LEAQ(memx(ip, 0, reg.RAX, 4), ip)
		g.MOVQ(g.param("val", "base"), vp)
		g.LEAQ(memx(vp, 0, reg.RAX, 4), vp)
	}
	first := func() { scoreBlockStepF32(g, reg.RSI, reg.RDI, reg.RAX, reg.EAX, reg.Y2, reg.Y3, reg.Y0) } // the last visit alone
	// check jumps to wrong unless every lane of the scores acc is right
	// for the visit at off(R14).
	check := func(acc reg.VecPhysical, off int, wrong string) {
		g.VADDPS(reg.Y13, acc, reg.Y2)
		g.MOVLQSX(mem(reg.R14, off+visitClassOff), reg.RAX)
		g.SUBQ(g.param("c0"), reg.RAX)
		g.MOVQ(operand.I64(-1), reg.RBX)
		g.CMPQ(reg.RAX, imm(8))
		g.CMOVQCC(reg.RBX, reg.RAX) // a class outside the block: no lane's
		g.VMOVD(reg.EAX, reg.X3)
		g.VPBROADCASTD(reg.X3, reg.Y3)
		g.VPCMPEQD(reg.Y12, reg.Y3, reg.Y3)
		g.VANDNPS(reg.Y11, reg.Y3, reg.Y3)
		g.VXORPS(reg.Y3, reg.Y2, reg.Y2)
		g.VCMPPS(operand.U8(0x1e), reg.Y9, reg.Y2, reg.Y4)  // > 0, ordered
		g.VCMPPS(operand.U8(0x11), reg.Y10, reg.Y2, reg.Y5) // < +Inf, ordered
		g.VANDPS(reg.Y5, reg.Y4, reg.Y4)
		g.VMOVMSKPS(reg.Y4, reg.EAX)
		g.VMOVMSKPS(reg.Y14, reg.EBX)
		g.ANDL(reg.EBX, reg.EAX)
		g.CMPL(reg.EAX, reg.EBX)
		g.JNE(lbl(wrong))
	}

	g.Label("pair")
	g.MOVQ(left, reg.RAX)
	g.CMPQ(reg.RAX, imm(1))
	g.JB(lbl("done"))
	g.JE(lbl("single"))
	g.Comment("PREFETCHT0 the first two cache lines of the indices and values of",
		"the visits four and five ahead, where they exist")
	g.CMPQ(reg.RAX, imm(6))
	g.JB(lbl("fetched"))
	for _, v := range []int{4, 5} {
		g.MOVQ(mem(reg.R14, v*visitSize+visitLoOff), reg.RAX)
		for _, p := range []string{"idx", "val"} {
			g.MOVQ(g.param(p, "base"), reg.RBX)
			g.PREFETCHT0(memx(reg.RBX, 0, reg.RAX, 4))
			g.PREFETCHT0(memx(reg.RBX, 64, reg.RAX, 4))
		}
	}
	g.Label("fetched")
	row(0, reg.RSI, reg.RDI, reg.RCX)
	row(visitSize, reg.R10, reg.R13, reg.R11)
	scoreBlock2Loops(g, "scored")
	g.Label("scored")
	check(reg.Y0, 0, "wrong0")
	check(reg.Y1, visitSize, "wrong1")
	g.ADDQ(imm(2*visitSize), reg.R14)
	g.SUBQ(imm(2), left)
	g.JMP(lbl("pair"))

	g.Label("single")
	g.Comment("the last visit, alone")
	row(0, reg.RSI, reg.RDI, reg.RCX)
	g.VXORPS(reg.Y0, reg.Y0, reg.Y0)
	g.TESTQ(reg.RCX, reg.RCX)
	g.JZ(lbl("scored1"))
	g.Label("loop")
	first()
	g.DECQ(reg.RCX)
	g.JNZ(lbl("loop"))
	g.Label("scored1")
	check(reg.Y0, 0, "wrong1st")
	g.Label("done")
	g.Comment("every visit right: j = len(vis), n = 0")
	g.MOVQ(g.param("vis", "len"), reg.RAX)
	g.MOVQ(reg.RAX, g.resultAt(0))
	g.MOVQ(imm32(0), g.resultAt(1))
	g.JMP(lbl("ok"))

	g.Label("wrong1st")
	g.Comment("the last visit wrong: its scores in dst0, j = len(vis) − 1, n = 1")
	g.MOVQ(g.param("dst0", "base"), reg.RSI)
	g.VMASKMOVPS(reg.Y0, reg.Y14, mem(reg.RSI, 0))
	g.MOVQ(g.param("vis", "len"), reg.RAX)
	g.DECQ(reg.RAX)
	g.MOVQ(reg.RAX, g.resultAt(0))
	g.MOVQ(imm32(1), g.resultAt(1))
	g.JMP(lbl("ok"))

	g.Label("wrong0")
	g.Comment("visit j wrong: its scores in dst0, visit j+1's in dst1, n = 2")
	g.MOVQ(g.param("dst0", "base"), reg.RSI)
	g.MOVQ(g.param("dst1", "base"), reg.RDI)
	g.VMASKMOVPS(reg.Y0, reg.Y14, mem(reg.RSI, 0))
	g.VMASKMOVPS(reg.Y1, reg.Y14, mem(reg.RDI, 0))
	g.MOVQ(g.param("vis", "len"), reg.RAX)
	g.SUBQ(left, reg.RAX)
	g.MOVQ(reg.RAX, g.resultAt(0))
	g.MOVQ(imm32(2), g.resultAt(1))
	g.JMP(lbl("ok"))

	g.Label("wrong1")
	g.Comment("visit j right, j+1 wrong: j+1's scores in dst0, n = 1")
	g.MOVQ(g.param("dst0", "base"), reg.RSI)
	g.VMASKMOVPS(reg.Y1, reg.Y14, mem(reg.RSI, 0))
	g.MOVQ(g.param("vis", "len"), reg.RAX)
	g.SUBQ(left, reg.RAX)
	g.INCQ(reg.RAX)
	g.MOVQ(reg.RAX, g.resultAt(0))
	g.MOVQ(imm32(1), g.resultAt(1))

	g.Label("ok")
	g.MOVB(operand.U8(1), g.resultAt(2))
	g.VZEROUPPER()
	g.RET()
	g.Label("bad")
	g.Comment("a visit outside idx or an index outside blk: ok = false, nothing written")
	g.MOVB(operand.U8(0), g.resultAt(2))
	g.VZEROUPPER()
	g.RET()
}
