package perceptron

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"math"
	"math/bits"
	"slices"
	"unsafe"
)

const (
	fileMagic   = "RBLTPCPT"
	fileVersion = 2 // the version written; 1 is read too
	headerSize  = 40
	maxDims     = 1 << 30
	maxLabels   = 1 << 24
	flagBias    = 1
	flagNorm    = 2 // version 2: ScaleAugmented; version 1: ScaleFeatures
	flagNormX   = 4 // version 2: ScaleFeatures
	flagState   = 8 // version 2, linear models: the training state follows the labels
	stateSize   = 16
)

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

// flagsScaling decodes the scaling of a header's flags, checking that the
// version allows them: version 1 knows bias and normalise (the features),
// version 2 also ScaleAugmented, and the state bit where allowState.
func flagsScaling(version int, flags byte, allowState bool) (Scaling, error) {
	known := byte(flagBias | flagNorm)
	if version >= 2 {
		known |= flagNormX
		if allowState {
			known |= flagState
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

// checkVersion accepts the versions this package reads.
func checkVersion(v int) error {
	if v != 1 && v != fileVersion {
		return fmt.Errorf("%w: version %d (this package reads 1 and %d)", ErrVersion, v, fileVersion)
	}
	return nil
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

func elemSize[T Float]() int {
	var z T
	return int(unsafe.Sizeof(z))
}

func elemName(size int) string {
	if size == 4 {
		return "float32"
	}
	return "float64"
}

func appendElems[T Float](b []byte, v []T) []byte {
	for _, x := range v {
		if elemSize[T]() == 4 {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(x)))
		} else {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(float64(x)))
		}
	}
	return b
}

// MarshalBinary encodes the model in a checksummed little-endian format. It
// implements encoding.BinaryMarshaler. The layout (version 2):
//
//	offset size  field
//	0      8     magic "RBLTPCPT"
//	8      2     format version (2)
//	10     1     element size in bytes: 4 (float32) or 8 (float64)
//	11     1     Kind (1 binary, 2 one-vs-rest, 3 argmax; ≥ 16 kernel models)
//	12     1     Algorithm
//	13     1     flags: bit 0 bias, bit 1 Normalize (ScaleAugmented),
//	             bit 2 NormalizeFeatures, bit 3 training state (other bits 0)
//	14     2     reserved, 0
//	16     4     D, features per sample
//	20     4     L, number of labels (2 for binary)
//	24     4     M, voted vectors in total (0 for linear models)
//	28     4     reserved, 0
//	32     8     η of Update, float64
//	40     8·L   labels, int64, increasing
//	then, if flag bit 3, the training state (16 bytes):
//	             steps, the samples visited, uint64 > 0; λ, float64 (SVM:
//	             the finite λ > 0 it trained with; else 0)
//	then, for a linear model with R score rows (1 binary, L otherwise):
//	             R·D weights, row-major, then R biases (element type): the
//	             served ones (for Averaged, the average)
//	             Averaged with the state: then R·D running weights, R
//	             running biases, R·D averaging sums u, R sums for b, with
//	             weights = running − u/steps exactly
//	or, for a voted model:
//	             R uint32 vector counts per score row (summing to M),
//	             M int64 survival counts (> 0), M·D vectors, M biases
//	end-4  4     CRC-32C (Castagnoli) of every byte before it
//
// Version 1, which UnmarshalBinary also reads, had no training state and
// flag bit 1 meant NormalizeFeatures' transform (which Normalize was then);
// such a model is written back as version 2. An averaged or SVM model
// without its state cannot continue training (Update, Continue).
//
// UnmarshalBinary checks the checksum, then the sizes against the file
// length before it allocates anything, then every field; any problem is an
// error wrapping ErrCorrupt (ErrVersion for a newer format, ErrMismatch for
// a valid file of another element type or of a kernel model), never a
// panic.
func (m *Model[T]) MarshalBinary() ([]byte, error) {
	s, err := m.load()
	if err != nil {
		return nil, err
	}
	es := elemSize[T]()
	b := make([]byte, 0, headerSize+8*len(s.labels)+stateSize+es*(len(s.W)+len(s.B)+len(s.CW)+len(s.CB)+len(s.U)+len(s.UB)+len(s.V)+len(s.VB))+12*len(s.VC)+4)
	b = append(b, fileMagic...)
	b = binary.LittleEndian.AppendUint16(b, fileVersion)
	b = append(b, byte(es), byte(s.kind), byte(s.algo))
	flags := scalingFlags(s.scaling)
	if s.bias {
		flags |= flagBias
	}
	if s.hasState() {
		flags |= flagState
	}
	b = append(b, flags, 0, 0)
	b = binary.LittleEndian.AppendUint32(b, uint32(s.d))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(s.labels)))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(s.VC)))
	b = binary.LittleEndian.AppendUint32(b, 0)
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(s.eta))
	for _, l := range s.labels {
		b = binary.LittleEndian.AppendUint64(b, uint64(int64(l)))
	}
	if s.hasState() {
		b = binary.LittleEndian.AppendUint64(b, uint64(s.steps))
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(s.lambda))
	}
	if s.voted() {
		for k := range s.rows() {
			b = binary.LittleEndian.AppendUint32(b, uint32(s.VOff[k+1]-s.VOff[k]))
		}
		for _, c := range s.VC {
			b = binary.LittleEndian.AppendUint64(b, uint64(c))
		}
		b = appendElems(b, s.V)
		b = appendElems(b, s.VB)
	} else {
		b = appendElems(b, s.W)
		b = appendElems(b, s.B)
		if s.CW != nil {
			b = appendElems(b, s.CW)
			b = appendElems(b, s.CB)
			b = appendElems(b, s.U)
			b = appendElems(b, s.UB)
		}
	}
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli)), nil
}

