package main

import (
	"fmt"
	"strings"
)

// The int8 kernels of package kernel: dot products of 8-bit vectors into
// int32 (DotU8I8, DotI8, DotsU8I8, DotsI8). Their instructions are CPU
// features within an implementation of the float kernels, so they have
// implementations of their own (kernel.Int8Impl), each belonging to one
// kernel implementation. Every variant has two assembly functions, the
// batched forms; the single dot products call them with one row.
//
//	dotsU8I8<V>(dst []int32, w []int8, x []uint8)  dst[k] = Σⱼ x[j]·w[k·d+j]
//	dotsI8<V>(dst []int32, w []int8, x []int8)     the same, x signed
//
// with d = len(x), len(w) = len(dst)·d. This file holds the variants and
// the Go side (kernel/int8_<goarch>.go); int8_x86.go and int8_neon.go the
// assembly.

// i8Variant is one int8 implementation with assembly.
type i8Variant struct {
	spec   *implSpec // name, ID constant, rank, infix, label and the full CPU-feature check
	parent *implSpec // the kernel implementation it belongs to
	file   string    // the .s file
	vec    int       // amd64: vector bytes (32: YMM, 64: ZMM)
	vnni   bool      // amd64: VPDPBUSD
	dot    bool      // arm64: UDOT/SDOT
}

var (
	i8AVX2 = &i8Variant{
		spec: &implSpec{name: "avx2", id: "i8AVX2", goarch: "amd64", rank: 1, infix: "AVX2", label: "AVX2 (VPMADDUBSW, VPMADDWD)",
			features: []string{"AVX", "AVX2"}},
		parent: implAVX2, file: "int8_amd64.s", vec: 32}
	i8AVXVNNI = &i8Variant{
		spec: &implSpec{name: "avxvnni", id: "i8AVXVNNI", goarch: "amd64", rank: 2, infix: "AVXVNNI", label: "AVX-VNNI (VEX VPDPBUSD)",
			features: []string{"AVX", "AVX2", "AVXVNNI"}},
		parent: implAVX2, file: "int8_amd64.s", vec: 32, vnni: true}
	i8AVX512VNNI = &i8Variant{
		spec: &implSpec{name: "avx512vnni", id: "i8AVX512VNNI", goarch: "amd64", rank: 3, infix: "AVX512VNNI", label: "AVX512_VNNI (EVEX VPDPBUSD)",
			features: []string{"AVX", "AVX2", "AVX512F", "AVX512BW", "AVX512VL", "AVX512VNNI"}},
		parent: implAVX512, file: "int8_amd64.s", vec: 64, vnni: true}
	i8NEON = &i8Variant{
		spec:   &implSpec{name: "neon", id: "i8NEON", goarch: "arm64", rank: 1, infix: "NEON", label: "NEON (widening multiplies)"},
		parent: implNEON, file: "int8_arm64.s"}
	i8NEONDot = &i8Variant{
		spec: &implSpec{name: "neondot", id: "i8NEONDot", goarch: "arm64", rank: 2, infix: "NEONDot", label: "NEON dot product (UDOT, SDOT)",
			features: []string{"ASIMDDP"}},
		parent: implNEON, file: "int8_arm64.s", dot: true}
	i8Variants = []*i8Variant{i8AVX2, i8AVXVNNI, i8AVX512VNNI, i8NEON, i8NEONDot}
)

func i8VariantsOf(goarch string) []*i8Variant {
	var list []*i8Variant
	for _, v := range i8Variants {
		if v.spec.goarch == goarch {
			list = append(list, v)
		}
	}
	return list
}

// i8Kind is one of the products: its assembly function, fn+name+infix,
// multiplies every row of the matrix rows (parameter name and type) by the
// vector vec.
type i8Kind struct {
	fn, name          string // "dots", "U8I8": dotsU8I8<V>
	rows, vec         string // the parameter names
	rowsType, vecType string
	doc               string
}

