# residuals-normal.gp - normal probability plot of the residuals: ordered residuals against the
# normal quantiles of their plotting positions (Blom, (i - 3/8) / (n + 1/4)); normal residuals lie
# near the straight line through the quartiles.
#
#   gnuplot -e "data='residuals-normal.dat'; out='residuals-normal'; what='Calibration'; \
#               yname='residual (ms)'; q0=0.5; q1=48.2" residuals-normal.gp
#
# data: z residual, residuals in increasing order ('#' comments).
# q0, q1: the reference line residual = q0 + q1 * z (through the first and third quartiles).
# fmt: 'png' (default; pngcairo) or 'svg'. Writes out.png or out.svg, 800x600.
if (!exists("data")) data = 'residuals-normal.dat'
if (!exists("out")) out = 'residuals-normal'
if (!exists("what")) what = 'Model'
if (!exists("yname")) yname = 'residual'

if (!exists("fmt")) fmt = 'png'
if (fmt eq 'svg') {
    set terminal svg size 800,600 noenhanced font 'DejaVu Sans,11' background rgb 'white'
} else {
    set terminal pngcairo size 800,600 noenhanced font 'DejaVu Sans,11'
}
set output out.'.'.fmt
set encoding utf8
set title sprintf('%s: normal probability plot of the residuals', what)
set xlabel 'normal quantile (standard deviations from the mean)'
set ylabel yname
set grid lc rgb '#dddddd'
set key below horizontal maxrows 1 width 2 samplen 3
set offsets graph 0.05, graph 0.05, graph 0.1, graph 0.1

plot q0 + q1 * x with lines lw 2 lc rgb '#d62728' title 'line through the quartiles', \
     data using 1:2 with points pt 7 ps 1.0 lc rgb '#1f5fa8' title 'ordered residual'

unset output
