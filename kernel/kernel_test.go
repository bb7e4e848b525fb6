package kernel_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/internal/kerneltest"
	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/parity"
)

// lengths are every length 0..300 plus sizes around the unroll and cache
// boundaries.
var lengths = func() []int {
	var ns []int
	for n := 0; n <= 300; n++ {
		ns = append(ns, n)
	}
	return append(ns, 511, 512, 513, 1023, 1024, 1025, 4099, 65536+5)
}()

// offsets start sub-slices at 0..3 elements into a buffer, so every
// alignment the assembly may meet is exercised.
var offsets = []int{0, 1, 2, 3}

type valueKind int

const (
	mixed   valueKind = iota // random values with magnitudes 2^-4..2^4, both signs
	integer                  // small integers: every sum is exact in float32
)

func fill[T kernel.Float](rng *rand.Rand, s []T, kind valueKind) {
	for i := range s {
		switch kind {
		case integer:
			s[i] = T(rng.IntN(17) - 8)
		default:
			s[i] = T(math.Ldexp(rng.Float64()*2-1, rng.IntN(9)-4))
		}
	}
}

// implsUnderTest are the implementations this CPU can run; the test fails if
// an implementation of this build that the CPU supports were missing.
func implsUnderTest(t *testing.T) []*kernel.Impl {
	t.Helper()
	list := parity.Impls()
	if len(list) == 0 {
		t.Fatal("no implementation available")
	}
	return list
}

// forEach runs f for every available implementation and both element types.
func forEach(t *testing.T, f32 func(*testing.T, *kernel.Impl), f64 func(*testing.T, *kernel.Impl)) {
	for _, im := range implsUnderTest(t) {
		t.Run("impl="+im.Name()+"/type=f32", func(t *testing.T) { t.Parallel(); f32(t, im) })
		t.Run("impl="+im.Name()+"/type=f64", func(t *testing.T) { t.Parallel(); f64(t, im) })
	}
}

// input returns a filled, guarded slice at offset off and a pristine copy.
func input[T kernel.Float](rng *rand.Rand, n, off int, kind valueKind) (s, orig []T, intact func() error) {
	s, intact = kerneltest.Guarded[T](n, off)
	fill(rng, s, kind)
	return s, append([]T(nil), s...), intact
}

