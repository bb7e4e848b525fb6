package perceptron

// The model-file helpers of the kernel models, which they share with the
// linear model's (package linear holds its own).

import (
	"fmt"
	"math"

	"github.com/rosenblatt-go/rosenblatt/internal/modelfile"
	"github.com/rosenblatt-go/rosenblatt/internal/modelkern"
)

var fileErrs = modelfile.Errors{Corrupt: ErrCorrupt, Version: ErrVersion, Mismatch: ErrMismatch}

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

func headerVersion(flags byte) int {
	if flags&flagColumns != 0 {
		return columnsVersion
	}
	if flags&flagBiasFeat != 0 {
		return biasFeatVersion
	}
	return fileVersion
}

func readBiasFeature[T Float](r *modelfile.Reader, flags byte) (float64, error) {
	bias := flags&flagBias != 0
	if flags&flagBiasFeat == 0 {
		if bias {
			return 1, nil
		}
		return 0, nil
	}
	return checkBiasFeature[T](bias, math.Float64frombits(r.U64()))
}

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

func checkParams(h *modelfile.Header, linear bool) (Scaling, error) {
	if !finitePositive(h.Param) {
		return 0, fmt.Errorf("%w: η = %v", ErrCorrupt, h.Param)
	}
	return flagsScaling(h.Version, h.Flags, linear)
}

func elemSize[T Float]() int { return modelfile.ElemSize[T]() }

func elemMismatch[T Float](es int) error {
	return fmt.Errorf("%w: the file holds %s values, the model is %s", ErrMismatch, elemName(es), elemName(elemSize[T]()))
}

func checkSizes(d int, labels []int) error {
	if d < 1 || d > maxDims || len(labels) < 2 || len(labels) > maxLabels {
		return fmt.Errorf("%w: %d features, %d labels", ErrCorrupt, d, len(labels))
	}
	return nil
}

func checkLabels(labels []int, binary bool) error {
	if binary && (len(labels) != 2 || labels[0] != -1 || labels[1] != 1) {
		return fmt.Errorf("%w: a binary model's labels are %v, want [-1 1]", ErrCorrupt, labels)
	}
	for i := 1; i < len(labels); i++ {
		if labels[i] <= labels[i-1] {
			return fmt.Errorf("%w: labels not strictly increasing at %d", ErrCorrupt, i)
		}
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

func newJSONCommon[T Float](kind Kind, algo Algorithm, d int, bias bool, bf float64, sc Scaling, eta float64, labels []int) jsonCommon {
	c := jsonCommon{JSONHeader: modelfile.NewJSONHeader[T](jsonFormat, kind.String(), algo.String(), d),
		Bias: bias, Normalize: sc == ScaleAugmented, NormX: sc == ScaleFeatures, Eta: eta, Labels: labels}
	if bias && bf != 1 {
		c.BiasFeat, c.Version = bf, biasFeatVersion
	}
	return c
}

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

const jsonFormat = "rosenblatt-perceptron"

func augScaleOf[T Float](k modelkern.Kernels[T], x []T, bf float64) float64 {
	sq := float64(k.Dot(x, x))
	if !math.IsInf(sq, 1) {
		return augScale(sq, bf)
	}
	big := 0.0
	for _, v := range x {
		big = max(big, math.Abs(float64(v)))
	}
	if math.IsInf(big, 0) {
		return 0 // an Inf in x: the score is not finite either way
	}
	acc := 0.0
	for _, v := range x {
		r := float64(v) / big
		acc += r * r
	}
	if bf > 0 {
		acc += (bf / big) * (bf / big)
	}
	return 1 / (big * math.Sqrt(acc))
}

const (
	fileMagic   = modelfile.Magic
	fileVersion = modelfile.Version // the version written; 1 is read too
	headerSize  = modelfile.HeaderSize
	maxDims     = modelfile.MaxDims
	maxLabels   = modelfile.MaxLabels
	flagBias    = 1
	flagNorm    = 2 // version 2: ScaleAugmented; version 1: ScaleFeatures
	flagNormX   = 4 // version 2: ScaleFeatures
	flagState   = 8 // version 2, linear models: the training state follows the labels
	// flagBiasFeat (version 3, both families): the bias feature B
	// (Options.BiasFeature) follows the labels, a float64 ≠ 1. A model
	// with B = 1 is written as version 2 without it.
	flagBiasFeat = 32
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

var kernelFamily = &modelfile.Family{Name: "kernel", BodySize: kernelBodySize,
	Kinds: []byte{byte(KindKernelBinary), byte(KindKernelOneVsRest), byte(KindKernelArgmax)}}

func init() { modelfile.Register(kernelFamily) }

func scalingFlags(sc Scaling) byte {
	switch sc {
	case ScaleAugmented:
		return flagNorm
	case ScaleFeatures:
		return flagNormX
	}
	return 0
}

func checkBiasFeature[T Float](bias bool, b float64) (float64, error) {
	if !bias {
		return 0, fmt.Errorf("%w: a bias feature without a bias", ErrCorrupt)
	}
	if sq := float64(T(b * b)); !finitePositive(b) || !finitePositive(sq) || b == 1 {
		// (B = 1 is written as version 2, without the field.)
		return 0, fmt.Errorf("%w: bias feature %v", ErrCorrupt, b)
	}
	return b, nil
}

func elemName(size int) string { return modelfile.ElemName(size) }

// finiteScores returns an error wrapping ErrNonFinite that names the first
// non-finite score of dst (rows of r scores), or nil.
func finiteScores[T Float](dst []T, r int) error {
	for j, a := range dst {
		if !finite(a) {
			return fmt.Errorf("%w: score %d of row %d is %v", ErrNonFinite, j%r, j/r, a)
		}
	}
	return nil
}

// jsonKernelAbsent are the members of a kernel model's document that may
// be null, meaning absent or empty, as MarshalJSON may write an empty list
// and encoding/json reads it; a null anywhere else is ErrCorrupt. (A
// kernel model's voted "steps" is a list.)
var jsonKernelAbsent = []string{"support_indices", "support_vectors", "sparse_support_vectors", "features", "values",
	"coefficients", "biases", "voted", "mistakes", "steps", "prefixes", "counts"}
