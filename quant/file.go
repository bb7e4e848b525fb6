package quant

import (
	"fmt"
	"math"

	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/linear"

	"github.com/rosenblatt-go/rosenblatt/internal/modelfile"
)

// The model-file kinds of quantised models (model.Kind's QuantBinary,
// QuantOneVsRest, QuantArgmax): 48 plus the linear model's kind.
const (
	kindBinary    = 49
	kindOneVsRest = 50
	kindArgmax    = 51
)

// fileKind returns the file kind of a quantised model of scheme s.
func fileKind(s fit.Scheme) byte { return modelfile.SchemeKind(kindBinary, s, fit.Argmax) }

// kindScheme returns the scheme of a quantised model's file kind.
func kindScheme(k byte) fit.Scheme { return modelfile.KindScheme(kindBinary, k, fit.Argmax) }

// BodyVersion is the version of the quantised body this package writes
// and reads.
const BodyVersion = 1

// Header flags (those of the linear models' version-2 files).
const (
	flagBias  = 1
	flagAug   = 2 // linear.ScaleAugmented
	flagFeat  = 4 // linear.ScaleFeatures
	flagSVM   = 8 // the source is a linear SVM (linear.DualCD); algorithm 0, any two labels for binary
	flagsKnow = flagBias | flagAug | flagFeat | flagSVM
)

var fileErrs = modelfile.Errors{Corrupt: ErrCorrupt, Version: ErrVersion, Mismatch: ErrMismatch}

var family = &modelfile.Family{Name: "quantised", BodySize: bodySize, Kinds: []byte{kindBinary, kindOneVsRest, kindArgmax}}

func init() { modelfile.Register(family) }

// isKind reports whether kind, a model file's kind byte, is a quantised
// model's.
func isKind(kind byte) bool { return kind == kindBinary || kind == kindOneVsRest || kind == kindArgmax }

// rowsOf returns the number of score rows of a file's header.
func rowsOf(h *modelfile.Header) uint64 {
	if h.Kind == kindBinary {
		return 1
	}
	return uint64(h.Labels)
}

// bodySize is the family's modelfile.Family.BodySize: it checks every
// header field and adds the body's length.
func bodySize(e modelfile.Errors, h *modelfile.Header, _ []byte, sz *modelfile.Sizer) (uint64, error) {
	a := linear.Algorithm(h.Algorithm)
	switch {
	case h.Version > modelfile.Version:
		return 0, fmt.Errorf("%w: a quantised model in format version %d (this package reads version %d)", e.Version, h.Version, modelfile.Version)
	case h.Version != modelfile.Version:
		return 0, e.Corruptf("a quantised model in format version %d (they are written in version %d)", h.Version, modelfile.Version)
	case h.ElemSize != 4:
		return 0, e.Corruptf("element size %d in a quantised model (float32 scales: 4)", h.ElemSize)
	case !knownAlgo(a):
		return 0, e.Corruptf("unknown algorithm %d", h.Algorithm)
	case h.Flags&^flagsKnow != 0 || h.Flags&flagAug != 0 && h.Flags&flagFeat != 0:
		return 0, e.Corruptf("flags %#x", h.Flags)
	case h.Flags&flagSVM != 0 && (h.Flags != flagSVM|flagBias || a != 0 || h.Kind == kindArgmax):
		return 0, e.Corruptf("a linear SVM's model with flags %#x, algorithm %d, kind %d", h.Flags, h.Algorithm, h.Kind)
	case h.Dims > MaxDims:
		return 0, e.Corruptf("%d features, more than %d", h.Dims, MaxDims)
	case a != linear.Voted && h.Count != 0:
		return 0, e.Corruptf("count %d, want 0", h.Count)
	case math.Float64bits(h.Param) != 0:
		return 0, e.Corruptf("parameter %v, want 0", h.Param)
	}
	r := rowsOf(h)
	sz.Add(8, 1) // body version, reserved
	if a == linear.Voted {
		sz.Add(r, 4) // vectors per score
		r = uint64(h.Count)
		sz.Add(r, 8) // survival counts
	}
	sz.Add(r, 8) // scales, biases
	sz.Add(sz.Mul(r, uint64(h.Dims)), 1)
	return 0, nil
}

// knownAlgo reports whether a names one of perceptron's algorithms
// (linear.Online to linear.SVM; a linear SVM's model records 0).
func knownAlgo(a linear.Algorithm) bool { return a <= linear.SVM }

