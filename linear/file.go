package linear

import (
	"encoding/json"
	"fmt"
	"math"
	"math/bits"
	"slices"

	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/internal/linmodel"

	"github.com/rosenblatt-go/rosenblatt/internal/modelfile"
	"github.com/rosenblatt-go/rosenblatt/internal/usedcols"
)

// The envelope of the model files (magic, header, labels, checksum) is
// package modelfile's; this file holds what is particular to this
// package's two families of kinds: the flags, the η parameter and the
// linear models' body (the kernel models' body is in kernelfile.go).
const (
	fileMagic   = modelfile.Magic
	fileVersion = modelfile.Version // the version written; 1 is read too
	headerSize  = modelfile.HeaderSize
	maxDims     = modelfile.MaxDims
	maxLabels   = modelfile.MaxLabels
	flagBias    = modelfile.FlagBias
	flagNorm    = 2 // version 2: ScaleAugmented; version 1: ScaleFeatures
	flagNormX   = 4 // version 2: ScaleFeatures
	flagState   = 8 // version 2, linear models: the training state follows the labels
	// flagBiasFeat (version 3, both families): the bias feature B
	// (Options.BiasFeature) follows the labels, a float64 ≠ 1. A model
	// with B = 1 is written as version 2 without it.
	flagBiasFeat = modelfile.FlagBiasFeat
	// biasFeatVersion is the format version of a file with flagBiasFeat.
	biasFeatVersion = 3
	// flagColumns (version 4, linear models but voted ones): the weights
	// of the used columns only follow, M (the header's count) of them,
	// their column indices first.
	flagColumns = 64
	// columnsVersion is the format version of a file with flagColumns.
	columnsVersion = 4
	stateSize      = 16
)

// fileErrs are the sentinels of this package's model-file errors.
var fileErrs = modelfile.Errors{Corrupt: ErrCorrupt, Version: ErrVersion, Mismatch: ErrMismatch}

// The families of model kinds this package stores.
var (
	linearFamily = &modelfile.Family{Name: "linear", BodySize: linearBodySize,
		Kinds: []byte{kindBinary, kindOneVsRest, kindArgmax}}
)

func init() {
	modelfile.Register(linearFamily)
}

// The kinds of linear model files (byte 11 of the header; model.Kind's
// 1–3): the model's scheme, written as these values whatever fit.Scheme's
// own are (the JSON documents' "kind" is modelfile.SchemeName's).
const (
	kindBinary    = 1
	kindOneVsRest = 2
	kindArgmax    = 3
)

// fileKind returns the file kind of scheme s (Binary, OneVsRest or Argmax).
func fileKind(s fit.Scheme) byte { return modelfile.SchemeKind(kindBinary, s, fit.Argmax) }

// kindScheme returns the scheme of a file's kind, fit.Auto for a kind
// that is not linear.
func kindScheme(k byte) fit.Scheme { return modelfile.KindScheme(kindBinary, k, fit.Argmax) }

// scalingFlags returns the header flags of a scaling (version 2).
func scalingFlags(sc Scaling) byte {
	switch sc {
	case ScaleAugmented:
		return flagNorm
	case ScaleFeatures:
		return flagNormX
	}
	return 0
}

// headerFlags returns the header flags of a model: its scaling, its bias
// (and whether its bias feature bf follows the labels) and whether the
// training state follows them.
func headerFlags(sc Scaling, bias bool, bf float64, state, columns bool) byte {
	f := scalingFlags(sc)
	if columns {
		f |= flagColumns
	}
	if bias {
		f |= flagBias
	}
	if bias && bf != 1 {
		f |= flagBiasFeat
	}
	if state {
		f |= flagState
	}
	return f
}

// headerVersion returns the format version of a file with these flags: 4
// with the used columns, 3 with the bias feature, else 2
// (modelfile.Version).
func headerVersion(flags byte) int {
	if flags&flagColumns != 0 {
		return columnsVersion
	}
	if flags&flagBiasFeat != 0 {
		return biasFeatVersion
	}
	return fileVersion
}

// readBiasFeature reads and checks the bias feature of a file whose
// header flags are flags (modelfile.ReadBiasFeature).
func readBiasFeature[T Float](r *modelfile.Reader, flags byte) (float64, error) {
	return modelfile.ReadBiasFeature[T](r, flags, ErrCorrupt)
}

// checkBiasFeature checks a model file's bias feature b
// (modelfile.CheckBiasFeature).
func checkBiasFeature[T Float](bias bool, b float64) (float64, error) {
	return modelfile.CheckBiasFeature[T](bias, b, ErrCorrupt)
}

// flagsScaling decodes the scaling of a header's flags, checking that the
// version allows them: version 1 knows bias and normalise (the features),
// version 2 also ScaleAugmented, and the state bit where allowState,
// version 3 also the bias feature, which it must have (a file takes
// version 3 for it only).
func flagsScaling(version int, flags byte, allowState bool) (Scaling, error) {
	known := byte(flagBias | flagNorm)
	if version >= 2 {
		known |= flagNormX
		if allowState {
			known |= flagState
		}
	}
	if version >= biasFeatVersion {
		known |= flagBiasFeat
		if version == biasFeatVersion && flags&flagBiasFeat == 0 {
			return 0, fmt.Errorf("%w: a version-3 file without a bias feature", ErrCorrupt)
		}
	}
	if version >= columnsVersion {
		if allowState {
			known |= flagColumns
		}
		if flags&flagColumns == 0 {
			return 0, fmt.Errorf("%w: a version-4 file without the used columns", ErrCorrupt)
		}
	}
	if flags&^known != 0 {
		return 0, fmt.Errorf("%w: unknown flags %#x for version %d", ErrCorrupt, flags, version)
	}
	switch {
	case version == 1 && flags&flagNorm != 0:
		return ScaleFeatures, nil
	case flags&flagNorm != 0 && flags&flagNormX != 0:
		return 0, fmt.Errorf("%w: both normalisations flagged", ErrCorrupt)
	case flags&flagNorm != 0:
		return ScaleAugmented, nil
	case flags&flagNormX != 0:
		return ScaleFeatures, nil
	}
	return ScaleNone, nil
}

