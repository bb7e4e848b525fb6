package expansion

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/internal/modelfile"
	"github.com/rosenblatt-go/rosenblatt/linear"
)

// The kernel perceptron's model files (kinds 16–18): the linear
// perceptrons' header conventions (flags, η as the parameter, the bias
// feature after the labels from version 3), then the kernel, the support
// vectors and either the coefficients or the voted perceptron's kept
// functions.

// The kinds of kernel perceptron model files (model.Kind names them).
const (
	kindPercBinary    = 16
	kindPercOneVsRest = 17
	kindPercArgmax    = 18
)

const (
	flagBias     = modelfile.FlagBias
	flagNorm     = 2                      // version 2: linear.ScaleAugmented; version 1: linear.ScaleFeatures
	flagNormX    = 4                      // version 2: linear.ScaleFeatures
	flagSparseSV = 16                     // version 2: sparse support vectors
	flagBiasFeat = modelfile.FlagBiasFeat // version 3: the bias feature B follows the labels, a float64 ≠ 1
	// biasFeatVersion is the format version of a file with flagBiasFeat.
	biasFeatVersion = 3
	maxKernelIndex  = math.MaxInt32
	// perceptronFormat is the format name of the perceptrons' JSON
	// documents.
	perceptronFormat = "rosenblatt-perceptron"
)

// percFamily is the kernel perceptrons' family of kinds.
var percFamily = &modelfile.Family{Name: "kernel", BodySize: percBodySize,
	Kinds: []byte{kindPercBinary, kindPercOneVsRest, kindPercArgmax}}

func init() {
	modelfile.Register(percFamily)
}

// percKind returns the file kind of a perceptron of scheme s.
func percKind(s fit.Scheme) byte { return modelfile.SchemeKind(kindPercBinary, s, fit.Argmax) }

// percKindName is the kind's name in the JSON form.
func percKindName(s fit.Scheme) string { return "kernel-" + modelfile.SchemeName(s) }

// algName is the JSON document's "algorithm" of a kernel perceptron's
// algorithm (the binary file stores linear.Algorithm's value: 0, 3 or 4).
func algName(a linear.Algorithm) string {
	switch a {
	case linear.Online:
		return "online"
	case linear.Averaged:
		return "averaged"
	case linear.Voted:
		return "voted"
	}
	return a.String()
}

// percScheme is the scheme of a kernel perceptron file's kind.
func percScheme(kind byte) fit.Scheme { return modelfile.KindScheme(kindPercBinary, kind, fit.Argmax) }

