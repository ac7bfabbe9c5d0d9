# calibration-drift.gp - the machine's speed during a calibration: each real run's time divided by
# the mean time of its group count, against when it ran. A flat band around 1 is a steady machine;
# waves are drift, which the rounds of `tuner calibrate --order rounds` spread over every group.
#
#   gnuplot -e "data='calibration-drift.dat'; out='calibration-drift'; warmup=20" calibration-drift.gp
#
# data, written by `tuner report` from calibration_runs.csv (whitespace separated, '#' comments):
#   start_s groups ratio round    (one line per run, in run order)
# warmup: seconds of unrecorded runs before the first measured one (shown in the key).
# fmt: 'png' (default; pngcairo) or 'svg'. Writes out.png or out.svg, 800x600.
if (!exists("data")) data = 'calibration-drift.dat'
if (!exists("out")) out = 'calibration-drift'
if (!exists("warmup")) warmup = 0

if (!exists("fmt")) fmt = 'png'
if (fmt eq 'svg') {
    set terminal svg size 800,600 noenhanced font 'DejaVu Sans,11' background rgb 'white'
} else {
    set terminal pngcairo size 800,600 noenhanced font 'DejaVu Sans,11'
}
set output out.'.'.fmt
set datafile commentschars '#'
set encoding utf8

set title sprintf("Calibration: the machine's drift (after %.0f s of warm-up)", warmup)
set xlabel 'start of the run (s after the first measured run)'
set ylabel "run's time / mean time of its group count"
set grid lc rgb '#dddddd'
set key below horizontal maxrows 1 width 2 samplen 3
set autoscale xfix
set offsets graph 0.02, graph 0.02, graph 0.05, graph 0.05
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead lc rgb '#444444'

plot NaN with lines lc rgb '#444444' title 'the mean', \
     data using 1:3 with lines lc rgb '#b0c4de' notitle, \
     data using 1:3:(int($4)) with points pt 7 ps 0.9 lc variable title 'each run (colour: its round)'

unset output
