#!/bin/sh
# How bench/results/serving/wrk-zen5.txt was made (from the repository
# root): requests/s and latency of "rosenblatt serve" on loopback under
# wrk (Debian's: apt-get install wrk), the load generator on the same 2
# vCPUs as the server, as the serving targets are stated: binary /predict,
# JSON /predict and the Open Inference Protocol's REST inference, one
# sample and 64 samples of 784 float32 features a request, against a
# binary perceptron of 784 features (trained by the script on random
# data: the model's cost is a 784-term dot product a sample). Then, under
# the same wrk command and the same 1-sample bodies, a bare net/http
# handler that reads the body and answers "{}": the ceiling of this
# machine, client and HTTP stack, whatever the handler does (run first,
# before the JSON cases and last, so that the load it ran under is
# beside theirs).
#
# Each case: wrk -t1 -c4 -d8s --latency, after a 2 s warm-up, in ROUNDS
# (3) interleaved rounds; the load average is printed before and after
# each, with the CPU time the server and wrk spent a request (from
# /proc/PID/stat and getrusage), and the summary gives the medians. The
# machine is shared with other jobs (their builds and tests are not under
# the benchmark lock): read the requests/s with the load beside them; the
# CPU a request takes is what the load changes least.
set -e
out=${OUT:-bench/results/serving/wrk-zen5.txt}
tmp=$(mktemp -d)
trap 'kill $(cat $tmp/pids 2>/dev/null) 2>/dev/null; rm -rf $tmp' EXIT
go build -o $tmp/rosenblatt ./cmd/rosenblatt
cat > $tmp/hello.go <<'EOF'
package main

import (
	"io"
	"net/http"
	"os"
)

func main() {
	http.ListenAndServe(os.Args[1], http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, "{}\n")
	}))
}
EOF
(cd $tmp && go build -o hello hello.go)

# The data, the model and the request bodies.
python3 - $tmp <<'EOF'
import json, random, struct, sys
d = sys.argv[1]
rng = random.Random(1)
with open(d + "/train.libsvm", "w") as f:
    for i in range(400):
        x = [rng.uniform(-1, 1) for _ in range(784)]
        y = 1 if x[0] + 0.5 * x[1] > 0 else -1
        f.write("%d %s\n" % (y, " ".join("%d:%.6g" % (j + 1, v) for j, v in enumerate(x))))
for n in (1, 64):
    X = [[round(rng.uniform(0, 1), 6) for _ in range(784)] for _ in range(n)]
    flat = [v for row in X for v in row]
    with open("%s/bin%d" % (d, n), "wb") as f:
        f.write(b"RBRQ" + bytes([4, 0, 0, 0]) + struct.pack("<II", n, 784) + struct.pack("<%df" % len(flat), *flat))
    with open("%s/json%d" % (d, n), "w") as f:
        json.dump({"x": X[0]} if n == 1 else {"rows": X}, f)
    with open("%s/oip%d" % (d, n), "w") as f:
        json.dump({"inputs": [{"name": "input", "shape": [n, 784], "datatype": "FP32", "data": flat}]}, f)
EOF
$tmp/rosenblatt train -q -o $tmp/m.model $tmp/train.libsvm
for b in bin json oip; do
	for n in 1 64; do
		ct=application/json
		[ $b = bin ] && ct=application/octet-stream
		cat > $tmp/$b$n.lua <<EOF
wrk.method = "POST"
wrk.headers["Content-Type"] = "$ct"
local f = io.open("$tmp/$b$n", "rb")
wrk.body = f:read("*all")
f:close()
EOF
	done
done

