# gantt.gp - per-CPU timeline of a simulation: which task ran on each CPU, from a sched_switch
# trace (SPEC.md §6). Idle time is left blank.
#
#   gnuplot -e "data='gantt.dat'; out='gantt'; n=3; classes='\"group 0\" \"group 1\" \"group 2\"'; \
#               cpus=2; window=20; note='tall bars: senders, short bars: receivers'" gantt.gp
#
# data: one block per colour class (index 0, 1, ..., separated by two blank lines), lines
#       "start_ms end_ms cpu half_height": a span a task of the class ran on the CPU.
# n: the number of classes; classes: their names (gnuplot words); cpus: the number of CPUs;
# window: the time shown (ms); note: a second title line (optional).
# fmt: 'png' (default; pngcairo) or 'svg'. Writes out.png or out.svg, 800x600.
if (!exists("data")) data = 'gantt.dat'
if (!exists("out")) out = 'gantt'
if (!exists("note")) note = ''
if (!exists("heading")) heading = sprintf('Per-CPU timeline: the first %g ms', window)

colors = '#1f77b4 #ff7f0e #2ca02c #d62728 #9467bd #8c564b #e377c2 #7f7f7f #bcbd22 #17becf #393b79 #637939 #8c6d31 #843c39 #7b4173 #3182bd'
color(i) = word(colors, (i - 1) % words(colors) + 1)

set encoding utf8
if (!exists("fmt")) fmt = 'png'
if (fmt eq 'svg') {
    set terminal svg size 800,600 noenhanced font 'DejaVu Sans,11' background rgb 'white'
} else {
    set terminal pngcairo size 800,600 noenhanced font 'DejaVu Sans,11'
}
set output out.'.'.fmt
set title heading.(note eq '' ? '' : "\n".note)
set xlabel 'time since the start of the run (ms)'
set ylabel 'CPU'
set xrange [0:window]
set yrange [cpus - 0.5:-0.5]
set ytics 1 format 'CPU %.0f'
set mytics 1
set grid xtics lc rgb '#dddddd'
set key outside right top box opaque title 'tasks' maxrows 30

# Tall spans solid, short ones (hackbench receivers) pale, so that the two roles can be told apart.
tall(h) = h > 0.3
plot for [i=1:n] data index (i - 1) using (($1 + $2) / 2):(tall($4) ? $3 : NaN):(($2 - $1) / 2):4 \
         with boxxyerror fs solid 1.0 noborder lc rgb color(i) title word(classes, i), \
     for [i=1:n] data index (i - 1) using (($1 + $2) / 2):(tall($4) ? NaN : $3):(($2 - $1) / 2):4 \
         with boxxyerror fs solid 0.45 noborder lc rgb color(i) notitle

unset output
