package main

import "fmt"

// The Go side of the block-scoring kernel: internal/modelkern/sparseblock_<goarch>.go
// (and sparseblock_other.go) hold scoreBlockAsm, the switch on the
// implementation ID that modelkern.ScoreBlock (internal/modelkern/sparseblock.go, written
// by hand with the Go loop) calls, and the declarations of the assembly of
// sparseblock_x86.go and sparseblock_neon.go. The names and signatures
// below are the ones those generators emit.

// scoreBlockAVXSig is the signature of the amd64 kernels, T the element type.
const scoreBlockAVXSig = "(dst, blk []T, idx []int32, val []T, bound int) (ok bool)"

// scoreBlockAVXImpls are the implementations running the amd64 kernels
// (AVX on YMM: the avx512 one shares avx2's), worst first.
var scoreBlockAVXImpls = []*implSpec{implAVX2, implAVX512}

// scoreBlockAVXName is the amd64 kernel for element type t.
func scoreBlockAVXName(t elem) string { return "scoreBlockAVX2" + t.sfx }

// scoreBlock2AVXSig is the signature of the amd64 two-sample kernel
// (modelkern.ScoreBlock2; float32 only).
const scoreBlock2AVXSig = "(dst0, dst1, blk []float32, idx0 []int32, val0 []float32, idx1 []int32, val1 []float32, bound int, ahead *[4]uintptr) (ok bool)"

// scoreBlock2AVXName is the amd64 two-sample kernel.
const scoreBlock2AVXName = "scoreBlock2AVX2F32"

// scoreBlock2AsmSig is the signature of scoreBlock2Asm, the Go dispatch of
// modelkern.ScoreBlock2.
const scoreBlock2AsmSig = "[T Float](id ID, dst0, dst1, blk []T, idx0 []int32, val0 []T, idx1 []int32, val1 []T, ahead *[4]uintptr) bool"

// scanBlock2AVXSig is the signature of the amd64 scan (modelkern.ScanBlock2;
// float32 only).
const scanBlock2AVXSig = "(dst0, dst1, blk []float32, idx []int32, val []float32, vis []Visit, bias []float32, c0, bound int) (j, n int, ok bool)"

// scanBlock2AVXName is the amd64 scan.
const scanBlock2AVXName = "scanBlock2AVX2F32"

// scanBlock2AsmSig is the signature of scanBlock2Asm, the Go dispatch of
// modelkern.ScanBlock2.
const scanBlock2AsmSig = "[T Float](id ID, dst0, dst1, blk []T, idx []int32, val []T, vis []Visit, bias []T, c0 int) (j, n int, ok bool)"

// prefetchRowSig is the signature of the amd64 prefetch of a sparse row
// (modelkern.PrefetchRow): the addresses of its first index and value.
const prefetchRowSig = "(idx, val uintptr)"

// prefetchRowAVXName is the amd64 prefetch, shared by the AVX
// implementations (PREFETCHT0 predates them).
const prefetchRowAVXName = "prefetchRowAVX2"

// scoreBlockNEONSig is the signature of the arm64 kernels: those of amd64
// with the block's width w, as dst is a scratch of eight elements.
const scoreBlockNEONSig = "(dst, blk []T, idx []int32, val []T, bound, w int) (ok bool)"

// scoreBlockNEONVectors are the vector counts nv of the arm64 kernels of
// element type t: 128-bit vectors of weights read per feature, up to the
// widest block (8 lanes).
func scoreBlockNEONVectors(t elem) []int {
	var nvs []int
	for nv := 1; nv*16/t.size <= 8; nv *= 2 {
		nvs = append(nvs, nv)
	}
	return nvs
}

// scoreBlockNEONName is the arm64 kernel for element type t reading nv
// vectors per feature.
func scoreBlockNEONName(t elem, nv int) string {
	return fmt.Sprintf("scoreBlockNEON%sx%d", t.sfx, nv)
}

// scoreBlockNEONLanes is the lanes that kernel reads per feature.
func scoreBlockNEONLanes(t elem, nv int) int { return nv * 16 / t.size }

// lanesWord spells the lane counts of the declarations' docs.
var lanesWord = map[int]string{2: "two", 4: "four", 8: "eight"}

// scoreBlockGoFile returns internal/modelkern/sparseblock_<goarch>.go, or
// sparseblock_other.go for "".
func scoreBlockGoFile(goarch string) ([]byte, error) {
	constraint := "!purego"
	if goarch == "" {
		constraint = "purego || !(amd64 || arm64)"
	}
	f := newGoFile(constraint, "modelkern")
	switch goarch {
	case "amd64":
		scoreBlockAVXGo(f)
	case "arm64":
		if err := scoreBlockNEONGo(f); err != nil {
			return nil, err
		}
	default:
		f.comment("scoreBlockAsm reports false: no assembly for ScoreBlock on this build:\n" +
			"the Go loop runs.")
		f.p("func scoreBlockAsm[T Float](id ID, dst, blk []T, idx []int32, val []T) bool {")
		f.p("return false")
		f.p("}")
	}
	if goarch != "amd64" {
		f.p("")
		f.comment("prefetchRowAsm does nothing: no prefetch for PrefetchRow on this build.")
		f.p("func prefetchRowAsm(id ID, idx, val uintptr) {}")
		f.p("")
		f.comment("scoreBlock2Asm reports false: no two-sample assembly for ScoreBlock2 on\n" +
			"this build (it runs ScoreBlock twice).")
		f.p("func scoreBlock2Asm%s {", scoreBlock2AsmSig)
		f.p("return false")
		f.p("}")
		f.p("")
		f.comment("scanBlock2Asm reports false: no assembly for ScanBlock2 on this build\n" +
			"(its Go loop runs).")
		f.p("func scanBlock2Asm%s {", scanBlock2AsmSig)
		f.p("return 0, 0, false")
		f.p("}")
	}
	return f.gofmt()
}