func checkUnchanged[T kernel.Float](t *testing.T, what string, s, orig []T, intact func() error) {
	t.Helper()
	if !parity.SameBits(s, orig) {
		t.Fatalf("%s: input was modified", what)
	}
	if err := intact(); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

func testReductions[T kernel.Float](t *testing.T, im *kernel.Impl) {
	k := kernel.On[T](im)
	rng := rand.New(rand.NewPCG(1, 2))
	for _, kind := range []valueKind{mixed, integer} {
		for _, n := range lengths {
			for _, off := range offsets {
				x, x0, xok := input[T](rng, n, off, kind)
				y, y0, yok := input[T](rng, n, (off+1)%4, kind)
				what := fmt.Sprintf("n=%d off=%d kind=%d", n, off, kind)

				dot := k.Dot(x, y)
				if err := parity.CheckDot(dot, x, y); err != nil {
					t.Fatalf("Dot %s: %v", what, err)
				}
				sq := k.SqDist(x, y)
				if err := parity.CheckSqDist(sq, x, y); err != nil {
					t.Fatalf("SqDist %s: %v", what, err)
				}
				if kind == integer && n <= 4099 {
					// Every partial sum is an integer below 2^24: exact on
					// every path, whatever the order.
					ref, _ := parity.Dot(x, y)
					if float64(dot) != ref {
						t.Fatalf("Dot %s: got %v, want exactly %v", what, dot, ref)
					}
					if want := parity.SqDist(x, y); float64(sq) != want {
						t.Fatalf("SqDist %s: got %v, want exactly %v", what, sq, want)
					}
				}
				checkUnchanged(t, "Dot/SqDist x "+what, x, x0, xok)
				checkUnchanged(t, "Dot/SqDist y "+what, y, y0, yok)
			}
		}
	}
}

func testAxpyScale[T kernel.Float](t *testing.T, im *kernel.Impl) {
	k := kernel.On[T](im)
	rng := rand.New(rand.NewPCG(3, 4))
	for _, kind := range []valueKind{mixed, integer} {
		for _, n := range lengths {
			for _, off := range offsets {
				what := fmt.Sprintf("n=%d off=%d kind=%d", n, off, kind)
				a := T(rng.IntN(7) - 3)
				if kind == mixed {
					a = T(rng.Float64()*4 - 2)
				}
				x, x0, xok := input[T](rng, n, off, kind)
				y, y0, yok := input[T](rng, n, (off+3)%4, kind)

				k.Axpy(a, x, y)
				if err := parity.CheckAxpy(y, a, x, y0); err != nil {
					t.Fatalf("Axpy %s: %v", what, err)
				}
				if kind == integer {
					for i := range y {
						if want := y0[i] + a*x[i]; y[i] != want {
							t.Fatalf("Axpy %s: index %d: got %v, want exactly %v", what, i, y[i], want)
						}
					}
				}
				checkUnchanged(t, "Axpy x "+what, x, x0, xok)
				if err := yok(); err != nil {
					t.Fatalf("Axpy %s: %v", what, err)
				}

				k.Scale(a, x)
				if err := kerneltest.CheckScale(x, a, x0); err != nil {
					t.Fatalf("Scale %s: %v", what, err)
				}
				if err := xok(); err != nil {
					t.Fatalf("Scale %s: %v", what, err)
				}
			}
		}
	}
}

// matShapes are the (rows, d) shapes MatVec and Dots are tested on: every
// small row count against column counts around each vector width and unroll.
var matShapes = func() [][2]int {
	var s [][2]int
	ds := []int{0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 47, 63, 64, 65, 100, 127, 128, 129, 255, 256, 257, 300}
	for rows := 0; rows <= 9; rows++ {
		for _, d := range ds {
			s = append(s, [2]int{rows, d})
		}
	}
	// The last shape is over 1 MiB even in float32: the amd64 block loop
	// prefetches there.
	return append(s, [2]int{37, 784}, [2]int{128, 3}, [2]int{13, 1025}, [2]int{261, 1031})
}()

func testMatVec[T kernel.Float](t *testing.T, im *kernel.Impl) {
	k := kernel.On[T](im)
	rng := rand.New(rand.NewPCG(5, 6))
	for _, kind := range []valueKind{mixed, integer} {
		for _, sh := range matShapes {
			for _, off := range offsets {
				rows, d := sh[0], sh[1]
				what := fmt.Sprintf("rows=%d d=%d off=%d kind=%d", rows, d, off, kind)
				m, m0, mok := input[T](rng, rows*d, off, kind)
				w, w0, wok := input[T](rng, d, (off+2)%4, kind)
				for _, op := range []struct {
					name string
					call func(dst []T)
				}{
					{"MatVec", func(dst []T) { k.MatVec(dst, m, w) }},
					{"Dots", func(dst []T) { k.Dots(dst, m, w) }},
				} {
					dst, dok := kerneltest.Guarded[T](rows, (off+1)%4)
					op.call(dst)
					if err := kerneltest.CheckMatVec(dst, m, w); err != nil {
						t.Fatalf("%s %s: %v", op.name, what, err)
					}
					if kind == integer {
						for i := range dst {
							ref, _ := parity.Dot(m[i*d:i*d+d], w)
							if float64(dst[i]) != ref {
								t.Fatalf("%s %s: row %d: got %v, want exactly %v", op.name, what, i, dst[i], ref)
							}
						}
					}
					if err := dok(); err != nil {
						t.Fatalf("%s %s: dst: %v", op.name, what, err)
					}
					checkUnchanged(t, op.name+" X "+what, m, m0, mok)
					checkUnchanged(t, op.name+" w "+what, w, w0, wok)
				}
			}
		}
	}
}

// testSpecial puts NaN and ±Inf at the first, a middle and the last
// position (the last one lands in the tail) and checks they propagate as in
// the plain loop.
func testSpecial[T kernel.Float](t *testing.T, im *kernel.Impl) {
	k := kernel.On[T](im)
	rng := rand.New(rand.NewPCG(7, 8))
	nan, inf := T(math.NaN()), T(math.Inf(1))
	for n := 1; n <= 80; n++ {
		for _, p := range []int{0, n / 2, n - 1} {
			for _, c := range []struct {
				name   string
				xp, yp T
			}{
				{"NaN", nan, 1},
				{"+Inf", inf, 1},
				{"-Inf", -inf, 1},
				{"Inf*0", inf, 0},
			} {
				what := fmt.Sprintf("n=%d pos=%d %s", n, p, c.name)
				x := make([]T, n)
				y := make([]T, n)
				fill(rng, x, mixed)
				fill(rng, y, mixed)
				x[p], y[p] = c.xp, c.yp
				if err := parity.CheckDot(k.Dot(x, y), x, y); err != nil {
					t.Fatalf("Dot %s: %v", what, err)
				}
				if err := parity.CheckSqDist(k.SqDist(x, y), x, y); err != nil {
					t.Fatalf("SqDist %s: %v", what, err)
				}
				dst := make([]T, 3)
				m := append(append(append([]T(nil), y...), x...), y...)
				k.MatVec(dst, m, y)
				if err := kerneltest.CheckMatVec(dst, m, y); err != nil {
					t.Fatalf("MatVec %s: %v", what, err)
				}
				y0 := append([]T(nil), y...)
				k.Axpy(2, x, y)
				if err := parity.CheckAxpy(y, 2, x, y0); err != nil {
					t.Fatalf("Axpy %s: %v", what, err)
				}
				x0 := append([]T(nil), x...)
				k.Scale(-3, x)
				if err := kerneltest.CheckScale(x, -3, x0); err != nil {
					t.Fatalf("Scale %s: %v", what, err)
				}
			}
		}
	}
}

func TestReductions(t *testing.T) {
	forEach(t, testReductions[float32], testReductions[float64])
}

func TestAxpyScale(t *testing.T) {
	forEach(t, testAxpyScale[float32], testAxpyScale[float64])
}

func TestMatVecDots(t *testing.T) {
	forEach(t, testMatVec[float32], testMatVec[float64])
}

// TestMatVecRowsIndependent checks that MatVec gives each row of a whole
// number of blocks of four the same bits whatever rows it is called with
// (perceptron's batches rely on it to score a row alike however a batch
// is split): the amd64 kernels group rows i, i+q, i+2q and i+3q below
// 1 MiB and four consecutive rows above, and each row must be summed in
// the same order either way.
func TestMatVecRowsIndependent(t *testing.T) {
	forEach(t, testMatVecRowsIndependent[float32], testMatVecRowsIndependent[float64])
}

func testMatVecRowsIndependent[T kernel.Float](t *testing.T, im *kernel.Impl) {
	k := kernel.On[T](im)
	rng := rand.New(rand.NewPCG(7, 8))
	for _, sh := range [][2]int{{40, 784}, {23, 100}, {12, 33}, {9, 8}, {345, 784}} {
		n, d := sh[0], sh[1]
		m, _, _ := input[T](rng, n*d, 0, mixed)
		w, _, _ := input[T](rng, d, 1, mixed)
		all := make([]T, n)
		k.MatVec(all, m, w)
		for lo := 0; lo < n/4*4; lo += 4 {
			for hi := lo + 4; hi <= n/4*4; hi += 4 {
				part := make([]T, hi-lo)
				k.MatVec(part, m[lo*d:hi*d], w)
				for i, got := range part {
					if want := all[lo+i]; got != want {
						t.Fatalf("rows=%d d=%d: row %d alone in rows %d…%d: got %v, want %v as in all rows", n, d, lo+i, lo, hi-1, got, want)
					}
				}
			}
		}
	}
}

func TestNaNInf(t *testing.T) {
	forEach(t, testSpecial[float32], testSpecial[float64])
}

// TestNamedFloatType checks that a named float type takes the same kernels as
// its underlying type.
func TestNamedFloatType(t *testing.T) {
	type score float32
	x := []score{1, 2, 3, 4, 5}
	if got := kernel.Dot(x, x); got != 55 {
		t.Fatalf("Dot of a named float32 type: got %v, want 55", got)
	}
	type wide float64
	y := []wide{1, 2, 3}
	kernel.Axpy(2, y, y)
	if y[2] != 9 {
		t.Fatalf("Axpy of a named float64 type: got %v, want [3 6 9]", y)
	}
}

func TestLengthMismatchPanics(t *testing.T) {
	cases := []struct {
		name string
		call func()
		want string
	}{
		{"Dot", func() { kernel.Dot([]float32{1}, []float32{1, 2}) }, "kernel.Dot: length mismatch"},
		{"SqDist", func() { kernel.SqDist([]float64{1, 2}, []float64{1}) }, "kernel.SqDist: length mismatch"},
		{"Axpy", func() { kernel.Axpy(1, []float32{1}, nil) }, "kernel.Axpy: length mismatch"},
		{"MatVec", func() { kernel.MatVec(make([]float32, 2), make([]float32, 5), make([]float32, 3)) }, "kernel.MatVec: length mismatch"},
		{"Dots", func() { kernel.Dots(make([]float64, 2), make([]float64, 7), make([]float64, 3)) }, "kernel.Dots: length mismatch"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			defer func() {
				r := recover()
				if r == nil || !strings.Contains(fmt.Sprint(r), c.want) {
					t.Fatalf("recovered %v, want a panic containing %q", r, c.want)
				}
			}()
			c.call()
		})
	}
}

