package server

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"net/http"
	"runtime"
	"time"
	"unsafe"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/rosenblatt-go/rosenblatt/serve"
	"github.com/rosenblatt-go/rosenblatt/server/oippb"
)

// Service is the Open Inference Protocol's gRPC service
// (inference.GRPCInferenceService) over a serve.Server: the same models,
// versions, limits and inference as its REST endpoints.
type Service struct {
	oippb.UnimplementedGRPCInferenceServiceServer
	s   *serve.Server
	obs serve.Observer
}

// New returns the gRPC service of s. Its inference requests are reported
// to s's Observer (serve.Options.Observer), if any, under protocol
// serve.ProtoOIPGRPC.
func New(s *serve.Server) *Service {
	return &Service{s: s, obs: s.Options().Observer}
}

// NewGRPCServer returns a grpc.Server with the service of s registered,
// a received message bounded by s's Options.MaxBodyBytes (-max-body, as a
// REST request body is) and the options opt after those.
func NewGRPCServer(s *serve.Server, opt ...grpc.ServerOption) *grpc.Server {
	lim := s.Options().MaxBodyBytes
	opts := append([]grpc.ServerOption{
		grpc.MaxRecvMsgSize(int(min(lim, math.MaxInt32))),
		// Requests served by a pool of goroutines whose stacks have
		// grown, rather than a new goroutine each (whose stack grows by
		// copying, request after request).
		grpc.NumStreamWorkers(uint32(runtime.GOMAXPROCS(0))),
	}, opt...)
	g := grpc.NewServer(opts...)
	oippb.RegisterGRPCInferenceServiceServer(g, New(s))
	return g
}

// ServerLive answers live: the server answers.
func (g *Service) ServerLive(context.Context, *oippb.ServerLiveRequest) (*oippb.ServerLiveResponse, error) {
	return &oippb.ServerLiveResponse{Live: true}, nil
}

// ServerReady answers serve.Server.Ready, as REST's GET /v2/health/ready
// does: ready if the server serves at least one model and every model it
// serves is loaded.
func (g *Service) ServerReady(context.Context, *oippb.ServerReadyRequest) (*oippb.ServerReadyResponse, error) {
	ready, _ := g.s.Ready()
	return &oippb.ServerReadyResponse{Ready: ready}, nil
}

// ModelReady answers whether the model (and version, if given) is in
// use; an unknown model or version, or one whose file has not loaded, is
// not ready (the answer is false, not an error, as Triton answers). name
// "" names the only model of a server that has one (InvalidArgument if it
// has several).
func (g *Service) ModelReady(_ context.Context, r *oippb.ModelReadyRequest) (*oippb.ModelReadyResponse, error) {
	_, err := g.s.Metadata(r.GetName(), r.GetVersion())
	if err != nil && !errors.Is(err, serve.ErrNotFound) && !errors.Is(err, serve.ErrBusy) {
		return nil, statusOf(err)
	}
	return &oippb.ModelReadyResponse{Ready: err == nil}, nil
}

// ServerMetadata answers the server's name, protocol version and
// extensions (none).
func (g *Service) ServerMetadata(context.Context, *oippb.ServerMetadataRequest) (*oippb.ServerMetadataResponse, error) {
	return &oippb.ServerMetadataResponse{Name: serve.ServerName, Version: serve.ServerVersion, Extensions: []string{}}, nil
}

// ModelMetadata describes a model: the input "input" ([-1, d], FP32 or
// FP64) and the outputs "label" (INT64 [-1]) and "scores" ([-1, k]).
func (g *Service) ModelMetadata(_ context.Context, r *oippb.ModelMetadataRequest) (*oippb.ModelMetadataResponse, error) {
	md, err := g.s.Metadata(r.GetName(), r.GetVersion())
	if err != nil {
		return nil, statusOf(err)
	}
	type tm = oippb.ModelMetadataResponse_TensorMetadata
	resp := &oippb.ModelMetadataResponse{
		Name:     md.Name,
		Versions: []string{md.Version},
		Platform: serve.ServerName,
		Inputs:   []*tm{{Name: inputName, Datatype: md.Input, Shape: []int64{-1, int64(md.Dims)}}},
		Outputs: []*tm{
			{Name: "label", Datatype: "INT64", Shape: []int64{-1}},
			{Name: "scores", Datatype: md.Scores, Shape: []int64{-1, int64(md.NumScores)}},
		},
	}
	if md.Text { // one document (BYTES) a row in, its label's name out
		resp.Inputs[0].Shape = []int64{-1}
		resp.Outputs[0].Datatype = "BYTES"
	}
	return resp, nil
}

