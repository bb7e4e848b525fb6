// Command textset builds the sparse text benchmark set of rosenblatt from
// the manual pages installed on the machine (a Debian system has some
// 20 000 offline): each page is a document labelled by its section (1, 2,
// 3, 5, 7 or 8), turned into hashed unigram and bigram features, weighted
// by tf-idf and scaled to unit length, and written as two LIBSVM files with
// a fixed train/test split.
//
//	go -C bench run ./textset -o /tmp/mantext      # writes mantext.{train,test}.libsvm
//
// The recipe, fixed so that the same pages always give the same bytes:
//
//   - Pages: the regular files (not symbolic links) of
//     /usr/share/man/man{1,2,3,5,7,8}, gzip-compressed or plain, in name
//     order; a page that only includes another (".so") is left out.
//   - Text: the raw roff source, with comment lines, macro definitions
//     (.de … ..) and the names of requests (".SH", ".B", …) removed, and
//     escape sequences (\fB, \-, \(em, \*(PI, \[…], \s-1, …) dropped. No
//     formatter runs, so the result does not depend on groff's version.
//   - Tokens: maximal runs of ASCII letters and digits, lower-cased, of 2 to
//     30 characters; unigrams and the bigrams of consecutive tokens.
//   - Features: FNV-1a (64-bit) of the token ("u " + word or "b " + word +
//     " " + word) modulo 2²⁰; colliding tokens add up.
//   - Weights: tf·idf with tf = 1 + ln(count) and the idf of the training
//     pages, ln((1 + N)/(1 + df)) + 1 (scikit-learn's smooth idf); each row
//     scaled to unit Euclidean norm, in float64, and written as the shortest
//     decimal of its float32 rounding.
//   - With -short, only the NAME section (from ".SH NAME" to the next
//     ".SH"; ".Sh" for mdoc pages): the one-line summary, a short-text set
//     of about a dozen stored values per page, written as mantext-name.*.
//   - With -fasttext, the same pages' tokens are also written as
//     fastText lines, "__label__<section> token token …", to
//     <name>.{train,test}.txt: the raw-text input of package text and of
//     fastText for the comparison of docs/benchmarks/text.md.
//   - Split: a page is in the test set when FNV-1a (32-bit) of
//     "man<section>/<file name>" is 0 modulo 5 (about a fifth).
//
// It prints the number of pages, features and stored values of each file
// and their SHA-256 sums; bench/textset/SHA256SUMS holds the sums of the
// sets the latest figures of docs/benchmarks/text.md were measured on: a Debian 12 machine
// with man-db, manpages and manpages-dev installed, 19 710 pages in those
// sections (earlier figures: another image of it, 19 753 pages; each
// results file prints the sums of its set; which man pages are installed
// decides the bytes:
// another machine gets another set; on a fresh Debian, install
// "man-db manpages manpages-dev" first; images that exclude /usr/share/man
// through dpkg's path-exclude have none).
package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"flag"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
)

const (
	dim      = 1 << 20
	minToken = 2
	maxToken = 30
)

var sections = []int{1, 2, 3, 5, 7, 8}

// short: only the NAME section of each page is read (-short).
var short, fastText bool

type page struct {
	path    string
	label   int
	test    bool
	counts  map[uint32]int // feature → occurrences
	words   string         // the tokens, space-separated (-fasttext)
	skipped bool
}

func main() {
	out := flag.String("o", ".", "output `directory`")
	root := flag.String("man", "/usr/share/man", "the manual page `directory`")
	prefix := flag.String("name", "", "file name `prefix` (default mantext, or mantext-name with -short)")
	flag.BoolVar(&fastText, "fasttext", false, "also write the tokens as fastText lines to <name>.{train,test}.txt")
	flag.BoolVar(&short, "short", false, "only the NAME section of each page (the one-line summary: a short-text set)")
	flag.Parse()
	if *prefix == "" {
		*prefix = "mantext"
		if short {
			*prefix = "mantext-name"
		}
	}
	if err := run(*root, *out, *prefix); err != nil {
		fmt.Fprintln(os.Stderr, "textset:", err)
		os.Exit(1)
	}
}

