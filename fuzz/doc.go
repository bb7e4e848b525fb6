// Package fuzz holds the fuzz targets of rosenblatt: every kernel of every
// implementation this CPU can run against the plain-loop reference under
// the bounds of package parity (on its adversarial inputs) and the
// references of internal/kerneltest, the decoders of data and
// model files, which must return an error, never panic, on any input, and
// the prediction server's requests (package serve), which must get a 4xx,
// never a panic or a 5xx.
//
// The seed corpora under testdata/fuzz run with every `go test ./fuzz`; CI
// also fuzzes each target briefly with -fuzz.
package fuzz
