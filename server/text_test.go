package server_test

import (
	"context"
	"encoding/binary"
	"path/filepath"
	"slices"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/rosenblatt-go/rosenblatt/model"
	"github.com/rosenblatt-go/rosenblatt/serve"
	"github.com/rosenblatt-go/rosenblatt/server/oippb"
)

// rawBytes lays docs out as a raw BYTES tensor: each a 4-byte
// little-endian length and its bytes.
func rawBytes(docs []string) []byte {
	var b []byte
	for _, d := range docs {
		b = binary.LittleEndian.AppendUint32(b, uint32(len(d)))
		b = append(b, d...)
	}
	return b
}

// TestInferText: a text model over gRPC — its metadata (input BYTES [-1],
// label BYTES), and inference from BYTES in bytes_contents and in
// raw_input_contents, of shape [n] and [n, 1], answered with the labels'
// names and scores the library's text model gives; and the refusals
// (numbers to a text model, BYTES to another, malformed raw BYTES).
func TestInferText(t *testing.T) {
	const file = "text-ovr-f32.model"
	s, c, _ := serveFixture(t, file, "docs", serve.Options{})
	m, err := model.LoadFile(filepath.Join(fixtures, file))
	if err != nil {
		t.Fatal(err)
	}
	tm := m.(*model.Text)
	ctx := context.Background()
	md, err := c.ModelMetadata(ctx, &oippb.ModelMetadataRequest{Name: "docs"})
	if err != nil {
		t.Fatal(err)
	}
	if in := md.Inputs[0]; in.Datatype != "BYTES" || !slices.Equal(in.Shape, []int64{-1}) || md.Outputs[0].Datatype != "BYTES" {
		t.Errorf("metadata %v", md)
	}
	docs := []string{"the first document", "", "ünïcödé text, and \xff a stray byte", "one more short text"}
	var wantNames []string
	var wantScores []float64
	for _, d := range docs {
		name, err := tm.PredictText(d)
		if err != nil {
			t.Fatal(err)
		}
		sc := make([]float64, tm.NumScores())
		if err := tm.ScoresText(sc, d); err != nil {
			t.Fatal(err)
		}
		wantNames = append(wantNames, name)
		wantScores = append(wantScores, sc...)
	}
	n := int64(len(docs))
	var contents [][]byte
	for _, d := range docs {
		contents = append(contents, []byte(d))
	}
	for _, tc := range []struct {
		name  string
		shape []int64
		raw   bool
	}{{"contents [n]", []int64{n}, false}, {"contents [n, 1]", []int64{n, 1}, false}, {"raw [n]", []int64{n}, true}, {"raw [n, 1]", []int64{n, 1}, true}} {
		in := &input{Name: "input", Datatype: "BYTES", Shape: tc.shape}
		req := &oippb.ModelInferRequest{ModelName: "docs", Id: tc.name, Inputs: []*input{in}}
		if tc.raw {
			req.RawInputContents = [][]byte{rawBytes(docs)}
		} else {
			in.Contents = &oippb.InferTensorContents{BytesContents: contents}
		}
		r, err := c.ModelInfer(ctx, req)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if len(r.Outputs) != 2 || r.Outputs[0].Datatype != "BYTES" || !slices.Equal(r.Outputs[0].Shape, []int64{n}) || r.Id != tc.name {
			t.Fatalf("%s: %v", tc.name, r)
		}
		var names []string
		if tc.raw {
			if got, want := r.RawOutputContents[0], rawBytes(wantNames); !slices.Equal(got, want) {
				t.Errorf("%s: raw labels %q, want %q", tc.name, got, want)
			}
			names = wantNames
		} else {
			for _, b := range r.Outputs[0].Contents.BytesContents {
				names = append(names, string(b))
			}
		}
		if !slices.Equal(names, wantNames) {
			t.Errorf("%s: labels %q, the library's %q", tc.name, names, wantNames)
		}
		if got := gotScores(t, r, 1); !slices.Equal(got, wantScores) {
			t.Errorf("%s: scores %v, the library's %v", tc.name, got, wantScores)
		}
	}
	one := func(dt string, shape []int64, ct *oippb.InferTensorContents, raw []byte) *oippb.ModelInferRequest {
		r := &oippb.ModelInferRequest{ModelName: "docs", Inputs: []*input{{Name: "input", Datatype: dt, Shape: shape, Contents: ct}}}
		if raw != nil {
			r.RawInputContents = [][]byte{raw}
		}
		return r
	}
	for name, req := range map[string]*oippb.ModelInferRequest{
		"FP32 to a text model":   one("FP32", []int64{1, int64(s.Current().Dims)}, &oippb.InferTensorContents{Fp32Contents: make([]float32, s.Current().Dims)}, nil),
		"shape [n, 2]":           one("BYTES", []int64{2, 2}, &oippb.InferTensorContents{BytesContents: contents[:4]}, nil),
		"shape [0]":              one("BYTES", []int64{0}, &oippb.InferTensorContents{}, nil),
		"count":                  one("BYTES", []int64{3}, &oippb.InferTensorContents{BytesContents: contents}, nil),
		"other field":            one("BYTES", []int64{1}, &oippb.InferTensorContents{BytesContents: contents[:1], Fp32Contents: []float32{1}}, nil),
		"raw: a length too long": one("BYTES", []int64{1}, nil, []byte{9, 0, 0, 0, 'a'}),
		"raw: bytes left over":   one("BYTES", []int64{1}, nil, append(rawBytes(docs[:1]), 'x')),
		"raw: too few elements":  one("BYTES", []int64{4}, nil, rawBytes(docs[:3])),
		"raw: a cut length":      one("BYTES", []int64{2}, nil, append(rawBytes(docs[:1]), 1, 0)),
	} {
		if _, err := c.ModelInfer(ctx, req); status.Code(err) != codes.InvalidArgument {
			t.Errorf("%s: %v, want InvalidArgument", name, err)
		}
	}
	// BYTES to a model that is not a text model.
	_, c2, _ := serveFixture(t, "perceptron-ovr-f32.model", "m", serve.Options{})
	req := &oippb.ModelInferRequest{ModelName: "m", Inputs: []*input{{Name: "input", Datatype: "BYTES", Shape: []int64{1},
		Contents: &oippb.InferTensorContents{BytesContents: contents[:1]}}}}
	if _, err := c2.ModelInfer(ctx, req); status.Code(err) != codes.InvalidArgument {
		t.Errorf("BYTES to a numeric model: %v, want InvalidArgument", err)
	}
}