func run(root, out, prefix string) error {
	var pages []*page
	for _, s := range sections {
		dir := filepath.Join(root, fmt.Sprintf("man%d", s))
		ents, err := os.ReadDir(dir)
		if err != nil {
			return err
		}
		for _, e := range ents { // ReadDir sorts by name
			if !e.Type().IsRegular() {
				continue
			}
			h := fnv.New32a()
			fmt.Fprintf(h, "man%d/%s", s, e.Name())
			pages = append(pages, &page{path: filepath.Join(dir, e.Name()), label: s, test: h.Sum32()%5 == 0})
		}
	}
	if len(pages) == 0 {
		return fmt.Errorf("no manual pages under %s", root)
	}
	// Read and tokenize in parallel; everything after is sequential and in
	// page order.
	var next int
	var mu sync.Mutex
	var wg sync.WaitGroup
	errs := make([]error, len(pages))
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= len(pages) {
					return
				}
				errs[i] = pages[i].read()
			}
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return fmt.Errorf("%s: %w", pages[i].path, err)
		}
	}
	pages = slices.DeleteFunc(pages, func(p *page) bool { return p.skipped })
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	// Document frequencies of the training pages.
	df := make(map[uint32]int)
	ntrain := 0
	for _, p := range pages {
		if !p.test {
			ntrain++
			for f := range p.counts {
				df[f]++
			}
		}
	}
	for _, split := range []string{"train", "test"} {
		name := filepath.Join(out, prefix+"."+split+".libsvm")
		n, nnz, err := write(name, pages, split == "test", df, ntrain)
		if err != nil {
			return err
		}
		sum, err := sha256File(name)
		if err != nil {
			return err
		}
		fmt.Printf("%s  %s\n", sum, filepath.Base(name))
		fmt.Fprintf(os.Stderr, "%s: %d pages, %d features, %d stored values (%.1f per page)\n", name, n, dim, nnz, float64(nnz)/float64(n))
		if fastText {
			name = filepath.Join(out, prefix+"."+split+".txt")
			if err := writeFastText(name, pages, split == "test"); err != nil {
				return err
			}
			sum, err := sha256File(name)
			if err != nil {
				return err
			}
			fmt.Printf("%s  %s\n", sum, filepath.Base(name))
		}
	}
	return nil
}