func scoreBlockAVXGo(f *goFile) {
	f.comment("scoreBlockAsm runs ScoreBlock's assembly on implementation id, if it has\n" +
		"one, and reports whether it did: false (dst unwritten) on a path without\n" +
		"assembly or on an index whose feature's lanes are not inside blk,\n" +
		"for the Go loop to run (and panic at that index).")
	f.p("func scoreBlockAsm[T Float](id ID, dst, blk []T, idx []int32, val []T) bool {")
	f.p("switch id {")
	ids := ""
	for i := len(scoreBlockAVXImpls) - 1; i >= 0; i-- {
		if ids != "" {
			ids += ", "
		}
		ids += scoreBlockAVXImpls[i].id
	}
	f.p("case %s:", ids)
	f.p("bound := scoreBlockBound(scoreBlockLanes(len(dst)), len(dst), len(blk))")
	f.p("if is32[T]() {")
	f.p("return %s(f32s(dst), f32s(blk), idx, f32s(val), bound)", scoreBlockAVXName(f32))
	f.p("}")
	f.p("return %s(f64s(dst), f64s(blk), idx, f64s(val), bound)", scoreBlockAVXName(f64))
	f.p("}")
	f.p("return false")
	f.p("}")
	f.p("")
	f.comment("scoreBlock2Asm runs ScoreBlock2's two-sample assembly on implementation\n" +
		"id, if it has one (float32), and reports whether it did: false (dst0 and\n" +
		"dst1 unwritten) on a path without it or on an index whose feature's\n" +
		"lanes are not inside blk, for ScoreBlock2 to run ScoreBlock twice;\n" +
		"ahead (nil: none) is ScoreBlock2Ahead's prefetch.")
	f.p("func scoreBlock2Asm%s {", scoreBlock2AsmSig)
	f.p("if !is32[T]() {")
	f.p("return false")
	f.p("}")
	f.p("switch id {")
	f.p("case %s:", ids)
	f.p("bound := scoreBlockBound(scoreBlockLanes(len(dst0)), len(dst0), len(blk))")
	f.p("return %s(f32s(dst0), f32s(dst1), f32s(blk), idx0, f32s(val0), idx1, f32s(val1), bound, ahead)", scoreBlock2AVXName)
	f.p("}")
	f.p("return false")
	f.p("}")
	f.p("")
	f.comment("scanBlock2Asm runs ScanBlock2's assembly on implementation id, if it\n" +
		"has one (float32), and reports whether it did: false (nothing written) on\n" +
		"a path without it, or on a visit outside idx or an index whose feature's\n" +
		"lanes are not inside blk, for ScanBlock2's Go loop to run (and panic).")
	f.p("func scanBlock2Asm%s {", scanBlock2AsmSig)
	f.p("if !is32[T]() {")
	f.p("return 0, 0, false")
	f.p("}")
	f.p("switch id {")
	f.p("case %s:", ids)
	f.p("bound := scoreBlockBound(scoreBlockLanes(len(dst0)), len(dst0), len(blk))")
	f.p("return %s(f32s(dst0), f32s(dst1), f32s(blk), idx, f32s(val), vis, f32s(bias), c0, bound)", scanBlock2AVXName)
	f.p("}")
	f.p("return 0, 0, false")
	f.p("}")
	f.p("")
	f.comment("prefetchRowAsm runs PrefetchRow's assembly on implementation id, if it\n" +
		"has one.")
	f.p("func prefetchRowAsm(id ID, idx, val uintptr) {")
	f.p("switch id {")
	f.p("case %s:", ids)
	f.p("%s(idx, val)", prefetchRowAVXName)
	f.p("}")
	f.p("}")
	f.p("")
	f.comment(prefetchRowAVXName + " prefetches (PREFETCHT0) the two cache lines from idx and\n" +
		"the two from val (AVX implementations: avx2, avx512). It reads nothing a\n" +
		"program sees and never faults.")
	f.p("//")
	f.p("//go:noescape")
	f.p("func %s%s", prefetchRowAVXName, prefetchRowSig)
	for _, t := range []elem{f32, f64} {
		f.p("")
		if t.is32() {
			f.comment(scoreBlockAVXName(t) + " is ScoreBlock for 1 ≤ len(dst) ≤ 8 (AVX on YMM: avx2,\n" +
				"avx512), with ok = false, nothing read outside blk and dst unwritten, if\n" +
				"an index is not below bound; len(val) == len(idx) is the caller's check.")
		} else {
			f.comment(fmt.Sprintf("%s is %s for %s.", scoreBlockAVXName(t), scoreBlockAVXName(f32), t.goType))
		}
		f.p("//")
		f.p("//go:noescape")
		f.p("%s", typed("func "+scoreBlockAVXName(t)+scoreBlockAVXSig, t))
	}
	f.p("")
	f.comment(scoreBlock2AVXName + " is " + scoreBlockAVXName(f32) + " on two samples, (idx0, val0)\n" +
		"into dst0 and (idx1, val1) into dst1 (len(dst1) == len(dst0)), their sums\n" +
		"interleaved: ok = false, nothing read outside blk and neither dst written,\n" +
		"if an index of either is not below bound. Unless ahead is nil, it first\n" +
		"prefetches (PREFETCHT0) the two cache lines at each of its four addresses,\n" +
		"which are never read through and may be anything.")
	f.p("//")
	f.p("//go:noescape")
	f.p("func %s%s", scoreBlock2AVXName, scoreBlock2AVXSig)
	f.p("")
	f.comment(scanBlock2AVXName + " is ScanBlock2 (AVX on YMM: avx2, avx512) for\n" +
		"1 ≤ len(dst0) = len(dst1) = len(bias) ≤ 8 and len(val) == len(idx), the\n" +
		"callers' checks: the visits scored in pairs as " + scoreBlock2AVXName + "\n" +
		"scores them, until one is wrong; ok = false, nothing written, if a\n" +
		"visit's Lo ≤ Hi ≤ len(idx) fails or an index is not below bound.")
	f.p("//")
	f.p("//go:noescape")
	f.p("func %s%s", scanBlock2AVXName, scanBlock2AVXSig)
}

