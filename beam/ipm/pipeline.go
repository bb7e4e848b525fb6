package ipm

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/rosenblatt-go/rosenblatt/linear"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local" // local files
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/perceptron"
)

func init() {
	register.DoFn4x1[context.Context, string, func(int, []byte), func([]byte), error](&readFn{})
	register.DoFn3x1[int, func(*[]byte) bool, func([]byte), error](&initFn{})
	register.DoFn4x1[int, func(*[]byte) bool, []byte, func([]byte), error](&epochFn{})
	register.DoFn4x1[int, func(*[]byte) bool, []byte, func([]byte), error](&mixFn{})
	register.DoFn2x1[context.Context, []byte, error](&writeFn{})
	register.Emitter1[[]byte]()
	register.Emitter2[int, []byte]()
	register.Iter1[[]byte]()
}

// Report is what the job writes next to the model (Output+".ipm.json"):
// the job's id, its configuration and every epoch's shards.
type Report struct {
	Job       string      `json:"job"`
	Algorithm string      `json:"algorithm"`
	Mixing    string      `json:"mixing"`
	Shards    int         `json:"shards"`
	Epochs    int         `json:"epochs"`
	Files     []string    `json:"files"`
	History   []EpochStat `json:"history"`
	// The linear SVM's C, and after its last epoch the primal objective
	// P(w) = ½‖w‖² + C·Σ max(0, 1 − yᵢw·x̃ᵢ), the dual one in the svm
	// package's sign (svm.Problem.Dual: ½‖w‖² − Σαᵢ) and the
	// duality gap P + Dual ≥ P(w) − min P, summed over the machines.
	C      float64 `json:"c,omitempty"`
	Primal float64 `json:"primal,omitempty"`
	Dual   float64 `json:"dual,omitempty"`
	Gap    float64 `json:"gap,omitempty"`
}

// Rows returns the number of training rows (those of the first epoch).
func (r *Report) Rows() int {
	n := 0
	if len(r.History) > 0 {
		for _, s := range r.History[0].Shards {
			n += s.Rows
		}
	}
	return n
}

// Expand returns the files the patterns match, in order (each pattern's
// matches sorted), each once. A pattern that matches nothing is an error
// wrapping ErrInput.
func Expand(ctx context.Context, patterns []string) ([]string, error) {
	var files []string
	for _, p := range patterns {
		fs, err := filesystem.New(ctx, p)
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %v", ErrInput, p, err)
		}
		m, err := fs.List(ctx, p)
		fs.Close()
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %v", ErrInput, p, err)
		}
		if len(m) == 0 {
			return nil, fmt.Errorf("%w: %s matches no file", ErrInput, p)
		}
		slices.Sort(m)
		for _, f := range m {
			if !slices.Contains(files, f) {
				files = append(files, f)
			}
		}
	}
	return files, nil
}

