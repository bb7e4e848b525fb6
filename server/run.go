package server

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"time"

	"golang.org/x/net/netutil"
	"google.golang.org/grpc"

	"github.com/rosenblatt-go/rosenblatt/serve"
)

// Serve serves the gRPC service of s (NewGRPCServer) on ln, at most s's
// Options.MaxConns connections at once, until ctx is done; then it stops
// taking requests, lets those in flight finish within s's
// Options.ShutdownTimeout, closes what is left and returns nil. An error
// of the listener is returned as it comes.
func Serve(ctx context.Context, s *serve.Server, ln net.Listener, logger *slog.Logger) error {
	opt := s.Options()
	if logger == nil {
		logger = opt.Logger
	}
	g := NewGRPCServer(s)
	errc := make(chan error, 1)
	go func() { errc <- g.Serve(netutil.LimitListener(ln, opt.MaxConns)) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	done := make(chan struct{})
	go func() { g.GracefulStop(); close(done) }()
	select {
	case <-done:
	case <-time.After(opt.ShutdownTimeout):
		logger.Warn("gRPC: requests still in flight at the shutdown timeout; closing them", "timeout", opt.ShutdownTimeout)
		g.Stop()
		<-done
	}
	if err := <-errc; err != nil && !errors.Is(err, grpc.ErrServerStopped) {
		return err
	}
	return nil
}