$tmp/rosenblatt serve -model $tmp/m.model -addr 127.0.0.1:18080 -poll 0 2>$tmp/serve.log &
serve_pid=$!
echo $serve_pid >> $tmp/pids
$tmp/hello 127.0.0.1:18081 &
hello_pid=$!
echo $hello_pid >> $tmp/pids
sleep 1
# Every body answered 200 by its endpoint before the runs.
for c in "bin1 /predict" "json1 /predict" "oip1 /v2/models/m/infer" "bin64 /predict" "json64 /predict" "oip64 /v2/models/m/infer"; do
	set -- $c
	ct=application/json
	case $1 in bin*) ct=application/octet-stream ;; esac
	code=$(curl -s -o /dev/null -w '%{http_code}' -H "Content-Type: $ct" --data-binary @$tmp/$1 http://127.0.0.1:18080$2)
	[ "$code" = 200 ] || { echo "$1 $2: status $code" >&2; exit 1; }
done

exec 9>/work/wt/bench.lock
flock 9 # the benchmark lock, shared with the other jobs' benchmarks, held to the end
{
	$tmp/rosenblatt cpu | head -12
	echo
	echo "model: binary perceptron, 784 features, float32 (rosenblatt train on 400 random rows)"
	echo "wrk: $(wrk -v 2>&1 | head -1)"
	echo "server: rosenblatt serve -model m.model -addr 127.0.0.1:18080 -poll 0 (pid $serve_pid); hello: pid $hello_pid"
	echo
	python3 - $tmp $serve_pid $hello_pid ${ROUNDS:-3} ${SECONDS_PER_RUN:-8} <<'PY'
import os, re, resource, statistics, subprocess, sys
tmp, serve_pid, hello_pid, rounds, secs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
S, H = "http://127.0.0.1:18080", "http://127.0.0.1:18081/"
cases = [  # name, url, body, server pid
    ("hello net/http, binary 1-sample body", H, "bin1", hello_pid),
    ("binary /predict, 1 sample", S + "/predict", "bin1", serve_pid),
    ("hello net/http, JSON 1-sample body", H, "json1", hello_pid),
    ("JSON /predict, 1 sample", S + "/predict", "json1", serve_pid),
    ("OIP REST infer, 1 sample", S + "/v2/models/m/infer", "oip1", serve_pid),
    ("binary /predict, 64 samples", S + "/predict", "bin64", serve_pid),
    ("JSON /predict, 64 samples", S + "/predict", "json64", serve_pid),
    ("OIP REST infer, 64 samples", S + "/v2/models/m/infer", "oip64", serve_pid),
]
def cpu(pid):  # utime + stime of a process, in seconds
    f = open("/proc/%s/stat" % pid).read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")
def children():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime
def load():
    return open("/proc/loadavg").read().split()[0]
def us(t):  # wrk's latency text to microseconds
    v, u = re.match(r"([\d.]+)(us|ms|s)", t).groups()
    return float(v) * {"us": 1, "ms": 1e3, "s": 1e6}[u]
res = {c[0]: [] for c in cases}
for r in range(rounds):
    for name, url, body, pid in cases:
        script = "%s/%s.lua" % (tmp, body)
        subprocess.run(["wrk", "-t1", "-c4", "-d2s", "-s", script, url], capture_output=True)
        l0, s0, w0 = load(), cpu(pid), children()
        cmd = ["wrk", "-t1", "-c4", "-d%ss" % secs, "--latency", "-s", script, url]
        out = subprocess.run(cmd, capture_output=True, text=True).stdout
        s1, w1, l1 = cpu(pid), children(), load()
        n = int(re.search(r"(\d+) requests in", out).group(1))
        bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
        row = dict(rps=float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),
                   p50=us(re.search(r"^\s+50%\s+(\S+)", out, re.M).group(1)), p99=us(re.search(r"^\s+99%\s+(\S+)", out, re.M).group(1)),
                   srv=(s1 - s0) / n * 1e6, wrk=(w1 - w0) / n * 1e6, load=(l0, l1), bad=int(bad.group(1)) if bad else 0)
        res[name].append(row)
        print("== round %d: %s   (load average %s before, %s after)" % (r + 1, name, l0, l1))
        print("$ " + " ".join(cmd).replace(tmp + "/", ""))
        print(out.rstrip())
        print("server CPU %.1f µs a request, wrk CPU %.1f µs a request" % (row["srv"], row["wrk"]))
        print()
print("Summary: the median of %d rounds; CPU is user + system time of the server process and of wrk," % rounds)
print("per request; 'idle 2-vCPU bound' is 2 s / (server + wrk CPU per request): what the two vCPUs could")
print("serve to this client if nothing else ran on them.")
print()
print("| case | requests/s | p50 µs | p99 µs | server CPU µs/req | wrk CPU µs/req | idle 2-vCPU bound req/s | non-2xx | load avg (1 min) |")
print("|---|---|---|---|---|---|---|---|---|")
for name, *_ in cases:
    rs = res[name]
    med = lambda k: statistics.median(x[k] for x in rs)
    print("| %s | %.0f | %.0f | %.0f | %.1f | %.1f | %.0f | %d | %s |" % (name, med("rps"), med("p50"), med("p99"), med("srv"), med("wrk"),
          2e6 / (med("srv") + med("wrk")), sum(x["bad"] for x in rs), " ".join("%s–%s" % x["load"] for x in rs)))
PY
	grep -c . $tmp/serve.log | sed 's/^/server log lines: /'
} > $out 2>&1
