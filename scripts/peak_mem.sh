#!/usr/bin/env bash
# Runs a command and reports its peak RSS and peak anonymous memory (RssAnon,
# which leaves out the pages of memory-mapped input files), sampled every 10 ms.
# The sampler uses shell builtins only: forking a reader and a `sleep` a
# hundred times a second took CPU from the command being measured.
set -uo pipefail
"$@" &
pid=$!
# A pipe nobody writes to: `read -t` on it waits without starting a process.
exec {tick}<> <(:)
peak_anon=0; peak_rss=0
while kill -0 "$pid" 2>/dev/null; do
  anon=0; rss=0
  while read -r key value _; do
    case $key in
      RssAnon:) anon=$value ;;
      VmHWM:) rss=$value ;;
    esac
  done < "/proc/$pid/status" 2>/dev/null
  [ "$anon" -gt "$peak_anon" ] && peak_anon=$anon
  [ "$rss" -gt "$peak_rss" ] && peak_rss=$rss
  read -r -t 0.01 -u "$tick" _ || true
done
wait "$pid"; rc=$?
echo "peak_rss_mb=$((peak_rss / 1024)) peak_anon_mb=$((peak_anon / 1024)) exit=$rc" >&2
exit $rc