var (
	kindU8I8 = i8Kind{fn: "dots", name: "U8I8", rows: "w", vec: "x", rowsType: "int8", vecType: "uint8", doc: "unsigned x, signed w"}
	kindI8   = i8Kind{fn: "dots", name: "I8", rows: "w", vec: "x", rowsType: "int8", vecType: "int8", doc: "signed x and w"}
	kindMV   = i8Kind{fn: "matvec", name: "U8I8", rows: "m", vec: "w", rowsType: "uint8", vecType: "int8", doc: "unsigned m, signed w"}
	i8Kinds  = []i8Kind{kindU8I8, kindI8, kindMV}
)

// signed reports whether both operands are signed (DotsI8).
func (k i8Kind) signed() bool { return k == kindI8 }

// swap reports whether the rows are the unsigned operand (MatVecU8I8).
func (k i8Kind) swap() bool { return k == kindMV }

func (k i8Kind) asmName(v *i8Variant) string { return k.fn + k.name + v.spec.infix }

func (k i8Kind) sig() string {
	return fmt.Sprintf("func(dst []int32, %s []%s, %s []%s)", k.rows, k.rowsType, k.vec, k.vecType)
}

// i8API is one exported int8 kernel.
type i8API struct {
	name   string
	kind   i8Kind
	params string
	dots   bool
	doc    string // of the Int8Kernels method
	docFn  string // of the package-level function
}

// args are the matrix and vector arguments of a batched kernel's call.
func (a i8API) args() string {
	if a.kind.swap() {
		return "X, w"
	}
	return "W, x"
}

// i8Exact is the exactness paragraph of the single dot products' docs.
func i8Exact(limit, term, panics string) string {
	return "The sum is computed in int32, as the loop shows: it is exact whenever\n" +
		"it fits in an int32, which is guaranteed for len(x) ≤ " + limit + "\n" +
		"(|term| ≤ " + term + "), and beyond that it is the exact sum\n" +
		"modulo 2³², the plain loop's value, on every implementation (see\n" +
		"kernel/int8.go). It panics if " + panics + "."
}

