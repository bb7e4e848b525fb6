package server_test

import (
	"context"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/perceptron"
	"github.com/rosenblatt-go/rosenblatt/serve"
	"github.com/rosenblatt-go/rosenblatt/server"
	"github.com/rosenblatt-go/rosenblatt/server/oippb"
)

// BenchmarkModelInfer is one ModelInfer of rows samples of 784 features
// (a 10-class linear model), client and server in process over an
// in-memory connection, labels only: the gRPC path's cost on both sides,
// without the kernel's network stack.
func BenchmarkModelInfer(b *testing.B) {
	const d, classes = 784, 10
	X := make([]float32, 200*d)
	y := make([]int, 200)
	for i := range X {
		X[i] = float32(i%13) / 13
	}
	for i := range y {
		y[i] = i % classes
	}
	m, _, err := perceptron.Fit(context.Background(), dataset.NewData(X, d, y), y, perceptron.Options{MaxIter: 2})
	if err != nil {
		b.Fatal(err)
	}
	data, _ := m.MarshalBinary()
	path := filepath.Join(b.TempDir(), "m.model")
	os.WriteFile(path, data, 0o644)
	met := server.NewMetrics()
	s, err := serve.New(path, nil, serve.Options{Poll: -1, Logger: quiet, Observer: met})
	if err != nil {
		b.Fatal(err)
	}
	c := dial(b, server.NewGRPCServer(s))
	for _, bc := range []struct {
		rows int
		raw  bool
	}{{1, false}, {64, false}, {64, true}} {
		rows := bc.rows
		name := "rows=" + itoa(rows)
		if bc.raw {
			name += "/raw"
		}
		b.Run(name, func(b *testing.B) {
			req := &oippb.ModelInferRequest{ModelName: "m",
				Inputs:  []*input{{Name: "input", Datatype: "FP32", Shape: []int64{int64(rows), d}, Contents: &oippb.InferTensorContents{Fp32Contents: X[:rows*d]}}},
				Outputs: []*oippb.ModelInferRequest_InferRequestedOutputTensor{{Name: "label"}}}
			if bc.raw {
				var raw []byte
				for _, v := range X[:rows*d] {
					raw = binary.LittleEndian.AppendUint32(raw, math.Float32bits(v))
				}
				req.Inputs[0].Contents = nil
				req.RawInputContents = [][]byte{raw}
			}
			ctx := context.Background()
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if _, err := c.ModelInfer(ctx, req); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
