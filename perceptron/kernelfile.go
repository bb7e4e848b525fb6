package perceptron

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"

	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/internal/modelfile"
)

const (
	// flagSparseSV marks a kernel model file (version 2) whose support
	// vectors are sparse rows (a model trained on CSR data).
	flagSparseSV   = 16
	kernSpecSize   = modelfile.KernelSize
	kernCodeLinear = modelfile.KernelLinear
	maxKernelIndex = math.MaxInt32
)

// MarshalBinary encodes the model in the checksummed little-endian format
// of the linear models (see Model.MarshalBinary), with a kernel Kind (16
// binary, 17 one-vs-rest, 18 argmax) and M = S, the number of support
// vectors. It implements encoding.BinaryMarshaler. After the 40-byte header
// and the L labels (and, with flag bit 5, version 3, the bias feature B as
// a float64, as for the linear models):
//
//	size   field
//	24     kernel: code (0 linear, 1 polynomial, 2 rbf), 3 bytes 0,
//	       degree uint32, gamma float64, coef0 float64 (unused fields 0)
//	4·S    training row index of each support vector, uint32, increasing
//	S·D    support vectors, row-major (element type); or, with flag bit
//	       4 (16: a model trained on CSR rows, trainKernelBinarySparse):
//	         8      Z, the number of stored values, uint64
//	         4·S    each support vector's count of stored values, uint32
//	         4·Z    their features (0-based), uint32, increasing per row
//	         Z      their values (element type)
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
	es := elemSize[T]()
	h := modelfile.Header{ElemSize: es, Kind: byte(s.kind), Algorithm: byte(s.algo),
		Flags: headerFlags(s.scaling, s.bias, s.bfeat, false, false), Dims: s.d, Count: s.nsv(), Param: s.eta}
	h.Version = headerVersion(h.Flags)
	body := kernSpecSize + 4*len(s.idx) + es*(len(s.SV)+len(s.Coef)+len(s.B)+len(s.QStep)+len(s.VB)) +
		8*(len(s.QOff)-1) + 4*len(s.QIdx) + 12*len(s.VC)
	if s.ssv != nil {
		h.Flags |= flagSparseSV
		body += modelfile.SparseBytes(s.ssv)
	}
	w := modelfile.New(h, s.labels, 8+body)
	if h.Flags&flagBiasFeat != 0 {
		w.F64(s.bfeat)
	}
	w.WriteKernel(s.kern)
	for _, j := range s.idx {
		w.U32(uint32(j))
	}
	if s.ssv != nil {
		modelfile.WriteSparse(w, s.ssv)
	}
	modelfile.Elems(w, s.SV)
	if s.voted() {
		for r := range s.nrows() {
			w.U32(uint32(s.QOff[r+1] - s.QOff[r]))
			w.U32(uint32(s.VOff[r+1] - s.VOff[r]))
		}
		for _, q := range s.QIdx {
			w.U32(uint32(q))
		}
		modelfile.Elems(w, s.QStep)
		for _, p := range s.VPre {
			w.U32(uint32(p))
		}
		for _, c := range s.VC {
			w.U64(uint64(c))
		}
		modelfile.Elems(w, s.VB)
	} else {
		modelfile.Elems(w, s.Coef)
		modelfile.Elems(w, s.B)
	}
	return w.Finish(), nil
}

