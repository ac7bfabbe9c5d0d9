# convergence.gp - optimizer convergence: the best value found so far against the number of
# evaluations, every run on one plot (SPEC.md §6). The x axis is logarithmic so that a Golden
# Section search of a dozen evaluations and a swarm of hundreds can be compared.
#
#   gnuplot -e "data='convergence.dat'; out='convergence'; n=2; titles='\"pso\" \"golden\"'; \
#               d1=191.4; d2=191.4; dtitles='\"default knobs\" \"\"'; unit='jiffies'" convergence.gp
#
# data: one block per run (index 0, 1, ..., separated by two blank lines), lines
#       "evaluation value best": every evaluation's value and the best so far.
# n: the number of runs; titles: their names (gnuplot words); d1..dn: the value of each run's
# default knobs (NaN: not known), drawn dashed with the key entry of dtitles (empty: none).
# Optional: ymin, ymax, the y range (default: all the values); dsame=1 draws the default lines
# grey (they are one value).
# fmt: 'png' (default; pngcairo) or 'svg'. Writes out.png or out.svg, 800x600.
if (!exists("data")) data = 'convergence.dat'
if (!exists("out")) out = 'convergence'
if (!exists("unit")) unit = 'jiffies'
if (!exists("n")) n = 1
if (!exists("titles")) titles = '"run"'
if (!exists("dtitles")) dtitles = ''

colors = '#1f77b4 #d62728 #2ca02c #ff7f0e #9467bd #8c564b #e377c2 #17becf'
color(i) = word(colors, (i - 1) % words(colors) + 1)
# The same colour, mostly transparent (gnuplot's #AARRGGBB, AA = 00 is opaque).
faint(i) = '#c8'.color(i)[2:7]
dvalue(i) = exists(sprintf('d%d', i)) ? value(sprintf('d%d', i)) : NaN
dtitle(i) = i <= words(dtitles) ? word(dtitles, i) : ''
if (!exists("dsame")) dsame = 0
dcolor(i) = dsame ? '#555555' : color(i)

if (!exists("fmt")) fmt = 'png'
if (fmt eq 'svg') {
    set terminal svg size 800,600 noenhanced font 'DejaVu Sans,11' background rgb 'white'
} else {
    set terminal pngcairo size 800,600 noenhanced font 'DejaVu Sans,11'
}
set output out.'.'.fmt
set encoding utf8
set title 'Optimizer convergence: best turnaround found so far'
set xlabel 'evaluations (knob settings simulated, log scale)'
set ylabel sprintf('turnaround (%s)', unit)
set logscale x
set grid lc rgb '#dddddd'
set key top right box opaque
set offsets 0, 0, graph 0.05, graph 0.05
if (exists("ymin") && exists("ymax")) { set yrange [ymin:ymax]; set offsets 0, 0, 0, 0 }

plot for [i=1:n] data index (i - 1) using 1:2 with points pt 7 ps 0.35 lc rgb faint(i) notitle, \
     for [i=1:n] data index (i - 1) using 1:3 with steps lw 2.5 lc rgb color(i) title word(titles, i), \
     for [i=1:n] (dvalue(i) == dvalue(i) ? dvalue(i) : 1/0) with lines dt 2 lw 1.5 lc rgb dcolor(i) title dtitle(i)

unset output
