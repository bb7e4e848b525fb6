// Command _asm generates every assembly file of the rosenblatt module, with
// the Go declarations and dispatch code that go with them:
//
//	kernel/kernel_amd64.s          AVX2+FMA kernels (avo)
//	kernel/kernel_avx512_amd64.s   AVX-512 kernels (avo)
//	kernel/dot_amd64.s             dotAuto, the exported Dot's assembly (avo)
//	kernel/kernel_arm64.s          NEON kernels (the arm64 emitter, neon.go)
//	kernel/kernel_amd64.go, kernel_arm64.go, kernel_noasm.go
//	                               implementations, the exported kernels with their
//	                               dispatch switches (api.go), the stubs
//	kernel/int8_amd64.s, int8_arm64.s, int8_{amd64,arm64,noasm}.go
//	                               the int8 kernels (int8.go, int8_x86.go, int8_neon.go)
//	kernel/sparse_amd64.s, sparse_arm64.s, sparse_{amd64,arm64,noasm}.go
//	                               the sparse kernels (sparse.go, sparse_x86.go, sparse_neon.go)
//	internal/modelkern/quantize_amd64.s, quantize_arm64.s, quantize_{amd64,arm64,noasm}.go
//	                               the int8 models' input quantiser (quantize.go,
//	                               quantize_x86.go, quantize_neon.go)
//	internal/modelkern/rescale_amd64.s, rescale_{amd64,other}.go
//	                               the int8 models' rescale and argmax (rescale.go)
//	internal/modelkern/sparseblock_amd64.s, sparseblock_arm64.s,
//	internal/modelkern/sparseblock_{amd64,arm64,other}.go
//	                               the one-vs-rest perceptron's block scoring
//	                               (sparseblock.go, sparseblock_x86.go,
//	                               sparseblock_neon.go)
//	internal/modelkern/dots2_amd64.s, dots2_arm64.s, dots2_{amd64,arm64,noasm}.go
//	                               Dots2, two samples' scores a call (dots2.go,
//	                               dots2_x86.go, dots2_neon.go)
//	gram/micro_amd64.s, micro_avx512_amd64.s, micro_arm64.s
//	gram/micro_amd64.go, micro_arm64.go, micro_noasm.go
//	                               gram's registry entries, wrappers, stubs
//	internal/roofline/loops_*.s, loops_*.go
//	                               the measurement loops of rosenblatt bench
//	                               (roofline.go)
//
// Each kernel is written once (kernel_x86.go, gram_x86.go, kernel_neon.go,
// gram_neon.go) and instantiated per element type and vector width. Run it
// from the module root with
//
//	go generate ./kernel ./internal/modelkern ./gram
//
// (the //go:generate lines run "go -C ../_asm run . -pkg kernel",
// "... -pkg modelkern" and "... -pkg gram"), or as "go -C _asm run ." for
// everything. CI regenerates and fails if the committed files differ.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/mmcloughlin/avo/build"
)

func main() {
	// A flag set of its own: avo's build package registers its flags on
	// the default one.
	fs := flag.NewFlagSet("_asm", flag.ExitOnError)
	root := fs.String("root", "..", "the module root")
	pkg := fs.String("pkg", "", "generate only this package's files (kernel, modelkern, gram or roofline); empty: all")
	_ = fs.Parse(os.Args[1:])
	files, err := generate(*pkg)
	if err != nil {
		var list build.ErrorList
		if errors.As(err, &list) {
			for _, e := range list {
				fmt.Fprintln(os.Stderr, "_asm:", e)
			}
		}
		fmt.Fprintln(os.Stderr, "_asm:", err)
		os.Exit(1)
	}
	for _, f := range files {
		path := filepath.Join(*root, f.path)
		if err := os.WriteFile(path, f.data, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "_asm:", err)
			os.Exit(1)
		}
	}
}

type outFile struct {
	path string
	data []byte
}

