#!/usr/bin/python3
"""The online-learning walkthrough's client (docs/learning.md).

  stream.py start OUT.svm N          the first N Fashion-MNIST training images, LIBSVM
  stream.py learn URL TOKEN FROM N B  POST /learn the images FROM..FROM+N-1 in requests of B,
                                      each with its key; print the mistakes per 2,000 samples
  stream.py test URL                  the test set's accuracy through POST /predict
"""
import gzip, http.client, json, struct, sys, time, urllib.parse

D = "/usr/share/datasets/fashion-mnist/"

def images(name):
    with gzip.open(D + name + "-images-idx3-ubyte.gz") as f:
        _, n, r, c = struct.unpack(">IIII", f.read(16))
        data = f.read(n * r * c)
    with gzip.open(D + name + "-labels-idx1-ubyte.gz") as f:
        f.read(8)
        labels = f.read(n)
    return [list(data[i * 784:(i + 1) * 784]) for i in range(n)], list(labels)

def conn(url):
    u = urllib.parse.urlparse(url)
    return http.client.HTTPConnection(u.hostname, u.port)

def post(c, path, body, token=None):
    h = {"Content-Type": "application/json"}
    if token:
        h["Authorization"] = "Bearer " + token
    c.request("POST", path, json.dumps(body, separators=(",", ":")), h)
    r = c.getresponse()
    b = r.read()
    if r.status != 200:
        sys.exit("%s: %d %s" % (path, r.status, b.decode()))
    return json.loads(b)

def main():
    cmd = sys.argv[1]
    if cmd == "start":
        X, y = images("train")
        with open(sys.argv[2], "w") as f:
            for i in range(int(sys.argv[3])):
                f.write("%d %s\n" % (y[i], " ".join("%d:%d" % (j + 1, v) for j, v in enumerate(X[i]) if v)))
    elif cmd == "learn":
        url, token, start, n, b = sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
        X, y = images("train")
        c = conn(url)
        wrong = window = done = 0
        t0 = time.time()
        print("samples        mistakes in the last 2,000 (the model's prediction before it learnt each)")
        for i in range(start, start + n, b):
            rows = range(i, min(i + b, start + n))
            r = post(c, "/learn", {"key": "fm-%d" % i, "samples": [{"x": X[j], "y": y[j]} for j in rows]}, token)
            wrong += sum(p != y[j] for p, j in zip(r["predicted"], rows))
            window += len(rows)
            done += len(rows)
            if window == 2000:
                print("%6d-%-6d  %4d  %5.1f%%  %s" % (start + done - 2000, start + done - 1, wrong, 100.0 * wrong / 2000, "#" * (wrong // 40)))
                wrong = window = 0
        dt = time.time() - t0
        print("%d samples in %d requests, %.1f s (%.0f samples/s from one sequential client); model version %d" % (
            n, (n + b - 1) // b, dt, n / dt, r["version"]))
    elif cmd == "test":
        X, y = images("t10k")
        c = conn(sys.argv[2])
        right = 0
        for i in range(0, len(X), 500):
            r = post(c, "/predict", {"rows": X[i:i + 500]})
            right += sum(p == t for p, t in zip(r["labels"], y[i:i + 500]))
        print("test set accuracy through POST /predict: %d of %d, %.2f%%" % (right, len(X), 100.0 * right / len(X)))

main()
