package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/rosenblatt-go/rosenblatt/internal/atomicfile"
	"github.com/rosenblatt-go/rosenblatt/internal/bounded"
	"github.com/rosenblatt-go/rosenblatt/model"
)

// ErrExists reports an output file that exists and would be overwritten
// without -f.
var ErrExists = atomicfile.ErrExists

// ErrSameFile reports an output that is one of the command's input files
// (also through a symbolic or hard link): refused with or without -f.
var ErrSameFile = errors.New("the output is an input file")

// ErrChanged reports an output file that another process replaced or
// created while -f was writing it: it is left alone.
var ErrChanged = atomicfile.ErrChanged

// ErrMalformed reports an input file whose content is not what the command
// expects (bad JSON, wrong kind of file, impossible values).
var ErrMalformed = errors.New("malformed file")

// Output files.
//
// A regular file is written atomically: into a new temporary file in the
// target's directory (".NAME.rosenblatt-tmp-PID-RANDOM", created with mode
// 0644 minus the umask; see package atomicfile for its removal on SIGINT and
// SIGTERM and of those a killed process left), synced and closed, then
// moved onto the target. Without -f the
// last step is a hard link, which fails if the target appeared in the
// meantime, and the temporary name is then removed; where the file system
// has no hard links it is a rename after checking that the target is still
// absent, which leaves a short window. With -f it is a rename, which
// replaces the target in one step; the replaced file's permission bits are
// kept (not its owner, nor its other hard links, which keep the old
// content). On any error the temporary file is removed and the target is
// untouched: the command never removes a path it did not create. If the
// process is killed (SIGKILL) between the link and the removal, the
// temporary name remains next to the target, a second link to the
// complete output, until the next write of the target removes it.
//
// A symbolic link to a regular file, or to nothing, is followed: the file
// it points to is replaced, not the link.
//
// A character device (/dev/null, /dev/full, a terminal, /dev/stdout as a
// pipe or terminal) or a named pipe is no file to replace: it is opened
// and written in place, -f or not, and never removed. A block device is
// written in place too, but only with -f. A directory is an error.
//
// An output that is the same file as an input (os.SameFile) is refused,
// with or without -f, by CheckWritable before any long work and again by
// WriteOutput; streams (character devices, pipes) are exempt, as reading
// and writing a terminal is no overwrite.
//
// A path that names one of the process's own descriptors ("-" and
// /dev/stdout for 1, /dev/stderr for 2, /dev/stdin for 0, /dev/fd/N,
// /proc/self/fd/N and /proc/PID/fd/N for N), literally or through symbolic
// links, is written to that descriptor in place, whatever it has open,
// without -f: descriptors 1 and 2 through the command's standard output
// and error, any other through a duplicate of the descriptor (dup, which
// shares its offset and flags). It is never opened by name, as opening
// /proc/self/fd/1 would open the file anew (a regular file at offset 0,
// without O_APPEND: writing there would overwrite what the shell's >>
// meant to append to), and never renamed over nor removed. The same-file
// guard holds: a descriptor that has one of the inputs open as a regular
// file is refused. So is standard output itself, when a command writes
// its main output there (predict without -o, eval, train's summary, bench
// compare) and it is a regular file that is one of the inputs, as
// `rosenblatt predict m.model d.libsvm >> d.libsvm` would make it
// (Stdio.notAnInput).

// outTarget is where an output goes, as resolveOutput found it.
type outTarget struct {
	path    string      // the file to write: the given path, or where its symbolic links lead
	info    os.FileInfo // the existing file, or nil
	inPlace bool        // a device or pipe: open and write, no temporary file
}

// isStream reports whether a file of mode m is written in place without
// -f: a character device or a named pipe (or a socket, which open refuses
// with its own error).
func isStream(m fs.FileMode) bool {
	return m&fs.ModeCharDevice != 0 || m&(fs.ModeNamedPipe|fs.ModeSocket) != 0
}

