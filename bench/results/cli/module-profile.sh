#!/bin/sh
# The compiler's CPU time for each of the module's packages (and main) in a
# build of the command with the standard library and the two dependencies
# already compiled: a build cache holding only those (made once, in
# $WARM, by go build -toolexec of std, x/sys/unix and cpuid, whose profile
# is $WARM.prof) is copied to a fresh directory, then go build -toolexec
# times every compile it runs. A cheaper, repeatable stand-in for the
# PROFILE= run of first-run-zen5.sh when only the module's packages change.
#
# Usage, from the repository root: sh bench/results/cli/module-profile.sh TREE OUT
# (TREE: a checkout, say a git archive of a commit; OUT gets a line
# "user system wall package" per compiled package). WARM defaults to
# /tmp/rosenblatt-warm-cache.
set -eu
tree=$1 out=$2
warm=${WARM:-/tmp/rosenblatt-warm-cache}
tx=$(mktemp -d)
trap 'rm -rf "$tx"' EXIT
cat >"$tx/time.sh" <<'TX'
#!/bin/sh
case "$1" in
*/compile)
	pkg=$(printf '%s\n' "$@" | awk 'prev == "-p" { print; exit } { prev = $0 }')
	exec /usr/bin/time -a -o "$PROFILE" -f "%U %S %e $pkg" "$@" ;;
*) exec "$@" ;;
esac
TX
chmod +x "$tx/time.sh"
# The toolexec program is part of every action's key: keep its path fixed.
mkdir -p /tmp/rosenblatt-toolexec
cp "$tx/time.sh" /tmp/rosenblatt-toolexec/time.sh
if [ ! -d "$warm" ]; then
	: >"$warm.prof"
	(cd "$tree" && GOCACHE=$warm PROFILE=$warm.prof go build -toolexec=/tmp/rosenblatt-toolexec/time.sh \
		std golang.org/x/sys/unix github.com/klauspost/cpuid/v2)
fi
cp -r "$warm/." "$tx/cache/" 2>/dev/null || { mkdir -p "$tx/cache" && cp -r "$warm/." "$tx/cache/"; }
: >"$out"
echo "load $(cut -d' ' -f1-3 /proc/loadavg)"
(cd "$tree" && GOCACHE=$tx/cache PROFILE=$(realpath "$out") /usr/bin/time -f "build wall %e user %U sys %S" \
	go build -toolexec=/tmp/rosenblatt-toolexec/time.sh -o /dev/null ./cmd/rosenblatt)
awk '{ printf "%7.2f %6.2f  %s\n", $1 + $2, $3, $4 }' "$out" | sort -rn | head -"${N:-14}"
awk '{ c = $1 + $2; all += c } END { printf "module compile CPU: %.1f s (%d packages)\n", all, NR }' "$out"
