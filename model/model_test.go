package model_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/expansion"
	"github.com/rosenblatt-go/rosenblatt/linear"

	"github.com/rosenblatt-go/rosenblatt/model"
)

// onlyReader hides every method of r but Read: input of unknown length.
type onlyReader struct{ r io.Reader }

func (o onlyReader) Read(p []byte) (int, error) { return o.r.Read(p) }

func readFixture(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata/fixtures", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestLoadReader reads every fixture from a reader of unknown length and
// from bytes, and gets the model LoadFile gets.
func TestLoadReader(t *testing.T) {
	for _, f := range fixtures(t) {
		data := readFixture(t, f.File)
		want, err := model.LoadFile(filepath.Join("testdata/fixtures", f.File))
		if err != nil {
			t.Fatal(err)
		}
		for name, load := range map[string]func() (model.Model, error){
			"reader":    func() (model.Model, error) { return model.Load(onlyReader{bytes.NewReader(data)}) },
			"unmarshal": func() (model.Model, error) { return model.Unmarshal(data) },
		} {
			m, err := load()
			if err != nil {
				t.Fatalf("%s %s: %v", f.File, name, err)
			}
			if m.String() != want.String() {
				t.Errorf("%s %s: %v, want %v", f.File, name, m, want)
			}
			a, _ := model.Marshal(m, model.Binary)
			b, _ := model.Marshal(want, model.Binary)
			if !bytes.Equal(a, b) {
				t.Errorf("%s %s: not the same model", f.File, name)
			}
		}
	}
}

func TestLoadErrors(t *testing.T) {
	bin := readFixture(t, "perceptron-ovr-f32.model")
	js := readFixture(t, "kernel-svm-ovo-f64.json")
	flip := bytes.Clone(bin)
	flip[len(flip)-10] ^= 1
	long := append(bytes.Clone(bin), 0)
	cases := []struct {
		name string
		data []byte
		want []error
	}{
		{"empty", nil, []error{model.ErrFormat}},
		{"text", []byte("hello"), []error{model.ErrFormat}},
		{"libsvm rows", []byte("1 1:0.5\n"), []error{model.ErrFormat}},
		{"checksum", flip, []error{model.ErrCorrupt, linear.ErrCorrupt}},
		{"truncated", bin[:len(bin)-1], []error{model.ErrCorrupt}},
		{"header only", bin[:40], []error{model.ErrCorrupt}},
		{"padded", long, []error{model.ErrCorrupt, model.ErrTooLarge}},
		{"json cut", js[:len(js)/2], []error{model.ErrCorrupt}},
		{"json null coefficient", []byte(strings.Replace(string(js), `"coefficients":[0,`, `"coefficients":[null,`, 1)), []error{model.ErrCorrupt, expansion.ErrCorrupt}},
	}
	for _, c := range cases {
		for name, load := range map[string]func() (model.Model, error){
			"reader":    func() (model.Model, error) { return model.Load(onlyReader{bytes.NewReader(c.data)}) },
			"unmarshal": func() (model.Model, error) { return model.Unmarshal(c.data) },
		} {
			if name == "unmarshal" && c.name == "padded" {
				continue // Unmarshal is given the bytes whole: the decoder's padding error
			}
			m, err := load()
			if err == nil {
				t.Errorf("%s %s: loaded %v", c.name, name, m)
				continue
			}
			for _, w := range c.want {
				if !errors.Is(err, w) {
					t.Errorf("%s %s: %v, not %v", c.name, name, err, w)
				}
			}
		}
	}
}

// TestLoadClaimedSize: a header that claims gigabytes, sent a few bytes at
// a time, is refused having allocated about what arrived.
func TestLoadClaimedSize(t *testing.T) {
	bin := readFixture(t, "perceptron-ovr-f32.model")
	huge := bytes.Clone(bin[:48])
	binary.LittleEndian.PutUint32(huge[16:], 1<<30) // D: 2³⁰ features, 3 classes: 12 GiB of weights
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := model.Options{MaxBytes: 1 << 40}.Load(onlyReader{bytes.NewReader(huge)})
	runtime.ReadMemStats(&after)
	if !errors.Is(err, model.ErrCorrupt) {
		t.Errorf("err = %v, want ErrCorrupt (truncated)", err)
	}
	if d := after.TotalAlloc - before.TotalAlloc; d > 4<<20 {
		t.Errorf("allocated %d bytes for a 48-byte input", d)
	}
	_, err = model.Options{MaxBytes: 1 << 20, Flag: "-max-model-bytes"}.Load(onlyReader{bytes.NewReader(huge)})
	if !errors.Is(err, model.ErrTooLarge) || !strings.Contains(err.Error(), "-max-model-bytes") || !strings.Contains(err.Error(), "1 MiB") {
		t.Errorf("err = %v, want ErrTooLarge naming the limit and the flag", err)
	}
	// A regular file is bounded by its size: the same header in a file is
	// truncated, whatever MaxBytes.
	p := filepath.Join(t.TempDir(), "huge.model")
	if err := os.WriteFile(p, huge, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := model.LoadFile(p); !errors.Is(err, model.ErrCorrupt) || !strings.HasPrefix(err.Error(), p+": ") {
		t.Errorf("LoadFile: %v, want ErrCorrupt naming the file", err)
	}
	// A JSON file over MaxBytes.
	js := readFixture(t, "perceptron-ovr-f64.json")
	if _, err := (model.Options{MaxBytes: int64(len(js) - 1)}).Load(onlyReader{bytes.NewReader(js)}); !errors.Is(err, model.ErrTooLarge) {
		t.Errorf("JSON over the limit: %v", err)
	}
	if _, err := (model.Options{MaxBytes: int64(len(js))}).Load(onlyReader{bytes.NewReader(js)}); err != nil {
		t.Errorf("JSON at the limit: %v", err)
	}
}

func TestAs(t *testing.T) {
	m, err := model.LoadFile("testdata/fixtures/linear-svm-ovr-f64.json")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := model.As[float32](m); !errors.Is(err, model.ErrType) {
		t.Errorf("As[float32] of a float64 model: %v", err)
	}
	if _, err := model.As[float64](m); err != nil {
		t.Error(err)
	}
	q, err := model.LoadFile("testdata/fixtures/quant-ovr.model")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := model.As[float32](q); err != nil {
		t.Errorf("a quantised model is a Classifier[float32]: %v", err)
	}
	if _, err := model.Marshal(q, model.JSON); !errors.Is(err, model.ErrUnsupported) {
		t.Errorf("quantised JSON: %v", err)
	}
}

func TestSaveFile(t *testing.T) {
	dir := t.TempDir()
	for _, f := range fixtures(t) {
		m, err := model.LoadFile(filepath.Join("testdata/fixtures", f.File))
		if err != nil {
			t.Fatal(err)
		}
		for _, format := range []model.Format{model.Binary, model.JSON} {
			p := filepath.Join(dir, f.File+"."+format.String())
			err := model.SaveFile(p, m, format)
			if errors.Is(err, model.ErrUnsupported) && format == model.JSON && model.KindOf(m) >= model.QuantBinary {
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			back, err := model.LoadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			a, _ := model.Marshal(m, model.Binary)
			b, _ := model.Marshal(back, model.Binary)
			if !bytes.Equal(a, b) {
				t.Errorf("%s: %s round trip changed the model", f.File, format)
			}
		}
	}
	// An existing file keeps its mode; a failed write leaves the target
	// and no temporary file.
	m, _ := model.LoadFile("testdata/fixtures/perceptron-binary-f32.model")
	p := filepath.Join(dir, "kept.model")
	if err := os.WriteFile(p, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := model.SaveFile(p, m, model.Binary); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600 kept", fi.Mode().Perm())
	}
	q, _ := model.LoadFile("testdata/fixtures/quant-binary.model")
	before, _ := os.ReadFile(p)
	if err := model.SaveFile(p, q, model.JSON); !errors.Is(err, model.ErrUnsupported) {
		t.Errorf("SaveFile quantised JSON: %v", err)
	}
	after, _ := os.ReadFile(p)
	if !bytes.Equal(before, after) {
		t.Error("a refused save changed the target")
	}
	ro := filepath.Join(dir, "ro")
	if err := os.Mkdir(ro, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := model.SaveFile(filepath.Join(ro, "dir.model"), m, model.Binary); err != nil {
		t.Fatal(err)
	}
	if err := model.SaveFile(ro, m, model.Binary); err == nil { // a directory at the path
		t.Error("saved over a directory")
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), "tmp-") {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
}
