package dataset

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
)

// makeIDX builds an IDX file with the given element type, dimensions and data.
func makeIDX(typ byte, dims []uint32, data []byte) []byte {
	b := []byte{0, 0, typ, byte(len(dims))}
	for _, d := range dims {
		b = binary.BigEndian.AppendUint32(b, d)
	}
	return append(b, data...)
}

func seq(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i * 7)
	}
	return b
}

func TestReadIDXValid(t *testing.T) {
	tests := []struct {
		name string
		dims []uint32
	}{
		{"images", []uint32{3, 4, 5}},
		{"labels", []uint32{10}},
		{"empty", []uint32{0, 28, 28}},
		{"many dims", []uint32{2, 1, 3, 1, 2}},
	}
	for _, tt := range tests {
		n := 1
		for _, d := range tt.dims {
			n *= int(d)
		}
		raw := makeIDX(0x08, tt.dims, seq(n))
		for _, gz := range []bool{false, true} {
			in := raw
			if gz {
				in = gzipBytes(t, raw)
			}
			m, err := ReadIDX(bytes.NewReader(in))
			if err != nil {
				t.Fatalf("%s gzip=%v: %v", tt.name, gz, err)
			}
			wantDims := make([]int, len(tt.dims))
			for i, d := range tt.dims {
				wantDims[i] = int(d)
			}
			if !slices.Equal(m.Dims, wantDims) || !bytes.Equal(m.Data, seq(n)) {
				t.Fatalf("%s gzip=%v: got dims %v, %d bytes", tt.name, gz, m.Dims, len(m.Data))
			}
		}
	}
}

func TestReadIDXErrors(t *testing.T) {
	good := makeIDX(0x08, []uint32{2, 3}, seq(6))
	badCRC := gzipBytes(t, good)
	badCRC[len(badCRC)-8] ^= 1 // the CRC-32 is the 8th to 5th last byte
	tests := []struct {
		name string
		in   []byte
		kind error
	}{
		{"empty input", nil, ErrTruncated},
		{"short magic", []byte{0, 0}, ErrTruncated},
		{"bad magic", []byte{1, 0, 8, 1, 0, 0, 0, 0}, ErrFormat},
		{"text file", []byte("1 1:0.5\n"), ErrFormat},
		{"int32 elements", makeIDX(0x0C, []uint32{1}, []byte{0, 0, 0, 1}), ErrUnsupported},
		{"float32 elements", makeIDX(0x0D, []uint32{1}, []byte{0, 0, 0, 1}), ErrUnsupported},
		{"unknown element type", makeIDX(0x07, []uint32{1}, []byte{0}), ErrFormat},
		{"zero dimensions", []byte{0, 0, 8, 0}, ErrFormat},
		{"truncated dimensions", good[:9], ErrTruncated},
		{"truncated data", good[:len(good)-1], ErrTruncated},
		{"no data", good[:12], ErrTruncated},
		{"trailing byte", append(slices.Clone(good), 0), ErrFormat},
		{"overflowing dimensions", makeIDX(0x08, []uint32{math.MaxUint32, math.MaxUint32, math.MaxUint32}, nil), ErrTooLarge},
		{"huge claim", makeIDX(0x08, []uint32{1 << 16, 1 << 16, 1 << 4}, seq(100)), ErrTruncated},
		{"gzip truncated header", gzipBytes(t, good)[:5], ErrTruncated},
		{"gzip truncated stream", gzipBytes(t, good)[:20], ErrTruncated},
		{"gzip bad checksum", badCRC, ErrFormat},
		{"gzip of a truncated file", gzipBytes(t, good[:len(good)-2]), ErrTruncated},
		{"gzip of a huge claim", gzipBytes(t, makeIDX(0x08, []uint32{1 << 20, 1 << 20}, seq(10))), ErrTruncated},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := ReadIDX(bytes.NewReader(tt.in))
			if !errors.Is(err, tt.kind) {
				t.Fatalf("got %v, %v; want %v", m, err, tt.kind)
			}
		})
	}
}

// TestReadIDXNoHugeAllocation checks that headers announcing far more data
// than the input holds fail without allocating for the announced size.
func TestReadIDXNoHugeAllocation(t *testing.T) {
	tests := []struct {
		name string
		in   []byte
	}{
		{"raw 1 TiB", makeIDX(0x08, []uint32{1 << 20, 1 << 20}, seq(1000))},
		{"raw 4 GiB", makeIDX(0x08, []uint32{1 << 16, 1 << 16}, seq(3<<20))},
		{"gzip 1 TiB", gzipBytes(t, makeIDX(0x08, []uint32{1 << 20, 1 << 20}, seq(1000)))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := ReadIDX(bytes.NewReader(tt.in))
			runtime.ReadMemStats(&after)
			if !errors.Is(err, ErrTruncated) {
				t.Fatalf("got %v, want ErrTruncated", err)
			}
			// Buffers grow by doubling from 1 MiB with what was read, so
			// allocation stays within a small multiple of the input.
			limit := uint64(4*len(tt.in)) + 4<<20
			if got := after.TotalAlloc - before.TotalAlloc; got > limit {
				t.Fatalf("allocated %d bytes for %d bytes of input (limit %d)", got, len(tt.in), limit)
			}
		})
	}
}

