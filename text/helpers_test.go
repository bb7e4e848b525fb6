package text

import "github.com/rosenblatt-go/rosenblatt/dataset"

func dataset0[T float32 | float64]() dataset.SparseRow[T] { return dataset.SparseRow[T]{} }
