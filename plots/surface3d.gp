# surface3d.gp - a fitted response surface over two factors in 3-D, the other factors held fixed,
# with its contour lines on the base and the optimum marked (SPEC.md §6).
#
#   gnuplot -e "data='rsm-surface-latency-min_granularity.dat'; out='rsm-surface'; \
#               xname='latency (ms)'; yname='min_granularity (ms)'; zname='predicted turnaround (jiffies)'; \
#               fixed='wakeup_granularity held at 16.59 ms (its value at the optimum)'; \
#               ox=45.9; oy=10; oz=190.4; otitle='optimum'" surface3d.gp
#
# data: "x y z" on a grid, one scan line per block (blocks separated by one blank line).
# ox, oy, oz: the optimum, marked (NaN: not marked). Optional: xlog=1 / ylog=1 for log axes,
# rotz (default 40): the view's azimuth, chosen so that the optimum faces the reader.
# fmt: 'png' (default; pngcairo) or 'svg'. Writes out.png or out.svg, 800x600.
if (!exists("data")) data = 'surface.dat'
if (!exists("out")) out = 'surface3d'
if (!exists("xname")) xname = 'x'
if (!exists("yname")) yname = 'y'
if (!exists("zname")) zname = 'predicted response'
if (!exists("fixed")) fixed = ''
if (!exists("ox")) ox = NaN
if (!exists("oy")) oy = NaN
if (!exists("oz")) oz = NaN
if (!exists("otitle")) otitle = 'optimum'
if (!exists("xlog")) xlog = 0
if (!exists("ylog")) ylog = 0
if (!exists("rotz")) rotz = 40

set encoding utf8
stats data using 3 nooutput
zlo = STATS_min

# The contour lines, computed once into a datablock and drawn on the base plane.
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
set title sprintf("Response surface: %s\n%s", zname, fixed)
set xlabel xname offset 0,-0.5
set ylabel yname offset 0,-0.5
set zlabel zname rotate parallel offset -1,0
if (xlog) { set logscale x }
if (ylog) { set logscale y }
set palette rgbformulae 33,13,10
set pm3d depthorder border lc rgb '#404040' lw 0.3
set view 60, rotz, 1.0, 1
set origin 0, 0
set size 0.95, 0.97
set xyplane at zlo
set autoscale xfix
set autoscale yfix
set colorbox vertical user origin 0.87, 0.25 size 0.025, 0.5
set cblabel zname offset 0.5,0
set key at screen 0.03, screen 0.86 left top box opaque samplen 2 width 1
$optimum << EOD
0 0 0
EOD

# A label in front: pm3d's depth sorting would hide a point plotted on the surface.
if (ox == ox && oy == oy && oz == oz) {
    set label 1 '' at ox, oy, oz point pt 7 ps 2 lc rgb 'black' front
}

splot data using 1:2:3 with pm3d title 'predicted surface', \
      $contours using 1:2:(zlo) with lines lc rgb '#606060' title 'its contour lines, on the base', \
      $optimum using 1:2:(NaN) with points pt 7 ps 2 lc rgb 'black' title (oz == oz ? otitle : '')

unset output
