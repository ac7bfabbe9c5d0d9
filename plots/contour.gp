# contour.gp - a fitted response surface over two factors as a contour map, the other factors
# held fixed, with the optimum marked (SPEC.md §6).
#
#   gnuplot -e "data='rsm-surface-latency-min_granularity.dat'; out='rsm-contour'; \
#               xname='latency (ms)'; yname='min_granularity (ms)'; zname='predicted turnaround (jiffies)'; \
#               fixed='wakeup_granularity held at 16.59 ms'; ox=45.9; oy=10; otitle='optimum'" contour.gp
#
# data: "x y z" on a grid, one scan line per block (blocks separated by one blank line).
# ox, oy: the optimum, marked (NaN: not marked). Optional: xlog=1 / ylog=1 for log axes.
# fmt: 'png' (default; pngcairo) or 'svg'. Writes out.png or out.svg, 800x600.
if (!exists("data")) data = 'surface.dat'
if (!exists("out")) out = 'contour'
if (!exists("xname")) xname = 'x'
if (!exists("yname")) yname = 'y'
if (!exists("zname")) zname = 'predicted response'
if (!exists("fixed")) fixed = ''
if (!exists("ox")) ox = NaN
if (!exists("oy")) oy = NaN
if (!exists("otitle")) otitle = 'optimum'
if (!exists("xlog")) xlog = 0
if (!exists("ylog")) ylog = 0

set encoding utf8
if (xlog) { set logscale x }
if (ylog) { set logscale y }

stats data using 3 nooutput
set cbrange [STATS_min:STATS_max]

set contour base
set cntrparam levels auto 10
unset surface
set table $contours
splot data using 1:2:3
unset table
unset contour
set surface

if (!exists("fmt")) fmt = 'png'
if (fmt eq 'svg') {
    set terminal svg size 800,600 noenhanced font 'DejaVu Sans,11' background rgb 'white'
} else {
    set terminal pngcairo size 800,600 noenhanced font 'DejaVu Sans,11'
}
set output out.'.'.fmt
set title sprintf("Contours: %s\n%s", zname, fixed)
set xlabel xname
set ylabel yname
set cblabel zname
set view map
# Smooth colours: the PNG's pixels; a few subdivisions keep the SVG small.
if (fmt eq 'svg') { set pm3d map interpolate 3,3 } else { set pm3d map interpolate 0,0 }
set palette rgbformulae 33,13,10
set autoscale xfix
set autoscale yfix
set lmargin at screen 0.11
set rmargin at screen 0.80
set bmargin at screen 0.20
set tmargin at screen 0.87
set key at screen 0.80, screen 0.08 right center horizontal box opaque samplen 2 width 1
$optimum << EOD
EOD
set print $optimum
print sprintf('%.10g %.10g %.10g', ox, oy, STATS_min)
unset print

splot data using 1:2:3 with pm3d notitle, \
      $contours using 1:2:3 with lines lc rgb 'black' title 'contour lines', \
      $contours every 30::10 using 1:2:3:(sprintf('%.4g', $3)) with labels boxed font ',8' notitle, \
      $optimum using 1:2:3 with points pt 7 ps 2 lc rgb 'white' notitle, \
      $optimum using 1:2:3 with points pt 6 ps 2 lw 2 lc rgb 'black' title otitle

unset output
