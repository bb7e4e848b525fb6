package interop

import (
	"fmt"
	"math"
)

// The messages of onnx.proto (ONNX IR, https://github.com/onnx/onnx/blob/main/onnx/onnx.proto)
// that an ONNX-ML classifier uses, with their field numbers. Fields not
// listed are skipped.

// onnxModel is a ModelProto.
type onnxModel struct {
	irVersion int64          // 1
	opsets    []onnxOpset    // 8 opset_import
	producer  string         // 2 producer_name
	graph     *onnxGraph     // 7
	functions int            // 25: local functions are refused
	meta      map[string]int // unused
}

// onnxOpset is an OperatorSetIdProto: domain 1, version 2.
type onnxOpset struct {
	domain  string
	version int64
}

// onnxGraph is a GraphProto.
type onnxGraph struct {
	nodes   []*onnxNode     // 1
	name    string          // 2
	inits   []*onnxTensor   // 5 initializer
	sparse  int             // 15 sparse_initializer: refused
	inputs  []onnxValueInfo // 11
	outputs []onnxValueInfo // 12
}

// onnxNode is a NodeProto.
type onnxNode struct {
	inputs  []string    // 1
	outputs []string    // 2
	name    string      // 3
	op      string      // 4 op_type
	domain  string      // 7
	attrs   []*onnxAttr // 5
	path    string      // for errors
}

// Attribute types (AttributeProto.AttributeType).
const (
	attrFloat   = 1
	attrInt     = 2
	attrString  = 3
	attrTensor  = 4
	attrFloats  = 6
	attrInts    = 7
	attrStrings = 8
)

// onnxAttr is an AttributeProto.
type onnxAttr struct {
	name    string      // 1
	typ     int64       // 20
	f       float32     // 2
	i       int64       // 3
	s       []byte      // 4
	t       *onnxTensor // 5
	floats  []float32   // 7
	ints    []int64     // 8
	strings [][]byte    // 9
	other   bool        // 6 g, 10 tensors, 11 graphs, 13 sparse_tensor, 21 ref_attr_name ...: refused
	seen    uint32      // bit per field present
	path    string
}

// Tensor data types (TensorProto.DataType).
const (
	dtFloat  = 1
	dtInt32  = 6
	dtInt64  = 7
	dtDouble = 11
)

// onnxTensor is a TensorProto.
type onnxTensor struct {
	dims     []int64   // 1
	dataType int64     // 2
	floats   []float32 // 4 float_data
	int32s   []int64   // 5 int32_data
	int64s   []int64   // 7 int64_data
	name     string    // 8
	raw      []byte    // 9 raw_data
	doubles  []float64 // 10 double_data
	external bool      // 13 external_data, 14 data_location = EXTERNAL
	segment  bool      // 3
	path     string
}

// onnxValueInfo is a ValueInfoProto: its name and, for a tensor type,
// its element type and shape (−1 for a dimension without a value).
type onnxValueInfo struct {
	name     string
	elemType int64
	dims     []int64
	hasShape bool
}

func decodeModel(data []byte) (*onnxModel, error) {
	m := &onnxModel{}
	r := pbReader{b: data, path: "ModelProto"}
	for {
		f, ok, err := r.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		switch f.num {
		case 1:
			if m.irVersion, err = f.int64v("ModelProto.ir_version"); err != nil {
				return nil, err
			}
		case 2:
			if m.producer, err = f.str("ModelProto.producer_name"); err != nil {
				return nil, err
			}
		case 7:
			if m.graph != nil {
				return nil, pbErr("ModelProto.graph", "given twice")
			}
			if err := f.want("ModelProto.graph", wireBytes); err != nil {
				return nil, err
			}
			if m.graph, err = decodeGraph(f.b, "ModelProto.graph"); err != nil {
				return nil, err
			}
		case 8:
			path := fmt.Sprintf("ModelProto.opset_import[%d]", len(m.opsets))
			if err := f.want(path, wireBytes); err != nil {
				return nil, err
			}
			o, err := decodeOpset(f.b, path)
			if err != nil {
				return nil, err
			}
			m.opsets = append(m.opsets, o)
		case 25:
			m.functions++
		}
	}
	return m, nil
}

func decodeOpset(b []byte, path string) (onnxOpset, error) {
	var o onnxOpset
	r := pbReader{b: b, path: path}
	for {
		f, ok, err := r.next()
		if err != nil || !ok {
			return o, err
		}
		switch f.num {
		case 1:
			if o.domain, err = f.str(path + ".domain"); err != nil {
				return o, err
			}
		case 2:
			if o.version, err = f.int64v(path + ".version"); err != nil {
				return o, err
			}
		}
	}
}

