package parity

import (
	"encoding/binary"
	"math"

	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// The encodings of Floats, chosen by the first byte of the fuzz input
// modulo 8, so that the fuzzer reaches each kind of hard input, and the
// same bytes always give the same values.
const (
	modeBits         = iota // raw IEEE 754 bits, little-endian: every value
	modeIntegers            // int8 values: sums exact while they stay within T's integers
	modeDyadic              // int16·2⁻⁸: dyadic fractions of varied magnitude
	modeSubnormal           // subnormals and zeros of either sign
	modeNaN                 // NaNs of every payload and sign among ordinary values
	modeCancellation        // terms that cancel in a sum and in a dot product
	modeRange               // ±m·2ᵉ over T's whole exponent range
	modeSpecial             // ±0, ±1, ±Inf, NaN, the extremes of T
	modes
)

// Integers reports whether Floats decodes data as small integers (int8
// values): a sum or dot product of them is exact, and must then equal the
// plain loop's exactly, while the sum of the magnitudes stays at or under
// 2²⁴ for float32, 2⁵³ for float64.
func Integers(data []byte) bool { return len(data) == 0 || data[0]%modes == modeIntegers }

// Floats turns fuzz bytes into values of T. The first byte modulo 8 picks
// the encoding of the rest:
//
//	0  raw IEEE 754 bits, little-endian (4 or 8 bytes a value): every
//	   value, NaN payloads and subnormals included, but rarely the hard ones
//	1  int8 values (1 byte a value): see Integers
//	2  int16·2⁻⁸ (2 bytes a value): dyadic fractions from 2⁻⁸ to 2⁷
//	3  subnormals (and zeros) of either sign, from the bits of 4 or 8 bytes
//	4  a NaN with the payload and sign of the next bytes where a byte's
//	   low two bits are 0, else a small dyadic value (1 + size bytes)
//	5  catastrophic cancellation (3 bytes for six values): the first half
//	   of the values holds A, −A, a and the second half B, B, b, so that
//	   Split gives a dot product whose large terms AB and −AB cancel
//	   exactly and leave the small a·b (which an order that adds a·b to
//	   AB first loses), and the first half sums to its small terms
//	6  ±m·2ᵉ with m a byte and e spanning T's exponents from its smallest
//	   subnormal to overflow (2 bytes a value)
//	7  special values (1 byte a value): ±0, ±1, ±Inf, a quiet NaN, a
//	   signalling NaN, ±the largest finite value, the smallest normal and
//	   subnormal, 1 ± an ulp
//
// Empty data gives no values. Trailing bytes too few for a value are
// ignored.
func Floats[T kernel.Float](data []byte) []T {
	if len(data) == 0 {
		return nil
	}
	mode, data := data[0]%modes, data[1:]
	size := 8
	if is32[T]() {
		size = 4
	}
	var vals []T
	switch mode {
	case modeIntegers:
		for _, b := range data {
			vals = append(vals, T(int8(b)))
		}
	case modeDyadic:
		for ; len(data) >= 2; data = data[2:] {
			vals = append(vals, T(math.Ldexp(float64(int16(binary.LittleEndian.Uint16(data))), -8)))
		}
	case modeSubnormal:
		for ; len(data) >= size; data = data[size:] {
			b := word(data, size)
			if size == 4 {
				vals = append(vals, T(math.Float32frombits(uint32(b)&^(0xff<<23))))
			} else {
				vals = append(vals, T(math.Float64frombits(b&^(0x7ff<<52))))
			}
		}
	case modeNaN:
		for ; len(data) >= 1+size; data = data[1+size:] {
			b := word(data[1:], size)
			if data[0]&3 != 0 {
				vals = append(vals, T(math.Ldexp(float64(int8(data[1])), -(int(data[0]>>2)%16))))
				continue
			}
			// Exponent all ones and a non-zero fraction: a NaN, quiet or
			// signalling, with the rest of the bits as its payload.
			if size == 4 {
				vals = append(vals, T(math.Float32frombits(uint32(b)|0xff<<23|1)))
			} else {
				vals = append(vals, T(math.Float64frombits(b|0x7ff<<52|1)))
			}
		}
	case modeCancellation:
		var xs, ys []T
		for ; len(data) >= 3; data = data[3:] {
			// A and B large (2¹⁰ to 2²⁰ times an odd int8 for float32,
			// 2³⁰ to 2⁶⁰ for float64, so that AB stays finite and
			// exact), a and b small.
			half := 10
			if size == 8 {
				half = 30
			}
			A := math.Ldexp(float64(int8(data[0])|1), half+int(data[2])%half)
			B := math.Ldexp(float64(int8(data[1])|1), half+int(data[2]>>4)%half)
			xs = append(xs, T(A), T(-A), T(int8(data[2])))
			ys = append(ys, T(B), T(B), T(float64(int8(data[1]))/8))
		}
		vals = append(xs, ys...)
	case modeRange:
		lo, hi := -1074, 1023
		if size == 4 {
			lo, hi = -149, 127
		}
		for ; len(data) >= 2; data = data[2:] {
			e := lo + int(data[1])*(hi+8-lo)/255 // up to 2^(hi+8): ±m·2ᵉ overflows
			vals = append(vals, T(math.Ldexp(float64(int8(data[0])), e)))
		}
	case modeSpecial:
		for _, b := range data {
			vals = append(vals, special[T](b))
		}
	default: // modeBits
		for ; len(data) >= size; data = data[size:] {
			b := word(data, size)
			if size == 4 {
				vals = append(vals, T(math.Float32frombits(uint32(b))))
			} else {
				vals = append(vals, T(math.Float64frombits(b)))
			}
		}
	}
	return vals
}

// word returns the first size (4 or 8) bytes of data, little-endian.
func word(data []byte, size int) uint64 {
	if size == 4 {
		return uint64(binary.LittleEndian.Uint32(data))
	}
	return binary.LittleEndian.Uint64(data)
}

// special returns the special value b picks.
func special[T kernel.Float](b byte) T {
	nan32, snan32 := math.Float32frombits(0x7fc00001), math.Float32frombits(0x7f800001)
	nan64, snan64 := math.Float64frombits(0x7ff8000000000001), math.Float64frombits(0x7ff0000000000001)
	largest, minNormal, tinyV := maxValue[T](), 0x1p-126, tiny[T]()
	ulp := Unit[T]() * 2
	if !is32[T]() {
		minNormal = 0x1p-1022
	}
	sign := 1.0
	if b&0x80 != 0 {
		sign = -1
	}
	switch (b & 0x7f) % 10 {
	case 0:
		return T(math.Copysign(0, sign))
	case 1:
		return T(sign)
	case 2:
		return T(math.Inf(int(sign)))
	case 3:
		if is32[T]() {
			return T(nan32)
		}
		return T(nan64)
	case 4:
		if is32[T]() {
			return T(snan32)
		}
		return T(snan64)
	case 5:
		return T(sign * largest)
	case 6:
		return T(sign * minNormal)
	case 7:
		return T(sign * tinyV)
	case 8:
		return T(sign * (1 + ulp))
	}
	return T(sign * (1 - ulp/2))
}

// Split returns the first and second halves of v as two vectors of equal
// length (an odd v's last value is left out), each with its capacity cut
// to its length so that an append cannot write into the other.
func Split[T kernel.Float](v []T) (x, y []T) {
	n := len(v) / 2
	return v[:n:n], v[n : 2*n : 2*n]
}
