package interop

import (
	"errors"
	"strings"
	"testing"
)

const goodLIBSVM = `svm_type c_svc
kernel_type rbf
gamma 0.5
nr_class 3
total_sv 3
rho 0.1 -0.2 0.3
label 2 0 1
nr_sv 1 1 1
SV
1 0.5 1:1 3:2
-1 0.25 2:1
-0.5 -0.25 1:-1 2:0.5
`

const goodLIBLINEAR = `solver_type L2R_LR
nr_class 3
label 2 0 1
nr_feature 2
bias 1
w
0.1 0.2 0.3 
-0.1 0.5 1 
1 2 3 
`

// TestGood checks the two hand-written files parse as the package
// documentation says: the labels sorted, the file order kept.
func TestGood(t *testing.T) {
	f, err := ReadLIBSVM([]byte(goodLIBSVM), nil)
	if err != nil {
		t.Fatal(err)
	}
	if f.Model.NumSupport() != 3 || f.Model.Dims() != 3 || f.Voting == nil || f.SVMType != "c_svc" {
		t.Errorf("LIBSVM: %d SVs, %d dims, Voting %v, %s", f.Model.NumSupport(), f.Model.Dims(), f.Voting != nil, f.SVMType)
	}
	if got := f.Model.Classes(); got[0] != 0 || got[2] != 2 || f.Labels[0] != 2 {
		t.Errorf("LIBSVM labels %v, file order %v", got, f.Labels)
	}
	if _, err := f.Voting.MarshalBinary(); !errors.Is(err, ErrUnsupported) {
		t.Errorf("Voting.MarshalBinary: %v, want ErrUnsupported", err)
	}
	if _, err := f.Voting.MarshalJSON(); !errors.Is(err, ErrUnsupported) {
		t.Errorf("Voting.MarshalJSON: %v, want ErrUnsupported", err)
	}
	l, err := ReadLIBLINEAR([]byte(goodLIBLINEAR))
	if err != nil {
		t.Fatal(err)
	}
	// Class 2 is the file's first column: its weights are 0.1, -0.1, bias 1.
	w, b := l.Model.Weights(2)
	if w[0] != 0.1 || w[1] != -0.1 || b != 1 || l.Solver != "L2R_LR" {
		t.Errorf("LIBLINEAR class 2: %v %v (%s)", w, b, l.Solver)
	}
}

