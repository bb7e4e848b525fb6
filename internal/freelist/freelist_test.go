package freelist

import (
	"runtime"
	"testing"
)

func TestReuseSurvivesGC(t *testing.T) {
	l := New[float32](4, 1<<20)
	b := l.Get(1000)
	l.Put(b)
	runtime.GC()
	runtime.GC()
	c := l.Get(500)
	if &c[:1][0] != &b[:1][0] {
		t.Fatal("the buffer was not reused after a GC")
	}
	if len(c) != 500 {
		t.Fatalf("len = %d, want 500", len(c))
	}
	if n, v := l.Held(); n != 0 || v != 0 {
		t.Fatalf("held %d buffers, %d values after Get, want 0, 0", n, v)
	}
}

func TestBounds(t *testing.T) {
	tests := []struct {
		name       string
		maxB, maxV int
		puts       []int
		wantB      int
		wantV      int
	}{
		{"too big is dropped", 4, 100, []int{101}, 0, 0},
		{"count bound keeps the largest", 2, 1000, []int{10, 20, 30}, 2, 50},
		{"value bound drops the smallest", 4, 100, []int{40, 50, 60}, 1, 60},
		{"smaller than all when full is dropped", 2, 1000, []int{30, 20, 10}, 2, 50},
		{"no buffers keeps none", 0, 1000, []int{10, 20}, 0, 0},
		{"negative buffers keeps none", -1, 1000, []int{10, 20}, 0, 0},
		{"no values keeps none", 4, 0, []int{10}, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := New[float64](tc.maxB, tc.maxV)
			for _, n := range tc.puts {
				l.Put(make([]float64, n))
			}
			b, v := l.Held()
			if b != tc.wantB || v != tc.wantV || v > max(tc.maxV, 0) || b > max(tc.maxB, 0) {
				t.Fatalf("held %d buffers, %d values, want %d, %d", b, v, tc.wantB, tc.wantV)
			}
		})
	}
}

func TestGetSmallestFit(t *testing.T) {
	l := New[int](4, 1000)
	l.Put(make([]int, 300))
	l.Put(make([]int, 100))
	l.Put(make([]int, 200))
	if b := l.Get(150); cap(b) != 200 {
		t.Fatalf("cap = %d, want the smallest fit 200", cap(b))
	}
	if b := l.Get(400); cap(b) != 400 {
		t.Fatalf("cap = %d, want a new 400", cap(b))
	}
}

func TestGetAllocatesNothingInSteadyState(t *testing.T) {
	l := New[float32](4, 1<<20)
	l.Put(l.Get(4096))
	if a := testing.AllocsPerRun(100, func() {
		b := l.Get(4096)
		runtime.GC()
		l.Put(b)
	}); a != 0 {
		t.Fatalf("%v allocations per Get/GC/Put, want 0", a)
	}
}

// TestFloats: GetFloat and PutFloat keep float32 and float64 slices (and
// named types of them) on separate lists, and reuse them.
func TestFloats(t *testing.T) {
	type score float32
	p := NewFloats(2, 1<<10)
	a := GetFloat[score](p, 100)
	PutFloat(p, a)
	if n, v := p.f32.Held(); n != 1 || v != 100 {
		t.Fatalf("float32 list holds %d buffers, %d values, want 1, 100", n, v)
	}
	if n, _ := p.f64.Held(); n != 0 {
		t.Fatalf("float64 list holds %d buffers, want 0", n)
	}
	b := GetFloat[float64](p, 100)
	if n, _ := p.f32.Held(); n != 1 {
		t.Fatal("a float64 request took the float32 buffer")
	}
	PutFloat(p, b)
	if c := GetFloat[float32](p, 50); cap(c) != 100 || &c[0] != (*float32)(&a[0]) {
		t.Fatal("the float32 buffer was not reused")
	}
}
