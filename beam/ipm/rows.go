package ipm

import (
	"cmp"
	"compress/gzip"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// A row travels between stages as bytes: the file's index and the row's
// index in it (the shard sorts by them, so a shard trains in the files'
// order), the label, and the non-zero features as (column delta, float64
// bits) pairs. Sparse, because data at this scale usually is.
func appendRow[T kernel.Float](b []byte, file, row int, label int, x []T) []byte {
	b = binary.AppendUvarint(b, uint64(file))
	b = binary.AppendUvarint(b, uint64(row))
	b = binary.AppendVarint(b, int64(label))
	nnz := 0
	for _, v := range x {
		if v != 0 {
			nnz++
		}
	}
	b = binary.AppendUvarint(b, uint64(nnz))
	last := 0
	for j, v := range x {
		if v != 0 {
			b = binary.AppendUvarint(b, uint64(j-last))
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(float64(v)))
			last = j
		}
	}
	return b
}

// errRow reports a row record that does not decode (a bug or a corrupted
// shuffle, never user input).
var errRow = errors.New("ipm: corrupt row record")

// rowKey is a row's position in the input.
type rowKey struct{ file, row uint64 }

// decodeRowKey returns the position of a row record.
func decodeRowKey(b []byte) (rowKey, error) {
	f, n := binary.Uvarint(b)
	if n <= 0 {
		return rowKey{}, errRow
	}
	r, m := binary.Uvarint(b[n:])
	if m <= 0 {
		return rowKey{}, errRow
	}
	return rowKey{f, r}, nil
}

// decodeRow writes the features of a row record into x (zeroed by the
// caller, len D) and returns its label.
func decodeRow[T kernel.Float](b []byte, x []T) (int, error) {
	p := 0
	next := func() (uint64, bool) {
		v, n := binary.Uvarint(b[p:])
		p += max(n, 0)
		return v, n > 0
	}
	if _, ok := next(); !ok {
		return 0, errRow
	}
	if _, ok := next(); !ok {
		return 0, errRow
	}
	label, n := binary.Varint(b[p:])
	if n <= 0 {
		return 0, errRow
	}
	p += n
	nnz, ok := next()
	if !ok || nnz > uint64(len(x)) {
		return 0, errRow
	}
	j := uint64(0)
	for range nnz {
		d, ok := next()
		if !ok || p+8 > len(b) {
			return 0, errRow
		}
		j += d
		if j >= uint64(len(x)) {
			return 0, errRow
		}
		x[j] = T(math.Float64frombits(binary.LittleEndian.Uint64(b[p:])))
		p += 8
	}
	return int(label), nil
}

// shardRows sorts a shard's row records into the input's order and returns
// them as a dense matrix with its labels.
func shardRows[T kernel.Float](recs [][]byte, dims int) ([]T, []int, error) {
	keys := make([]rowKey, len(recs))
	idx := make([]int, len(recs))
	for i, r := range recs {
		k, err := decodeRowKey(r)
		if err != nil {
			return nil, nil, err
		}
		keys[i], idx[i] = k, i
	}
	slices.SortFunc(idx, func(a, b int) int {
		if c := cmp.Compare(keys[a].file, keys[b].file); c != 0 {
			return c
		}
		return cmp.Compare(keys[a].row, keys[b].row)
	})
	X := make([]T, len(recs)*dims)
	y := make([]int, len(recs))
	for i, j := range idx {
		l, err := decodeRow(recs[j], X[i*dims:(i+1)*dims])
		if err != nil {
			return nil, nil, err
		}
		y[i] = l
	}
	return X, y, nil
}

// readFile reads one input file with the library's reader of the format:
// its errors name the file, line and column.
func readFile[T kernel.Float](ctx context.Context, path, format string, dims int) (*dataset.Data[T], error) {
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrInput, path, err)
	}
	defer fs.Close()
	rc, err := fs.OpenRead(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrInput, path, err)
	}
	defer rc.Close()
	var r io.Reader = rc
	if strings.HasSuffix(path, ".gz") {
		gz, err := gzip.NewReader(rc)
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %v", ErrInput, path, err)
		}
		defer gz.Close()
		r = gz
	}
	var d *dataset.Data[T]
	if format == "csv" {
		d, err = dataset.ReadCSV[T](r, dataset.CSVOptions{File: path})
		if err == nil && d.Cols != dims {
			return nil, fmt.Errorf("%w: %s: %d features, the job has %d", ErrInput, path, d.Cols, dims)
		}
	} else {
		d, err = dataset.ReadLIBSVM[T](r, dataset.LIBSVMOptions{Cols: dims, File: path})
	}
	if errors.Is(err, dataset.ErrEmpty) {
		return &dataset.Data[T]{Cols: dims}, nil // an empty part file holds no rows
	}
	return d, err
}
