package main

// The Go side of the sparse kernels: kernel/sparse_<goarch>.go (and
// sparse_noasm.go) hold the Kernels methods DotSparse and AxpySparse with
// their switch on the implementation ID, the declarations of the assembly
// and, for the dot, the number of non-zeros from which each path gathers.
// The package-level functions, MatVecSparse, DotsSparse (rows of DotSparse)
// and the portable Go loops are in kernel/sparse.go.

// matVecSparseSig is the signature of the amd64 row loop of
// kernel.MatVecSparse (T the element type).
const matVecSparseSig = "(dst []T, ptr []int, idx []int32, val, w []T) (done int)"

// matVecSparseName is the row loop of element type t with infix fn.
func matVecSparseName(fn string, t elem) string { return "matVecSparse" + fn + t.sfx }

// matVecSparseAsmGo writes matVecSparseAsm, kernel.MatVecSparse's dispatch:
// the rows the assembly of implementation id did (amd64's avx2 and
// avx512), 0 elsewhere, for the Go loop to do the rest.
func matVecSparseAsmGo(f *goFile, goarch string) {
	if goarch != "amd64" {
		f.comment("matVecSparseAsm returns 0: no row loop in assembly on this build\n" +
			"(MatVecSparse calls DotSparse per row).")
		f.p("func matVecSparseAsm[T Float](id ID, dst []T, ptr []int, idx []int32, val, w []T) int {")
		f.p("return 0")
		f.p("}")
		return
	}
	f.comment("matVecSparseAsm runs MatVecSparse's row loop in assembly on\n" +
		"implementation id, if it has one, and returns the rows it did: all of\n" +
		"them, or those before a row whose offsets or an index are invalid, for\n" +
		"MatVecSparse's Go loop to do (and panic at); 0 on a path without it.")
	f.p("func matVecSparseAsm[T Float](id ID, dst []T, ptr []int, idx []int32, val, w []T) int {")
	f.p("switch id {")
	f.p("case IDAVX512, IDAVX2:")
	f.p("if is32[T]() {")
	f.p("return %s(f32s(dst), ptr, idx, f32s(val), f32s(w))", matVecSparseName("AVX2", f32))
	f.p("}")
	f.p("return %s(f64s(dst), ptr, idx, f64s(val), f64s(w))", matVecSparseName("AVX2", f64))
	f.p("}")
	f.p("return 0")
	f.p("}")
	for _, t := range []elem{f32, f64} {
		f.p("")
		f.comment(matVecSparseName("AVX2", t) + " sets dst[i] to the sparse dot of row i\n" +
			"(idx[ptr[i]:ptr[i+1]], val[ptr[i]:ptr[i+1]]) with w, dotSparseAVX2" + t.sfx + "'s\n" +
			"arithmetic, for the rows in turn until one whose offsets are not\n" +
			"0 ≤ ptr[i] ≤ ptr[i+1] ≤ len(idx) or that holds an index outside w (not\n" +
			"written); done is the rows written. len(ptr) == len(dst)+1 and\n" +
			"len(val) == len(idx) are the caller's checks.")
		f.p("//")
		f.p("//go:noescape")
		f.p("%s", typed("func "+matVecSparseName("AVX2", t)+matVecSparseSig, t))
	}
}

// sparseImpl is one implementation's sparse assembly: fn is the infix of
// the functions it calls (the AVX-512 implementation calls the AVX2 ones).
type sparseImpl struct {
	im *implSpec
	fn string
}

// sparseImpls are the implementations with sparse assembly.
var sparseImpls = []sparseImpl{
	{implAVX2, "AVX2"},
	{implAVX512, "AVX2"},
	{implNEON, "NEON"},
}

// sparseCase is one case of a dispatch switch: the IDs calling impl's functions.
type sparseCase struct {
	ids  string
	impl sparseImpl
}

// sparseCases groups the implementations of list (best first) by the
// functions they call.
func sparseCases(list []sparseImpl) []sparseCase {
	var cs []sparseCase
	for i := len(list) - 1; i >= 0; i-- {
		s := list[i]
		if n := len(cs); n > 0 && cs[n-1].impl.fn == s.fn {
			cs[n-1].ids += ", " + s.im.id
			continue
		}
		cs = append(cs, sparseCase{s.im.id, s})
	}
	return cs
}

func sparseImplsOf(goarch string) []sparseImpl {
	var list []sparseImpl
	for _, s := range sparseImpls {
		if s.im.goarch == goarch {
			list = append(list, s)
		}
	}
	return list
}