// Build checks cfg, expands its input patterns and adds the training job to
// the pipeline under s: read and shard the rows, then Epochs stages of
// shard epochs and mixing, then the writing of the model. It returns the
// job's id, which the report written next to the model carries (Run checks
// it).
func Build(ctx context.Context, s beam.Scope, cfg Config) (string, []string, error) {
	if err := cfg.check(); err != nil {
		return "", nil, err
	}
	files, err := Expand(ctx, cfg.Inputs)
	if err != nil {
		return "", nil, err
	}
	if err := checkOutput(ctx, cfg.Output, cfg.Overwrite, files); err != nil {
		return "", nil, err
	}
	var id [8]byte
	_, _ = rand.Read(id[:])
	job := hex.EncodeToString(id[:])

	refs := make([]string, len(files))
	for i, f := range files {
		refs[i] = strconv.Itoa(i) + "\t" + f
	}
	s = s.Scope("ipm")
	rows, labels := beam.ParDo2(s.Scope("read"), &readFn{Format: cfg.Format, Dims: cfg.Dims, Type: cfg.Type, Shards: cfg.Shards},
		beam.CreateList(s, refs))
	shards := beam.GroupByKey(s.Scope("shard"), rows)
	if cfg.Algorithm == linear.SVM {
		mixed := buildSVM(s, cfg, shards, labels)
		rep := Report{Job: job, Algorithm: "svm", Mixing: cfg.Mixing.String(), C: cfg.C,
			Shards: cfg.Shards, Epochs: cfg.Epochs, Files: files}
		head, err := json.Marshal(rep)
		if err != nil {
			return "", nil, err
		}
		beam.ParDo0(s.Scope("write"), &writeFn{Output: cfg.Output, Type: cfg.Type, Report: string(head), SVM: true}, mixed)
		return job, files, nil
	}
	mixed := beam.ParDo(s.Scope("init"), &initFn{Dims: cfg.Dims, Eta: cfg.Eta, Type: cfg.Type, MaxModelBytes: cfg.MaxModelBytes},
		beam.GroupByKey(s, beam.AddFixedKey(s, labels)))
	for e := 1; e <= cfg.Epochs; e++ {
		es := s.Scope("epoch" + strconv.Itoa(e))
		res := beam.ParDo(es, &epochFn{Type: cfg.Type, Dims: cfg.Dims, Algorithm: int(cfg.Algorithm), Eta: cfg.Eta},
			shards, beam.SideInput{Input: mixed})
		mixed = beam.ParDo(es, &mixFn{Type: cfg.Type, Mixing: int(cfg.Mixing), Epoch: e},
			beam.GroupByKey(es, beam.AddFixedKey(es, res)), beam.SideInput{Input: mixed})
	}
	rep := Report{Job: job, Algorithm: cfg.Algorithm.String(), Mixing: cfg.Mixing.String(),
		Shards: cfg.Shards, Epochs: cfg.Epochs, Files: files}
	head, err := json.Marshal(rep)
	if err != nil {
		return "", nil, err
	}
	beam.ParDo0(s.Scope("write"), &writeFn{Output: cfg.Output, Type: cfg.Type, Report: string(head)}, mixed)
	return job, files, nil
}

// buildSVM adds the CoCoA epochs of the linear SVM and the final
// evaluation (see svm.go) and returns the final state.
func buildSVM(s beam.Scope, cfg Config, shards, labels beam.PCollection) beam.PCollection {
	mixed, alphas := beam.ParDo2(s.Scope("init"), &svmInitFn{Dims: cfg.Dims, Shards: cfg.Shards, MaxModelBytes: cfg.MaxModelBytes},
		beam.GroupByKey(s, beam.AddFixedKey(s, labels)))
	adding := cfg.Mixing == Adding
	for e := 1; e <= cfg.Epochs; e++ {
		es := s.Scope("epoch" + strconv.Itoa(e))
		res, next := beam.ParDo2(es, &svmEpochFn{Type: cfg.Type, Dims: cfg.Dims, C: cfg.C, Adding: adding, Shards: cfg.Shards,
			Epoch: e, Seed: cfg.Seed}, shards, beam.SideInput{Input: mixed}, beam.SideInput{Input: alphas})
		mixed = beam.ParDo(es, &svmMixFn{Adding: adding, Shards: cfg.Shards, Epoch: e},
			beam.GroupByKey(es, beam.AddFixedKey(es, res)), beam.SideInput{Input: mixed})
		alphas = next
	}
	es := s.Scope("evaluate")
	ev := beam.ParDo(es, &svmEvalFn{Type: cfg.Type, Dims: cfg.Dims}, shards, beam.SideInput{Input: mixed})
	return beam.ParDo(es, &svmFinalFn{C: cfg.C}, beam.GroupByKey(es, beam.AddFixedKey(es, ev)), beam.SideInput{Input: mixed})
}

