//go:build purego || !(amd64 || arm64)

package kernel

// archImpls: this build has no assembly; the generic implementation is all.
func archImpls() []*Impl { return nil }

// The dispatch switches: each calls the implementation named by id
// directly (a direct call reaches the assembly without an ABI wrapper),
// and the portable Go code for IDGeneric or any id this build lacks.

func dot32(_ ID, x, y []float32) float32 {
	return dotGeneric(x, y)
}

func sqdist32(_ ID, x, y []float32) float32 {
	return sqdistGeneric(x, y)
}

func axpy32(_ ID, a float32, x, y []float32) {
	axpyGeneric(a, x, y)
}

func scale32(_ ID, a float32, x []float32) {
	scaleGeneric(a, x)
}

func matvec32(_ ID, dst, m, w []float32) {
	matvecGeneric(dst, m, w)
}

func dot64(_ ID, x, y []float64) float64 {
	return dotGeneric(x, y)
}

func sqdist64(_ ID, x, y []float64) float64 {
	return sqdistGeneric(x, y)
}

func axpy64(_ ID, a float64, x, y []float64) {
	axpyGeneric(a, x, y)
}

func scale64(_ ID, a float64, x []float64) {
	scaleGeneric(a, x)
}

func matvec64(_ ID, dst, m, w []float64) {
	matvecGeneric(dst, m, w)
}
