// Command debtext builds a short-text classification set from a Debian
// package index (the Packages file that apt keeps offline in
// /var/lib/apt/lists, lz4-compressed there): each binary package is a
// document, the first line of its Description (the one-line synopsis, about
// seven words) its text and its Section its label.
//
//	lz4 -dc /var/lib/apt/lists/deb.debian.org_debian_dists_bookworm_main_binary-amd64_Packages.lz4 |
//		go -C bench run ./debtext -o /tmp/debtext
//
// The recipe, fixed so that the same index always gives the same bytes:
//
//   - Packages: every stanza with a Package, a Section and a Description
//     field; a package name seen before is skipped (the first stanza wins).
//   - Labels: the 20 most frequent sections (ties by name), a package of
//     any other section is left out.
//   - Split: a package is in the test set when FNV-1a (32-bit) of its name
//     is 0 modulo 5 (about a fifth); both files keep the index's order
//     (package names, ascending).
//   - Output: <name>.{train,test}.txt, fastText lines "__label__<section>
//     <synopsis>" (the raw text of rosenblatt train, fastText and
//     scikit-learn), and, with -libsvm, <name>.{train,test}.libsvm: the same
//     documents featurized by package text's default featurizer (unigrams
//     and bigrams hashed into 2²⁰ columns, 1 + ln tf, unit rows; what
//     rosenblatt train does to text), labels 1..20 in the order of
//     <name>.labels, columns 1-based, values the shortest decimal of their
//     float32.
//
// It prints the counts per label and the SHA-256 sums of the files it
// writes.
package main

import (
	"bufio"
	"bytes"
	"cmp"
	"crypto/sha256"
	"flag"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/rosenblatt-go/rosenblatt/text"
)

type pkg struct{ name, section, synopsis string }

func main() {
	out := flag.String("o", ".", "output directory")
	name := flag.String("name", "debtext", "base name of the files written")
	classes := flag.Int("classes", 20, "number of sections kept (the most frequent)")
	libsvm := flag.Bool("libsvm", false, "also write the featurized rows as LIBSVM files")
	flag.Parse()
	if err := run(os.Stdin, *out, *name, *classes, *libsvm); err != nil {
		fmt.Fprintln(os.Stderr, "debtext:", err)
		os.Exit(1)
	}
}

// parse reads the stanzas of a Packages file.
func parse(r io.Reader) ([]pkg, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	var all []pkg
	seen := map[string]bool{}
	var cur pkg
	flush := func() {
		if cur.name != "" && cur.section != "" && cur.synopsis != "" && !seen[cur.name] {
			seen[cur.name] = true
			all = append(all, cur)
		}
		cur = pkg{}
	}
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 {
			flush()
			continue
		}
		if line[0] == ' ' || line[0] == '\t' {
			continue // a continuation line (the long description and others)
		}
		k, v, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			continue
		}
		v = bytes.TrimSpace(v)
		switch string(k) {
		case "Package":
			cur.name = string(v)
		case "Section":
			cur.section = string(v)
		case "Description":
			cur.synopsis = string(v)
		}
	}
	flush()
	return all, sc.Err()
}

func run(in io.Reader, dir, name string, classes int, libsvm bool) error {
	all, err := parse(in)
	if err != nil {
		return err
	}
	count := map[string]int{}
	for _, p := range all {
		count[p.section]++
	}
	var secs []string
	for s := range count {
		secs = append(secs, s)
	}
	slices.SortFunc(secs, func(a, b string) int {
		return cmp.Or(cmp.Compare(count[b], count[a]), cmp.Compare(a, b))
	})
	if len(secs) > classes {
		secs = secs[:classes]
	}
	label := map[string]int{}
	for i, s := range secs {
		label[s] = i + 1
	}
	var train, test []pkg
	for _, p := range all {
		if label[p.section] == 0 {
			continue
		}
		h := fnv.New32a()
		h.Write([]byte(p.name))
		if h.Sum32()%5 == 0 {
			test = append(test, p)
		} else {
			train = append(train, p)
		}
	}
	fmt.Printf("%d packages, %d sections; kept %d sections: %d training, %d test documents\n",
		len(all), len(count), len(secs), len(train), len(test))
	var labels bytes.Buffer
	for i, s := range secs {
		fmt.Fprintf(&labels, "%d %s %d\n", i+1, s, count[s])
	}
	fmt.Print(labels.String())
	if err := write(filepath.Join(dir, name+".labels"), labels.Bytes()); err != nil {
		return err
	}
	f, err := text.New(text.DefaultOptions())
	if err != nil {
		return err
	}
	for _, part := range []struct {
		suffix string
		docs   []pkg
	}{{"train", train}, {"test", test}} {
		var b bytes.Buffer
		for _, p := range part.docs {
			fmt.Fprintf(&b, "%s%s %s\n", text.LabelPrefix, p.section, p.synopsis)
		}
		if err := write(filepath.Join(dir, name+"."+part.suffix+".txt"), b.Bytes()); err != nil {
			return err
		}
		if !libsvm {
			continue
		}
		rows := text.NewRows[float32](f)
		for _, p := range part.docs {
			rows.AppendString(p.synopsis, label[p.section])
		}
		c := rows.CSR
		b.Reset()
		for i := range c.Rows {
			b.WriteString(strconv.Itoa(c.Y[i]))
			for k := c.Ptr[i]; k < c.Ptr[i+1]; k++ {
				b.WriteByte(' ')
				b.WriteString(strconv.Itoa(int(c.Idx[k]) + 1))
				b.WriteByte(':')
				b.WriteString(strconv.FormatFloat(float64(c.Val[k]), 'g', -1, 32))
			}
			b.WriteByte('\n')
		}
		used := map[int32]bool{}
		for _, j := range c.Idx {
			used[j] = true
		}
		fmt.Printf("%s: %d rows, %d stored values (%.1f a row), %d columns used\n",
			part.suffix, c.Rows, c.NNZ(), float64(c.NNZ())/float64(max(c.Rows, 1)), len(used))
		if err := write(filepath.Join(dir, name+"."+part.suffix+".libsvm"), b.Bytes()); err != nil {
			return err
		}
	}
	return nil
}

// write writes data to path through a temporary file renamed into place,
// and prints its SHA-256 sum.
func write(path string, data []byte) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	fmt.Printf("%x  %s\n", sha256.Sum256(data), filepath.Base(path))
	return nil
}
