#!/bin/bash
# Summarises a VM experiment CSV (vm/lines-to-csv.sh) as a Markdown table, one row per setting.
#
#   vm/summarize.sh [-r REF_SETTING] [-c COLUMN] [-S SETTINGS_FILE] RUNS.csv
#
# Under emulation only comparisons inside one boot hold, so every run is divided by the run of the
# reference setting (default "defaults") in the same round; rounds without a successful reference
# run are dropped.  COLUMN is the time column (default "seconds", or "wall_s").  For the ratios:
# the median with a distribution-free 95 % interval (order statistics, coverage printed), the mean
# with a Student-t 95 % interval; for context switches the median count and the median ratio.
# Rows follow SETTINGS_FILE (vm/make-plan.sh's input) when given, else the order of first appearance.
set -euo pipefail

ref=defaults
col=seconds
settings=/dev/null
while getopts r:c:S:h opt; do
    case $opt in
    r) ref=$OPTARG ;;
    c) col=$OPTARG ;;
    S) settings=$OPTARG ;;
    *) sed -n '2,12s/^# \{0,1\}//p' "$0" >&2; exit 1 ;;
    esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || { echo "usage: summarize.sh [-r REF_SETTING] [-c COLUMN] [-S SETTINGS_FILE] RUNS.csv" >&2; exit 1; }

awk -F, -v ref="$ref" -v col="$col" -v sfile="$settings" '
function sort(a, n,    i, j, x) {              # insertion sort, a[1..n] (mawk has no asort)
    for (i = 2; i <= n; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
}
function median(a, n) { sort(a, n); return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
function tq(df) {                               # Student t, two-sided 95 %
    if (df >= 1 && df <= 30) return T[df]
    return 1.96
}
function binom_cdf(k, n,    i, p, s) {          # P(X <= k), X ~ Bin(n, 1/2)
    s = 0; p = 0.5 ^ n
    for (i = 0; i <= k; i++) { s += p; p = p * (n - i) / (i + 1) }
    return s
}
function ms(ns) { return (ns == "") ? "-" : sprintf("%g", ns / 1e6) }
BEGIN {
    split("12.706 4.303 3.182 2.776 2.571 2.447 2.365 2.306 2.262 2.228 2.201 2.179 2.160 2.145 2.131 2.120 2.110 2.101 2.093 2.086 2.080 2.074 2.069 2.064 2.060 2.056 2.052 2.048 2.045 2.042", T, " ")
}
FILENAME == sfile { if ($0 !~ /^[[:space:]]*(#|$)/) { split($0, w, " "); pre[++npre] = w[1] } ; next }
FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
$(c["rc"]) != 0 || $(c[col]) == "" { next }
{
    s = $(c["setting"]); r = $(c["round"])
    if (!(s in seen)) { seen[s] = 1; order[++ns] = s
        knobs[s] = ms($(c["latency_ns"])) " / " ms($(c["min_granularity_ns"])) " / " ms($(c["wakeup_granularity_ns"])) }
    t[s, r] = $(c[col]); x[s, r] = $(c["ctxt"]); has[s, r] = 1
    if (!(r in rseen)) { rseen[r] = 1; rounds[++nr] = r }
}
END {
    # Settings named in SETTINGS_FILE first, in its order; the rest as they appeared.
    m = 0
    for (k = 1; k <= npre; k++) if (pre[k] in seen) { o2[++m] = pre[k]; done[pre[k]] = 1 }
    for (k = 1; k <= ns; k++) if (!(order[k] in done)) o2[++m] = order[k]
    for (k = 1; k <= m; k++) order[k] = o2[k]
    printf "| setting | latency / min_gran / wakeup_gran (ms) | n | median time/ref [95%% CI] | mean time/ref ± 95%% CI | median %s (s) | median ctxt | median ctxt/ref |\n", col
    print "|---|---|---|---|---|---|---|---|"
    for (k = 1; k <= ns; k++) {
        s = order[k]; n = 0; m = 0; sum = 0
        delete ra; delete ca; delete ta; delete xa
        for (q = 1; q <= nr; q++) {
            r = rounds[q]
            if (!has[s, r]) continue
            ta[++m] = t[s, r]; xa[m] = x[s, r]
            if (!has[ref, r] || t[ref, r] <= 0) continue
            n++; ra[n] = t[s, r] / t[ref, r]; ca[n] = (x[ref, r] > 0) ? x[s, r] / x[ref, r] : 0; sum += ra[n]
        }
        if (n == 0) { printf "| %s | %s | 0 | - | - | - | - | - |\n", s, knobs[s]; continue }
        mean = sum / n; ss = 0
        for (i = 1; i <= n; i++) ss += (ra[i] - mean) ^ 2
        half = (n > 1) ? tq(n - 1) * sqrt(ss / (n - 1) / n) : 0
        for (i = 1; i <= n; i++) sr[i] = ra[i]
        med = median(sr, n)                     # sr is sorted now
        # Largest j with P(X < j) <= 2.5 %: the interval [x(j), x(n+1-j)] covers the median.
        j = 0
        while (binom_cdf(j, n) <= 0.025) j++
        if (j >= 1) ci = sprintf("[%.3f, %.3f] (%.0f%%)", sr[j], sr[n + 1 - j], 100 * (1 - 2 * binom_cdf(j - 1, n)))
        else ci = "[n too small]"
        printf "| %s | %s | %d | %.3f %s | %.3f ± %.3f | %.3f | %d | %.2f |\n", s, knobs[s], n, med, ci, mean, half,
            median(ta, m), median(xa, m), median(ca, n)
    }
}' "$settings" "$1"
