package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Temporary output files.
//
// Target.Write writes into ".NAME.rosenblatt-tmp-PID-RANDOM" next to the
// target NAME (PID the writing process's, RANDOM eight hex digits) and,
// with OnSignal, registers the name while it exists. On SIGINT or SIGTERM
// while any is registered, the handler removes every registered temporary file (never
// the target, which a temporary file only ever reaches by a link or a
// rename) and the process then dies of the same signal, as it would have
// without the handler (exit status 128+N to a shell). A temporary file
// can still be left by what no handler sees (SIGKILL, a power cut): the
// next write of the same target removes those of its name whose process is
// gone (kill(PID, 0) fails with ESRCH; on systems without it, those older
// than staleTempAge), and the unnamed ".NAME.tmp-RANDOM" files of earlier
// versions older than staleTempAge.

// tempMarker separates a target's name from the temporary file's suffix.
const tempMarker = ".rosenblatt-tmp-"

// staleTempAge is how old a temporary file of a target must be to be
// removed when whether its process is alive cannot be told.
const staleTempAge = time.Hour

// temps is the registry of temporary files in progress.
var temps struct {
	sync.Mutex
	files map[string]bool
	sig   chan os.Signal // non-nil while the handler is installed
}

// registerTemp records a temporary file in progress, installing the
// signal handler with the first.
func registerTemp(path string) {
	temps.Lock()
	defer temps.Unlock()
	if temps.files == nil {
		temps.files = map[string]bool{}
	}
	temps.files[path] = true
	if temps.sig == nil {
		c := make(chan os.Signal, 1)
		signal.Notify(c, os.Interrupt, syscall.SIGTERM)
		temps.sig = c
		go onSignal(c)
	}
}

// unregisterTemp forgets a temporary file (removed or moved into place),
// removing the handler with the last, so that the signals act as before.
func unregisterTemp(path string) {
	temps.Lock()
	defer temps.Unlock()
	delete(temps.files, path)
	if len(temps.files) == 0 && temps.sig != nil {
		signal.Stop(temps.sig)
		close(temps.sig)
		temps.sig = nil
	}
}

// onSignal waits for a signal on c; on one it removes the registered
// temporary files and dies of the signal. It returns when c is closed.
func onSignal(c chan os.Signal) {
	sig, ok := <-c
	if !ok {
		return
	}
	temps.Lock() // held to the end: no write moves or registers a file meanwhile
	for p := range temps.files {
		os.Remove(p)
	}
	signal.Reset(sig)
	raise(sig)
	// raise returns only where the signal cannot be sent to oneself.
	os.Exit(exitSignal(sig))
}

// exitSignal is the status a shell reports for a process killed by sig:
// 128 + its number.
func exitSignal(sig os.Signal) int {
	if s, ok := sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 130 // SIGINT's
}

// tempName returns the name of a new temporary file for the target path.
func tempName(path string) string {
	dir, base := filepath.Split(path)
	if len(base) > 200 { // room for the suffix within NAME_MAX
		base = base[:200]
	}
	return filepath.Join(dir, fmt.Sprintf(".%s%s%d-%08x", base, tempMarker, os.Getpid(), rand.Uint32()))
}

// removeStaleTemps removes the temporary files of the target path that no
// write in progress owns: those whose process is gone, those of unknown
// state older than staleTempAge, and the ".NAME.tmp-XXXXXXXX" of earlier
// versions older than staleTempAge. Nothing else is touched, and errors
// are ignored: a stale file left is no reason to fail a write.
func removeStaleTemps(path string) {
	dir, base := filepath.Split(path)
	if len(base) > 200 {
		base = base[:200]
	}
	if dir == "" {
		dir = "."
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	prefix, old := "."+base+tempMarker, "."+base+".tmp-"
	for _, e := range entries {
		name := e.Name()
		var stale bool
		switch {
		case strings.HasPrefix(name, prefix):
			stale = staleTemp(e, name[len(prefix):])
		case strings.HasPrefix(name, old) && isHex8(name[len(old):]):
			stale = olderThan(e, staleTempAge)
		}
		if stale && e.Type().IsRegular() {
			os.Remove(filepath.Join(dir, name))
		}
	}
}

// staleTemp tells whether a temporary file with the suffix "PID-RANDOM"
// belongs to no live writer.
func staleTemp(e fs.DirEntry, suffix string) bool {
	pidText, random, ok := strings.Cut(suffix, "-")
	pid, err := strconv.Atoi(pidText)
	if !ok || err != nil || pid <= 0 || !isHex8(random) {
		return false // not a name this code makes
	}
	if pid == os.Getpid() {
		return false // ours: registered, or removed by its own write
	}
	switch alive, known := processAlive(pid); {
	case known:
		return !alive
	default:
		return olderThan(e, staleTempAge)
	}
}

func isHex8(s string) bool {
	if len(s) != 8 {
		return false
	}
	_, err := strconv.ParseUint(s, 16, 32)
	return err == nil
}

func olderThan(e fs.DirEntry, age time.Duration) bool {
	fi, err := e.Info()
	return err == nil && time.Since(fi.ModTime()) > age
}

// createTemp creates a new file next to path, named as described above,
// with mode 0644 minus the umask (os.CreateTemp's 0600 would need the
// umask to be read, which only a racy syscall does), and registers it if
// onSignal. The caller unregisters it once it is removed or moved into
// place.
func createTemp(path string, onSignal bool) (*os.File, string, error) {
	removeStaleTemps(path)
	for range 100 {
		tmp := tempName(path)
		if onSignal {
			registerTemp(tmp) // before it exists: a signal now removes nothing of anyone's
		}
		f, err := os.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			unregisterTemp(tmp)
			if errors.Is(err, fs.ErrExist) {
				continue
			}
		}
		return f, tmp, err
	}
	return nil, "", fmt.Errorf("cannot create a temporary file next to %s", path)
}