// checkParams checks the header fields both families read alike: η (the
// header's parameter), finite and > 0, and the flags (the state bit for
// the linear models only); it returns the scaling.
func checkParams(h *modelfile.Header, linear bool) (Scaling, error) {
	if !finitePositive(h.Param) {
		return 0, fmt.Errorf("%w: η = %v", ErrCorrupt, h.Param)
	}
	return flagsScaling(h.Version, h.Flags, linear)
}

func elemSize[T Float]() int { return modelfile.ElemSize[T]() }

func elemName(size int) string { return modelfile.ElemName(size) }

// elemMismatch is the error of a file of element size es read into a
// model of T.
func elemMismatch[T Float](es int) error {
	return fmt.Errorf("%w: the file holds %s values, the model is %s", ErrMismatch, elemName(es), elemName(elemSize[T]()))
}

// MarshalBinary encodes the model in a checksummed little-endian format. It
// implements encoding.BinaryMarshaler. The layout (version 2; 3 with a
// bias feature):
//
//	offset size  field
//	0      8     magic "RBLTPCPT"
//	8      2     format version (2; 3 with flag bit 5; 4 with flag bit 6)
//	10     1     element size in bytes: 4 (float32) or 8 (float64)
//	11     1     Kind (1 binary, 2 one-vs-rest, 3 argmax; ≥ 16 kernel models)
//	12     1     Algorithm
//	13     1     flags: bit 0 bias, bit 1 Normalize (ScaleAugmented),
//	             bit 2 NormalizeFeatures, bit 3 training state, bit 5 bias
//	             feature (versions 3 and 4), bit 6 the used columns
//	             (version 4 only) (other bits 0)
//	14     2     reserved, 0
//	16     4     D, features per sample
//	20     4     L, number of labels (2 for binary)
//	24     4     M, voted vectors in total, or with flag bit 6 the used
//	             columns (else 0)
//	28     4     reserved, 0
//	32     8     η of Update, float64
//	40     8·L   labels, int64, increasing
//	then, if flag bit 5, the bias feature B (Options.BiasFeature), float64,
//	             finite, > 0 and ≠ 1
//	then, if flag bit 3, the training state (16 bytes):
//	             steps, the samples visited, uint64 > 0; λ, float64 (SVM:
//	             the finite λ > 0 it trained with; else 0)
//	then, for a linear model with R score rows (1 binary, L otherwise):
//	             R·D weights, row-major, then R biases (element type): the
//	             served ones (for Averaged, the average); or, in version 4
//	             (flag bit 6), the used columns alone: M column indices,
//	             uint32, strictly increasing and < D, then every array of
//	             R·D weights below as R·M, row k's values of those columns
//	             (every other weight is +0)
//	             Averaged with the state: then R·D running weights, R
//	             running biases, R·D averaging sums u, R sums for b, with
//	             weights = running − u/steps exactly
//	or, for a voted model:
//	             R uint32 vector counts per score row (summing to M),
//	             M int64 survival counts (> 0), M·D vectors, M biases
//	end-4  4     CRC-32C (Castagnoli) of every byte before it
//
// A linear model (not a voted one) whose weights are +0 outside a few
// columns is written as version 4, with those columns alone, when that
// makes a smaller file (a model of hashed text that uses a fifth of its
// columns takes about a fifth of the bytes). It reads back with its weights
// (and an averaged model's state) held as compactly, and predicts with the
// same bits. Otherwise, a model with a
// bias feature B ≠ 1 is written as version 3, which has
// flag bit 5 and B and is otherwise version 2, so that a reader that
// knows only version 2 rejects it (ErrVersion) rather than serve it with
// B = 1; every other model is written as version 2.
//
// The training state is written only for a model trained with
// Options.Resumable (or read from a file that held it).
//
// Version 1, which UnmarshalBinary also reads, had no training state and
// flag bit 1 meant NormalizeFeatures' transform (which Normalize was then);
// such a model is written back as version 2. An averaged or SVM model
// without its state cannot continue training (Update, continueDense).
//
// UnmarshalBinary checks the checksum, then the sizes against the file
// length before it allocates anything, then every field; any problem is an
// error wrapping ErrCorrupt (ErrVersion for a newer format, ErrMismatch for
// a valid file of another element type or of a kernel model), never a
// panic.
//
// A model whose weights a sparse fit left compact (the columns its data
// uses) is written from them, row by row, without forming its dense
// weights: the file is the same, and the model stays compact.
func (m *Model[T]) MarshalBinary() ([]byte, error) {
	s, err := m.loadSparse()
	if err != nil {
		return nil, err
	}
	es := elemSize[T]()
	R, avg := 0, averagingState(s.algo, s.fileState())
	var cols []int32
	if !s.voted() {
		R = s.rows()
		cols = s.usedColumns()
	}
	h := modelfile.Header{ElemSize: es, Kind: fileKind(s.scheme), Algorithm: byte(s.algo),
		Flags: headerFlags(s.scaling, s.bias, s.bfeat, s.fileState(), cols != nil), Dims: s.d, Count: len(s.VC) + len(cols), Param: s.eta}
	h.Version = headerVersion(h.Flags)
	nw := R * s.d // served weights
	if cols != nil {
		nw = R * len(cols)
	}
	if avg {
		nw *= 3 // and the running weights and averaging sums
	}
	w := modelfile.New(h, s.labels, 8+stateSize+4*len(cols)+es*(nw+len(s.B)+len(s.CB)+len(s.UB)+len(s.V)+len(s.VB))+12*len(s.VC))
	if h.Flags&flagBiasFeat != 0 {
		w.F64(s.bfeat)
	}
	if s.fileState() {
		w.U64(uint64(s.steps))
		w.F64(s.lambda)
	}
	if s.voted() {
		for k := range s.rows() {
			w.U32(uint32(s.VOff[k+1] - s.VOff[k]))
		}
		for _, c := range s.VC {
			w.U64(uint64(c))
		}
		modelfile.Elems(w, s.V)
		modelfile.Elems(w, s.VB)
	} else {
		for _, j := range cols {
			w.U32(uint32(j))
		}
		s.writeWeights(w, cols)
	}
	return w.Finish(), nil
}

