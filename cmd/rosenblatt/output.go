package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/rosenblatt-go/rosenblatt/internal/bounded"
	"github.com/rosenblatt-go/rosenblatt/model"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// errExists reports an output file that exists and would be overwritten
// without -f.
var errExists = errors.New("file exists (use -f to overwrite)")

// errSameFile reports an output that is one of the command's input files
// (also through a symbolic or hard link): refused with or without -f.
var errSameFile = errors.New("the output is an input file")

// errChanged reports an output file that another process replaced or
// created while -f was writing it: it is left alone.
var errChanged = errors.New("the file changed while the output was written; nothing was replaced")

// errMalformed reports an input file whose content is not what the command
// expects (bad JSON, wrong kind of file, impossible values).
var errMalformed = errors.New("malformed file")

// Output files.
//
// A regular file is written atomically: into a new temporary file in the
// target's directory (".NAME.rosenblatt-tmp-PID-RANDOM", created with mode
// 0644 minus the umask; see tempfiles.go for its removal on SIGINT and
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
// with or without -f, by checkWritable before any long work and again by
// writeOutput; streams (character devices, pipes) are exempt, as reading
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
// (stdio.notAnInput).

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
					return outTarget{}, fmt.Errorf("%s: directory %s: %w", path, dir, withoutPath(err))
				}
				return outTarget{path: path}, nil
			}
			return outTarget{}, lerr
		}
		// A dangling symbolic link: create the file it names.
		if !force {
			return outTarget{}, fmt.Errorf("%s: %w", path, errExists)
		}
		real, err := followLinks(path)
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
		return outTarget{}, fmt.Errorf("%s: %w", path, errExists)
	}
	if !m.IsRegular() {
		if m&fs.ModeDevice != 0 { // a block device, with -f
			return outTarget{path: path, info: fi, inPlace: true}, nil
		}
		return outTarget{}, fmt.Errorf("%s: not a regular file (mode %v)", path, m)
	}
	real, err := followLinks(path)
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
			return fmt.Errorf("%s: %w %s (refused even with -f)", path, errSameFile, in)
		}
	}
	return nil
}

// followLinks returns the path that path's chain of symbolic links ends
// at, which need not exist. Directories on the way are left to the kernel.
func followLinks(path string) (string, error) {
	for range 255 {
		fi, err := os.Lstat(path)
		if errors.Is(err, fs.ErrNotExist) || err == nil && fi.Mode()&fs.ModeSymlink == 0 {
			return path, nil
		}
		if err != nil {
			return "", err
		}
		to, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(to) {
			to = filepath.Join(filepath.Dir(path), to)
		}
		path = to
	}
	return "", fmt.Errorf("%s: too many levels of symbolic links", path)
}

// stdio is a command's standard output and error, where an output path
// naming descriptor 1 or 2 goes. Nil writers stand for the process's own
// (os.Stdout, os.Stderr).
type stdio struct{ out, err io.Writer }

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

