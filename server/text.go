package server

import (
	"context"
	"encoding/binary"
	"math"

	"github.com/rosenblatt-go/rosenblatt/serve"
	"github.com/rosenblatt-go/rosenblatt/server/oippb"
)

// inferText is ModelInfer for a text model, or for a BYTES input: one
// input "input" of datatype BYTES and shape [n] or [n, 1], its n
// documents in bytes_contents or in the request's one raw_input_contents
// entry as the protocol lays BYTES out (each element a 4-byte
// little-endian length and that many bytes). The answer's "label" is
// BYTES [n], the labels' names, "scores" [n, k].
func (g *Service) inferText(ctx context.Context, r *oippb.ModelInferRequest, md serve.Metadata, t *oippb.ModelInferRequest_InferInputTensor, raw [][]byte, out serve.Outputs) (*oippb.ModelInferResponse, error) {
	switch {
	case !md.Text:
		return nil, invalid("datatype BYTES: model %q is not a text model: it takes rows of %d numbers (%s)", md.Name, md.Dims, datatypes)
	case t.GetDatatype() != "BYTES":
		return nil, invalid("datatype %q: model %q is a text model: its input is BYTES, one string per document, of shape [n] or [n, 1]", t.GetDatatype(), md.Name)
	}
	sh := t.GetShape()
	if len(sh) < 1 || len(sh) > 2 || len(sh) == 2 && sh[1] != 1 {
		return nil, invalid("the input's shape %v must be [n] or [n, 1]: one string per document", sh)
	}
	n := sh[0]
	if n < 1 || n > math.MaxInt32 {
		return nil, invalid("the input's shape %v: n must be at least 1 (and below 2³¹)", sh)
	}
	var docs [][]byte
	var err error
	if len(raw) == 1 {
		docs, err = splitBytes(raw[0], n)
	} else {
		docs = t.GetContents().GetBytesContents()
		if err = only(t.GetContents(), len(docs), n, "bytes_contents"); err != nil {
			return nil, err
		}
	}
	if err != nil {
		return nil, err
	}
	res, err := g.s.InferText(ctx, md.Name, r.GetModelVersion(), docs, out)
	if err != nil {
		return nil, statusOf(err)
	}
	return response(r, res, len(raw) > 0), nil
}

// only checks that c holds want values, all n of them in its field
// named field.
func only(c *oippb.InferTensorContents, n int, want int64, field string) error {
	if int64(n) != want {
		return invalid("the input holds %d values in %s, its shape needs %d", n, field, want)
	}
	others := len(c.GetBoolContents()) + len(c.GetInt64Contents()) + len(c.GetUint64Contents()) + len(c.GetBytesContents()) +
		len(c.GetFp32Contents()) + len(c.GetFp64Contents()) + len(c.GetIntContents()) + len(c.GetUintContents()) - n
	if others != 0 {
		return invalid("the values must all be in %s, and %d are in other fields", field, others)
	}
	return nil
}

// splitBytes returns the n elements of a raw BYTES tensor, each a 4-byte
// little-endian length and that many bytes, as slices of raw; anything
// else (fewer or more bytes, a length past the end) is refused.
func splitBytes(raw []byte, n int64) ([][]byte, error) {
	if n > int64(len(raw))/4 {
		return nil, invalid("raw_input_contents of %d bytes cannot hold %d BYTES elements (each a 4-byte length and its bytes)", len(raw), n)
	}
	docs := make([][]byte, n)
	for i := range docs {
		if len(raw) < 4 {
			return nil, invalid("raw_input_contents ends before BYTES element %d's 4-byte length", i)
		}
		k := binary.LittleEndian.Uint32(raw)
		raw = raw[4:]
		if uint64(k) > uint64(len(raw)) {
			return nil, invalid("BYTES element %d of raw_input_contents is %d bytes long, and %d bytes are left", i, k, len(raw))
		}
		docs[i], raw = raw[:k:k], raw[k:]
	}
	if len(raw) != 0 {
		return nil, invalid("raw_input_contents holds %d bytes after its %d BYTES elements", len(raw), n)
	}
	return docs, nil
}

// appendBytes appends ss to b as a raw BYTES tensor: each a 4-byte
// little-endian length and its bytes.
func appendBytes(b []byte, ss []string) []byte {
	for _, s := range ss {
		b = binary.LittleEndian.AppendUint32(b, uint32(len(s)))
		b = append(b, s...)
	}
	return b
}

// byteStrings returns ss as bytes_contents.
func byteStrings(ss []string) [][]byte {
	out := make([][]byte, len(ss))
	for i, s := range ss {
		out[i] = []byte(s)
	}
	return out
}
