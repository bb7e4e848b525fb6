package main

import "fmt"

// The input quantiser of package modelkern (Int8Kernels.QuantRange and
// Int8Kernels.QuantizeU8, written by hand with their Go loops in
// internal/modelkern/quantize.go): the float32 → uint8 step in front of the int8
// kernels. Each int8 implementation runs the quantiser of its vector width:
// avx512vnni the AVX-512 one, avx2 and avxvnni the AVX2 one, neon and
// neondot the NEON one. Two assembly functions per width:
//
//	quantRange<W>(x []float32) (neg uint32, pos int32)
//	    the largest of 0 and the bits of x[i] as unsigned numbers, and the
//	    largest of 0 and those bits as signed ones: a float32's bits order
//	    as the values do among the non-negative ones (as int32, all the
//	    sign-bit ones below them), and as the magnitudes do among those with
//	    the sign bit (as uint32, all above the others); so pos is the bits
//	    of max(+0, max x) and, if neg ≥ 2³¹, neg is the bits of min x (else
//	    x has no value with the sign bit). NaNs lie beyond ±Inf's bits on
//	    their side, so both results tell a NaN or ±Inf too.
//	quantizeU8<W>(dst []uint8, x []float32, inv, off float32)
//	    dst[i] = the byte of t = float32(x[i]·inv) + off (a multiply
//	    rounded to float32, then an add: never fused), 255 for t ≥ 255,
//	    0 for t ≤ 0 or NaN, else t truncated
//
// The AVX2 and NEON ones need len(x) ≥ their vector's lanes (they end with
// one vector overlapping the previous ones: min, max and the bytes do not
// change when an element is done twice); the Go dispatch
// (internal/modelkern/quantize_<goarch>.go, below) sends shorter inputs to the Go loops.
// The AVX-512 ones take any length (the tail is one masked vector).
// quantize_x86.go and quantize_neon.go hold the assembly.

// quantWidth is one assembly quantiser.
type quantWidth struct {
	infix string       // function-name infix: "AVX2"
	min   int          // the shortest x it takes
	users []*i8Variant // the int8 implementations running it, best first
}

var (
	quantAVX2   = quantWidth{infix: "AVX2", min: 8, users: []*i8Variant{i8AVXVNNI, i8AVX2}}
	quantAVX512 = quantWidth{infix: "AVX512", min: 0, users: []*i8Variant{i8AVX512VNNI}}
	quantNEON   = quantWidth{infix: "NEON", min: 4, users: []*i8Variant{i8NEONDot, i8NEON}}
)

func quantWidthsOf(goarch string) []quantWidth {
	switch goarch {
	case "amd64":
		return []quantWidth{quantAVX512, quantAVX2}
	case "arm64":
		return []quantWidth{quantNEON}
	}
	return nil
}

func (w quantWidth) rangeName() string    { return "quantRange" + w.infix }
func (w quantWidth) quantizeName() string { return "quantizeU8" + w.infix }

const (
	quantRangeSig    = "func(x []float32) (neg uint32, pos int32)"
	quantizeU8Sig    = "func(dst []uint8, x []float32, inv, off float32)"
	quantRangeDecl   = "(x []float32) (neg uint32, pos int32)"
	quantizeU8Decl   = "(dst []uint8, x []float32, inv, off float32)"
	quantGoConstrain = "purego || !(amd64 || arm64)"
)

// quantizeGoFile returns internal/modelkern/quantize_<goarch>.go, or quantize_noasm.go
// for "".
func quantizeGoFile(goarch string) ([]byte, error) {
	constraint := "!purego"
	if goarch == "" {
		constraint = quantGoConstrain
	}
	f := newGoFile(constraint, "modelkern")
	widths := quantWidthsOf(goarch)
	f.comment("quantRangeAsm returns the largest unsigned and signed bits of x (see\n" +
		"quantRangeGeneric) computed by int8 implementation id's assembly, and\n" +
		"ok = false, for the Go loop to run, when it has none or x is shorter\n" +
		"than its assembly takes.")
	quantSwitch(f, widths, "func quantRangeAsm(id int8ID, x []float32) (neg uint32, pos int32, ok bool) {",
		"0, 0, false", func(w quantWidth) []string {
			return []string{fmt.Sprintf("neg, pos = %s(x)", w.rangeName()), "return neg, pos, true"}
		})
	f.p("")
	f.comment("quantizeAsm runs QuantizeU8 on int8 implementation id's assembly and\n" +
		"reports whether it did: false when it has none or x is shorter than its\n" +
		"assembly takes (dst then unwritten). len(dst) == len(x) is the caller's.")
	quantSwitch(f, widths, "func quantizeAsm(id int8ID, dst []uint8, x []float32, inv, off float32) bool {",
		"false", func(w quantWidth) []string {
			return []string{fmt.Sprintf("%s(dst, x, inv, off)", w.quantizeName()), "return true"}
		})
	for _, w := range widths {
		users := ""
		for i, u := range w.users {
			if i > 0 {
				users += ", "
			}
			users += u.spec.name
		}
		tail := "any length"
		if w.min > 0 {
			tail = fmt.Sprintf("len(x) ≥ %d (its last vector overlaps the previous ones)", w.min)
		}
		f.p("")
		f.comment(fmt.Sprintf("%s returns the largest of 0 and the bits of the x[i] as\n"+
			"uint32, and as int32 (quantRangeGeneric; %s; %s).", w.rangeName(), users, tail))
		f.p("//")
		f.p("//go:noescape")
		f.p("func %s%s", w.rangeName(), quantRangeDecl)
		f.p("")
		f.comment(fmt.Sprintf("%s is QuantizeU8 (%s; %s):\n"+
			"\n"+
			"\tfor i, v := range x { dst[i] = quantizeByte(float32(v*inv) + off) }",
			w.quantizeName(), users, tail))
		f.p("//")
		f.p("//go:noescape")
		f.p("func %s%s", w.quantizeName(), quantizeU8Decl)
	}
	return f.gofmt()
}

// quantSwitch emits the function opened by head: a switch on the int8 ID
// running call(w) for each width's users, x long enough, and returning
// miss otherwise.
func quantSwitch(f *goFile, widths []quantWidth, head, miss string, call func(quantWidth) []string) {
	f.p("%s", head)
	if len(widths) > 0 {
		f.p("switch id {")
		for _, w := range widths {
			f.p("case %s:", quantIDs(w))
			if w.min > 0 {
				f.p("if len(x) < %d {", w.min)
				f.p("return %s", miss)
				f.p("}")
			}
			for _, l := range call(w) {
				f.p("%s", l)
			}
		}
		f.p("}")
	}
	f.p("return %s", miss)
	f.p("}")
}

// quantIDs lists the int8 IDs of w's users for a case clause.
func quantIDs(w quantWidth) string {
	s := ""
	for i, u := range w.users {
		if i > 0 {
			s += ", "
		}
		s += u.spec.id
	}
	return s
}
