package perceptron

import (
	"github.com/rosenblatt-go/rosenblatt/internal/modelfile"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// The layout of the perceptrons' model files as the tests write and edit
// them (package linear writes the linear models', package expansion the
// kernel models'; see linear.Model.MarshalBinary).
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
	// flagBiasFeat (version 3, both families): the bias feature B, a
	// float64 ≠ 1, follows the labels.
	flagBiasFeat = 32
	// biasFeatVersion is the format version of a file with flagBiasFeat.
	biasFeatVersion = 3
	// flagColumns (version 4, linear models but voted ones): the weights
	// of the used columns only follow, their column indices first.
	flagColumns = 64
	// columnsVersion is the format version of a file with flagColumns.
	columnsVersion = 4
	stateSize      = 16
)

// elemSize is the size of a T in a model file.
func elemSize[T kernel.Float]() int { return modelfile.ElemSize[T]() }
