// Package atomicfile writes files atomically: into a new temporary file in
// the target's directory, synced and closed, then moved onto the target by
// a hard link (a new file) or a rename (a replaced one). The target holds
// its old content or the whole new one, never part of it; on any error the
// temporary file is removed and the target is untouched. Temporary files
// left by a killed process are removed by the next write of the same
// target (see tempfiles.go), and, where asked, a SIGINT or SIGTERM during
// a write removes the temporary file before the process dies of it.
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// ErrExists reports an output file that exists and would be overwritten
// without Replace.
var ErrExists = errors.New("file exists (use -f to overwrite)")

// ErrChanged reports an output file that another process replaced or
// created while it was being written: it is left alone.
var ErrChanged = errors.New("the file changed while the output was written; nothing was replaced")

// ErrNotRegular reports a target that exists and is not a regular file.
var ErrNotRegular = errors.New("not a regular file")

// Target is a file to write atomically.
type Target struct {
	// Path is the file to write, symbolic links already followed.
	Path string
	// Prev is the file at Path when the caller examined it (os.Stat), or
	// nil if there was none: only that file is replaced, and its
	// permission bits are kept (not its owner, nor its other hard links,
	// which keep the old content).
	Prev os.FileInfo
	// Replace lets the write replace Prev by a rename. Without it the
	// last step is a hard link, which fails with ErrExists if the target
	// appeared in the meantime; where the file system has no hard links
	// it is a rename after checking that the target is still absent,
	// which leaves a short window.
	Replace bool
	// OnSignal installs, while the temporary file exists, a SIGINT and
	// SIGTERM handler that removes it and then lets the process die of the
	// signal: for a command, never for a library whose caller handles
	// the signals.
	OnSignal bool
}

// Write writes what write produces into a new temporary file next to
// t.Path, ".NAME.rosenblatt-tmp-PID-RANDOM" with mode 0644 minus the
// umask, syncs and closes it, then moves it to t.Path. Errors are those
// of the file system, ErrExists or ErrChanged; the temporary file is
// removed on any of them. If the process is killed (SIGKILL) between the
// link and the removal, the temporary name remains next to the target, a
// second link to the complete output, until the next write of the target
// removes it.
func (t Target) Write(write func(io.Writer) error) error {
	f, tmp, err := createTemp(t.Path, t.OnSignal)
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
	if TestWriteHook != nil {
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
	if t.Prev != nil {
		if err := os.Chmod(tmp, t.Prev.Mode().Perm()); err != nil {
			return err
		}
	}
	switch {
	case !t.Replace:
		if err := linkNew(tmp, t.Path); err != nil {
			return err
		}
		done = true
		os.Remove(tmp) // the output is also at t.Path now
	default:
		// Replace only what the caller examined: a file that appeared
		// or was swapped since then is not ours to remove.
		now, err := os.Lstat(t.Path)
		switch {
		case t.Prev == nil && err == nil, t.Prev != nil && (err != nil || !os.SameFile(t.Prev, now)):
			return ErrChanged
		case err != nil && !errors.Is(err, fs.ErrNotExist):
			return err
		}
		if err := os.Rename(tmp, t.Path); err != nil {
			return err
		}
		done = true
	}
	syncDir(filepath.Dir(t.Path))
	return nil
}

// Replace writes path atomically, replacing the regular file there, if
// any, whatever the moment it appeared: a symbolic link is followed (the
// file it points to is replaced, not the link); any other kind of file
// is refused with ErrNotRegular. No signal handler is installed.
func Replace(path string, write func(io.Writer) error) error {
	real, err := FollowLinks(path)
	if err != nil {
		return err
	}
	for range 3 { // a file that appears meanwhile is examined again
		fi, err := os.Stat(real)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			fi = nil
		case err != nil:
			return err
		case !fi.Mode().IsRegular():
			return fmt.Errorf("%s: %w (mode %v)", path, ErrNotRegular, fi.Mode())
		}
		err = Target{Path: real, Prev: fi, Replace: true}.Write(write)
		if !errors.Is(err, ErrChanged) {
			return err
		}
	}
	return ErrChanged
}

// FollowLinks returns the path that path's chain of symbolic links ends
// at, which need not exist. Directories on the way are left to the kernel.
func FollowLinks(path string) (string, error) {
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

// TestWriteHook, if set (by a test, in the process it runs as a command),
// is called with the temporary file's name at the first write to it,
// after half of that write's bytes.
var TestWriteHook func(tmp string)

// hookWriter calls TestWriteHook at its first write.
type hookWriter struct {
	f   *os.File
	tmp string
}

func (h *hookWriter) Write(p []byte) (int, error) {
	if h.tmp != "" {
		n, err := h.f.Write(p[:len(p)/2])
		TestWriteHook(h.tmp)
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
		return ErrExists
	}
	if _, lerr := os.Lstat(path); !errors.Is(lerr, fs.ErrNotExist) {
		if lerr == nil {
			return ErrExists
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
