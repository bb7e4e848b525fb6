package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
)

// The parts of a `rosenblatt bench -json` report (schema rosenblatt-bench/2,
// written by cmd/rosenblatt) that the plot draws. The JSON names are the
// contract; fields the plot does not draw are not read.

const schema = "rosenblatt-bench/2"

// maxReport bounds the bytes read from a report, as rosenblatt bench
// compare does (a full bench run writes under 100 KiB).
const maxReport = 64 << 20

// errMalformed marks a report the plot cannot draw.
var errMalformed = errors.New("not a plottable rosenblatt bench report")

type report struct {
	Schema  string `json:"schema"`
	Quick   bool   `json:"quick"`
	Machine struct {
		Brand        string `json:"brand"`
		ActiveKernel string `json:"active_kernel"`
		Emulated     bool   `json:"emulated"`
	} `json:"machine"`
	Roofline *roofline `json:"roofline"`
	Results  []result  `json:"results"`
}

type roofline struct {
	ClockHz float64    `json:"clock_hz"`
	Levels  []level    `json:"levels"`
	Impls   []implRoof `json:"impls"`
}

// level is one working set of the roofline: L1, L2, L3 or DRAM.
type level struct {
	Name  string `json:"name"`
	Bytes int64  `json:"bytes"`
}

type implRoof struct {
	Impl       string  `json:"impl"`
	ISA        string  `json:"isa"`
	VectorBits int     `json:"vector_bits"`
	Peak32     float64 `json:"peak_gflops_float32"`
	Peak64     float64 `json:"peak_gflops_float64"`
	AllCores   int     `json:"all_cores"`
	PeakAll32  float64 `json:"peak_gflops_float32_all_cores"`
	Read       []struct {
		Level string  `json:"level"`
		GBps  float64 `json:"gbps"`
	} `json:"read_gbps"`
}

// read returns the read bandwidth at level in GB/s, 0 if unmeasured.
func (im *implRoof) read(level string) float64 {
	for _, r := range im.Read {
		if r.Level == level {
			return r.GBps
		}
	}
	return 0
}

type result struct {
	Case      string  `json:"case"`
	Kernel    string  `json:"kernel"`
	Type      string  `json:"type"`
	Path      string  `json:"path"`
	Impl      string  `json:"impl"`
	Threads   int     `json:"threads"`
	GFLOPS    float64 `json:"gflops"`
	Intensity float64 `json:"flops_per_byte"`
	RoofLevel string  `json:"roof_level"`
}

// readReport reads and checks the report in file name. Every error names
// the file; content errors wrap errMalformed.
func readReport(name string) (*report, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxReport+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(data) > maxReport {
		return nil, fmt.Errorf("%s: %w: larger than %d MiB", name, errMalformed, maxReport>>20)
	}
	var rep report
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&rep); err != nil {
		return nil, fmt.Errorf("%s: %w: %v", name, errMalformed, err)
	}
	if err := rep.check(); err != nil {
		return nil, fmt.Errorf("%s: %w: %v", name, errMalformed, err)
	}
	return &rep, nil
}

// check refuses what cannot be drawn: another schema, no measured
// roofline (schema 1 reports had none), figures that are not finite and
// positive.
func (r *report) check() error {
	if r.Schema != schema {
		return fmt.Errorf("schema %q, the plot reads %q (run rosenblatt bench -json again)", r.Schema, schema)
	}
	if r.Roofline == nil || len(r.Roofline.Impls) == 0 || len(r.Roofline.Levels) == 0 {
		return fmt.Errorf("no measured roofline")
	}
	bad := func(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) || v < 0 }
	for _, im := range r.Roofline.Impls {
		if bad(im.Peak32) || bad(im.Peak64) || bad(im.PeakAll32) {
			return fmt.Errorf("roofline of %s: a peak is not a finite value ≥ 0", im.Impl)
		}
		for _, rd := range im.Read {
			if bad(rd.GBps) {
				return fmt.Errorf("roofline of %s: %s read bandwidth %v", im.Impl, rd.Level, rd.GBps)
			}
		}
	}
	for i, c := range r.Results {
		if bad(c.GFLOPS) || bad(c.Intensity) {
			return fmt.Errorf("result %d (%s on %s): gflops %v, flops_per_byte %v", i+1, c.Case, c.Path, c.GFLOPS, c.Intensity)
		}
	}
	return nil
}