func scoreBlockNEONGo(f *goFile) error {
	f.comment("scoreBlockAsm runs ScoreBlock's assembly on implementation id, if it has\n" +
		"one, and reports whether it did: false (dst unwritten) on a path without\n" +
		"assembly or on an index whose nv vectors of weights are not inside blk,\n" +
		"for the Go loop to run (and panic at that index, or score the sample if\n" +
		"only lanes past len(dst) were outside).")
	f.p("func scoreBlockAsm[T Float](id ID, dst, blk []T, idx []int32, val []T) bool {")
	f.p("if id != %s {", implNEON.id)
	f.p("return false")
	f.p("}")
	f.p("w := len(dst)")
	f.p("var buf [scoreBlockMax]T")
	f.p("ok := false")
	for _, t := range []elem{f32, f64} {
		conv := "f64s"
		if t.is32() {
			conv = "f32s"
			f.p("if is32[T]() {")
		} else {
			f.p("} else {")
		}
		f.p("b, bl, v := %s(buf[:]), %s(blk), %s(val)", conv, conv, conv)
		f.p("switch {")
		nvs := scoreBlockNEONVectors(t)
		for i, nv := range nvs {
			lanes := scoreBlockNEONLanes(t, nv)
			if i < len(nvs)-1 {
				f.p("case w <= %d:", lanes)
			} else {
				// The widest kernel takes every width up to scoreBlockMax.
				if lanes != 8 {
					return fmt.Errorf("the widest NEON block kernel for %s reads %d lanes, not 8", t.goType, lanes)
				}
				f.p("default:")
			}
			f.p("ok = %s(b, bl, idx, v, scoreBlockBound(%d, w, len(blk)), w)", scoreBlockNEONName(t, nv), lanes)
		}
		f.p("}")
	}
	f.p("}")
	f.p("if ok {")
	f.p("copy(dst, buf[:w])")
	f.p("}")
	f.p("return ok")
	f.p("}")
	for _, t := range []elem{f32, f64} {
		nvs := scoreBlockNEONVectors(t)
		for i, nv := range nvs {
			name, lanes := scoreBlockNEONName(t, nv), scoreBlockNEONLanes(t, nv)
			f.p("")
			switch {
			case t.is32() && i == 0:
				f.comment(fmt.Sprintf("%s sets dst[0:%d] to the sums of ScoreBlock at width w\n"+
					"reading %s lanes per feature (NEON), with ok = false, nothing read\n"+
					"outside blk, if an index is not below bound; len(dst) ≥ %d and\n"+
					"len(val) == len(idx) are the caller's.", name, lanes, lanesWord[lanes], lanes))
			case i == 0:
				f.comment(fmt.Sprintf("%s is %s for %s reading %s lanes.",
					name, scoreBlockNEONName(f32, 1), t.goType, lanesWord[lanes]))
			default:
				f.comment(fmt.Sprintf("%s is %s reading %s lanes.", name, scoreBlockNEONName(t, nvs[0]), lanesWord[lanes]))
			}
			f.p("//")
			f.p("//go:noescape")
			f.p("%s", typed("func "+name+scoreBlockNEONSig, t))
		}
	}
	return nil
}
