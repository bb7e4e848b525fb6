package online

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// The log is a sequence of segment files, wal-<first sequence number>.log,
// each a header and then records, appended and never rewritten:
//
//	header  0  8  magic "RBWAL\x00\x00\x01"
//	        8  4  element size (4 or 8)
//	        12 4  features per sample (the model's)
//	        16 32 SHA-256 of the base model file
//	        48 4  CRC-32C (Castagnoli) of bytes 0–47
//	record  0  4  n, the payload's length
//	        4  4  CRC-32C of the payload
//	        8  n  payload: sequence number u64, key length u16, key,
//	              sample count u32, then each sample: label i64, stored
//	              values u32 (0xFFFFFFFF: dense, the model's width),
//	              the columns (u32 each) of a sparse sample, the values
//
// integers little-endian, values IEEE 754 little-endian. A record is one
// request, applied whole or not at all.

const (
	walMagic   = "RBWAL\x00\x00\x01"
	walHeader  = 52
	recHeader  = 8
	denseCount = math.MaxUint32
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

func segName(first uint64) string { return fmt.Sprintf("wal-%020d.log", first) }

// segments lists the segment files of dir by first sequence number.
func segments(dir string) ([]uint64, error) {
	return listSeq(dir, "wal-", ".log")
}

func listSeq(dir, prefix, suffix string) ([]uint64, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []uint64
	for _, e := range ents {
		n := e.Name()
		if !strings.HasPrefix(n, prefix) || !strings.HasSuffix(n, suffix) || !e.Type().IsRegular() {
			continue
		}
		v, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimPrefix(n, prefix), suffix), 10, 64)
		if err != nil {
			continue
		}
		out = append(out, v)
	}
	slices.Sort(out)
	return out, nil
}

func walHeaderBytes(elem, dims int, base [32]byte) []byte {
	h := make([]byte, walHeader)
	copy(h, walMagic)
	binary.LittleEndian.PutUint32(h[8:], uint32(elem))
	binary.LittleEndian.PutUint32(h[12:], uint32(dims))
	copy(h[16:48], base[:])
	binary.LittleEndian.PutUint32(h[48:], crc32.Checksum(h[:48], castagnoli))
	return h
}

// parseWALHeader checks a segment's header.
func parseWALHeader(h []byte) (elem, dims int, base [32]byte, err error) {
	if len(h) < walHeader {
		return 0, 0, base, fmt.Errorf("header of %d bytes, torn", len(h))
	}
	if string(h[:8]) != walMagic {
		return 0, 0, base, fmt.Errorf("not a log segment of this format (magic %q)", h[:8])
	}
	if crc32.Checksum(h[:48], castagnoli) != binary.LittleEndian.Uint32(h[48:]) {
		return 0, 0, base, fmt.Errorf("header checksum mismatch")
	}
	copy(base[:], h[16:48])
	return int(binary.LittleEndian.Uint32(h[8:])), int(binary.LittleEndian.Uint32(h[12:])), base, nil
}

func elemSize[T kernel.Float]() int {
	var z T
	return int(unsafe.Sizeof(z))
}

func putVals[T kernel.Float](b []byte, v []T) []byte {
	if elemSize[T]() == 4 {
		for _, x := range v {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(x)))
		}
		return b
	}
	for _, x := range v {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(float64(x)))
	}
	return b
}

// appendRecord appends the record of a request to b.
func appendRecord[T kernel.Float](b []byte, seq uint64, key string, xs []Sample[T]) []byte {
	at := len(b)
	b = append(b, make([]byte, recHeader)...)
	b = binary.LittleEndian.AppendUint64(b, seq)
	b = binary.LittleEndian.AppendUint16(b, uint16(len(key)))
	b = append(b, key...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(xs)))
	for _, x := range xs {
		b = binary.LittleEndian.AppendUint64(b, uint64(int64(x.Y)))
		if x.Idx == nil {
			b = binary.LittleEndian.AppendUint32(b, denseCount)
		} else {
			b = binary.LittleEndian.AppendUint32(b, uint32(len(x.Idx)))
			for _, j := range x.Idx {
				b = binary.LittleEndian.AppendUint32(b, uint32(j))
			}
		}
		b = putVals(b, x.X)
	}
	p := b[at+recHeader:]
	binary.LittleEndian.PutUint32(b[at:], uint32(len(p)))
	binary.LittleEndian.PutUint32(b[at+4:], crc32.Checksum(p, castagnoli))
	return b
}

