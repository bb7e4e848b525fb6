// Package server serves the models of a serve.Server over the Open
// Inference Protocol's gRPC API (KServe's V2 inference protocol, which
// Triton Inference Server, Seldon MLServer and OpenVINO Model Server also
// speak), and keeps the server's Prometheus metrics. The command
// rosenblatt-server (server/cmd/rosenblatt-server) is "rosenblatt serve"
// with both. The package lives in the nested module
// github.com/rosenblatt-go/rosenblatt/server so that google.golang.org/grpc
// and github.com/prometheus/client_golang stay out of the library's build
// and go.sum.
//
// # gRPC
//
// Service implements inference.GRPCInferenceService as oippb/oip.proto
// declares it (the protocol's package, names and field numbers; the code in
// package oippb is generated from it by protoc with protoc-gen-go and
// protoc-gen-go-grpc); NewGRPCServer registers it on a grpc.Server whose
// received messages are bounded by the serve.Server's
// Options.MaxBodyBytes, and Serve runs that server on a listener, at most
// Options.MaxConns connections at once, until its context is done. The
// methods:
//
//	ServerLive      live: true
//	ServerReady     ready: serve.Server.Ready, as REST's GET /v2/health/ready (every model
//	                loaded, and at least one)
//	ServerMetadata  name "rosenblatt", version "2", no extensions
//	ModelReady      ready: the model (and version, if given) is in use; false for an
//	                unknown name or version or a model whose file has not loaded
//	ModelMetadata   input "input", FP32 or FP64 (the model's type; a quantised model's is
//	                FP32), shape [-1, d]; outputs "label" INT64 [-1] and "scores" [-1, k]
//	                of the model's type; a text model's input is BYTES [-1], its
//	                "label" BYTES [-1]
//	ModelInfer      the labels and scores of the rows of the input
//
// A model is named as the serve.Server names it (its file's name without
// the extension); the name "" names the only model of a server that has
// one. A version, if given, must be the version in use (the first 16 hex
// digits of the file's SHA-256).
//
// ModelInfer takes one input tensor, "input", of shape [n, d] (n ≥ 1, d
// the model's features), row-major, batch first, of datatype FP32, FP64,
// INT8 or UINT8: its values in the contents field of that datatype
// (fp32_contents, fp64_contents; int_contents for INT8 and uint_contents
// for UINT8, each value in the datatype's range) and no other, or as the
// request's one raw_input_contents entry (little-endian, n·d·size bytes;
// the input then has no contents). Values are converted to the model's
// type as serve converts them (float32 → float64 exactly, float64 →
// float32 rounded; INT8 and UINT8 exactly, and to a quantised model as its
// bytes, x = v with scale 1, as serve.Server.Infer does). A text model
// (metadata input BYTES [-1], output "label" BYTES [-1]) takes one input
// "input" of datatype BYTES and shape [n] or [n, 1]: n documents in
// bytes_contents, or in the one raw_input_contents entry as the protocol
// lays BYTES out (each element a 4-byte little-endian length and its
// bytes); it answers "label" BYTES [n] (the labels' names, in
// bytes_contents or raw as the input was) and "scores" [n, k]
// (serve.Server.InferText). "outputs" picks "label" and/or
// "scores" (none: both); parameters are ignored. The response names the
// model and the version that answered, echoes the id, and holds "label"
// (INT64 [n]) and "scores" (FP32 or FP64 [n, k], row-major), in
// raw_output_contents if the request's input was raw, else in each
// output's contents. The inference is serve.Server.Infer's: the model is
// looked up once and that version answers the whole request, whatever
// reloads do meanwhile.
//
// Refusals are gRPC status codes with a message that says what is wrong:
//
//	InvalidArgument    a malformed request or one that does not fit the model: no or two
//	                   inputs, another input name, datatype, shape or value count, values
//	                   in another field, a NaN, ±Inf or out-of-range value, an unknown
//	                   output; no model name when the server has several
//	NotFound           a model or version the server does not have
//	ResourceExhausted  a message over -max-body (Options.MaxBodyBytes), rows × scores over
//	                   -max-scores, or a request alone over -max-inflight-bytes
//	Unavailable        a model whose file has not loaded, or a request that does not fit
//	                   beside those in flight (-max-inflight-bytes); retry later
//	OutOfRange         a decision value of the model overflows (REST's 422)
//	Canceled, DeadlineExceeded  the client's context
//
// # Metrics
//
// Metrics is a serve.Observer (set it as serve.Options.Observer) that
// keeps, in a Prometheus registry of its own served by Handler:
// rosenblatt_requests_total{model,protocol,code},
// rosenblatt_request_duration_seconds{model,protocol} (a histogram),
// rosenblatt_requests_in_flight{model,protocol},
// rosenblatt_model_info{model,version} (1 for the version in use),
// rosenblatt_model_reloads_total{model,result} and
// rosenblatt_model_last_reload_timestamp_seconds{model,result}, besides
// the Go runtime's and the process's collectors. Every protocol is
// counted: predict-binary, predict-json, oip-rest and oip-grpc; code is
// the HTTP status, a gRPC request's being the one REST answers the same
// outcome with.
package server