// inputName is the name of a model's one input tensor.
const inputName = "input"

// ModelInfer runs the model on the request's input (see the package
// documentation for the tensors it takes and gives).
func (g *Service) ModelInfer(ctx context.Context, r *oippb.ModelInferRequest) (*oippb.ModelInferResponse, error) {
	var start time.Time
	model := ""
	if g.obs != nil {
		if md, err := g.s.Metadata(r.GetModelName(), ""); err == nil {
			model = md.Name // a name the server has: never a client's invention
		}
		g.obs.InFlight(model, serve.ProtoOIPGRPC, 1)
		start = time.Now()
	}
	resp, err := g.infer(ctx, r)
	if g.obs != nil {
		g.obs.InFlight(model, serve.ProtoOIPGRPC, -1)
		g.obs.Request(model, serve.ProtoOIPGRPC, httpStatus(status.Code(err)), time.Since(start))
	}
	return resp, err
}

// infer is ModelInfer without the Observer.
func (g *Service) infer(ctx context.Context, r *oippb.ModelInferRequest) (*oippb.ModelInferResponse, error) {
	md, err := g.s.Metadata(r.GetModelName(), r.GetModelVersion())
	if err != nil {
		return nil, statusOf(err)
	}
	in := r.GetInputs()
	if len(in) != 1 {
		return nil, invalid("%d inputs: the model has one, %q of shape [n, %d]", len(in), inputName, md.Dims)
	}
	t := in[0]
	if t.GetName() != inputName {
		return nil, invalid("input %q: the model's input is %q", t.GetName(), inputName)
	}
	raw := r.GetRawInputContents()
	if len(raw) > 1 {
		return nil, invalid("%d raw_input_contents for 1 input", len(raw))
	}
	if len(raw) == 1 && t.GetContents() != nil {
		return nil, invalid("the input has both contents and raw_input_contents: send one")
	}
	out, err := outputs(r)
	if err != nil {
		return nil, err
	}
	if md.Text || t.GetDatatype() == "BYTES" {
		return g.inferText(ctx, r, md, t, raw, out)
	}
	sh := t.GetShape()
	if len(sh) != 2 || sh[1] != int64(md.Dims) {
		return nil, invalid("the input's shape %v must be [n, %d] (the model has %d features)", sh, md.Dims, md.Dims)
	}
	if sh[0] < 1 || sh[0] > math.MaxInt32 {
		return nil, invalid("the input's shape %v: n must be at least 1 (and below 2³¹)", sh)
	}
	var X any
	if len(raw) > 0 {
		X, err = fromRaw(t.GetDatatype(), raw[0], sh[0], int64(md.Dims))
	} else {
		X, err = fromContents(t.GetDatatype(), t.GetContents(), sh[0]*int64(md.Dims))
	}
	if err != nil {
		return nil, err
	}
	// The version asked for, not md's: the model in use may change between
	// the two look-ups, and Infer pins the one it finds (and checks the
	// width against it again).
	res, err := g.s.Infer(ctx, md.Name, r.GetModelVersion(), X, int(sh[0]), out)
	if err != nil {
		return nil, statusOf(err)
	}
	return response(r, res, len(raw) > 0), nil
}

