package serve

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// AppendRequest appends to dst the binary request for the row-major samples
// X of d features each (len(X) must be a positive multiple of d), asking
// for the scores if scores is set. It panics on sizes that do not fit.
func AppendRequest[T kernel.Float](dst []byte, X []T, d int, scores bool) []byte {
	if d < 1 || len(X) == 0 || len(X)%d != 0 || uint64(len(X)/d) > math.MaxUint32 || uint64(d) > math.MaxUint32 {
		panic(fmt.Sprintf("serve.AppendRequest: %d values in rows of %d", len(X), d))
	}
	size := int(unsafe.Sizeof(X[0]))
	var flags byte
	if scores {
		flags = flagScores
	}
	dst = append(dst, requestMagic...)
	dst = append(dst, byte(size), flags, 0, 0)
	dst = le.AppendUint32(dst, uint32(len(X)/d))
	dst = le.AppendUint32(dst, uint32(d))
	for _, v := range X {
		if size == 4 {
			dst = le.AppendUint32(dst, math.Float32bits(float32(v)))
		} else {
			dst = le.AppendUint64(dst, math.Float64bits(float64(v)))
		}
	}
	return dst
}

// Response is a binary response, parsed.
type Response struct {
	// Labels holds one predicted label per row.
	Labels []int
	// Scores holds K decision values per row, row-major (converted to
	// float64 exactly), or nothing if the scores were not asked for.
	Scores []float64
	// K is the number of scores per row (0 without scores).
	K int
}

// ParseResponse parses the binary response data into r, reusing r's
// slices. An error wraps ErrFormat.
func ParseResponse(r *Response, data []byte) error {
	if len(data) < headerSize || string(data[:4]) != responseMagic {
		return fmt.Errorf("%w: not a binary response (%d bytes)", ErrFormat, len(data))
	}
	size, n, k := int(data[4]), uint64(le.Uint32(data[8:])), uint64(le.Uint32(data[12:]))
	if (k == 0) != (size == 0) || size != 0 && size != 4 && size != 8 {
		return fmt.Errorf("%w: score size %d with %d scores per row", ErrFormat, size, k)
	}
	if want := headerSize + 8*n + n*k*uint64(size); uint64(len(data)) != want {
		return fmt.Errorf("%w: %d bytes, the header implies %d", ErrFormat, len(data), want)
	}
	r.K = int(k)
	r.Labels = grow(&r.Labels, int(n))
	p := data[headerSize:]
	for i := range r.Labels {
		r.Labels[i] = int(int64(le.Uint64(p[8*i:])))
	}
	p = p[8*n:]
	r.Scores = grow(&r.Scores, int(n*k))
	for i := range r.Scores {
		if size == 4 {
			r.Scores[i] = float64(math.Float32frombits(le.Uint32(p[4*i:])))
		} else {
			r.Scores[i] = math.Float64frombits(le.Uint64(p[8*i:]))
		}
	}
	return nil
}