// checkOutput refuses an output (or its report) that exists, unless
// overwrite, and one that is an input.
func checkOutput(ctx context.Context, out string, overwrite bool, inputs []string) error {
	fs, err := filesystem.New(ctx, out)
	if err != nil {
		return fmt.Errorf("%w: %s: %v", ErrConfig, out, err)
	}
	defer fs.Close()
	for _, p := range []string{out, out + ".ipm.json"} {
		if slices.Contains(inputs, p) {
			return fmt.Errorf("%w: %s is one of the inputs", ErrExists, p)
		}
		if _, err := fs.Size(ctx, p); err == nil && !overwrite {
			return fmt.Errorf("%w: %s (give -f to replace it)", ErrExists, p)
		}
	}
	return nil
}

// Run builds the job into a new pipeline, runs it with run (beamx.Run, or
// prism.Execute in-process) and returns the report the job wrote. A job
// that succeeded without writing this job's model (no rows in the input)
// is an error wrapping ErrInput.
func Run(ctx context.Context, cfg Config, run func(context.Context, *beam.Pipeline) error) (*Report, error) {
	p, s := beam.NewPipelineWithRoot()
	job, _, err := Build(ctx, s, cfg)
	if err != nil {
		return nil, err
	}
	if err := run(ctx, p); err != nil {
		return nil, err
	}
	fs, err := filesystem.New(ctx, cfg.Output)
	if err != nil {
		return nil, err
	}
	defer fs.Close()
	b, err := filesystem.Read(ctx, fs, cfg.Output+".ipm.json")
	var rep Report
	if err == nil {
		err = json.Unmarshal(b, &rep)
	}
	if err != nil || rep.Job != job {
		return nil, fmt.Errorf("%w: the job wrote no model (are there rows in %s?)", ErrInput, strings.Join(cfg.Inputs, " "))
	}
	return &rep, nil
}

// readFn reads one input file ("index\tpath") and deals its rows
// round-robin into the shards; it also emits the file's labels.
type readFn struct {
	Format string
	Dims   int
	Type   string
	Shards int
}

// ProcessElement reads one file.
func (f *readFn) ProcessElement(ctx context.Context, ref string, emit func(int, []byte), emitLabels func([]byte)) error {
	i, path, ok := strings.Cut(ref, "\t")
	file, err := strconv.Atoi(i)
	if !ok || err != nil {
		return fmt.Errorf("ipm: bad file reference %q", ref)
	}
	if f.Type == "float64" {
		return readShards[float64](ctx, f, file, path, emit, emitLabels)
	}
	return readShards[float32](ctx, f, file, path, emit, emitLabels)
}

func readShards[T kernel.Float](ctx context.Context, f *readFn, file int, path string, emit func(int, []byte), emitLabels func([]byte)) error {
	d, err := readFile[T](ctx, path, f.Format, f.Dims)
	if err != nil {
		return err
	}
	for r := range d.Rows {
		emit((file+r)%f.Shards, appendRow(nil, file, r, d.Y[r], d.Row(r)))
	}
	if d.Rows > 0 {
		labels := slices.Clone(d.Y)
		slices.Sort(labels)
		b, _ := json.Marshal(slices.Compact(labels))
		emitLabels(b)
	}
	return nil
}

// initFn makes the first epoch's model from the labels of all files.
type initFn struct {
	Dims          int
	Eta           float64
	Type          string
	MaxModelBytes int64
}

// ProcessElement takes the files' label sets.
func (f *initFn) ProcessElement(_ int, sets func(*[]byte) bool, emit func([]byte)) error {
	labels, err := collectLabels(sets)
	if err != nil {
		return err
	}
	rows := len(labels)
	if slices.Equal(labels, []int{-1, 1}) {
		rows = 1
	}
	if err := checkModelBytes(rows, f.Dims, f.MaxModelBytes); err != nil {
		return err
	}
	var m []byte
	if f.Type == "float64" {
		m, err = zeroModel[float64](labels, f.Dims, f.Eta)
	} else {
		m, err = zeroModel[float32](labels, f.Dims, f.Eta)
	}
	if err != nil {
		return err
	}
	out, err := json.Marshal(state{Model: m})
	if err != nil {
		return err
	}
	emit(out)
	return nil
}