// usedColumns returns the columns of a linear model whose weight is not
// +0 in some row of the arrays its file holds (the served weights, and an
// averaged model's running weights and sums if it keeps its state), in
// increasing order, if storing those columns alone (their indices, then
// their values) makes a smaller file than the dense rows; else nil. The
// columns depend on the values alone, not on how the model holds them.
func (s *state[T]) usedColumns() []int32 {
	used := make([]uint64, (s.d+63)/64)
	nonzero := func(v T) bool { return v != 0 || math.Signbit(float64(v)) }
	denseRows := func(src []T) {
		for i, v := range src {
			if nonzero(v) {
				j := i % s.d
				used[j>>6] |= 1 << (j & 63)
			}
		}
	}
	// compactRows marks the columns cc of the rows of src (row k's values
	// at src[k·stride:]) that hold a value.
	compactRows := func(src []T, stride int, cc []int32) {
		for k := range s.rows() {
			for r, v := range src[k*stride:][:len(cc)] {
				if nonzero(v) {
					used[cc[r]>>6] |= 1 << (cc[r] & 63)
				}
			}
		}
	}
	arrays := 1
	if c := s.cs; c != nil {
		compactRows(c.A, c.Width(), c.Cols.Cols)
	} else {
		denseRows(s.W)
	}
	if averagingState(s.algo, s.fileState()) {
		arrays = 3
		if a := s.avg; a != nil {
			compactRows(a.W, len(a.Cols), a.Cols)
			compactRows(a.U, len(a.Cols), a.Cols)
		} else {
			denseRows(s.CW)
			denseRows(s.U)
		}
	}
	n := 0
	for _, u := range used {
		n += bits.OnesCount64(u)
	}
	es := elemSize[T]()
	if rows := arrays * s.rows(); n*(rows*es+4) >= rows*s.d*es {
		return nil
	}
	cols := make([]int32, 0, n)
	for w, u := range used {
		for ; u != 0; u &= u - 1 {
			cols = append(cols, int32(64*w+bits.TrailingZeros64(u)))
		}
	}
	return cols
}

// writeWeights writes a linear model's served weights and biases, and for
// an averaged model with its state the running weights and averaging sums
// with their biases: each row whole, or the values of the columns cols
// alone if cols is not nil. A compact array (cs, avg) is scattered row by
// row into a zero row of d values first.
func (s *state[T]) writeWeights(w *modelfile.Writer, cols []int32) {
	var row []T    // the compact rows' scratch, zero between rows
	var packed []T // a row's values of cols
	put := func(r []T) {
		if cols == nil {
			modelfile.Elems(w, r)
			return
		}
		packed = packed[:0]
		for _, j := range cols {
			packed = append(packed, r[j])
		}
		modelfile.Elems(w, packed)
	}
	dense := func(src []T) {
		if cols == nil {
			modelfile.Elems(w, src)
			return
		}
		for k := range s.rows() {
			put(src[k*s.d : (k+1)*s.d])
		}
	}
	// compactRows writes the rows of src, row k's values of the columns
	// cc at src[k·stride:], zero elsewhere.
	compactRows := func(src []T, stride int, cc []int32) {
		if row == nil {
			row = make([]T, s.d)
		}
		for k := range s.rows() {
			vals := src[k*stride:][:len(cc)]
			for r, j := range cc {
				row[j] = vals[r]
			}
			put(row)
			for _, j := range cc {
				row[j] = 0
			}
		}
	}
	if c := s.cs; c != nil {
		compactRows(c.A, c.Width(), c.Cols.Cols)
	} else {
		dense(s.W)
	}
	modelfile.Elems(w, s.B)
	if !averagingState(s.algo, s.fileState()) {
		return
	}
	if a := s.avg; a != nil {
		compactRows(a.W, len(a.Cols), a.Cols)
		modelfile.Elems(w, s.CB)
		compactRows(a.U, len(a.Cols), a.Cols)
	} else {
		dense(s.CW)
		modelfile.Elems(w, s.CB)
		dense(s.U)
	}
	modelfile.Elems(w, s.UB)
}

// fileDesc describes a model file; Inspect returns it.
type fileDesc struct {
	Version   int        // format version
	ElemBits  int        // 32 or 64: the Model type parameter that reads it
	Scheme    fit.Scheme // the scheme of the file's kind
	Algorithm Algorithm  // training algorithm
	Dims      int        // features per sample
	Labels    int        // number of labels (2 for binary)
	Vectors   int        // voted vectors (0 for linear models)
}