// generate returns the files of package pkg ("" for all).
func generate(pkg string) ([]outFile, error) {
	var out []outFile
	add := func(path string, data []byte, err error) error {
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		out = append(out, outFile{path, data})
		return nil
	}
	if pkg == "" || pkg == "kernel" {
		for _, g := range []struct {
			path string
			f    func() ([]byte, error)
		}{
			{"kernel/kernel_amd64.s", kernelAVX2File},
			{"kernel/kernel_avx512_amd64.s", kernelAVX512File},
			{"kernel/dot_amd64.s", dotAutoFile},
			{"kernel/kernel_arm64.s", func() ([]byte, error) { return kernelNEONFile(), nil }},
			{"kernel/kernel_amd64.go", func() ([]byte, error) { return kernelGoFile("amd64") }},
			{"kernel/kernel_arm64.go", func() ([]byte, error) { return kernelGoFile("arm64") }},
			{"kernel/kernel_noasm.go", func() ([]byte, error) { return kernelGoFile("") }},
			{"kernel/int8_amd64.s", int8X86File},
			{"kernel/int8_arm64.s", func() ([]byte, error) { return int8NEONFile(), nil }},
			{"kernel/int8_amd64.go", func() ([]byte, error) { return int8GoFile("amd64") }},
			{"kernel/int8_arm64.go", func() ([]byte, error) { return int8GoFile("arm64") }},
			{"kernel/int8_noasm.go", func() ([]byte, error) { return int8GoFile("") }},
			{"kernel/sparse_amd64.s", sparseAVXFile},
			{"kernel/sparse_arm64.s", func() ([]byte, error) { return sparseNEONFile(), nil }},
			{"kernel/sparse_amd64.go", func() ([]byte, error) { return sparseGoFile("amd64") }},
			{"kernel/sparse_arm64.go", func() ([]byte, error) { return sparseGoFile("arm64") }},
			{"kernel/sparse_noasm.go", func() ([]byte, error) { return sparseGoFile("") }},
		} {
			data, err := g.f()
			if err := add(g.path, data, err); err != nil {
				return nil, err
			}
		}
	}
	if pkg == "" || pkg == "modelkern" {
		for _, g := range []struct {
			path string
			f    func() ([]byte, error)
		}{
			{"internal/modelkern/quantize_amd64.s", quantizeX86File},
			{"internal/modelkern/quantize_arm64.s", func() ([]byte, error) { return quantizeNEONFile(), nil }},
			{"internal/modelkern/quantize_amd64.go", func() ([]byte, error) { return quantizeGoFile("amd64") }},
			{"internal/modelkern/quantize_arm64.go", func() ([]byte, error) { return quantizeGoFile("arm64") }},
			{"internal/modelkern/quantize_noasm.go", func() ([]byte, error) { return quantizeGoFile("") }},
			{"internal/modelkern/rescale_amd64.s", rescaleX86File},
			{"internal/modelkern/rescale_amd64.go", func() ([]byte, error) { return rescaleGoFile("amd64") }},
			{"internal/modelkern/rescale_other.go", func() ([]byte, error) { return rescaleGoFile("") }},
			{"internal/modelkern/sparseblock_amd64.s", scoreBlockAVXFile},
			{"internal/modelkern/sparseblock_arm64.s", func() ([]byte, error) { return scoreBlockNEONFile(), nil }},
			{"internal/modelkern/sparseblock_amd64.go", func() ([]byte, error) { return scoreBlockGoFile("amd64") }},
			{"internal/modelkern/sparseblock_arm64.go", func() ([]byte, error) { return scoreBlockGoFile("arm64") }},
			{"internal/modelkern/sparseblock_other.go", func() ([]byte, error) { return scoreBlockGoFile("") }},
			{"internal/modelkern/dots2_amd64.s", dots2X86File},
			{"internal/modelkern/dots2_arm64.s", func() ([]byte, error) { return dots2NEONFile(), nil }},
			{"internal/modelkern/dots2_amd64.go", func() ([]byte, error) { return dots2GoFile("amd64") }},
			{"internal/modelkern/dots2_arm64.go", func() ([]byte, error) { return dots2GoFile("arm64") }},
			{"internal/modelkern/dots2_noasm.go", func() ([]byte, error) { return dots2GoFile("") }},
		} {
			data, err := g.f()
			if err := add(g.path, data, err); err != nil {
				return nil, err
			}
		}
	}
	if pkg == "" || pkg == "gram" {
		for _, g := range []struct {
			path string
			f    func() ([]byte, error)
		}{
			{"gram/micro_amd64.s", gramAVX2File},
			{"gram/micro_avx512_amd64.s", gramAVX512File},
			{"gram/micro_arm64.s", func() ([]byte, error) { return gramNEONFile(), nil }},
			{"gram/micro_amd64.go", func() ([]byte, error) { return gramGoFile("amd64") }},
			{"gram/micro_arm64.go", func() ([]byte, error) { return gramGoFile("arm64") }},
			{"gram/micro_noasm.go", func() ([]byte, error) { return gramGoFile("") }},
		} {
			data, err := g.f()
			if err := add(g.path, data, err); err != nil {
				return nil, err
			}
		}
	}
	if pkg == "" || pkg == "roofline" {
		files, err := rooflineFiles()
		if err != nil {
			return nil, err
		}
		out = append(out, files...)
	}
	if pkg != "" && pkg != "kernel" && pkg != "modelkern" && pkg != "gram" && pkg != "roofline" {
		return nil, fmt.Errorf("unknown package %q", pkg)
	}
	return out, nil
}

func kernelAVX2File() ([]byte, error) {
	f := newAsmFile(
		"AVX2+FMA kernels of package kernel (the \"avx2\" implementation). The Go",
		"declarations, with the plain Go loop each computes, are in kernel_amd64.go;",
		"the generator's kernel_x86.go holds their definition, shared with the",
		"AVX-512 kernels (kernel_avx512_amd64.s), and its conventions.",
	)
	tailMaskData(f)
	kernelFuncs(f, implAVX2, avx2)
	return f.render()
}

func kernelAVX512File() ([]byte, error) {
	f := newAsmFile(
		"AVX-512F kernels of package kernel (the \"avx512\" implementation): the",
		"AVX2 kernels of kernel_amd64.s with ZMM registers (16 float32 or 8 float64)",
		"and every tail a single opmask-masked operation. The Go declarations are",
		"in kernel_amd64.go; the generator's kernel_x86.go holds the definitions.",
	)
	kMaskData(f)
	kernelFuncs(f, implAVX512, avx512)
	return f.render()
}
