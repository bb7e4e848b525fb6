package perceptron

// Plain float64 reference implementations of the algorithms, written from
// their textbook definitions, one sample and one coordinate at a time.

type refResult struct {
	w        []float64 // rows×d
	b        []float64
	mistakes []int // per epoch
	loss     []float64
	steps    int
	// voted
	vw [][]float64
	vb []float64
	vc []int64
}

// refLinear runs Online (bs = 0), Batch (bs = n, no order) or MiniBatch
// (bs = B) for one binary problem with labels y ∈ {±1}.
func refLinear(X []float64, y []int, d int, ords [][]int, eta float64, bs int, tau float64, bias, stopClean bool) refResult {
	n := len(y)
	r := refResult{w: make([]float64, d), b: make([]float64, 1)}
	for _, ord := range ords {
		if ord == nil {
			ord = make([]int, n)
			for i := range ord {
				ord[i] = i
			}
		}
		mis, loss := 0, 0.0
		step := bs
		if step == 0 {
			step = 1
		}
		for lo := 0; lo < n; lo += step {
			hi := min(lo+step, n)
			// Margins with the batch's starting weights.
			ms := make([]float64, hi-lo)
			for j := lo; j < hi; j++ {
				i := ord[j]
				ms[j-lo] = float64(y[i]) * (dot(X[i*d:(i+1)*d], r.w) + r.b[0])
			}
			c := eta
			if tau > 0 {
				c = tau / float64(step) // τ/B, also for a short last batch
			}
			for j := lo; j < hi; j++ {
				i := ord[j]
				if ms[j-lo] > 0 {
					continue
				}
				mis++
				loss -= ms[j-lo]
				a := c * float64(y[i])
				for k := range d {
					r.w[k] += a * X[i*d+k]
				}
				if bias {
					r.b[0] += a
				}
			}
		}
		r.steps += n
		r.mistakes = append(r.mistakes, mis)
		r.loss = append(r.loss, loss/float64(n))
		if stopClean && mis == 0 {
			break
		}
	}
	return r
}

// refAveraged runs the online perceptron and returns the plain average of
// the weight vectors after every sample.
func refAveraged(X []float64, y []int, d int, ords [][]int, eta float64, bias bool) refResult {
	n := len(y)
	w, b := make([]float64, d), 0.0
	sum, sumB := make([]float64, d), 0.0
	r := refResult{}
	for _, ord := range ords {
		mis := 0
		for _, i := range ord {
			x := X[i*d : (i+1)*d]
			if float64(y[i])*(dot(x, w)+b) <= 0 {
				mis++
				for k := range d {
					w[k] += eta * float64(y[i]) * x[k]
				}
				if bias {
					b += eta * float64(y[i])
				}
			}
			for k := range d {
				sum[k] += w[k]
			}
			sumB += b
			r.steps++
		}
		r.mistakes = append(r.mistakes, mis)
		if mis == 0 {
			break
		}
	}
	_ = n
	r.w = make([]float64, d)
	for k := range d {
		r.w[k] = sum[k] / float64(r.steps)
	}
	r.b = []float64{sumB / float64(r.steps)}
	return r
}

// refVoted is Freund and Schapire's voted perceptron, as in their paper:
// k = 0, v₁ = 0, c₁ = 0; on a correct prediction cₖ++, on a mistake
// vₖ₊₁ = vₖ + y·x, cₖ₊₁ = 1, k++. Vectors with c = 0 are dropped.
func refVoted(X []float64, y []int, d int, ords [][]int, eta float64, bias bool) refResult {
	vs := [][]float64{make([]float64, d)}
	bs := []float64{0}
	cs := []int64{0}
	r := refResult{}
	for _, ord := range ords {
		mis := 0
		for _, i := range ord {
			x := X[i*d : (i+1)*d]
			k := len(vs) - 1
			if float64(y[i])*(dot(x, vs[k])+bs[k]) > 0 {
				cs[k]++
				continue
			}
			mis++
			nv := append([]float64(nil), vs[k]...)
			for j := range d {
				nv[j] += eta * float64(y[i]) * x[j]
			}
			nb := bs[k]
			if bias {
				nb += eta * float64(y[i])
			}
			vs, bs, cs = append(vs, nv), append(bs, nb), append(cs, 1)
		}
		r.mistakes = append(r.mistakes, mis)
		if mis == 0 {
			break
		}
	}
	for k := range vs {
		if cs[k] > 0 {
			r.vw = append(r.vw, vs[k])
			r.vb = append(r.vb, bs[k])
			r.vc = append(r.vc, cs[k])
		}
	}
	return r
}

