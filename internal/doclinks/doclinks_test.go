package doclinks

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// root is the repository root, two levels up from this package.
const root = "../.."

// resultsPath matches a bench/results path as the docs and comments write
// it: a file, a directory, a brace list or a glob.
var resultsPath = regexp.MustCompile(`bench/results/[A-Za-z0-9._/{},*\[\]-]*`)

// mdLink matches the target of a Markdown link or image: ](target).
var mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// codeSpan matches a fenced code block or an inline code span, whose
// brackets and parentheses are code, not links.
var codeSpan = regexp.MustCompile("(?s)```.*?```|`[^`\n]*`")

// prose returns Markdown text without its code.
func prose(md string) string { return codeSpan.ReplaceAllString(md, "") }

// expand returns the paths a brace list stands for: a{b,c}d is abd and acd.
func expand(p string) []string {
	i := strings.IndexByte(p, '{')
	if i < 0 {
		return []string{p}
	}
	j := strings.IndexByte(p[i:], '}')
	if j < 0 {
		return []string{p}
	}
	var out []string
	for _, alt := range strings.Split(p[i+1:i+j], ",") {
		out = append(out, expand(p[:i]+alt+p[i+j+1:])...)
	}
	return out
}

// exists reports whether the repository has a file or directory at the
// slash-separated path p relative to root; p may be a glob.
func exists(t *testing.T, p string) bool {
	t.Helper()
	matches, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(p)))
	if err != nil {
		t.Errorf("bad pattern %q: %v", p, err)
		return false
	}
	return len(matches) > 0
}

// sources returns the Markdown and Go files of the repository, as paths
// relative to root, skipping version control and hidden directories.
func sources(t *testing.T) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && strings.HasPrefix(d.Name(), ".") {
			return filepath.SkipDir
		}
		if !d.IsDir() && (strings.HasSuffix(path, ".md") || strings.HasSuffix(path, ".go")) {
			rel, err := filepath.Rel(root, path)
			if err != nil {
				return err
			}
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 10 {
		t.Fatalf("found only %d Markdown and Go files under %s", len(files), root)
	}
	return files
}

func TestResultsPathsExist(t *testing.T) {
	checked := 0
	for _, f := range sources(t) {
		if strings.HasPrefix(f, "internal/doclinks/") {
			continue // the patterns above
		}
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range resultsPath.FindAllString(string(b), -1) {
			m = strings.TrimRight(m, ".,")
			if i := strings.IndexByte(m, ']'); i >= 0 && !strings.Contains(m[:i], "[") {
				m = m[:i] // the end of a Markdown link's text
			}
			for _, p := range expand(m) {
				checked++
				// A last element without an extension may be the prefix a
				// script's outputs are named from (roofline-zen5 for
				// roofline-zen5.txt, .json, .svg).
				if !exists(t, p) && (strings.Contains(path.Base(p), ".") || !exists(t, p+".*")) {
					t.Errorf("%s names %s, which does not exist", f, p)
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no bench/results path found: the pattern or the walk is wrong")
	}
}

func TestMarkdownLinksResolve(t *testing.T) {
	checked := 0
	for _, f := range sources(t) {
		if !strings.HasSuffix(f, ".md") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range mdLink.FindAllStringSubmatch(prose(string(b)), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "#") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			target, _, _ = strings.Cut(target, "#")
			p := filepath.ToSlash(filepath.Join(filepath.Dir(f), target))
			if strings.HasPrefix(p, "../") {
				t.Errorf("%s links %s, outside the repository", f, m[1])
				continue
			}
			checked++
			if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(p))); err != nil {
				t.Errorf("%s links %s: %v", f, m[1], err)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no relative Markdown link found: the pattern or the walk is wrong")
	}
}
