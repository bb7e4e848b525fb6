package server_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"os"
	"path/filepath"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/perceptron"
	"github.com/rosenblatt-go/rosenblatt/serve"
	"github.com/rosenblatt-go/rosenblatt/server"
	"github.com/rosenblatt-go/rosenblatt/server/oippb"
)

// A model file served over the Open Inference Protocol's gRPC API, with
// Prometheus metrics, and a Go client classifying two samples.
func Example() {
	dir, _ := os.MkdirTemp("", "server-example")
	defer os.RemoveAll(dir)
	// A model of 2 features that says +1 for x₀ > 0.
	m, _, err := perceptron.Fit(context.Background(), dataset.NewData([]float32{1, 0, 2, 1, -1, 0, -2, 1}, 2, nil), []int{1, 1, -1, -1}, perceptron.Options{MaxIter: 5})
	if err != nil {
		log.Fatal(err)
	}
	b, _ := m.MarshalBinary()
	path := filepath.Join(dir, "sign.model") // served as "sign"
	if err := os.WriteFile(path, b, 0o644); err != nil {
		log.Fatal(err)
	}

	metrics := server.NewMetrics()
	s, err := serve.New(path, nil, serve.Options{Observer: metrics, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		log.Fatal(err)
	}
	s.Handle("GET /metrics", metrics.Handler()) // beside /predict and /v2 on HTTP
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- server.Serve(ctx, s, ln, nil) }()

	conn, err := grpc.NewClient(ln.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		log.Fatal(err)
	}
	defer conn.Close()
	c := oippb.NewGRPCInferenceServiceClient(conn)
	r, err := c.ModelInfer(context.Background(), &oippb.ModelInferRequest{
		ModelName: "sign",
		Inputs: []*oippb.ModelInferRequest_InferInputTensor{{
			Name: "input", Datatype: "FP32", Shape: []int64{2, 2},
			Contents: &oippb.InferTensorContents{Fp32Contents: []float32{3, 1, -4, 0}},
		}},
		Outputs: []*oippb.ModelInferRequest_InferRequestedOutputTensor{{Name: "label"}},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(r.ModelName, r.Outputs[0].Name, r.Outputs[0].Shape, r.Outputs[0].Contents.Int64Contents)
	stop()
	fmt.Println("shut down:", <-done)
	// Output:
	// sign label [2] [1 -1]
	// shut down: <nil>
}
