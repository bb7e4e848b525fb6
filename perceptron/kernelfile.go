package perceptron

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"math"

	"github.com/rosenblatt-go/rosenblatt/gram"
)

// Kernel function codes of the model file.
const (
	kernCodeLinear = 0
	kernCodePoly   = 1
	kernCodeRBF    = 2
	kernSpecSize   = 24
	maxKernelIndex = math.MaxInt32
)

// appendKernelSpec appends the 24-byte kernel description.
func appendKernelSpec(b []byte, k gram.Kernel) []byte {
	var code byte
	var gamma, coef0 float64
	var degree uint32
	switch v := k.(type) {
	case gram.Polynomial:
		code, gamma, coef0, degree = kernCodePoly, v.Gamma, v.Coef0, uint32(v.Degree)
	case gram.RBF:
		code, gamma = kernCodeRBF, v.Gamma
	}
	b = append(b, code, 0, 0, 0)
	b = binary.LittleEndian.AppendUint32(b, degree)
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(gamma))
	return binary.LittleEndian.AppendUint64(b, math.Float64bits(coef0))
}

// parseKernelSpec decodes the 24-byte kernel description; unused fields
// must be zero, so that an accepted file re-encodes to the same bytes.
func parseKernelSpec(p []byte) (gram.Kernel, error) {
	le := binary.LittleEndian
	code := p[0]
	degree := le.Uint32(p[4:])
	gamma := math.Float64frombits(le.Uint64(p[8:]))
	coef0b := le.Uint64(p[16:])
	coef0 := math.Float64frombits(coef0b)
	if p[1] != 0 || p[2] != 0 || p[3] != 0 {
		return nil, fmt.Errorf("%w: reserved kernel bytes are not zero", ErrCorrupt)
	}
	var k gram.Kernel
	switch code {
	case kernCodeLinear:
		if degree != 0 || le.Uint64(p[8:]) != 0 || coef0b != 0 {
			return nil, fmt.Errorf("%w: linear kernel with parameters", ErrCorrupt)
		}
		k = gram.Linear{}
	case kernCodePoly:
		if degree > math.MaxInt32 {
			return nil, fmt.Errorf("%w: polynomial degree %d", ErrCorrupt, degree)
		}
		k = gram.Polynomial{Gamma: gamma, Coef0: coef0, Degree: int(degree)}
	case kernCodeRBF:
		if degree != 0 || coef0b != 0 {
			return nil, fmt.Errorf("%w: rbf kernel with a degree or coef0", ErrCorrupt)
		}
		k = gram.RBF{Gamma: gamma}
	default:
		return nil, fmt.Errorf("%w: unknown kernel code %d", ErrCorrupt, code)
	}
	if err := k.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	return k, nil
}

