#!/bin/sh
# The online-learning walkthrough of docs/learning.md, run from the
# repository's root: sh bench/results/learning/walkthrough.sh
# Needs Debian's dataset-fashion-mnist and /usr/bin/python3.
set -e
W=$(mktemp -d)
trap 'kill $PID 2>/dev/null; rm -rf $W' EXIT
PY=/usr/bin/python3
S=bench/results/learning/stream.py
ADDR=127.0.0.1:18931
go build -o $W/rosenblatt ./cmd/rosenblatt
echo '$ stream.py start start.svm 100   # the first 100 training images'
$PY $S start $W/start.svm 100
echo '$ rosenblatt train -multiclass ovr -epochs 1 -resumable -cols 784 -o fm.model start.svm'
$W/rosenblatt train -multiclass ovr -epochs 1 -resumable -cols 784 -o $W/fm.model $W/start.svm 2>&1 | tail -3
head -c 24 /dev/urandom | base64 > $W/token
serve() {
	$W/rosenblatt serve -model $W/fm.model -learn-dir $W/learn -token-file $W/token -fsync 0 -addr $ADDR 2>>$W/serve.log &
	PID=$!
	until curl -sf http://$ADDR/healthz >/dev/null; do sleep 0.1; done
}
echo '$ rosenblatt serve -model fm.model -learn-dir learn -token-file token -fsync 0 &'
serve
echo '$ stream.py test http://'$ADDR'   # before learning'
$PY $S test http://$ADDR
echo '$ stream.py learn http://'$ADDR' $(cat token) 100 20000 10'
$PY $S learn http://$ADDR "$(cat $W/token)" 100 20000 10
echo '$ stream.py test http://'$ADDR
$PY $S test http://$ADDR
echo '$ kill -9 $SERVER; rosenblatt serve ... &   # the same command again'
kill -9 $PID
wait $PID 2>/dev/null || true
serve
echo '$ curl -s -H "Authorization: Bearer $(cat token)" http://'$ADDR'/learn/status'
curl -s -H "Authorization: Bearer $(cat $W/token)" http://$ADDR/learn/status | $PY -c 'import json,sys; s=json.load(sys.stdin); print(json.dumps({k: s[k] for k in ("version","base","checkpoint","sync","recovery")}))'
echo '$ stream.py test http://'$ADDR'   # the same model after the kill'
$PY $S test http://$ADDR
echo '$ curl -s -X POST http://'$ADDR'/learn -d ...   # without the token'
curl -s -X POST http://$ADDR/learn -d '{"x":[0],"y":1}'