// sparseGoFile returns kernel/sparse_<goarch>.go, or sparse_noasm.go for "".
func sparseGoFile(goarch string) ([]byte, error) {
	list := sparseImplsOf(goarch)
	constraint := "!purego"
	if goarch == "" {
		constraint = "purego || !(amd64 || arm64)"
	}
	f := newGoFile(constraint, "kernel")
	if goarch == "amd64" {
		f.p("import (")
		f.p(`"math"`)
		f.p(`"unsafe"`)
		f.p(")")
		f.p("")
	}
	for _, method := range []bool{true, false} {
		if !method && goarch == "amd64" {
			dotSparseAutoGo(f)
		} else {
			sparseDotFunc(f, list, method)
		}
		f.p("")
		sparseAxpyFunc(f, list, method)
		f.p("")
	}
	matVecSparseAsmGo(f, goarch)
	f.p("")
	done := map[string]bool{}
	for _, s := range list {
		if done[s.fn] {
			continue
		}
		done[s.fn] = true
		label := s.im.label
		if s.fn == "AVX2" {
			label = "AVX+FMA on XMM: avx2, avx512"
		}
		for _, t := range []elem{f32, f64} {
			T := t.goType
			f.p("")
			f.p("// dotSparse%s%s returns Σ val[i]·w[idx[i]] (%s), with ok = false if", s.fn, t.sfx, label)
			f.p("// an index is outside w (nothing is read there); len(val) == len(idx) is")
			f.p("// the caller's check.")
			f.p("//")
			f.p("//go:noescape")
			f.p("func dotSparse%s%s(idx []int32, val, w []%s) (s %s, ok bool)", s.fn, t.sfx, T, T)
			f.p("")
			f.p("// axpySparse%s%s adds a·val[i] to y[idx[i]] in order, one fused", s.fn, t.sfx)
			f.p("// multiply-add each (%s), stopping before the first index", label)
			f.p("// outside y; done is the number of non-zeros updated.")
			f.p("//")
			f.p("//go:noescape")
			f.p("func axpySparse%s%s(a %s, idx []int32, val, y []%s) (done int)", s.fn, t.sfx, T, T)
		}
	}
	return f.gofmt()
}

// The docs of the package-level functions (the Kernels methods' are short).
const (
	dotSparseDoc = `DotSparse returns Σ val[i]·w[idx[i]], the dot product of the sparse
vector (idx, val) with the dense w, using the active implementation:

	for i := range idx {
		s += val[i] * w[idx[i]]
	}

It panics if len(idx) != len(val), or, as indexing does, if an index is
outside w.`
	axpySparseDoc = `AxpySparse adds a·(idx, val) to the dense y in place, a scatter:

	for i := range idx {
		y[idx[i]] += a * val[i]
	}

using the active implementation. y is the destination. It panics if
len(idx) != len(val), or, as indexing does, if an index is outside y
(after updating the non-zeros before it, as the loop does).`
)

// sparseHead writes the signature and length check of a sparse kernel: the
// Kernels method (method) or the package-level function, whose switch is
// on the active implementation.
func sparseHead(f *goFile, method bool, name, params, result, docMethod, docFn string) string {
	id := "active.id"
	sig := name + "[T Float](" + params + ")" + result
	if method {
		id = "k.im.id"
		sig = "(k Kernels[T]) " + name + "(" + params + ")" + result
		f.comment(docMethod)
	} else {
		f.comment(docFn)
	}
	f.p("func %s {", sig)
	f.p("if len(idx) != len(val) {")
	f.p(`panicLen(%q, "len(idx)", len(idx), "len(val)", len(val))`, name)
	f.p("}")
	return id
}

// sparseFunc writes one sparse kernel: the head (sparseHead), then per
// element type the slices converted (dense is "w" or "y"), the switch
// whose cases call the assembly (caseBody), and the Go loop (tail).
func sparseFunc(f *goFile, list []sparseImpl, method bool, name, params, result, docMethod, docFn, dense, why string,
	caseBody func(s sparseImpl, t elem, b string), tail func(t elem, b string)) {
	id := sparseHead(f, method, name, params, result, docMethod, docFn)
	for _, t := range []elem{f32, f64} {
		conv, b := "f32s", "32"
		if !t.is32() {
			conv, b = "f64s", "64"
		}
		if t.is32() {
			f.p("if is32[T]() {")
		}
		f.p("val%s, %s%s := %s(val), %s(%s)", b, dense, b, conv, conv, dense)
		if len(list) > 0 {
			f.comment(why)
			f.p("switch %s {", id)
			for _, c := range sparseCases(list) {
				f.p("case %s:", c.ids)
				caseBody(c.impl, t, b)
			}
			f.p("}")
		}
		tail(t, b)
		if t.is32() {
			f.p("}")
		}
	}
	f.p("}")
}