// MarshalBinary encodes the model in the checksummed little-endian format
// of the linear models (see Model.MarshalBinary), with a kernel Kind (16
// binary, 17 one-vs-rest, 18 argmax) and M = S, the number of support
// vectors. It implements encoding.BinaryMarshaler. After the 40-byte header
// and the L labels:
//
//	size   field
//	24     kernel: code (0 linear, 1 polynomial, 2 rbf), 3 bytes 0,
//	       degree uint32, gamma float64, coef0 float64 (unused fields 0)
//	4·S    training row index of each support vector, uint32, increasing
//	S·D    support vectors, row-major (element type)
//
// then, for a plain or averaged model with R score rows (1 binary, L
// otherwise):
//
//	R·S    coefficients, row-major, then R biases (element type)
//
// or, for a voted model:
//
//	8·R    per score row: Q_r mistakes and V_r kept functions, uint32 each
//	4·Q    support vector index of each mistake (rows in order), uint32
//	Q      step of each mistake (element type)
//	4·V    prefix length of each kept function within its row's mistakes
//	8·V    survival counts, int64 > 0
//	V      biases (element type)
//
// and the CRC-32C of every byte before it. UnmarshalBinary checks the
// checksum, the sizes against the file length before allocating, and every
// field.
func (m *KernelModel[T]) MarshalBinary() ([]byte, error) {
	s, err := m.load()
	if err != nil {
		return nil, err
	}
	le := binary.LittleEndian
	es := elemSize[T]()
	size := headerSize + 8*len(s.labels) + kernSpecSize + 4*len(s.idx) + es*(len(s.SV)+len(s.Coef)+len(s.B)+len(s.QStep)+len(s.VB)) +
		8*(len(s.QOff)-1) + 4*len(s.QIdx) + 12*len(s.VC) + 4
	b := make([]byte, 0, max(size, 0))
	b = append(b, fileMagic...)
	b = le.AppendUint16(b, fileVersion)
	b = append(b, byte(es), byte(s.kind), byte(s.algo))
	flags := scalingFlags(s.scaling)
	if s.bias {
		flags |= flagBias
	}
	b = append(b, flags, 0, 0)
	b = le.AppendUint32(b, uint32(s.d))
	b = le.AppendUint32(b, uint32(len(s.labels)))
	b = le.AppendUint32(b, uint32(s.nsv()))
	b = le.AppendUint32(b, 0)
	b = le.AppendUint64(b, math.Float64bits(s.eta))
	for _, l := range s.labels {
		b = le.AppendUint64(b, uint64(int64(l)))
	}
	b = appendKernelSpec(b, s.kern)
	for _, j := range s.idx {
		b = le.AppendUint32(b, uint32(j))
	}
	b = appendElems(b, s.SV)
	if s.voted() {
		for r := range s.nrows() {
			b = le.AppendUint32(b, uint32(s.QOff[r+1]-s.QOff[r]))
			b = le.AppendUint32(b, uint32(s.VOff[r+1]-s.VOff[r]))
		}
		for _, q := range s.QIdx {
			b = le.AppendUint32(b, uint32(q))
		}
		b = appendElems(b, s.QStep)
		for _, p := range s.VPre {
			b = le.AppendUint32(b, uint32(p))
		}
		for _, c := range s.VC {
			b = le.AppendUint64(b, uint64(c))
		}
		b = appendElems(b, s.VB)
	} else {
		b = appendElems(b, s.Coef)
		b = appendElems(b, s.B)
	}
	return le.AppendUint32(b, crc32.Checksum(b, castagnoli)), nil
}

// kreader walks a model file's body, checking every size against the bytes
// left before anything is allocated.
type kreader struct {
	p   []byte
	err error
}

// take returns the next count·size bytes, or nil (and sets err) if the
// file is shorter.
func (r *kreader) take(count uint64, size uint64, what string) []byte {
	if r.err != nil {
		return nil
	}
	if size != 0 && count > uint64(len(r.p))/size {
		r.err = fmt.Errorf("%w: %d %s do not fit in the %d bytes left (truncated)", ErrCorrupt, count, what, len(r.p))
		return nil
	}
	n := count * size
	out := r.p[:n:n]
	r.p = r.p[n:]
	return out
}