// descriptorOf returns the descriptor that path names, literally or at
// any step of its chain of symbolic links, each read as written (see
// fdPath), never through the links in /proc/self/fd themselves (which
// lead to the files); a directory on the way may be a link (fds/1, with
// fds a link to /dev/fd).
func descriptorOf(path string) (int, bool) {
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

// statOf returns what w writes to, if it is a file (through errWriter).
func statOf(w io.Writer) (os.FileInfo, error) {
	for {
		switch v := w.(type) {
		case *errWriter:
			w = v.w
			continue
		case interface{ Stat() (os.FileInfo, error) }:
			return v.Stat()
		}
		return nil, nil
	}
}

// stdout returns s's standard output, or the process's.
func (s stdio) stdout() io.Writer {
	if s.out == nil {
		return os.Stdout
	}
	return s.out
}

// stderr returns s's standard error, or the process's.
func (s stdio) stderr() io.Writer {
	if s.err == nil {
		return os.Stderr
	}
	return s.err
}

// descriptor returns a writer of descriptor fd, what it has open (nil if
// not a file: a writer of the tests) and a function to call when done.
func (s stdio) descriptor(path string, fd int) (io.Writer, os.FileInfo, func() error, error) {
	nop := func() error { return nil }
	if fd == 1 || fd == 2 {
		w := s.stdout()
		if fd == 2 {
			w = s.stderr()
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
func (s stdio) openDescriptor(path string, fd int, inputs []string) (io.Writer, func() error, error) {
	w, fi, done, err := s.descriptor(path, fd)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, withoutPath(err))
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
func (s stdio) notAnInput(inputs ...string) error {
	fi, err := statOf(s.stdout())
	if err != nil || fi == nil || !fi.Mode().IsRegular() {
		return nil // a write error, if any, is reported when writing
	}
	return notAnInput("standard output", fi, inputs)
}

// checkWritable fails early, before any long work, if writing path would
// overwrite an existing file without force, or write over one of inputs.
// writeOutput checks again when it writes.
func (s stdio) checkWritable(path string, force bool, inputs ...string) error {
	if fd, ok := descriptorOf(path); ok {
		_, done, err := s.openDescriptor(path, fd, inputs)
		if err == nil {
			done()
		}
		return err
	}
	_, err := resolveOutput(path, force, inputs)
	return err
}

// checkWritable is stdio.checkWritable for the process's own descriptors.
func checkWritable(path string, force bool, inputs ...string) error {
	return stdio{}.checkWritable(path, force, inputs...)
}

// writeOutput is stdio.writeOutput for the process's own descriptors.
func writeOutput(path string, force bool, inputs []string, write func(io.Writer) error) error {
	return stdio{}.writeOutput(path, force, inputs, write)
}

// writeOutput writes what write produces to path, as described above:
// atomically for a file, in place for a device, pipe or descriptor; never
// over an existing file without force, never over one of inputs. Errors
// name path.
func (s stdio) writeOutput(path string, force bool, inputs []string, write func(io.Writer) error) error {
	if fd, ok := descriptorOf(path); ok {
		w, done, err := s.openDescriptor(path, fd, inputs)
		if err != nil {
			return err
		}
		err = write(w)
		if cerr := done(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("%s: %w", path, withoutPath(err))
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
		err = writeAtomic(t, force, write)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", path, withoutPath(err))
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

// writeAtomic writes a temporary file next to t.path and moves it there.
func writeAtomic(t outTarget, force bool, write func(io.Writer) error) error {
	f, tmp, err := createTemp(t.path)
	if err != nil {
		return err
	}
	done := false
	defer func() {
		if !done {
			f.Close()      // a second Close is harmless
			os.Remove(tmp) // ours: created exclusively above
		}
		unregisterTemp(tmp)
	}()
	var w io.Writer = f
	if testWriteHook != nil {
		w = &hookWriter{f, tmp}
	}
	if err := write(w); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if t.info != nil {
		if err := os.Chmod(tmp, t.info.Mode().Perm()); err != nil {
			return err
		}
	}
	switch {
	case !force:
		if err := linkNew(tmp, t.path); err != nil {
			return err
		}
		done = true
		os.Remove(tmp) // the output is also at t.path now
	default:
		// Replace only what resolveOutput examined: a file that appeared
		// or was swapped since then is not ours to remove.
		now, err := os.Lstat(t.path)
		switch {
		case t.info == nil && err == nil, t.info != nil && (err != nil || !os.SameFile(t.info, now)):
			return errChanged
		case err != nil && !errors.Is(err, fs.ErrNotExist):
			return err
		}
		if err := os.Rename(tmp, t.path); err != nil {
			return err
		}
		done = true
	}
	syncDir(filepath.Dir(t.path))
	return nil
}

// testWriteHook, if set (by a test, in the process it runs as the
// command), is called with the temporary file's name at the first write to
// it.
var testWriteHook func(tmp string)

// hookWriter calls testWriteHook at its first write.
type hookWriter struct {
	f   *os.File
	tmp string
}

func (h *hookWriter) Write(p []byte) (int, error) {
	if h.tmp != "" {
		n, err := h.f.Write(p[:len(p)/2])
		testWriteHook(h.tmp)
		h.tmp = ""
		if err != nil {
			return n, err
		}
		m, err := h.f.Write(p[n:])
		return n + m, err
	}
	return h.f.Write(p)
}

// linkNew makes the complete temporary file tmp appear at path unless
// something exists there: a hard link, or where the file system has none,
// a rename after checking.
func linkNew(tmp, path string) error {
	err := os.Link(tmp, path)
	if err == nil {
		return nil
	}
	if errors.Is(err, fs.ErrExist) {
		return errExists
	}
	if _, lerr := os.Lstat(path); !errors.Is(lerr, fs.ErrNotExist) {
		if lerr == nil {
			return errExists
		}
		return lerr
	}
	return os.Rename(tmp, path)
}

// syncDir makes a rename in dir durable, where the system allows it; a
// failure there loses nothing that was written, so it is not reported.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// withoutPath drops the file name from an *fs.PathError (the temporary
// file's, or the one the caller names anyway), keeping the operation and
// the cause, which errors.Is still finds.
func withoutPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && err == error(pe) {
		return fmt.Errorf("%s: %w", pe.Op, pe.Err)
	}
	return err
}

// inputFiles returns the files a data argument reads: the file, and the
// label file of an IDX image file.
func (d *dataFlags) inputFiles(paths ...string) []string {
	var out []string
	for _, p := range paths {
		if p == "" {
			continue
		}
		out = append(out, p)
		if f, err := d.formatOf(p); err == nil && f == fmtIDX {
			if l, err := d.labelsPath(p); err == nil {
				out = append(out, l)
			}
		}
	}
	return out
}

// errWriter passes writes on to w until one fails, then fails every later
// one with the same error, which err keeps: a command writes its report
// with fmt.Fprintf and run checks err once at the end.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	e.err = err
	return n, err
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

// errTooLarge reports an input file larger than the command reads: a JSON
// model or bench report beyond its limit, or a file that goes on after
// the size its header gives.
var errTooLarge = model.ErrTooLarge

// Limits of the model and report files, which are read whole (variables
// so that tests can lower them).
var (
	// maxModel bounds a JSON model, and a binary model read from a pipe or
	// device: 1 GiB holds some 50 million values printed in full
	// precision, and a binary model of 130 million float64 values. A
	// binary model in a regular file is bounded by the file's size
	// instead: its header must imply exactly that size.
	maxModel int64 = 1 << 30
	// maxReport bounds a bench report: a full report is some 100 KB.
	maxReport int64 = 64 << 20
)

// readLimited reads all of r (the file name), which must not exceed limit
// bytes: otherwise it stops after limit+1 bytes with an error wrapping
// errTooLarge. fi, if the file's, lets a regular file be refused from its
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
		return fmt.Errorf("%s: %w: %s, more than the %s this command reads", name, errTooLarge, what, fmtBytes(limit))
	}
	regular := fi != nil && fi.Mode().IsRegular()
	if regular && fi.Size() > limit {
		return nil, tooLarge(fmtBytes(fi.Size()))
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
	case errors.Is(err, errMalformed): // from check
		return nil, fmt.Errorf("%s:%w", name, err)
	default:
		return nil, fmt.Errorf("%s: %w", name, withoutPath(err))
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
// offending byte and wrap errMalformed; what names the kind of file
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
			return fmt.Errorf("%d:%d: %w: not %s (unexpected %q: one begins with %s)", j.line, j.col, errMalformed, j.what, c, want)
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

// decodeJSONFile decodes the JSON file name, of at most limit bytes, into
// v; start checks its first bytes as they arrive (see readLimited). A
// syntax or type error names the file with its line and column; every
// error wraps errMalformed except a failure to read the file and one
// wrapping errTooLarge.
func decodeJSONFile(name string, limit int64, start *jsonStart, v any) error {
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
		return fmt.Errorf("%s: %w: empty file", name, errMalformed)
	}
	// json.Unmarshal reads data in place (a json.Decoder would copy it
	// into a buffer of its own, doubling it as it grows), and checks the
	// whole of it before decoding: a syntax error comes first.
	if err := json.Unmarshal(data, v); err != nil {
		var syn *json.SyntaxError
		var typ *json.UnmarshalTypeError
		switch {
		case errors.As(err, &syn) && syn.Offset >= int64(len(data)) && strings.HasPrefix(syn.Error(), "unexpected end"):
			line, col := lineCol(data, int64(len(data)))
			return fmt.Errorf("%s:%d:%d: %w: unexpected end of JSON input", name, line, col, errMalformed)
		case errors.As(err, &syn) && strings.HasSuffix(syn.Error(), "after top-level value"):
			line, col := lineCol(data, max(syn.Offset-1, 0))
			return fmt.Errorf("%s:%d:%d: %w: data after the JSON value", name, line, col, errMalformed)
		case errors.As(err, &syn):
			// Offset is the number of bytes read before the error, so the
			// offending byte is the one at Offset-1.
			line, col := lineCol(data, max(syn.Offset-1, 0))
			return fmt.Errorf("%s:%d:%d: %w: %v", name, line, col, errMalformed, syn)
		case errors.As(err, &typ):
			line, col := lineCol(data, max(typ.Offset-1, 0))
			return fmt.Errorf("%s:%d:%d: %w: %v", name, line, col, errMalformed, typ)
		}
		return fmt.Errorf("%s: %w: %v", name, errMalformed, err)
	}
	return nil
}

// isJSONSpace reports whether c is white space to JSON.
func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
