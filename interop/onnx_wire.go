package interop

import (
	"encoding/binary"
	"fmt"
	"math"
)

// A minimal reader and writer of the protocol buffers wire format
// (https://protobuf.dev/programming-guides/encoding/): varints, fixed32,
// fixed64 and length-delimited fields, enough for the few messages of
// onnx.proto an ONNX-ML classifier needs. Nothing is allocated for a
// length or a count before the bytes that hold it have been seen.

// Wire types.
const (
	wireVarint  = 0
	wireFixed64 = 1
	wireBytes   = 2
	wireFixed32 = 5
)

// pbField is one field of a message: its number, wire type, and value
// (v for varints and fixed values, b for length-delimited bytes).
type pbField struct {
	num int
	typ int
	v   uint64
	b   []byte
}

// pbReader walks the fields of one message.
type pbReader struct {
	b    []byte
	path string // the message's field path, for errors
}

// pbErr returns a syntax error naming a field path.
func pbErr(path string, format string, args ...any) error {
	return fmt.Errorf("%w: field %s: %s", ErrSyntax, path, fmt.Sprintf(format, args...))
}

// uvarint decodes a varint at the start of b.
func uvarint(b []byte) (uint64, int) {
	var v uint64
	for i := 0; i < len(b) && i < 10; i++ {
		c := b[i]
		if i == 9 && c > 1 {
			return 0, -1 // overflows 64 bits
		}
		v |= uint64(c&0x7f) << (7 * i)
		if c < 0x80 {
			return v, i + 1
		}
	}
	return 0, -1
}

// next returns the next field, ok = false at the end of the message.
func (r *pbReader) next() (f pbField, ok bool, err error) {
	if len(r.b) == 0 {
		return f, false, nil
	}
	tag, n := uvarint(r.b)
	if n < 0 {
		return f, false, pbErr(r.path, "bad tag varint")
	}
	r.b = r.b[n:]
	f.num, f.typ = int(tag>>3), int(tag&7)
	if tag>>3 == 0 || tag>>3 > 1<<29-1 {
		return f, false, pbErr(r.path, "field number %d out of range", tag>>3)
	}
	switch f.typ {
	case wireVarint:
		if f.v, n = uvarint(r.b); n < 0 {
			return f, false, pbErr(r.path, "field %d: bad varint", f.num)
		}
		r.b = r.b[n:]
	case wireFixed64:
		if len(r.b) < 8 {
			return f, false, pbErr(r.path, "field %d: truncated fixed64", f.num)
		}
		f.v, r.b = binary.LittleEndian.Uint64(r.b), r.b[8:]
	case wireFixed32:
		if len(r.b) < 4 {
			return f, false, pbErr(r.path, "field %d: truncated fixed32", f.num)
		}
		f.v, r.b = uint64(binary.LittleEndian.Uint32(r.b)), r.b[4:]
	case wireBytes:
		l, n := uvarint(r.b)
		if n < 0 || l > uint64(len(r.b)-n) {
			return f, false, pbErr(r.path, "field %d: length beyond the message", f.num)
		}
		f.b, r.b = r.b[n:n+int(l)], r.b[n+int(l):]
	default:
		return f, false, pbErr(r.path, "field %d: wire type %d (groups are not used by onnx.proto)", f.num, f.typ)
	}
	return f, true, nil
}

// want checks a field's wire type.
func (f *pbField) want(path string, typ int) error {
	if f.typ != typ {
		return pbErr(path, "wire type %d, want %d", f.typ, typ)
	}
	return nil
}

// str returns a length-delimited field as a string.
func (f *pbField) str(path string) (string, error) {
	if err := f.want(path, wireBytes); err != nil {
		return "", err
	}
	return string(f.b), nil
}

// int64v returns a varint field as an int64 (two's complement, as
// protobuf encodes int64 and int32).
func (f *pbField) int64v(path string) (int64, error) {
	if err := f.want(path, wireVarint); err != nil {
		return 0, err
	}
	return int64(f.v), nil
}

