// Package hwcheck runs assembly on the CPU for hwcheck.py, which compares
// the results with emu.py's. hwcheck.py copies this directory, a generated
// conds_amd64.s and gram's micro-kernel files into a temporary module.
package hwcheck

// conds sets out[2i] to the result of flag-setting instruction i of
// conds_amd64.s on x and y, and out[2i+1] to the set of Go conditional jumps
// taken after it (bit j for jump j).
//
//go:noescape
func conds(x, y int64, out *uint64)

// vec runs the program of vec_amd64.s.
//
//go:noescape
func vec(in *float32, ind *float64, k uint64, out *float32)

// ivec runs the program of ivec_amd64.s.
//
//go:noescape
func ivec(in *byte, k uint64, out *byte)

// vnni runs VPDPBUSD (AVX512_VNNI); see ivec_amd64.s.
//
//go:noescape
func vnni(in *byte, out *byte)

// avxvnni runs the AVX-VNNI {vex} VPDPBUSD (BYTEs); see ivec_amd64.s.
//
//go:noescape
func avxvnni(in *byte, out *byte)

//go:noescape
func sgemm12x32(kc int, a, b, c *float32, ldc int, acc int)

//go:noescape
func dgemm12x16(kc int, a, b, c *float64, ldc int, acc int)

//go:noescape
func sgemm6x16(kc int, a, b, c *float32, ldc int, acc int)

//go:noescape
func dgemm6x8(kc int, a, b, c *float64, ldc int, acc int)
