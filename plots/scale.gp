# scale.gp - default vs tuned knobs: simulated turnaround over hackbench group counts (top) and
# the improvement of the tuned knobs in percent (bottom) (SPEC.md §6).
#
#   gnuplot -e "data='scale.dat'; out='scale'; unit='jiffies'; \
#               dname='default knobs: 40 / 8 / 10 ms'; tname='tuned knobs: 15.9 / 0.1 / 0 ms'" scale.gp
#
# data: "groups default default_stderr tuned tuned_stderr improvement_pct".
# dname, tname: the key entries; knobs: what the numbers in them are (a second title line).
# fmt: 'png' (default; pngcairo) or 'svg'. Writes out.png or out.svg, 800x600.
if (!exists("data")) data = 'scale.dat'
if (!exists("out")) out = 'scale'
if (!exists("unit")) unit = 'jiffies'
if (!exists("dname")) dname = 'default knobs'
if (!exists("tname")) tname = 'tuned knobs'
if (!exists("knobs")) knobs = ''
if (!exists("fmt")) fmt = 'png'
if (fmt eq 'svg') {
    set terminal svg size 800,600 noenhanced font 'DejaVu Sans,11' background rgb 'white'
} else {
    set terminal pngcairo size 800,600 noenhanced font 'DejaVu Sans,11'
}
set output out.'.'.fmt

set encoding utf8
set multiplot title 'Default vs tuned knobs: simulated turnaround as the load grows'.(knobs eq '' ? '' : "\n".knobs)
set lmargin at screen 0.11
set rmargin at screen 0.96
set grid lc rgb '#dddddd'
stats data using 1 nooutput
set xrange [STATS_min - 0.5 : STATS_max + 0.5]

# Top: the turnarounds.
set tmargin at screen 0.88
set bmargin at screen 0.40
set format x ''
set ylabel sprintf('turnaround (%s)', unit)
set yrange [0:*]
set key top left box opaque
plot data using 1:2:3 with yerrorlines pt 7 ps 0.9 lw 2 lc rgb '#1f5fa8' title dname, \
     data using 1:4:5 with yerrorlines pt 5 ps 0.9 lw 2 lc rgb '#d62728' title tname

# Bottom: the improvement, positive when the tuned knobs are faster.
set tmargin at screen 0.34
set bmargin at screen 0.10
set format x '%g'
set xlabel 'hackbench groups'
set ylabel 'improvement (%)'
set yrange [*:*]
# Three to five tick marks in a panel this short.
stats data using 6 nooutput
span = STATS_max > STATS_min ? STATS_max - STATS_min : 1.0
step = 10.0**floor(log10(span))
if (span / step > 5) { step = 2 * step }
if (span / step < 2) { step = step / 2.0 }
set ytics step
set offsets 0, 0, graph 0.1, graph 0.1
set style fill solid 0.6 noborder
set boxwidth 0.6
unset key
set title '100 (default − tuned) / default: green bars, the tuned knobs are faster; red, slower' offset 0,-0.6 font ',10'
set arrow 1 from graph 0, first 0 to graph 1, first 0 nohead lc rgb '#444444'
plot data using 1:6:($6 >= 0 ? 0x2ca02c : 0xd62728) with boxes lc rgb variable notitle
unset multiplot
unset output