// headerFlags returns the header flags of a model: its scaling and its
// bias (and whether its bias feature bf follows the labels).
func headerFlags(sc linear.Scaling, bias bool, bf float64) byte {
	var f byte
	switch sc {
	case linear.ScaleAugmented:
		f = flagNorm
	case linear.ScaleFeatures:
		f = flagNormX
	}
	if bias {
		f |= flagBias
	}
	if bias && bf != 1 {
		f |= flagBiasFeat
	}
	return f
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
// version 2 also linear.ScaleAugmented, version 3 also the bias feature, which
// it must have (a file takes version 3 for it only). A kernel model's file
// is never version 4 (the linear models' used columns).
func flagsScaling(version int, flags byte) (linear.Scaling, error) {
	known := byte(flagBias | flagNorm)
	if version >= 2 {
		known |= flagNormX
	}
	if version >= biasFeatVersion {
		known |= flagBiasFeat
		if version == biasFeatVersion && flags&flagBiasFeat == 0 {
			return 0, fmt.Errorf("%w: a version-3 file without a bias feature", ErrCorrupt)
		}
	}
	if version > biasFeatVersion {
		return 0, fmt.Errorf("%w: a kernel perceptron in a version-%d file", ErrCorrupt, version)
	}
	if flags&^known != 0 {
		return 0, fmt.Errorf("%w: unknown flags %#x for version %d", ErrCorrupt, flags, version)
	}
	switch {
	case version == 1 && flags&flagNorm != 0:
		return linear.ScaleFeatures, nil
	case flags&flagNorm != 0 && flags&flagNormX != 0:
		return 0, fmt.Errorf("%w: both normalisations flagged", ErrCorrupt)
	case flags&flagNorm != 0:
		return linear.ScaleAugmented, nil
	case flags&flagNormX != 0:
		return linear.ScaleFeatures, nil
	}
	return linear.ScaleNone, nil
}

// sparseFlag returns the header without the sparse-support flag, and
// whether it was set (a version-2 flag: a version-1 file keeps it, and its
// flag check rejects it).
func sparseFlag(h *modelfile.Header) (modelfile.Header, bool) {
	hh := *h
	if h.Version >= 2 && h.Flags&flagSparseSV != 0 {
		hh.Flags &^= flagSparseSV
		return hh, true
	}
	return hh, false
}

// marshalPerceptron is MarshalBinary for a kernel perceptron: the linear
// perceptrons' checksummed little-endian format with a kernel Kind (16
// binary, 17 one-vs-rest, 18 argmax), the algorithm byte, η as the
// parameter and M = S, the number of support vectors. After the 40-byte
// header and the L labels (and, with flag bit 5, version 3, the bias
// feature B as a float64):
//
//	size   field
//	24     kernel: code (0 linear, 1 polynomial, 2 rbf), 3 bytes 0,
//	       degree uint32, gamma float64, coef0 float64 (unused fields 0)
//	4·S    training row index of each support vector, uint32, increasing
//	S·D    support vectors, row-major (element type); or, with flag bit
//	       4 (16: a model trained on CSR rows):
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
// and the CRC-32C of every byte before it.
func (m *Model[T]) marshalPerceptron() ([]byte, error) {
	pc := m.pc
	es := modelfile.ElemSize[T]()
	h := modelfile.Header{ElemSize: es, Kind: percKind(m.scheme), Algorithm: byte(pc.Algorithm),
		Flags: headerFlags(pc.Scaling, pc.HasBias, pc.BiasFeature), Dims: m.d, Count: m.NumSupport(), Param: pc.Eta}
	h.Version = modelfile.Version
	if h.Flags&flagBiasFeat != 0 {
		h.Version = biasFeatVersion
	}
	body := modelfile.KernelSize + 4*len(m.index) + es*(len(m.sv)+len(m.coef)+len(m.bias))
	v := pc.Voted
	if v != nil {
		body += es*(len(v.QStep)+len(v.VB)) + 8*(len(v.QOff)-1) + 4*len(v.QIdx) + 12*len(v.VC)
	}
	if m.ssv != nil {
		h.Flags |= flagSparseSV
		body += modelfile.SparseBytes(m.ssv)
	}
	w := modelfile.New(h, m.labels, 8+body)
	if h.Flags&flagBiasFeat != 0 {
		w.F64(pc.BiasFeature)
	}
	w.WriteKernel(m.kern)
	for _, j := range m.index {
		w.U32(uint32(j))
	}
	if m.ssv != nil {
		modelfile.WriteSparse(w, m.ssv)
	}
	modelfile.Elems(w, m.sv)
	if v != nil {
		for r := range m.nf {
			w.U32(uint32(v.QOff[r+1] - v.QOff[r]))
			w.U32(uint32(v.VOff[r+1] - v.VOff[r]))
		}
		for _, q := range v.QIdx {
			w.U32(uint32(q))
		}
		modelfile.Elems(w, v.QStep)
		for _, p := range v.VPre {
			w.U32(uint32(p))
		}
		for _, c := range v.VC {
			w.U64(uint64(c))
		}
		modelfile.Elems(w, v.VB)
	} else {
		modelfile.Elems(w, m.coef)
		modelfile.Elems(w, m.bias)
	}
	return w.Finish(), nil
}

// percBodySize is the kernel perceptron family's modelfile.Family.BodySize:
// it checks the algorithm, η, the flags and the number of support
// vectors, and adds the body's length, which for a voted model depends on
// the per-class counts after the support vectors.
func percBodySize(e modelfile.Errors, h *modelfile.Header, body []byte, sz *modelfile.Sizer) (uint64, error) {
	algo := linear.Algorithm(h.Algorithm)
	if algo != linear.Online && algo != linear.Averaged && algo != linear.Voted {
		return 0, fmt.Errorf("%w: a kernel model trained by %s", ErrCorrupt, algName(algo))
	}
	hh, sparse := sparseFlag(h)
	if !finitePositive(hh.Param) {
		return 0, fmt.Errorf("%w: η = %v", ErrCorrupt, hh.Param)
	}
	if _, err := flagsScaling(hh.Version, hh.Flags); err != nil {
		return 0, err
	}
	esize, d, m := uint64(h.ElemSize), uint64(h.Dims), uint64(h.Count)
	if m < 1 || m > maxKernelIndex {
		return 0, fmt.Errorf("%w: %d support vectors", ErrCorrupt, m)
	}
	rows := uint64(h.Labels)
	if h.Kind == kindPercBinary {
		rows = 1
	}
	var sv modelfile.Sizer // the bias feature, the kernel and the support vectors
	if h.Flags&flagBiasFeat != 0 {
		sv.Add(8, 1)
	}
	sv.Add(modelfile.KernelSize, 1)
	sv.Add(m, 4)
	if sparse {
		if need, err := e.SparseSize(body, sv.N, m, d, esize, &sv); need > 0 || err != nil {
			return need, err
		}
	} else {
		sv.Add(sv.Mul(m, d), esize)
	}
	sz.Add(sv.N, 1)
	if sv.Over {
		sz.Over = true
	}
	if algo != linear.Voted {
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

// unmarshalPerceptron is UnmarshalBinary for a kernel perceptron's file
// (kinds 16–18).
func (m *Model[T]) unmarshalPerceptron(data []byte) error {
	h, r, err := fileErrs.Open(data)
	if err != nil {
		return err
	}
	switch {
	case modelfile.Lookup(h.Kind) != percFamily:
		return fileErrs.Otherwise(percFamily, h.Kind)
	case h.ElemSize != modelfile.ElemSize[T]():
		return fileErrs.Mismatchf("the file holds %s values, the model is %s", modelfile.ElemName(h.ElemSize), modelfile.ElemName(modelfile.ElemSize[T]()))
	}
	hh, sparse := sparseFlag(&h)
	scaling, err := flagsScaling(hh.Version, hh.Flags)
	if err != nil {
		return err
	}
	S, esize := uint64(h.Count), uint64(h.ElemSize)
	if S < 1 || S > maxKernelIndex {
		return fmt.Errorf("%w: %d support vectors", ErrCorrupt, S)
	}
	pc := &Perceptron[T]{Algorithm: linear.Algorithm(h.Algorithm), Eta: h.Param, HasBias: h.Flags&flagBias != 0, Scaling: scaling}
	p := Parts[T]{Dims: h.Dims, Scheme: percScheme(h.Kind), Perceptron: pc}
	p.Labels = r.Labels(h.Labels)
	if p.Labels != nil {
		if pc.BiasFeature, err = readBiasFeature[T](r, h.Flags); err != nil {
			return err
		}
	}
	spec := r.Take(1, modelfile.KernelSize, "kernel bytes")
	idx := r.Take(S, 4, "support indices")
	var sv []byte
	if sparse {
		if p.Sparse, err = modelfile.ReadSparse[T](fileErrs, r, S, h.Dims, h.ElemSize); err != nil {
			return err
		}
	} else {
		sv = r.Take(S*uint64(h.Dims), esize, "support vector values")
	}
	R := uint64(h.Labels)
	if h.Kind == kindPercBinary {
		R = 1
	}
	var coef, bs, counts, qidx, qstep, vpre, vc, vb []byte
	var Q, V uint64
	if pc.Algorithm == linear.Voted {
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
	if p.Kernel, err = fileErrs.ParseKernel(spec); err != nil {
		return err
	}
	if _, ok := p.Kernel.(gram.Sigmoid); ok {
		return fileErrs.Corruptf("a kernel perceptron with the sigmoid kernel (the kernel perceptron takes the linear, polynomial and RBF kernels)")
	}
	p.Index = make([]int, S)
	for i, v := range modelfile.U32s(idx) {
		p.Index[i] = int(v)
	}
	if !sparse {
		p.SV = modelfile.Decode[T](sv, h.ElemSize)
	}
	if pc.Algorithm == linear.Voted {
		v := &Voted[T]{QOff: make([]int, R+1), VOff: make([]int, R+1)}
		for k := range R {
			v.QOff[k+1] = v.QOff[k] + int(le.Uint32(counts[8*k:]))
			v.VOff[k+1] = v.VOff[k] + int(le.Uint32(counts[8*k+4:]))
		}
		v.QIdx = make([]int32, Q)
		for i, q := range modelfile.U32s(qidx) {
			if q >= uint32(S) {
				return fmt.Errorf("%w: mistake %d names support vector %d of %d", ErrCorrupt, i, q, S)
			}
			v.QIdx[i] = int32(q)
		}
		v.QStep = modelfile.Decode[T](qstep, h.ElemSize)
		v.VPre = make([]int32, V)
		for i, q := range modelfile.U32s(vpre) {
			if q > maxKernelIndex {
				return fmt.Errorf("%w: prefix %d", ErrCorrupt, q)
			}
			v.VPre[i] = int32(q)
		}
		v.VC = make([]int64, V)
		for i := range v.VC {
			v.VC[i] = int64(le.Uint64(vc[8*i:]))
		}
		v.VB = modelfile.Decode[T](vb, h.ElemSize)
		pc.Voted = v
	} else {
		p.Coef = modelfile.Decode[T](coef, h.ElemSize)
		p.Bias = modelfile.Decode[T](bs, h.ElemSize)
	}
	return m.setPerceptron(p)
}

// setPerceptron checks a decoded kernel perceptron and makes it m's.
func (m *Model[T]) setPerceptron(p Parts[T]) error {
	if len(p.Labels) < 2 || len(p.Labels) > modelfile.MaxLabels || p.Dims < 1 || p.Dims > modelfile.MaxDims {
		return fmt.Errorf("%w: %d features, %d labels", ErrCorrupt, p.Dims, len(p.Labels))
	}
	if p.Index == nil {
		p.Index = []int{}
	}
	return m.set(p)
}

// jsonPerceptron is the JSON form of a kernel perceptron.
type jsonPerceptron[T Float] struct {
	modelfile.JSONHeader
	Bias bool `json:"bias"`
	// BiasFeat is the bias feature B when it is not 1 (version 3).
	BiasFeat       float64                   `json:"bias_feature,omitempty"`
	Normalize      bool                      `json:"normalize"`
	NormX          bool                      `json:"normalize_features,omitempty"`
	Eta            float64                   `json:"eta"`
	Labels         modelfile.Array[int]      `json:"labels"`
	Kernel         modelfile.JSONKernel      `json:"kernel"`
	SupportIndices modelfile.Array[int]      `json:"support_indices"`
	SupportVectors modelfile.Matrix[T]       `json:"support_vectors"`
	SparseSupport  []modelfile.JSONSparse[T] `json:"sparse_support_vectors,omitempty"`
	Coefficients   modelfile.Matrix[T]       `json:"coefficients,omitempty"`
	Biases         modelfile.Array[T]        `json:"biases,omitempty"`
	Voted          []jsonVoted[T]            `json:"voted,omitempty"`
}

// jsonVoted is one score row of a voted kernel model.
type jsonVoted[T Float] struct {
	Mistakes modelfile.Array[int32] `json:"mistakes"` // support vector index of each mistake
	Steps    modelfile.Array[T]     `json:"steps"`    // its step η·y
	Prefixes modelfile.Array[int32] `json:"prefixes"` // kept function = the first prefix mistakes
	Biases   modelfile.Array[T]     `json:"biases"`
	Counts   modelfile.Array[int64] `json:"counts"`
}

// percAbsent are the members of a kernel perceptron's document that may
// be null, meaning absent or empty; a null anywhere else is ErrCorrupt.
var percAbsent = []string{"support_indices", "support_vectors", "sparse_support_vectors", "features", "values",
	"coefficients", "biases", "voted", "mistakes", "steps", "prefixes", "counts"}

// marshalPerceptronJSON is MarshalJSON for a kernel perceptron.
func (m *Model[T]) marshalPerceptronJSON() ([]byte, error) {
	pc := m.pc
	j := jsonPerceptron[T]{JSONHeader: modelfile.NewJSONHeader[T](perceptronFormat, percKindName(m.scheme), algName(pc.Algorithm), m.d),
		Bias: pc.HasBias, Normalize: pc.Scaling == linear.ScaleAugmented, NormX: pc.Scaling == linear.ScaleFeatures, Eta: pc.Eta, Labels: m.labels,
		Kernel: modelfile.KernelJSON(m.kern), SupportIndices: m.index}
	if pc.HasBias && pc.BiasFeature != 1 {
		j.BiasFeat, j.Version = pc.BiasFeature, biasFeatVersion
	}
	S := m.NumSupport()
	if c := m.ssv; c != nil {
		j.SupportVectors = [][]T{}
		j.SparseSupport = modelfile.SparseJSON(c)
	} else {
		for i := range S {
			j.SupportVectors = append(j.SupportVectors, m.sv[i*m.d:(i+1)*m.d])
		}
	}
	if v := pc.Voted; v != nil {
		for r := range m.nf {
			j.Voted = append(j.Voted, jsonVoted[T]{
				Mistakes: v.QIdx[v.QOff[r]:v.QOff[r+1]], Steps: v.QStep[v.QOff[r]:v.QOff[r+1]],
				Prefixes: v.VPre[v.VOff[r]:v.VOff[r+1]], Biases: v.VB[v.VOff[r]:v.VOff[r+1]], Counts: v.VC[v.VOff[r]:v.VOff[r+1]]})
		}
	} else {
		for r := range m.nf {
			j.Coefficients = append(j.Coefficients, m.coef[r*S:(r+1)*S])
		}
		j.Biases = m.bias
	}
	return json.Marshal(j)
}

// unmarshalPerceptronJSON is UnmarshalJSON for a kernel perceptron's
// document.
func (m *Model[T]) unmarshalPerceptronJSON(data []byte) error {
	var j jsonPerceptron[T]
	if err := fileErrs.Unmarshal(data, &j, &j.JSONHeader, perceptronFormat, percAbsent...); err != nil {
		return err
	}
	if j.Version > biasFeatVersion { // version 4 is the binary form's used columns: no document has it
		return fmt.Errorf("%w: a version-%d document (this package reads 1 to %d)", ErrVersion, j.Version, biasFeatVersion)
	}
	var flags byte
	if j.BiasFeat != 0 {
		flags |= flagBiasFeat
	}
	if j.Normalize {
		flags |= flagNorm
	}
	if j.NormX {
		flags |= flagNormX
	}
	scaling, err := flagsScaling(j.Version, flags)
	if err != nil {
		return err
	}
	pc := &Perceptron[T]{HasBias: j.Bias, Scaling: scaling, Eta: j.Eta}
	switch {
	case j.Version >= biasFeatVersion && j.BiasFeat == 0:
		return fmt.Errorf("%w: a version-3 document without a bias feature", ErrCorrupt)
	case j.Version < biasFeatVersion && j.BiasFeat != 0:
		return fmt.Errorf("%w: a bias feature in a version-%d document", ErrCorrupt, j.Version)
	case j.BiasFeat != 0:
		if pc.BiasFeature, err = checkBiasFeature[T](j.Bias, j.BiasFeat); err != nil {
			return err
		}
	case j.Bias:
		pc.BiasFeature = 1
	}
	p := Parts[T]{Dims: j.Dims, Labels: j.Labels, Index: j.SupportIndices, Perceptron: pc}
	switch j.Kind {
	case "kernel-binary":
		p.Scheme = fit.Binary
	case "kernel-ovr":
		p.Scheme = fit.OneVsRest
	case "kernel-argmax":
		p.Scheme = fit.Argmax
	case "binary", "ovr", "argmax":
		return fmt.Errorf("%w: a linear model (kind %q), not a kernel expansion", ErrMismatch, j.Kind)
	default:
		return fmt.Errorf("%w: kind %q", ErrCorrupt, j.Kind)
	}
	if err := modelfile.CheckType[T](fileErrs, &j.JSONHeader); err != nil {
		return err
	}
	switch j.Algorithm {
	case "online":
		pc.Algorithm = linear.Online
	case "averaged":
		pc.Algorithm = linear.Averaged
	case "voted":
		pc.Algorithm = linear.Voted
	default:
		return fmt.Errorf("%w: algorithm %q", ErrCorrupt, j.Algorithm)
	}
	if p.Kernel, err = fileErrs.Kernel(j.Kernel); err != nil {
		return err
	}
	if _, ok := p.Kernel.(gram.Sigmoid); ok {
		return fileErrs.Corruptf("a kernel perceptron with the sigmoid kernel (the kernel perceptron takes the linear, polynomial and RBF kernels)")
	}
	if p.Dims < 1 || p.Dims > modelfile.MaxDims || len(p.Labels) < 2 || len(p.Labels) > modelfile.MaxLabels {
		return fmt.Errorf("%w: %d features, %d labels", ErrCorrupt, p.Dims, len(p.Labels))
	}
	if j.SparseSupport != nil {
		if len(j.SupportVectors) != 0 || len(j.SparseSupport) != len(p.Index) {
			return fmt.Errorf("%w: %d sparse and %d dense support vectors, %d indices", ErrCorrupt, len(j.SparseSupport), len(j.SupportVectors), len(p.Index))
		}
		var c *dataset.CSR[T]
		if c, err = modelfile.SparseFromJSON(fileErrs, j.SparseSupport, p.Dims); err != nil {
			return err
		}
		p.Sparse = c
	} else if len(j.SupportVectors) != len(p.Index) {
		return fmt.Errorf("%w: %d support vectors, %d indices", ErrCorrupt, len(j.SupportVectors), len(p.Index))
	}
	for _, v := range j.SupportVectors {
		if len(v) != p.Dims {
			return fmt.Errorf("%w: a support vector of %d values, want %d", ErrCorrupt, len(v), p.Dims)
		}
	}
	p.SV = modelfile.Flat(j.SupportVectors) // the decoded rows' own array: no copy
	R := numFuncs(p.Scheme, len(p.Labels))
	if pc.Algorithm == linear.Voted {
		if len(j.Voted) != R || j.Coefficients != nil || j.Biases != nil {
			return fmt.Errorf("%w: a voted model needs %d voted entries and no coefficients", ErrCorrupt, R)
		}
		v := &Voted[T]{QOff: make([]int, R+1), VOff: make([]int, R+1)}
		nq, nv := 0, 0
		for _, e := range j.Voted {
			nq, nv = nq+len(e.Mistakes), nv+len(e.Prefixes)
		}
		v.QIdx, v.QStep, v.VPre, v.VB, v.VC = make([]int32, 0, nq), make([]T, 0, nq), make([]int32, 0, nv), make([]T, 0, nv), make([]int64, 0, nv)
		for r, e := range j.Voted {
			if len(e.Steps) != len(e.Mistakes) || len(e.Biases) != len(e.Prefixes) || len(e.Counts) != len(e.Prefixes) {
				return fmt.Errorf("%w: voted entry %d has inconsistent lengths", ErrCorrupt, r)
			}
			v.QIdx = append(v.QIdx, e.Mistakes...)
			v.QStep = append(v.QStep, e.Steps...)
			v.VPre = append(v.VPre, e.Prefixes...)
			v.VB = append(v.VB, e.Biases...)
			v.VC = append(v.VC, e.Counts...)
			v.QOff[r+1] = len(v.QIdx)
			v.VOff[r+1] = len(v.VC)
		}
		pc.Voted = v
	} else {
		if len(j.Coefficients) != R || len(j.Biases) != R || j.Voted != nil {
			return fmt.Errorf("%w: %d coefficient rows and %d biases, want %d", ErrCorrupt, len(j.Coefficients), len(j.Biases), R)
		}
		for _, c := range j.Coefficients {
			if len(c) != len(p.Index) {
				return fmt.Errorf("%w: a coefficient row of %d values, want %d", ErrCorrupt, len(c), len(p.Index))
			}
		}
		p.Coef = modelfile.Flat(j.Coefficients)
		p.Bias = append([]T(nil), j.Biases...)
	}
	return m.setPerceptron(p)
}
