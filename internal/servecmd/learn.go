package servecmd

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/rosenblatt-go/rosenblatt/online"
	"github.com/rosenblatt-go/rosenblatt/serve"
)

// tokenEnv is the environment variable that may hold the bearer token.
const tokenEnv = "ROSENBLATT_TOKEN"

// learnFlagSet holds the flags of learning while serving.
type learnFlagSet struct {
	dir, fsync, tokenFile string
	every                 int64
	interval              time.Duration
	protect, adopt        bool
	rate                  float64
	burst                 int
}

func learnFlags(fs *flag.FlagSet) *learnFlagSet {
	f := &learnFlagSet{}
	fs.StringVar(&f.dir, "learn-dir", "", "learn online (POST /learn) with its log and checkpoints in `dir` (with -model only)")
	fs.StringVar(&f.fsync, "fsync", "0", "with -learn-dir, when the log is fsynced before a request is answered: a group-commit `window` "+
		"(e.g. 10ms; 0: the requests that arrive during an fsync share the next), \"request\" (one fsync each) or \"none\" "+
		"(written, not fsynced, before the answer: survives the server's crash, not the machine's)")
	fs.Int64Var(&f.every, "checkpoint-every", 1_000_000, "with -learn-dir, a checkpoint after this many samples learnt")
	fs.DurationVar(&f.interval, "checkpoint-interval", time.Minute, "with -learn-dir, a checkpoint this long after the last if anything was learnt")
	fs.StringVar(&f.tokenFile, "token-file", "", "read the bearer token that opens /learn and /admin/* from `file` (else $"+tokenEnv+"; without either they are closed)")
	fs.BoolVar(&f.protect, "protect-predict", false, "with -learn-dir, predictions need the bearer token too (health checks stay open)")
	fs.Float64Var(&f.rate, "learn-rate", 0, "with -learn-dir, the learning requests a second each client (remote address) may make (0: no bound); more get 429")
	fs.IntVar(&f.burst, "learn-burst", 0, "with -learn-rate, the requests a client may make at once (0: the rate, at least 1)")
	fs.BoolVar(&f.adopt, "adopt", false, "with -learn-dir, start learning again from the -model file when DIR was learnt from another one (discarding what was learnt)")
	return f
}

// options returns the learning options, nil without -learn-dir.
func (f *learnFlagSet) options(repository bool) (*serve.LearnOptions, error) {
	if f.dir == "" {
		if f.protect || f.tokenFile != "" || f.rate != 0 || f.adopt {
			return nil, fmt.Errorf("%w: -token-file, -protect-predict, -learn-rate and -adopt go with -learn-dir", ErrUsage)
		}
		return nil, nil
	}
	if repository {
		return nil, fmt.Errorf("%w: -learn-dir learns the one model of -model FILE; a repository (-models DIR) is served without learning", ErrUsage)
	}
	o := online.Options{CheckpointEvery: f.every, CheckpointInterval: f.interval, Adopt: f.adopt}
	switch f.fsync {
	case "request":
		o.Sync = online.SyncEveryRequest
	case "none":
		o.Sync = online.SyncNone
	default:
		d, err := time.ParseDuration(f.fsync)
		if err != nil || d < 0 {
			return nil, fmt.Errorf("%w: -fsync %q: a group-commit window (10ms, 0), \"request\" or \"none\"", ErrUsage, f.fsync)
		}
		o.Sync, o.SyncInterval = online.SyncGroup, d
	}
	if f.every <= 0 || f.interval <= 0 || f.rate < 0 || f.burst < 0 {
		return nil, fmt.Errorf("%w: -checkpoint-every and -checkpoint-interval must be positive, -learn-rate and -learn-burst not negative", ErrUsage)
	}
	lo := &serve.LearnOptions{Dir: f.dir, Online: o, ProtectPredict: f.protect, Rate: f.rate, Burst: f.burst}
	if f.tokenFile != "" {
		b, err := os.ReadFile(f.tokenFile)
		if err != nil {
			return nil, fmt.Errorf("%w: -token-file: %v", ErrUsage, err)
		}
		lo.Token = strings.TrimRight(string(b), "\r\n")
		if lo.Token == "" {
			return nil, fmt.Errorf("%w: -token-file %s is empty", ErrUsage, f.tokenFile)
		}
	} else {
		lo.Token = os.Getenv(tokenEnv)
	}
	if f.protect && lo.Token == "" {
		return nil, fmt.Errorf("%w: -protect-predict needs a token (-token-file or $%s)", ErrUsage, tokenEnv)
	}
	return lo, nil
}
