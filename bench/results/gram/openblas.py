# OpenBLAS on the same machine, for the README Gram table: Debian python3-numpy
# with libopenblas0-pthread, where numpy computes A @ A.T with ?syrk.
#   OPENBLAS_NUM_THREADS=1 python3 bench/results/gram/openblas.py
#   OPENBLAS_NUM_THREADS=2 python3 bench/results/gram/openblas.py
import os, time, numpy as np
rng = np.random.default_rng(11)
for dt in (np.float32, np.float64):
    A = rng.random((4096, 784)).astype(dt)
    C = A @ A.T  # warm-up; numpy calls ?syrk for A @ A.T
    best = 1e9
    for _ in range(5):
        t = time.perf_counter(); C = A @ A.T; best = min(best, time.perf_counter() - t)
    n, d = A.shape
    print(f"{dt.__name__} threads={os.environ.get('OPENBLAS_NUM_THREADS')} A@A.T 4096x784: {best*1e3:.0f} ms, {n*(n+1)*d/best/1e9:.1f} GFLOP/s counted as N(N+1)D")
