package main

import "fmt"

// Dots2 of package modelkern (the perceptron's batch prediction, two
// samples a call): internal/modelkern/dots2_amd64.s (AVX2 and AVX-512,
// dots2_x86.go), dots2_arm64.s (NEON, dots2_neon.go) and
// dots2_{amd64,arm64,noasm}.go, the Kernels.Dots2 method with its dispatch
// switch inline (the package-level Dots2, its helpers and docs are in
// internal/modelkern/dots2.go, written by hand) and the declarations of
// the assembly.

// dots2Spec is dots2 as the Go declarations see it.
var dots2Spec = kspec{"dots2", "dst, w, x []T", "dst, w, x", "", "sets dst[k] = w[k]·x[:d] and dst[K+k] = w[k]·x[d:] for the\nK = len(dst)/2 rows of the row-major K×d matrix w, d = len(x)/2 (rows of at\nleast 32 bytes: the Go wrapper sends shorter ones to Dots), five rows at a\ntime sharing each load of the two samples:",
	[]string{"K, d := len(dst)/2, len(x)/2", "for s := range 2 { for k := range K { dst[s*K+k] = dot(w[k*d:(k+1)*d], x[s*d:(s+1)*d]) } }"}}

// dots2X86File returns internal/modelkern/dots2_amd64.s.
func dots2X86File() ([]byte, error) {
	f := newAsmFile(
		"Dots2 of package modelkern for amd64: the AVX2+FMA kernels (the \"avx2\"",
		"implementation) and the AVX-512F ones (\"avx512\"). The Go declarations are",
		"in dots2_amd64.go; the generator's dots2_x86.go holds the definition.",
	)
	tailMaskData(f)
	kMaskData(f)
	for _, im := range []*implSpec{implAVX2, implAVX512} {
		v := avx2
		if im == implAVX512 {
			v = avx512
		}
		for _, t := range []elem{f32, f64} {
			dots2Kernel(f, im, t, v)
		}
	}
	return f.render()
}

// dots2NEONFile returns internal/modelkern/dots2_arm64.s.
func dots2NEONFile() []byte {
	f := newNeonFile(
		"Dots2 of package modelkern for arm64 NEON (the \"neon\" implementation).",
		"The Go declarations are in dots2_arm64.go; the generator's dots2_neon.go",
		"holds the definition.",
	)
	for _, t := range []elem{f32, f64} {
		neonDots2(f, t)
	}
	return f.bytes()
}

// dots2GoFile returns internal/modelkern/dots2_<goarch>.go, or
// dots2_noasm.go for "".
func dots2GoFile(goarch string) ([]byte, error) {
	list := implsOf(goarch)
	constraint := "!purego"
	if goarch == "" {
		constraint = "purego || !(amd64 || arm64)"
	}
	f := newGoFile(constraint, "modelkern")
	// The method with its dispatch switch inline, as kernel's exported
	// kernels have theirs: one call from the caller's code to the assembly.
	f.comment("Dots2 is the package-level Dots2 on k's implementation.")
	f.p("func (k Kernels[T]) Dots2(dst, W, x []T) {")
	f.p("if len(W) != pairLen(len(dst), len(x)) {")
	f.p("panicLen(%q, %q, len(W), %q, pairLen(len(dst), len(x)))", "Dots2", "len(W)", "len(dst)/2·len(x)/2 (both even)")
	f.p("}")
	if len(list) > 0 {
		f.p("if !shortPair(x) {")
		f.p("switch k.id {")
		for i := len(list) - 1; i >= 0; i-- {
			im := list[i]
			f.p("case %s:", im.id)
			f.p("if is32[T]() {")
			f.p("dots2%sF32(f32s(dst), f32s(W), f32s(x))", im.infix)
			f.p("} else {")
			f.p("dots2%sF64(f64s(dst), f64s(W), f64s(x))", im.infix)
			f.p("}")
			f.p("return")
		}
		f.p("}")
		f.p("}")
	}
	f.p("k.Kernels.Dots(dst[:len(dst)/2], W, x[:len(x)/2])")
	f.p("k.Kernels.Dots(dst[len(dst)/2:], W, x[len(x)/2:])")
	f.p("}")
	if len(list) == 0 {
		return f.gofmt()
	}
	for _, im := range list {
		for _, t := range []elem{f32, f64} {
			declareKernel(f, dots2Spec, im, t, fmt.Sprintf("(%s; the multiply-adds fused, the sums kept in several\npartial sums: within the bound of kernel's Dot.)", im.label))
		}
	}
	return f.gofmt()
}