// FileInfo describes a model file; Inspect returns it.
type FileInfo struct {
	Version   int       // format version
	ElemBits  int       // 32 or 64: the Model type parameter that reads it
	Kind      Kind      // model kind
	Algorithm Algorithm // training algorithm
	Dims      int       // features per sample
	Labels    int       // number of labels (2 for binary)
	Vectors   int       // voted vectors (0 for linear models)
}

// header is the decoded fixed part of a file.
type header struct {
	FileInfo
	flags   byte
	scaling Scaling
	state   bool // the training state follows the labels
	eta     float64
	esize   int
	rows    int
}

// averagingState reports whether a linear model of this algorithm with the
// training state carries the averaging arrays.
func averagingState(algo Algorithm, state bool) bool { return state && algo == Averaged }

// parseHeader checks the magic, version, sizes and checksum of a model file.
func parseHeader(data []byte) (header, error) {
	var h header
	if len(data) < headerSize+4 {
		return h, fmt.Errorf("%w: %d bytes, shorter than a header", ErrCorrupt, len(data))
	}
	if string(data[:8]) != fileMagic {
		return h, fmt.Errorf("%w: bad magic %q (not a rosenblatt perceptron model)", ErrCorrupt, data[:8])
	}
	le := binary.LittleEndian
	h.Version = int(le.Uint16(data[8:]))
	if err := checkVersion(h.Version); err != nil {
		return h, err
	}
	body := len(data) - 4
	if want, got := le.Uint32(data[body:]), crc32.Checksum(data[:body], castagnoli); want != got {
		return h, fmt.Errorf("%w: checksum %08x, the data gives %08x (truncated or modified)", ErrCorrupt, want, got)
	}
	h.esize = int(data[10])
	h.Kind, h.Algorithm, h.flags = Kind(data[11]), Algorithm(data[12]), data[13]
	h.Dims = int(le.Uint32(data[16:]))
	h.Labels = int(le.Uint32(data[20:]))
	h.Vectors = int(le.Uint32(data[24:]))
	h.eta = math.Float64frombits(le.Uint64(data[32:]))
	h.ElemBits = 8 * h.esize
	if h.Kind >= 16 {
		// A kernel model: its body is not ours to check, but the header
		// tells a caller which decoder to use.
		return h, fmt.Errorf("%w: a kernel model (kind %d), not a linear one", ErrMismatch, h.Kind)
	}
	switch {
	case h.esize != 4 && h.esize != 8:
		return h, fmt.Errorf("%w: element size %d", ErrCorrupt, h.esize)
	case data[14] != 0 || data[15] != 0 || le.Uint32(data[28:]) != 0:
		return h, fmt.Errorf("%w: reserved header bytes are not zero", ErrCorrupt)
	case h.Dims < 1 || h.Dims > maxDims:
		return h, fmt.Errorf("%w: %d features", ErrCorrupt, h.Dims)
	case h.Labels < 2 || h.Labels > maxLabels:
		return h, fmt.Errorf("%w: %d labels", ErrCorrupt, h.Labels)
	case h.Kind != KindBinary && h.Kind != KindOneVsRest && h.Kind != KindArgmax:
		return h, fmt.Errorf("%w: unknown model kind %d", ErrCorrupt, uint8(h.Kind))
	case h.Algorithm >= numAlgorithms:
		return h, fmt.Errorf("%w: unknown algorithm %d", ErrCorrupt, uint8(h.Algorithm))
	case !finitePositive(h.eta):
		return h, fmt.Errorf("%w: η = %v", ErrCorrupt, h.eta)
	}
	var err error
	if h.scaling, err = flagsScaling(h.Version, h.flags, true); err != nil {
		return h, err
	}
	h.state = h.flags&flagState != 0
	h.rows = h.Labels
	if h.Kind == KindBinary {
		h.rows = 1
	}
	// Expected length, in uint64: at most 2^24·(8 + 4 + 8·2^30) + ... fits.
	size := uint64(headerSize) + 8*uint64(h.Labels) + 4
	if h.state {
		size += stateSize
	}
	if averagingState(h.Algorithm, h.state) {
		size += 2 * uint64(h.esize) * uint64(h.rows) * (uint64(h.Dims) + 1)
	}
	if h.Algorithm == Voted {
		per := 8 + uint64(h.esize)*(uint64(h.Dims)+1)
		if uint64(h.Vectors) > uint64(len(data))/per {
			return h, fmt.Errorf("%w: %d voted vectors of %d features do not fit in %d bytes (truncated)", ErrCorrupt, h.Vectors, h.Dims, len(data))
		}
		size += 4*uint64(h.rows) + uint64(h.Vectors)*per
	} else {
		size += uint64(h.esize) * uint64(h.rows) * (uint64(h.Dims) + 1)
	}
	if size != uint64(len(data)) {
		return h, fmt.Errorf("%w: the header implies %d bytes, the file has %d (truncated or padded)", ErrCorrupt, size, len(data))
	}
	return h, nil
}

