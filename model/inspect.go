package model

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/internal/modelreg"
	"github.com/rosenblatt-go/rosenblatt/linear"

	"github.com/rosenblatt-go/rosenblatt/internal/modelfile"
	"github.com/rosenblatt-go/rosenblatt/interop"
	"github.com/rosenblatt-go/rosenblatt/quant"
)

// Info describes a model file, from its header.
type Info struct {
	Format  Format
	Kind    Kind
	Elem    string // "float32" or "float64": the Classifier type (a quantised model's is float32)
	Dims    int    // features per sample
	Classes []int  // labels
	Size    int64  // the file's size in bytes, as its header implies it (binary)
}

// headerSize is the fixed part of the binary header.
const headerSize = 40

// maxInspectLabels bounds the labels Inspect reads (the format's bound).
const maxInspectLabels = 1 << 24

// Inspect describes the model file that r begins with. A binary file's
// header and labels are read (not the rest, and not its checksum: Load
// checks that); a JSON file is read and decoded whole, as Load does.
func Inspect(r io.Reader) (Info, error) { return Options{}.Inspect(r) }

// InspectFile describes the model file at path, as Inspect does.
func InspectFile(path string) (Info, error) {
	f, err := os.Open(path)
	if err != nil {
		return Info{}, err
	}
	defer f.Close()
	info, err := Options{}.Inspect(f)
	if err != nil {
		return Info{}, fmt.Errorf("%s: %w", path, withoutPath(err))
	}
	return info, nil
}

// Inspect describes the model file that r begins with; see the function
// Inspect.
func (o Options) Inspect(r io.Reader) (Info, error) {
	var head [headerSize]byte
	n, err := io.ReadFull(r, head[:len(modelfile.Magic)])
	if err != nil && n == 0 {
		return Info{}, fmt.Errorf("%w: empty", ErrFormat)
	}
	if string(head[:n]) != modelfile.Magic {
		br := bufio.NewReader(io.MultiReader(bytes.NewReader(head[:n]), r))
		format := JSON
		if p, _ := br.Peek(len(interop.LIBLINEARPrefix)); len(p) > 0 {
			if f, ok := textFormat(p); ok {
				format = f
			}
		}
		m, err := o.Load(br)
		if err != nil {
			return Info{}, err
		}
		return infoOf(m, format), nil
	}
	if _, err := io.ReadFull(r, head[n:]); err != nil {
		return Info{}, fmt.Errorf("%w: %d bytes, shorter than the %d-byte header", ErrCorrupt, n, headerSize)
	}
	size, _, err := encodedSize(head[:])
	if err != nil {
		return Info{}, err
	}
	info := Info{Format: Binary, Kind: Kind(head[11]), Elem: "float32", Size: size}
	if !info.Kind.Known() {
		return Info{}, fmt.Errorf("%w: unknown kind %d", ErrCorrupt, head[11])
	}
	if info.Kind <= PerceptronArgmax && linear.Algorithm(head[12]) == linear.DualCD { // a linear SVM's files are linear's
		info.Kind = linearSVMKind(info.Kind == PerceptronBinary)
	}
	if head[10] == 8 {
		info.Elem = "float64"
	}
	info.Dims = int(binary.LittleEndian.Uint32(head[16:]))
	L := int(binary.LittleEndian.Uint32(head[20:]))
	if L < 2 || L > maxInspectLabels {
		return Info{}, fmt.Errorf("%w: %d labels", ErrCorrupt, L)
	}
	labels := make([]byte, 8*L) // bounded by the format, and read below
	if _, err := io.ReadFull(r, labels); err != nil {
		return Info{}, fmt.Errorf("%w: the file ends in its labels (truncated)", ErrCorrupt)
	}
	info.Classes = make([]int, L)
	for i := range info.Classes {
		v := int64(binary.LittleEndian.Uint64(labels[8*i:]))
		if v < math.MinInt || v > math.MaxInt {
			return Info{}, fmt.Errorf("%w: label %d does not fit an int", ErrCorrupt, v)
		}
		info.Classes[i] = int(v)
	}
	return info, nil
}

// infoOf describes a decoded model of a file in format f.
func infoOf(m Model, f Format) Info {
	return Info{Format: f, Kind: KindOf(m), Elem: Elem(m), Dims: m.Dims(), Classes: m.Classes()}
}

// KindOf returns the kind of file m is saved as, or 0 for a Model of
// another package.
func KindOf(m Model) Kind {
	switch v := m.(type) {
	case *Text:
		return TextModel
	case *quant.Model:
		return schemeKind(QuantBinary, v.Scheme())
	}
	if inner, ok := modelreg.Inner(m); ok { // an interop.Voting or Pipeline
		if im, ok := inner.(Model); ok { // nil for an empty Pipeline
			return KindOf(im)
		}
		return 0
	}
	// The models of packages linear and expansion, recognised through
	// internal/modelreg and read through interfaces: naming them here
	// would compile their methods in this package again.
	if modelreg.ElemOf(modelreg.Linear, m) != 0 {
		v := m.(interface {
			Scheme() fit.Scheme
			Algorithm() linear.Algorithm
		})
		return linearKind(v.Scheme(), v.Algorithm())
	}
	if modelreg.ElemOf(modelreg.Expansion, m) != 0 {
		v := m.(interface {
			IsPerceptron() bool
			Scheme() fit.Scheme
		})
		return expansionKind(v.IsPerceptron(), v.Scheme())
	}
	return 0
}

// expansionKind is the kind of a kernel expansion: a kernel perceptron's
// or a kernel SVM's, by its scheme.
func expansionKind(perceptron bool, s fit.Scheme) Kind {
	if perceptron {
		return schemeKind(KernelPerceptronBinary, s)
	}
	return schemeKind(KernelSVMBinary, s)
}

// linearKind is the file kind of a linear model of scheme s trained by
// algo: a linear SVM's (dual coordinate descent) or a perceptron's.
func linearKind(s fit.Scheme, algo linear.Algorithm) Kind {
	if algo == linear.DualCD {
		if s != fit.Binary && s != fit.OneVsRest {
			return 0
		}
		return linearSVMKind(s == fit.Binary)
	}
	return schemeKind(PerceptronBinary, s)
}

// linearSVMKind is a linear SVM's kind, binary or one-vs-rest.
func linearSVMKind(binary bool) Kind {
	if binary {
		return LinearSVMBinary
	}
	return LinearSVMOneVsRest
}

// schemeKind is the kind of scheme s in a family of three kinds from
// base, the binary one (see modelfile.SchemeKind).
func schemeKind(base Kind, s fit.Scheme) Kind {
	third := fit.Argmax
	if base == KernelSVMBinary {
		third = fit.OneVsOne
	}
	return Kind(modelfile.SchemeKind(byte(base), s, third))
}