// MarshalBinary encodes the model in the module's model-file envelope
// (magic "RBLTPCPT", format version 2; see package internal/modelfile). It
// implements encoding.BinaryMarshaler. The header holds element size 4,
// kind 49 (binary), 50 (one-vs-rest) or 51 (argmax), the source model's
// algorithm (0 for a linear SVM), flags (bit 0 bias, bit 1
// ScaleAugmented, bit 2 ScaleFeatures, bit 3 a linear SVM's model, whose
// binary labels may be any two), D ≤ MaxDims, L, count M (a voted model's vectors, else
// 0) and parameter 0; then the labels and the body, for S scores (1
// binary, L otherwise) and R = S rows (R = M for a voted model):
//
//	4     body version (1)
//	4     reserved, 0
//	      a voted model only: 4·S vectors per score, uint32, summing to M;
//	      8·M survival counts, uint64, > 0 and < 2⁶³
//	4·R   weight scales s_k, float32, finite and > 0
//	4·R   biases b_k, float32, finite
//	R·D   quantised weights, int8 in [−127, 127], row-major
//
// and the CRC-32C.
func (q *Model) MarshalBinary() ([]byte, error) {
	flags := byte(0)
	if q.bias {
		flags |= flagBias
	}
	if q.svm {
		flags |= flagSVM
	}
	switch q.scaling {
	case linear.ScaleAugmented:
		flags |= flagAug
	case linear.ScaleFeatures:
		flags |= flagFeat
	}
	h := modelfile.Header{ElemSize: 4, Kind: fileKind(q.scheme), Algorithm: byte(q.algo), Flags: flags, Dims: q.d, Count: len(q.vc)}
	r := len(q.scale)
	w := modelfile.New(h, q.labels, 8+4*len(q.voff)+8*len(q.vc)+8*r+r*q.d)
	w.U32(BodyVersion)
	w.U32(0)
	if q.voff != nil {
		for k := range len(q.voff) - 1 {
			w.U32(uint32(q.voff[k+1] - q.voff[k]))
		}
		for _, c := range q.vc {
			w.U64(uint64(c))
		}
	}
	modelfile.Elems(w, q.scale)
	modelfile.Elems(w, q.b)
	b := make([]byte, len(q.q))
	for i, v := range q.q {
		b[i] = byte(v)
	}
	w.Bytes(b)
	return w.Finish(), nil
}

// Unmarshal decodes a model written by MarshalBinary. It checks the
// checksum, then the sizes against the file's length before it allocates
// anything, then every field; a truncated, modified or inconsistent file
// is an error wrapping ErrCorrupt, a body version it does not read
// ErrVersion, a valid file of another model (a float linear or kernel
// model) ErrMismatch; never a panic. Every file it accepts re-encodes to
// the same bytes. data is not retained.
func Unmarshal(data []byte) (*Model, error) {
	h, r, err := fileErrs.Open(data)
	if err != nil {
		return nil, err
	}
	if f := modelfile.Lookup(h.Kind); f != family {
		return nil, fileErrs.Otherwise(family, h.Kind)
	}
	size, _, err := fileErrs.EncodedSize(data)
	if err != nil {
		return nil, err
	}
	if size != int64(len(data)) {
		return nil, fileErrs.Corruptf("the header implies %d bytes, the file has %d (truncated or padded)", size, len(data))
	}
	q := &Model{scheme: kindScheme(h.Kind), algo: linear.Algorithm(h.Algorithm), d: h.Dims,
		bias: h.Flags&flagBias != 0, svm: h.Flags&flagSVM != 0}
	switch {
	case h.Flags&flagAug != 0:
		q.scaling = linear.ScaleAugmented
	case h.Flags&flagFeat != 0:
		q.scaling = linear.ScaleFeatures
	}
	if q.labels = r.Labels(h.Labels); q.labels == nil {
		return nil, r.Err()
	}
	if err := checkLabels(q.labels, q.scheme == fit.Binary && !q.svm); err != nil {
		return nil, err
	}
	if v := r.U32(); v != BodyVersion {
		return nil, fmt.Errorf("%w: quantised body version %d (this package reads %d)", ErrVersion, v, BodyVersion)
	}
	if v := r.U32(); v != 0 {
		return nil, fileErrs.Corruptf("reserved body bytes are not zero")
	}
	rows := int(rowsOf(&h))
	if q.algo == linear.Voted {
		q.voff = make([]int, rows+1)
		var total uint64 // summed in 64 bits: an int may have 32
		for k := range rows {
			if total += uint64(r.U32()); total > uint64(h.Count) {
				break
			}
			q.voff[k+1] = int(total)
		}
		if total != uint64(h.Count) {
			return nil, fileErrs.Corruptf("vectors per score add up to %d or more, the header says %d", total, h.Count)
		}
		q.vc = make([]int64, h.Count)
		for j := range q.vc {
			c := r.U64()
			if c == 0 || c > math.MaxInt64 {
				return nil, fileErrs.Corruptf("survival count %d of vector %d", c, j)
			}
			q.vc[j] = int64(c)
		}
		rows = h.Count
	}
	q.scale = modelfile.Decode[float32](r.Take(uint64(rows), 4, "scales"), 4)
	q.b = modelfile.Decode[float32](r.Take(uint64(rows), 4, "biases"), 4)
	wb := r.Take(uint64(rows), uint64(h.Dims), "weights")
	if err := r.Close(); err != nil {
		return nil, err
	}
	for k := range rows {
		if s := q.scale[k]; !(s > 0) || math.IsInf(float64(s), 0) {
			return nil, fileErrs.Corruptf("scale %d is %v", k, s)
		}
		if b := q.b[k]; b-b != 0 {
			return nil, fileErrs.Corruptf("bias %d is %v", k, b)
		}
	}
	q.q = make([]int8, len(wb))
	for i, v := range wb {
		if v == 0x80 {
			return nil, fileErrs.Corruptf("weight %d is −128 (quantised weights are in [−127, 127])", i)
		}
		q.q[i] = int8(v)
	}
	q.prepare()
	return q, nil
}

// checkLabels checks a file's labels: strictly increasing, and −1, +1 for a
// binary model.
func checkLabels(labels []int, binary bool) error {
	if binary && (len(labels) != 2 || labels[0] != -1 || labels[1] != 1) {
		return fileErrs.Corruptf("a binary model's labels are %v, want [-1 1]", labels)
	}
	for i := 1; i < len(labels); i++ {
		if labels[i] <= labels[i-1] {
			return fileErrs.Corruptf("labels not strictly increasing at %d", i)
		}
	}
	return nil
}