// Inspect checks a model file's header, size and checksum and describes
// it, without decoding the weights: a command line can pick the Model
// element type from ElemBits. Errors are as for UnmarshalBinary; for a file
// of a kernel model (Kind ≥ 16) the error wraps ErrMismatch and the
// returned FileInfo still names its kind, element type and version.
func Inspect(data []byte) (FileInfo, error) {
	h, err := parseHeader(data)
	return h.FileInfo, err
}

// EncodedSize returns the length in bytes of the binary model file, linear
// or kernel, that begins with prefix, as its header implies it, so that a
// reader can reject a bad file from its first bytes and then read no more
// of it than that: it never needs the whole file.
//
// The 40-byte header gives the size of every file but a voted kernel
// model's, which also depends on per-class counts that follow the support
// vectors. When prefix is too short to tell, EncodedSize returns size 0 and
// need > len(prefix), the number of leading bytes it must see: call it
// again with at least that many (need is 40 for an empty prefix; it is
// itself implied by the header, so it never exceeds the file's size).
// Once it returns size > 0 (need 0), a file of any other length is
// truncated or padded.
//
// Errors wrap ErrCorrupt (a bad magic, header fields no decoder accepts, a
// size beyond an int64) or ErrVersion. A header EncodedSize accepts is not
// a valid model yet: the checksum and the body are checked by
// UnmarshalBinary, which rejects every file EncodedSize rejects.
func EncodedSize(prefix []byte) (size, need int64, err error) {
	if len(prefix) < headerSize {
		if len(prefix) >= len(fileMagic) && string(prefix[:len(fileMagic)]) != fileMagic {
			return 0, 0, fmt.Errorf("%w: bad magic %q (not a rosenblatt perceptron model)", ErrCorrupt, prefix[:len(fileMagic)])
		}
		return 0, headerSize, nil
	}
	le := binary.LittleEndian
	if string(prefix[:len(fileMagic)]) != fileMagic {
		return 0, 0, fmt.Errorf("%w: bad magic %q (not a rosenblatt perceptron model)", ErrCorrupt, prefix[:len(fileMagic)])
	}
	version := int(le.Uint16(prefix[8:]))
	if err := checkVersion(version); err != nil {
		return 0, 0, err
	}
	esize, kind, algo, flags := uint64(prefix[10]), Kind(prefix[11]), Algorithm(prefix[12]), prefix[13]
	d := uint64(le.Uint32(prefix[16:]))
	nl := uint64(le.Uint32(prefix[20:]))
	m := uint64(le.Uint32(prefix[24:]))
	eta := math.Float64frombits(le.Uint64(prefix[32:]))
	switch {
	case esize != 4 && esize != 8:
		return 0, 0, fmt.Errorf("%w: element size %d", ErrCorrupt, esize)
	case prefix[14] != 0 || prefix[15] != 0 || le.Uint32(prefix[28:]) != 0:
		return 0, 0, fmt.Errorf("%w: reserved header bytes are not zero", ErrCorrupt)
	case d < 1 || d > maxDims:
		return 0, 0, fmt.Errorf("%w: %d features", ErrCorrupt, d)
	case nl < 2 || nl > maxLabels:
		return 0, 0, fmt.Errorf("%w: %d labels", ErrCorrupt, nl)
	case !finitePositive(eta):
		return 0, 0, fmt.Errorf("%w: η = %v", ErrCorrupt, eta)
	}
	if _, err := flagsScaling(version, flags, !kind.IsKernel()); err != nil {
		return 0, 0, err
	}
	state := flags&flagState != 0
	// Sizes in uint64 with an overflow check: a hostile header can ask for
	// more than 2^64 bytes.
	var sz sizer
	sz.add(headerSize, 1)
	sz.add(nl, 8)
	rows := nl
	switch kind {
	case KindBinary, KindOneVsRest, KindArgmax:
		if algo >= numAlgorithms {
			return 0, 0, fmt.Errorf("%w: unknown algorithm %d", ErrCorrupt, uint8(algo))
		}
		if kind == KindBinary {
			rows = 1
		}
		if state {
			sz.add(stateSize, 1)
		}
		switch {
		case algo == Voted:
			sz.add(rows, 4)
			sz.add(m, 8)
			sz.add(sz.mul(m, d+1), esize)
		case averagingState(algo, state):
			sz.add(sz.mul(rows, d+1), 3*esize)
		default:
			sz.add(sz.mul(rows, d+1), esize)
		}
	case KindKernelBinary, KindKernelOneVsRest, KindKernelArgmax:
		if algo != Online && algo != Averaged && algo != Voted {
			return 0, 0, fmt.Errorf("%w: a kernel model trained by %v", ErrCorrupt, algo)
		}
		if m < 1 || m > maxKernelIndex {
			return 0, 0, fmt.Errorf("%w: %d support vectors", ErrCorrupt, m)
		}
		if kind == KindKernelBinary {
			rows = 1
		}
		sz.add(kernSpecSize, 1)
		sz.add(m, 4)
		sz.add(sz.mul(m, d), esize)
		if algo != Voted {
			sz.add(sz.mul(rows, m+1), esize)
			break
		}
		// The counts: 8 bytes (Q_r mistakes, V_r kept functions) per row.
		sz.add(rows, 8)
		if sz.over {
			return 0, 0, fmt.Errorf("%w: the header implies more than 2^63 bytes", ErrCorrupt)
		}
		counts := sz.n - 8*rows
		if uint64(len(prefix)) < sz.n {
			return 0, int64(sz.n), nil
		}
		var q, v uint64
		for r := range rows {
			q += uint64(le.Uint32(prefix[counts+8*r:]))
			v += uint64(le.Uint32(prefix[counts+8*r+4:]))
		}
		sz.add(q, 4+esize)
		sz.add(v, 4+8+esize)
	default:
		return 0, 0, fmt.Errorf("%w: unknown model kind %d", ErrCorrupt, uint8(kind))
	}
	sz.add(4, 1) // the checksum
	if sz.over {
		return 0, 0, fmt.Errorf("%w: the header implies more than 2^63 bytes", ErrCorrupt)
	}
	return int64(sz.n), 0, nil
}