// refArgmax is the multiclass perceptron (cls are class indices), plain or
// averaged over the weights after every sample.
func refArgmax(X []float64, cls []int, K, d int, ords [][]int, eta float64, bias, averaged bool) refResult {
	W, B := make([]float64, K*d), make([]float64, K)
	SW, SB := make([]float64, K*d), make([]float64, K)
	r := refResult{}
	for _, ord := range ords {
		mis := 0
		for _, i := range ord {
			x := X[i*d : (i+1)*d]
			yc := cls[i]
			sy := dot(x, W[yc*d:(yc+1)*d]) + B[yc]
			p, sp := -1, 0.0
			for c := range K {
				if c == yc {
					continue
				}
				if s := dot(x, W[c*d:(c+1)*d]) + B[c]; p < 0 || s > sp {
					p, sp = c, s
				}
			}
			if sy <= sp {
				mis++
				for j := range d {
					W[yc*d+j] += eta * x[j]
					W[p*d+j] -= eta * x[j]
				}
				if bias {
					B[yc] += eta
					B[p] -= eta
				}
			}
			for j := range W {
				SW[j] += W[j]
			}
			for c := range B {
				SB[c] += B[c]
			}
			r.steps++
		}
		r.mistakes = append(r.mistakes, mis)
		if mis == 0 {
			break
		}
	}
	r.w, r.b = W, B
	if averaged {
		for j := range SW {
			r.w[j] = SW[j] / float64(r.steps)
		}
		for c := range SB {
			r.b[c] = SB[c] / float64(r.steps)
		}
	}
	return r
}

// svmOptimum solves min λ/2·‖(w,b)‖² + (1/N)·Σ max(0, 1 − y(w·x + b)) to high
// accuracy by dual coordinate descent (Hsieh et al. 2008) on the equivalent
// ½‖w̃‖² + C·Σ hinge, C = 1/(λN), with x̃ = (x, 1) when bias is on. It
// returns the optimal primal objective.
func svmOptimum(X []float64, y []int, d int, lambda float64, bias bool) float64 {
	n := len(y)
	C := 1 / (lambda * float64(n))
	D := d
	if bias {
		D++
	}
	xt := func(i int) []float64 {
		x := make([]float64, D)
		copy(x, X[i*d:(i+1)*d])
		if bias {
			x[d] = 1
		}
		return x
	}
	w := make([]float64, D)
	alpha := make([]float64, n)
	q := make([]float64, n)
	for i := range n {
		x := xt(i)
		q[i] = dot(x, x)
	}
	for range 5000 {
		maxPG := 0.0
		for i := range n {
			x := xt(i)
			yi := float64(y[i])
			G := yi*dot(w, x) - 1
			pg := G
			if alpha[i] == 0 {
				pg = min(G, 0)
			} else if alpha[i] == C {
				pg = max(G, 0)
			}
			maxPG = max(maxPG, abs(pg))
			if pg != 0 && q[i] > 0 {
				old := alpha[i]
				alpha[i] = min(max(old-G/q[i], 0), C)
				for j := range D {
					w[j] += (alpha[i] - old) * yi * x[j]
				}
			}
		}
		if maxPG < 1e-10 {
			break
		}
	}
	return svmPrimal(X, y, d, w[:d], func() float64 {
		if bias {
			return w[d]
		}
		return 0
	}(), lambda)
}

func svmPrimal(X []float64, y []int, d int, w []float64, b, lambda float64) float64 {
	n := len(y)
	h := 0.0
	for i := range n {
		h += max(0, 1-float64(y[i])*(dot(X[i*d:(i+1)*d], w)+b))
	}
	return lambda/2*(dot(w, w)+b*b) + h/float64(n)
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
