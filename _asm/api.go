package main

import (
	"fmt"
	"strings"
)

// The exported API of package kernel: the package-level functions (on the
// active implementation) and the Kernels methods (on one implementation).
// Each is generated per architecture with its dispatch switch inline, so a
// call reaches the assembly through one Go function: a separate dispatch
// function costs a call, about a nanosecond, as much as the arithmetic of a
// 64-element Dot on AVX-512.

// apiSpec is one exported kernel.
type apiSpec struct {
	name   string   // exported name: Dot
	kernel string   // the kspec it runs: dot
	params string   // with T the element type
	args   []string // the kernel's arguments; a scalar parameter is converted
	scalar string   // the scalar parameter, if any
	result bool
	check  []string // the length check: lhs name, lhs expr, rhs name, rhs expr
	doc    string   // doc of the Kernels method
	docFn  string   // doc of the package-level function
}

var apiSpecs = []apiSpec{
	{name: "Dot", kernel: "dot", params: "x, y []T", args: []string{"x", "y"}, result: true,
		check: []string{"len(x)", "len(x)", "len(y)", "len(y)"},
		doc:   "Dot returns Σ x[i]·y[i]. It panics if len(x) != len(y).",
		docFn: "Dot returns Σ x[i]·y[i] using the active implementation. It panics if\nlen(x) != len(y)."},
	{name: "SqDist", kernel: "sqdist", params: "x, y []T", args: []string{"x", "y"}, result: true,
		check: []string{"len(x)", "len(x)", "len(y)", "len(y)"},
		doc:   "SqDist returns the squared Euclidean distance Σ (x[i]−y[i])². It panics if\nlen(x) != len(y).",
		docFn: "SqDist returns Σ (x[i]−y[i])², the squared Euclidean distance, using the\nactive implementation. It panics if len(x) != len(y)."},
	{name: "Axpy", kernel: "axpy", params: "a T, x, y []T", args: []string{"a", "x", "y"}, scalar: "a",
		check: []string{"len(x)", "len(x)", "len(y)", "len(y)"},
		doc:   "Axpy adds a·x to y in place: y[i] += a·x[i]. It panics if len(x) != len(y).",
		docFn: "Axpy adds a·x to y in place (y[i] += a·x[i]) using the active\nimplementation. y is the destination; x is not modified. It panics if\nlen(x) != len(y)."},
	{name: "Scale", kernel: "scale", params: "a T, x []T", args: []string{"a", "x"}, scalar: "a",
		doc:   "Scale multiplies x by a in place: x[i] *= a.",
		docFn: "Scale multiplies x by a in place (x[i] *= a) using the active\nimplementation. x is the destination."},
	{name: "MatVec", kernel: "matvec", params: "dst, X, w []T", args: []string{"dst", "X", "w"},
		check: []string{"len(X)", "len(X)", "len(dst)·len(w)", "len(dst)*len(w)"},
		doc:   "MatVec sets dst[i] = X[i]·w for the row-major len(dst)×len(w) matrix X: the\nmargins of a whole batch in one call. It panics if len(X) != len(dst)·len(w).",
		docFn: "MatVec sets dst[i] = X[i]·w for the row-major len(dst)×len(w) matrix X,\nusing the active implementation. The row loop runs inside the\nimplementation. dst is the destination; X and w are not modified. It panics\nif len(X) != len(dst)·len(w)."},
	{name: "Dots", kernel: "matvec", params: "dst, W, x []T", args: []string{"dst", "W", "x"},
		check: []string{"len(W)", "len(W)", "len(dst)·len(x)", "len(dst)*len(x)"},
		doc: "Dots sets dst[k] = W[k]·x for the row-major len(dst)×len(x) matrix W of\nweight vectors: the scores of every class for one sample. It is MatVec with\n" +
			"the roles named for scoring; the rows are processed in register blocks so x\nis streamed once per block rather than once per row. It panics if\nlen(W) != len(dst)·len(x).",
		docFn: "Dots sets dst[k] = W[k]·x for the row-major len(dst)×len(x) matrix W, using\nthe active implementation: k weight vectors scored against one sample. dst\n" +
			"is the destination; W and x are not modified. It panics if\nlen(W) != len(dst)·len(x)."},
}

