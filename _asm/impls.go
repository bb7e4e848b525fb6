package main

import "strings"

// generatorName is the code-generation header's "by" part.
const generatorName = "_asm (go generate ./kernel ./gram)"

// implSpec is one implementation of package kernel: the entry of kernel's
// Impl list, the ID the dispatch switches and gram's registry are indexed
// by, and the CPU features its code needs.
type implSpec struct {
	name     string // kernel.Impl.Name
	id       string // kernel ID constant
	goarch   string
	rank     int      // order among the implementations of a build; higher is faster
	infix    string   // in function names: dot<infix>F32
	label    string   // in comments
	features []string // github.com/klauspost/cpuid/v2 feature IDs; nil: every CPU of goarch
}

// The implementations with assembly. The generic one (portable Go) is part
// of every build and lives in kernel/dispatch.go.
var (
	implAVX2 = &implSpec{
		name: "avx2", id: "IDAVX2", goarch: "amd64", rank: 1, infix: "AVX2", label: "AVX2+FMA",
		features: []string{"AVX", "AVX2", "FMA3"},
	}
	implAVX512 = &implSpec{
		name: "avx512", id: "IDAVX512", goarch: "amd64", rank: 2, infix: "AVX512", label: "AVX-512F",
		features: []string{"AVX", "AVX2", "FMA3", "AVX512F"},
	}
	implNEON = &implSpec{
		name: "neon", id: "IDNEON", goarch: "arm64", rank: 1, infix: "NEON", label: "NEON"}
	impls = []*implSpec{implAVX2, implAVX512, implNEON}
)

// baseline are the avo ISA names every amd64 CPU has (MMX+ is PREFETCHT0).
var baseline = map[string]bool{"SSE": true, "SSE2": true, "CMOV": true, "MMX+": true}

// covers reports whether the availability check of im covers code using the
// avo ISA extension isa. cpuid/v2 reports each feature only when the
// operating system saves the registers it needs (XGETBV).
func (im *implSpec) covers(isa string) bool {
	if baseline[isa] {
		return true
	}
	for _, f := range im.features {
		if strings.EqualFold(f, isa) {
			return true
		}
	}
	return false
}

// implsOf returns the implementations for goarch, worst first.
func implsOf(goarch string) []*implSpec {
	var list []*implSpec
	for _, im := range impls {
		if im.goarch == goarch {
			list = append(list, im)
		}
	}
	return list
}