// sizer sums count·size terms in uint64, remembering an overflow past
// math.MaxInt64.
type sizer struct {
	n    uint64
	over bool
}

// mul returns a·b, or marks the overflow.
func (s *sizer) mul(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	if hi != 0 || lo > math.MaxInt64 {
		s.over = true
	}
	return lo
}

// add adds count·size to the sum.
func (s *sizer) add(count, size uint64) {
	t := s.mul(count, size)
	s.n += t
	if s.n < t || s.n > math.MaxInt64 {
		s.over = true
	}
}

// UnmarshalBinary decodes a model written by MarshalBinary into m,
// replacing its weights atomically (see the Model's concurrency notes). It
// implements encoding.BinaryUnmarshaler. A float64 file cannot be read into
// a Model[float32] or the reverse (ErrMismatch); a truncated, modified or
// inconsistent file is an error wrapping ErrCorrupt. data is not retained.
func (m *Model[T]) UnmarshalBinary(data []byte) error {
	h, err := parseHeader(data)
	if err != nil {
		return err
	}
	if h.esize != elemSize[T]() {
		return fmt.Errorf("%w: the file holds %s values, the model is %s", ErrMismatch, elemName(h.esize), elemName(elemSize[T]()))
	}
	le := binary.LittleEndian
	s := &state[T]{kind: h.Kind, algo: h.Algorithm, d: h.Dims, eta: h.eta,
		bias: h.flags&flagBias != 0, scaling: h.scaling}
	p := data[headerSize:]
	s.labels = make([]int, h.Labels)
	for i := range s.labels {
		v := int64(le.Uint64(p))
		if int64(int(v)) != v {
			return fmt.Errorf("%w: label %d does not fit an int", ErrCorrupt, v)
		}
		s.labels[i] = int(v)
		p = p[8:]
	}
	if h.state {
		steps := le.Uint64(p)
		if steps == 0 || steps > math.MaxInt64 {
			return fmt.Errorf("%w: %d steps in the training state", ErrCorrupt, steps)
		}
		s.steps = int64(steps)
		s.lambda = math.Float64frombits(le.Uint64(p[8:]))
		p = p[stateSize:]
	}
	elems := func(n int) []T {
		v := make([]T, n)
		for i := range v {
			if h.esize == 4 {
				v[i] = T(math.Float32frombits(le.Uint32(p[4*i:])))
			} else {
				v[i] = T(math.Float64frombits(le.Uint64(p[8*i:])))
			}
		}
		p = p[n*h.esize:]
		return v
	}
	if h.Algorithm == Voted {
		s.VOff = make([]int, h.rows+1)
		for k := range h.rows {
			s.VOff[k+1] = s.VOff[k] + int(le.Uint32(p))
			p = p[4:]
		}
		if s.VOff[h.rows] != h.Vectors {
			return fmt.Errorf("%w: per-class vector counts add up to %d, the header says %d", ErrCorrupt, s.VOff[h.rows], h.Vectors)
		}
		s.VC = make([]int64, h.Vectors)
		for i := range s.VC {
			s.VC[i] = int64(le.Uint64(p))
			p = p[8:]
		}
		s.V = elems(h.Vectors * h.Dims)
		s.VB = elems(h.Vectors)
	} else {
		s.W = elems(h.rows * h.Dims)
		s.B = elems(h.rows)
		if averagingState(h.Algorithm, h.state) {
			s.CW = elems(h.rows * h.Dims)
			s.CB = elems(h.rows)
			s.U = elems(h.rows * h.Dims)
			s.UB = elems(h.rows)
		}
	}
	if err := s.check(); err != nil {
		return err
	}
	s.k = kernelsFor[T](nil)
	m.mu.Lock()
	m.st.Store(s)
	m.mu.Unlock()
	return nil
}

