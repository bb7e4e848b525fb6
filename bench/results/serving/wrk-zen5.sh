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
# Each case: wrk -t1 -c4 -d8s --latency, after a 2 s warm-up; the load
# average is printed before and after each. The machine is shared with
# other jobs (their builds and tests are not under the benchmark lock):
# read the figures with the load beside them.
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
echo $! >> $tmp/pids
$tmp/hello 127.0.0.1:18081 &
echo $! >> $tmp/pids
sleep 1
# Every body answered 200 by its endpoint before the runs.
for c in "bin1 /predict" "json1 /predict" "oip1 /v2/models/m/infer" "bin64 /predict" "json64 /predict" "oip64 /v2/models/m/infer"; do
	set -- $c
	ct=application/json
	case $1 in bin*) ct=application/octet-stream ;; esac
	code=$(curl -s -o /dev/null -w '%{http_code}' -H "Content-Type: $ct" --data-binary @$tmp/$1 http://127.0.0.1:18080$2)
	[ "$code" = 200 ] || { echo "$1 $2: status $code" >&2; exit 1; }
done

run() { # name url body
	wrk -t1 -c4 -d2s -s $tmp/$3.lua $2 >/dev/null
	echo "== $1  ($(uptime | sed 's/.*load average/load average/'))"
	echo "\$ wrk -t1 -c4 -d8s --latency -s $3.lua $2"
	wrk -t1 -c4 -d8s --latency -s $tmp/$3.lua $2
	echo "   after: $(uptime | sed 's/.*load average/load average/')"
	echo
}
exec 9>/work/wt/bench.lock
flock 9 # the benchmark lock, shared with the other jobs' benchmarks, held to the end
{
	$tmp/rosenblatt cpu | head -12
	echo
	echo "model: binary perceptron, 784 features, float32 (rosenblatt train on 400 random rows)"
	echo "wrk: $(wrk -v 2>&1 | head -1)"
	echo
	run hello-net/http-binary-1-body http://127.0.0.1:18081/ bin1
	run binary-1 http://127.0.0.1:18080/predict bin1
	run hello-net/http-json-1-body http://127.0.0.1:18081/ json1
	run json-1 http://127.0.0.1:18080/predict json1
	run oip-rest-1 http://127.0.0.1:18080/v2/models/m/infer oip1
	run binary-64 http://127.0.0.1:18080/predict bin64
	run json-64 http://127.0.0.1:18080/predict json64
	run oip-rest-64 http://127.0.0.1:18080/v2/models/m/infer oip64
	run hello-net/http-binary-1-body http://127.0.0.1:18081/ bin1
	grep -c . $tmp/serve.log | sed 's/^/server log lines: /'
} > $out 2>&1
