package main

import (
	"bytes"
	"fmt"
	"go/token"
	"go/types"
	"regexp"
	"strconv"
	"strings"

	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/gotypes"
	"github.com/mmcloughlin/avo/ir"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/pass"
	"github.com/mmcloughlin/avo/printer"
	"github.com/mmcloughlin/avo/reg"
)

// The amd64 side: avo builds each function from the Go code below, with
// physical registers only (so the comments can say what each register
// holds), and prints the Go assembly.

// elem is an element type of the kernels.
type elem struct {
	goType string // "float32"
	sfx    string // function-name suffix: "F32"
	size   int    // bytes
	shift  int    // log₂ size
}

var (
	f32 = elem{"float32", "F32", 4, 2}
	f64 = elem{"float64", "F64", 8, 3}
)

func (t elem) is32() bool { return t.size == 4 }

// isa is one amd64 vector instruction set the kernels are instantiated for.
type isa struct {
	name   string // function-name infix: "AVX2"
	vec    int    // vector register bytes: 32 (YMM) or 64 (ZMM)
	masked bool   // AVX-512: tails are one opmask-masked vector
}

var (
	avx2   = isa{name: "AVX2", vec: 32}
	avx512 = isa{name: "AVX512", vec: 64, masked: true}
)

// asmFile collects the functions of one .s file.
type asmFile struct {
	ctx   *build.Context
	about []string // the file's leading comment, after the #include
	// funcs lists the generated functions with the implementation each
	// belongs to, for the ISA check (checkISA).
	funcs []asmFunc
}

type asmFunc struct {
	name  string
	impls []*implSpec // the implementations whose code calls it
}

// also records that the implementations ims use function name too.
func (f *asmFile) also(name string, ims ...*implSpec) {
	for i := range f.funcs {
		if f.funcs[i].name == name {
			f.funcs[i].impls = append(f.funcs[i].impls, ims...)
			return
		}
	}
	panic("no function " + name)
}

func newAsmFile(about ...string) *asmFile {
	ctx := build.NewContext()
	ctx.ConstraintExpr("!purego")
	return &asmFile{ctx: ctx, about: about}
}

// x86 builds one function: the avo context with the element type and
// instruction set the function is instantiated for.
type x86 struct {
	*build.Context
	t elem
	v isa
	// pfx prefixes the labels of dotBody, so that several bodies can share
	// a function; ret8 makes storeResult write 8 bytes whatever the
	// element type (a uint64 result), and retPtr stores it, of the
	// element's size, where the function's first argument r points.
	pfx          string
	ret8, retPtr bool
}

// L is the reference to label name (with g's prefix); label defines it.
func (g *x86) L(name string) operand.LabelRef { return lbl(g.pfx + name) }
func (g *x86) label(name string)              { g.Label(g.pfx + name) }

// storeResult writes the scalar result X0 to the function's result: the
// element's own size, or 8 bytes (VMOVSD: the float32 in the low four)
// when g.ret8 is set, or through the pointer r when g.retPtr is.
func (g *x86) storeResult() {
	if g.retPtr {
		g.MOVQ(g.param("r"), reg.RAX)
		g.movs(reg.X0, mem(reg.RAX, 0))
		return
	}
	if g.ret8 {
		g.VMOVSD(reg.X0, g.result())
		return
	}
	g.movs(reg.X0, g.result())
}

// fn starts function name with Go signature sig (with T standing for the
// element type) in file f.
func (f *asmFile) fn(impl *implSpec, t elem, v isa, name, sig string) *x86 {
	g := &x86{Context: f.ctx, t: t, v: v}
	g.Function(name)
	g.Attributes(attr.NOSPLIT)
	s, err := gotypes.ParseSignatureInPackage(kernelTypes, strings.ReplaceAll(sig, "T", t.goType))
	if err != nil {
		panic(fmt.Sprintf("%s: %v", name, err))
	}
	g.Signature(s)
	f.funcs = append(f.funcs, asmFunc{name, []*implSpec{impl}})
	return g
}

