#!/bin/bash
# samples every 0.2 s: time, cpu of each vCPU thread and its state, cpu of each hog
out=$1
while :; do
  q=$(pgrep -f qemu-system-x86_64 | head -1)
  [ -z "$q" ] && { sleep 0.5; continue; }
  line="$EPOCHREALTIME"
  for t in /proc/$q/task/*; do
    read -r comm < $t/comm 2>/dev/null || continue
    case $comm in "CPU "*/*) s=$(cat $t/stat 2>/dev/null) || continue; s=${s##*) }; set -- $s; line="$line v${comm:4:1}:${37}${1}" ;; esac
  done
  for h in $(pgrep -f 'while :; do :; done'); do s=$(cat /proc/$h/stat 2>/dev/null) || continue; s=${s##*) }; set -- $s; line="$line h:${37}"; done
  echo "$line" >> $out
  sleep 0.2
done
