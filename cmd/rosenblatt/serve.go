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
// GET /healthz, and the Open Inference Protocol's REST API under /v2/),
// reloads the model on SIGHUP or when the file changes, and
// shuts down gracefully on SIGINT or SIGTERM. The model file is read by
// package serve (a regular file of at most -max-model-bytes, stat'ed before
// it is opened, opened without blocking) and decoded by package model
// (serve's default Decoder, model.Unmarshal): every model file of the
// module, quantised ones included.

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
	maxBody := fs.Int64("max-body", 64<<20, "the largest request body, in `bytes` (larger: 413)")
	mem, memSource := serve.MemoryLimit()
	quarter := fmt.Sprintf("0: a quarter of the memory the process may use, here %s of %s", fmtBytes(mem/4), memSource)
	maxModel := fs.Int64("max-model-bytes", 0, "the largest model file, in `bytes`; a larger one, or one that is not a regular file, is refused unread and keeps the model in use ("+quarter+")")
	maxInflight := fs.Int64("max-inflight-bytes", 0, "the `bytes` all requests in flight may hold together: bodies as they arrive, samples, labels, scores; "+
		"a request that would take more is refused with 503 (413 if it alone needs more) ("+quarter+")")
	maxScores := fs.Int64("max-scores", 1<<24, "the most decision values, rows × scores per row, a request may ask for (more: 413)")
	maxConns := fs.Int("max-conns", 1024, "the most connections served at once; more wait to be accepted")
	timeout := fs.Duration("timeout", 30*time.Second, "read and write timeout of a request")
	grace := fs.Duration("shutdown", 10*time.Second, "on SIGINT or SIGTERM, how long requests in flight may take to finish")
	allowChange := fs.Bool("allow-model-change", false, "let a reload put in use a model of another input width, other labels or another kind (by default such a reload is refused and the model in use kept)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: rosenblatt serve -model FILE [-addr HOST:PORT] [flags]\n\n")
		fmt.Fprintf(stderr, "Serves the model's predictions over HTTP: POST /predict (JSON or binary, one sample or a batch),\n")
		fmt.Fprintf(stderr, "GET /healthz. Reloads the model on SIGHUP or when the file changes (a bad file keeps the\n")
		fmt.Fprintf(stderr, "model in use); shuts down gracefully on SIGINT or SIGTERM. See package serve for the formats.\n")
		fmt.Fprintf(stderr, "Also the Open Inference Protocol (KServe V2) over REST: GET /v2/health/live, /v2/health/ready, /v2,\n")
		fmt.Fprintf(stderr, "/v2/models/NAME[/ready], POST /v2/models/NAME/infer; NAME is the file's name without its extension.\n")
		fmt.Fprintf(stderr, "A reload to a model of another width, labels or kind is refused unless -allow-model-change.\n\n")
		fmt.Fprintf(stderr, "Statuses: 400 a malformed request (bad or truncated JSON, a null or NaN value, a wrong feature\n")
		fmt.Fprintf(stderr, "count); 413 over -max-body, -max-scores, or alone over -max-inflight-bytes; 415 another\n")
		fmt.Fprintf(stderr, "Content-Type; 422 a sample the model cannot score; 503 the requests in flight at\n")
		fmt.Fprintf(stderr, "-max-inflight-bytes (retry). GET /healthz says whether the last reload failed, not why: the\n")
		fmt.Fprintf(stderr, "reason is in the log.\n\nflags:\n")
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
	case *maxModel < 0 || *maxInflight < 0:
		return fmt.Errorf("%w: -max-model-bytes and -max-inflight-bytes must not be negative (0: the default)", errUsage)
	case *maxScores <= 0 || *maxConns <= 0:
		return fmt.Errorf("%w: -max-scores and -max-conns must be positive", errUsage)
	}
	if *poll == 0 {
		*poll = -1 // serve.Options: no watching
	}
	logger := slog.New(slog.NewTextHandler(stderr, nil))
	s, err := serve.New(*model, nil, serve.Options{
		MaxBodyBytes:     *maxBody,
		MaxModelBytes:    *maxModel,
		MaxInflightBytes: *maxInflight,
		MaxScores:        *maxScores,
		MaxConns:         *maxConns,
		Poll:             *poll,
		ReadTimeout:      *timeout,
		WriteTimeout:     *timeout,
		ShutdownTimeout:  *grace,
		AllowModelChange: *allowChange,
		Logger:           logger,
	})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	info, o := s.Current(), s.Options()
	logger.Info("serving", "addr", ln.Addr().String(), "file", *model, "model", info.Version,
		"dims", info.Dims, "classes", len(info.Classes), "type", info.Elem, "kind", info.Kind,
		"max-body", o.MaxBodyBytes, "max-model-bytes", o.MaxModelBytes, "max-inflight-bytes", o.MaxInflightBytes,
		"max-scores", o.MaxScores, "max-conns", o.MaxConns, "memory", mem, "memory-source", memSource)
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
