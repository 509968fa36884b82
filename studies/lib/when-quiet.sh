#!/bin/sh
# Waits until the 1-minute load average is under $1 (default 2), then runs the rest of the arguments.
limit=${1:-2}; shift
while :; do
  l=$(cut -d' ' -f1 /proc/loadavg)
  if awk -v l="$l" -v m="$limit" 'BEGIN { exit !(l < m) }'; then break; fi
  sleep 20
done
echo "quiet: load $(cat /proc/loadavg) at $(date +%T)"
exec "$@"
