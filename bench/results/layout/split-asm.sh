#!/usr/bin/env bash
# split-asm.sh: the machine code of the perceptron trainers' hot loops
# before (A, default 60cae27) and after (B, default HEAD) the kernel
# perceptron's trainer moved to internal/kernelperceptron: each function of
# the float32 instantiation is disassembled from the perceptron test binary
# (go tool objdump), with code addresses and symbol names masked (field
# offsets, registers and every instruction kept), and the two listings are
# compared line for line; the last column compares them with the constant
# offsets of memory operands masked too (a struct laid out anew moves its
# fields) and NOP padding dropped. Set A_BIN/B_BIN to test binaries already built.
set -euo pipefail
A=${1:-60cae27}
B=${2:-HEAD}
root=$(git rev-parse --show-toplevel)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
build() { # rev out
	mkdir -p "$tmp/src-$1"
	git -C "$root" archive "$1" | tar -x -C "$tmp/src-$1"
	(cd "$tmp/src-$1" && go test -c -o "$2" ./perceptron/)
}
abin=${A_BIN:-$tmp/A.test}
bbin=${B_BIN:-$tmp/B.test}
[ -n "${A_BIN:-}" ] || build "$A" "$abin"
[ -n "${B_BIN:-}" ] || build "$B" "$bbin"
norm() { # binary function
	go tool objdump -s "^$(printf '%s' "$2" | sed 's/[][().*]/\\&/g')\$" "$1" |
		sed -E 's/[[:space:]]+$//' | awk -F'\t' '/^  / && NF >= 4 {print $NF}' |
		sed -E 's/0x[0-9a-f]{6,}/ADDR/g; s/[^ ,]+\(SB\)/SYM/g'
}
p=github.com/rosenblatt-go/rosenblatt
echo "# split-asm.sh $A $B, $(go version)"
echo "# function (float32 instantiation) | instructions A | B | differing lines | differing, offsets masked"
cmp() { # label fnA fnB
	norm "$abin" "$2" >"$tmp/a.s"
	norm "$bbin" "$3" >"$tmp/b.s"
	off() { sed -E 's/-?0x[0-9a-f]+\(/OFF(/g; s/(^| )0\(/\1OFF(/g' "$1" | grep -v '^NOP'; }
	off "$tmp/a.s" >"$tmp/a.o"
	off "$tmp/b.s" >"$tmp/b.o"
	echo "$1 | $(wc -l <"$tmp/a.s") | $(wc -l <"$tmp/b.s") | $(diff "$tmp/a.s" "$tmp/b.s" | grep -c '^[<>]' || true) | $(diff "$tmp/a.o" "$tmp/b.o" | grep -c '^[<>]' || true)"
}
for f in linTrainer.epochSeq linTrainer.visit linTrainer.visitSVM linTrainer.epochBlock linTrainer.epochGroup \
	linTrainer.epochSparseOvR linTrainer.scoreVisits argmaxTrainer.epoch argmaxTrainer.epochSparse argmaxTrainer.judge; do
	fn="$p/perceptron.(*${f%%.*}[go.shape.float32]).${f#*.}"
	cmp "perceptron $f" "$fn" "$fn"
done
for f in epochClasses epochArgmax cachedRow wrongNow warmStart diagnose; do
	cmp "kernel $f (perceptron.dualTrainer -> kernelperceptron.Trainer)" \
		"$p/perceptron.(*dualTrainer[go.shape.float32]).$f" \
		"$p/internal/kernelperceptron.(*Trainer[go.shape.float32]).$f"
done
