package main

import "fmt"

// The Go side of the sparse kernels: kernel/sparse_<goarch>.go (and
// sparse_noasm.go) hold the Kernels methods DotSparse and AxpySparse with
// their switch on the implementation ID, the declarations of the assembly
// and, for the dot, the number of non-zeros from which each path gathers.
// The package-level functions, MatVecSparse, DotsSparse (rows of DotSparse)
// and the portable Go loops are in kernel/sparse.go.

// sparseImpl is one implementation's sparse assembly for one element type.
type sparseImpl struct {
	im   *implSpec
	gmin map[string]int // by element suffix: gather from this many non-zeros; nil: no gathers
}

// gatherNever is a gmin no slice length reaches: the scalar loop always.
const gatherNever = 1 << 62

// sparseImpls are the implementations with sparse assembly and, per element
// type, where their gathers take over from the scalar loop (measured on
// Zen 5; see kernel/sparse.go).
var sparseImpls = []sparseImpl{
	{implAVX2, map[string]int{"F32": gatherNever, "F64": gatherNever}},
	{implAVX512, map[string]int{"F32": gatherNever, "F64": gatherNever}},
	{implNEON, nil},
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
	if len(list) > 0 && list[0].gmin != nil {
		f.comment("The number of non-zeros from which each path's DotSparse gathers; below\n" +
			"it, its unrolled scalar loop runs. A value no length reaches means the\n" +
			"scalar loop always won (kernel/sparse.go has the measurements).")
		f.p("const (")
		for _, s := range list {
			for _, t := range []elem{f32, f64} {
				if g := s.gmin[t.sfx]; g == gatherNever {
					f.p("gatherMin%s%s = 1 << 62 // never", s.im.infix, t.sfx)
				} else {
					f.p("gatherMin%s%s = %d", s.im.infix, t.sfx, g)
				}
			}
		}
		f.p(")")
		f.p("")
	}
	for _, method := range []bool{true, false} {
		sparseDotFunc(f, list, method)
		f.p("")
		sparseAxpyFunc(f, list, method)
		f.p("")
	}
	for _, s := range list {
		for _, t := range []elem{f32, f64} {
			T := t.goType
			f.p("")
			if s.gmin != nil {
				f.p("// dotSparse%s%s returns Σ val[i]·w[idx[i]] (%s), gathering from gmin", s.im.infix, t.sfx, s.im.label)
				f.p("// non-zeros up, with ok = false if an index is outside w (nothing is read")
				f.p("// there); len(val) == len(idx) is the caller's check.")
				f.p("//")
				f.p("//go:noescape")
				f.p("func dotSparse%s%s(idx []int32, val, w []%s, gmin int) (s %s, ok bool)", s.im.infix, t.sfx, T, T)
			} else {
				f.p("// dotSparse%s%s returns Σ val[i]·w[idx[i]] (%s), with ok = false if an", s.im.infix, t.sfx, s.im.label)
				f.p("// index is outside w (nothing is read there); len(val) == len(idx) is the")
				f.p("// caller's check.")
				f.p("//")
				f.p("//go:noescape")
				f.p("func dotSparse%s%s(idx []int32, val, w []%s) (s %s, ok bool)", s.im.infix, t.sfx, T, T)
			}
			f.p("")
			f.p("// axpySparse%s%s adds a·val[i] to y[idx[i]] in order, one fused", s.im.infix, t.sfx)
			f.p("// multiply-add each (%s), stopping before the first index outside y;", s.im.label)
			f.p("// done is the number of non-zeros updated.")
			f.p("//")
			f.p("//go:noescape")
			f.p("func axpySparse%s%s(a %s, idx []int32, val, y []%s) (done int)", s.im.infix, t.sfx, T, T)
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

func sparseDotFunc(f *goFile, list []sparseImpl, method bool) {
	id := sparseHead(f, method, "DotSparse", "idx []int32, val, w []T", " T",
		"DotSparse returns Σ val[i]·w[idx[i]] on k's implementation. It panics if\n"+
			"len(idx) != len(val) or, as indexing does, if an index is outside w.", dotSparseDoc)
	for _, t := range []elem{f32, f64} {
		conv, b := "f32s", "32"
		if !t.is32() {
			conv, b = "f64s", "64"
		}
		if t.is32() {
			f.p("if is32[T]() {")
		}
		f.p("val%s, w%s := %s(val), %s(w)", b, b, conv, conv)
		if len(list) > 0 {
			f.comment("On an invalid index the assembly returns !ok having read nothing\n" +
				"outside w, and the Go loop below panics at that index.")
			f.p("switch %s {", id)
			for i := len(list) - 1; i >= 0; i-- {
				s := list[i]
				f.p("case %s:", s.im.id)
				gmin := ""
				if s.gmin != nil {
					gmin = fmt.Sprintf(", gatherMin%s%s", s.im.infix, t.sfx)
				}
				f.p("if s, ok := dotSparse%s%s(idx, val%s, w%s%s); ok {", s.im.infix, t.sfx, b, b, gmin)
				f.p("return T(s)")
				f.p("}")
			}
			f.p("}")
		}
		f.p("return T(dotSparseGeneric(idx, val%s, w%s))", b, b)
		if t.is32() {
			f.p("}")
		}
	}
	f.p("}")
}

func sparseAxpyFunc(f *goFile, list []sparseImpl, method bool) {
	id := sparseHead(f, method, "AxpySparse", "a T, idx []int32, val, y []T", "",
		"AxpySparse adds a·(idx, val) to y in place on k's implementation. It\n"+
			"panics if len(idx) != len(val) or, as indexing does, if an index is\n"+
			"outside y, after updating the non-zeros before it.", axpySparseDoc)
	for _, t := range []elem{f32, f64} {
		conv, b := "f32s", "32"
		if !t.is32() {
			conv, b = "f64s", "64"
		}
		if t.is32() {
			f.p("if is32[T]() {")
		}
		f.p("val%s, y%s := %s(val), %s(y)", b, b, conv, conv)
		if len(list) > 0 {
			f.comment("The assembly stops before an invalid index; the Go loop then panics\n" +
				"there (or, after a complete run, has nothing left to do).")
			f.p("switch %s {", id)
			for i := len(list) - 1; i >= 0; i-- {
				s := list[i]
				f.p("case %s:", s.im.id)
				f.p("n := axpySparse%s%s(%s(a), idx, val%s, y%s)", s.im.infix, t.sfx, t.goType, b, b)
				f.p("if n == len(idx) {")
				f.p("return")
				f.p("}")
				f.p("idx, val%s = idx[n:], val%s[n:]", b, b)
			}
			f.p("}")
		}
		f.p("axpySparseGeneric(%s(a), idx, val%s, y%s)", t.goType, b, b)
		if t.is32() {
			f.p("return")
			f.p("}")
		}
	}
	f.p("}")
}