// kernelTypes is the package the signatures are parsed in: package
// modelkern's types that signatures name (Visit, of internal/modelkern/sparseblock.go,
// whose layout the scan kernel reads: visitSize and the offsets of
// sparseblock_x86.go), besides the predeclared ones.
var kernelTypes = func() *types.Package {
	pkg := types.NewPackage("github.com/rosenblatt-go/rosenblatt/internal/modelkern", "modelkern")
	integer, i32 := types.Typ[types.Int], types.Typ[types.Int32]
	visit := types.NewStruct([]*types.Var{
		types.NewField(token.NoPos, pkg, "Lo", integer, false),
		types.NewField(token.NoPos, pkg, "Hi", integer, false),
		types.NewField(token.NoPos, pkg, "Row", i32, false),
		types.NewField(token.NoPos, pkg, "Class", i32, false),
	}, nil)
	pkg.Scope().Insert(types.NewTypeName(token.NoPos, pkg, "Visit", nil))
	types.NewNamed(pkg.Scope().Lookup("Visit").(*types.TypeName), visit, nil)
	return pkg
}()

// render compiles the file with avo and returns the Go assembly text. It
// checks that every function uses only instruction sets its
// implementation's availability check covers.
func (f *asmFile) render() ([]byte, error) {
	file, err := f.ctx.Result()
	if err != nil {
		return nil, err
	}
	if err := pass.Compile.Execute(file); err != nil {
		return nil, err
	}
	for _, fn := range file.Functions() {
		var specs []*implSpec
		for _, af := range f.funcs {
			if af.name == fn.Name {
				specs = af.impls
			}
		}
		if len(specs) == 0 {
			return nil, fmt.Errorf("%s: no implementation", fn.Name)
		}
		for _, spec := range specs {
			for _, isa := range fn.ISA {
				if !spec.covers(isa) {
					return nil, fmt.Errorf("%s uses %s, which the availability check of %s does not cover (%v)", fn.Name, isa, spec.name, spec.features)
				}
			}
		}
	}
	out, err := printer.NewGoAsm(printer.Config{Name: generatorName}).Print(file)
	if err != nil {
		return nil, err
	}
	// The file's own comment goes after the #include line.
	include := []byte("#include \"textflag.h\"\n")
	i := bytes.Index(out, include)
	if i < 0 {
		return nil, fmt.Errorf("no #include in the output")
	}
	i += len(include)
	var about bytes.Buffer
	about.WriteString("\n")
	for _, l := range f.about {
		if l == "" {
			about.WriteString("//\n")
			continue
		}
		about.WriteString("// " + l + "\n")
	}
	out = append(out[:i], append(about.Bytes(), out[i:]...)...)
	return decimalImmediates(out), nil
}

// hexImmediates are the instructions whose immediate is a bit pattern
// (lane selectors, predicates), left in avo's hexadecimal.
var hexImmediates = map[string]bool{"VPERM2F128": true, "VBLENDPD": true, "VSHUFPS": true, "VCMPPS": true, "VCMPPD": true, "VROUNDPS": true, "VROUNDPD": true}

var immRE = regexp.MustCompile(`\$0x[0-9a-f]+\b`)

// decimalImmediates prints the immediates of instructions (counts, sizes,
// offsets) in decimal: avo prints every unsigned constant in zero-padded
// hexadecimal.
func decimalImmediates(src []byte) []byte {
	lines := strings.SplitAfter(string(src), "\n")
	for i, l := range lines {
		f := strings.Fields(l)
		if !strings.HasPrefix(l, "\t") || len(f) == 0 || hexImmediates[f[0]] || strings.HasPrefix(f[0], "//") {
			continue
		}
		lines[i] = immRE.ReplaceAllStringFunc(l, func(h string) string {
			v, err := strconv.ParseUint(h[3:], 16, 64)
			if err != nil {
				panic(err)
			}
			return "$" + strconv.FormatUint(v, 10)
		})
	}
	return []byte(strings.Join(lines, ""))
}

