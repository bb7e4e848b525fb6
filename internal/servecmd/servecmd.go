// Package servecmd is the logic of the command "rosenblatt serve": its
// flags, its signals, its listener and its reloads, for that command and
// for others built on it (rosenblatt-server, in the nested module
// server/, adds gRPC and /metrics through Extra without putting their
// libraries in the rosenblatt command's build).
//
// Run parses the flags, loads the model (-model FILE) or the model
// repository (-models DIR) with package serve, listens on -addr, reloads
// on every value from hup (SIGHUP in Main) and when the files change
// (-poll), and shuts down gracefully when ctx is done (SIGINT or SIGTERM
// in Main).
package servecmd

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"slices"
	"syscall"
	"time"

	"github.com/rosenblatt-go/rosenblatt/internal/bounded"
	"github.com/rosenblatt-go/rosenblatt/serve"
)

// ErrUsage marks errors that are the caller's misuse of the command line
// (a command exits with status 2 for them).
var ErrUsage = errors.New("usage error")

// Extra is what a command adds to "rosenblatt serve". Its zero value is
// "rosenblatt serve" itself.
type Extra struct {
	// Name is the command's name in its usage and messages; default
	// "rosenblatt serve".
	Name string
	// Usage, if set, is printed after the usage's description, before the
	// flags: what the extra flags and endpoints do.
	Usage string
	// Flags, if set, defines the command's extra flags on the flag set
	// before it is parsed (their values are read after Run has parsed
	// them: in Start, say). A command that does not define -grpc-addr
	// gets one that refuses any value, naming the command that serves
	// gRPC.
	Flags func(fs *flag.FlagSet)
	// Parse, if set, parses args with fs (the command's own parsing,
	// with its own usage errors); default fs.Parse, with no positional
	// argument allowed.
	Parse func(fs *flag.FlagSet, args []string) error
	// Observer is set as the server's serve.Options.Observer.
	Observer serve.Observer
	// Handlers are added to the server's routes (serve.Server.Handle):
	// pattern → handler, e.g. "GET /metrics".
	Handlers map[string]http.Handler
	// Start, if set, is run in its own goroutine once the model is
	// loaded and the HTTP listener open, with a context that is done
	// when the server shuts down; it must return when that context is
	// done. An error it returns shuts the server down, and Run returns
	// it; nil lets HTTP go on. Run returns only after Start has.
	Start func(ctx context.Context, s *serve.Server) error
	// Ready, if set, is given the HTTP address listened on, before the
	// server serves (for tests).
	Ready func(net.Addr)
}

// Main is Run with the process's signals: SIGINT and SIGTERM shut the
// server down, SIGHUP reloads the models.
func Main(args []string, stderr io.Writer, x Extra) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	return Run(ctx, hup, args, stderr, x)
}

// grpcElsewhere is the refusal of -grpc-addr by a command without gRPC.
const grpcElsewhere = "gRPC and /metrics are served by the command rosenblatt-server (go install ./server/cmd/rosenblatt-server " +
	"from a clone, module server/), which keeps grpc out of the rosenblatt command's build"

// refuseFlag is a flag that refuses any value with msg.
type refuseFlag struct{ msg string }

func (f refuseFlag) String() string     { return "" }
func (f refuseFlag) Set(s string) error { return errors.New(f.msg) }

