// Package server serves the models of a serve.Server over the Open
// Inference Protocol's gRPC API (KServe's V2 inference protocol, which
// Triton, Seldon MLServer and OpenVINO Model Server also speak), and
// exports the server's metrics to Prometheus.
package server