func TestEmptyInput(t *testing.T) {
	for _, im := range implsUnderTest(t) {
		k := kernel.On[float32](im)
		if got := k.Dot(nil, nil); got != 0 {
			t.Errorf("%s: Dot(nil, nil) = %v, want 0", im, got)
		}
		if got := k.SqDist([]float32{}, []float32{}); got != 0 {
			t.Errorf("%s: SqDist of empty = %v, want 0", im, got)
		}
		k.Axpy(1, nil, nil)
		k.Scale(2, nil)
		k.MatVec(nil, nil, []float32{1, 2})
		dst := []float32{7, 7}
		k.MatVec(dst, nil, nil)
		if dst[0] != 0 || dst[1] != 0 {
			t.Errorf("%s: MatVec with d=0 gave %v, want [0 0]", im, dst)
		}
	}
}

// TestBestSelected fails when the package-level functions do not run the
// best implementation this CPU supports (unless ROSENBLATT_KERNEL caps it),
// and when an implementation of this build that the CPU supports is marked
// unavailable.
func TestBestSelected(t *testing.T) {
	want := expectedAvailable()
	for _, im := range kernel.Impls() {
		if im.Available() != want[im.Name()] {
			t.Errorf("implementation %s: Available() = %v, but this CPU's features say %v", im.Name(), im.Available(), want[im.Name()])
		}
		delete(want, im.Name())
	}
	for name, ok := range want {
		if ok {
			t.Errorf("implementation %s is supported by this CPU but missing from the build", name)
		}
	}
	if os.Getenv(kernel.EnvVar) != "" {
		t.Skipf("%s=%s caps the choice; best-path check not applicable", kernel.EnvVar, os.Getenv(kernel.EnvVar))
	}
	if got, best := kernel.ActiveImpl().Name(), expectedBest(); got != best {
		t.Fatalf("active implementation %s, want %s (the best this CPU supports)", got, best)
	}
	if kernel.Best().Name() != kernel.ActiveImpl().Name() || kernel.ActiveImpl() != kernel.Best() {
		t.Fatalf("Best() = %s, Active() = %s", kernel.Best(), kernel.ActiveImpl().Name())
	}
	t.Logf("active kernel implementation: %s", kernel.ActiveImpl().Name())
}

