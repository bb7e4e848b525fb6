module github.com/rosenblatt-go/rosenblatt/bench

go 1.26

require (
	github.com/klauspost/cpuid/v2 v2.4.2
	github.com/rosenblatt-go/rosenblatt v0.0.0
	github.com/viterin/vek v0.4.3
	gonum.org/v1/gonum v0.17.0
)

require (
	github.com/chewxy/math32 v1.10.1 // indirect
	github.com/viterin/partial v1.1.0 // indirect
	go.yaml.in/yaml/v3 v3.0.6 // indirect
	golang.org/x/exp v0.0.0-20230817173708-d852ddb80c63 // indirect
	golang.org/x/sys v0.46.0 // indirect
)

// The benchmarks measure the library of this checkout.
replace github.com/rosenblatt-go/rosenblatt => ../