// apiFuncs writes the exported functions and methods for the
// implementations list (none: the portable Go code only).
func apiFuncs(f *goFile, list []*implSpec) {
	f.comment("The exported kernels. Each checks the lengths, then calls the\n" +
		"implementation directly through the switch on its ID: one call from the\n" +
		"caller's code to the assembly.")
	for _, method := range []bool{true, false} {
		for _, a := range apiSpecs {
			f.p("")
			id := "active.id"
			if method {
				f.comment(a.doc)
				id = "k.im.id"
			} else {
				f.comment(a.docFn)
			}
			sig := fmt.Sprintf("%s(%s)", a.name, a.params)
			if method {
				sig = "(k Kernels[T]) " + sig
			} else {
				sig = a.name + "[T Float](" + a.params + ")"
			}
			if a.result {
				sig += " T"
			}
			if !method && (a.name == "Dot" || a.name == "SqDist") && len(list) > 0 && list[0].goarch == "amd64" {
				dotAutoGo(f, sig, a.kernel)
				continue
			}
			f.p("func %s {", sig)
			if a.check != nil {
				c := a.check
				f.p("if %s != %s {", c[1], c[3])
				f.p("panicLen(%q, %q, %s, %q, %s)", a.name, c[0], c[1], c[2], c[3])
				f.p("}")
			}
			for _, t := range []elem{f32, f64} {
				conv := "f32s"
				if !t.is32() {
					conv = "f64s"
				}
				var decl, vals, args []string
				for _, p := range a.args {
					if p == a.scalar {
						args = append(args, fmt.Sprintf("%s(%s)", t.goType, p))
						continue
					}
					n := strings.ToLower(p) + bits(t)
					decl = append(decl, n)
					vals = append(vals, fmt.Sprintf("%s(%s)", conv, p))
					args = append(args, n)
				}
				call := func(fn string) {
					if a.result {
						f.p("return T(%s(%s))", fn, strings.Join(args, ", "))
						return
					}
					f.p("%s(%s)", fn, strings.Join(args, ", "))
					f.p("return")
				}
				if t.is32() {
					f.p("if is32[T]() {")
				}
				f.p("%s := %s", strings.Join(decl, ", "), strings.Join(vals, ", "))
				if len(list) > 0 {
					f.p("switch %s {", id)
					for i := len(list) - 1; i >= 0; i-- {
						im := list[i]
						f.p("case %s:", im.id)
						call(a.kernel + im.infix + t.sfx)
					}
					f.p("}")
				}
				if t.is32() {
					call(a.kernel + "Generic")
					f.p("}")
				} else if a.result {
					f.p("return T(%sGeneric(%s))", a.kernel, strings.Join(args, ", "))
				} else {
					f.p("%sGeneric(%s)", a.kernel, strings.Join(args, ", "))
				}
			}
			f.p("}")
		}
	}
}

// dotAutoGo writes the amd64 Dot (kernel "dot") or SqDist ("sqdist"): one
// call of the assembly dotAuto or sqdistAuto (dot_amd64.s), which checks
// the lengths and picks the implementation and element type itself, and
// stores the result in the caller's variable r. Its Go body costs 76 in
// the inliner's units (the budget is 80; two results, a float32 and a
// float64 to pick from, cost 89), so a call of
// kernel.Dot compiles to a call of dotAuto in the caller's code: one call
// from the caller to the arithmetic, as for a non-generic assembly
// function. The switch of the other exported kernels (two calls, one per
// element type) is over the budget.
func dotAutoGo(f *goFile, sig, kernel string) {
	f.p("func %s {", sig)
	f.p("var r T")
	f.p("%sAuto(unsafe.Pointer(&r), unsafe.Pointer(unsafe.SliceData(x)), unsafe.Pointer(unsafe.SliceData(y)), len(x), len(y), unsafe.Sizeof(r))", kernel)
	f.p("return r")
	f.p("}")
}

// autoKernels are the kernels with an assembly entry of their own on amd64
// (dotAutoFile): the generator's kernel name and the exported one.
var autoKernels = []struct{ kernel, name string }{
	{"dot", "Dot"},
	{"sqdist", "SqDist"},
}

// dotAutoDecls writes the Go side of dotAuto and sqdistAuto: their
// declarations, the functions they jump to, and activeID with the check of
// its values.
func dotAutoDecls(f *goFile) {
	for _, k := range autoKernels {
		a := k.kernel + "Auto"
		f.p("")
		f.comment(fmt.Sprintf("%s is %s on the active implementation for float32 (size 4) or\n", a, k.name) +
			"float64 (size 8) vectors x and y of nx and ny elements, stored where r\n" +
			fmt.Sprintf("points: it panics (through %sLen) if nx != ny, runs the AVX-512 or\n", a) +
			fmt.Sprintf("AVX2 %s kernel inline, or jumps to %sGeneric. A result through a\n", k.kernel, a) +
			"pointer to the caller's variable is one store and one load of the\n" +
			fmt.Sprintf("element type: a float64 result would cost a float32 %s two\n", k.name) +
			"conversions (0.3 to 1.4 ns a call on a Zen 3), and the float32 bits in a\n" +
			"uint64 a store and a reload through the stack.")
		f.p("//")
		f.p("//go:noescape")
		f.p("func %s(r, x, y unsafe.Pointer, nx, ny int, size uintptr)", a)
		f.p("")
		f.comment(fmt.Sprintf("%sGeneric is %s's portable path (%s jumps to it with its\n", a, a, a) +
			"own arguments when the active implementation has no assembly).")
		f.p("func %sGeneric(r, x, y unsafe.Pointer, nx, ny int, size uintptr) {", a)
		f.p("if size == 4 {")
		f.p("*(*float32)(r) = %sGeneric(unsafe.Slice((*float32)(x), nx), unsafe.Slice((*float32)(y), nx))", k.kernel)
		f.p("return")
		f.p("}")
		f.p("*(*float64)(r) = %sGeneric(unsafe.Slice((*float64)(x), nx), unsafe.Slice((*float64)(y), nx))", k.kernel)
		f.p("}")
		f.p("")
		f.comment(fmt.Sprintf("%sLen is %s's length panic.", a, a))
		f.p("func %sLen(r, x, y unsafe.Pointer, nx, ny int, size uintptr) {", a)
		f.p("panicLen(%q, \"len(x)\", nx, \"len(y)\", ny)", k.name)
		f.p("}")
	}
	f.p("")
	f.comment("activeID is active.id, read by dotAuto and sqdistAuto; the constant fails\n" +
		"to compile unless IDAVX2 and IDAVX512 are the values they compare it with.")
	f.p("var activeID = active.id")
	f.p("")
	f.p("const _ = (IDAVX2 - %d) + (%d - IDAVX2) + (IDAVX512 - %d) + (%d - IDAVX512)", idAVX2, idAVX2, idAVX512, idAVX512)
}
