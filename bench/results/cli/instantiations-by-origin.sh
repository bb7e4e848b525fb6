#!/bin/sh
# For each package given (relative to the repository root): its compiled functions and bytes (go tool nm -size of
# go list -export's archive), the generic instantiations among them, and those by the package of the generic
# code (entries over 10 kB, "package:functions/kB"). Usage: sh bench/results/cli/instantiations-by-origin.sh linear quant ...
for p in "$@"; do
 f=$(go list -export -f '{{.Export}}' "./$p")
 go tool nm -size -type "$f" | awk -v p="$p" '$3=="T"{n++; s+=$2; if($4 ~ /\[/){g++; gs+=$2; name=$4; sub(/\[.*/,"",name); sub(/^github.com\/rosenblatt-go\/rosenblatt\//,"",name); split(name,a,"."); k=a[1]; by[k]+=$2; byn[k]++}}
 END{printf "%-18s %5d fn %8d B; inst %5d fn %8d B |", p,n,s,g,gs; for(k in by) if (by[k]>10000) printf " %s:%d/%dK", k, byn[k], by[k]/1000; printf "\n"}'
done