func TestReadIDXReaderError(t *testing.T) {
	boom := errors.New("boom")
	good := makeIDX(0x08, []uint32{2, 3}, seq(6))
	if _, err := ReadIDX(iotestDataThenErr(string(good[:10]), boom)); !errors.Is(err, boom) {
		t.Fatalf("got %v, want %v", err, boom)
	}
}

// writeIDXPair writes an image and a label IDX file to a temporary
// directory and returns their paths.
func writeIDXPair(t *testing.T, images, labels []byte) (string, string) {
	t.Helper()
	dir := t.TempDir()
	ip, lp := filepath.Join(dir, "images.idx"), filepath.Join(dir, "labels.idx.gz")
	if err := os.WriteFile(ip, images, 0o644); err != nil {
		t.Fatal(err)
	}
	writeGzip(t, lp, labels)
	return ip, lp
}

func TestLoadIDXPair(t *testing.T) {
	pixels := []byte{0, 1, 2, 127, 128, 254, 255, 3, 51, 0, 0, 200}
	ip, lp := writeIDXPair(t, makeIDX(0x08, []uint32{3, 2, 2}, pixels), makeIDX(0x08, []uint32{3}, []byte{9, 0, 4}))
	d, err := LoadIDXPair(ip, lp, float64(1)/255)
	if err != nil {
		t.Fatal(err)
	}
	if d.Rows != 3 || d.Cols != 4 || !slices.Equal(d.Y, []int{9, 0, 4}) {
		t.Fatalf("got %dx%d labels %v", d.Rows, d.Cols, d.Y)
	}
	for i, p := range pixels {
		if want := float64(p) / 255; d.X[i] != want {
			t.Fatalf("X[%d] = %v, want %v = %d/255", i, d.X[i], want, p)
		}
	}
	d32, err := LoadIDXPair(ip, lp, float32(1)/255)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range pixels {
		if want := float32(float64(p) / 255); d32.X[i] != want {
			t.Fatalf("float32 X[%d] = %v, want %v", i, d32.X[i], want)
		}
	}
	draw, err := LoadIDXPair(ip, lp, float32(2))
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range pixels {
		if draw.X[i] != 2*float32(p) {
			t.Fatalf("scale 2: X[%d] = %v", i, draw.X[i])
		}
	}
}

// TestPixelDiv255 checks the whole 1/255 table: pixel/255 correctly rounded,
// which pixel*(1/255) is not for every pixel.
func TestPixelDiv255(t *testing.T) {
	var pixels [256]byte
	for i := range pixels {
		pixels[i] = byte(i)
	}
	ip, lp := writeIDXPair(t, makeIDX(0x08, []uint32{1, 256}, pixels[:]), makeIDX(0x08, []uint32{1}, []byte{1}))
	d, err := LoadIDXPair(ip, lp, 1.0/255)
	if err != nil {
		t.Fatal(err)
	}
	differ := 0
	for p := range 256 {
		if d.X[p] != float64(p)/255 {
			t.Fatalf("pixel %d: %v, want %v", p, d.X[p], float64(p)/255)
		}
		if float64(p)*(1.0/255) != float64(p)/255 {
			differ++
		}
	}
	// Otherwise this test could not tell the two computations apart.
	if differ == 0 {
		t.Fatal("p*(1/255) == p/255 for every pixel")
	}
	t.Logf("%d of 256 pixels differ between p*(1/255) and p/255", differ)
}

func TestLoadIDXPairErrors(t *testing.T) {
	img := makeIDX(0x08, []uint32{2, 2}, seq(4))
	tests := []struct {
		name           string
		images, labels []byte
		scale          float32
		kind           error
	}{
		{"count mismatch", img, makeIDX(0x08, []uint32{3}, seq(3)), 1, ErrMismatch},
		{"2-D labels", img, makeIDX(0x08, []uint32{2, 1}, seq(2)), 1, ErrMismatch},
		{"no images", makeIDX(0x08, []uint32{0, 2}, nil), makeIDX(0x08, []uint32{0}, nil), 1, ErrEmpty},
		{"NaN scale", img, makeIDX(0x08, []uint32{2}, seq(2)), float32(math.NaN()), ErrInvalid},
		{"overflowing scale", img, makeIDX(0x08, []uint32{2}, seq(2)), 1e37, ErrInvalid},
		{"corrupt images", img[:7], makeIDX(0x08, []uint32{2}, seq(2)), 1, ErrTruncated},
		{"corrupt labels", img, []byte{0, 0, 9, 1, 0, 0, 0, 2, 1, 1}, 1, ErrUnsupported},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ip, lp := writeIDXPair(t, tt.images, tt.labels)
			if _, err := LoadIDXPair(ip, lp, tt.scale); !errors.Is(err, tt.kind) {
				t.Fatalf("got %v, want %v", err, tt.kind)
			}
		})
	}
	if _, err := LoadIDXPair[float64]("testdata/none", "testdata/none", 1); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing files: got %v", err)
	}
}