// Registers by number.
var (
	xr = []reg.VecPhysical{reg.X0, reg.X1, reg.X2, reg.X3, reg.X4, reg.X5, reg.X6, reg.X7, reg.X8, reg.X9, reg.X10, reg.X11, reg.X12, reg.X13, reg.X14, reg.X15}
	yr = []reg.VecPhysical{reg.Y0, reg.Y1, reg.Y2, reg.Y3, reg.Y4, reg.Y5, reg.Y6, reg.Y7, reg.Y8, reg.Y9, reg.Y10, reg.Y11, reg.Y12, reg.Y13, reg.Y14, reg.Y15}
	zr = []reg.VecPhysical{reg.Z0, reg.Z1, reg.Z2, reg.Z3, reg.Z4, reg.Z5, reg.Z6, reg.Z7, reg.Z8, reg.Z9, reg.Z10, reg.Z11, reg.Z12, reg.Z13, reg.Z14, reg.Z15,
		reg.Z16, reg.Z17, reg.Z18, reg.Z19, reg.Z20, reg.Z21, reg.Z22, reg.Z23, reg.Z24, reg.Z25, reg.Z26, reg.Z27, reg.Z28, reg.Z29, reg.Z30, reg.Z31}
)

// V returns vector register i at the instruction set's width.
func (g *x86) V(i int) reg.VecPhysical {
	if g.v.vec == 64 {
		return zr[i]
	}
	return yr[i]
}

// lanes is the number of elements in one vector register.
func (g *x86) lanes() int { return g.v.vec / g.t.size }

// mem returns the operand disp(base)(index*scale); index may be nil.
func mem(base reg.Register, disp int, index ...reg.Register) operand.Mem {
	m := operand.Mem{Base: base, Disp: disp}
	if len(index) > 0 {
		m.Index, m.Scale = index[0], 1
	}
	return m
}

// memx is mem with an explicit scale.
func memx(base reg.Register, disp int, index reg.Register, scale uint8) operand.Mem {
	return operand.Mem{Base: base, Disp: disp, Index: index, Scale: scale}
}

// imm is an integer immediate of the smallest size x86 accepts: 8 or 32
// bits (avo prints the unsigned ones in hexadecimal).
func imm(x int) operand.Op {
	switch {
	case x >= 0 && x < 256:
		return operand.U8(x)
	case x >= 0:
		return operand.U32(x)
	case x >= -128:
		return operand.I8(x)
	}
	return operand.I32(int32(x))
}

// imm32 is a 32-bit immediate, for the instructions without an 8-bit form
// (TESTQ).
func imm32(x int) operand.Op { return operand.U32(x) }

func lbl(name string) operand.LabelRef { return operand.LabelRef(name) }

// param returns the address of a component of the function's arguments,
// e.g. param("x", "base") for x_base+0(FP).
func (g *x86) param(name string, part ...string) operand.Mem {
	c := g.Param(name)
	for _, p := range part {
		switch p {
		case "base":
			c = c.Base()
		case "len":
			c = c.Len()
		}
	}
	b, err := c.Resolve()
	if err != nil {
		panic(err)
	}
	return b.Addr
}

// result returns the address of the function's result.
func (g *x86) result() operand.Mem { return g.resultAt(0) }

// resultAt is the address of the function's result number i.
func (g *x86) resultAt(i int) operand.Mem {
	b, err := g.ReturnIndex(i).Resolve()
	if err != nil {
		panic(err)
	}
	return b.Addr
}

// pcalign aligns the next instruction (a loop head) to n bytes.
func (g *x86) pcalign(n int) {
	g.Instruction(&ir.Instruction{Opcode: "PCALIGN", Operands: []operand.Op{operand.Imm(uint64(n))}})
}

// The element-type-dependent instructions: the PS/SS form for float32,
// PD/SD for float64.

func (g *x86) pick(s, d func(...operand.Op), ops ...operand.Op) {
	if g.t.is32() {
		s(ops...)
		return
	}
	d(ops...)
}

