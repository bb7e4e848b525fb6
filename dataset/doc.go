// Package dataset reads labelled data sets into dense, row-major matrices
// (Data) or compressed sparse row matrices (CSR) ready for the rosenblatt
// kernels and perceptrons, and generates synthetic linearly separable data
// (SynthSeparable).
//
// Readers:
//
//   - ReadLIBSVM / LoadLIBSVM: LIBSVM and SVMlight text ("label idx:val ...").
//   - ReadLIBSVMSparse / LoadLIBSVMSparse: the same into a CSR, never dense
//     (text data: 10⁵–10⁷ features, a few hundred stored per row).
//     CSR.ToDense and FromDense convert.
//   - ReadCSV / LoadCSV: comma (or other) separated values with one label column.
//   - ReadIDX / LoadIDX / LoadIDXPair: the IDX format of MNIST and
//     Fashion-MNIST, raw or gzip-compressed.
//
// Every reader returns an error instead of panicking or producing garbage on
// bad input, and allocates in proportion to its input unless the caller asks
// for more (see DenseRatio, DefaultMaxLineBytes and MaxIDXBytes). Text
// readers report the position of the problem in a *ParseError ("file:line:col:
// message", the column being the 1-based byte offset in the line), and every
// error wraps one of the exported sentinel errors (ErrSyntax, ErrIndex,
// ErrNonFinite, ...) so callers can test it with errors.Is.
//
// Data sets are generic over kernel.Float: use float32 for speed and memory,
// float64 when you need the extra precision.
package dataset
