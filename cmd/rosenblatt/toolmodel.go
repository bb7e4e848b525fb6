package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/rosenblatt-go/rosenblatt/interop"
	"github.com/rosenblatt-go/rosenblatt/model"
)

// Model files of LIBSVM (svm-train) and LIBLINEAR (liblinear-train):
// loadModel reads them as it reads ours, by content, through package
// model (package interop parses them), into float64 classifiers.

// isToolModel reports whether r begins a LIBSVM or LIBLINEAR model file.
func isToolModel(r *bufio.Reader) bool {
	head, _ := r.Peek(len(interop.LIBLINEARPrefix))
	return bytes.HasPrefix(head, []byte(interop.LIBSVMPrefix)) || bytes.HasPrefix(head, []byte(interop.LIBLINEARPrefix))
}

// readToolModel reads a LIBSVM or LIBLINEAR model file, at most maxModel
// bytes.
func readToolModel(path string, r io.Reader, fi os.FileInfo) ([]byte, error) {
	return readLimited(path, r, fi, maxModel, nil)
}

// parseToolModel decodes a LIBSVM or LIBLINEAR model file into lm; ok is
// false if data is neither.
func parseToolModel(lm *loadedModel, path string, data []byte) (ok bool, err error) {
	if !isToolModel(bufio.NewReader(bytes.NewReader(data))) {
		return false, nil
	}
	m, err := model.Unmarshal(data)
	if err != nil {
		if errors.Is(err, model.ErrCorrupt) {
			err = fmt.Errorf("%w: %w", errMalformed, err)
		}
		return true, fmt.Errorf("%s: %w", path, err)
	}
	c, err := model.As[float64](m)
	if err != nil {
		return true, fmt.Errorf("%s: %w", path, err)
	}
	lm.m64, lm.desc = c, m.String()
	return true, nil
}
