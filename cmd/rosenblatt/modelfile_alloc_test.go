package main

import (
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"os"
	"path/filepath"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/expansion"
	"github.com/rosenblatt-go/rosenblatt/linear"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/internal/memtest"
	"github.com/rosenblatt-go/rosenblatt/perceptron"
	"github.com/rosenblatt-go/rosenblatt/quant"
	"github.com/rosenblatt-go/rosenblatt/svm"
)

// hugeHeaders returns, for a model file of every kind, its first 96 bytes
// with the header's D raised to 2³⁰, L to 1024 and M (support vectors) to
// 2³⁰ — weights of 2⁴⁰ values, or as many support vector values — and a
// valid checksum after them: a 100-byte file whose header implies
// terabytes (quant: 64 MiB, its largest; and one perceptron of 768 MiB).
func hugeHeaders(t *testing.T) map[string][]byte {
	t.Helper()
	X := []float32{0, 0, 1, 1, 0, 1, 1, 0, 2, 2, 2, 0}
	y3 := []int{0, 1, 2, 0, 1, 2}
	out := map[string][]byte{}
	// add patches D, L (unless 0) and, for kernel models, M.
	add := func(name string, b []byte, err error, d, l uint32) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		h := append([]byte(nil), b[:96]...)
		binary.LittleEndian.PutUint32(h[16:], d)
		if l != 0 {
			binary.LittleEndian.PutUint32(h[20:], l)
		}
		if h[11] >= 16 && h[11] < 40 { // kernel models: M support vectors
			binary.LittleEndian.PutUint32(h[24:], 1<<30)
		}
		out[name] = binary.LittleEndian.AppendUint32(h, crc32.Checksum(h, crc32.MakeTable(crc32.Castagnoli)))
	}
	lin, _, err := perceptron.Fit(context.Background(), dataset.NewData(X, 2, y3), y3, perceptron.Options{MaxIter: 2})
	if err != nil {
		t.Fatal(err)
	}
	b, err := lin.MarshalBinary()
	add("perceptron", b, err, 1<<30, 1024)
	// 3 rows of 2²⁶ weights, 768 MiB: less than a pipe may send, so the
	// reader waits for the bytes, holding what arrived.
	add("perceptron 768 MiB", b, err, 1<<26, 0)
	q, err := quant.New(lin)
	if err != nil {
		t.Fatal(err)
	}
	b, err = q.MarshalBinary()
	add("quant", b, err, 66311, 1024) // the most features quant stores, 64 MiB of weights
	km, _, err := perceptron.FitKernel(context.Background(), dataset.NewData(X, 2, y3), y3, perceptron.KernelOptions{Options: perceptron.Options{MaxIter: 2}, Kernel: gram.RBF{Gamma: 1}})
	if err != nil {
		t.Fatal(err)
	}
	b, err = km.MarshalBinary()
	add("kernel perceptron", b, err, 1<<30, 1024)
	sm, _, err := svm.Fit(context.Background(), dataset.NewData(X, 2, y3), y3, svm.Options{Kernel: gram.RBF{Gamma: 1}})
	if err != nil {
		t.Fatal(err)
	}
	b, err = sm.MarshalBinary()
	add("kernel svm", b, err, 1<<30, 1024)
	ls, _, err := svm.FitLinear(context.Background(), dataset.NewData(X, 2, y3), y3, svm.LinearOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b, err = ls.MarshalBinary()
	add("linear svm", b, err, 1<<30, 1024)
	return out
}

// TestHugeHeaderAllocations: a 100-byte model file whose header implies
// terabytes is refused, by the library's decoders given the bytes and by
// the command reading the file (regular, or a FIFO, which is read in
// pieces as the bytes arrive), having allocated less than 1 MiB.
func TestHugeHeaderAllocations(t *testing.T) {
	const bound = 1 << 20
	dir := t.TempDir()
	for name, h := range hugeHeaders(t) {
		t.Run(name, func(t *testing.T) {
			if len(h) != 100 {
				t.Fatalf("%d bytes", len(h))
			}
			var err error
			alloc := memtest.Allocated(func() {
				switch name {
				case "perceptron", "perceptron 768 MiB":
					err = new(linear.Model[float32]).UnmarshalBinary(h)
				case "kernel perceptron":
					err = new(expansion.Model[float32]).UnmarshalBinary(h)
				case "kernel svm":
					err = new(expansion.Model[float32]).UnmarshalBinary(h)
				case "linear svm":
					err = new(linear.Model[float32]).UnmarshalBinary(h)
				case "quant":
					_, err = quant.Unmarshal(h)
				}
			})
			t.Logf("UnmarshalBinary: %v (%d bytes allocated)", err, alloc)
			if err == nil || alloc > bound {
				t.Errorf("UnmarshalBinary: %v, %d bytes allocated", err, alloc)
			}
			p := filepath.Join(dir, name+".model")
			if err := os.WriteFile(p, h, 0o644); err != nil {
				t.Fatal(err)
			}
			alloc = memtest.Allocated(func() { _, err = loadModel(p) })
			t.Logf("loadModel: %v (%d bytes allocated)", err, alloc)
			if !errors.Is(err, linear.ErrCorrupt) && !errors.Is(err, svm.ErrCorrupt) && !errors.Is(err, expansion.ErrCorrupt) || alloc > bound {
				t.Errorf("loadModel of the file: %v, %d bytes allocated", err, alloc)
			}
			if fifo := mkfifo(t, dir, name); fifo != "" {
				go func() {
					f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
					if err == nil {
						f.Write(h)
						f.Close()
					}
				}()
				alloc = memtest.Allocated(func() { _, err = loadModel(fifo) })
				t.Logf("loadModel of a FIFO: %v (%d bytes allocated)", err, alloc)
				if err == nil || alloc > bound {
					t.Errorf("loadModel of a FIFO: %v, %d bytes allocated", err, alloc)
				}
			}
		})
	}
}