// writeFastText writes the pages of a split as fastText lines.
func writeFastText(name string, pages []*page, test bool) error {
	var b bytes.Buffer
	for _, p := range pages {
		if p.test == test {
			fmt.Fprintf(&b, "__label__%d %s\n", p.label, p.words)
		}
	}
	tmp := name + ".tmp"
	if err := os.WriteFile(tmp, b.Bytes(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, name)
}

// write writes the pages of one split in LIBSVM format, atomically.
func write(name string, pages []*page, test bool, df map[uint32]int, ntrain int) (rows, nnz int, err error) {
	tmp, err := os.CreateTemp(filepath.Dir(name), ".textset-*")
	if err != nil {
		return 0, 0, err
	}
	defer os.Remove(tmp.Name())
	bw := bufio.NewWriterSize(tmp, 1<<20)
	var line []byte
	var feats []uint32
	var vals []float64
	for _, p := range pages {
		if p.test != test {
			continue
		}
		feats = feats[:0]
		for f := range p.counts {
			feats = append(feats, f)
		}
		slices.Sort(feats)
		vals = vals[:0]
		ss := 0.0
		for _, f := range feats {
			tf := 1 + math.Log(float64(p.counts[f]))
			idf := math.Log(float64(1+ntrain)/float64(1+df[f])) + 1
			v := tf * idf
			vals = append(vals, v)
			ss = ss + float64(v*v) // the conversion keeps the compiler from fusing
		}
		norm := math.Sqrt(ss)
		line = strconv.AppendInt(line[:0], int64(p.label), 10)
		for i, f := range feats {
			line = append(line, ' ')
			line = strconv.AppendInt(line, int64(f)+1, 10)
			line = append(line, ':')
			line = strconv.AppendFloat(line, float64(float32(vals[i]/norm)), 'g', -1, 32)
		}
		line = append(line, '\n')
		if _, err := bw.Write(line); err != nil {
			tmp.Close()
			return 0, 0, err
		}
		rows++
		nnz += len(feats)
	}
	if err := bw.Flush(); err != nil {
		tmp.Close()
		return 0, 0, err
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return 0, 0, err
	}
	if err := tmp.Close(); err != nil {
		return 0, 0, err
	}
	return rows, nnz, os.Rename(tmp.Name(), name)
}

func sha256File(name string) (string, error) {
	f, err := os.Open(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return fmt.Sprintf("%x", h.Sum(nil)), nil
}

// read reads the page and counts its features.
func (p *page) read() error {
	b, err := os.ReadFile(p.path)
	if err != nil {
		return err
	}
	if strings.HasSuffix(p.path, ".gz") {
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			return err
		}
		if b, err = io.ReadAll(zr); err != nil {
			return err
		}
	}
	text := bytes.TrimSpace(b)
	if bytes.HasPrefix(text, []byte(".so ")) && !bytes.Contains(text, []byte("\n")) {
		p.skipped = true // a page that only includes another
		return nil
	}
	toks := tokens(b)
	if len(toks) == 0 {
		p.skipped = true
		return nil
	}
	if fastText {
		p.words = strings.Join(toks, " ")
	}
	p.counts = make(map[uint32]int, 2*len(toks))
	for i, t := range toks {
		p.counts[feature("u "+t)]++
		if i > 0 {
			p.counts[feature("b "+toks[i-1]+" "+t)]++
		}
	}
	return nil
}

// feature hashes a token to a column.
func feature(tok string) uint32 {
	h := fnv.New64a()
	io.WriteString(h, tok)
	return uint32(h.Sum64() % dim)
}

// tokens returns the words of a roff source: see the package comment.
func tokens(src []byte) []string {
	var out []string
	inDef := false
	inName := false // in the NAME section (see -short)
	for _, line := range bytes.Split(src, []byte("\n")) {
		if short && (bytes.HasPrefix(line, []byte(".SH")) || bytes.HasPrefix(line, []byte(".Sh"))) {
			title := strings.Trim(strings.TrimSpace(string(line[3:])), `"`)
			inName = strings.EqualFold(title, "NAME")
			continue
		}
		if short && !inName {
			continue
		}
		if inDef {
			if bytes.HasPrefix(line, []byte("..")) {
				inDef = false
			}
			continue
		}
		if len(line) > 0 && (line[0] == '.' || line[0] == '\'') {
			req := line[1:]
			if bytes.HasPrefix(bytes.TrimLeft(req, " \t"), []byte(`\"`)) {
				continue // comment
			}
			name, rest, _ := bytes.Cut(bytes.TrimLeft(req, " \t"), []byte(" "))
			if string(name) == "de" || string(name) == "de1" || string(name) == "am" || string(name) == "ig" {
				inDef = true
				continue
			}
			line = rest
		}
		out = appendWords(out, stripEscapes(line))
	}
	return out
}

// stripEscapes removes roff escape sequences from a line.
func stripEscapes(line []byte) []byte {
	var b []byte
	for i := 0; i < len(line); i++ {
		c := line[i]
		if c != '\\' || i+1 >= len(line) {
			b = append(b, c)
			continue
		}
		i++
		switch e := line[i]; e {
		case '"': // comment to the end of the line
			return b
		case '(': // \(xx
			i += 2
		case '[': // \[name]
			for i < len(line) && line[i] != ']' {
				i++
			}
		case '*', 'f', 'F', 'n', 'g', 'k', 'm', 'M', 'V', 'Y': // \*x, \*(xx, \*[name]
			if i+1 < len(line) {
				switch line[i+1] {
				case '(':
					i += 3
				case '[':
					for i < len(line) && line[i] != ']' {
						i++
					}
				default:
					i++
				}
			}
		case 's': // \s+2, \s-1, \s0, \s(12, \s[12]
			for i+1 < len(line) && (line[i+1] == '+' || line[i+1] == '-' || line[i+1] == '(' || line[i+1] == '[' || line[i+1] == ']' || line[i+1] >= '0' && line[i+1] <= '9') {
				i++
			}
		case 'h', 'v', 'w', 'o', 'b', 'l', 'L', 'x', 'D', 'N', 'X', 'Z', 'A', 'B', 'C', 'R', 'S': // \h'…' and friends
			if i+1 < len(line) && line[i+1] == '\'' {
				i += 2
				for i < len(line) && line[i] != '\'' {
					i++
				}
			}
		case '-', 'e', '\\':
			b = append(b, ' ')
		default:
			b = append(b, ' ') // \&, \|, \^, \c, \0, \~, ...
		}
	}
	return b
}

// appendWords appends the tokens of s.
func appendWords(out []string, s []byte) []string {
	start := -1
	for i := 0; i <= len(s); i++ {
		var c byte
		if i < len(s) {
			c = s[i]
		}
		word := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		switch {
		case word && start < 0:
			start = i
		case !word && start >= 0:
			if n := i - start; n >= minToken && n <= maxToken {
				out = append(out, strings.ToLower(string(s[start:i])))
			}
			start = -1
		}
	}
	return out
}
