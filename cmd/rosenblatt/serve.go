package main

import (
	"context"
	"errors"
	"flag"
	"io"
	"net"
	"os"

	"github.com/rosenblatt-go/rosenblatt/internal/cli"
	"github.com/rosenblatt-go/rosenblatt/internal/servecmd"
)

// The serve subcommand:
//
//	rosenblatt serve -model FILE [-addr HOST:PORT] [flags]
//
// serves the model's predictions over HTTP (package serve: POST /predict,
// GET /healthz, and the Open Inference Protocol's REST API under /v2/),
// reloads the model on SIGHUP or when the file changes, and
// shuts down gracefully on SIGINT or SIGTERM. The model file is read by
// package serve (a regular file of at most -max-model-bytes, stat'ed before
// it is opened, opened without blocking) and decoded by package model
// (serve's default Decoder, model.Unmarshal): every model file of the
// module, quantised ones included. Its logic is internal/servecmd's,
// which the command rosenblatt-server (module server/) extends with gRPC
// and /metrics; -grpc-addr here is refused, naming that command.

func runServe(args []string, _, stderr io.Writer) error {
	return usageOf(servecmd.Main(args, stderr, serveExtra(nil)))
}

// serveWith is serve until ctx is done, reloading on every value from hup;
// ready, if not nil, is given the address listened on.
func serveWith(ctx context.Context, hup <-chan os.Signal, args []string, stderr io.Writer, ready func(net.Addr)) error {
	return usageOf(servecmd.Run(ctx, hup, args, stderr, serveExtra(ready)))
}

// serveExtra is the serve command's servecmd.Extra: its parsing of the
// arguments, and ready.
func serveExtra(ready func(net.Addr)) servecmd.Extra {
	return servecmd.Extra{
		Parse: func(fs *flag.FlagSet, args []string) error { _, err := cli.ParseArgs(fs, args); return err },
		Ready: ready,
	}
}

// usageOf makes servecmd's usage errors the command's (exit status 2).
func usageOf(err error) error {
	if errors.Is(err, servecmd.ErrUsage) && !errors.Is(err, cli.ErrUsage) {
		return usageError{err}
	}
	return err
}

// usageError is a servecmd.ErrUsage error that is also cli.ErrUsage.
type usageError struct{ error }

func (e usageError) Unwrap() error        { return e.error }
func (e usageError) Is(target error) bool { return target == cli.ErrUsage }
