"""How the stored values of a LIBSVM file spread over its columns: the number
of distinct columns, the share of the stored values in the N most frequent
columns, and the share in columns seen at most c times.

    /usr/bin/python3 bench/results/text/mantext-columns.py /tmp/mantext/mantext.train.libsvm
"""
import sys, collections
cnt=collections.Counter()
rows=[]
for line in open(sys.argv[1]):
    p=line.split()
    idx=[int(t.split(':')[0]) for t in p[1:]]
    rows.append(idx)
    cnt.update(idx)
tot=sum(cnt.values())
print("distinct",len(cnt),"nnz",tot)
ranked=[f for f,_ in cnt.most_common()]
rank={f:i for i,f in enumerate(ranked)}
import bisect
for lim in [1000,4000,16000,32000,64000,128000,256000]:
    s=sum(c for f,c in cnt.items() if rank[f]<lim)
    print("top",lim,"covers %.3f"%(s/tot))
for c in [1,2,3,5,10,20]:
    s=sum(v for v in cnt.values() if v<=c)
    print("nnz of features with count<=%d: %.3f"%(c,s/tot), "features:",sum(1 for v in cnt.values() if v<=c))
