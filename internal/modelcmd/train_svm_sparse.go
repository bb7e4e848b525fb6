package modelcmd

import (
	"fmt"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// svmData is what train -algo svm reads: dense rows, or for a LIBSVM file
// (unless -dense or -data-margin) CSR rows, which both SVMs train on
// without densifying (svm.Fit, svm.FitLinear on a CSR). data (and test)
// hold only the labels and shape when the rows are sparse.
type svmData[T kernel.Float] struct {
	data, test   *dataset.Data[T]
	csr, testCSR *dataset.CSR[T]
	format       string
	repr         string // the representation and why, for -v
}

// rows returns the training rows the SVM trains on: the CSR when the data
// is kept sparse, else the dense matrix.
func (sd *svmData[T]) rows() dataset.Rows[T] {
	if sd.csr != nil {
		return sd.csr
	}
	return sd.data
}

// labels returns the training labels.
func (sd *svmData[T]) labels() []int {
	if sd.csr != nil {
		return sd.csr.Y
	}
	return sd.data.Y
}

// loadSVMData reads the training file at path and the -test file.
func loadSVMData[T kernel.Float](tf *trainFlags, path string) (*svmData[T], error) {
	sparse, repr, err := tf.representation(path)
	if err != nil {
		return nil, err
	}
	if !sparse {
		data, test, format, err := loadTrainTest[T](tf, path)
		if err != nil {
			return nil, err
		}
		return &svmData[T]{data: data, test: test, format: format, repr: repr}, nil
	}
	sd := &svmData[T]{format: fmtLIBSVM}
	if sd.csr, err = loadSparse[T](path, tf.data.cols, &tf.data); err != nil {
		return nil, err
	}
	c := sd.csr
	sd.repr = repr + fmt.Sprintf(", %d stored values (%.1f per row), %.1f MB; the solver reads only the stored values",
		c.NNZ(), float64(c.NNZ())/float64(max(c.Rows, 1)), float64(c.Bytes())/1e6)
	sd.data = &dataset.Data[T]{Y: c.Y, Rows: c.Rows, Cols: c.Cols}
	if tf.test != "" {
		if tsparse, _, _ := tf.representation(tf.test); tsparse {
			if sd.testCSR, err = loadSparse[T](tf.test, c.Cols, &tf.data); err != nil {
				return nil, err
			}
			if sd.testCSR.Cols > c.Cols {
				return nil, fmt.Errorf("%s: %d features, more than the training data's %d", tf.test, sd.testCSR.Cols, c.Cols)
			}
			sd.test = &dataset.Data[T]{Y: sd.testCSR.Y, Rows: sd.testCSR.Rows, Cols: sd.testCSR.Cols}
		} else if sd.test, _, err = loadData[T](tf.test, &tf.data, c.Cols, "the training data"); err != nil {
			return nil, err
		}
	}
	return sd, nil
}

// predict returns m's label for every row of d, or of c if it is not nil.
func (sd *svmData[T]) predict(m svmModel[T], d *dataset.Data[T], c *dataset.CSR[T]) ([]int, error) {
	if c == nil {
		return predictAll[T](m, d)
	}
	pred := make([]int, c.Rows)
	if err := m.PredictBatchSparse(pred, c); err != nil {
		return nil, err
	}
	return pred, nil
}