// record is a decoded record.
type record[T kernel.Float] struct {
	seq uint64
	key string
	xs  []Sample[T]
}

// decodeRecord decodes a payload whose checksum matched; dims is the
// model's width. It refuses a payload that does not parse whole.
func decodeRecord[T kernel.Float](p []byte, dims int) (record[T], error) {
	var r record[T]
	es := elemSize[T]()
	short := fmt.Errorf("payload ends inside a field")
	if len(p) < 14 {
		return r, short
	}
	r.seq = binary.LittleEndian.Uint64(p)
	kl := int(binary.LittleEndian.Uint16(p[8:]))
	p = p[10:]
	if len(p) < kl+4 {
		return r, short
	}
	r.key = string(p[:kl])
	n := int(binary.LittleEndian.Uint32(p[kl:]))
	p = p[kl+4:]
	// Each sample takes at least 12 bytes: n is bounded by the payload.
	if n > len(p)/12 {
		return r, fmt.Errorf("%d samples in %d bytes", n, len(p))
	}
	r.xs = make([]Sample[T], n)
	for i := range r.xs {
		if len(p) < 12 {
			return r, short
		}
		x := &r.xs[i]
		x.Y = int(int64(binary.LittleEndian.Uint64(p)))
		c := binary.LittleEndian.Uint32(p[8:])
		p = p[12:]
		nv := dims
		if c != denseCount {
			nv = int(c)
			if nv > dims || len(p) < 4*nv {
				return r, short
			}
			x.Idx = make([]int32, nv)
			for j := range x.Idx {
				x.Idx[j] = int32(binary.LittleEndian.Uint32(p[4*j:]))
			}
			p = p[4*nv:]
		}
		if len(p) < es*nv {
			return r, short
		}
		x.X = make([]T, nv)
		for j := range x.X {
			if es == 4 {
				x.X[j] = T(math.Float32frombits(binary.LittleEndian.Uint32(p[4*j:])))
			} else {
				x.X[j] = T(math.Float64frombits(binary.LittleEndian.Uint64(p[8*j:])))
			}
		}
		p = p[es*nv:]
	}
	if len(p) != 0 {
		return r, fmt.Errorf("%d bytes after the last sample", len(p))
	}
	return r, nil
}

// scanSegment reads the records of a segment's bytes (after its header),
// calling each for every record whose checksum matches and that decodes,
// in order, until each fails or a record is torn or corrupt. It returns
// the offset (in data) of the end of the last good record and, if it
// stopped before the end of data, why.
func scanSegment[T kernel.Float](data []byte, dims int, maxRecord int, each func(record[T]) error) (good int, bad error) {
	off := 0
	for off < len(data) {
		rest := data[off:]
		if len(rest) < recHeader {
			return off, fmt.Errorf("torn record header at byte %d (%d bytes)", walHeader+off, len(rest))
		}
		n := int(binary.LittleEndian.Uint32(rest))
		if n > maxRecord || n > len(rest)-recHeader {
			return off, fmt.Errorf("torn or corrupt record at byte %d: length %d, %d bytes left", walHeader+off, n, len(rest)-recHeader)
		}
		p := rest[recHeader : recHeader+n]
		if crc32.Checksum(p, castagnoli) != binary.LittleEndian.Uint32(rest[4:]) {
			return off, fmt.Errorf("checksum mismatch in the record at byte %d", walHeader+off)
		}
		r, err := decodeRecord[T](p, dims)
		if err != nil {
			return off, fmt.Errorf("record at byte %d: %v", walHeader+off, err)
		}
		if err := each(r); err != nil {
			return off, fmt.Errorf("record at byte %d: %w", walHeader+off, err)
		}
		off += recHeader + n
	}
	return off, nil
}

// syncDir fsyncs a directory, so that the files created, renamed or
// removed in it persist.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// writeAtomic writes data to dir/name through a temporary file that is
// fsynced and renamed over name, then fsyncs dir.
func writeAtomic(dir, name string, data []byte) error {
	f, err := os.CreateTemp(dir, "."+name+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	ok := false
	defer func() {
		if !ok {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if _, err := f.Write(data); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, filepath.Join(dir, name)); err != nil {
		return err
	}
	ok = true
	return syncDir(dir)
}
