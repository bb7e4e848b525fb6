// Package doclinks holds no code: its test checks that the documentation's
// references resolve. Every bench/results/... path named in a Markdown or Go
// file of the repository must exist (brace lists {a,b} and glob patterns
// must match at least one file), and every relative link of a Markdown file
// must name a file or directory of the repository.
package doclinks
