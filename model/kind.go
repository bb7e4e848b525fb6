package model

import "fmt"

// Kind is what a model file holds: byte 11 of its binary header, and the
// model's kind in its JSON form. These constants are the module's one
// table of kinds; a number is never reused for another model.
type Kind uint8

const (
	// Linear perceptron models (linear.Model), by every perceptron
	// rule and by Pegasos.
	PerceptronBinary    Kind = 1 // one score; labels −1, +1
	PerceptronOneVsRest Kind = 2 // a score per class, the largest wins
	PerceptronArgmax    Kind = 3 // the multiclass perceptron: a score per class
	// Kernel perceptron models (expansion.Model, IsPerceptron).
	KernelPerceptronBinary    Kind = 16
	KernelPerceptronOneVsRest Kind = 17
	KernelPerceptronArgmax    Kind = 18
	// Kernel SVMs (expansion.Model), by SMO.
	KernelSVMBinary    Kind = 32
	KernelSVMOneVsRest Kind = 33
	KernelSVMOneVsOne  Kind = 34
	// Linear SVMs (linear.Model, Algorithm DualCD), by dual coordinate
	// descent: KindOf and Inspect name a linear SVM so, though its files
	// are now linear's (kind 1 or 2, algorithm DualCD) and only files of
	// earlier versions carry these kinds.
	LinearSVMBinary    Kind = 40
	LinearSVMOneVsRest Kind = 41
	// Quantised linear models (quant.Model): 48 + the float model's kind.
	QuantBinary    Kind = 49
	QuantOneVsRest Kind = 50
	QuantArgmax    Kind = 51
	// Text models (Text): a text.Featurizer and an inner model of another
	// kind; TextModel, defined with Text.
)

// kinds names every Kind.
var kinds = map[Kind]string{
	PerceptronBinary:          "binary perceptron",
	PerceptronOneVsRest:       "one-vs-rest perceptron",
	PerceptronArgmax:          "multiclass (argmax) perceptron",
	KernelPerceptronBinary:    "binary kernel perceptron",
	KernelPerceptronOneVsRest: "one-vs-rest kernel perceptron",
	KernelPerceptronArgmax:    "multiclass (argmax) kernel perceptron",
	KernelSVMBinary:           "binary kernel SVM",
	KernelSVMOneVsRest:        "one-vs-rest kernel SVM",
	KernelSVMOneVsOne:         "one-vs-one kernel SVM",
	LinearSVMBinary:           "binary linear SVM",
	LinearSVMOneVsRest:        "one-vs-rest linear SVM",
	QuantBinary:               "binary int8 quantised linear model",
	QuantOneVsRest:            "one-vs-rest int8 quantised linear model",
	QuantArgmax:               "multiclass (argmax) int8 quantised linear model",
	TextModel:                 "text model",
}

// String names the kind, e.g. "one-vs-rest kernel SVM".
func (k Kind) String() string {
	if s, ok := kinds[k]; ok {
		return s
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Known reports whether k is a kind of this table.
func (k Kind) Known() bool {
	_, ok := kinds[k]
	return ok
}

// Kernel reports whether k is a kernel expansion (support vectors).
func (k Kind) Kernel() bool {
	return k >= KernelPerceptronBinary && k <= KernelSVMOneVsOne
}

// svm reports whether k is one of package svm's.
func (k Kind) svm() bool { return k >= KernelSVMBinary && k <= LinearSVMOneVsRest }

// quant reports whether k is one of package quant's.
func (k Kind) quant() bool { return k >= QuantBinary && k <= QuantArgmax }