// header is the decoded fixed part of a linear model's file.
type header struct {
	fileDesc
	flags   byte
	scaling Scaling
	state   bool // the training state follows the labels
	eta     float64
	esize   int
	rows    int
	columns int // the used columns whose weights the file holds (flagColumns), else 0
}

// averagingState reports whether a linear model of this algorithm with the
// training state carries the averaging arrays.
func averagingState(algo Algorithm, state bool) bool { return state && algo == Averaged }

// fileInfo returns the description of a header.
func fileInfo(h *modelfile.Header) fileDesc {
	return fileDesc{Version: h.Version, ElemBits: h.ElemBits(), Scheme: kindScheme(h.Kind), Algorithm: Algorithm(h.Algorithm),
		Dims: h.Dims, Labels: h.Labels, Vectors: h.Count}
}

// parseHeader checks the envelope of a linear model's file (magic,
// version, checksum, shared fields), its own header fields and its size,
// and returns the header and a reader positioned at the labels.
func parseHeader(data []byte) (header, *modelfile.Reader, error) {
	var h header
	mh, r, err := fileErrs.Open(data)
	h.fileDesc = fileInfo(&mh)
	if err != nil {
		return h, nil, err
	}
	if f := modelfile.Lookup(mh.Kind); f != linearFamily {
		return h, nil, fileErrs.Otherwise(linearFamily, mh.Kind)
	}
	var sz modelfile.Sizer
	sz.Add(headerSize, 1)
	sz.Add(uint64(mh.Labels), 8)
	if _, err := linearBodySize(fileErrs, &mh, nil, &sz); err != nil {
		return h, nil, err
	}
	sz.Add(modelfile.SumSize, 1)
	if sz.Over || sz.N != uint64(len(data)) {
		if sz.Over {
			return h, nil, fmt.Errorf("%w: the header implies more than 2^63 bytes, the file has %d (truncated)", ErrCorrupt, len(data))
		}
		return h, nil, fmt.Errorf("%w: the header implies %d bytes, the file has %d (truncated or padded)", ErrCorrupt, sz.N, len(data))
	}
	h.flags, h.eta, h.esize = mh.Flags, mh.Param, mh.ElemSize
	h.scaling, _ = flagsScaling(mh.Version, mh.Flags, true) // checked by linearBodySize
	h.state = h.flags&flagState != 0
	if h.flags&flagColumns != 0 {
		h.columns, h.Vectors = h.Vectors, 0 // the header's count
	}
	h.rows = h.Labels
	if h.Scheme == fit.Binary {
		h.rows = 1
	}
	return h, r, nil
}

// linearBodySize is the linear family's modelfile.Family.BodySize: it
// checks the algorithm, η and the flags, and adds the body's length.
func linearBodySize(e modelfile.Errors, h *modelfile.Header, _ []byte, sz *modelfile.Sizer) (uint64, error) {
	algo := Algorithm(h.Algorithm)
	if algo >= numAlgorithms {
		return 0, fmt.Errorf("%w: unknown algorithm %d", ErrCorrupt, uint8(algo))
	}
	if _, err := checkParams(h, true); err != nil {
		return 0, err
	}
	esize, d, m := uint64(h.ElemSize), uint64(h.Dims), uint64(h.Count)
	rows := uint64(h.Labels)
	if h.Kind == kindBinary {
		rows = 1
	}
	if h.Flags&flagBiasFeat != 0 {
		sz.Add(8, 1)
	}
	state := h.Flags&flagState != 0
	if state {
		sz.Add(stateSize, 1)
	}
	if h.Flags&flagColumns != 0 {
		if algo == Voted || m > d {
			return 0, fmt.Errorf("%w: %d used columns of %d in a %v model", ErrCorrupt, m, d, algo)
		}
		sz.Add(m, 4) // the columns
		d = m        // the values a row holds
	}
	switch {
	case algo == Voted:
		sz.Add(rows, 4)
		sz.Add(m, 8)
		sz.Add(sz.Mul(m, d+1), esize)
	case averagingState(algo, state):
		sz.Add(sz.Mul(rows, d+1), 3*esize)
	default:
		sz.Add(sz.Mul(rows, d+1), esize)
	}
	return 0, nil
}