// resolveOutput classifies the output path, refusing an existing file
// without force and any file that is one of inputs.
func resolveOutput(path string, force bool, inputs []string) (outTarget, error) {
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		if _, lerr := os.Lstat(path); lerr != nil {
			if errors.Is(lerr, fs.ErrNotExist) {
				// Nothing there: a new file, in a directory that must
				// exist (told now, not after the work).
				dir := filepath.Dir(path)
				if _, err := os.Stat(dir); err != nil {
					return outTarget{}, fmt.Errorf("%s: directory %s: %w", path, dir, WithoutPath(err))
				}
				return outTarget{path: path}, nil
			}
			return outTarget{}, lerr
		}
		// A dangling symbolic link: create the file it names.
		if !force {
			return outTarget{}, fmt.Errorf("%s: %w", path, ErrExists)
		}
		real, err := atomicfile.FollowLinks(path)
		return outTarget{path: real}, err
	}
	if err != nil {
		return outTarget{}, err
	}
	m := fi.Mode()
	switch {
	case m.IsDir():
		return outTarget{}, fmt.Errorf("%s: is a directory", path)
	case isStream(m):
		return outTarget{path: path, info: fi, inPlace: true}, nil
	}
	if err := notAnInput(path, fi, inputs); err != nil {
		return outTarget{}, err
	}
	if !force {
		return outTarget{}, fmt.Errorf("%s: %w", path, ErrExists)
	}
	if !m.IsRegular() {
		if m&fs.ModeDevice != 0 { // a block device, with -f
			return outTarget{path: path, info: fi, inPlace: true}, nil
		}
		return outTarget{}, fmt.Errorf("%s: not a regular file (mode %v)", path, m)
	}
	real, err := atomicfile.FollowLinks(path)
	if err != nil {
		return outTarget{}, err
	}
	// A link of /proc/self/fd names its file by a string that need not be
	// a path to it (a deleted file): replace only what path reaches.
	if rfi, err := os.Stat(real); err != nil || !os.SameFile(fi, rfi) {
		return outTarget{}, fmt.Errorf("%s: cannot tell the path of the file it links to (%s)", path, real)
	}
	return outTarget{path: real, info: fi}, nil
}

// notAnInput fails if the file fi (at path) is one of inputs. Inputs that
// cannot be examined are skipped: reading them will report why.
func notAnInput(path string, fi os.FileInfo, inputs []string) error {
	for _, in := range inputs {
		if ii, err := os.Stat(in); err == nil && os.SameFile(fi, ii) {
			return fmt.Errorf("%s: %w %s (refused even with -f)", path, ErrSameFile, in)
		}
	}
	return nil
}

// Stdio is a command's standard output and error, where an output path
// naming descriptor 1 or 2 goes. Nil writers stand for the process's own
// (os.Stdout, os.Stderr).
type Stdio struct{ Out, Err io.Writer }

// fdPath returns the descriptor that path names literally, as described
// above ("-", /dev/stdout, /dev/fd/N, ...), after lexical cleaning only.
func fdPath(path string) (int, bool) {
	if path == "-" {
		return 1, true
	}
	p := filepath.ToSlash(filepath.Clean(path))
	switch p {
	case "/dev/stdin":
		return 0, true
	case "/dev/stdout":
		return 1, true
	case "/dev/stderr":
		return 2, true
	}
	number := func(s string) bool { return s != "" && len(s) <= 9 && strings.Trim(s, "0123456789") == "" }
	pid := fmt.Sprintf("/proc/%d/", os.Getpid())
	for _, dir := range []string{"/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/", pid + "fd/", pid + "task/"} {
		rest, ok := strings.CutPrefix(p, dir)
		if dir == pid+"task/" { // /proc/PID/task/TID/fd/N
			tid, fd, _ := strings.Cut(rest, "/fd/")
			ok, rest = ok && number(tid), fd
		}
		if ok && number(rest) {
			n, err := strconv.Atoi(rest)
			return n, err == nil
		}
	}
	return 0, false
}

