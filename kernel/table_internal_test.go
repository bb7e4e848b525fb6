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

// tableOf returns im's kernels for T as function values (tests).
func tableOf[T Float](im *Impl) funcs[T] {
	id := im.id
	return funcs[T]{
		dot:    func(x, y []T) T { return dotOn(id, x, y) },
		sqdist: func(x, y []T) T { return sqdistOn(id, x, y) },
		axpy:   func(a T, x, y []T) { axpyOn(id, a, x, y) },
		scale:  func(a T, x []T) { scaleOn(id, a, x) },
		matvec: func(dst, m, w []T) { matvecOn(id, dst, m, w) },
	}
}

// The ...On functions route a call on []T to the float32 or float64
// dispatch switch of the architecture file (dot32, dot64, ...), as the
// exported functions do inline.

func dotOn[T Float](id ID, x, y []T) T {
	if is32[T]() {
		return T(dot32(id, f32s(x), f32s(y)))
	}
	return T(dot64(id, f64s(x), f64s(y)))
}

func sqdistOn[T Float](id ID, x, y []T) T {
	if is32[T]() {
		return T(sqdist32(id, f32s(x), f32s(y)))
	}
	return T(sqdist64(id, f64s(x), f64s(y)))
}

func axpyOn[T Float](id ID, a T, x, y []T) {
	if is32[T]() {
		axpy32(id, float32(a), f32s(x), f32s(y))
		return
	}
	axpy64(id, float64(a), f64s(x), f64s(y))
}

func scaleOn[T Float](id ID, a T, x []T) {
	if is32[T]() {
		scale32(id, float32(a), f32s(x))
		return
	}
	scale64(id, float64(a), f64s(x))
}

func matvecOn[T Float](id ID, dst, m, w []T) {
	if is32[T]() {
		matvec32(id, f32s(dst), f32s(m), f32s(w))
		return
	}
	matvec64(id, f64s(dst), f64s(m), f64s(w))
}