// UnmarshalBinary decodes a model written by MarshalBinary into m,
// replacing its weights atomically (see the Model's concurrency notes). It
// implements encoding.BinaryUnmarshaler. A float64 file cannot be read into
// a Model[float32] or the reverse (ErrMismatch); a truncated, modified or
// inconsistent file is an error wrapping ErrCorrupt. data is not retained.
func (m *Model[T]) UnmarshalBinary(data []byte) error {
	if isSVMFile(data) {
		return m.unmarshalSVM(data)
	}
	h, r, err := parseHeader(data)
	if err != nil {
		return err
	}
	if h.esize != elemSize[T]() {
		return elemMismatch[T](h.esize)
	}
	s := &state[T]{scheme: h.Scheme, algo: h.Algorithm, d: h.Dims, eta: h.eta,
		bias: h.flags&flagBias != 0, scaling: h.scaling}
	// parseHeader has checked the file's size: the reads below fit.
	if s.labels = r.Labels(h.Labels); s.labels == nil {
		return r.Err()
	}
	if s.bfeat, err = readBiasFeature[T](r, h.flags); err != nil {
		return err
	}
	if h.state {
		steps := r.U64()
		if steps == 0 || steps > math.MaxInt64 {
			return fmt.Errorf("%w: %d steps in the training state", ErrCorrupt, steps)
		}
		s.steps, s.resumable = int64(steps), true
		s.lambda = math.Float64frombits(r.U64())
	}
	elems := func(n int, what string) []T {
		return modelfile.Decode[T](r.Take(uint64(n), uint64(h.esize), what), h.esize)
	}
	if h.Algorithm == Voted {
		s.VOff = make([]int, h.rows+1)
		for k := range h.rows {
			s.VOff[k+1] = s.VOff[k] + int(r.U32())
		}
		if s.VOff[h.rows] != h.Vectors {
			return fmt.Errorf("%w: per-class vector counts add up to %d, the header says %d", ErrCorrupt, s.VOff[h.rows], h.Vectors)
		}
		s.VC = make([]int64, h.Vectors)
		for i := range s.VC {
			s.VC[i] = int64(r.U64())
		}
		s.V = elems(h.Vectors*h.Dims, "vector values")
		s.VB = elems(h.Vectors, "vector biases")
	} else if h.flags&flagColumns != 0 {
		if err := s.readColumns(r, &h, len(data), elems); err != nil {
			return err
		}
	} else {
		s.W = elems(h.rows*h.Dims, "weights")
		s.B = elems(h.rows, "biases")
		if averagingState(h.Algorithm, h.state) {
			s.CW = elems(h.rows*h.Dims, "running weights")
			s.CB = elems(h.rows, "running biases")
			s.U = elems(h.rows*h.Dims, "averaging sums")
			s.UB = elems(h.rows, "bias sums")
		}
	}
	if err := r.Close(); err != nil {
		return err
	}
	return m.publish(s)
}

// readColumns reads the weights of a file of size bytes that holds the used
// columns alone (flagColumns): the columns, strictly increasing and below
// D, then rows of their values. The served weights become the compact rows
// of a sparse fit (compactServed: what the sparse methods score with; a
// dense sample forms the dense rows on first use), and an averaged model's
// running weights and sums its compact averaging state (compactAvg), so
// that reading allocates what the file holds, not rows·D. The one table
// sized by D, the used columns' bitmap of D/4 bytes, may take at most
// maxColumnsBitmap(size): a file declaring 2³⁰ features in 100 bytes is
// refused.
func (s *state[T]) readColumns(r *modelfile.Reader, h *header, size int, elems func(int, string) []T) error {
	if b, limit := int64(h.Dims+63)/64*16, maxColumnsBitmap(size); b > limit {
		return fmt.Errorf("%w: %d features in a file of %d bytes holding %d used columns: their bitmap would take %d bytes, more than the %d such a file may claim",
			ErrCorrupt, h.Dims, size, h.columns, b, limit)
	}
	cols := make([]int32, h.columns) // the file's size holds them: parseHeader checked it
	prev := int64(-1)
	for i := range cols {
		j := int64(r.U32())
		if j <= prev || j >= int64(h.Dims) {
			return fmt.Errorf("%w: used column %d is %d, after %d, of %d features", ErrCorrupt, i, j, prev, h.Dims)
		}
		cols[i], prev = int32(j), j
	}
	u := len(cols)
	packed := elems(h.rows*u, "weights")
	A := make([]T, h.rows*(u+1)) // each row's values, then its zero column
	for k := range h.rows {
		copy(A[k*(u+1):], packed[k*u:(k+1)*u])
	}
	s.B = elems(h.rows, "biases")
	if err := checkFinite(A, s.B); err != nil {
		return err
	}
	s.cs = linmodel.NewCompactServed(usedcols.FromSorted(cols, h.Dims), A, h.Dims)
	if !averagingState(h.Algorithm, h.state) {
		return nil
	}
	a := &linmodel.CompactAvg[T]{Cols: cols, W: elems(h.rows*u, "running weights")}
	s.CB = elems(h.rows, "running biases")
	a.U = elems(h.rows*u, "averaging sums")
	s.UB = elems(h.rows, "bias sums")
	if err := checkFinite(a.W, s.CB, a.U, s.UB); err != nil {
		return err
	}
	// The served weights must be the average, running − sums/steps, as
	// check requires of dense arrays; the other columns are 0 − 0/steps.
	for k := range h.rows {
		if !slices.Equal(averageOf(a.W[k*u:(k+1)*u], a.U[k*u:(k+1)*u], s.steps), packed[k*u:(k+1)*u]) {
			return fmt.Errorf("%w: the averaged weights of row %d are not running − sums/steps", ErrCorrupt, k)
		}
	}
	if !slices.Equal(averageOf(s.CB, s.UB, s.steps), s.B) {
		return fmt.Errorf("%w: the averaged biases are not running − sums/steps", ErrCorrupt)
	}
	s.avg = a
	return nil
}

// maxColumnsBitmap is the most bytes the used-column bitmap of a version-4
// file of size bytes may take: 64 per byte of the file, plus 16 MiB (the
// bitmap of 2²⁶ features).
func maxColumnsBitmap(size int) int64 { return 64*int64(size) + 16<<20 }

// publish checks a decoded state, prepares it and stores it in m.
func (m *Model[T]) publish(s *state[T]) error {
	if err := s.check(); err != nil {
		return err
	}
	s.k = kernelsFor[T](nil)
	m.mu.Lock()
	m.st.Store(s)
	m.mu.Unlock()
	return nil
}

// checkSizes checks a decoded model's D and number of labels (either
// family) before anything is sized from them.
func checkSizes(d int, labels []int) error {
	if d < 1 || d > maxDims || len(labels) < 2 || len(labels) > maxLabels {
		return fmt.Errorf("%w: %d features, %d labels", ErrCorrupt, d, len(labels))
	}
	return nil
}

