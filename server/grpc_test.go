package server_test

import (
	"context"
	"encoding/binary"
	"io"
	"log/slog"
	"math"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"

	"github.com/rosenblatt-go/rosenblatt/model"
	"github.com/rosenblatt-go/rosenblatt/quant"
	"github.com/rosenblatt-go/rosenblatt/serve"
	"github.com/rosenblatt-go/rosenblatt/server"
	"github.com/rosenblatt-go/rosenblatt/server/oippb"
)

// fixtures is the root module's directory of model files of every kind.
const fixtures = "../model/testdata/fixtures"

// quiet is a logger that drops everything.
var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// serveFixture copies fixture file to a temporary directory as name+ext,
// serves it with opt, and returns the server and a gRPC client connected
// to its gRPC service over an in-memory connection, and the served file's
// path.
func serveFixture(t *testing.T, file, name string, opt serve.Options) (*serve.Server, oippb.GRPCInferenceServiceClient, string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(fixtures, file))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), name+filepath.Ext(file))
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	opt.Poll = -1
	opt.Logger = quiet
	s, err := serve.New(path, nil, opt)
	if err != nil {
		t.Fatal(err)
	}
	return s, dial(t, server.NewGRPCServer(s)), path
}

// dial serves g on an in-memory listener and returns a client of it.
func dial(t testing.TB, g *grpc.Server) oippb.GRPCInferenceServiceClient {
	t.Helper()
	ln := bufconn.Listen(1 << 20)
	go g.Serve(ln)
	t.Cleanup(g.Stop)
	conn, err := grpc.NewClient("passthrough:///bufconn",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return ln.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return oippb.NewGRPCInferenceServiceClient(conn)
}

// rows returns n rows of d values in [-2, 2).
func rows(seed uint64, n, d int) []float64 {
	rng := rand.New(rand.NewPCG(seed, 7))
	X := make([]float64, n*d)
	for i := range X {
		X[i] = 4*rng.Float64() - 2
	}
	return X
}

// want returns the labels and scores the model in file gives rows X (of
// float64 values, converted to the model's type as the server converts
// them), computed with the model's own methods.
func want(t *testing.T, file string, X []float64) (labels []int64, scores []float64, elem string) {
	t.Helper()
	m, err := model.LoadFile(filepath.Join(fixtures, file))
	if err != nil {
		t.Fatal(err)
	}
	if c, err := model.As[float32](m); err == nil {
		l, s := predict(t, c, convert[float32](X))
		return l, s, "FP32"
	}
	c, err := model.As[float64](m)
	if err != nil {
		t.Fatal(err)
	}
	l, s := predict(t, c, X)
	return l, s, "FP64"
}

func convert[T float32 | float64](X []float64) []T {
	out := make([]T, len(X))
	for i, v := range X {
		out[i] = T(v)
	}
	return out
}

func predict[T float32 | float64](t *testing.T, c model.Classifier[T], X []T) ([]int64, []float64) {
	d, k := c.Dims(), c.NumScores()
	var labels []int64
	var scores []float64
	sc := make([]T, k)
	for i := 0; i < len(X)/d; i++ {
		l, err := c.Predict(X[i*d : (i+1)*d])
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Scores(sc, X[i*d:(i+1)*d]); err != nil {
			t.Fatal(err)
		}
		labels = append(labels, int64(l))
		for _, v := range sc {
			scores = append(scores, float64(v))
		}
	}
	return labels, scores
}

// gotScores returns a response's scores as float64, from its contents or
// its raw output at index i.
func gotScores(t *testing.T, r *oippb.ModelInferResponse, i int) []float64 {
	t.Helper()
	o := r.Outputs[i]
	var out []float64
	switch {
	case len(r.RawOutputContents) > 0 && o.Datatype == "FP32":
		b := r.RawOutputContents[i]
		for j := 0; j < len(b); j += 4 {
			out = append(out, float64(math.Float32frombits(binary.LittleEndian.Uint32(b[j:]))))
		}
	case len(r.RawOutputContents) > 0:
		b := r.RawOutputContents[i]
		for j := 0; j < len(b); j += 8 {
			out = append(out, math.Float64frombits(binary.LittleEndian.Uint64(b[j:])))
		}
	case o.Datatype == "FP32":
		for _, v := range o.Contents.Fp32Contents {
			out = append(out, float64(v))
		}
	default:
		out = o.Contents.Fp64Contents
	}
	return out
}

// gotLabels returns a response's labels, from its contents or its raw
// output at index i.
func gotLabels(r *oippb.ModelInferResponse, i int) []int64 {
	if len(r.RawOutputContents) == 0 {
		return r.Outputs[i].Contents.Int64Contents
	}
	var out []int64
	b := r.RawOutputContents[i]
	for j := 0; j < len(b); j += 8 {
		out = append(out, int64(binary.LittleEndian.Uint64(b[j:])))
	}
	return out
}

type input = oippb.ModelInferRequest_InferInputTensor

// TestHealthAndMetadata checks ServerLive, ServerReady, ServerMetadata,
// ModelReady and ModelMetadata against the model in use.
func TestHealthAndMetadata(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		file, elem string
		dims, k    int
	}{
		{"perceptron-ovr-f32.model", "FP32", 0, 0},
		{"kernel-svm-ovo-f64.json", "FP64", 0, 0},
		{"quant-ovr.model", "FP32", 0, 0},
	} {
		t.Run(tc.file, func(t *testing.T) {
			s, c, _ := serveFixture(t, tc.file, "iris", serve.Options{})
			info := s.Current()
			live, err := c.ServerLive(ctx, &oippb.ServerLiveRequest{})
			if err != nil || !live.Live {
				t.Fatalf("ServerLive = %v, %v", live, err)
			}
			ready, err := c.ServerReady(ctx, &oippb.ServerReadyRequest{})
			if err != nil || !ready.Ready {
				t.Fatalf("ServerReady = %v, %v", ready, err)
			}
			md, err := c.ServerMetadata(ctx, &oippb.ServerMetadataRequest{})
			if err != nil || md.Name != "rosenblatt" || md.Version != "2" || md.Extensions == nil && len(md.Extensions) != 0 {
				t.Fatalf("ServerMetadata = %v, %v", md, err)
			}
			for _, r := range []struct {
				name, version string
				ready         bool
			}{{"iris", "", true}, {"iris", info.Version, true}, {"iris", "0123456789abcdef", false}, {"other", "", false}} {
				got, err := c.ModelReady(ctx, &oippb.ModelReadyRequest{Name: r.name, Version: r.version})
				if err != nil || got.Ready != r.ready {
					t.Errorf("ModelReady(%q, %q) = %v, %v; want ready %v", r.name, r.version, got, err, r.ready)
				}
			}
			if got, err := c.ModelReady(ctx, &oippb.ModelReadyRequest{}); err != nil || !got.Ready {
				t.Errorf("ModelReady without a name, of a server of one model: %v, %v; want ready", got, err)
			}
			mm, err := c.ModelMetadata(ctx, &oippb.ModelMetadataRequest{Name: "iris"})
			if err != nil {
				t.Fatal(err)
			}
			if mm.Name != "iris" || !slices.Equal(mm.Versions, []string{info.Version}) || mm.Platform != "rosenblatt" ||
				len(mm.Inputs) != 1 || mm.Inputs[0].Name != "input" || mm.Inputs[0].Datatype != tc.elem ||
				!slices.Equal(mm.Inputs[0].Shape, []int64{-1, int64(info.Dims)}) || len(mm.Outputs) != 2 ||
				mm.Outputs[0].Name != "label" || mm.Outputs[0].Datatype != "INT64" || !slices.Equal(mm.Outputs[0].Shape, []int64{-1}) ||
				mm.Outputs[1].Name != "scores" || mm.Outputs[1].Datatype != tc.elem ||
				!slices.Equal(mm.Outputs[1].Shape, []int64{-1, int64(info.NumScores)}) {
				t.Errorf("ModelMetadata = %v; the model in use: %+v", mm, info)
			}
			for _, r := range []*oippb.ModelMetadataRequest{{Name: "other"}, {Name: "iris", Version: "0123456789abcdef"}} {
				if _, err := c.ModelMetadata(ctx, r); status.Code(err) != codes.NotFound {
					t.Errorf("ModelMetadata(%v): %v, want NotFound", r, err)
				}
			}
		})
	}
}