func (g *x86) movu(ops ...operand.Op) { g.pick(g.VMOVUPS, g.VMOVUPD, ops...) }
func (g *x86) movuZ(m, k, r operand.Op) {
	if g.t.is32() {
		g.VMOVUPS_Z(m, k, r)
		return
	}
	g.VMOVUPD_Z(m, k, r)
}
func (g *x86) mova(ops ...operand.Op)      { g.pick(g.VMOVAPS, g.VMOVAPD, ops...) }
func (g *x86) fmadd231(ops ...operand.Op)  { g.pick(g.VFMADD231PS, g.VFMADD231PD, ops...) }
func (g *x86) fmadd213(ops ...operand.Op)  { g.pick(g.VFMADD213PS, g.VFMADD213PD, ops...) }
func (g *x86) fnmadd231(ops ...operand.Op) { g.pick(g.VFNMADD231PS, g.VFNMADD231PD, ops...) }
func (g *x86) add(ops ...operand.Op)       { g.pick(g.VADDPS, g.VADDPD, ops...) }
func (g *x86) sub(ops ...operand.Op)       { g.pick(g.VSUBPS, g.VSUBPD, ops...) }
func (g *x86) mul(ops ...operand.Op)       { g.pick(g.VMULPS, g.VMULPD, ops...) }
func (g *x86) max(ops ...operand.Op)       { g.pick(g.VMAXPS, g.VMAXPD, ops...) }
func (g *x86) and(ops ...operand.Op)       { g.pick(g.VANDPS, g.VANDPD, ops...) }
func (g *x86) andn(ops ...operand.Op)      { g.pick(g.VANDNPS, g.VANDNPD, ops...) }
func (g *x86) xor(ops ...operand.Op)       { g.pick(g.VXORPS, g.VXORPD, ops...) }
func (g *x86) cmp(ops ...operand.Op)       { g.pick(g.VCMPPS, g.VCMPPD, ops...) }
func (g *x86) broadcast(ops ...operand.Op) { g.pick(g.VBROADCASTSS, g.VBROADCASTSD, ops...) }
func (g *x86) movs(ops ...operand.Op)      { g.pick(g.VMOVSS, g.VMOVSD, ops...) }
func (g *x86) adds(ops ...operand.Op)      { g.pick(g.VADDSS, g.VADDSD, ops...) }
func (g *x86) subs(ops ...operand.Op)      { g.pick(g.VSUBSS, g.VSUBSD, ops...) }
func (g *x86) muls(ops ...operand.Op)      { g.pick(g.VMULSS, g.VMULSD, ops...) }
func (g *x86) fmadd231s(ops ...operand.Op) { g.pick(g.VFMADD231SS, g.VFMADD231SD, ops...) }
func (g *x86) fmadd213s(ops ...operand.Op) { g.pick(g.VFMADD213SS, g.VFMADD213SD, ops...) }

// zero clears vector register i with the VEX form on its YMM name, which
// clears the whole register (ZMM included).
func (g *x86) zero(i ...int) {
	for _, r := range i {
		g.xor(yr[r], yr[r], yr[r])
	}
}

// shiftBytes turns the element count in r into a byte count.
func (g *x86) shiftBytes(r reg.Register) { g.SHLQ(operand.Imm(uint64(g.t.shift)), r) }

// hsum sets X0[0] to the sum of the lanes of Y0 (clobbers X1): fold the
// high 128 bits onto the low, then (float32) the high 64 bits, then lane 1
// onto lane 0.
func (g *x86) hsum() {
	g.VEXTRACTF128(operand.Imm(1), reg.Y0, reg.X1)
	g.add(reg.X1, reg.X0, reg.X0)
	g.hsumX()
}

// hsumX sets X0[0] to the sum of the lanes of X0 (clobbers X1).
func (g *x86) hsumX() {
	if g.t.is32() {
		g.VMOVHLPS(reg.X0, reg.X0, reg.X1)
		g.add(reg.X1, reg.X0, reg.X0)
		g.VMOVSHDUP(reg.X0, reg.X1)
	} else {
		g.VUNPCKHPD(reg.X0, reg.X0, reg.X1)
	}
	g.adds(reg.X1, reg.X0, reg.X0)
}

