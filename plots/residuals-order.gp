# residuals-order.gp - residuals in the order the runs were made: a trend or runs of one sign show
# drift during the experiment.
#
#   gnuplot -e "data='residuals-order.dat'; out='residuals-order'; what='Calibration'; \
#               xname='hackbench groups'; against='group count'; yname='residual (ms)'; band=104; \
#               bandname='±2 RSE'" \
#           residuals-order.gp
#
# data: order fitted residual (one line per point or run, in run order; '#' comments).
# fmt: 'png' (default; pngcairo) or 'svg'. Writes out.png or out.svg, 800x600.
if (!exists("data")) data = 'residuals-order.dat'
if (!exists("out")) out = 'residuals-order'
if (!exists("what")) what = 'Model'
if (!exists("xname")) xname = 'run order'
if (!exists("yname")) yname = 'residual'
if (!exists("band")) band = NaN
if (!exists("bandname")) bandname = ''
if (!exists("against")) against = 'run order'

if (!exists("fmt")) fmt = 'png'
if (fmt eq 'svg') {
    set terminal svg size 800,600 noenhanced font 'DejaVu Sans,11' background rgb 'white'
} else {
    set terminal pngcairo size 800,600 noenhanced font 'DejaVu Sans,11'
}
set output out.'.'.fmt
set encoding utf8
set title sprintf('%s: residuals vs %s', what, against)
set xlabel xname
set ylabel yname
set grid lc rgb '#dddddd'
set key below horizontal maxrows 1 width 2 samplen 3
set autoscale xfix
set offsets graph 0.03, graph 0.03, 0, 0

# The y range holds the residuals, zero and the band, with a margin.
stats data using 3 nooutput
ylo = STATS_min < 0 ? STATS_min : 0
yhi = STATS_max > 0 ? STATS_max : 0
if (band == band) { ylo = ylo < -band ? ylo : -band; yhi = yhi > band ? yhi : band }
pad = yhi > ylo ? 0.08 * (yhi - ylo) : 1
set yrange [ylo - pad : yhi + pad]

# Reference lines across the whole plot, whatever the offsets: arrows, with key entries below.
set arrow 1 from graph 0, first 0 to graph 1, first 0 nohead lc rgb '#444444'
if (band == band) {
    set arrow 2 from graph 0, first band to graph 1, first band nohead dt 2 lc rgb '#d62728'
    set arrow 3 from graph 0, first -band to graph 1, first -band nohead dt 2 lc rgb '#d62728'
}

plot NaN with lines lc rgb '#444444' title 'zero', \
     NaN with lines dt 2 lc rgb '#d62728' title (band == band ? bandname : ''), \
     data using 1:3 with linespoints pt 7 ps 1.0 lc rgb '#1f5fa8' title 'residual'

unset output