func sparseDotFunc(f *goFile, list []sparseImpl, method bool) {
	sparseFunc(f, list, method, "DotSparse", "idx []int32, val, w []T", " T",
		"DotSparse returns Σ val[i]·w[idx[i]] on k's implementation. It panics if\n"+
			"len(idx) != len(val) or, as indexing does, if an index is outside w.", dotSparseDoc, "w",
		"On an invalid index the assembly returns !ok having read nothing\n"+
			"outside w, and the Go loop below panics at that index.",
		func(s sparseImpl, t elem, b string) {
			f.p("if s, ok := dotSparse%s%s(idx, val%s, w%s); ok {", s.fn, t.sfx, b, b)
			f.p("return T(s)")
			f.p("}")
		},
		func(t elem, b string) { f.p("return T(dotSparseGeneric(idx, val%s, w%s))", b, b) })
}

func sparseAxpyFunc(f *goFile, list []sparseImpl, method bool) {
	sparseFunc(f, list, method, "AxpySparse", "a T, idx []int32, val, y []T", "",
		"AxpySparse adds a·(idx, val) to y in place on k's implementation. It\n"+
			"panics if len(idx) != len(val) or, as indexing does, if an index is\n"+
			"outside y, after updating the non-zeros before it.", axpySparseDoc, "y",
		"The assembly stops before an invalid index; the Go loop then panics\n"+
			"there (or, after a complete run, has nothing left to do).",
		func(s sparseImpl, t elem, b string) {
			f.p("n := axpySparse%s%s(%s(a), idx, val%s, y%s)", s.fn, t.sfx, t.goType, b, b)
			f.p("if n == len(idx) {")
			f.p("return")
			f.p("}")
			f.p("idx, val%s = idx[n:], val%s[n:]", b, b)
		},
		func(t elem, b string) {
			f.p("axpySparseGeneric(%s(a), idx, val%s, y%s)", t.goType, b, b)
			if t.is32() {
				f.p("return")
			}
		})
}

// dotSparseAutoGo writes the amd64 DotSparse: one call of the assembly
// dotSparseAuto (sparse_amd64.s), which checks the lengths and picks the
// implementation and element type itself, as dotAutoGo's Dot does; small
// enough for the inliner, so that a call of kernel.DotSparse compiles to a
// call of dotSparseAuto in the caller. Where the assembly declines (no
// assembly implementation active, unequal lengths, an index outside w) it
// jumps to dotSparseGo with its own arguments, which panics in the last
// two cases.
func dotSparseAutoGo(f *goFile) {
	f.comment(dotSparseDoc)
	f.p("func DotSparse[T Float](idx []int32, val, w []T) T {")
	f.p("var z T")
	f.p("r := dotSparseAuto(idx, unsafe.Pointer(unsafe.SliceData(val)), unsafe.Pointer(unsafe.SliceData(w)), len(val), len(w), unsafe.Sizeof(z))")
	f.p("return *(*T)(unsafe.Pointer(&r))")
	f.p("}")
	f.p("")
	f.comment("dotSparseAuto is DotSparse for float32 (size 4) or float64 (size 8)\n" +
		"values and weights on the AVX2/AVX-512 sparse dot; it jumps to dotSparseGo\n" +
		"(having read nothing outside w) if len(idx) != nval, an index is outside\n" +
		"w, or no assembly implementation is active. The result is the float64\n" +
		"or the float32 bits (in the low four bytes).")
	f.p("//")
	f.p("//go:noescape")
	f.p("func dotSparseAuto(idx []int32, val, w unsafe.Pointer, nval, nw int, size uintptr) uint64")
	f.p("")
	f.comment("dotSparseGo is dotSparseAuto's Go path: the length panic, or the Go\n" +
		"loop (which panics at an index outside w).")
	f.p("func dotSparseGo(idx []int32, val, w unsafe.Pointer, nval, nw int, size uintptr) uint64 {")
	f.p("if len(idx) != nval {")
	f.p(`panicLen("DotSparse", "len(idx)", len(idx), "len(val)", nval)`)
	f.p("}")
	f.p("if size == 4 {")
	f.p("return uint64(math.Float32bits(dotSparseGeneric(idx, unsafe.Slice((*float32)(val), nval), unsafe.Slice((*float32)(w), nw))))")
	f.p("}")
	f.p("return math.Float64bits(dotSparseGeneric(idx, unsafe.Slice((*float64)(val), nval), unsafe.Slice((*float64)(w), nw)))")
	f.p("}")
}