// TestEnvironmentCap runs this test binary again with ROSENBLATT_KERNEL set and
// checks the choice the real start-up code makes (a value that names no
// implementation caps nothing), and that the package prints nothing, to
// standard error or standard output, whatever the value.
//
// The child reports the best implementation it can see, and the expectations
// are derived from that, not from this process's CPU: under a user-mode
// emulator (CI's qemu-x86_64 -cpu Haswell), the child of an emulated process
// runs natively, outside the emulator, and may see a wider CPU (AVX-512) than
// its parent (AVX2).
func TestEnvironmentCap(t *testing.T) {
	const report = "kernel-selection-report: "
	if os.Getenv("ROSENBLATT_KERNEL_CHILD") == "1" {
		fmt.Printf("%sbest=%s active=%s \n", report, kernel.Best().Name(), kernel.ActiveImpl().Name())
		return
	}
	exe, err := os.Executable()
	if err != nil {
		t.Skip("cannot locate the test binary:", err)
	}
	// run starts the child with ROSENBLATT_KERNEL=value and returns its
	// report line and the best implementation it reported. Anything else on
	// either stream, apart from the test framework's closing PASS (and
	// coverage summary), was printed by the library.
	run := func(value string) (out, best string) {
		cmd := exec.Command(exe, "-test.run=^TestEnvironmentCap$")
		cmd.Env = append(os.Environ(), "ROSENBLATT_KERNEL_CHILD=1", kernel.EnvVar+"="+value)
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			if strings.Contains(err.Error(), "exec format error") {
				t.Skip("the test binary cannot be re-executed on this host (emulated architecture)")
			}
			t.Fatalf("child with %s=%q: %v\nstdout:\n%s\nstderr:\n%s", kernel.EnvVar, value, err, stdout.String(), stderr.String())
		}
		if stderr.Len() != 0 {
			t.Errorf("child with %s=%q: the package printed to standard error: %q", kernel.EnvVar, value, stderr.String())
		}
		for _, line := range strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n") {
			switch {
			case strings.HasPrefix(line, report):
				out = line
			case line != "PASS" && !strings.HasPrefix(line, "coverage:"): // the test framework's own lines
				t.Errorf("child with %s=%q: unexpected output line %q", kernel.EnvVar, value, line)
			}
		}
		i := strings.Index(out, "best=")
		if i < 0 {
			t.Fatalf("child with %s=%q printed no report: %q", kernel.EnvVar, value, stdout.String())
		}
		best, _, _ = strings.Cut(out[i+len("best="):], " ")
		return out, best
	}
	_, childBest := run("")
	if childBest != kernel.Best().Name() {
		t.Logf("the child sees a different CPU (best %s) from this process (best %s): an emulated parent", childBest, kernel.Best().Name())
	}
	// The cap names this process's best: the child runs it, or the best below
	// it if its CPU lacks it (which cannot happen when the child sees the
	// same CPU or a wider one, as under an emulator).
	mine := kernel.Best().Name()
	cases := []struct{ value, active string }{
		{"", childBest},
		{"generic", "generic"},
		{mine, mine},
		{childBest, childBest},
		{"turbo", childBest},
	}
	for _, c := range cases {
		out, _ := run(c.value)
		if !strings.Contains(out, "active="+c.active+" ") {
			t.Errorf("%s=%q: child reported %q, want active=%s", kernel.EnvVar, c.value, out, c.active)
		}
	}
}