// UnmarshalBinary decodes a model written by MarshalBinary into m,
// replacing it atomically (see the KernelModel's concurrency notes). It
// implements encoding.BinaryUnmarshaler. A float64 file cannot be read into
// a KernelModel[float32] or the reverse, nor a linear model's file into a
// KernelModel (ErrMismatch); a truncated, modified or inconsistent file is
// an error wrapping ErrCorrupt (ErrVersion for a newer format), never a
// panic. data is not retained.
func (m *KernelModel[T]) UnmarshalBinary(data []byte) error {
	le := binary.LittleEndian
	if len(data) < headerSize+4 {
		return fmt.Errorf("%w: %d bytes, shorter than a header", ErrCorrupt, len(data))
	}
	if string(data[:8]) != fileMagic {
		return fmt.Errorf("%w: bad magic %q (not a rosenblatt perceptron model)", ErrCorrupt, data[:8])
	}
	version := int(le.Uint16(data[8:]))
	if err := checkVersion(version); err != nil {
		return err
	}
	body := len(data) - 4
	if want, got := le.Uint32(data[body:]), crc32.Checksum(data[:body], castagnoli); want != got {
		return fmt.Errorf("%w: checksum %08x, the data gives %08x (truncated or modified)", ErrCorrupt, want, got)
	}
	esize, kind, algo, flags := int(data[10]), Kind(data[11]), Algorithm(data[12]), data[13]
	switch {
	case esize != 4 && esize != 8:
		return fmt.Errorf("%w: element size %d", ErrCorrupt, esize)
	case kind == KindBinary || kind == KindOneVsRest || kind == KindArgmax:
		return fmt.Errorf("%w: a linear model (kind %v); read it with Model", ErrMismatch, kind)
	case kind != KindKernelBinary && kind != KindKernelOneVsRest && kind != KindKernelArgmax:
		return fmt.Errorf("%w: unknown model kind %d", ErrCorrupt, uint8(kind))
	case esize != elemSize[T]():
		return fmt.Errorf("%w: the file holds %s values, the model is %s", ErrMismatch, elemName(esize), elemName(elemSize[T]()))
	case data[14] != 0 || data[15] != 0 || le.Uint32(data[28:]) != 0:
		return fmt.Errorf("%w: reserved header bytes are not zero", ErrCorrupt)
	}
	scaling, err := flagsScaling(version, flags, false)
	if err != nil {
		return err
	}
	d := uint64(le.Uint32(data[16:]))
	nl := uint64(le.Uint32(data[20:]))
	S := uint64(le.Uint32(data[24:]))
	if d < 1 || d > maxDims || nl < 2 || nl > maxLabels || S < 1 || S > maxKernelIndex {
		return fmt.Errorf("%w: %d features, %d labels, %d support vectors", ErrCorrupt, d, nl, S)
	}
	s := &kstate[T]{kind: kind, algo: algo, d: int(d), eta: math.Float64frombits(le.Uint64(data[32:])),
		bias: flags&flagBias != 0, scaling: scaling}
	r := &kreader{p: data[headerSize:body]}
	lab := r.take(nl, 8, "labels")
	spec := r.take(1, kernSpecSize, "kernel bytes")
	idx := r.take(S, 4, "support indices")
	sv := r.take(S*d, uint64(esize), "support vector values")
	R := nl
	if kind == KindKernelBinary {
		R = 1
	}
	var coef, bs, counts, qidx, qstep, vpre, vc, vb []byte
	var Q, V uint64
	if algo == Voted {
		counts = r.take(R, 8, "per-class counts")
		if r.err == nil {
			for k := range R {
				Q += uint64(le.Uint32(counts[8*k:]))
				V += uint64(le.Uint32(counts[8*k+4:]))
			}
		}
		qidx = r.take(Q, 4, "mistakes")
		qstep = r.take(Q, uint64(esize), "mistake steps")
		vpre = r.take(V, 4, "kept functions")
		vc = r.take(V, 8, "survival counts")
		vb = r.take(V, uint64(esize), "kept biases")
	} else {
		coef = r.take(R*S, uint64(esize), "coefficients")
		bs = r.take(R, uint64(esize), "biases")
	}
	if r.err != nil {
		return r.err
	}
	if len(r.p) != 0 {
		return fmt.Errorf("%w: %d bytes after the model (padded)", ErrCorrupt, len(r.p))
	}
	if s.kern, err = parseKernelSpec(spec); err != nil {
		return err
	}
	s.labels = make([]int, nl)
	for i := range s.labels {
		v := int64(le.Uint64(lab[8*i:]))
		if int64(int(v)) != v {
			return fmt.Errorf("%w: label %d does not fit an int", ErrCorrupt, v)
		}
		s.labels[i] = int(v)
	}
	s.idx = make([]int, S)
	for i := range s.idx {
		s.idx[i] = int(le.Uint32(idx[4*i:]))
	}
	elems := func(p []byte) []T {
		v := make([]T, len(p)/esize)
		for i := range v {
			if esize == 4 {
				v[i] = T(math.Float32frombits(le.Uint32(p[4*i:])))
			} else {
				v[i] = T(math.Float64frombits(le.Uint64(p[8*i:])))
			}
		}
		return v
	}
	s.SV = elems(sv)
	if algo == Voted {
		s.QOff = make([]int, R+1)
		s.VOff = make([]int, R+1)
		for k := range R {
			s.QOff[k+1] = s.QOff[k] + int(le.Uint32(counts[8*k:]))
			s.VOff[k+1] = s.VOff[k] + int(le.Uint32(counts[8*k+4:]))
		}
		s.QIdx = make([]int32, Q)
		for i := range s.QIdx {
			v := le.Uint32(qidx[4*i:])
			if v >= uint32(S) {
				return fmt.Errorf("%w: mistake %d names support vector %d of %d", ErrCorrupt, i, v, S)
			}
			s.QIdx[i] = int32(v)
		}
		s.QStep = elems(qstep)
		s.VPre = make([]int32, V)
		for i := range s.VPre {
			v := le.Uint32(vpre[4*i:])
			if v > maxKernelIndex {
				return fmt.Errorf("%w: prefix %d", ErrCorrupt, v)
			}
			s.VPre[i] = int32(v)
		}
		s.VC = make([]int64, V)
		for i := range s.VC {
			s.VC[i] = int64(le.Uint64(vc[8*i:]))
		}
		s.VB = elems(vb)
	} else {
		s.Coef = elems(coef)
		s.B = elems(bs)
	}
	return m.publish(s)
}

