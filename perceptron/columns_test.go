package perceptron

import (
	"encoding/binary"
	"errors"
	"math"
	"runtime"
	"strings"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/linear"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/internal/modelfile"
)

// wideSparse returns n rows of k classes over d columns, each row a few
// values in the first used columns (about d/8 of them used).
func wideSparse(seed uint64, n, d, k int) *dataset.CSR[float32] {
	rng := newRand(seed)
	c := &dataset.CSR[float32]{Ptr: []int{0}, Rows: n, Cols: d}
	for i := range n {
		y := i % k
		last := int32(-1)
		for range 6 {
			j := last + 1 + int32(rng.IntN(d/48))
			if int(j) >= d {
				break
			}
			c.Idx = append(c.Idx, j)
			c.Val = append(c.Val, float32(rng.NormFloat64())+float32(y))
			last = j
		}
		c.Ptr = append(c.Ptr, len(c.Idx))
		c.Y = append(c.Y, y)
	}
	return c
}

// TestColumnsFile: a model that uses a few of many columns is written with
// those columns alone (version 4), a fraction of the dense file, and reads
// back to a model that predicts every form bit for bit as the trained one
// and writes the same bytes again; so for the averaged model's state. A
// model that uses every column is written dense (version 2), as before.
func TestColumnsFile(t *testing.T) {
	const d = 4096
	X := wideSparse(1, 300, d, 3)
	for _, tc := range []struct {
		name string
		opt  Options
	}{
		{"online", Options{MaxIter: 5}},
		{"averaged", Options{Algorithm: linear.Averaged, MaxIter: 5, Shuffle: true, Seed: 2}},
		{"averaged-all", Options{Algorithm: linear.Averaged, MaxIter: 5, Stop: StopNever}},
		{"svm", Options{Algorithm: linear.SVM, MaxIter: 3, Lambda: 1e-3}},
		{"argmax", Options{MaxIter: 5, Multiclass: fit.Argmax}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, _, err := trainMultiSparse(X, X.Y, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			data := mustMarshal(t, m)
			if v := binary.LittleEndian.Uint16(data[8:]); v != columnsVersion {
				t.Fatalf("version %d, want %d (the used columns)", v, columnsVersion)
			}
			rows, arrays := m.NumScores(), 1
			if tc.opt.Algorithm == linear.Averaged {
				arrays = 3
			}
			if dense := arrays * rows * d * 4; len(data) > dense/4 {
				t.Errorf("%d bytes, the dense weights alone %d", len(data), dense)
			}
			var back linear.Model[float32]
			if err := back.UnmarshalBinary(data); err != nil {
				t.Fatal(err)
			}
			if again := mustMarshal(t, &back); string(again) != string(data) {
				t.Error("the file read back writes other bytes")
			}
			sameEveryForm(t, m, &back, X)
		})
	}
	// Every column used: dense rows, version 2.
	Xd, y := intMulticlass(newRand(3), 60, 8, 3)
	m, _, err := trainMulti(to32(Xd), 8, y, Options{MaxIter: 5})
	if err != nil {
		t.Fatal(err)
	}
	if v := binary.LittleEndian.Uint16(mustMarshal(t, m)[8:]); v != fileVersion {
		t.Errorf("a model using every column: version %d, want %d", v, fileVersion)
	}
}

