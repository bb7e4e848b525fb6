package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/rosenblatt-go/rosenblatt/server/oippb"
)

// TestPrometheusScrapes runs a Prometheus server (Debian's prometheus)
// that scrapes the command's /metrics every 200 ms, sends gRPC and REST
// requests, and asks Prometheus's HTTP API for the series it scraped: the
// target up, the requests counted by protocol and code, the model's
// version.
func TestPrometheusScrapes(t *testing.T) {
	prom, err := exec.LookPath("prometheus")
	need(t, err == nil, "prometheus (apt-get install prometheus)")

	st := start(t, "perceptron-ovr-f32.model", "iris")
	g := st.client(t)
	ctx := context.Background()
	d := int64(4)
	if md, err := g.ModelMetadata(ctx, &oippb.ModelMetadataRequest{Name: "iris"}); err == nil {
		d = md.Inputs[0].Shape[1]
	} else {
		t.Fatal(err)
	}
	in := []*oippb.ModelInferRequest_InferInputTensor{{Name: "input", Datatype: "FP64", Shape: []int64{1, d},
		Contents: &oippb.InferTensorContents{Fp64Contents: make([]float64, d)}}}
	for range 3 {
		if _, err := g.ModelInfer(ctx, &oippb.ModelInferRequest{ModelName: "iris", Inputs: in}); err != nil {
			t.Fatal(err)
		}
	}
	g.ModelInfer(ctx, &oippb.ModelInferRequest{ModelName: "iris"}) // refused: no input

	dir := t.TempDir()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	promAddr := ln.Addr().String()
	ln.Close()
	config := fmt.Sprintf(`global:
  scrape_interval: 200ms
  scrape_timeout: 200ms
scrape_configs:
  - job_name: rosenblatt
    static_configs:
      - targets: ['%s']
`, st.HTTP.String())
	cfg := filepath.Join(dir, "prometheus.yml")
	if err := os.WriteFile(cfg, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(prom, "--config.file="+cfg, "--storage.tsdb.path="+filepath.Join(dir, "data"),
		"--web.listen-address="+promAddr, "--log.level=warn")
	log := new(syncBuffer)
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})

	// query returns the value of the one series an instant query selects,
	// or -1 if it selects none (yet).
	query := func(q string) float64 {
		c := &httpClient
		resp, err := c.Get("http://" + promAddr + "/api/v1/query?query=" + url.QueryEscape(q))
		if err != nil {
			return -1
		}
		defer resp.Body.Close()
		var r struct {
			Status string
			Data   struct {
				Result []struct {
					Value [2]any
				}
			}
		}
		if json.NewDecoder(resp.Body).Decode(&r) != nil || r.Status != "success" || len(r.Data.Result) != 1 {
			return -1
		}
		s, _ := r.Data.Result[0].Value[1].(string)
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return -1
		}
		return v
	}
	version := st.version(t)
	checks := []struct {
		q    string
		want float64
	}{
		{`up{job="rosenblatt"}`, 1},
		{`rosenblatt_requests_total{protocol="oip-grpc",code="200",model="iris"}`, 3},
		{`rosenblatt_requests_total{protocol="oip-grpc",code="400",model="iris"}`, 1},
		{`rosenblatt_request_duration_seconds_count{protocol="oip-grpc",model="iris"}`, 4},
		{`rosenblatt_model_info{model="iris",version="` + version + `"}`, 1},
		{`rosenblatt_model_reloads_total{model="iris",result="loaded"}`, 1},
	}
	deadline := time.Now().Add(60 * time.Second)
	for _, c := range checks {
		got := query(c.q)
		for got != c.want && time.Now().Before(deadline) {
			time.Sleep(200 * time.Millisecond)
			got = query(c.q)
		}
		if got != c.want {
			t.Errorf("Prometheus: %s = %v, want %v\nprometheus log:\n%s", c.q, got, c.want, log)
		}
	}
}
