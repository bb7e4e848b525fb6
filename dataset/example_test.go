package dataset_test

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/rosenblatt-go/rosenblatt/dataset"
)

func ExampleReadLIBSVM() {
	const text = `# label index:value ...
+1 1:0.5 3:2
-1 2:1.25
`
	d, err := dataset.ReadLIBSVM[float32](strings.NewReader(text), dataset.LIBSVMOptions{Cols: 3})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(d.Rows, d.Cols, d.Y)
	fmt.Println(d.Row(0), d.Row(1))
	// Output:
	// 2 3 [1 -1]
	// [0.5 0 2] [0 1.25 0]
}

func ExampleReadLIBSVM_error() {
	_, err := dataset.ReadLIBSVM[float64](strings.NewReader("+1 1:0.5 3:2\n-1 5:1 3:1\n"),
		dataset.LIBSVMOptions{File: "heart.libsvm"})
	fmt.Println(err)
	fmt.Println(errors.Is(err, dataset.ErrIndex))
	// Output:
	// heart.libsvm:2:8: index 3 not increasing (previous 5)
	// true
}

func ExampleLoadLIBSVM() {
	d, err := dataset.LoadLIBSVM[float64]("testdata/iris.train.libsvm", dataset.LIBSVMOptions{Cols: 4})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(d.Rows, d.Cols, d.Classes(), d.Row(0))
	// Output:
	// 120 4 [0 1 2] [4.8 3 1.4 0.3]
}

func ExampleReadCSV() {
	const text = "sepal_length,sepal_width,species\n5.1,3.5,0\n7.0,3.2,1\n"
	d, err := dataset.ReadCSV[float32](strings.NewReader(text),
		dataset.CSVOptions{LabelColumn: -1, Header: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(d.Rows, d.Cols, d.Y, d.X)

	_, err = dataset.ReadCSV[float32](strings.NewReader("5.1,3.5,0\n7.0,3.2\n"),
		dataset.CSVOptions{LabelColumn: -1, File: "iris.csv"})
	fmt.Println(err, errors.Is(err, dataset.ErrRagged))
	// Output:
	// 2 2 [0 1] [5.1 3.5 7 3.2]
	// iris.csv:2:1: row has 2 fields, want 3 as on line 1 true
}

func ExampleReadIDX() {
	// A 2x3 IDX file of unsigned bytes: magic 00 00 08 02, sizes 2 and 3, data.
	file := []byte{0, 0, 8, 2, 0, 0, 0, 2, 0, 0, 0, 3, 1, 2, 3, 4, 5, 6}
	m, err := dataset.ReadIDX(bytes.NewReader(file))
	fmt.Println(m.Dims, m.Data, err)

	// A header that announces more data than there is fails cleanly.
	_, err = dataset.ReadIDX(bytes.NewReader(file[:15]))
	fmt.Println(errors.Is(err, dataset.ErrTruncated))
	// Output:
	// [2 3] [1 2 3 4 5 6] <nil>
	// true
}

func ExampleSynthSeparable() {
	o := dataset.SynthOptions{D: 8, Seed: 1, Gamma: 0.5, NTrain: 100, NTest: 20}
	train, test, err := dataset.SynthSeparable(o)
	if err != nil {
		fmt.Println(err)
		return
	}
	// Every row is on the correct side of the hidden separator, with margin.
	w := o.Separator()
	ok := true
	for i := range train.Rows {
		var m float64
		for j, x := range train.Row(i) {
			m += float64(x) * float64(w[j])
		}
		ok = ok && float64(train.Y[i])*m >= o.Gamma
	}
	fmt.Println(train.Rows, test.Rows, ok)
	// Output:
	// 100 20 true
}

// A matrix built by the caller: allocate it with Alloc, so that a large one
// gets huge pages on Linux, then fill it and train on it as usual.
func ExampleAlloc() {
	const rows, cols = 4, 3
	d := &dataset.Data[float32]{X: dataset.Alloc[float32](rows * cols), Y: make([]int, rows), Rows: rows, Cols: cols}
	for i := range rows {
		for j := range cols {
			d.X[i*cols+j] = float32(i - j)
		}
		d.Y[i] = 2*(i%2) - 1
	}
	fmt.Println(d.Validate(), d.Row(3))
	// Output:
	// <nil> [3 2 1]
}

// FromRows turns [][]T rows into the row-major Data the trainers take.
func ExampleFromRows() {
	d, err := dataset.FromRows([][]float64{{1, 2}, {3, 4}, {5, 6}}, []int{1, -1, 1})
	fmt.Println(d.X, d.Rows, d.Cols, d.Y, err)
	_, err = dataset.FromRows([][]float64{{1, 2}, {3}}, nil)
	fmt.Println(errors.Is(err, dataset.ErrRagged))
	// Output:
	// [1 2 3 4 5 6] 3 2 [1 -1 1] <nil>
	// true
}