// checkLabels checks a decoded model's labels (either family): strictly
// increasing, and for a binary model two, −1 and +1 but for a linear SVM
// (dcd).
func checkLabels(labels []int, binary, dcd bool) error {
	if binary && (len(labels) != 2 || !dcd && (labels[0] != -1 || labels[1] != 1)) {
		return fmt.Errorf("%w: a binary model's labels are %v, want [-1 1]", ErrCorrupt, labels)
	}
	for i := 1; i < len(labels); i++ {
		if labels[i] <= labels[i-1] {
			return fmt.Errorf("%w: labels not strictly increasing at %d", ErrCorrupt, i)
		}
	}
	return nil
}

// check validates a decoded snapshot's consistency (both file formats).
func (s *state[T]) check() error {
	switch s.scheme {
	case fit.Binary, fit.OneVsRest, fit.Argmax:
	default:
		return fmt.Errorf("%w: scheme %v", ErrCorrupt, s.scheme)
	}
	if s.algo >= numAlgorithms {
		return fmt.Errorf("%w: unknown algorithm %d", ErrCorrupt, uint8(s.algo))
	}
	if s.scheme == fit.Argmax && s.algo != Online && s.algo != Averaged {
		return fmt.Errorf("%w: an argmax model trained by %v", ErrCorrupt, s.algo)
	}
	if s.algo == DualCD && (s.scaling != ScaleNone || s.steps != 0) {
		return fmt.Errorf("%w: a linear SVM (dual coordinate descent) with scaling %v and %d steps", ErrCorrupt, s.scaling, s.steps)
	}
	if !finitePositive(s.eta) {
		return fmt.Errorf("%w: η = %v", ErrCorrupt, s.eta)
	}
	if s.scaling > ScaleFeatures {
		return fmt.Errorf("%w: unknown scaling %d", ErrCorrupt, uint8(s.scaling))
	}
	if err := checkSizes(s.d, s.labels); err != nil {
		return err
	}
	if err := s.checkState(); err != nil {
		return err
	}
	if err := checkLabels(s.labels, s.scheme == fit.Binary, s.algo == DualCD); err != nil {
		return err
	}
	r := s.rows()
	if s.voted() {
		if len(s.VOff) != r+1 || s.VOff[0] != 0 || len(s.VC) != s.VOff[r] || len(s.V) != len(s.VC)*s.d || len(s.VB) != len(s.VC) || s.W != nil || s.B != nil {
			return fmt.Errorf("%w: inconsistent voted model sizes", ErrCorrupt)
		}
		for k := range r {
			if s.VOff[k+1] < s.VOff[k] {
				return fmt.Errorf("%w: negative vector count", ErrCorrupt)
			}
		}
		for _, c := range s.VC {
			if c <= 0 {
				return fmt.Errorf("%w: survival count %d ≤ 0", ErrCorrupt, c)
			}
		}
		return checkFinite(s.V, s.VB)
	}
	if c := s.cs; c != nil && s.W == nil && len(s.B) == r && len(c.A) == r*c.Width() && s.CW == nil && s.V == nil {
		// readColumns checked the compact rows and an averaging state's
		// consistency; the sizes of that state remain.
		if a := s.avg; a != nil && (len(a.W) != r*len(a.Cols) || len(a.U) != len(a.W) || len(s.CB) != r || len(s.UB) != r) {
			return fmt.Errorf("%w: inconsistent averaging state sizes", ErrCorrupt)
		}
		return nil
	}
	if len(s.W) != r*s.d || len(s.B) != r || s.V != nil || s.VC != nil || s.VOff != nil {
		return fmt.Errorf("%w: inconsistent weight sizes", ErrCorrupt)
	}
	if err := checkFinite(s.W, s.B); err != nil {
		return err
	}
	if s.CW == nil {
		return nil
	}
	if len(s.CW) != r*s.d || len(s.CB) != r || len(s.U) != r*s.d || len(s.UB) != r {
		return fmt.Errorf("%w: inconsistent averaging state sizes", ErrCorrupt)
	}
	if err := checkFinite(s.CW, s.CB, s.U, s.UB); err != nil {
		return err
	}
	if !slices.Equal(averageOf(s.CW, s.U, s.steps), s.W) || !slices.Equal(averageOf(s.CB, s.UB, s.steps), s.B) {
		return fmt.Errorf("%w: the averaged weights are not running − sums/steps", ErrCorrupt)
	}
	return nil
}

// checkState validates the training state's scalars: steps ≥ 0 (0: none),
// λ finite and > 0 for an SVM model with the state, else 0; the averaging
// arrays are there exactly for an averaged model with the state.
func (s *state[T]) checkState() error {
	switch {
	case s.steps < 0:
		return fmt.Errorf("%w: %d steps", ErrCorrupt, s.steps)
	case s.algo == SVM && s.steps > 0 && !finitePositive(s.lambda):
		return fmt.Errorf("%w: an SVM model's λ = %v", ErrCorrupt, s.lambda)
	case (s.algo != SVM || s.steps == 0) && s.lambda != 0:
		return fmt.Errorf("%w: λ = %v in a model without an SVM's state", ErrCorrupt, s.lambda)
	case (s.CW != nil || s.CB != nil || s.U != nil || s.UB != nil) != averagingState(s.algo, s.steps > 0):
		return fmt.Errorf("%w: averaging state present %v for a %v model with %d steps", ErrCorrupt, s.CW != nil, s.algo, s.steps)
	}
	return nil
}

func checkFinite[T Float](vs ...[]T) error {
	for _, v := range vs {
		for i, x := range v {
			if !finite(x) {
				return fmt.Errorf("%w: non-finite weight %v at %d", ErrCorrupt, x, i)
			}
		}
	}
	return nil
}

