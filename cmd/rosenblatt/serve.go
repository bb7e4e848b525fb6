package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/rosenblatt-go/rosenblatt/serve"
)

// The serve subcommand:
//
//	rosenblatt serve -model FILE [-addr HOST:PORT] [flags]
//
// serves the model's predictions over HTTP (package serve: POST /predict,
// GET /healthz), reloads the model on SIGHUP or when the file changes, and
// shuts down gracefully on SIGINT or SIGTERM. The model file is read and
// decoded by the code predict and eval use (readModelFile, parseModel).

func runServe(args []string, _, stderr io.Writer) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	return serveWith(ctx, hup, args, stderr, nil)
}

// serveWith is serve until ctx is done, reloading on every value from hup;
// ready, if not nil, is given the address listened on.
func serveWith(ctx context.Context, hup <-chan os.Signal, args []string, stderr io.Writer, ready func(net.Addr)) error {
	fs := newFlagSet("serve", stderr)
	model := fs.String("model", "", "the model `file` to serve (required)")
	addr := fs.String("addr", "127.0.0.1:8080", "listen on `host:port`")
	poll := fs.Duration("poll", time.Second, "look at the model file this often and reload it when it changed (0: only on SIGHUP)")
	maxBody := fs.Int64("max-body", 64<<20, "the largest request body, in `bytes`")
	timeout := fs.Duration("timeout", 30*time.Second, "read and write timeout of a request")
	grace := fs.Duration("shutdown", 10*time.Second, "on SIGINT or SIGTERM, how long requests in flight may take to finish")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: rosenblatt serve -model FILE [-addr HOST:PORT] [flags]\n\n")
		fmt.Fprintf(stderr, "Serves the model's predictions over HTTP: POST /predict (JSON or binary, one sample or a batch),\n")
		fmt.Fprintf(stderr, "GET /healthz. Reloads the model on SIGHUP or when the file changes (a bad file keeps the\n")
		fmt.Fprintf(stderr, "model in use); shuts down gracefully on SIGINT or SIGTERM. See package serve for the formats.\n\nflags:\n")
		fs.PrintDefaults()
	}
	if _, err := parseArgs(fs, args); err != nil {
		return err
	}
	switch {
	case *model == "":
		fs.Usage()
		return fmt.Errorf("%w: -model FILE is required", errUsage)
	case *poll < 0 || *maxBody <= 0 || *timeout <= 0 || *grace <= 0:
		return fmt.Errorf("%w: -poll must not be negative; -max-body, -timeout and -shutdown must be positive", errUsage)
	}
	if *poll == 0 {
		*poll = -1 // serve.Options: no watching
	}
	logger := slog.New(slog.NewTextHandler(stderr, nil))
	s, err := serve.New(*model, decodeServed, serve.Options{
		ReadFile:        readModelFile,
		MaxBodyBytes:    *maxBody,
		Poll:            *poll,
		ReadTimeout:     *timeout,
		WriteTimeout:    *timeout,
		ShutdownTimeout: *grace,
		Logger:          logger,
	})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	info := s.Current()
	logger.Info("serving", "addr", ln.Addr().String(), "file", *model, "model", info.Version,
		"dims", info.Dims, "classes", len(info.Classes), "type", info.Elem)
	if ready != nil {
		ready(ln.Addr())
	}
	go func() {
		for range hup {
			logger.Info("SIGHUP: reloading the model", "file", *model)
			s.Reload() // logs its outcome
		}
	}()
	if err := s.Run(ctx, ln); err != nil {
		return err
	}
	logger.Info("shut down")
	return nil
}

// decodeServed is serve's Decoder: the model file decoded as predict
// decodes it.
func decodeServed(path string, data []byte) (serve.Model, error) {
	lm, err := parseModel(path, data)
	if err != nil {
		return nil, err
	}
	if lm.m64 != nil {
		return lm.m64, nil
	}
	return lm.m32, nil
}