// outputs returns the outputs r asks for (none named: both).
func outputs(r *oippb.ModelInferRequest) (serve.Outputs, error) {
	var out serve.Outputs
	for _, o := range r.GetOutputs() {
		switch o.GetName() {
		case "label":
			out.Label = true
		case "scores":
			out.Scores = true
		default:
			return out, invalid("output %q: the model's outputs are \"label\" and \"scores\"", o.GetName())
		}
	}
	if len(r.GetOutputs()) == 0 {
		out = serve.Outputs{Label: true, Scores: true}
	}
	return out, nil
}

// response is the protocol's answer of res to r; its outputs are in
// raw_output_contents (little-endian, row-major) if raw is set, as the
// request's inputs were, else in each output's contents.
func response(r *oippb.ModelInferRequest, res *serve.Result, raw bool) *oippb.ModelInferResponse {
	resp := &oippb.ModelInferResponse{ModelName: res.Model, ModelVersion: res.Version, Id: r.GetId()}
	n := int64(res.Rows)
	// add adds an output, its values as bytes b or as contents c.
	add := func(name, dt string, shape []int64, b func() []byte, c *oippb.InferTensorContents) {
		t := &oippb.ModelInferResponse_InferOutputTensor{Name: name, Datatype: dt, Shape: shape}
		if raw {
			resp.RawOutputContents = append(resp.RawOutputContents, b())
		} else {
			t.Contents = c
		}
		resp.Outputs = append(resp.Outputs, t)
	}
	switch {
	case res.Names != nil: // a text model's: BYTES, each name an element
		add("label", "BYTES", []int64{n}, func() []byte { return appendBytes(nil, res.Names) },
			&oippb.InferTensorContents{BytesContents: byteStrings(res.Names)})
	case res.Labels != nil:
		add("label", "INT64", []int64{n}, func() []byte { return littleEndian(res.Labels) },
			&oippb.InferTensorContents{Int64Contents: res.Labels})
	}
	shape := []int64{n, int64(res.NumScores)}
	switch {
	case res.Scores32 != nil:
		add("scores", "FP32", shape, func() []byte { return littleEndian(res.Scores32) },
			&oippb.InferTensorContents{Fp32Contents: res.Scores32})
	case res.Scores64 != nil:
		add("scores", "FP64", shape, func() []byte { return littleEndian(res.Scores64) },
			&oippb.InferTensorContents{Fp64Contents: res.Scores64})
	}
	return resp
}

// littleEndian returns vs as little-endian bytes.
func littleEndian[T int64 | float32 | float64](vs []T) []byte {
	var z T
	b := make([]byte, 0, len(vs)*int(unsafe.Sizeof(z)))
	for _, v := range vs {
		switch v := any(v).(type) {
		case int64:
			b = binary.LittleEndian.AppendUint64(b, uint64(v))
		case float32:
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(v))
		case float64:
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
		}
	}
	return b
}

// datatypes names the input datatypes the service takes, for refusals.
const datatypes = "FP32, FP64, INT8 or UINT8"

// fromContents returns the want values of an input of datatype dt held in
// c's field of that type, as a []float32, []float64, []int8 or []uint8
// (serve.Server.Infer converts them to the model's type exactly, or gives
// a quantised model the bytes as they are).
func fromContents(dt string, c *oippb.InferTensorContents, want int64) (any, error) {
	count := func(n int, field string) error { return only(c, n, want, field) }
	switch dt {
	case "FP32":
		v := c.GetFp32Contents()
		return v, count(len(v), "fp32_contents")
	case "FP64":
		v := c.GetFp64Contents()
		return v, count(len(v), "fp64_contents")
	case "INT8":
		v := c.GetIntContents()
		if err := count(len(v), "int_contents"); err != nil {
			return nil, err
		}
		x := make([]int8, len(v))
		for i, a := range v {
			if a < math.MinInt8 || a > math.MaxInt8 {
				return nil, invalid("value %d of int_contents, %d, is not an INT8", i, a)
			}
			x[i] = int8(a)
		}
		return x, nil
	case "UINT8":
		v := c.GetUintContents()
		if err := count(len(v), "uint_contents"); err != nil {
			return nil, err
		}
		x := make([]uint8, len(v))
		for i, a := range v {
			if a > math.MaxUint8 {
				return nil, invalid("value %d of uint_contents, %d, is not a UINT8", i, a)
			}
			x[i] = uint8(a)
		}
		return x, nil
	}
	return nil, invalid("datatype %q: the model takes %s", dt, datatypes)
}

