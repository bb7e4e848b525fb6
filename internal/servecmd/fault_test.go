//go:build unix

package servecmd_test

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"log/slog"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/linear"

	"github.com/rosenblatt-go/rosenblatt/internal/servecmd"
	"github.com/rosenblatt-go/rosenblatt/online"
)

// The child server of TestKillLearning: the test binary run again with
// these variables set runs "rosenblatt serve" with the arguments in
// faultArgs (separated by U+001F) and writes its address to faultAddr.
const (
	faultArgs = "ROSENBLATT_FAULT_CHILD_ARGS"
	faultAddr = "ROSENBLATT_FAULT_CHILD_ADDR"
)

func TestMain(m *testing.M) {
	if args := os.Getenv(faultArgs); args != "" {
		addrFile := os.Getenv(faultAddr)
		err := servecmd.Main(strings.Split(args, "\x1f"), os.Stderr, servecmd.Extra{Ready: func(a net.Addr) {
			os.WriteFile(addrFile+".tmp", []byte(a.String()), 0o600)
			os.Rename(addrFile+".tmp", addrFile)
		}})
		if err != nil {
			fmt.Fprintln(os.Stderr, "child:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

const faultDims = 6

// faultSample is the sample of a key: small integers (the model's sums are
// exact, whatever their order), labelled by a fixed rule with noise.
func faultSample(key string) ([]float64, int) {
	h := fnv.New64a()
	h.Write([]byte(key))
	rng := rand.New(rand.NewPCG(h.Sum64(), 3))
	x := make([]float64, faultDims)
	s := 0.0
	for i := range x {
		x[i] = float64(rng.IntN(9) - 4)
		s += x[i] * float64(i%3-1)
	}
	y := 1
	if s < 0 || s == 0 && rng.IntN(2) == 0 {
		y = -1
	}
	if rng.IntN(8) == 0 {
		y = -y
	}
	return x, y
}

type child struct {
	cmd  *exec.Cmd
	url  string
	done chan error
}

// startChild runs the server on loopback and waits for its address.
func startChild(t *testing.T, dir string, args []string) *child {
	t.Helper()
	addrFile := filepath.Join(dir, fmt.Sprintf("addr-%d", time.Now().UnixNano()))
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), faultArgs+"="+strings.Join(args, "\x1f"), faultAddr+"="+addrFile, "ROSENBLATT_TOKEN=fault-token")
	logf, err := os.OpenFile(filepath.Join(dir, "child.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer logf.Close()
	cmd.Stderr = logf
	if err := cmd.Start(); err != nil {
		if strings.Contains(err.Error(), "exec format error") {
			// qemu-user without binfmt_misc runs the test binary but
			// cannot start it again as a child; the native run of this
			// test is the one that kills servers.
			t.Skip("the test binary cannot be re-executed on this host (emulated architecture)")
		}
		t.Fatal(err)
	}
	c := &child{cmd: cmd, done: make(chan error, 1)}
	go func() { c.done <- cmd.Wait() }()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if b, err := os.ReadFile(addrFile); err == nil {
			c.url = "http://" + string(b)
			return c
		}
		select {
		case err := <-c.done:
			log, _ := os.ReadFile(filepath.Join(dir, "child.log"))
			t.Fatalf("the child server exited: %v\n%s", err, log)
		default:
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("the child server did not start in 30 s")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

type learnReply struct {
	Version   uint64 `json:"version"`
	Duplicate bool   `json:"duplicate"`
}

// learnKey posts the key's sample; ok is false if no answer came (the
// server died): the request is then unacknowledged.
func learnKey(client *http.Client, url, key string) (learnReply, bool, error) {
	x, y := faultSample(key)
	body, _ := json.Marshal(map[string]any{"key": key, "x": x, "y": y})
	req, _ := http.NewRequest("POST", url+"/learn", strings.NewReader(string(body)))
	req.Header.Set("Authorization", "Bearer fault-token")
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return learnReply{}, false, nil
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return learnReply{}, false, nil // cut mid-answer: unacknowledged
	}
	if resp.StatusCode != 200 {
		return learnReply{}, false, fmt.Errorf("POST /learn %s: %d %s", key, resp.StatusCode, b)
	}
	var r learnReply
	if err := json.Unmarshal(b, &r); err != nil {
		return r, false, fmt.Errorf("%s: %v", b, err)
	}
	return r, true, nil
}

// TestKillLearning runs "rosenblatt serve -learn-dir" as a child process
// on loopback under concurrent learning and prediction, kills it with
// SIGKILL at random moments (and restarts it on the same directory), then
// resends every request that got no answer and checks that the versions
// answered number the requests exactly once, 1 to the last with no gap
// and no repeat, and that the model is bit for bit the one
// linear.Model.Update makes of the base by those requests in that
// order: every acknowledged update is there once, and nothing else.
func TestKillLearning(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and kills server processes")
	}
	dir := t.TempDir()
	st := linear.State[float64]{Scheme: fit.Binary, Algorithm: linear.Online, Dims: faultDims, Labels: []int{-1, 1},
		W: make([]float64, faultDims), B: []float64{0}, Eta: 1, Bias: true, BiasFeature: 1, Steps: 1}
	base, err := linear.New(st)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := base.MarshalBinary()
	modelPath := filepath.Join(dir, "m.model")
	if err := os.WriteFile(modelPath, data, 0o600); err != nil {
		t.Fatal(err)
	}
	learnDir := filepath.Join(dir, "learn")
	args := func(round int) []string {
		fsync := []string{"none", "2ms", "0", "request"}[round%4]
		return []string{"-model", modelPath, "-learn-dir", learnDir, "-addr", "127.0.0.1:0", "-fsync", fsync,
			"-checkpoint-every", "40", "-poll", "0"}
	}
	var mu sync.Mutex
	acked := map[string]uint64{} // key → the version that answered it
	sent := map[string]bool{}
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1))
	const rounds = 6
	for round := range rounds {
		c := startChild(t, dir, args(round))
		client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
		ctx, stop := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		errs := make(chan error, 16)
		for w := range 4 { // learners
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; ctx.Err() == nil; i++ {
					key := fmt.Sprintf("r%d-w%d-%d", round, w, i)
					mu.Lock()
					sent[key] = true
					mu.Unlock()
					r, ok, err := learnKey(client, c.url, key)
					if err != nil {
						errs <- err
						return
					}
					if !ok {
						return // the server is gone
					}
					if r.Duplicate {
						errs <- fmt.Errorf("a new key %s answered as a duplicate", key)
						return
					}
					mu.Lock()
					acked[key] = r.Version
					mu.Unlock()
				}
			}()
		}
		for range 2 { // predictors
			wg.Add(1)
			go func() {
				defer wg.Done()
				x, _ := faultSample("predict")
				body, _ := json.Marshal(map[string]any{"x": x})
				for ctx.Err() == nil {
					resp, err := client.Post(c.url+"/predict", "application/json", strings.NewReader(string(body)))
					if err != nil {
						return
					}
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if resp.StatusCode != 200 {
						errs <- fmt.Errorf("predict: %d", resp.StatusCode)
						return
					}
				}
			}()
		}
		time.Sleep(time.Duration(50+rng.IntN(400)) * time.Millisecond)
		c.cmd.Process.Signal(syscall.SIGKILL)
		<-c.done
		stop()
		wg.Wait()
		client.CloseIdleConnections()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
	}
	// Every request without an answer, sent again with its key: applied
	// now, or found applied before the kill (a duplicate, with the
	// version that applied it).
	c := startChild(t, dir, args(0))
	client := &http.Client{Timeout: 10 * time.Second}
	var unacked []string
	for k := range sent {
		if _, ok := acked[k]; !ok {
			unacked = append(unacked, k)
		}
	}
	slices.Sort(unacked)
	dups := 0
	for _, k := range unacked {
		r, ok, err := learnKey(client, c.url, k)
		if err != nil || !ok {
			t.Fatalf("resending %s: %v", k, err)
		}
		if r.Duplicate {
			dups++
		}
		acked[k] = r.Version
	}
	c.cmd.Process.Signal(syscall.SIGTERM)
	if err := <-c.done; err != nil {
		log, _ := os.ReadFile(filepath.Join(dir, "child.log"))
		t.Fatalf("graceful stop: %v\n%s", err, log)
	}
	log, _ := os.ReadFile(filepath.Join(dir, "child.log"))
	// The versions number the requests: 1 to n, each once.
	bySeq := make([]string, len(acked)+1)
	for k, v := range acked {
		if v == 0 || v > uint64(len(acked)) || bySeq[v] != "" {
			t.Fatalf("version %d of %s: the %d requests are not numbered 1 to %d exactly once (also %q)", v, k, len(acked), len(acked), bySeq[min(v, uint64(len(acked)))])
		}
		bySeq[v] = k
	}
	// The model is the base updated by them in that order.
	want, _ := linear.New(st)
	for _, k := range bySeq[1:] {
		x, y := faultSample(k)
		if _, err := want.Update(x, y); err != nil {
			t.Fatal(err)
		}
	}
	l, err := online.Open(learnDir, base, sha256Sum(data), online.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := l.Model()
	status := l.Status()
	l.Close()
	if status.Version != uint64(len(acked)) {
		t.Fatalf("the learner is at version %d, %d requests were answered", status.Version, len(acked))
	}
	ws, _ := want.State()
	gs, _ := got.State()
	for i := range ws.W {
		if math.Float64bits(ws.W[i]) != math.Float64bits(gs.W[i]) {
			t.Fatalf("w[%d] = %v, Update by the answered requests gives %v", i, gs.W[i], ws.W[i])
		}
	}
	if math.Float64bits(ws.B[0]) != math.Float64bits(gs.B[0]) || ws.Steps != gs.Steps {
		t.Fatalf("b = %v after %d steps, want %v after %d", gs.B[0], gs.Steps, ws.B[0], ws.Steps)
	}
	cuts := strings.Count(string(log), "the log is cut")
	t.Logf("%d rounds killed with SIGKILL; %d requests answered, %d resent after a kill (%d of them had been applied before it); %d torn tails cut; %d checkpoints",
		rounds, len(acked), len(unacked), dups, cuts, strings.Count(string(log), "online: checkpoint"))
}

func sha256Sum(b []byte) [32]byte { return sha256.Sum256(b) }