var i8APIs = []i8API{
	{name: "DotU8I8", kind: kindU8I8, params: "x []uint8, w []int8",
		doc: "DotU8I8 returns Σ x[i]·w[i] for unsigned x and signed w. It panics if\nlen(x) != len(w).",
		docFn: "DotU8I8 returns Σ x[i]·w[i] for unsigned bytes x and signed bytes w (the\nform of x86's VPDPBUSD), using the active int8 implementation:\n\n" +
			"\tvar s int32\n\tfor i := range x { s += int32(x[i]) * int32(w[i]) }\n\n" +
			i8Exact("65 793", "255·128 = 32 640", "len(x) != len(w)")},
	{name: "DotI8", kind: kindI8, params: "x, y []int8",
		doc: "DotI8 returns Σ x[i]·y[i] for signed x and y. It panics if len(x) != len(y).",
		docFn: "DotI8 returns Σ x[i]·y[i] for signed bytes x and y (the form of arm64's\nSDOT), using the active int8 implementation:\n\n" +
			"\tvar s int32\n\tfor i := range x { s += int32(x[i]) * int32(y[i]) }\n\n" +
			i8Exact("131 071", "128·128 = 16 384", "len(x) != len(y)")},
	{name: "DotsU8I8", kind: kindU8I8, params: "dst []int32, W []int8, x []uint8", dots: true,
		doc: "DotsU8I8 sets dst[k] = W[k]·x for the row-major len(dst)×len(x) matrix W of\nsigned weights and unsigned x. It panics if len(W) != len(dst)·len(x).",
		docFn: "DotsU8I8 sets dst[k] = W[k]·x, DotU8I8 of row k of the row-major\nlen(dst)×len(x) matrix W of signed bytes with the unsigned bytes x, for\n" +
			"every k: the scores of every class for one sample. The rows are processed\nin register blocks, so x is read once per block of rows:\n\n" +
			"\td := len(x)\n\tfor k := range dst { dst[k] = DotU8I8(x, W[k*d:(k+1)*d]) }\n\n" +
			"Each dst[k] is exactly DotU8I8's value. dst is the destination; W and x\nare not modified. It panics if len(W) != len(dst)·len(x)."},
	{name: "MatVecU8I8", kind: kindMV, params: "dst []int32, X []uint8, w []int8", dots: true,
		doc: "MatVecU8I8 sets dst[i] = X[i]·w for the row-major len(dst)×len(w) matrix X of\nunsigned samples and signed w. It panics if len(X) != len(dst)·len(w).",
		docFn: "MatVecU8I8 sets dst[i] = X[i]·w, DotU8I8 of row i of the row-major\nlen(dst)×len(w) matrix X of unsigned bytes with the signed bytes w, for\n" +
			"every i: the scores of a batch of samples under one weight vector, w read\nonce per block of rows:\n\n" +
			"\td := len(w)\n\tfor i := range dst { dst[i] = DotU8I8(X[i*d:(i+1)*d], w) }\n\n" +
			"Each dst[i] is exactly DotU8I8's value. dst is the destination; X and w\nare not modified. It panics if len(X) != len(dst)·len(w). (For signed\nsamples, DotsI8(dst, X, w) is the same product: the signed form is\nsymmetric.)"},
	{name: "DotsI8", kind: kindI8, params: "dst []int32, W []int8, x []int8", dots: true,
		doc: "DotsI8 sets dst[k] = W[k]·x for the row-major len(dst)×len(x) matrix W and\nsigned x. It panics if len(W) != len(dst)·len(x).",
		docFn: "DotsI8 sets dst[k] = W[k]·x, DotI8 of row k of the row-major len(dst)×len(x)\nmatrix W of signed bytes with the signed bytes x, for every k, reading x\n" +
			"once per block of rows:\n\n" +
			"\td := len(x)\n\tfor k := range dst { dst[k] = DotI8(x, W[k*d:(k+1)*d]) }\n\n" +
			"Each dst[k] is exactly DotI8's value. dst is the destination; W and x are\nnot modified. It panics if len(W) != len(dst)·len(x)."},
}