// kernelBodySize is the kernel family's modelfile.Family.BodySize: it
// checks the algorithm, η, the flags and the number of support vectors, and
// adds the body's length, which for a voted model depends on the per-class
// counts after the support vectors.
func kernelBodySize(e modelfile.Errors, h *modelfile.Header, body []byte, sz *modelfile.Sizer) (uint64, error) {
	algo := Algorithm(h.Algorithm)
	if algo != Online && algo != Averaged && algo != Voted {
		return 0, fmt.Errorf("%w: a kernel model trained by %v", ErrCorrupt, algo)
	}
	hh, sparse := sparseFlag(h)
	if _, err := checkParams(&hh, false); err != nil {
		return 0, err
	}
	esize, d, m := uint64(h.ElemSize), uint64(h.Dims), uint64(h.Count)
	if m < 1 || m > maxKernelIndex {
		return 0, fmt.Errorf("%w: %d support vectors", ErrCorrupt, m)
	}
	rows := uint64(h.Labels)
	if Kind(h.Kind) == KindKernelBinary {
		rows = 1
	}
	var sv modelfile.Sizer // the bias feature, the kernel and the support vectors
	if h.Flags&flagBiasFeat != 0 {
		sv.Add(8, 1)
	}
	sv.Add(kernSpecSize, 1)
	sv.Add(m, 4)
	if sparse {
		if need, err := fileErrs.SparseSize(body, sv.N, m, d, esize, &sv); need > 0 || err != nil {
			return need, err
		}
	} else {
		sv.Add(sv.Mul(m, d), esize)
	}
	sz.Add(sv.N, 1)
	if sv.Over {
		sz.Over = true
	}
	if algo != Voted {
		sz.Add(sz.Mul(rows, m+1), esize)
		return 0, nil
	}
	// The counts: 8 bytes (Q_r mistakes, V_r kept functions) per row.
	sv.Add(rows, 8)
	if sv.Over {
		return 0, fmt.Errorf("%w: the header implies more than 2^63 bytes", ErrCorrupt)
	}
	if uint64(len(body)) < sv.N {
		return sv.N, nil
	}
	counts := body[sv.N-8*rows:]
	var q, v uint64
	for r := range rows {
		q += uint64(le.Uint32(counts[8*r:]))
		v += uint64(le.Uint32(counts[8*r+4:]))
	}
	sz.Add(rows, 8)
	sz.Add(q, 4+esize)
	sz.Add(v, 4+8+esize)
	return 0, nil
}

var le = binary.LittleEndian

