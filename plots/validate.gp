# validate.gp - `tuner validate`: the tuned knobs against the defaults on a real kernel, paired by
# round (top), and the real improvement with its 95 % interval beside the simulator's prediction
# (bottom).
#
#   gnuplot -e "data='validate.dat'; gains='validate-gain.dat'; out='validate'" validate.gp
#
# data: "round defaults_s tuned_s"; gains: "x improvement_pct low high", x = 1 real, 2 predicted.
# fmt: 'png' (default; pngcairo) or 'svg'. Writes out.png or out.svg, 800x600.
if (!exists("data")) data = 'validate.dat'
if (!exists("gains")) gains = 'validate-gain.dat'
if (!exists("out")) out = 'validate'
if (!exists("fmt")) fmt = 'png'
if (fmt eq 'svg') {
    set terminal svg size 800,600 noenhanced font 'DejaVu Sans,11' background rgb 'white'
} else {
    set terminal pngcairo size 800,600 noenhanced font 'DejaVu Sans,11'
}
set output out.'.'.fmt
set encoding utf8
set multiplot title 'Tuned vs default knobs on the real kernel'
set lmargin at screen 0.11
set rmargin at screen 0.96
set grid lc rgb '#dddddd'

# Top: each round's two runs, joined so that the pairing shows.
set tmargin at screen 0.90
set bmargin at screen 0.45
set xlabel 'round'
set xtics 1
set ylabel 'benchmark time (s)'
set yrange [0:*]
set key top left box opaque
plot data using 1:2 with linespoints pt 7 lw 2 lc rgb '#1f5fa8' title 'default knobs', \
     data using 1:3 with linespoints pt 5 lw 2 lc rgb '#d62728' title 'tuned knobs'

# Bottom: the improvements, positive when the tuned knobs are faster.
set tmargin at screen 0.36
set bmargin at screen 0.08
unset xlabel
set xrange [0.4:2.6]
set xtics ('real (95%% CI)' 1, 'simulated' 2)
set ylabel 'improvement (%)'
set yrange [*:*]
set offsets 0, 0, graph 0.1, graph 0.1
set style fill solid 0.6 noborder
set boxwidth 0.5
unset key
set arrow 1 from graph 0, first 0 to graph 1, first 0 nohead lc rgb '#444444'
plot gains using 1:2:($1 == 1 ? 0x2ca02c : 0x888888) with boxes lc rgb variable notitle, \
     gains using 1:2:3:4 with yerrorbars pt 0 lw 2 lc rgb '#222222' notitle
unset multiplot
unset output