// collectLabels returns the sorted union of the files' label sets (JSON),
// an error wrapping ErrInput if it has fewer than two labels.
func collectLabels(sets func(*[]byte) bool) ([]int, error) {
	var labels []int
	for _, b := range collect(sets) {
		var l []int
		if err := json.Unmarshal(b, &l); err != nil {
			return nil, err
		}
		labels = append(labels, l...)
	}
	slices.Sort(labels)
	labels = slices.Compact(labels)
	if len(labels) < 2 {
		return nil, fmt.Errorf("%w: the input has one label only (%v)", ErrInput, labels)
	}
	return labels, nil
}

// epochFn runs one epoch on one shard from the mixed state.
type epochFn struct {
	Type      string
	Dims      int
	Algorithm int
	Eta       float64
}

// ProcessElement trains shard on its rows.
func (f *epochFn) ProcessElement(shard int, rows func(*[]byte) bool, mixed []byte, emit func([]byte)) error {
	recs := collect(rows)
	var st state
	if err := json.Unmarshal(mixed, &st); err != nil {
		return fmt.Errorf("ipm: the mixed state: %w", err)
	}
	var r shardResult
	var err error
	if f.Type == "float64" {
		r, err = shardEpoch[float64](f, recs, st.Model)
	} else {
		r, err = shardEpoch[float32](f, recs, st.Model)
	}
	if err != nil {
		return fmt.Errorf("ipm: shard %d: %w", shard, err)
	}
	r.Shard = shard
	out, err := json.Marshal(r)
	if err != nil {
		return err
	}
	emit(out)
	return nil
}

// Options returns the library options of one shard epoch (and, with
// MaxIter set to the epochs, of the single-process run it equals). A shard
// needs only its model and the epoch's mistakes: the final pass that
// evaluates the model is skipped (about half of Continue's time on a
// shard; see shardEvaluation and BenchmarkShardEpoch). The shards pass
// their models on with the training state (Resumable): the next epoch
// continues each exactly.
func Options(alg linear.Algorithm, eta float64) perceptron.Options {
	return perceptron.Options{Algorithm: alg, MaxIter: 1, Stop: perceptron.StopNever, Eta: eta, Workers: 1,
		SkipEvaluation: !shardEvaluation, Resumable: true}
}

// shardEvaluation makes the shards evaluate their models as Continue does
// by default, for BenchmarkThroughput's comparison only: the pipeline uses
// nothing of that pass.
var shardEvaluation = false

func shardEpoch[T kernel.Float](f *epochFn, recs [][]byte, model []byte) (shardResult, error) {
	c, err := shardRows[T](recs, f.Dims)
	if err != nil {
		return shardResult{}, err
	}
	var m linear.Model[T]
	if err := m.UnmarshalJSON(model); err != nil {
		return shardResult{}, err
	}
	opt := Options(linear.Algorithm(f.Algorithm), f.Eta)
	opt.Init = &m
	var rows dataset.Rows[T] = c
	if X := denseFor(c); X != nil {
		rows = dataset.NewData(X, f.Dims, c.Y)
	}
	nm, rep, err := perceptron.Fit(context.Background(), rows, c.Y, opt)
	if err != nil {
		return shardResult{}, err
	}
	diag := rep.Detail.(*perceptron.Diagnostics)
	mb, err := nm.MarshalJSON()
	if err != nil {
		return shardResult{}, err
	}
	mistakes := 0
	for _, e := range diag.Epochs {
		mistakes += e.Mistakes
	}
	return shardResult{Rows: c.Rows, Mistakes: mistakes, Model: mb}, nil
}

// mixFn mixes the shard models of one epoch.
type mixFn struct {
	Type   string
	Mixing int
	Epoch  int
}