// int8GoFile returns kernel/int8_<goarch>.go, or int8_noasm.go for "".
func int8GoFile(goarch string) ([]byte, error) {
	list := i8VariantsOf(goarch)
	constraint := "!purego"
	if goarch == "" {
		constraint = "purego || !(amd64 || arm64)"
	}
	f := newGoFile(constraint, "kernel")
	if goarch != "" {
		f.p(`import "github.com/klauspost/cpuid/v2"`)
		f.p("")
	}
	switch goarch {
	case "amd64":
		f.comment("archInt8Impls returns the amd64 int8 implementations, worst first. Each\n" +
			"check lists every CPU feature its code uses (the generator verifies it\n" +
			"against avo's instruction tables and the instructions it encodes itself);\n" +
			"cpuid reports AVX and AVX-512 features only when the operating system\n" +
			"saves the registers.")
	case "arm64":
		f.comment("archInt8Impls returns the arm64 int8 implementations, worst first: the\n" +
			"dot-product instructions (UDOT, SDOT) are optional in ARMv8.2 and\n" +
			"later; cpuid reads them from the kernel's HWCAP_ASIMDDP.")
	default:
		f.comment("archInt8Impls: this build has no assembly; the generic int8\nimplementation is all.")
	}
	if len(list) == 0 {
		f.p("func archInt8Impls() []*Int8Impl { return nil }")
	} else {
		f.p("func archInt8Impls() []*Int8Impl {")
		f.p("return []*Int8Impl{")
		for _, v := range list {
			avail := "true"
			if len(v.spec.features) > 0 {
				var fs []string
				for _, x := range v.spec.features {
					fs = append(fs, "cpuid."+x)
				}
				avail = "cpuid.CPU.Supports(" + strings.Join(fs, ", ") + ")"
			}
			f.p("{name: %q, id: %s, impl: %s, rank: %d, available: %s},", v.spec.name, v.spec.id, v.parent.id, v.spec.rank, avail)
		}
		f.p("}")
		f.p("}")
	}
	f.p("")
	f.comment("The exported int8 kernels. Each checks the lengths, then calls the\n" +
		"implementation through the switch on its ID; the single dot products run\n" +
		"the batched assembly on one row.")
	for _, method := range []bool{true, false} {
		for _, a := range i8APIs {
			f.p("")
			id := "activeInt8.id"
			if method {
				f.comment(a.doc)
				id = "k.im.id"
			} else {
				f.comment(a.docFn)
			}
			sig := a.name + "(" + a.params + ")"
			if method {
				sig = "(k Int8Kernels) " + sig
			}
			if !a.dots {
				sig += " int32"
			}
			f.p("func %s {", sig)
			if a.dots {
				m, v := "W", "x"
				if a.kind.swap() {
					m, v = "X", "w"
				}
				f.p("if len(%s) != len(dst)*len(%s) {", m, v)
				f.p("panicLen(%q, %q, len(%s), %q, len(dst)*len(%s))", a.name, "len("+m+")", m, "len(dst)·len("+v+")", v)
				f.p("}")
			} else {
				y := "w"
				if a.kind.signed() {
					y = "y"
				}
				f.p("if len(x) != len(%s) {", y)
				f.p("panicLen(%q, %q, len(x), %q, len(%s))", a.name, "len(x)", "len("+y+")", y)
				f.p("}")
				if len(list) > 0 {
					f.p("var r [1]int32")
				}
			}
			if len(list) > 0 {
				f.p("switch %s {", id)
				for i := len(list) - 1; i >= 0; i-- {
					v := list[i]
					fn := a.kind.asmName(v)
					f.p("case %s:", v.spec.id)
					if a.dots {
						f.p("%s(dst, %s)", fn, a.args())
						f.p("return")
					} else if a.kind.signed() {
						f.p("%s(r[:], y, x)", fn)
						f.p("return r[0]")
					} else {
						f.p("%s(r[:], w, x)", fn)
						f.p("return r[0]")
					}
				}
				f.p("}")
			}
			switch {
			case a.dots:
				f.p("%s%sGeneric(dst, %s)", a.kind.fn, a.kind.name, a.args())
			case a.kind.signed():
				f.p("return dotI8Generic(x, y)")
			default:
				f.p("return dotU8I8Generic(x, w)")
			}
			f.p("}")
		}
	}
	for _, v := range list {
		f.p("")
		f.comment(fmt.Sprintf("The %s int8 kernels (%s). Each reads len(dst) and the\n"+
			"vector's length d and trusts the caller's length check, that the matrix\n"+
			"has len(dst)·d elements; any length ≥ 0 is accepted. The sums wrap\n"+
			"modulo 2³² exactly as the plain loop's do.", v.spec.label, v.file))
		for _, k := range i8Kinds {
			name, m, x := k.asmName(v), k.rows, k.vec
			f.p("")
			f.p("// %s sets dst[k] = Σⱼ %s[k·d+j]·%s[j], d = len(%s) (%s):", name, m, x, x, k.doc)
			f.p("//")
			f.p("//\td := len(%s)", x)
			f.p("//\tfor k := range dst {")
			f.p("//\t\tvar s int32")
			f.p("//\t\tfor j := range %s { s += int32(%s[k*d+j]) * int32(%s[j]) }", x, m, x)
			f.p("//\t\tdst[k] = s")
			f.p("//\t}")
			f.p("//")
			f.p("//go:noescape")
			f.p("func %s(dst []int32, %s []%s, %s []%s)", name, m, k.rowsType, x, k.vecType)
		}
	}
	return f.gofmt()
}
