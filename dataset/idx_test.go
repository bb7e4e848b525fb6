package dataset

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"io"
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

func TestFashionMNISTArguments(t *testing.T) {
	if _, err := FashionMNIST[float32]("", "validation"); !errors.Is(err, ErrInvalid) {
		t.Fatalf("bad split: got %v", err)
	}
	if _, err := FashionMNIST[float32](t.TempDir(), "train"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("empty dir: got %v", err)
	}
	// Uncompressed files are found too.
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "t10k-images-idx3-ubyte"), makeIDX(0x08, []uint32{1, 2, 2}, seq(4)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "t10k-labels-idx1-ubyte"), makeIDX(0x08, []uint32{1}, []byte{7}), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := FashionMNIST[float32](dir, "t10k")
	if err != nil || d.Rows != 1 || d.Cols != 4 || d.Y[0] != 7 {
		t.Fatalf("got %v, %v", d, err)
	}
}

// fashionSHA256 are the hashes of the installed .gz files, from the shared
// data README.
var fashionSHA256 = map[string]string{
	"train-images-idx3-ubyte.gz": "b0564c3eedabfbf835052cff8503ea422014ce006caf5b757f851416ee8300c7",
	"train-labels-idx1-ubyte.gz": "0ae29f65d86684f32d1b9c85147786c547b9c6aebcaf235f0400a0cce308b056",
	"t10k-images-idx3-ubyte.gz":  "cc1d090a38ace84dfa1aa66e3ada7c336ef481a96936906477e6dd344da56eaa",
	"t10k-labels-idx1-ubyte.gz":  "8d3605d196f4be44669e46906da9733c8131fef761fdbfec72c424d5222f1a05",
}

func skipWithoutFashionMNIST(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(DefaultFashionMNISTDir, "t10k-labels-idx1-ubyte.gz")); err != nil {
		t.Skipf("Fashion-MNIST not installed in %s (apt-get install dataset-fashion-mnist): %v", DefaultFashionMNISTDir, err)
	}
}

func TestFashionMNISTFiles(t *testing.T) {
	skipWithoutFashionMNIST(t)
	for name, want := range fashionSHA256 {
		f, err := os.Open(filepath.Join(DefaultFashionMNISTDir, name))
		if err != nil {
			t.Fatal(err)
		}
		h := sha256.New()
		_, err = io.Copy(h, f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if got := hex.EncodeToString(h.Sum(nil)); got != want {
			t.Errorf("%s: sha256 %s, want %s (a different version of the data set?)", name, got, want)
		}
	}
}

func TestFashionMNIST(t *testing.T) {
	skipWithoutFashionMNIST(t)
	tests := []struct {
		split     string
		rows      int
		counts    []int // per class 0..9
		first10k  []int // per class in the first 10000 rows, if known
		short     bool  // run under -short
		nonzeroLo float64
		nonzeroHi float64
	}{
		{"t10k", 10000, []int{1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000}, nil, true, 0.49, 0.51},
		{"train", 60000, []int{6000, 6000, 6000, 6000, 6000, 6000, 6000, 6000, 6000, 6000},
			[]int{942, 1027, 1016, 1019, 974, 989, 1021, 1022, 990, 1000}, false, 0.49, 0.51},
	}
	for _, tt := range tests {
		t.Run(tt.split, func(t *testing.T) {
			if testing.Short() && !tt.short {
				t.Skip("reading the 47 MB training images is skipped under -short")
			}
			d, err := FashionMNIST[float32]("", tt.split)
			if err != nil {
				t.Fatal(err)
			}
			if d.Rows != tt.rows || d.Cols != 784 || len(d.X) != tt.rows*784 || len(d.Y) != tt.rows {
				t.Fatalf("shape %dx%d", d.Rows, d.Cols)
			}
			counts := make([]int, 10)
			for _, y := range d.Y {
				if y < 0 || y > 9 {
					t.Fatalf("label %d", y)
				}
				counts[y]++
			}
			if !slices.Equal(counts, tt.counts) {
				t.Errorf("label counts %v, want %v", counts, tt.counts)
			}
			if tt.first10k != nil {
				first := make([]int, 10)
				for _, y := range d.Y[:10000] {
					first[y]++
				}
				if !slices.Equal(first, tt.first10k) {
					t.Errorf("first 10000 label counts %v, want %v", first, tt.first10k)
				}
			}
			nz := 0
			for _, v := range d.X {
				if v < 0 || v > 1 {
					t.Fatalf("value %v outside [0, 1]", v)
				}
				if v != 0 {
					nz++
				}
				// Every value is k/255 for an integer k, correctly rounded.
				k := math.Round(float64(v) * 255)
				if v != float32(k/255) {
					t.Fatalf("value %v is not a correctly rounded pixel/255", v)
				}
			}
			if f := float64(nz) / float64(len(d.X)); f < tt.nonzeroLo || f > tt.nonzeroHi {
				t.Errorf("non-zero fraction %.4f, want about 0.498", f)
			}
			// Cross-check with the raw IDX bytes.
			img, err := LoadIDX(filepath.Join(DefaultFashionMNISTDir, tt.split+"-images-idx3-ubyte.gz"))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(img.Dims, []int{tt.rows, 28, 28}) {
				t.Fatalf("dims %v", img.Dims)
			}
			for i, p := range img.Data {
				if d.X[i] != float32(p)/255 {
					t.Fatalf("X[%d] = %v, pixel %d", i, d.X[i], p)
				}
			}
		})
	}
}