// TestBadFiles checks that malformed and unsupported files are refused
// with the sentinel error and the line.
func TestBadFiles(t *testing.T) {
	rep := func(src, old, new string) string {
		if !strings.Contains(src, old) {
			t.Fatalf("%q not in the file", old)
		}
		return strings.Replace(src, old, new, 1)
	}
	cases := []struct {
		name, file string
		want       error
		line       string
	}{
		{"svm no SV line", rep(goodLIBSVM, "SV\n", ""), ErrSyntax, "line "},
		{"svm regression", rep(goodLIBSVM, "c_svc", "epsilon_svr"), ErrUnsupported, "line 1"},
		{"svm one-class", rep(goodLIBSVM, "c_svc", "one_class"), ErrUnsupported, "line 1"},
		{"svm precomputed", rep(goodLIBSVM, "kernel_type rbf", "kernel_type precomputed"), ErrUnsupported, "line 2"},
		{"svm sigmoid without coef0", rep(goodLIBSVM, "kernel_type rbf", "kernel_type sigmoid"), ErrSyntax, "coef0"},
		{"svm precomputed", rep(goodLIBSVM, "kernel_type rbf", "kernel_type precomputed"), ErrUnsupported, "line 2"},
		{"svm unknown key", rep(goodLIBSVM, "gamma 0.5", "gamma 0.5\nfoo 1"), ErrSyntax, "line 4"},
		{"svm repeated key", rep(goodLIBSVM, "gamma 0.5", "gamma 0.5\ngamma 1"), ErrSyntax, "line 4"},
		{"svm gamma NaN", rep(goodLIBSVM, "gamma 0.5", "gamma NaN"), ErrSyntax, "line 3"},
		{"svm gamma 0", rep(goodLIBSVM, "gamma 0.5", "gamma 0"), ErrModel, "line 2"},
		{"svm rho count", rep(goodLIBSVM, "rho 0.1 -0.2 0.3", "rho 0.1 -0.2"), ErrSyntax, "line 6"},
		{"svm repeated label", rep(goodLIBSVM, "label 2 0 1", "label 2 0 2"), ErrSyntax, "line 7"},
		{"svm nr_sv sum", rep(goodLIBSVM, "nr_sv 1 1 1", "nr_sv 1 1 2"), ErrSyntax, "line 8"},
		{"svm huge total_sv", rep(goodLIBSVM, "total_sv 3", "total_sv 99999999999"), ErrSyntax, "line 5"},
		{"svm huge nr_class", rep(goodLIBSVM, "nr_class 3", "nr_class 4000000000"), ErrSyntax, "line 4"},
		{"svm short SV", rep(goodLIBSVM, "-1 0.25 2:1", "-1"), ErrSyntax, "line 11"},
		{"svm missing SV", rep(goodLIBSVM, "-0.5 -0.25 1:-1 2:0.5\n", ""), ErrSyntax, "line 11"},
		{"svm extra SV", goodLIBSVM + "1 1 1:1\n", ErrSyntax, "line 13"},
		{"svm index order", rep(goodLIBSVM, "1:1 3:2", "3:1 1:2"), ErrSyntax, "line 10"},
		{"svm index 0", rep(goodLIBSVM, "1:1 3:2", "0:1 3:2"), ErrSyntax, "line 10"},
		{"svm not a pair", rep(goodLIBSVM, "1:1 3:2", "1:1 3"), ErrSyntax, "line 10"},
		{"svm bad value", rep(goodLIBSVM, "2:1\n", "2:1e999\n"), ErrSyntax, "line 11"},
		{"linear no w", rep(goodLIBLINEAR, "w\n", ""), ErrSyntax, "line "},
		{"linear regression", rep(goodLIBLINEAR, "L2R_LR", "L2R_L2LOSS_SVR"), ErrUnsupported, "line 1"},
		{"linear unknown solver", rep(goodLIBLINEAR, "L2R_LR", "FOO"), ErrSyntax, "line 1"},
		{"linear one class", rep(rep(goodLIBLINEAR, "nr_class 3", "nr_class 1"), "label 2 0 1", "label 2"), ErrUnsupported, "line 2"},
		{"linear label count", rep(goodLIBLINEAR, "label 2 0 1", "label 2 0"), ErrSyntax, "line 3"},
		{"linear huge nr_feature", rep(goodLIBLINEAR, "nr_feature 2", "nr_feature 60"), ErrSyntax, "line 6"},
		{"linear short w", rep(goodLIBLINEAR, "-0.1 0.5 1 ", "-0.1 0.5"), ErrSyntax, "line 8"},
		{"linear missing w", rep(goodLIBLINEAR, "1 2 3 \n", ""), ErrSyntax, "line 8"},
		{"linear extra", goodLIBLINEAR + "4 5 6\n", ErrSyntax, "line 10"},
		{"linear bad weight", rep(goodLIBLINEAR, "1 2 3", "1 2 x"), ErrSyntax, "line 9"},
		{"linear bias inf", rep(goodLIBLINEAR, "bias 1", "bias inf"), ErrSyntax, "line 5"},
	}
	for _, c := range cases {
		badLIBSVM = append(badLIBSVM, c.file)
		var err error
		if strings.HasPrefix(c.name, "svm") {
			_, err = ReadLIBSVM([]byte(c.file), nil)
		} else {
			_, err = ReadLIBLINEAR([]byte(c.file))
		}
		if !errors.Is(err, c.want) || !strings.Contains(fmt1(err), c.line) {
			t.Errorf("%s: %v, want %v naming %q", c.name, err, c.want, c.line)
		}
	}
}

// badLIBSVM collects the files of TestBadFiles (LIBSVM's and LIBLINEAR's).
var badLIBSVM []string

// badLIBSVMFiles returns the malformed LIBSVM files of TestBadFiles.
func badLIBSVMFiles(t *testing.T) []string {
	if badLIBSVM == nil {
		t.Run("TestBadFiles", TestBadFiles)
	}
	var out []string
	for _, f := range badLIBSVM {
		if strings.HasPrefix(f, LIBSVMPrefix) {
			out = append(out, f)
		}
	}
	return out
}

func fmt1(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestTooLarge checks Options.MaxValues bounds the one-vs-one coefficients.
func TestTooLarge(t *testing.T) {
	_, err := ReadLIBSVM([]byte(goodLIBSVM), &Options{MaxValues: 8})
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "Options.MaxValues") {
		t.Errorf("MaxValues 8 for 9 coefficients: %v", err)
	}
	if _, err := ReadLIBSVM([]byte(goodLIBSVM), &Options{MaxValues: 9}); err != nil {
		t.Errorf("MaxValues 9: %v", err)
	}
}