// TestInfer checks ModelInfer's labels and scores against the model's
// own, for models of each element type and a quantised one, with the
// input in each datatype's contents and as raw bytes.
func TestInfer(t *testing.T) {
	ctx := context.Background()
	for _, file := range []string{"perceptron-ovr-f32.model", "kernel-svm-ovo-f64.json", "quant-ovr.model", "linear-svm-binary-f64.json"} {
		t.Run(file, func(t *testing.T) {
			s, c, _ := serveFixture(t, file, "m", serve.Options{})
			info := s.Current()
			d, n := info.Dims, 7
			X := rows(1, n, d)
			// Integers in [-128, 127] and [0, 255] for INT8 and UINT8.
			I8, U8 := make([]float64, n*d), make([]float64, n*d)
			i32, u32 := make([]int32, n*d), make([]uint32, n*d)
			raw8, rawU8 := make([]byte, n*d), make([]byte, n*d)
			for i, v := range X {
				i32[i] = int32(math.Round(v * 60))
				u32[i] = uint32(math.Round((v + 2) * 60))
				I8[i], U8[i] = float64(i32[i]), float64(u32[i])
				raw8[i], rawU8[i] = byte(int8(i32[i])), byte(u32[i])
			}
			var raw32, raw64 []byte
			for _, v := range X {
				raw32 = binary.LittleEndian.AppendUint32(raw32, math.Float32bits(float32(v)))
				raw64 = binary.LittleEndian.AppendUint64(raw64, math.Float64bits(v))
			}
			shape := []int64{int64(n), int64(d)}
			for _, tc := range []struct {
				name string
				in   *input
				raw  []byte
				X    []float64 // the values sent
			}{
				{"FP32", &input{Datatype: "FP32", Contents: &oippb.InferTensorContents{Fp32Contents: convert[float32](X)}}, nil, convert64(convert[float32](X))},
				{"FP64", &input{Datatype: "FP64", Contents: &oippb.InferTensorContents{Fp64Contents: X}}, nil, X},
				{"INT8", &input{Datatype: "INT8", Contents: &oippb.InferTensorContents{IntContents: i32}}, nil, I8},
				{"UINT8", &input{Datatype: "UINT8", Contents: &oippb.InferTensorContents{UintContents: u32}}, nil, U8},
				{"raw FP32", &input{Datatype: "FP32"}, raw32, convert64(convert[float32](X))},
				{"raw FP64", &input{Datatype: "FP64"}, raw64, X},
				{"raw INT8", &input{Datatype: "INT8"}, raw8, I8},
				{"raw UINT8", &input{Datatype: "UINT8"}, rawU8, U8},
			} {
				tc.in.Name, tc.in.Shape = "input", shape
				req := &oippb.ModelInferRequest{ModelName: "m", Id: "req-" + tc.name, Inputs: []*input{tc.in}}
				if tc.raw != nil {
					req.RawInputContents = [][]byte{tc.raw}
				}
				r, err := c.ModelInfer(ctx, req)
				if err != nil {
					t.Fatalf("%s: %v", tc.name, err)
				}
				wl, ws, elem := want(t, file, tc.X)
				if strings.HasSuffix(tc.name, "INT8") {
					// A quantised model takes integers as its bytes (x = v,
					// scale 1), not quantised again as float32 samples.
					wl, ws = wantBytes(t, file, tc.X, !strings.HasSuffix(tc.name, "UINT8"), wl, ws)
				}
				if r.ModelName != "m" || r.ModelVersion != info.Version || r.Id != req.Id || len(r.Outputs) != 2 {
					t.Fatalf("%s: response %v", tc.name, r)
				}
				if (tc.raw != nil) != (len(r.RawOutputContents) == 2) {
					t.Errorf("%s: %d raw outputs for a request with raw inputs %v", tc.name, len(r.RawOutputContents), tc.raw != nil)
				}
				lo, so := r.Outputs[0], r.Outputs[1]
				if lo.Name != "label" || lo.Datatype != "INT64" || !slices.Equal(lo.Shape, []int64{int64(n)}) ||
					so.Name != "scores" || so.Datatype != elem || !slices.Equal(so.Shape, []int64{int64(n), int64(info.NumScores)}) {
					t.Errorf("%s: outputs %v", tc.name, r.Outputs)
				}
				if got := gotLabels(r, 0); !slices.Equal(got, wl) {
					t.Errorf("%s: labels %v, the model's own %v", tc.name, got, wl)
				}
				if got := gotScores(t, r, 1); !slices.Equal(got, ws) {
					t.Errorf("%s: scores %v, the model's own %v", tc.name, got, ws)
				}
			}
			// One output, asked by name; the version pinned.
			req := &oippb.ModelInferRequest{ModelName: "m", ModelVersion: info.Version,
				Inputs:  []*input{{Name: "input", Datatype: "FP64", Shape: shape, Contents: &oippb.InferTensorContents{Fp64Contents: X}}},
				Outputs: []*oippb.ModelInferRequest_InferRequestedOutputTensor{{Name: "scores"}}}
			r, err := c.ModelInfer(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			if _, ws, _ := want(t, file, X); len(r.Outputs) != 1 || r.Outputs[0].Name != "scores" || !slices.Equal(gotScores(t, r, 0), ws) {
				t.Errorf("outputs [scores]: %v", r.Outputs)
			}
			req.Outputs[0].Name = "label"
			if r, err = c.ModelInfer(ctx, req); err != nil || len(r.Outputs) != 1 || r.Outputs[0].Name != "label" {
				t.Errorf("outputs [label]: %v, %v", r, err)
			}
		})
	}
}

// wantBytes returns the labels and scores the model in file gives the
// integer rows X if it is a quantised model, from its own PredictI8 and
// ScoresI8 (signed) or PredictU8 and ScoresU8 with scale 1; else wl, ws.
func wantBytes(t *testing.T, file string, X []float64, signed bool, wl []int64, ws []float64) ([]int64, []float64) {
	t.Helper()
	m, err := model.LoadFile(filepath.Join(fixtures, file))
	if err != nil {
		t.Fatal(err)
	}
	q, ok := m.(*quant.Model)
	if !ok {
		return wl, ws
	}
	d, k := q.Dims(), q.NumScores()
	var labels []int64
	var scores []float64
	sc := make([]float32, k)
	for i := 0; i < len(X)/d; i++ {
		var l int
		if signed {
			v := make([]int8, d)
			for j := range v {
				v[j] = int8(X[i*d+j])
			}
			l, err = q.PredictI8(v, 1)
			if err == nil {
				err = q.ScoresI8(sc, v, 1)
			}
		} else {
			u := make([]uint8, d)
			for j := range u {
				u[j] = uint8(X[i*d+j])
			}
			l, err = q.PredictU8(u, 1, 0)
			if err == nil {
				err = q.ScoresU8(sc, u, 1, 0)
			}
		}
		if err != nil {
			t.Fatal(err)
		}
		labels = append(labels, int64(l))
		for _, v := range sc {
			scores = append(scores, float64(v))
		}
	}
	return labels, scores
}

func convert64(X []float32) []float64 {
	out := make([]float64, len(X))
	for i, v := range X {
		out[i] = float64(v)
	}
	return out
}

// TestInferRefusals checks that malformed or over-limit requests get the
// protocol's status codes, with messages that say what is wrong.
func TestInferRefusals(t *testing.T) {
	ctx := context.Background()
	s, c, _ := serveFixture(t, "perceptron-ovr-f32.model", "m", serve.Options{MaxScores: 40})
	info := s.Current()
	d := info.Dims
	k := info.NumScores
	fp32 := func(n int) *oippb.InferTensorContents {
		return &oippb.InferTensorContents{Fp32Contents: convert[float32](rows(2, n, d))}
	}
	one := func(in *input) []*input { return []*input{in} }
	good := func() *input {
		return &input{Name: "input", Datatype: "FP32", Shape: []int64{2, int64(d)}, Contents: fp32(2)}
	}
	nan := good()
	nan.Contents.Fp32Contents[d+1] = float32(math.NaN())
	wrongDims := good()
	wrongDims.Shape = []int64{2, int64(d + 1)}
	short := good()
	short.Contents.Fp32Contents = short.Contents.Fp32Contents[1:]
	mixed := good()
	mixed.Contents.Fp64Contents = []float64{1}
	int8Range := &input{Name: "input", Datatype: "INT8", Shape: []int64{1, int64(d)}, Contents: &oippb.InferTensorContents{IntContents: make([]int32, d)}}
	int8Range.Contents.IntContents[d-1] = 128
	bigN := good()
	bigN.Shape = []int64{1 << 40, int64(d)}
	many := &input{Name: "input", Datatype: "FP32", Shape: []int64{int64(40/k + 1), int64(d)}, Contents: fp32(40/k + 1)}
	for _, tc := range []struct {
		name string
		req  *oippb.ModelInferRequest
		code codes.Code
	}{
		{"unknown model", &oippb.ModelInferRequest{ModelName: "x", Inputs: one(good())}, codes.NotFound},
		{"unknown version", &oippb.ModelInferRequest{ModelName: "m", ModelVersion: "0123456789abcdef", Inputs: one(good())}, codes.NotFound},
		{"no input", &oippb.ModelInferRequest{ModelName: "m"}, codes.InvalidArgument},
		{"two inputs", &oippb.ModelInferRequest{ModelName: "m", Inputs: []*input{good(), good()}}, codes.InvalidArgument},
		{"input name", &oippb.ModelInferRequest{ModelName: "m", Inputs: one(&input{Name: "x", Datatype: "FP32", Shape: []int64{2, int64(d)}, Contents: fp32(2)})}, codes.InvalidArgument},
		{"NaN", &oippb.ModelInferRequest{ModelName: "m", Inputs: one(nan)}, codes.InvalidArgument},
		{"width", &oippb.ModelInferRequest{ModelName: "m", Inputs: one(wrongDims)}, codes.InvalidArgument},
		{"count", &oippb.ModelInferRequest{ModelName: "m", Inputs: one(short)}, codes.InvalidArgument},
		{"mixed fields", &oippb.ModelInferRequest{ModelName: "m", Inputs: one(mixed)}, codes.InvalidArgument},
		{"INT8 range", &oippb.ModelInferRequest{ModelName: "m", Inputs: one(int8Range)}, codes.InvalidArgument},
		{"datatype", &oippb.ModelInferRequest{ModelName: "m", Inputs: one(&input{Name: "input", Datatype: "BYTES", Shape: []int64{1, int64(d)}})}, codes.InvalidArgument},
		{"huge n", &oippb.ModelInferRequest{ModelName: "m", Inputs: one(bigN)}, codes.InvalidArgument},
		{"empty batch", &oippb.ModelInferRequest{ModelName: "m", Inputs: one(&input{Name: "input", Datatype: "FP32", Shape: []int64{0, int64(d)}})}, codes.InvalidArgument},
		{"raw and contents", &oippb.ModelInferRequest{ModelName: "m", Inputs: one(good()), RawInputContents: [][]byte{make([]byte, 8*d)}}, codes.InvalidArgument},
		{"raw size", &oippb.ModelInferRequest{ModelName: "m", Inputs: one(&input{Name: "input", Datatype: "FP32", Shape: []int64{2, int64(d)}}), RawInputContents: [][]byte{make([]byte, 8*d-1)}}, codes.InvalidArgument},
		{"output name", &oippb.ModelInferRequest{ModelName: "m", Inputs: one(good()), Outputs: []*oippb.ModelInferRequest_InferRequestedOutputTensor{{Name: "probabilities"}}}, codes.InvalidArgument},
		{"scores over -max-scores", &oippb.ModelInferRequest{ModelName: "m", Inputs: one(many)}, codes.ResourceExhausted},
	} {
		_, err := c.ModelInfer(ctx, tc.req)
		if st := status.Convert(err); st.Code() != tc.code || st.Message() == "" {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.code)
		}
	}
	// The same many rows without scores are within -max-scores.
	r, err := c.ModelInfer(ctx, &oippb.ModelInferRequest{ModelName: "m", Inputs: one(many),
		Outputs: []*oippb.ModelInferRequest_InferRequestedOutputTensor{{Name: "label"}}})
	if err != nil || len(gotLabels(r, 0)) != 40/k+1 {
		t.Errorf("labels of %d rows: %v, %v", 40/k+1, r, err)
	}
	// A message larger than -max-body is refused by gRPC itself.
	_, c2, _ := serveFixture(t, "perceptron-ovr-f32.model", "m", serve.Options{MaxBodyBytes: 1024})
	big := 1024/(4*d) + 1
	_, err = c2.ModelInfer(ctx, &oippb.ModelInferRequest{ModelName: "m", Inputs: one(&input{Name: "input", Datatype: "FP32", Shape: []int64{int64(big), int64(d)}, Contents: fp32(big)})})
	if status.Code(err) != codes.ResourceExhausted {
		t.Errorf("a message over -max-body: %v, want ResourceExhausted", err)
	}
}