// ProcessElement mixes the results (all under one key) started from prev.
func (f *mixFn) ProcessElement(_ int, results func(*[]byte) bool, prev []byte, emit func([]byte)) error {
	var res []shardResult
	var b []byte
	for results(&b) {
		var r shardResult
		if err := json.Unmarshal(b, &r); err != nil {
			return err
		}
		res = append(res, r)
	}
	slices.SortFunc(res, func(a, b shardResult) int { return a.Shard - b.Shard })
	var st state
	if err := json.Unmarshal(prev, &st); err != nil {
		return err
	}
	ks := make([]int, len(res))
	for i, r := range res {
		ks[i] = r.Mistakes
	}
	mu := mixWeights(Mixing(f.Mixing), ks)
	var m []byte
	var err error
	if f.Type == "float64" {
		m, err = mix[float64](st.Model, res, mu)
	} else {
		m, err = mix[float32](st.Model, res, mu)
	}
	if err != nil {
		return err
	}
	ep := EpochStat{Epoch: f.Epoch}
	for i, r := range res {
		ep.Shards = append(ep.Shards, ShardStat{Shard: r.Shard, Rows: r.Rows, Mistakes: r.Mistakes, Mu: mu[i]})
	}
	out, err := json.Marshal(state{Model: m, History: append(st.History, ep)})
	if err != nil {
		return err
	}
	emit(out)
	return nil
}

// writeFn writes the final model and the report, each atomically (a
// temporary file renamed), the report first: the model appears last, and
// only once every epoch succeeded.
type writeFn struct {
	Output string
	Type   string
	Report string // the report without its history, JSON
	SVM    bool   // the state is an svmState
}

// ProcessElement writes the mixed state of the last epoch.
func (f *writeFn) ProcessElement(ctx context.Context, mixed []byte) error {
	var rep Report
	if err := json.Unmarshal([]byte(f.Report), &rep); err != nil {
		return err
	}
	var bin []byte
	var err error
	if f.SVM {
		var st svmState
		if err := json.Unmarshal(mixed, &st); err != nil {
			return err
		}
		if !st.Final {
			return fmt.Errorf("ipm: the SVM state was not evaluated")
		}
		rep.History, rep.Primal, rep.Dual, rep.Gap = st.History, st.Primal, st.Dual, st.Primal+st.Dual
		if f.Type == "float64" {
			bin, err = svmModel[float64](&st)
		} else {
			bin, err = svmModel[float32](&st)
		}
	} else {
		var st state
		if err := json.Unmarshal(mixed, &st); err != nil {
			return err
		}
		rep.History = st.History
		if f.Type == "float64" {
			bin, err = binaryModel[float64](st.Model)
		} else {
			bin, err = binaryModel[float32](st.Model)
		}
	}
	if err != nil {
		return err
	}
	rb, err := json.MarshalIndent(rep, "", " ")
	if err != nil {
		return err
	}
	if err := writeAtomic(ctx, f.Output+".ipm.json", append(rb, '\n')); err != nil {
		return err
	}
	return writeAtomic(ctx, f.Output, bin)
}

func binaryModel[T kernel.Float](doc []byte) ([]byte, error) {
	var m linear.Model[T]
	if err := m.UnmarshalJSON(doc); err != nil {
		return nil, fmt.Errorf("ipm: the final model: %w", err)
	}
	return m.MarshalBinary()
}

// writeAtomic writes data to a temporary file next to path and renames it
// to path (on filesystems without a rename, such as GCS, a copy and a
// remove: the object appears whole).
func writeAtomic(ctx context.Context, path string, data []byte) error {
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return err
	}
	defer fs.Close()
	var id [6]byte
	_, _ = rand.Read(id[:])
	tmp := path + ".tmp-" + hex.EncodeToString(id[:])
	if err := filesystem.Write(ctx, fs, tmp, data); err != nil {
		if rm, ok := fs.(filesystem.Remover); ok {
			_ = rm.Remove(ctx, tmp) // a partial temporary file is no one's
		}
		return fmt.Errorf("ipm: writing %s: %w", tmp, err)
	}
	if err := filesystem.Rename(ctx, fs, tmp, path); err != nil {
		if rm, ok := fs.(filesystem.Remover); ok {
			_ = rm.Remove(ctx, tmp)
		}
		return fmt.Errorf("ipm: renaming %s to %s: %w", tmp, path, err)
	}
	return nil
}