// jsonCommon is the part of the JSON form both model families share: the
// envelope's header (format, version, type, kind, algorithm, dims), then
// this package's fields.
type jsonCommon struct {
	modelfile.JSONHeader
	Bias bool `json:"bias"`
	// BiasFeat is the bias feature B when it is not 1 (version 3).
	BiasFeat  float64              `json:"bias_feature,omitempty"`
	Normalize bool                 `json:"normalize"`
	NormX     bool                 `json:"normalize_features,omitempty"`
	Eta       float64              `json:"eta"`
	Labels    modelfile.Array[int] `json:"labels"`
}

// newJSONCommon returns the common fields of a model's document.
func newJSONCommon[T Float](scheme fit.Scheme, algo Algorithm, d int, bias bool, bf float64, sc Scaling, eta float64, labels []int) jsonCommon {
	c := jsonCommon{JSONHeader: modelfile.NewJSONHeader[T](jsonFormat, modelfile.SchemeName(scheme), algo.String(), d),
		Bias: bias, Normalize: sc == ScaleAugmented, NormX: sc == ScaleFeatures, Eta: eta, Labels: labels}
	if bias && bf != 1 {
		c.BiasFeat, c.Version = bf, biasFeatVersion
	}
	return c
}

// biasFeatureOf returns the document's bias feature (1 with a bias and
// none given, 0 without a bias), checking it: a version-3 document has
// one, other versions none.
func biasFeatureOf[T Float](c *jsonCommon) (float64, error) {
	switch {
	case c.Version >= biasFeatVersion && c.BiasFeat == 0:
		return 0, fmt.Errorf("%w: a version-3 document without a bias feature", ErrCorrupt)
	case c.Version < biasFeatVersion && c.BiasFeat != 0:
		return 0, fmt.Errorf("%w: a bias feature in a version-%d document", ErrCorrupt, c.Version)
	case c.BiasFeat != 0:
		return checkBiasFeature[T](c.Bias, c.BiasFeat)
	case c.Bias:
		return 1, nil
	}
	return 0, nil
}

// scaling returns the scaling of the normalisation flags, checking them.
func (c *jsonCommon) scaling() (Scaling, error) {
	if c.Version > biasFeatVersion { // version 4 is the binary form's used columns: no document has it
		return 0, fmt.Errorf("%w: a version-%d document (this package reads 1 to %d)", ErrVersion, c.Version, biasFeatVersion)
	}
	var flags byte
	if c.BiasFeat != 0 {
		flags |= flagBiasFeat
	}
	if c.Normalize {
		flags |= flagNorm
	}
	if c.NormX {
		flags |= flagNormX
	}
	return flagsScaling(c.Version, flags, false)
}

// jsonModel is the JSON form of a Model.
type jsonModel[T Float] struct {
	jsonCommon
	Steps     int64               `json:"steps,omitempty"`
	Lambda    float64             `json:"lambda,omitempty"`
	Weights   modelfile.Matrix[T] `json:"weights,omitempty"`
	Biases    modelfile.Array[T]  `json:"biases,omitempty"`
	Averaging *jsonAvg[T]         `json:"averaging,omitempty"`
	Voted     []jsonVoted[T]      `json:"voted,omitempty"`
}

// jsonAvg is an averaged model's averaging state.
type jsonAvg[T Float] struct {
	Weights modelfile.Matrix[T] `json:"running_weights"`
	Biases  modelfile.Array[T]  `json:"running_biases"`
	Sums    modelfile.Matrix[T] `json:"sums"`
	BSums   modelfile.Array[T]  `json:"bias_sums"`
}

type jsonVoted[T Float] struct {
	Vectors modelfile.Matrix[T]    `json:"vectors"`
	Biases  modelfile.Array[T]     `json:"biases"`
	Counts  modelfile.Array[int64] `json:"counts"`
}

const jsonFormat = "rosenblatt-perceptron"

// jsonAbsent are the members of a document that may be null, meaning
// absent or empty, as MarshalJSON may write an empty list and
// encoding/json reads it; a null anywhere else is ErrCorrupt.
var jsonAbsent = []string{"averaging", "voted", "vectors", "biases", "counts"}

// MarshalJSON encodes the model as a JSON document for people and other
// tools: format, version (2; 3 with bias_feature), type ("float32"/"float64"),
// kind, algorithm, dims, bias, bias_feature (the BiasFeature B, if not 1),
// normalize (Options.Normalize), normalize_features (if set),
// eta, labels, the training state's steps and lambda (if known; lambda for
// SVM), and either weights (one array per score row, the served ones) and
// biases, with for an averaged model averaging {running_weights,
// running_biases, sums, bias_sums}, or voted (per score row: vectors,
// biases, counts). Values round-trip exactly. UnmarshalJSON also reads
// version-1 documents, whose normalize meant normalize_features. A model
// whose sparse fit left its weights compact forms them dense here (and
// keeps the dense served weights from then on), unlike MarshalBinary.
func (m *Model[T]) MarshalJSON() ([]byte, error) {
	s, err := m.load()
	if err != nil {
		return nil, err
	}
	j := jsonModel[T]{jsonCommon: newJSONCommon[T](s.scheme, s.algo, s.d, s.bias, s.bfeat, s.scaling, s.eta, s.labels)}
	if s.fileState() {
		j.Steps, j.Lambda = s.steps, s.lambda
	}
	r := s.rows()
	if s.voted() {
		for k := range r {
			var v jsonVoted[T]
			for i := s.VOff[k]; i < s.VOff[k+1]; i++ {
				v.Vectors = append(v.Vectors, s.V[i*s.d:(i+1)*s.d])
			}
			v.Biases = s.VB[s.VOff[k]:s.VOff[k+1]]
			v.Counts = s.VC[s.VOff[k]:s.VOff[k+1]]
			j.Voted = append(j.Voted, v)
		}
	} else {
		rowsOf := func(w []T) [][]T {
			out := make([][]T, r)
			for k := range r {
				out[k] = w[k*s.d : (k+1)*s.d]
			}
			return out
		}
		j.Weights, j.Biases = rowsOf(s.W), s.B
		if CW, U := s.averaging(); CW != nil && s.fileState() {
			j.Averaging = &jsonAvg[T]{Weights: rowsOf(CW), Biases: s.CB, Sums: rowsOf(U), BSums: s.UB}
		}
	}
	return json.Marshal(j)
}

