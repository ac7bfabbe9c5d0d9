# calibration-switches.gp - context switches of one hackbench run against the group count, real
# against simulated: the time fit can hold while the simulator schedules differently.
#
#   gnuplot -e "data='calibration-switches.dat'; out='calibration-switches'" calibration-switches.gp
#
# data, written by `tuner report` from calibration.csv and calibration_runs.csv (whitespace
# separated, '#' comments):
#   index 0: groups real_switches (median of the runs) sim_switches
#   index 1: groups switches, one line per real run
# fmt: 'png' (default; pngcairo) or 'svg'. Writes out.png or out.svg, 800x600.
if (!exists("data")) data = 'calibration-switches.dat'
if (!exists("out")) out = 'calibration-switches'

if (!exists("fmt")) fmt = 'png'
if (fmt eq 'svg') {
    set terminal svg size 800,600 noenhanced font 'DejaVu Sans,11' background rgb 'white'
} else {
    set terminal pngcairo size 800,600 noenhanced font 'DejaVu Sans,11'
}
set output out.'.'.fmt
set datafile commentschars '#'
set encoding utf8

set title 'Calibration: real vs simulated context switches'
set xlabel 'hackbench groups'
set ylabel 'context switches of one run'
set grid lc rgb '#dddddd'
set key top left box opaque
set xrange [0:*]
set yrange [0:*]
set offsets graph 0.02, graph 0.02, graph 0.05, 0

plot data index 1 using 1:2 with points pt 7 ps 0.5 lc rgb '#a0a0a0' title 'each real run', \
     data index 0 using 1:2 with linespoints pt 7 ps 1.0 lw 2 lc rgb '#1f5fa8' title 'real (median)', \
     data index 0 using 1:3 with linespoints pt 5 ps 1.0 lw 2 lc rgb '#d62728' title 'simulated'

unset output