func decodeGraph(b []byte, path string) (*onnxGraph, error) {
	g := &onnxGraph{}
	r := pbReader{b: b, path: path}
	for {
		f, ok, err := r.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			return g, nil
		}
		switch f.num {
		case 1:
			p := fmt.Sprintf("%s.node[%d]", path, len(g.nodes))
			if err := f.want(p, wireBytes); err != nil {
				return nil, err
			}
			n, err := decodeNode(f.b, p)
			if err != nil {
				return nil, err
			}
			g.nodes = append(g.nodes, n)
		case 2:
			if g.name, err = f.str(path + ".name"); err != nil {
				return nil, err
			}
		case 5:
			p := fmt.Sprintf("%s.initializer[%d]", path, len(g.inits))
			if err := f.want(p, wireBytes); err != nil {
				return nil, err
			}
			t, err := decodeTensor(f.b, p)
			if err != nil {
				return nil, err
			}
			g.inits = append(g.inits, t)
		case 11, 12:
			name := "input"
			list := &g.inputs
			if f.num == 12 {
				name, list = "output", &g.outputs
			}
			p := fmt.Sprintf("%s.%s[%d]", path, name, len(*list))
			if err := f.want(p, wireBytes); err != nil {
				return nil, err
			}
			v, err := decodeValueInfo(f.b, p)
			if err != nil {
				return nil, err
			}
			*list = append(*list, v)
		case 15:
			g.sparse++
		}
	}
}

func decodeNode(b []byte, path string) (*onnxNode, error) {
	n := &onnxNode{path: path}
	r := pbReader{b: b, path: path}
	for {
		f, ok, err := r.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			return n, nil
		}
		switch f.num {
		case 1, 2:
			s, err := f.str(fmt.Sprintf("%s.%s", path, map[int]string{1: "input", 2: "output"}[f.num]))
			if err != nil {
				return nil, err
			}
			if f.num == 1 {
				n.inputs = append(n.inputs, s)
			} else {
				n.outputs = append(n.outputs, s)
			}
		case 3:
			if n.name, err = f.str(path + ".name"); err != nil {
				return nil, err
			}
		case 4:
			if n.op, err = f.str(path + ".op_type"); err != nil {
				return nil, err
			}
		case 7:
			if n.domain, err = f.str(path + ".domain"); err != nil {
				return nil, err
			}
		case 5:
			p := fmt.Sprintf("%s.attribute[%d]", path, len(n.attrs))
			if err := f.want(p, wireBytes); err != nil {
				return nil, err
			}
			a, err := decodeAttr(f.b, p)
			if err != nil {
				return nil, err
			}
			n.attrs = append(n.attrs, a)
		}
	}
}

func decodeAttr(b []byte, path string) (*onnxAttr, error) {
	a := &onnxAttr{path: path}
	r := pbReader{b: b, path: path}
	for {
		f, ok, err := r.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		if f.num < 32 {
			a.seen |= 1 << f.num
		}
		switch f.num {
		case 1:
			a.name, err = f.str(path + ".name")
		case 20:
			a.typ, err = f.int64v(path + ".type")
		case 2:
			if err = f.want(path+".f", wireFixed32); err == nil {
				a.f = math.Float32frombits(uint32(f.v))
			}
		case 3:
			a.i, err = f.int64v(path + ".i")
		case 4:
			if err = f.want(path+".s", wireBytes); err == nil {
				a.s = f.b
			}
		case 5:
			if err = f.want(path+".t", wireBytes); err == nil {
				a.t, err = decodeTensor(f.b, path+".t")
			}
		case 7:
			a.floats, err = appendFloats(a.floats, &f, path+".floats")
		case 8:
			a.ints, err = appendInts(a.ints, &f, path+".ints")
		case 9:
			if err = f.want(path+".strings", wireBytes); err == nil {
				a.strings = append(a.strings, f.b)
			}
		case 6, 10, 11, 14, 15, 21, 22, 23:
			a.other = true
		}
		if err != nil {
			return nil, err
		}
	}
	if a.name != "" {
		a.path = fmt.Sprintf("%s (%s)", path, a.name)
	}
	return a, nil
}

func decodeTensor(b []byte, path string) (*onnxTensor, error) {
	t := &onnxTensor{path: path}
	r := pbReader{b: b, path: path}
	for {
		f, ok, err := r.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		switch f.num {
		case 1:
			t.dims, err = appendInts(t.dims, &f, path+".dims")
		case 2:
			t.dataType, err = f.int64v(path + ".data_type")
		case 3:
			t.segment = true
		case 4:
			t.floats, err = appendFloats(t.floats, &f, path+".float_data")
		case 5:
			t.int32s, err = appendInts(t.int32s, &f, path+".int32_data")
		case 7:
			t.int64s, err = appendInts(t.int64s, &f, path+".int64_data")
		case 8:
			t.name, err = f.str(path + ".name")
		case 9:
			if err = f.want(path+".raw_data", wireBytes); err == nil {
				t.raw = f.b
			}
		case 10:
			t.doubles, err = appendDoubles(t.doubles, &f, path+".double_data")
		case 13:
			t.external = true
		case 14:
			var v int64
			if v, err = f.int64v(path + ".data_location"); v == 1 {
				t.external = true
			}
		}
		if err != nil {
			return nil, err
		}
	}
	if t.name != "" {
		t.path = fmt.Sprintf("%s (%s)", path, t.name)
	}
	return t, nil
}

