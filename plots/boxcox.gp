# boxcox.gp - the Box-Cox profile log-likelihood of the response-surface model against the power
# lambda, with lambda-hat, the 95% confidence interval (where the likelihood is within
# chi2(0.95, 1) / 2 = 1.92 of its maximum) and the power applied (SPEC.md §6).
#
#   gnuplot -e "data='rsm-boxcox.dat'; out='rsm-boxcox'; lhat=-3; lo=-3; hi=-2.22; cut=-32.68; \
#               used=-3; interval='[-3 (grid end), -2.216]'" boxcox.gp
#
# data: "lambda loglik inside" (inside 1 when lambda is in the interval).
# lhat: lambda-hat; lo, hi: the interval; cut: the log-likelihood at its ends; used: the power
# the model applied (1: none); interval: the interval as text for the key.
# fmt: 'png' (default; pngcairo) or 'svg'. Writes out.png or out.svg, 800x600.
if (!exists("data")) data = 'boxcox.dat'
if (!exists("out")) out = 'boxcox'
if (!exists("interval")) interval = sprintf('[%.3g, %.3g]', lo, hi)
if (!exists("used")) used = 1

set encoding utf8
if (!exists("fmt")) fmt = 'png'
if (fmt eq 'svg') {
    set terminal svg size 800,600 noenhanced font 'DejaVu Sans,11' background rgb 'white'
} else {
    set terminal pngcairo size 800,600 noenhanced font 'DejaVu Sans,11'
}
set output out.'.'.fmt
set title sprintf('Box-Cox: profile log-likelihood of the quadratic model (λ̂ = %.3g)', lhat)
set xlabel 'λ, the power of the response y^λ (dimensionless; 0 means ln y)'
set ylabel 'profile log-likelihood (natural log units)'
set grid lc rgb '#dddddd'
set key bottom center box opaque
set autoscale xfix
set offsets graph 0.02, graph 0.02, graph 0.05, graph 0.05
set object 1 rect from lo, graph 0 to hi, graph 1 fc rgb '#d8e8f8' fs solid 1.0 noborder behind
set arrow 1 from lhat, graph 0 to lhat, graph 1 nohead lw 1.5 lc rgb '#d62728'
set arrow 2 from used, graph 0 to used, graph 1 nohead dt 3 lw 2 lc rgb '#2ca02c'
if (used != 1) { set arrow 3 from 1, graph 0 to 1, graph 1 nohead dt 4 lc rgb '#888888' }

plot NaN with boxes fs solid 1.0 fc rgb '#d8e8f8' title sprintf('95%% interval %s', interval), \
     data using 1:2 with lines lw 2 lc rgb '#1f5fa8' title 'log-likelihood', \
     cut with lines dt 2 lc rgb '#555555' title sprintf('maximum − 1.92 = %.4g', cut), \
     NaN with lines lw 1.5 lc rgb '#d62728' title sprintf('λ̂ = %.3g', lhat), \
     NaN with lines dt 3 lw 2 lc rgb '#2ca02c' title sprintf('power applied: %.3g%s', used, used == 1 ? ' (no transform)' : ''), \
     NaN with lines dt 4 lc rgb '#888888' title (used != 1 ? 'λ = 1: no transform' : '')

unset output
