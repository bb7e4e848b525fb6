package ipm

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/rosenblatt-go/rosenblatt/linear"

	"github.com/rosenblatt-go/rosenblatt/internal/modelfile"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// doc mirrors the library's JSON model document (linear.Model's
// MarshalJSON), which holds the whole training state: the served weights,
// and for the averaged perceptron the running weights, the averaging sums
// and the step count. The pipeline passes models between stages in this
// form and lets linear.Model.UnmarshalJSON check them.
type doc[T kernel.Float] struct {
	modelfile.JSONHeader
	Bias      bool    `json:"bias"`
	Normalize bool    `json:"normalize"`
	Eta       float64 `json:"eta"`
	Labels    []int   `json:"labels"`
	Steps     int64   `json:"steps,omitempty"`
	Weights   [][]T   `json:"weights,omitempty"`
	Biases    []T     `json:"biases,omitempty"`
	Averaging *avg[T] `json:"averaging,omitempty"`
}

// avg is the averaging state of an averaged model.
type avg[T kernel.Float] struct {
	Weights [][]T `json:"running_weights"`
	Biases  []T   `json:"running_biases"`
	Sums    [][]T `json:"sums"`
	BSums   []T   `json:"bias_sums"`
}

// state is what flows from one epoch to the next: the mixed model and the
// history of the epochs so far.
type state struct {
	Model   json.RawMessage `json:"model"`
	History []EpochStat     `json:"history"`
}

// EpochStat is one epoch of the report.
type EpochStat struct {
	Epoch  int         `json:"epoch"`
	Shards []ShardStat `json:"shards"`
	// Dual is the linear SVM's dual objective after the epoch's mixing,
	// ½‖w‖² − Σαᵢ over the machines (svm's sign: it decreases to −min P).
	Dual float64 `json:"dual,omitempty"`
}

// ShardStat is one shard's epoch: its rows, its mistakes (summed over the
// classes of a one-vs-rest model; for the SVM the margins ≤ 0 at their
// rows' visits) and its mixing weight μ (the SVM's γ).
type ShardStat struct {
	Shard    int     `json:"shard"`
	Rows     int     `json:"rows"`
	Mistakes int     `json:"mistakes"`
	Mu       float64 `json:"mu"`
}

// shardResult is a shard's model after its epoch.
type shardResult struct {
	Shard    int             `json:"shard"`
	Rows     int             `json:"rows"`
	Mistakes int             `json:"mistakes"`
	Model    json.RawMessage `json:"model"`
}

// zeroModel returns the model every shard starts the first epoch from:
// w = 0, b = 0, an online perceptron of the job's kind (binary for the
// labels {−1, +1}, one-vs-rest otherwise, as the rosenblatt command decides).
func zeroModel[T kernel.Float](labels []int, dims int, eta float64) ([]byte, error) {
	rows := len(labels)
	kind := "ovr"
	if slices.Equal(labels, []int{-1, 1}) {
		kind, rows = "binary", 1
	}
	d := doc[T]{JSONHeader: modelfile.NewJSONHeader[T]("rosenblatt-perceptron", kind, linear.Online.String(), dims),
		Bias: true, Eta: eta, Labels: labels, Biases: make([]T, rows)}
	for range rows {
		d.Weights = append(d.Weights, make([]T, dims))
	}
	b, err := json.Marshal(d)
	if err != nil {
		return nil, err
	}
	var m linear.Model[T] // the library checks the document
	if err := m.UnmarshalJSON(b); err != nil {
		return nil, fmt.Errorf("ipm: the initial model: %w", err)
	}
	return b, nil
}

// flat is a model's state as K×(D+1) running weights (the bias last in
// each row) and, for the averaged perceptron, as many averaging sums.
type flat struct {
	w, u  []float64
	steps int64
}

func flatten[T kernel.Float](d *doc[T]) flat {
	ws, bs := d.Weights, d.Biases
	var us [][]T
	var ub []T
	if a := d.Averaging; a != nil {
		ws, bs, us, ub = a.Weights, a.Biases, a.Sums, a.BSums
	}
	f := flat{steps: d.Steps}
	for k := range ws {
		for _, v := range ws[k] {
			f.w = append(f.w, float64(v))
		}
		f.w = append(f.w, float64(bs[k]))
		if us != nil {
			for _, v := range us[k] {
				f.u = append(f.u, float64(v))
			}
			f.u = append(f.u, float64(ub[k]))
		}
	}
	if f.u == nil {
		f.u = make([]float64, len(f.w)) // no averaging yet: the sums are 0
	}
	return f
}