// UnmarshalJSON decodes a document written by MarshalJSON into m, with the
// same checks as UnmarshalBinary (ErrCorrupt, ErrVersion, ErrMismatch).
func (m *Model[T]) UnmarshalJSON(data []byte) error {
	var j jsonModel[T]
	if err := fileErrs.Decode(data, &j, jsonAbsent...); err != nil {
		return err
	}
	switch j.Format {
	case jsonFormat:
	case modelfile.SVMJSONFormat: // a linear SVM's document of kind 40 or 41
		return m.unmarshalSVMJSON(&j)
	default:
		return fmt.Errorf("%w: format %q, want %q", ErrCorrupt, j.Format, jsonFormat)
	}
	if err := fileErrs.CheckVersion(j.Version); err != nil {
		return err
	}
	if err := modelfile.CheckType[T](fileErrs, &j.JSONHeader); err != nil {
		return err
	}
	scaling, err := j.scaling()
	if err != nil {
		return err
	}
	if j.Version == 1 && (j.Steps != 0 || j.Lambda != 0 || j.Averaging != nil) {
		return fmt.Errorf("%w: a version-1 document with a training state", ErrCorrupt)
	}
	s := &state[T]{d: j.Dims, bias: j.Bias, scaling: scaling, eta: j.Eta, labels: j.Labels, steps: j.Steps, lambda: j.Lambda, resumable: j.Steps > 0}
	if s.bfeat, err = biasFeatureOf[T](&j.jsonCommon); err != nil {
		return err
	}
	switch j.Kind {
	case "binary":
		s.scheme = fit.Binary
	case "ovr":
		s.scheme = fit.OneVsRest
	case "argmax":
		s.scheme = fit.Argmax
	default:
		return fmt.Errorf("%w: kind %q", ErrCorrupt, j.Kind)
	}
	a, err := ParseAlgorithm(j.Algorithm)
	if err != nil {
		return fmt.Errorf("%w: algorithm %q", ErrCorrupt, j.Algorithm)
	}
	s.algo = a
	if err := checkSizes(s.d, s.labels); err != nil {
		return err
	}
	r := s.rows()
	rowsOf := func(vs [][]T) ([]T, error) {
		for _, v := range vs {
			if len(v) != s.d {
				return nil, fmt.Errorf("%w: a vector of %d values, want %d", ErrCorrupt, len(v), s.d)
			}
		}
		return modelfile.Flat(vs), nil // the decoded rows' own array: no copy
	}
	if s.algo == Voted {
		if len(j.Voted) != r || j.Weights != nil || j.Biases != nil {
			return fmt.Errorf("%w: a voted model needs %d voted entries and no weights", ErrCorrupt, r)
		}
		s.VOff = make([]int, r+1)
		n := 0
		for _, v := range j.Voted {
			n += len(v.Vectors)
		}
		s.V, s.VB, s.VC = make([]T, 0, n*s.d), make([]T, 0, n), make([]int64, 0, n)
		for k, v := range j.Voted {
			if len(v.Biases) != len(v.Vectors) || len(v.Counts) != len(v.Vectors) {
				return fmt.Errorf("%w: voted entry %d has %d vectors, %d biases, %d counts", ErrCorrupt, k, len(v.Vectors), len(v.Biases), len(v.Counts))
			}
			vv, err := rowsOf(v.Vectors)
			if err != nil {
				return err
			}
			s.V = append(s.V, vv...)
			s.VB = append(s.VB, v.Biases...)
			s.VC = append(s.VC, v.Counts...)
			s.VOff[k+1] = len(s.VC)
		}
	} else {
		if len(j.Weights) != r || len(j.Biases) != r || j.Voted != nil {
			return fmt.Errorf("%w: %d weight rows and %d biases, want %d", ErrCorrupt, len(j.Weights), len(j.Biases), r)
		}
		if s.W, err = rowsOf(j.Weights); err != nil {
			return err
		}
		s.B = slices.Clone(j.Biases)
		if a := j.Averaging; a != nil {
			if len(a.Weights) != r || len(a.Biases) != r || len(a.Sums) != r || len(a.BSums) != r {
				return fmt.Errorf("%w: averaging state with %d, %d, %d, %d rows, want %d", ErrCorrupt, len(a.Weights), len(a.Biases), len(a.Sums), len(a.BSums), r)
			}
			if s.CW, err = rowsOf(a.Weights); err != nil {
				return err
			}
			if s.U, err = rowsOf(a.Sums); err != nil {
				return err
			}
			s.CB, s.UB = slices.Clone(a.Biases), slices.Clone(a.BSums)
		}
	}
	if j.Averaging != nil && s.algo == Voted {
		return fmt.Errorf("%w: a voted model with an averaging state", ErrCorrupt)
	}
	return m.publish(s)
}