// DescriptorOf returns the descriptor that path names, literally or at
// any step of its chain of symbolic links, each read as written (see
// fdPath), never through the links in /proc/self/fd themselves (which
// lead to the files); a directory on the way may be a link (fds/1, with
// fds a link to /dev/fd).
func DescriptorOf(path string) (int, bool) {
	for range 255 {
		if fd, ok := fdPath(path); ok {
			return fd, true
		}
		if dir, err := filepath.EvalSymlinks(filepath.Dir(path)); err == nil {
			if fd, ok := fdPath(filepath.Join(dir, filepath.Base(path))); ok {
				return fd, true
			}
		}
		fi, err := os.Lstat(path)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			return 0, false
		}
		to, err := os.Readlink(path)
		if err != nil {
			return 0, false
		}
		if !filepath.IsAbs(to) {
			to = filepath.Join(filepath.Dir(path), to)
		}
		path = to
	}
	return 0, false // a loop: resolveOutput reports it
}

// statOf returns what w writes to, if it is a file (through ErrWriter).
func statOf(w io.Writer) (os.FileInfo, error) {
	for {
		switch v := w.(type) {
		case *ErrWriter:
			w = v.W
			continue
		case interface{ Stat() (os.FileInfo, error) }:
			return v.Stat()
		}
		return nil, nil
	}
}

// stdout returns s's standard output, or the process's.
func (s Stdio) Stdout() io.Writer {
	if s.Out == nil {
		return os.Stdout
	}
	return s.Out
}

// stderr returns s's standard error, or the process's.
func (s Stdio) Stderr() io.Writer {
	if s.Err == nil {
		return os.Stderr
	}
	return s.Err
}

// descriptor returns a writer of descriptor fd, what it has open (nil if
// not a file: a writer of the tests) and a function to call when done.
func (s Stdio) descriptor(path string, fd int) (io.Writer, os.FileInfo, func() error, error) {
	nop := func() error { return nil }
	if fd == 1 || fd == 2 {
		w := s.Stdout()
		if fd == 2 {
			w = s.Stderr()
		}
		fi, err := statOf(w)
		return w, fi, nop, err
	}
	f, err := dupFile(path, fd)
	if err != nil {
		return nil, nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, nil, err
	}
	return f, fi, f.Close, nil
}

// openDescriptor returns a writer of the descriptor path names, checked
// against inputs, and a function to call when done.
func (s Stdio) openDescriptor(path string, fd int, inputs []string) (io.Writer, func() error, error) {
	w, fi, done, err := s.descriptor(path, fd)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, WithoutPath(err))
	}
	if fi != nil && fi.Mode().IsRegular() {
		if err := notAnInput(path, fi, inputs); err != nil {
			done()
			return nil, nil, err
		}
	}
	return w, done, nil
}

// notAnInput refuses standard output that is a regular file and one of
// inputs, for a command that writes its main output there.
func (s Stdio) NotAnInput(inputs ...string) error {
	fi, err := statOf(s.Stdout())
	if err != nil || fi == nil || !fi.Mode().IsRegular() {
		return nil // a write error, if any, is reported when writing
	}
	return notAnInput("standard output", fi, inputs)
}

// CheckWritable fails early, before any long work, if writing path would
// overwrite an existing file without force, or write over one of inputs.
// WriteOutput checks again when it writes.
func (s Stdio) CheckWritable(path string, force bool, inputs ...string) error {
	if fd, ok := DescriptorOf(path); ok {
		_, done, err := s.openDescriptor(path, fd, inputs)
		if err == nil {
			done()
		}
		return err
	}
	_, err := resolveOutput(path, force, inputs)
	return err
}

// CheckWritable is Stdio.CheckWritable for the process's own descriptors.
func CheckWritable(path string, force bool, inputs ...string) error {
	return Stdio{}.CheckWritable(path, force, inputs...)
}

// WriteOutput is Stdio.WriteOutput for the process's own descriptors.
func WriteOutput(path string, force bool, inputs []string, write func(io.Writer) error) error {
	return Stdio{}.WriteOutput(path, force, inputs, write)
}