// appendFloats appends a repeated float (fixed32) field, packed or not.
func appendFloats(dst []float32, f *pbField, path string) ([]float32, error) {
	switch f.typ {
	case wireFixed32:
		return append(dst, math.Float32frombits(uint32(f.v))), nil
	case wireBytes:
		if len(f.b)%4 != 0 {
			return nil, pbErr(path, "packed floats of %d bytes", len(f.b))
		}
		dst = growTo(dst, len(f.b)/4)
		for i := 0; i < len(f.b); i += 4 {
			dst = append(dst, math.Float32frombits(binary.LittleEndian.Uint32(f.b[i:])))
		}
		return dst, nil
	}
	return nil, pbErr(path, "wire type %d for floats", f.typ)
}

// appendDoubles appends a repeated double (fixed64) field, packed or not.
func appendDoubles(dst []float64, f *pbField, path string) ([]float64, error) {
	switch f.typ {
	case wireFixed64:
		return append(dst, math.Float64frombits(f.v)), nil
	case wireBytes:
		if len(f.b)%8 != 0 {
			return nil, pbErr(path, "packed doubles of %d bytes", len(f.b))
		}
		dst = growTo(dst, len(f.b)/8)
		for i := 0; i < len(f.b); i += 8 {
			dst = append(dst, math.Float64frombits(binary.LittleEndian.Uint64(f.b[i:])))
		}
		return dst, nil
	}
	return nil, pbErr(path, "wire type %d for doubles", f.typ)
}

// appendInts appends a repeated int64 or int32 (varint) field, packed or
// not.
func appendInts(dst []int64, f *pbField, path string) ([]int64, error) {
	switch f.typ {
	case wireVarint:
		return append(dst, int64(f.v)), nil
	case wireBytes:
		b := f.b
		for len(b) > 0 {
			v, n := uvarint(b)
			if n < 0 {
				return nil, pbErr(path, "bad packed varint")
			}
			dst, b = append(dst, int64(v)), b[n:]
		}
		return dst, nil
	}
	return nil, pbErr(path, "wire type %d for integers", f.typ)
}

// growTo makes room for n more elements, bounded by what the caller has
// already seen in the input.
func growTo[T any](s []T, n int) []T {
	if cap(s)-len(s) >= n {
		return s
	}
	out := make([]T, len(s), len(s)+n)
	copy(out, s)
	return out
}

// The writer.

func pbTag(b []byte, num, typ int) []byte {
	return binary.AppendUvarint(b, uint64(num)<<3|uint64(typ))
}

func pbVarint(b []byte, num int, v int64) []byte {
	return binary.AppendUvarint(pbTag(b, num, wireVarint), uint64(v))
}

func pbBytes(b []byte, num int, v []byte) []byte {
	b = binary.AppendUvarint(pbTag(b, num, wireBytes), uint64(len(v)))
	return append(b, v...)
}

func pbString(b []byte, num int, s string) []byte {
	b = binary.AppendUvarint(pbTag(b, num, wireBytes), uint64(len(s)))
	return append(b, s...)
}

func pbFloat(b []byte, num int, v float32) []byte {
	return binary.LittleEndian.AppendUint32(pbTag(b, num, wireFixed32), math.Float32bits(v))
}

// pbPackedFloats writes a packed repeated float field.
func pbPackedFloats(b []byte, num int, v []float32) []byte {
	b = binary.AppendUvarint(pbTag(b, num, wireBytes), uint64(4*len(v)))
	for _, x := range v {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
	}
	return b
}

// pbPackedInts writes a packed repeated int64 field.
func pbPackedInts(b []byte, num int, v []int64) []byte {
	var body []byte
	for _, x := range v {
		body = binary.AppendUvarint(body, uint64(x))
	}
	return pbBytes(b, num, body)
}