// publish checks a decoded state, prepares it and stores it in m.
func (m *KernelModel[T]) publish(s *kstate[T]) error {
	if err := s.check(); err != nil {
		return err
	}
	if err := s.init(); err != nil {
		return fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	m.mu.Lock()
	m.st.Store(s)
	m.mu.Unlock()
	return nil
}

// check validates a decoded kernel model's consistency (both formats).
func (s *kstate[T]) check() error {
	switch s.kind {
	case KindKernelBinary, KindKernelOneVsRest, KindKernelArgmax:
	default:
		return fmt.Errorf("%w: unknown kernel model kind %d", ErrCorrupt, uint8(s.kind))
	}
	switch s.algo {
	case Online, Averaged, Voted:
	default:
		return fmt.Errorf("%w: a kernel model trained by %v", ErrCorrupt, s.algo)
	}
	if s.kind == KindKernelArgmax && s.algo == Voted {
		return fmt.Errorf("%w: a voted argmax model", ErrCorrupt)
	}
	if !finitePositive(s.eta) {
		return fmt.Errorf("%w: η = %v", ErrCorrupt, s.eta)
	}
	if s.d < 1 || s.d > maxDims || len(s.labels) < 2 || len(s.labels) > maxLabels {
		return fmt.Errorf("%w: %d features, %d labels", ErrCorrupt, s.d, len(s.labels))
	}
	if s.kind == KindKernelBinary && (len(s.labels) != 2 || s.labels[0] != -1 || s.labels[1] != 1) {
		return fmt.Errorf("%w: a binary model's labels are %v, want [-1 1]", ErrCorrupt, s.labels)
	}
	for i := 1; i < len(s.labels); i++ {
		if s.labels[i] <= s.labels[i-1] {
			return fmt.Errorf("%w: labels not strictly increasing at %d", ErrCorrupt, i)
		}
	}
	if s.kern == nil {
		return fmt.Errorf("%w: no kernel", ErrCorrupt)
	}
	if err := s.kern.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	S := len(s.idx)
	if S < 1 || S > maxKernelIndex || len(s.SV) != S*s.d {
		return fmt.Errorf("%w: %d support vectors with %d values", ErrCorrupt, S, len(s.SV))
	}
	for i, j := range s.idx {
		if j < 0 || j > maxKernelIndex || i > 0 && j <= s.idx[i-1] {
			return fmt.Errorf("%w: support indices not increasing at %d", ErrCorrupt, i)
		}
	}
	if err := checkFinite(s.SV); err != nil {
		return err
	}
	R := s.nrows()
	if !s.voted() {
		if len(s.Coef) != R*S || len(s.B) != R || s.QOff != nil || s.VOff != nil {
			return fmt.Errorf("%w: inconsistent coefficient sizes", ErrCorrupt)
		}
		return checkFinite(s.Coef, s.B)
	}
	if s.Coef != nil || s.B != nil || len(s.QOff) != R+1 || len(s.VOff) != R+1 || s.QOff[0] != 0 || s.VOff[0] != 0 ||
		s.QOff[R] != len(s.QIdx) || len(s.QStep) != len(s.QIdx) ||
		s.VOff[R] != len(s.VC) || len(s.VPre) != len(s.VC) || len(s.VB) != len(s.VC) {
		return fmt.Errorf("%w: inconsistent voted model sizes", ErrCorrupt)
	}
	for r := range R {
		if s.QOff[r+1] < s.QOff[r] || s.VOff[r+1] < s.VOff[r] {
			return fmt.Errorf("%w: negative count in score row %d", ErrCorrupt, r)
		}
		q := int32(s.QOff[r+1] - s.QOff[r])
		prev := int32(0)
		for v := s.VOff[r]; v < s.VOff[r+1]; v++ {
			if p := s.VPre[v]; p < prev || p > q {
				return fmt.Errorf("%w: kept function %d has prefix %d (previous %d, %d mistakes)", ErrCorrupt, v, p, prev, q)
			}
			prev = s.VPre[v]
		}
	}
	for i, q := range s.QIdx {
		if q < 0 || int(q) >= S {
			return fmt.Errorf("%w: mistake %d names support vector %d of %d", ErrCorrupt, i, q, S)
		}
	}
	for _, c := range s.VC {
		if c <= 0 {
			return fmt.Errorf("%w: survival count %d ≤ 0", ErrCorrupt, c)
		}
	}
	return checkFinite(s.QStep, s.VB)
}

// jsonKernelModel is the JSON form of a KernelModel.
type jsonKernelModel[T Float] struct {
	Format         string               `json:"format"`
	Version        int                  `json:"version"`
	Type           string               `json:"type"`
	Kind           string               `json:"kind"`
	Algorithm      string               `json:"algorithm"`
	Dims           int                  `json:"dims"`
	Bias           bool                 `json:"bias"`
	Normalize      bool                 `json:"normalize"`
	NormX          bool                 `json:"normalize_features,omitempty"`
	Eta            float64              `json:"eta"`
	Labels         []int                `json:"labels"`
	Kernel         jsonKernel           `json:"kernel"`
	SupportIndices []int                `json:"support_indices"`
	SupportVectors [][]T                `json:"support_vectors"`
	Coefficients   [][]T                `json:"coefficients,omitempty"`
	Biases         []T                  `json:"biases,omitempty"`
	Voted          []jsonKernelVoted[T] `json:"voted,omitempty"`
}

type jsonKernel struct {
	Type   string  `json:"type"` // "linear", "poly", "rbf"
	Gamma  float64 `json:"gamma,omitempty"`
	Coef0  float64 `json:"coef0,omitempty"`
	Degree int     `json:"degree,omitempty"`
}

// jsonKernelVoted is one score row of a voted kernel model.
type jsonKernelVoted[T Float] struct {
	Mistakes []int32 `json:"mistakes"` // support vector index of each mistake
	Steps    []T     `json:"steps"`    // its step η·y
	Prefixes []int32 `json:"prefixes"` // kept function = the first prefix mistakes
	Biases   []T     `json:"biases"`
	Counts   []int64 `json:"counts"`
}

// MarshalJSON encodes the model as a JSON document with the linear models'
// conventions: format, version, type, kind ("kernel-binary", "kernel-ovr",
// "kernel-argmax"), algorithm, dims, bias, normalize, eta, labels, plus
// kernel {type, gamma, coef0, degree}, support_indices, support_vectors,
// and either coefficients (one array per score row) and biases, or voted
// (per score row: mistakes, steps, prefixes, biases, counts). Values
// round-trip exactly.
func (m *KernelModel[T]) MarshalJSON() ([]byte, error) {
	s, err := m.load()
	if err != nil {
		return nil, err
	}
	j := jsonKernelModel[T]{Format: jsonFormat, Version: fileVersion, Type: elemName(elemSize[T]()),
		Kind: s.kind.String(), Algorithm: s.algo.String(), Dims: s.d, Bias: s.bias,
		Normalize: s.scaling == ScaleAugmented, NormX: s.scaling == ScaleFeatures,
		Eta: s.eta, Labels: s.labels, SupportIndices: s.idx}
	switch k := s.kern.(type) {
	case gram.Linear:
		j.Kernel.Type = "linear"
	case gram.Polynomial:
		j.Kernel = jsonKernel{Type: "poly", Gamma: k.Gamma, Coef0: k.Coef0, Degree: k.Degree}
	case gram.RBF:
		j.Kernel = jsonKernel{Type: "rbf", Gamma: k.Gamma}
	}
	S := s.nsv()
	for i := range S {
		j.SupportVectors = append(j.SupportVectors, s.SV[i*s.d:(i+1)*s.d])
	}
	R := s.nrows()
	if s.voted() {
		for r := range R {
			j.Voted = append(j.Voted, jsonKernelVoted[T]{
				Mistakes: s.QIdx[s.QOff[r]:s.QOff[r+1]], Steps: s.QStep[s.QOff[r]:s.QOff[r+1]],
				Prefixes: s.VPre[s.VOff[r]:s.VOff[r+1]], Biases: s.VB[s.VOff[r]:s.VOff[r+1]], Counts: s.VC[s.VOff[r]:s.VOff[r+1]]})
		}
	} else {
		for r := range R {
			j.Coefficients = append(j.Coefficients, s.Coef[r*S:(r+1)*S])
		}
		j.Biases = s.B
	}
	return json.Marshal(j)
}

// UnmarshalJSON decodes a document written by MarshalJSON into m, with the
// same checks as UnmarshalBinary (ErrCorrupt, ErrVersion, ErrMismatch).
func (m *KernelModel[T]) UnmarshalJSON(data []byte) error {
	var j jsonKernelModel[T]
	if err := json.Unmarshal(data, &j); err != nil {
		return fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	if j.Format != jsonFormat {
		return fmt.Errorf("%w: format %q, want %q", ErrCorrupt, j.Format, jsonFormat)
	}
	if err := checkVersion(j.Version); err != nil {
		return err
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
	s := &kstate[T]{d: j.Dims, bias: j.Bias, scaling: scaling, eta: j.Eta, labels: j.Labels, idx: j.SupportIndices}
	switch j.Kind {
	case "kernel-binary":
		s.kind = KindKernelBinary
	case "kernel-ovr":
		s.kind = KindKernelOneVsRest
	case "kernel-argmax":
		s.kind = KindKernelArgmax
	case "binary", "ovr", "argmax":
		return fmt.Errorf("%w: a linear model (kind %q); read it with Model", ErrMismatch, j.Kind)
	default:
		return fmt.Errorf("%w: kind %q", ErrCorrupt, j.Kind)
	}
	if want := elemName(elemSize[T]()); j.Type != want {
		if j.Type == "float32" || j.Type == "float64" {
			return fmt.Errorf("%w: the document holds %s values, the model is %s", ErrMismatch, j.Type, want)
		}
		return fmt.Errorf("%w: type %q", ErrCorrupt, j.Type)
	}
	a, err := ParseAlgorithm(j.Algorithm)
	if err != nil {
		return fmt.Errorf("%w: algorithm %q", ErrCorrupt, j.Algorithm)
	}
	s.algo = a
	switch j.Kernel.Type {
	case "linear":
		if j.Kernel != (jsonKernel{Type: "linear"}) {
			return fmt.Errorf("%w: linear kernel with parameters", ErrCorrupt)
		}
		s.kern = gram.Linear{}
	case "poly":
		s.kern = gram.Polynomial{Gamma: j.Kernel.Gamma, Coef0: j.Kernel.Coef0, Degree: j.Kernel.Degree}
	case "rbf":
		if j.Kernel.Coef0 != 0 || j.Kernel.Degree != 0 {
			return fmt.Errorf("%w: rbf kernel with a degree or coef0", ErrCorrupt)
		}
		s.kern = gram.RBF{Gamma: j.Kernel.Gamma}
	default:
		return fmt.Errorf("%w: kernel type %q", ErrCorrupt, j.Kernel.Type)
	}
	if s.d < 1 || s.d > maxDims || len(s.labels) < 2 || len(s.labels) > maxLabels {
		return fmt.Errorf("%w: %d features, %d labels", ErrCorrupt, s.d, len(s.labels))
	}
	if len(j.SupportVectors) != len(s.idx) {
		return fmt.Errorf("%w: %d support vectors, %d indices", ErrCorrupt, len(j.SupportVectors), len(s.idx))
	}
	for _, v := range j.SupportVectors {
		if len(v) != s.d {
			return fmt.Errorf("%w: a support vector of %d values, want %d", ErrCorrupt, len(v), s.d)
		}
		s.SV = append(s.SV, v...)
	}
	R := s.nrows()
	if s.algo == Voted {
		if len(j.Voted) != R || j.Coefficients != nil || j.Biases != nil {
			return fmt.Errorf("%w: a voted model needs %d voted entries and no coefficients", ErrCorrupt, R)
		}
		s.QOff, s.VOff = make([]int, R+1), make([]int, R+1)
		s.QIdx, s.QStep, s.VPre, s.VB, s.VC = []int32{}, []T{}, []int32{}, []T{}, []int64{}
		for r, v := range j.Voted {
			if len(v.Steps) != len(v.Mistakes) || len(v.Biases) != len(v.Prefixes) || len(v.Counts) != len(v.Prefixes) {
				return fmt.Errorf("%w: voted entry %d has inconsistent lengths", ErrCorrupt, r)
			}
			s.QIdx = append(s.QIdx, v.Mistakes...)
			s.QStep = append(s.QStep, v.Steps...)
			s.VPre = append(s.VPre, v.Prefixes...)
			s.VB = append(s.VB, v.Biases...)
			s.VC = append(s.VC, v.Counts...)
			s.QOff[r+1] = len(s.QIdx)
			s.VOff[r+1] = len(s.VC)
		}
	} else {
		if len(j.Coefficients) != R || len(j.Biases) != R || j.Voted != nil {
			return fmt.Errorf("%w: %d coefficient rows and %d biases, want %d", ErrCorrupt, len(j.Coefficients), len(j.Biases), R)
		}
		for _, c := range j.Coefficients {
			if len(c) != len(s.idx) {
				return fmt.Errorf("%w: a coefficient row of %d values, want %d", ErrCorrupt, len(c), len(s.idx))
			}
			s.Coef = append(s.Coef, c...)
		}
		s.B = append([]T(nil), j.Biases...)
	}
	return m.publish(s)
}