// sameEveryForm checks that b predicts X's rows, dense and sparse, one
// by one and batched, with the bits a does.
func sameEveryForm(t *testing.T, a, b *linear.Model[float32], X *dataset.CSR[float32]) {
	t.Helper()
	r := a.NumScores()
	sa, sb := make([]float32, X.Rows*r), make([]float32, X.Rows*r)
	la, lb := make([]int, X.Rows), make([]int, X.Rows)
	same := func(form string) {
		t.Helper()
		for i := range sa {
			if math.Float32bits(sa[i]) != math.Float32bits(sb[i]) {
				t.Fatalf("%s: score %d: %v, the trained model's %v", form, i, sb[i], sa[i])
			}
		}
		for i := range la {
			if la[i] != lb[i] {
				t.Fatalf("%s: label %d: %d, the trained model's %d", form, i, lb[i], la[i])
			}
		}
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(a.ScoresBatchSparse(sa, X))
	must(b.ScoresBatchSparse(sb, X))
	must(a.PredictBatchSparse(la, X))
	must(b.PredictBatchSparse(lb, X))
	same("sparse batch")
	for i := range X.Rows {
		must(a.ScoresSparse(sa[i*r:(i+1)*r], X.Row(i)))
		must(b.ScoresSparse(sb[i*r:(i+1)*r], X.Row(i)))
		var err error
		la[i], err = a.PredictSparse(X.Row(i))
		must(err)
		lb[i], err = b.PredictSparse(X.Row(i))
		must(err)
	}
	same("sparse")
	dense := make([]float32, X.Rows*X.Cols)
	for i := range X.Rows {
		row := X.Row(i)
		for k, j := range row.Idx {
			dense[i*X.Cols+int(j)] = row.Val[k]
		}
	}
	must(a.ScoresBatch(sa, dense))
	must(b.ScoresBatch(sb, dense))
	must(a.PredictBatch(la, dense))
	must(b.PredictBatch(lb, dense))
	same("dense batch")
	for i := range X.Rows {
		x := dense[i*X.Cols : (i+1)*X.Cols]
		must(a.Scores(sa[i*r:(i+1)*r], x))
		must(b.Scores(sb[i*r:(i+1)*r], x))
		var err error
		la[i], err = a.Predict(x)
		must(err)
		lb[i], err = b.Predict(x)
		must(err)
	}
	same("dense")
}

// TestColumnsFileBad: the used columns out of order, repeated or beyond D,
// more of them than D, or in a voted model's file, are ErrCorrupt.
func TestColumnsFileBad(t *testing.T) {
	X := wideSparse(4, 200, 2048, 3)
	m, _, err := trainMultiSparse(X, X.Y, Options{MaxIter: 3})
	if err != nil {
		t.Fatal(err)
	}
	data := mustMarshal(t, m)
	off := headerSize + 8*3 // the first column, after the labels and the state
	if data[13]&flagState != 0 {
		off += stateSize
	}
	edit := func(f func(b []byte)) []byte {
		b := append([]byte(nil), data...)
		f(b)
		binary.LittleEndian.PutUint32(b[len(b)-4:], modelfile.Checksum(b[:len(b)-4]))
		return b
	}
	u := int(binary.LittleEndian.Uint32(data[24:]))
	for name, b := range map[string][]byte{
		"repeated": edit(func(b []byte) { copy(b[off+4:], b[off:off+4]) }),
		"beyond D": edit(func(b []byte) { binary.LittleEndian.PutUint32(b[off+4*(u-1):], 2048) }),
		"order":    edit(func(b []byte) { binary.LittleEndian.PutUint32(b[off:], 2047) }),
		"voted":    edit(func(b []byte) { b[12] = byte(linear.Voted) }),
		"U > D":    edit(func(b []byte) { binary.LittleEndian.PutUint32(b[24:], 4096) }),
	} {
		var back linear.Model[float32]
		if err := back.UnmarshalBinary(b); !errors.Is(err, linear.ErrCorrupt) {
			t.Errorf("%s: %v, want ErrCorrupt", name, err)
		}
	}
}

// TestResumable: without Options.Resumable a file holds the served model
// alone (an averaged model's a third of the values), predicts the same
// bits, and refuses to continue; with it the file continues exactly as the
// fit would have, and a model read from it writes the state again.
func TestResumable(t *testing.T) {
	Xm, ym := intMulticlass(newRand(21), 120, 40, 3)
	X := to32(Xm)
	train := func(resumable bool, epochs int) *linear.Model[float32] {
		m, _, err := trainMulti(X, 40, ym, Options{Algorithm: linear.Averaged, MaxIter: epochs, Stop: StopNever, Resumable: resumable})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	served, full := mustMarshal(t, train(false, 2)), mustMarshal(t, train(true, 2))
	if served[13]&flagState != 0 || full[13]&flagState == 0 {
		t.Fatalf("state flags %#x and %#x", served[13], full[13])
	}
	if n := 3 * (40 + 1) * 4; len(full)-len(served) < 2*n {
		t.Errorf("%d bytes without the state, %d with: want the running weights and sums (%d bytes) gone", len(served), len(full), 2*n)
	}
	var a, b linear.Model[float32]
	if err := a.UnmarshalBinary(served); err != nil {
		t.Fatal(err)
	}
	if err := b.UnmarshalBinary(full); err != nil {
		t.Fatal(err)
	}
	csr, err := dataset.FromDense(&dataset.Data[float32]{X: X, Y: ym, Rows: 120, Cols: 40})
	if err != nil {
		t.Fatal(err)
	}
	sameEveryForm(t, &b, &a, csr)
	if _, _, err := continueDense(&a, X, 40, ym, Options{Algorithm: linear.Averaged, MaxIter: 1}); !errors.Is(err, linear.ErrUnsupported) {
		t.Errorf("continueDense without the state: %v", err)
	}
	if _, err := a.Update(X[:40], ym[0]); !errors.Is(err, linear.ErrUnsupported) {
		t.Errorf("Update without the state: %v", err)
	}
	if string(mustMarshal(t, &b)) != string(full) {
		t.Error("a model read with its state does not write it again")
	}
	got, _, err := continueDense(&b, X, 40, ym, Options{Algorithm: linear.Averaged, MaxIter: 1, Stop: StopNever, Resumable: true})
	if err != nil {
		t.Fatal(err)
	}
	if string(mustMarshal(t, got)) != string(mustMarshal(t, train(true, 3))) {
		t.Error("two epochs, a file and one more are not three epochs")
	}
}

// TestColumnsFileClaims: a version-4 file may not claim features far beyond
// what it holds (a 100-byte file of 2³⁰ features is refused, having
// allocated little), and an averaged model with its state read from the
// used columns continues exactly as the model that wrote it.
func TestColumnsFileClaims(t *testing.T) {
	X := wideSparse(5, 240, 4096, 3)
	m, _, err := trainMultiSparse(X, X.Y, Options{Algorithm: linear.Averaged, MaxIter: 3, Stop: StopNever, Resumable: true})
	if err != nil {
		t.Fatal(err)
	}
	data := mustMarshal(t, m)
	if binary.LittleEndian.Uint16(data[8:]) != columnsVersion || data[13]&flagState == 0 {
		t.Fatal("not a version-4 file with the state")
	}
	var back linear.Model[float32]
	if err := back.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	opt := Options{Algorithm: linear.Averaged, MaxIter: 1, Stop: StopNever, Resumable: true}
	want, _, err := continueSparse(m, X, X.Y, opt)
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := continueSparse(&back, X, X.Y, opt)
	if err != nil {
		t.Fatal(err)
	}
	if string(mustMarshal(t, got)) != string(mustMarshal(t, want)) {
		t.Error("the model read from the used columns continues differently")
	}

	// The same header claiming 2³⁰ features and no used column: the file
	// holds the biases and the state alone.
	head := append([]byte(nil), data[:headerSize+8*3+stateSize]...)
	binary.LittleEndian.PutUint32(head[16:], 1<<30) // D
	binary.LittleEndian.PutUint32(head[24:], 0)     // M: no used column
	for range 3 * 3 {                               // B, CB, UB: 3 rows each
		head = binary.LittleEndian.AppendUint32(head, 0)
	}
	head = append(head, 0, 0, 0, 0)
	binary.LittleEndian.PutUint32(head[len(head)-4:], modelfile.Checksum(head[:len(head)-4]))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	err = back.UnmarshalBinary(head)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, linear.ErrCorrupt) || !strings.Contains(err.Error(), "bitmap") {
		t.Errorf("a %d-byte file of 2³⁰ features: %v, want ErrCorrupt (the bitmap's claim)", len(head), err)
	}
	if d := after.TotalAlloc - before.TotalAlloc; d > 1<<20 {
		t.Errorf("refusing it allocated %d bytes", d)
	}
}