func decodeValueInfo(b []byte, path string) (onnxValueInfo, error) {
	var v onnxValueInfo
	r := pbReader{b: b, path: path}
	for {
		f, ok, err := r.next()
		if err != nil || !ok {
			return v, err
		}
		switch f.num {
		case 1:
			if v.name, err = f.str(path + ".name"); err != nil {
				return v, err
			}
		case 2: // TypeProto
			p := path + ".type"
			if err := f.want(p, wireBytes); err != nil {
				return v, err
			}
			tr := pbReader{b: f.b, path: p}
			for {
				tf, ok, err := tr.next()
				if err != nil {
					return v, err
				}
				if !ok {
					break
				}
				if tf.num != 1 { // tensor_type
					continue
				}
				p := p + ".tensor_type"
				if err := tf.want(p, wireBytes); err != nil {
					return v, err
				}
				if err := decodeTensorType(tf.b, p, &v); err != nil {
					return v, err
				}
			}
		}
	}
}

// decodeTensorType reads a TypeProto.Tensor: elem_type 1, shape 2
// (TensorShapeProto: dim 1, each a Dimension: dim_value 1, dim_param 2).
func decodeTensorType(b []byte, path string, v *onnxValueInfo) error {
	r := pbReader{b: b, path: path}
	for {
		f, ok, err := r.next()
		if err != nil || !ok {
			return err
		}
		switch f.num {
		case 1:
			if v.elemType, err = f.int64v(path + ".elem_type"); err != nil {
				return err
			}
		case 2:
			p := path + ".shape"
			if err := f.want(p, wireBytes); err != nil {
				return err
			}
			v.hasShape = true
			sr := pbReader{b: f.b, path: p}
			for {
				df, ok, err := sr.next()
				if err != nil {
					return err
				}
				if !ok {
					break
				}
				if df.num != 1 {
					continue
				}
				p := fmt.Sprintf("%s.dim[%d]", p, len(v.dims))
				if err := df.want(p, wireBytes); err != nil {
					return err
				}
				dim := int64(-1)
				dr := pbReader{b: df.b, path: p}
				for {
					x, ok, err := dr.next()
					if err != nil {
						return err
					}
					if !ok {
						break
					}
					if x.num == 1 {
						if dim, err = x.int64v(p + ".dim_value"); err != nil {
							return err
						}
					}
				}
				v.dims = append(v.dims, dim)
			}
		}
	}
}

// values returns a tensor's elements as float64, checking that their
// number is the product of its dims. Float, double, int32 and int64
// tensors are read, from raw_data (little-endian) or the typed field.
func (t *onnxTensor) values() ([]float64, error) {
	if t.external {
		return nil, fmt.Errorf("%w: field %s: data stored outside the file (external_data)", ErrUnsupported, t.path)
	}
	if t.segment {
		return nil, fmt.Errorf("%w: field %s: a segmented tensor", ErrUnsupported, t.path)
	}
	n := uint64(1)
	for _, d := range t.dims {
		if d < 0 || d > math.MaxInt32 {
			return nil, pbErr(t.path+".dims", "dimension %d", d)
		}
		n *= uint64(d)
		if n > math.MaxInt32 {
			return nil, pbErr(t.path+".dims", "%v holds more values than the file", t.dims)
		}
	}
	size := map[int64]int{dtFloat: 4, dtDouble: 8, dtInt32: 4, dtInt64: 8}[t.dataType]
	if size == 0 {
		return nil, fmt.Errorf("%w: field %s.data_type: %d (float, double, int32 and int64 tensors are read)", ErrUnsupported, t.path, t.dataType)
	}
	var out []float64
	if t.raw != nil {
		if uint64(len(t.raw)) != n*uint64(size) {
			return nil, pbErr(t.path+".raw_data", "%d bytes for %d values of %d bytes", len(t.raw), n, size)
		}
		out = make([]float64, n)
		for i := range out {
			b := t.raw[i*size:]
			switch t.dataType {
			case dtFloat:
				out[i] = float64(math.Float32frombits(leU32(b)))
			case dtDouble:
				out[i] = math.Float64frombits(leU64(b))
			case dtInt32:
				out[i] = float64(int32(leU32(b)))
			case dtInt64:
				out[i] = float64(int64(leU64(b)))
			}
		}
		return out, nil
	}
	var have int
	switch t.dataType {
	case dtFloat:
		have = len(t.floats)
	case dtDouble:
		have = len(t.doubles)
	case dtInt32:
		have = len(t.int32s)
	case dtInt64:
		have = len(t.int64s)
	}
	if uint64(have) != n {
		return nil, pbErr(t.path, "%d values for dims %v", have, t.dims)
	}
	out = make([]float64, n)
	for i := range out {
		switch t.dataType {
		case dtFloat:
			out[i] = float64(t.floats[i])
		case dtDouble:
			out[i] = t.doubles[i]
		case dtInt32:
			out[i] = float64(int32(t.int32s[i]))
		case dtInt64:
			out[i] = float64(t.int64s[i])
		}
	}
	return out, nil
}

func leU32(b []byte) uint32 {
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
}
func leU64(b []byte) uint64 { return uint64(leU32(b)) | uint64(leU32(b[4:]))<<32 }
