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
	"unsafe"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// A row travels between stages as bytes: the file's index and the row's
// index in it (the shard sorts by them, so a shard trains in the files'
// order), the label, and the non-zero features as (column delta, float64
// bits) pairs. Sparse, because data at this scale usually is.
func appendRow[T kernel.Float](b []byte, file, row int, label int, r dataset.SparseRow[T]) []byte {
	b = binary.AppendUvarint(b, uint64(file))
	b = binary.AppendUvarint(b, uint64(row))
	b = binary.AppendVarint(b, int64(label))
	nnz := 0
	for _, v := range r.Val {
		if v != 0 {
			nnz++
		}
	}
	b = binary.AppendUvarint(b, uint64(nnz))
	last := 0
	for k, v := range r.Val {
		if v != 0 {
			j := int(r.Idx[k])
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

// appendCSR appends the row of a row record to c (its features below
// c.Cols) and returns its label.
func appendCSR[T kernel.Float](c *dataset.CSR[T], b []byte) error {
	p := 0
	next := func() (uint64, bool) {
		v, n := binary.Uvarint(b[p:])
		p += max(n, 0)
		return v, n > 0
	}
	if _, ok := next(); !ok {
		return errRow
	}
	if _, ok := next(); !ok {
		return errRow
	}
	label, n := binary.Varint(b[p:])
	if n <= 0 {
		return errRow
	}
	p += n
	nnz, ok := next()
	if !ok || nnz > uint64(c.Cols) {
		return errRow
	}
	j := uint64(0)
	for k := range nnz {
		d, ok := next()
		if !ok || p+8 > len(b) || (k > 0 && d == 0) {
			return errRow
		}
		j += d
		if j >= uint64(c.Cols) {
			return errRow
		}
		c.Idx = append(c.Idx, int32(j))
		c.Val = append(c.Val, T(math.Float64frombits(binary.LittleEndian.Uint64(b[p:]))))
		p += 8
	}
	c.Ptr = append(c.Ptr, len(c.Idx))
	c.Y = append(c.Y, int(label))
	c.Rows++
	return nil
}

// shardRows sorts a shard's row records into the input's order and returns
// them as a CSR matrix: memory in proportion to the stored values, never
// rows·D.
func shardRows[T kernel.Float](recs [][]byte, dims int) (*dataset.CSR[T], error) {
	keys := make([]rowKey, len(recs))
	idx := make([]int, len(recs))
	for i, r := range recs {
		k, err := decodeRowKey(r)
		if err != nil {
			return nil, err
		}
		keys[i], idx[i] = k, i
	}
	slices.SortFunc(idx, func(a, b int) int {
		if c := cmp.Compare(keys[a].file, keys[b].file); c != 0 {
			return c
		}
		return cmp.Compare(keys[a].row, keys[b].row)
	})
	c := &dataset.CSR[T]{Ptr: make([]int, 1, len(recs)+1), Y: make([]int, 0, len(recs)), Cols: dims}
	for _, j := range idx {
		if err := appendCSR(c, recs[j]); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// denseFor returns the dense form of a shard's rows when it takes at most
// twice the CSR's memory (density ≥ 1/4 for float32, 3/8 for float64),
// where the dense kernels are the faster ones; nil for a sparser shard,
// which trains on the CSR (perceptron.Fit continuing the model,
// dcdRows) at O(nnz) per epoch.
func denseFor[T kernel.Float](c *dataset.CSR[T]) []T {
	var z T
	size := int64(unsafe.Sizeof(z))
	if int64(c.Rows)*int64(c.Cols)*size > 2*c.Bytes() {
		return nil
	}
	d, err := c.ToDense(-1)
	if err != nil {
		return nil
	}
	return d.X
}

// readFile reads one input file with the library's reader of the format:
// its errors name the file, line and column.
func readFile[T kernel.Float](ctx context.Context, path, format string, dims int) (*dataset.CSR[T], error) {
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
	if format == "csv" {
		d, err := dataset.ReadCSV[T](r, dataset.CSVOptions{File: path})
		switch {
		case errors.Is(err, dataset.ErrEmpty):
			return &dataset.CSR[T]{Ptr: []int{0}, Cols: dims}, nil // an empty part file holds no rows
		case err != nil:
			return nil, err
		case d.Cols != dims:
			return nil, fmt.Errorf("%w: %s: %d features, the job has %d", ErrInput, path, d.Cols, dims)
		}
		return dataset.FromDense(d)
	}
	c, err := dataset.ReadLIBSVMSparse[T](r, dataset.LIBSVMOptions{Cols: dims, File: path})
	if errors.Is(err, dataset.ErrEmpty) {
		return &dataset.CSR[T]{Ptr: []int{0}, Cols: dims}, nil
	}
	return c, err
}
