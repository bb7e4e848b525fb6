// Command rosenblatt-server is "rosenblatt serve" with the Open Inference
// Protocol over gRPC and Prometheus metrics:
//
//	rosenblatt-server -model FILE [-addr HOST:PORT] [-grpc-addr HOST:PORT] [flags]
//
// Everything "rosenblatt serve" does (the same flags, endpoints, reloads,
// limits and signals; its logic is internal/servecmd's), plus:
//
//   - the protocol's gRPC service, inference.GRPCInferenceService (package
//     server), on -grpc-addr (default 127.0.0.1:8081; "" serves no gRPC),
//     with the same models, limits (-max-body bounds a message,
//     -max-conns the connections) and graceful shutdown as HTTP;
//   - GET /metrics on -addr: the Prometheus metrics of server.Metrics.
//
// It lives in the nested module server/ so that the rosenblatt command
// and the library's packages do not build grpc and client_golang:
//
//	go install github.com/rosenblatt-go/rosenblatt/server/cmd/rosenblatt-server@latest
//	(or, in a clone: go -C server install ./cmd/rosenblatt-server)
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"

	"github.com/rosenblatt-go/rosenblatt/internal/servecmd"
	"github.com/rosenblatt-go/rosenblatt/serve"
	"github.com/rosenblatt-go/rosenblatt/server"
)

func main() {
	err := servecmd.Main(os.Args[1:], os.Stderr, extra(nil))
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
	case errors.Is(err, servecmd.ErrUsage):
		fmt.Fprintln(os.Stderr, "rosenblatt-server:", err)
		os.Exit(2)
	default:
		fmt.Fprintln(os.Stderr, "rosenblatt-server:", err)
		os.Exit(1)
	}
}

// addrs are the addresses the command listens on, for tests.
type addrs struct {
	HTTP, GRPC net.Addr
}

// run is the command until ctx is done, reloading on every value from hup
// (which may be nil); ready, if not nil, is given the addresses listened
// on once both listen.
func run(ctx context.Context, hup <-chan os.Signal, args []string, stderr io.Writer, ready func(addrs)) error {
	return servecmd.Run(ctx, hup, args, stderr, extra(ready))
}

// extra is what the command adds to "rosenblatt serve": -grpc-addr, the
// gRPC service, the metrics and GET /metrics.
func extra(ready func(addrs)) servecmd.Extra {
	met := server.NewMetrics()
	var grpcAddr *string
	var httpAddr net.Addr
	return servecmd.Extra{
		Name: "rosenblatt-server",
		Usage: "rosenblatt-server also serves the Open Inference Protocol over gRPC (inference.GRPCInferenceService:\n" +
			"ServerLive, ServerReady, ModelReady, ServerMetadata, ModelMetadata, ModelInfer) on -grpc-addr, and\n" +
			"Prometheus metrics at GET /metrics on -addr (rosenblatt_requests_total, rosenblatt_request_duration_seconds,\n" +
			"rosenblatt_requests_in_flight, rosenblatt_model_info, rosenblatt_model_reloads_total).",
		Flags: func(fs *flag.FlagSet) {
			grpcAddr = fs.String("grpc-addr", "127.0.0.1:8081", "serve the Open Inference Protocol's gRPC API on `host:port` (\"\": no gRPC)")
		},
		Observer: met,
		Handlers: map[string]http.Handler{"GET /metrics": met.Handler()},
		Ready:    func(a net.Addr) { httpAddr = a },
		Start: func(ctx context.Context, s *serve.Server) error {
			if s.PredictionsProtected() && *grpcAddr != "" {
				// The gRPC service checks no token: it would serve
				// predictions to anyone.
				return errors.New(`-protect-predict closes HTTP predictions only; the gRPC API has no token check: serve it with -grpc-addr "" or drop -protect-predict`)
			}
			if *grpcAddr == "" {
				if ready != nil {
					ready(addrs{HTTP: httpAddr})
				}
				return nil
			}
			ln, err := net.Listen("tcp", *grpcAddr)
			if err != nil {
				return fmt.Errorf("-grpc-addr: %w", err)
			}
			s.Options().Logger.Info("serving gRPC", "addr", ln.Addr().String())
			if ready != nil {
				ready(addrs{HTTP: httpAddr, GRPC: ln.Addr()})
			}
			return server.Serve(ctx, s, ln, nil)
		},
	}
}
