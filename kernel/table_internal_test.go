package kernel

// funcs is one implementation's kernels for one element type as function
// values, for tests that call them one by one (see tableOf).
type funcs[T Float] struct {
	dot    func(x, y []T) T
	sqdist func(x, y []T) T
	axpy   func(a T, x, y []T)
	scale  func(a T, x []T)
	matvec func(dst, m, w []T)
}

// tableOf returns im's kernels for T as function values (tests): the
// Kernels methods, whose inline switch calls im's functions directly.
func tableOf[T Float](im *Impl) funcs[T] {
	k := Kernels[T]{im: im}
	return funcs[T]{dot: k.Dot, sqdist: k.SqDist, axpy: k.Axpy, scale: k.Scale, matvec: k.MatVec}
}
