package interop

import (
	"math"
	"math/big"
	"math/bits"
	"strconv"
	"sync"
)

// parseFloat parses tok as strconv.ParseFloat(tok, 64) does, bit for bit,
// faster for the decimal numbers model files hold (svm-train prints 17
// significant digits): an optional sign, digits with an optional point, an
// optional exponent. Such a number of at most 19 significant digits m and
// exponent e is m·10^e exactly, rounded once: by one float64 operation
// when m < 2⁵³ and |e| <= 22 (Clinger's fast path), else by the
// Eisel–Lemire algorithm (Lemire, "Number parsing at a gigabyte per
// second", 2021), a 64×128-bit product with a 128-bit approximation of
// 10^e, which either rounds correctly or reports that it cannot. Every
// other input (more digits, a far exponent, the rare undecided product,
// hexadecimal, underscores, "inf", malformed text) goes to
// strconv.ParseFloat, so the result and the error are strconv's.
func parseFloat(tok []byte) (float64, error) {
	if v, ok := fastFloat(tok); ok {
		return v, nil
	}
	return strconv.ParseFloat(string(tok), 64)
}

// fastFloat is parseFloat's fast path: ok is false where strconv must
// decide.
func fastFloat(b []byte) (float64, bool) {
	i, n := 0, len(b)
	neg := false
	if i < n && (b[i] == '+' || b[i] == '-') {
		neg = b[i] == '-'
		i++
	}
	var mant uint64
	nd, exp := 0, 0 // significant digits in mant; the power of ten of its last digit
	digits := 0
	for ; i < n && b[i]-'0' < 10; i++ {
		if mant == 0 && b[i] == '0' {
			digits++
			continue // a leading zero
		}
		if nd == 19 {
			return 0, false
		}
		mant = mant*10 + uint64(b[i]-'0')
		nd++
		digits++
	}
	if i < n && b[i] == '.' {
		i++
		for ; i < n && b[i]-'0' < 10; i++ {
			digits++
			exp--
			if mant == 0 && b[i] == '0' {
				continue
			}
			if nd == 19 {
				return 0, false
			}
			mant = mant*10 + uint64(b[i]-'0')
			nd++
		}
	}
	if digits == 0 {
		return 0, false
	}
	if i < n && b[i]|0x20 == 'e' {
		i++
		eneg := false
		if i < n && (b[i] == '+' || b[i] == '-') {
			eneg = b[i] == '-'
			i++
		}
		start, e := i, 0
		for ; i < n && b[i]-'0' < 10; i++ {
			if e < 10000 {
				e = e*10 + int(b[i]-'0')
			}
		}
		if i == start {
			return 0, false
		}
		if eneg {
			e = -e
		}
		exp += e
	}
	if i != n {
		return 0, false
	}
	if mant == 0 {
		if neg {
			return math.Copysign(0, -1), true
		}
		return 0, true
	}
	if mant < 1<<53 && exp >= -22 && exp <= 22 {
		f := float64(mant)
		if exp < 0 {
			f /= float64pow10[-exp]
		} else {
			f *= float64pow10[exp]
		}
		if neg {
			f = -f
		}
		return f, true
	}
	return eiselLemire(mant, exp, neg)
}

// float64pow10 holds the powers of ten exact in float64.
var float64pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// The powers of ten the Eisel–Lemire path covers: far enough for any
// model's values; others go to strconv.
const pow10Min, pow10Max = -80, 40

// pow10Table returns, for each e in [pow10Min, pow10Max], the 128 bits
// hi, lo of floor(10^e·2^k) for the k that puts it in [2¹²⁷, 2¹²⁸): the
// truncated approximation the algorithm is proved with (computed exactly
// with math/big, on first use).
var pow10Table = sync.OnceValue(func() [][2]uint64 {
	one, ten := big.NewInt(1), big.NewInt(10)
	mask := new(big.Int).Sub(new(big.Int).Lsh(one, 64), one)
	tab := make([][2]uint64, 0, pow10Max-pow10Min+1)
	for e := pow10Min; e <= pow10Max; e++ {
		p := new(big.Int).Exp(ten, big.NewInt(int64(max(e, -e))), nil)
		var d *big.Int
		if e >= 0 {
			// 10^e·2^k, k = 128 − bitlen (negative: a right shift).
			if s := 128 - p.BitLen(); s >= 0 {
				d = new(big.Int).Lsh(p, uint(s))
			} else {
				d = new(big.Int).Rsh(p, uint(-s))
			}
		} else {
			// floor(2^k / 10^−e), k = 127 + bitlen(10^−e): in
			// (2¹²⁷, 2¹²⁸), as 10^−e is no power of two.
			d = new(big.Int).Quo(new(big.Int).Lsh(one, uint(127+p.BitLen())), p)
		}
		hi := new(big.Int).Rsh(d, 64).Uint64()
		lo := new(big.Int).And(d, mask).Uint64()
		tab = append(tab, [2]uint64{hi, lo})
	}
	return tab
})

// eiselLemire returns mant·10^exp10 (negated if neg) correctly rounded,
// or ok = false when the 128-bit product cannot decide the rounding (or
// the result is subnormal, infinite or outside the table). mant > 0.
// It follows the Eisel–Lemire algorithm as Go's strconv implements it.
func eiselLemire(mant uint64, exp10 int, neg bool) (float64, bool) {
	if exp10 < pow10Min || exp10 > pow10Max {
		return 0, false
	}
	pow := pow10Table()[exp10-pow10Min]
	// Normalization.
	clz := bits.LeadingZeros64(mant)
	mant <<= uint(clz)
	const bias = 1023
	retExp2 := uint64(217706*exp10>>16+64+bias) - uint64(clz)
	// Multiplication.
	xHi, xLo := bits.Mul64(mant, pow[0])
	// Wider approximation.
	if xHi&0x1FF == 0x1FF && xLo+mant < mant {
		yHi, yLo := bits.Mul64(mant, pow[1])
		mergedHi, mergedLo := xHi, xLo+yHi
		if mergedLo < xLo {
			mergedHi++
		}
		if mergedHi&0x1FF == 0x1FF && mergedLo+1 == 0 && yLo+mant < mant {
			return 0, false
		}
		xHi, xLo = mergedHi, mergedLo
	}
	// Shifting to 54 bits.
	msb := xHi >> 63
	retMant := xHi >> (msb + 9)
	retExp2 -= 1 ^ msb
	// Half-way ambiguity.
	if xLo == 0 && xHi&0x1FF == 0 && retMant&3 == 1 {
		return 0, false
	}
	// From 54 to 53 bits.
	retMant += retMant & 1
	retMant >>= 1
	if retMant>>53 > 0 {
		retMant >>= 1
		retExp2++
	}
	if retExp2-1 >= 0x7FF-1 { // subnormal, or infinite
		return 0, false
	}
	b := retExp2<<52 | retMant&(1<<52-1)
	if neg {
		b |= 1 << 63
	}
	return math.Float64frombits(b), true
}