// WriteOutput writes what write produces to path, as described above:
// atomically for a file, in place for a device, pipe or descriptor; never
// over an existing file without force, never over one of inputs. Errors
// name path.
func (s Stdio) WriteOutput(path string, force bool, inputs []string, write func(io.Writer) error) error {
	if fd, ok := DescriptorOf(path); ok {
		w, done, err := s.openDescriptor(path, fd, inputs)
		if err != nil {
			return err
		}
		err = write(w)
		if cerr := done(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("%s: %w", path, WithoutPath(err))
		}
		return nil
	}
	t, err := resolveOutput(path, force, inputs)
	if err != nil {
		return err
	}
	if t.inPlace {
		err = writeInPlace(path, write)
	} else {
		err = atomicfile.Target{Path: t.path, Prev: t.info, Replace: force, OnSignal: true}.Write(write)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", path, WithoutPath(err))
	}
	return nil
}

// writeInPlace opens an existing device or pipe and writes to it: no
// O_CREATE, no O_TRUNC, and nothing is removed on error.
func writeInPlace(path string, write func(io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// WithoutPath drops the file name from an *fs.PathError (the temporary
// file's, or the one the caller names anyway), keeping the operation and
// the cause, which errors.Is still finds.
func WithoutPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && err == error(pe) {
		return fmt.Errorf("%s: %w", pe.Op, pe.Err)
	}
	return err
}

// ErrWriter passes writes on to w until one fails, then fails every later
// one with the same error, which err keeps: a command writes its report
// with fmt.Fprintf and run checks err once at the end.
type ErrWriter struct {
	W   io.Writer
	Err error
}

func (e *ErrWriter) Write(p []byte) (int, error) {
	if e.Err != nil {
		return 0, e.Err
	}
	n, err := e.W.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	e.Err = err
	return n, err
}

// LineCol returns the 1-based line and column (in bytes) of byte offset off
// in data. An offset past the end gives the position just after the last
// byte.
func LineCol(data []byte, off int64) (line, col int) {
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

// ErrTooLarge reports an input file larger than the command reads: a JSON
// model or bench report beyond its limit, or a file that goes on after
// the size its header gives.
var ErrTooLarge = model.ErrTooLarge

// The limit of model files, which are read whole (a variable so that tests
// can lower it).
var (
	// MaxModel bounds a JSON model, and a binary model read from a pipe or
	// device: 1 GiB holds some 50 million values printed in full
	// precision, and a binary model of 130 million float64 values. A
	// binary model in a regular file is bounded by the file's size
	// instead: its header must imply exactly that size.
	MaxModel int64 = 1 << 30
)

// readLimited reads all of r (the file name), which must not exceed limit
// bytes: otherwise it stops after limit+1 bytes with an error wrapping
// ErrTooLarge. fi, if the file's, lets a regular file be refused from its
// size before anything is read, and read into one slice of that size.
// Other input (a pipe, a device) is gathered in chunks that grow with
// what arrives: about limit bytes allocated before it is refused, about
// twice its size if it is within the limit.
//
// check, if not nil, sees the bytes as they arrive (the first 64 KiB are
// read before the rest) and stops the reading with an error, which
// readLimited returns after the file name: a file can be refused from its
// first bytes, however long it is.
func readLimited(name string, r io.Reader, fi os.FileInfo, limit int64, check func([]byte) error) ([]byte, error) {
	tooLarge := func(what string) error {
		return fmt.Errorf("%s: %w: %s, more than the %s this command reads", name, ErrTooLarge, what, bounded.FormatBytes(limit))
	}
	regular := fi != nil && fi.Mode().IsRegular()
	if regular && fi.Size() > limit {
		return nil, tooLarge(bounded.FormatBytes(fi.Size()))
	}
	var c bounded.Chunks
	err := c.Fill(r, min(limit+1, bounded.MinChunk), check)
	if err == nil {
		if regular {
			c.Reserve(fi.Size() + 1) // +1: room to see the end
		}
		err = c.Fill(r, limit+1, check)
	}
	switch {
	case err == nil || err == io.EOF:
	case errors.Is(err, ErrMalformed): // from check
		return nil, fmt.Errorf("%s:%w", name, err)
	default:
		return nil, fmt.Errorf("%s: %w", name, WithoutPath(err))
	}
	if c.Len() > limit {
		return nil, tooLarge("longer")
	}
	return c.Bytes(), nil
}

// jsonStart checks the first bytes of a JSON file as they arrive: white
// space, then '{', then, if key is set, white space and the name "key" of
// the object's first member, written without escapes (as this command
// writes its files). Its errors start with the line and column of the
// offending byte and wrap ErrMalformed; what names the kind of file
// expected ("a rosenblatt bench report").
type jsonStart struct {
	key, what string
	state     int // what comes next: 0 '{', 1 the key's quote, 2 the key's byte m, 3 nothing (done)
	m         int
	line, col int // of the last byte seen; line 0 before the first
}

// feed checks the next bytes of the file.
func (j *jsonStart) feed(p []byte) error {
	if j.line == 0 {
		j.line = 1
	}
	for _, c := range p {
		if j.state == 3 {
			return nil
		}
		j.col++
		if j.state < 2 && isJSONSpace(c) {
			if c == '\n' {
				j.line, j.col = j.line+1, 0
			}
			continue
		}
		ok := false
		switch j.state {
		case 0:
			ok = c == '{'
		case 1:
			ok = c == '"'
		case 2:
			ok = c == (j.key + `"`)[j.m]
			j.m++
		}
		if !ok {
			want := "{"
			if j.key != "" {
				want = `{"` + j.key + `"`
			}
			return fmt.Errorf("%d:%d: %w: not %s (unexpected %q: one begins with %s)", j.line, j.col, ErrMalformed, j.what, c, want)
		}
		switch {
		case j.state == 0 && j.key == "":
			j.state = 3
		case j.state < 2:
			j.state++
		case j.m == len(j.key)+1:
			j.state = 3
		}
	}
	return nil
}

// DecodeJSONFile decodes the JSON file name, of at most limit bytes, into
// v. Its first bytes are checked as they arrive (see readLimited and
// jsonStart, with key and what): a file can be refused from its first
// bytes, however long. A
// syntax or type error names the file with its line and column; every
// error wraps ErrMalformed except a failure to read the file and one
// wrapping ErrTooLarge.
func DecodeJSONFile(name string, limit int64, key, what string, v any) error {
	start := &jsonStart{key: key, what: what}
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if fi.IsDir() {
		return fmt.Errorf("%s: is a directory", name)
	}
	data, err := readLimited(name, f, fi, limit, start.feed)
	if err != nil {
		return err
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return fmt.Errorf("%s: %w: empty file", name, ErrMalformed)
	}
	// json.Unmarshal reads data in place (a json.Decoder would copy it
	// into a buffer of its own, doubling it as it grows), and checks the
	// whole of it before decoding: a syntax error comes first.
	if err := json.Unmarshal(data, v); err != nil {
		var syn *json.SyntaxError
		var typ *json.UnmarshalTypeError
		switch {
		case errors.As(err, &syn) && syn.Offset >= int64(len(data)) && strings.HasPrefix(syn.Error(), "unexpected end"):
			line, col := LineCol(data, int64(len(data)))
			return fmt.Errorf("%s:%d:%d: %w: unexpected end of JSON input", name, line, col, ErrMalformed)
		case errors.As(err, &syn) && strings.HasSuffix(syn.Error(), "after top-level value"):
			line, col := LineCol(data, max(syn.Offset-1, 0))
			return fmt.Errorf("%s:%d:%d: %w: data after the JSON value", name, line, col, ErrMalformed)
		case errors.As(err, &syn):
			// Offset is the number of bytes read before the error, so the
			// offending byte is the one at Offset-1.
			line, col := LineCol(data, max(syn.Offset-1, 0))
			return fmt.Errorf("%s:%d:%d: %w: %v", name, line, col, ErrMalformed, syn)
		case errors.As(err, &typ):
			line, col := LineCol(data, max(typ.Offset-1, 0))
			return fmt.Errorf("%s:%d:%d: %w: %v", name, line, col, ErrMalformed, typ)
		}
		return fmt.Errorf("%s: %w: %v", name, ErrMalformed, err)
	}
	return nil
}

// isJSONSpace reports whether c is white space to JSON.
func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
