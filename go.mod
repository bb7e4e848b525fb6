module github.com/rosenblatt-go/rosenblatt

go 1.26

require (
	github.com/klauspost/cpuid/v2 v2.4.2
	github.com/stretchr/testify v1.12.1
	golang.org/x/sys v0.46.0
)

require go.yaml.in/yaml/v3 v3.0.5 // indirect