// UnmarshalBinary decodes a model written by MarshalBinary into m,
// replacing it atomically (see the KernelModel's concurrency notes). It
// implements encoding.BinaryUnmarshaler. A float64 file cannot be read into
// a KernelModel[float32] or the reverse, nor a linear model's file into a
// KernelModel (ErrMismatch); a truncated, modified or inconsistent file is
// an error wrapping ErrCorrupt (ErrVersion for a newer format), never a
// panic. data is not retained.
func (m *KernelModel[T]) UnmarshalBinary(data []byte) error {
	h, r, err := fileErrs.Open(data)
	if err != nil {
		return err
	}
	kind, algo := Kind(h.Kind), Algorithm(h.Algorithm)
	switch {
	case modelfile.Lookup(h.Kind) != kernelFamily:
		return fileErrs.Otherwise(kernelFamily, h.Kind)
	case h.ElemSize != elemSize[T]():
		return elemMismatch[T](h.ElemSize)
	}
	hh, sparse := sparseFlag(&h)
	scaling, err := flagsScaling(hh.Version, hh.Flags, false)
	if err != nil {
		return err
	}
	S, esize := uint64(h.Count), uint64(h.ElemSize)
	if S < 1 || S > maxKernelIndex {
		return fmt.Errorf("%w: %d support vectors", ErrCorrupt, S)
	}
	s := &kstate[T]{kind: kind, algo: algo, d: h.Dims, eta: h.Param, bias: h.Flags&flagBias != 0, scaling: scaling}
	s.labels = r.Labels(h.Labels)
	if s.labels != nil {
		if s.bfeat, err = readBiasFeature[T](r, h.Flags); err != nil {
			return err
		}
	}
	spec := r.Take(1, kernSpecSize, "kernel bytes")
	idx := r.Take(S, 4, "support indices")
	var sv []byte
	if sparse {
		if s.ssv, err = modelfile.ReadSparse[T](fileErrs, r, S, h.Dims, h.ElemSize); err != nil {
			return err
		}
	} else {
		sv = r.Take(S*uint64(h.Dims), esize, "support vector values")
	}
	R := uint64(h.Labels)
	if kind == KindKernelBinary {
		R = 1
	}
	var coef, bs, counts, qidx, qstep, vpre, vc, vb []byte
	var Q, V uint64
	if algo == Voted {
		counts = r.Take(R, 8, "per-class counts")
		if r.Err() == nil {
			for k := range R {
				Q += uint64(le.Uint32(counts[8*k:]))
				V += uint64(le.Uint32(counts[8*k+4:]))
			}
		}
		qidx = r.Take(Q, 4, "mistakes")
		qstep = r.Take(Q, esize, "mistake steps")
		vpre = r.Take(V, 4, "kept functions")
		vc = r.Take(V, 8, "survival counts")
		vb = r.Take(V, esize, "kept biases")
	} else {
		coef = r.Take(R*S, esize, "coefficients")
		bs = r.Take(R, esize, "biases")
	}
	if err := r.Close(); err != nil {
		return err
	}
	if s.kern, err = fileErrs.ParseKernel(spec); err != nil {
		return err
	}
	if _, ok := s.kern.(gram.Sigmoid); ok {
		return fileErrs.Corruptf("a kernel perceptron with the sigmoid kernel (the kernel perceptron takes the linear, polynomial and RBF kernels)")
	}
	s.idx = make([]int, S)
	for i, v := range modelfile.U32s(idx) {
		s.idx[i] = int(v)
	}
	if !sparse {
		s.SV = modelfile.Decode[T](sv, h.ElemSize)
	}
	if algo == Voted {
		s.QOff = make([]int, R+1)
		s.VOff = make([]int, R+1)
		for k := range R {
			s.QOff[k+1] = s.QOff[k] + int(le.Uint32(counts[8*k:]))
			s.VOff[k+1] = s.VOff[k] + int(le.Uint32(counts[8*k+4:]))
		}
		s.QIdx = make([]int32, Q)
		for i, v := range modelfile.U32s(qidx) {
			if v >= uint32(S) {
				return fmt.Errorf("%w: mistake %d names support vector %d of %d", ErrCorrupt, i, v, S)
			}
			s.QIdx[i] = int32(v)
		}
		s.QStep = modelfile.Decode[T](qstep, h.ElemSize)
		s.VPre = make([]int32, V)
		for i, v := range modelfile.U32s(vpre) {
			if v > maxKernelIndex {
				return fmt.Errorf("%w: prefix %d", ErrCorrupt, v)
			}
			s.VPre[i] = int32(v)
		}
		s.VC = make([]int64, V)
		for i := range s.VC {
			s.VC[i] = int64(le.Uint64(vc[8*i:]))
		}
		s.VB = modelfile.Decode[T](vb, h.ElemSize)
	} else {
		s.Coef = modelfile.Decode[T](coef, h.ElemSize)
		s.B = modelfile.Decode[T](bs, h.ElemSize)
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
	if err := checkSizes(s.d, s.labels); err != nil {
		return err
	}
	if err := checkLabels(s.labels, s.kind == KindKernelBinary); err != nil {
		return err
	}
	if s.kern == nil {
		return fmt.Errorf("%w: no kernel", ErrCorrupt)
	}
	if err := s.kern.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	S := len(s.idx)
	if S < 1 || S > maxKernelIndex || (s.ssv == nil && len(s.SV) != S*s.d) {
		return fmt.Errorf("%w: %d support vectors with %d values", ErrCorrupt, S, len(s.SV))
	}
	if s.ssv != nil {
		if err := s.checkSparse(); err != nil {
			return err
		}
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
	jsonCommon
	Kernel         modelfile.JSONKernel      `json:"kernel"`
	SupportIndices modelfile.Array[int]      `json:"support_indices"`
	SupportVectors modelfile.Matrix[T]       `json:"support_vectors"`
	SparseSupport  []modelfile.JSONSparse[T] `json:"sparse_support_vectors,omitempty"` // instead (trainKernelBinarySparse)
	Coefficients   modelfile.Matrix[T]       `json:"coefficients,omitempty"`
	Biases         modelfile.Array[T]        `json:"biases,omitempty"`
	Voted          []jsonKernelVoted[T]      `json:"voted,omitempty"`
}

// jsonKernelVoted is one score row of a voted kernel model.
type jsonKernelVoted[T Float] struct {
	Mistakes modelfile.Array[int32] `json:"mistakes"` // support vector index of each mistake
	Steps    modelfile.Array[T]     `json:"steps"`    // its step η·y
	Prefixes modelfile.Array[int32] `json:"prefixes"` // kept function = the first prefix mistakes
	Biases   modelfile.Array[T]     `json:"biases"`
	Counts   modelfile.Array[int64] `json:"counts"`
}

// MarshalJSON encodes the model as a JSON document with the linear models'
// conventions: format, version, type, kind ("kernel-binary", "kernel-ovr",
// "kernel-argmax"), algorithm, dims, bias, bias_feature (if not 1; version
// 3), normalize, eta, labels, plus
// kernel {type, gamma, coef0, degree}, support_indices, support_vectors,
// and either coefficients (one array per score row) and biases, or voted
// (per score row: mistakes, steps, prefixes, biases, counts). Values
// round-trip exactly.
func (m *KernelModel[T]) MarshalJSON() ([]byte, error) {
	s, err := m.load()
	if err != nil {
		return nil, err
	}
	j := jsonKernelModel[T]{jsonCommon: newJSONCommon[T](s.kind, s.algo, s.d, s.bias, s.bfeat, s.scaling, s.eta, s.labels),
		Kernel: modelfile.KernelJSON(s.kern), SupportIndices: s.idx}
	S := s.nsv()
	if c := s.ssv; c != nil {
		j.SupportVectors = [][]T{}
		j.SparseSupport = modelfile.SparseJSON(c)
	}
	for i := range S {
		if s.ssv == nil {
			j.SupportVectors = append(j.SupportVectors, s.SV[i*s.d:(i+1)*s.d])
		}
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
	if err := fileErrs.Unmarshal(data, &j, &j.JSONHeader, jsonFormat, jsonKernelAbsent...); err != nil {
		return err
	}
	scaling, err := j.scaling()
	if err != nil {
		return err
	}
	s := &kstate[T]{d: j.Dims, bias: j.Bias, scaling: scaling, eta: j.Eta, labels: j.Labels, idx: j.SupportIndices}
	if s.bfeat, err = biasFeatureOf[T](&j.jsonCommon); err != nil {
		return err
	}
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
	if err := modelfile.CheckType[T](fileErrs, &j.JSONHeader); err != nil {
		return err
	}
	a, err := ParseAlgorithm(j.Algorithm)
	if err != nil {
		return fmt.Errorf("%w: algorithm %q", ErrCorrupt, j.Algorithm)
	}
	s.algo = a
	if s.kern, err = fileErrs.Kernel(j.Kernel); err != nil {
		return err
	}
	if _, ok := s.kern.(gram.Sigmoid); ok {
		return fileErrs.Corruptf("a kernel perceptron with the sigmoid kernel (the kernel perceptron takes the linear, polynomial and RBF kernels)")
	}
	if err := checkSizes(s.d, s.labels); err != nil {
		return err
	}
	if j.SparseSupport != nil {
		if len(j.SupportVectors) != 0 || len(j.SparseSupport) != len(s.idx) {
			return fmt.Errorf("%w: %d sparse and %d dense support vectors, %d indices", ErrCorrupt, len(j.SparseSupport), len(j.SupportVectors), len(s.idx))
		}
		c, err := modelfile.SparseFromJSON(fileErrs, j.SparseSupport, s.d)
		if err != nil {
			return err
		}
		s.ssv = c
	} else if len(j.SupportVectors) != len(s.idx) {
		return fmt.Errorf("%w: %d support vectors, %d indices", ErrCorrupt, len(j.SupportVectors), len(s.idx))
	}
	for _, v := range j.SupportVectors {
		if len(v) != s.d {
			return fmt.Errorf("%w: a support vector of %d values, want %d", ErrCorrupt, len(v), s.d)
		}
	}
	s.SV = modelfile.Flat(j.SupportVectors) // the decoded rows' own array: no copy
	R := s.nrows()
	if s.algo == Voted {
		if len(j.Voted) != R || j.Coefficients != nil || j.Biases != nil {
			return fmt.Errorf("%w: a voted model needs %d voted entries and no coefficients", ErrCorrupt, R)
		}
		s.QOff, s.VOff = make([]int, R+1), make([]int, R+1)
		nq, nv := 0, 0
		for _, v := range j.Voted {
			nq, nv = nq+len(v.Mistakes), nv+len(v.Prefixes)
		}
		s.QIdx, s.QStep, s.VPre, s.VB, s.VC = make([]int32, 0, nq), make([]T, 0, nq), make([]int32, 0, nv), make([]T, 0, nv), make([]int64, 0, nv)
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
		}
		s.Coef = modelfile.Flat(j.Coefficients)
		s.B = append([]T(nil), j.Biases...)
	}
	return m.publish(s)
}
