# Sourced by the scripts that start the built service in the background (scripts/schemathesis.sh,
# scripts/generate-clients.sh).

# service_work_folder makes a temporary folder, in $work, for the service's data and log, and sets $server_pid to ''
# for the caller to set once it starts the service; on exit, that service is stopped and the folder removed. Called
# as a plain command, not in $( ), so that the two variables and the trap are the caller's.
service_work_folder() {
  work=$(mktemp -d)
  server_pid=''
  trap service_work_cleanup EXIT
}
service_work_cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}

# service_url PID LOG waits until the service started as PID says in LOG that it listens, and prints its base URL
# (http://127.0.0.1:PORT); if it stops or never listens, it prints the log and fails.
service_url() {
  local pid=$1 log=$2 base=''
  for _ in $(seq 1 300); do
    base=$(grep -so '"msg":"listening"[^}]*"url":"[^"]*"\|"url":"[^"]*"[^}]*"msg":"listening"' "$log" | grep -o 'http://[^"]*' | head -1 || true)
    [ -n "$base" ] && break
    if ! kill -0 "$pid" 2>/dev/null; then cat "$log" >&2; return 1; fi
    sleep 0.2
  done
  [ -n "$base" ] || { echo "the service did not start" >&2; cat "$log" >&2; return 1; }
  echo "$base"
}