// check validates a decoded snapshot's consistency (both file formats).
func (s *state[T]) check() error {
	switch s.kind {
	case KindBinary, KindOneVsRest, KindArgmax:
	default:
		return fmt.Errorf("%w: unknown model kind %d", ErrCorrupt, uint8(s.kind))
	}
	if s.algo >= numAlgorithms {
		return fmt.Errorf("%w: unknown algorithm %d", ErrCorrupt, uint8(s.algo))
	}
	if s.kind == KindArgmax && s.algo != Online && s.algo != Averaged {
		return fmt.Errorf("%w: an argmax model trained by %v", ErrCorrupt, s.algo)
	}
	if !finitePositive(s.eta) {
		return fmt.Errorf("%w: η = %v", ErrCorrupt, s.eta)
	}
	if s.scaling > ScaleFeatures {
		return fmt.Errorf("%w: unknown scaling %d", ErrCorrupt, uint8(s.scaling))
	}
	if s.d < 1 || s.d > maxDims || len(s.labels) < 2 || len(s.labels) > maxLabels {
		return fmt.Errorf("%w: %d features, %d labels", ErrCorrupt, s.d, len(s.labels))
	}
	if err := s.checkState(); err != nil {
		return err
	}
	if s.kind == KindBinary {
		if len(s.labels) != 2 || s.labels[0] != -1 || s.labels[1] != 1 {
			return fmt.Errorf("%w: a binary model's labels are %v, want [-1 1]", ErrCorrupt, s.labels)
		}
	}
	for i := 1; i < len(s.labels); i++ {
		if s.labels[i] <= s.labels[i-1] {
			return fmt.Errorf("%w: labels not strictly increasing at %d", ErrCorrupt, i)
		}
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

// jsonModel is the JSON form of a Model.
type jsonModel[T Float] struct {
	Format    string         `json:"format"`
	Version   int            `json:"version"`
	Type      string         `json:"type"`
	Kind      string         `json:"kind"`
	Algorithm string         `json:"algorithm"`
	Dims      int            `json:"dims"`
	Bias      bool           `json:"bias"`
	Normalize bool           `json:"normalize"`
	NormX     bool           `json:"normalize_features,omitempty"`
	Eta       float64        `json:"eta"`
	Labels    []int          `json:"labels"`
	Steps     int64          `json:"steps,omitempty"`
	Lambda    float64        `json:"lambda,omitempty"`
	Weights   [][]T          `json:"weights,omitempty"`
	Biases    []T            `json:"biases,omitempty"`
	Averaging *jsonAvg[T]    `json:"averaging,omitempty"`
	Voted     []jsonVoted[T] `json:"voted,omitempty"`
}

// jsonAvg is an averaged model's averaging state.
type jsonAvg[T Float] struct {
	Weights [][]T `json:"running_weights"`
	Biases  []T   `json:"running_biases"`
	Sums    [][]T `json:"sums"`
	BSums   []T   `json:"bias_sums"`
}

type jsonVoted[T Float] struct {
	Vectors [][]T   `json:"vectors"`
	Biases  []T     `json:"biases"`
	Counts  []int64 `json:"counts"`
}

const jsonFormat = "rosenblatt-perceptron"

// MarshalJSON encodes the model as a JSON document for people and other
// tools: format, version (2), type ("float32"/"float64"), kind, algorithm,
// dims, bias, normalize (Options.Normalize), normalize_features (if set),
// eta, labels, the training state's steps and lambda (if known; lambda for
// SVM), and either weights (one array per score row, the served ones) and
// biases, with for an averaged model averaging {running_weights,
// running_biases, sums, bias_sums}, or voted (per score row: vectors,
// biases, counts). Values round-trip exactly. UnmarshalJSON also reads
// version-1 documents, whose normalize meant normalize_features.
func (m *Model[T]) MarshalJSON() ([]byte, error) {
	s, err := m.load()
	if err != nil {
		return nil, err
	}
	j := jsonModel[T]{Format: jsonFormat, Version: fileVersion, Type: elemName(elemSize[T]()),
		Kind: s.kind.String(), Algorithm: s.algo.String(), Dims: s.d, Bias: s.bias,
		Normalize: s.scaling == ScaleAugmented, NormX: s.scaling == ScaleFeatures,
		Eta: s.eta, Labels: s.labels, Steps: s.steps, Lambda: s.lambda}
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
		if s.CW != nil {
			j.Averaging = &jsonAvg[T]{Weights: rowsOf(s.CW), Biases: s.CB, Sums: rowsOf(s.U), BSums: s.UB}
		}
	}
	return json.Marshal(j)
}

// UnmarshalJSON decodes a document written by MarshalJSON into m, with the
// same checks as UnmarshalBinary (ErrCorrupt, ErrVersion, ErrMismatch).
func (m *Model[T]) UnmarshalJSON(data []byte) error {
	var j jsonModel[T]
	if err := json.Unmarshal(data, &j); err != nil {
		return fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	if j.Format != jsonFormat {
		return fmt.Errorf("%w: format %q, want %q", ErrCorrupt, j.Format, jsonFormat)
	}
	if err := checkVersion(j.Version); err != nil {
		return err
	}
	if want := elemName(elemSize[T]()); j.Type != want {
		if j.Type == "float32" || j.Type == "float64" {
			return fmt.Errorf("%w: the document holds %s values, the model is %s", ErrMismatch, j.Type, want)
		}
		return fmt.Errorf("%w: type %q", ErrCorrupt, j.Type)
	}
	var flags byte
	if j.Normalize {
		flags |= flagNorm
	}
	if j.NormX {
		flags |= flagNormX
	}
	scaling, err := flagsScaling(j.Version, flags, false)
	if err != nil {
		return err
	}
	if j.Version == 1 && (j.Steps != 0 || j.Lambda != 0 || j.Averaging != nil) {
		return fmt.Errorf("%w: a version-1 document with a training state", ErrCorrupt)
	}
	s := &state[T]{d: j.Dims, bias: j.Bias, scaling: scaling, eta: j.Eta, labels: j.Labels, steps: j.Steps, lambda: j.Lambda}
	switch j.Kind {
	case "binary":
		s.kind = KindBinary
	case "ovr":
		s.kind = KindOneVsRest
	case "argmax":
		s.kind = KindArgmax
	default:
		return fmt.Errorf("%w: kind %q", ErrCorrupt, j.Kind)
	}
	a, err := ParseAlgorithm(j.Algorithm)
	if err != nil {
		return fmt.Errorf("%w: algorithm %q", ErrCorrupt, j.Algorithm)
	}
	s.algo = a
	if s.d < 1 || s.d > maxDims || len(s.labels) < 2 || len(s.labels) > maxLabels {
		return fmt.Errorf("%w: %d features, %d labels", ErrCorrupt, s.d, len(s.labels))
	}
	r := s.rows()
	rowsOf := func(vs [][]T) ([]T, error) {
		var out []T // grown as the vectors are checked: dims alone may lie
		for _, v := range vs {
			if len(v) != s.d {
				return nil, fmt.Errorf("%w: a vector of %d values, want %d", ErrCorrupt, len(v), s.d)
			}
			out = append(out, v...)
		}
		return out, nil
	}
	if s.algo == Voted {
		if len(j.Voted) != r || j.Weights != nil || j.Biases != nil {
			return fmt.Errorf("%w: a voted model needs %d voted entries and no weights", ErrCorrupt, r)
		}
		s.VOff = make([]int, r+1)
		s.V, s.VB, s.VC = []T{}, []T{}, []int64{}
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
	if err := s.check(); err != nil {
		return err
	}
	s.k = kernelsFor[T](nil)
	m.mu.Lock()
	m.st.Store(s)
	m.mu.Unlock()
	return nil
}
