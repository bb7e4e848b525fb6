#!/bin/sh
# What a fresh page costs on this machine: 64 MiB of fresh anonymous memory
# written one byte a page (one fault per 4 KiB page), against the same
# memory backed first by one madvise(MADV_POPULATE_WRITE) (internal/pages),
# and against one advised MADV_HUGEPAGE (2 MiB pages; the first round also
# has the host back them). Three rounds.
#
#	sh bench/results/text/populate-zen5.sh > bench/results/text/populate-zen5.txt 2>&1
set -eu
uptime
go run ./cmd/rosenblatt cpu 2>/dev/null | head -3; go version; uname -r
dir=$(mktemp -d)
cat > "$dir/main.go" <<'GO'
package main

import (
	"fmt"
	"syscall"
	"time"
)

const n = 64 << 20

func mapped() []byte {
	b, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		panic(err)
	}
	return b
}

func touch(b []byte) {
	for i := 0; i < len(b); i += 4096 {
		b[i] = 1
	}
}

func main() {
	for r := 1; r <= 3; r++ {
		b := mapped()
		t := time.Now()
		touch(b)
		faults := time.Since(t)
		syscall.Munmap(b)

		b = mapped()
		t = time.Now()
		err := syscall.Madvise(b, 23) // MADV_POPULATE_WRITE
		touch(b)
		populated := time.Since(t)
		syscall.Munmap(b)

		b = mapped()
		t = time.Now()
		syscall.Madvise(b, 14) // MADV_HUGEPAGE
		touch(b)
		huge := time.Since(t)
		syscall.Munmap(b)
		fmt.Printf("round %d: 64 MiB written a byte a page: faulted %v, populated first %v (madvise: %v), huge pages %v\n", r, faults, populated, err, huge)
	}
}
GO
printf 'module populate\ngo 1.26\n' > "$dir/go.mod"
(cd "$dir" && go run .)
rm -r "$dir"
uptime