// fromRaw returns the n × d values of an input of datatype dt in raw
// bytes (little-endian, row-major), as fromContents does.
func fromRaw(dt string, raw []byte, n, d int64) (any, error) {
	size := map[string]int64{"FP32": 4, "FP64": 8, "INT8": 1, "UINT8": 1}[dt]
	if size == 0 {
		return nil, invalid("datatype %q: the model takes %s", dt, datatypes)
	}
	if want := n * d * size; n > int64(len(raw)) || int64(len(raw)) != want {
		return nil, invalid("raw_input_contents of %d bytes: shape [%d, %d] of %s needs %d", len(raw), n, d, dt, n*d*size)
	}
	switch dt {
	case "FP32":
		if x, ok := alias[float32](raw); ok {
			return x, nil
		}
		x := make([]float32, len(raw)/4)
		for i := range x {
			x[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
		}
		return x, nil
	case "FP64":
		if x, ok := alias[float64](raw); ok {
			return x, nil
		}
		x := make([]float64, len(raw)/8)
		for i := range x {
			x[i] = math.Float64frombits(binary.LittleEndian.Uint64(raw[8*i:]))
		}
		return x, nil
	}
	if dt == "INT8" { // the request's own bytes, read as int8
		return unsafe.Slice((*int8)(unsafe.Pointer(unsafe.SliceData(raw))), len(raw)), nil
	}
	return raw, nil
}

// littleEndianHost reports whether this machine stores numbers
// little-endian, as raw tensor contents are.
var littleEndianHost = func() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}()

// alias returns raw's bytes as the T values they hold, without copying,
// if this machine reads them as raw tensor contents are written
// (little-endian) and raw is aligned for T; ok is false otherwise. raw is
// the request's own (decoded from the message, not the transport's
// buffer) and lives as long as the request.
func alias[T float32 | float64](raw []byte) (x []T, ok bool) {
	var z T
	size := int(unsafe.Sizeof(z))
	if !littleEndianHost || len(raw) == 0 || uintptr(unsafe.Pointer(unsafe.SliceData(raw)))%uintptr(size) != 0 {
		return nil, false
	}
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(raw))), len(raw)/size), true
}

// invalid is an InvalidArgument status.
func invalid(f string, a ...any) error {
	return status.Error(codes.InvalidArgument, fmt.Sprintf(f, a...))
}

// statusOf is the gRPC status of an error of serve's inference API.
func statusOf(err error) error {
	code := codes.Internal
	switch {
	case errors.Is(err, serve.ErrNotFound):
		code = codes.NotFound
	case errors.Is(err, serve.ErrInput):
		code = codes.InvalidArgument
	case errors.Is(err, serve.ErrScore):
		code = codes.OutOfRange
	case errors.Is(err, serve.ErrLimit):
		code = codes.ResourceExhausted
	case errors.Is(err, serve.ErrBusy):
		code = codes.Unavailable
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return status.FromContextError(err).Err()
	}
	return status.Error(code, err.Error())
}

// httpStatus is the HTTP status an Observer is told for a gRPC request
// that ended with code: the status the REST endpoints answer the same
// outcome with.
func httpStatus(c codes.Code) int {
	switch c {
	case codes.OK:
		return http.StatusOK
	case codes.InvalidArgument:
		return http.StatusBadRequest
	case codes.NotFound:
		return http.StatusNotFound
	case codes.OutOfRange:
		return http.StatusUnprocessableEntity
	case codes.ResourceExhausted:
		return http.StatusRequestEntityTooLarge
	case codes.Unavailable:
		return http.StatusServiceUnavailable
	case codes.Canceled:
		return 499 // client closed the request, as nginx logs it
	case codes.DeadlineExceeded:
		return http.StatusGatewayTimeout
	}
	return http.StatusInternalServerError
}
