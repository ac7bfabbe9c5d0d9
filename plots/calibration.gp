# calibration.gp - real runtime against simulated turnaround, with the fitted line (SPEC.md §6).
#
#   gnuplot -e "data='calibration.dat'; out='calibration'; a=-3.2; b=1.61; r2=0.987" calibration.gp
#
# data, written by `tuner report` from calibration.csv (whitespace separated, '#' comments):
#   index 0: groups sim_jiffies real_mean_ms real_sd_ms predicted_ms residual_ms runs
#   index 1: sim_jiffies real_ms, one line per real run
# a, b: the fit real_ms = a + b * sim_jiffies; r2 its R².  Optional: subtitle (the workload).
# fmt: 'png' (default; pngcairo) or 'svg'. Writes out.png or out.svg, 800x600.
if (!exists("data")) data = 'calibration.dat'
if (!exists("out")) out = 'calibration'
if (!exists("subtitle")) subtitle = ''

if (!exists("fmt")) fmt = 'png'
if (fmt eq 'svg') {
    set terminal svg size 800,600 noenhanced font 'DejaVu Sans,11' background rgb 'white'
} else {
    set terminal pngcairo size 800,600 noenhanced font 'DejaVu Sans,11'
}
set output out.'.'.fmt
set datafile commentschars '#'
set encoding utf8

set title sprintf("Calibration: real vs simulated turnaround (R² = %.4f)%s%s", r2, \
                  subtitle eq '' ? '' : "\n", subtitle)
set xlabel 'simulated turnaround (jiffies)'
set ylabel 'real runtime (ms)'
set grid lc rgb '#dddddd'
set key top left box opaque
set xrange [0:*]
set yrange [0:*]
set offsets graph 0, graph 0.03, graph 0.05, 0

fit_title = sprintf('fit: real = %.4g + %.4g × simulated  (R² = %.4f)', a, b, r2)
plot data index 1 using 1:2 with points pt 7 ps 0.5 lc rgb '#a0a0a0' title 'each real run', \
     data index 0 using 2:3:4 with yerrorbars pt 7 ps 1.0 lc rgb '#1f5fa8' title 'mean ± sd of the runs', \
     data index 0 using 2:3:(sprintf('%d', $1)) with labels offset char 0.6,-0.8 left font ',8' tc rgb '#1f5fa8' notitle, \
     a + b * x with lines lw 2 lc rgb '#d62728' title fit_title

unset output