// mixWeights returns μ for the shards' mistakes: 1/S each, or kᵢ/Σk.
func mixWeights(m Mixing, mistakes []int) []float64 {
	mu := make([]float64, len(mistakes))
	total := 0
	for _, k := range mistakes {
		total += k
	}
	for i, k := range mistakes {
		if m == Mistakes && total > 0 {
			mu[i] = float64(k) / float64(total)
		} else {
			mu[i] = 1 / float64(len(mistakes))
		}
	}
	return mu
}

// mix combines the shards' models of an epoch started from prev.
//
// The running weights are w = Σ μᵢwᵢ. The averaged perceptron's model is the
// average of the running weights over every step of every shard and epoch:
// the library keeps it as w − u/c, so the sum of the weights so far is
// P = c·w − u. A shard that continued prev (P₀, c₀) for nᵢ steps holds
// Pᵢ = P₀ + (its steps' weights); so the mixed sum is P = P₀ + Σ(Pᵢ − P₀)
// with c = c₀ + Σnᵢ, and the mixed sums are u = c·w − P. One shard's mix is
// its own state, bit for bit (it is returned as it is).
func mix[T kernel.Float](prev []byte, res []shardResult, mu []float64) ([]byte, error) {
	if len(res) == 1 {
		return res[0].Model, nil
	}
	var p doc[T]
	if err := json.Unmarshal(prev, &p); err != nil {
		return nil, fmt.Errorf("ipm: the mixed model: %w", err)
	}
	p0 := flatten(&p)
	docs := make([]doc[T], len(res))
	fs := make([]flat, len(res))
	for i, r := range res {
		if err := json.Unmarshal(r.Model, &docs[i]); err != nil {
			return nil, fmt.Errorf("ipm: shard %d's model: %w", r.Shard, err)
		}
		fs[i] = flatten(&docs[i])
		if len(fs[i].w) != len(p0.w) {
			return nil, fmt.Errorf("ipm: shard %d's model has %d weights, want %d", r.Shard, len(fs[i].w), len(p0.w))
		}
	}
	S := float64(len(res))
	out := docs[0] // kind, labels, algorithm...
	c := p0.steps
	for _, f := range fs {
		c += f.steps - p0.steps
	}
	out.Steps = c
	w := make([]float64, len(p0.w))
	u := make([]float64, len(p0.w))
	for j := range w {
		for i, f := range fs {
			w[j] += mu[i] * f.w[j]
		}
		if out.Averaging != nil {
			a := float64(c)*w[j] + (S-1)*(float64(p0.steps)*p0.w[j]-p0.u[j])
			for _, f := range fs {
				a += f.u[j] - float64(f.steps)*f.w[j]
			}
			u[j] = a
		}
	}
	D := out.Dims
	K := len(out.Weights)
	rowsOf := func(v []float64) ([][]T, []T) {
		ws, bs := make([][]T, K), make([]T, K)
		for k := range K {
			ws[k] = make([]T, D)
			for j := range D {
				ws[k][j] = T(v[k*(D+1)+j])
			}
			bs[k] = T(v[k*(D+1)+D])
		}
		return ws, bs
	}
	rw, rb := rowsOf(w)
	if out.Averaging == nil {
		out.Weights, out.Biases = rw, rb
	} else {
		us, ub := rowsOf(u)
		out.Averaging = &avg[T]{Weights: rw, Biases: rb, Sums: us, BSums: ub}
		// The served average, w − u/c in T, as the library computes it.
		ct := T(c)
		out.Weights, out.Biases = make([][]T, K), make([]T, K)
		for k := range K {
			out.Weights[k] = make([]T, D)
			for j := range D {
				out.Weights[k][j] = rw[k][j] - us[k][j]/ct
			}
			out.Biases[k] = rb[k] - ub[k]/ct
		}
	}
	return json.Marshal(out)
}
