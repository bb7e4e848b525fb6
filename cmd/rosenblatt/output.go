package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
)

// errExists reports an output file that exists and would be overwritten
// without -f.
var errExists = errors.New("file exists (use -f to overwrite)")

// errMalformed reports an input file whose content is not what the command
// expects (bad JSON, wrong kind of file, impossible values).
var errMalformed = errors.New("malformed file")

// checkWritable fails early, before any long work, if writing path would
// overwrite an existing file and force is false. writeOutput checks again
// when it creates the file.
func checkWritable(path string, force bool) error {
	if force {
		return nil
	}
	if _, err := os.Lstat(path); err == nil {
		return fmt.Errorf("%s: %w", path, errExists)
	}
	return nil
}

// writeOutput creates path and writes what write produces to it. Without
// force an existing file is never touched: the file is created exclusively
// (O_EXCL), so it also refuses a file that appeared since checkWritable.
// On a write error the partial file is removed.
func writeOutput(path string, force bool, write func(io.Writer) error) error {
	flags := os.O_WRONLY | os.O_CREATE | os.O_EXCL
	if force {
		flags = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	}
	f, err := os.OpenFile(path, flags, 0o644)
	if err != nil {
		if errors.Is(err, os.ErrExist) {
			return fmt.Errorf("%s: %w", path, errExists)
		}
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		os.Remove(path)
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		os.Remove(path)
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// lineCol returns the 1-based line and column (in bytes) of byte offset off
// in data. An offset past the end gives the position just after the last
// byte.
func lineCol(data []byte, off int64) (line, col int) {
	if off < 0 {
		off = 0
	}
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	before := data[:off]
	line = 1 + bytes.Count(before, []byte{'\n'})
	col = int(off) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return line, col
}

// decodeJSONFile decodes the JSON file name into v. A syntax or type error
// names the file with its line and column; every error wraps errMalformed
// except a failure to read the file.
func decodeJSONFile(name string, v any) error {
	data, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return fmt.Errorf("%s: %w: empty file", name, errMalformed)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(v); err != nil {
		var syn *json.SyntaxError
		var typ *json.UnmarshalTypeError
		switch {
		case errors.As(err, &syn):
			// Offset is the number of bytes read before the error, so the
			// offending byte is the one at Offset-1.
			line, col := lineCol(data, max(syn.Offset-1, 0))
			return fmt.Errorf("%s:%d:%d: %w: %v", name, line, col, errMalformed, syn)
		case errors.As(err, &typ):
			line, col := lineCol(data, max(typ.Offset-1, 0))
			return fmt.Errorf("%s:%d:%d: %w: %v", name, line, col, errMalformed, typ)
		case errors.Is(err, io.ErrUnexpectedEOF):
			line, col := lineCol(data, int64(len(data)))
			return fmt.Errorf("%s:%d:%d: %w: unexpected end of JSON input", name, line, col, errMalformed)
		}
		return fmt.Errorf("%s: %w: %v", name, errMalformed, err)
	}
	if off := dec.InputOffset(); len(bytes.TrimSpace(data[off:])) > 0 {
		off += int64(len(data[off:]) - len(bytes.TrimLeft(data[off:], " \t\r\n")))
		line, col := lineCol(data, off)
		return fmt.Errorf("%s:%d:%d: %w: data after the JSON value", name, line, col, errMalformed)
	}
	return nil
}
