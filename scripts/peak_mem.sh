#!/usr/bin/env bash
# Runs a command and reports its peak RSS and peak anonymous memory (RssAnon,
# which leaves out the pages of memory-mapped input files), sampled every 10 ms.
set -uo pipefail
"$@" &
pid=$!
peak_anon=0; peak_rss=0
while kill -0 "$pid" 2>/dev/null; do
  if read -r anon rss < <(awk '/^RssAnon:/{a=$2} /^VmRSS:/{r=$2} END{print a+0, r+0}' "/proc/$pid/status" 2>/dev/null); then
    [ "$anon" -gt "$peak_anon" ] && peak_anon=$anon
    [ "$rss" -gt "$peak_rss" ] && peak_rss=$rss
  fi
  sleep 0.01
done
wait "$pid"; rc=$?
echo "peak_rss_mb=$((peak_rss / 1024)) peak_anon_mb=$((peak_anon / 1024)) exit=$rc" >&2
exit $rc