// fold adds the high half of ZMM register z onto its low half, in the YMM
// register of the same number (clobbers Y t).
func (g *x86) fold(z, t int) {
	g.VEXTRACTF64X4(operand.Imm(1), zr[z], yr[t])
	g.add(yr[t], yr[z], yr[z])
}

// rows4 puts the sums of the lanes of Y0, Y1, Y2 and Y3 (four rows of a
// matvec block) in the lanes of X0 (float32) or Y0 (float64); clobbers Y1
// and Y2. With a..d the lanes of Y0..Y3:
//
//	float32: VHADDPS Y1, Y0, Y0 → [a01 a23 b01 b23 | a45 a67 b45 b67]
//	         VHADDPS Y3, Y2, Y2 → [c01 c23 d01 d23 | c45 c67 d45 d67]
//	         VHADDPS Y2, Y0, Y0 → [a0-3 b0-3 c0-3 d0-3 | a4-7 b4-7 c4-7 d4-7]
//	         high half onto low → [a b c d]
//	float64: VHADDPD Y1, Y0, Y0 → [a01 b01 | a23 b23]
//	         VHADDPD Y3, Y2, Y2 → [c01 d01 | c23 d23]
//	         VPERM2F128 $0x21   → [a23 b23 | c01 d01]
//	         VBLENDPD $0x0c     → [a01 b01 | c23 d23], add → [a b c d]
func (g *x86) rows4() {
	if g.t.is32() {
		g.VHADDPS(reg.Y1, reg.Y0, reg.Y0)
		g.VHADDPS(reg.Y3, reg.Y2, reg.Y2)
		g.VHADDPS(reg.Y2, reg.Y0, reg.Y0)
		g.VEXTRACTF128(operand.Imm(1), reg.Y0, reg.X1)
		g.add(reg.X1, reg.X0, reg.X0)
		return
	}
	g.VHADDPD(reg.Y1, reg.Y0, reg.Y0)
	g.VHADDPD(reg.Y3, reg.Y2, reg.Y2)
	g.VPERM2F128(operand.Imm(0x21), reg.Y2, reg.Y0, reg.Y1)
	g.VBLENDPD(operand.Imm(0x0c), reg.Y2, reg.Y0, reg.Y0)
	g.add(reg.Y1, reg.Y0, reg.Y0)
}

// kmask sets K1 to one bit per element for the byte count in CX
// (clobbering CX and AX): (1 << CX/size) − 1.
func (g *x86) kmask() {
	g.SHRQ(operand.Imm(uint64(g.t.shift)), reg.RCX)
	g.tailMask(reg.EAX)
}

// tailMask sets K1 to the low CX bits, (1 << CX) − 1 (CX < 16), through
// the 32-bit register r.
func (g *x86) tailMask(r reg.Register) {
	g.MOVL(imm32(1), r)
	g.shlCL(r)
	g.DECL(r)
	g.KMOVW(r, reg.K1)
}

// tailMaskQ sets K1 to the low CX bits, (1 << CX) − 1 (CX < 64: one bit
// per byte of a ZMM), through AX.
func (g *x86) tailMaskQ() {
	g.MOVL(imm32(1), reg.EAX)
	g.Instruction(&ir.Instruction{Opcode: "SHLQ", Operands: []operand.Op{reg.RCX, reg.RAX}})
	g.DECQ(reg.RAX)
	g.KMOVQ(reg.RAX, reg.K1)
}

// shlCL emits SHLL CX, r: the Go assembler names the count register CX
// (avo's form would print CL), as the asmemu interpreter reads it.
func (g *x86) shlCL(r reg.Register) {
	g.Instruction(&ir.Instruction{Opcode: "SHLL", Operands: []operand.Op{reg.RCX, r}})
}

// rodataNoptr are the attributes of a constant table.
const rodataNoptr = attr.RODATA | attr.NOPTR
