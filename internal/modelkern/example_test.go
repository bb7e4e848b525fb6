package modelkern_test

import (
	"fmt"

	"github.com/rosenblatt-go/rosenblatt/internal/modelkern"
)

func ExampleScanBlock2() {
	// Two classes' weights interleaved by feature: feature j's weights of
	// classes 0 and 1 at blk[2j], blk[2j+1].
	blk := []float32{
		1, -1, // feature 0 speaks for class 0
		-1, 1, // feature 1 for class 1
	}
	// Three sparse rows, stored one after the other.
	idx := []int32{0, 1, 0}
	val := []float32{2, 3, 1}
	vis := []modelkern.Visit{
		{Lo: 0, Hi: 1, Class: 0}, // 2·feature 0: class 0, right
		{Lo: 1, Hi: 2, Class: 1}, // 3·feature 1: class 1, right
		{Lo: 2, Hi: 3, Class: 1}, // 1·feature 0, but labelled class 1: wrong
	}
	bias := []float32{0, 0}
	s0, s1 := make([]float32, 2), make([]float32, 2)
	j, n := modelkern.ScanBlock2(s0, s1, blk, idx, val, vis, bias, 0)
	fmt.Println("first visit to update:", j, "scores:", s0, "visits scored:", n)
	// Output: first visit to update: 2 scores: [1 -1] visits scored: 1
}
