package perceptron

import (
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/expansion"
	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/linear"
)

// encodedFiles returns the binary file of every model kind of the tests:
// linear (every algorithm, binary, one-vs-rest, argmax) and kernel
// (float32 and float64, voted included).
func encodedFiles(t *testing.T) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	for name, m := range fileModels(t) {
		files["linear-"+name] = mustMarshal(t, m)
	}
	k32, _, _ := kernelModels[float32](t)
	for name, m := range k32 {
		b, err := m.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		files["kernel32-"+name] = b
	}
	k64, _, _ := kernelModels[float64](t)
	for name, m := range k64 {
		b, err := m.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		files["kernel64-"+name] = b
	}
	return files
}

// readSize drives EncodedSize as a reader does: it hands it the first need
// bytes of file until it returns a size.
func readSize(file []byte) (size int64, read int, err error) {
	var need int64
	for {
		if need > int64(len(file)) {
			return 0, read, errors.New("EncodedSize asks for more bytes than the file has")
		}
		read = int(need)
		size, need, err = EncodedSize(file[:need])
		if err != nil || need == 0 {
			return size, read, err
		}
		if need <= int64(read) {
			return 0, read, errors.New("EncodedSize asks for no more bytes than it had")
		}
	}
}

// EncodedSize gives every file's exact length from its leading bytes,
// reading less than the whole file: the header alone for every model but
// the voted kernel ones, which need their per-class counts too.
func TestEncodedSize(t *testing.T) {
	for name, file := range encodedFiles(t) {
		size, read, err := readSize(file)
		if err != nil || size != int64(len(file)) {
			t.Errorf("%s: EncodedSize = %d, %v; want the file's %d bytes", name, size, err, len(file))
			continue
		}
		voted := file[12] == byte(linear.Voted) && Kind(file[11]).IsKernel()
		switch {
		case !voted && read != headerSize:
			t.Errorf("%s: read %d bytes to know the size, want the %d-byte header", name, read, headerSize)
		case voted && (read <= headerSize || read >= len(file)):
			t.Errorf("%s: voted kernel model: read %d bytes of %d to know the size, want more than the header and less than the file", name, read, len(file))
		}
		// Any prefix either asks for more or gives the same size.
		for n := range len(file) + 1 {
			s, need, err := EncodedSize(file[:n])
			if err != nil || (need == 0) == (s == 0) || need != 0 && need <= int64(n) || s != 0 && s != int64(len(file)) {
				t.Fatalf("%s: EncodedSize of the first %d bytes = %d, %d, %v", name, n, s, need, err)
			}
		}
	}
}

// Every header EncodedSize rejects is rejected by the decoders too (with the
// checksum made valid again), so that a reader checking the header first
// refuses nothing a decoder accepts; and no header makes it panic or
// overflow.
func TestEncodedSizeRejectsOnlyBadFiles(t *testing.T) {
	decode := func(b []byte) error {
		if Kind(b[11]).IsKernel() {
			if b[10] == 8 {
				return new(expansion.Model[float64]).UnmarshalBinary(b)
			}
			return new(expansion.Model[float32]).UnmarshalBinary(b)
		}
		if b[10] == 8 {
			return new(linear.Model[float64]).UnmarshalBinary(b)
		}
		return new(linear.Model[float32]).UnmarshalBinary(b)
	}
	rejected := 0
	for name, file := range encodedFiles(t) {
		_, read, _ := readSize(file)
		for i := range read {
			for _, x := range []byte{1, 0x80, 0xff} {
				b := slices.Clone(file)
				b[i] ^= x
				reseal(b)
				_, _, err := readSize(b)
				if err == nil {
					continue
				}
				rejected++
				if !isErr(err, linear.ErrCorrupt) && !isErr(err, linear.ErrVersion) && err.Error() != "EncodedSize asks for more bytes than the file has" {
					t.Fatalf("%s, byte %d ^ %#x: EncodedSize: %v, want ErrCorrupt or ErrVersion", name, i, x, err)
				}
				if derr := decode(b); derr == nil {
					t.Fatalf("%s, byte %d ^ %#x: EncodedSize rejects the file (%v), the decoder accepts it", name, i, x, err)
				}
			}
		}
	}
	if rejected == 0 {
		t.Fatal("no header change was rejected")
	}
}

// Headers that claim more than an int64 of bytes are corrupt, not an
// overflowed size.
func TestEncodedSizeHuge(t *testing.T) {
	le := binary.LittleEndian
	head := func(esize byte, kind Kind, algo linear.Algorithm, d, labels, m uint32) []byte {
		b := []byte(fileMagic)
		b = le.AppendUint16(b, fileVersion)
		b = append(b, esize, byte(kind), byte(algo), flagBias, 0, 0)
		b = le.AppendUint32(b, d)
		b = le.AppendUint32(b, labels)
		b = le.AppendUint32(b, m)
		b = le.AppendUint32(b, 0)
		return le.AppendUint64(b, math.Float64bits(1))
	}
	for _, tc := range []struct {
		name string
		head []byte
		want int64 // 0: an error wrapping ErrCorrupt
	}{
		{"linear voted, max vectors and dims", head(8, Kind(fit.OneVsRest), linear.Voted, maxDims, maxLabels, math.MaxUint32), 0},
		{"linear ovr, max dims and labels", head(8, Kind(fit.OneVsRest), linear.Online, maxDims, maxLabels, 0),
			headerSize + 8*maxLabels + 8*maxLabels*(maxDims+1) + 4},
		{"kernel, max support vectors", head(8, KindKernelOneVsRest, linear.Online, 1<<20, maxLabels, maxKernelIndex),
			headerSize + 8*maxLabels + kernSpecSize + 4*maxKernelIndex + 8*maxKernelIndex<<20 + 8*maxLabels*(maxKernelIndex+1) + 4},
		{"kernel, max support vectors and dims", head(8, KindKernelOneVsRest, linear.Online, maxDims, maxLabels, maxKernelIndex), 0},
		{"kernel voted, max sizes", head(8, KindKernelOneVsRest, linear.Voted, maxDims, maxLabels, maxKernelIndex), 0},
	} {
		size, need, err := EncodedSize(tc.head)
		switch {
		case tc.want == 0 && !isErr(err, linear.ErrCorrupt):
			t.Errorf("%s: EncodedSize = %d, %d, %v; want ErrCorrupt", tc.name, size, need, err)
		case tc.want != 0 && (err != nil || size != tc.want):
			t.Errorf("%s: EncodedSize = %d, %d, %v; want %d", tc.name, size, need, err, tc.want)
		}
	}
}