// Run is the serve command until ctx is done, reloading the models on
// every value from hup (which may be nil); stderr receives the usage and
// the log. Errors of the command line wrap ErrUsage; a model that does not
// load wraps serve.ErrModel.
func Run(ctx context.Context, hup <-chan os.Signal, args []string, stderr io.Writer, x Extra) error {
	name := x.Name
	if name == "" {
		name = "rosenblatt serve"
	}
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	model := fs.String("model", "", "the model `file` to serve (this or -models is required)")
	models := fs.String("models", "", "serve every model file in `dir`, each under its file's name without the extension (a model repository)")
	maxModels := fs.Int("max-models", 1024, "with -models, the most models served; the files beyond, in name order, are logged and left out")
	addr := fs.String("addr", "127.0.0.1:8080", "listen on `host:port`")
	poll := fs.Duration("poll", time.Second, "look at the model file this often and reload it when it changed (0: only on SIGHUP)")
	maxBody := fs.Int64("max-body", 64<<20, "the largest request body, in `bytes` (larger: 413)")
	mem, memSource := serve.MemoryLimit()
	quarter := fmt.Sprintf("0: a quarter of the memory the process may use, here %s of %s", bounded.FormatBytes(mem/4), memSource)
	maxModel := fs.Int64("max-model-bytes", 0, "the largest model file, in `bytes`; a larger one, or one that is not a regular file, is refused unread and keeps the model in use ("+quarter+")")
	maxInflight := fs.Int64("max-inflight-bytes", 0, "the `bytes` all requests in flight may hold together: bodies as they arrive, samples, labels, scores; "+
		"a request that would take more is refused with 503 (413 if it alone needs more) ("+quarter+")")
	maxScores := fs.Int64("max-scores", 1<<24, "the most decision values, rows × scores per row, a request may ask for (more: 413)")
	maxConns := fs.Int("max-conns", 1024, "the most connections served at once; more wait to be accepted")
	timeout := fs.Duration("timeout", 30*time.Second, "read and write timeout of a request")
	grace := fs.Duration("shutdown", 10*time.Second, "on SIGINT or SIGTERM, how long requests in flight may take to finish")
	lf := learnFlags(fs)
	allowChange := fs.Bool("allow-model-change", false, "let a reload put in use a model of another input width, other labels or another kind (by default such a reload is refused and the model in use kept)")
	if x.Flags != nil {
		x.Flags(fs)
	}
	if fs.Lookup("grpc-addr") == nil {
		fs.Var(refuseFlag{grpcElsewhere}, "grpc-addr", "not served by this command: "+grpcElsewhere)
	}
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: %s -model FILE [-addr HOST:PORT] [flags]\n", name)
		fmt.Fprintf(stderr, "       %s -models DIR [-addr HOST:PORT] [flags]\n\n", name)
		fmt.Fprintf(stderr, "Serves the model's predictions over HTTP: POST /predict (JSON or binary, one sample or a batch),\n")
		fmt.Fprintf(stderr, "GET /healthz. Reloads the model on SIGHUP or when the file changes (a bad file keeps the\n")
		fmt.Fprintf(stderr, "model in use); shuts down gracefully on SIGINT or SIGTERM. See package serve for the formats.\n")
		fmt.Fprintf(stderr, "Also the Open Inference Protocol (KServe V2) over REST: GET /v2/health/live, /v2/health/ready, /v2,\n")
		fmt.Fprintf(stderr, "/v2/models/NAME[/ready], POST /v2/models/NAME/infer; NAME is the file's name without its extension.\n")
		fmt.Fprintf(stderr, "A reload to a model of another width, labels or kind is refused unless -allow-model-change.\n")
		fmt.Fprintf(stderr, "With -models DIR, every model file in DIR is served under its name without the extension and\n")
		fmt.Fprintf(stderr, "reloaded on its own; files added or removed add or remove models; a bad file is listed unavailable\n")
		fmt.Fprintf(stderr, "and affects no other. /predict/NAME or /predict?model=NAME names a model (unnamed with one\n")
		fmt.Fprintf(stderr, "model); POST /v2/repository/index lists them.\n\n")
		fmt.Fprintf(stderr, "Statuses: 400 a malformed request (bad or truncated JSON, a null or NaN value, a wrong feature\n")
		fmt.Fprintf(stderr, "count); 413 over -max-body, -max-scores, or alone over -max-inflight-bytes; 415 another\n")
		fmt.Fprintf(stderr, "Content-Type; 422 a sample the model cannot score; 503 the requests in flight at\n")
		fmt.Fprintf(stderr, "-max-inflight-bytes (retry). GET /healthz says whether the last reload failed, not why: the\n")
		fmt.Fprintf(stderr, "reason is in the log.\n\n")
		fmt.Fprintf(stderr, "With -learn-dir DIR (and -model FILE), the model also learns online: POST /learn takes labelled\n")
		fmt.Fprintf(stderr, "samples and an idempotency key, applies the perceptron's rule, logs each request in DIR before\n")
		fmt.Fprintf(stderr, "answering and checkpoints there; GET /learn/status, POST /admin/checkpoint, POST /admin/model\n")
		fmt.Fprintf(stderr, "(adopt a replaced model file). These need the bearer token of -token-file or ROSENBLATT_TOKEN\n")
		fmt.Fprintf(stderr, "(closed without one). See docs/learning.md.\n\n")
		if x.Usage != "" {
			fmt.Fprintf(stderr, "%s\n\n", x.Usage)
		}
		fmt.Fprintf(stderr, "flags:\n")
		fs.PrintDefaults()
	}
	parse := x.Parse
	if parse == nil {
		parse = defaultParse
	}
	if err := parse(fs, args); err != nil {
		return err
	}
	switch {
	case *model == "" && *models == "":
		fs.Usage()
		return fmt.Errorf("%w: -model FILE is required (or -models DIR)", ErrUsage)
	case *model != "" && *models != "":
		return fmt.Errorf("%w: -model FILE and -models DIR contradict each other: serve one file, or every file of a directory", ErrUsage)
	case *poll < 0 || *maxBody <= 0 || *timeout <= 0 || *grace <= 0:
		return fmt.Errorf("%w: -poll must not be negative; -max-body, -timeout and -shutdown must be positive", ErrUsage)
	case *maxModel < 0 || *maxInflight < 0:
		return fmt.Errorf("%w: -max-model-bytes and -max-inflight-bytes must not be negative (0: the default)", ErrUsage)
	case *maxScores <= 0 || *maxConns <= 0:
		return fmt.Errorf("%w: -max-scores and -max-conns must be positive", ErrUsage)
	case *maxModels <= 0:
		return fmt.Errorf("%w: -max-models must be positive", ErrUsage)
	}
	if *poll == 0 {
		*poll = -1 // serve.Options: no watching
	}
	learn, err := lf.options(*models != "")
	if err != nil {
		return err
	}
	logger := slog.New(slog.NewTextHandler(stderr, nil))
	opt := serve.Options{
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
		Observer:         x.Observer,
		MaxModels:        *maxModels,
	}
	var s *serve.Server
	switch {
	case *models != "":
		s, err = serve.NewRepository(*models, nil, opt)
	case learn != nil:
		learn.Online.Logger = logger
		s, err = serve.NewLearning(*model, *learn, opt)
	default:
		s, err = serve.New(*model, nil, opt)
	}
	if err != nil {
		return err
	}
	defer func() {
		if cerr := s.CloseLearning(); cerr != nil {
			logger.Error("closing the learner", "err", cerr)
		}
	}()
	patterns := make([]string, 0, len(x.Handlers))
	for p := range x.Handlers {
		patterns = append(patterns, p)
	}
	slices.Sort(patterns)
	for _, p := range patterns {
		if err := s.Handle(p, x.Handlers[p]); err != nil {
			return err
		}
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	o := s.Options()
	limits := []any{"max-body", o.MaxBodyBytes, "max-model-bytes", o.MaxModelBytes, "max-inflight-bytes", o.MaxInflightBytes,
		"max-scores", o.MaxScores, "max-conns", o.MaxConns, "memory", mem, "memory-source", memSource}
	if *models != "" {
		ready := 0
		idx := s.Index()
		for _, m := range idx {
			if m.Version != "" {
				ready++
			}
		}
		logger.Info("serving", append([]any{"addr", ln.Addr().String(), "dir", *models, "models", len(idx), "ready", ready,
			"max-models", o.MaxModels}, limits...)...)
	} else {
		info := s.Current()
		logger.Info("serving", append([]any{"addr", ln.Addr().String(), "file", *model, "model", info.Version,
			"dims", info.Dims, "classes", len(info.Classes), "type", info.Elem, "kind", info.Kind}, limits...)...)
		if st, ok := s.LearnStatus(); ok {
			logger.Info("learning", "dir", learn.Dir, "version", st.Version, "checkpoint", st.Recovery.Checkpoint,
				"replayed", st.Recovery.Records, "problems", len(st.Recovery.Problems), "sync", st.Sync, "sync-interval", st.SyncInterval,
				"token", learn.Token != "", "protect-predict", learn.ProtectPredict)
		}
	}
	if x.Ready != nil {
		x.Ready(ln.Addr())
	}
	if hup != nil {
		go func() {
			for range hup {
				logger.Info("SIGHUP: reloading the models", "file", *model, "dir", *models)
				s.Reload() // logs its outcome
			}
		}()
	}
	return serveAll(ctx, s, ln, x.Start, logger)
}

// serveAll runs s on ln and start (if not nil) side by side until ctx is
// done or either fails, then shuts both down and returns the first error.
func serveAll(ctx context.Context, s *serve.Server, ln net.Listener, start func(context.Context, *serve.Server) error, logger *slog.Logger) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	startc := make(chan error, 1)
	if start != nil {
		go func() { startc <- start(ctx, s) }()
	} else {
		startc <- nil
	}
	httpc := make(chan error, 1)
	go func() { httpc <- s.Run(ctx, ln) }()
	var err error
	select {
	case err = <-httpc:
		cancel()
		if serr := <-startc; err == nil {
			err = serr
		}
	case err = <-startc:
		if err == nil { // start is done (or was nil): HTTP goes on
			err = <-httpc
			break
		}
		cancel()
		<-httpc // start's error is the one returned
	}
	if err != nil {
		return err
	}
	logger.Info("shut down")
	return nil
}

// defaultParse parses args with fs and allows no positional argument.
func defaultParse(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return fmt.Errorf("%w: %v", ErrUsage, err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: unexpected argument %q", ErrUsage, fs.Arg(0))
	}
	return nil
}
