#!/usr/bin/env bash
# A local keima cluster for development (docs/deploy.md): PostgreSQL, Redis, two web processes sharing one port,
# two bot workers. Open the printed address in a browser; Ctrl-C (or SIGTERM) stops everything it started.
#
# Settings (environment): KEIMA_PORT (default 8000; 0 = a free one), KEIMA_DB (a PostgreSQL URL to use instead of
# a throw-away cluster), KEIMA_REDIS (a Redis URL to use instead of a throw-away server), KEIMA_WEB (web
# processes, default 2), KEIMA_WORKERS (bot workers, default 2), PYTHON.
# Needs Debian's postgresql and redis-server packages (scripts/test.sh installs both) and keima installed.
set -euo pipefail
cd "$(dirname "$0")/.."

PY=${PYTHON:-python3}
PORT=${KEIMA_PORT:-8000}
WEB=${KEIMA_WEB:-2}
WORKERS=${KEIMA_WORKERS:-2}
RUN=$(mktemp -d /tmp/keima-cluster.XXXXXX)
chmod 755 "$RUN"  # PostgreSQL runs as another user when this script runs as root
free_port() { $PY -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

PIDS=()
CLEANUP=()
stop_all() {
  trap - EXIT INT TERM
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  # A worker still compiling the bot (a minute or more on a cold numba cache) cannot stop at once: give every
  # process 10 s to stop by itself, then end the ones left (their jobs go back to the queue).
  for _ in $(seq 100); do
    alive=0
    for pid in "${PIDS[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
    [ "$alive" = 0 ] && break
    sleep 0.1
  done
  for pid in "${PIDS[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  for c in "${CLEANUP[@]}"; do eval "$c" >/dev/null 2>&1 || true; done
  echo "keima cluster: stopped (logs in $RUN)"
}
trap stop_all EXIT
trap 'exit 0' INT TERM

if [ -z "${KEIMA_DB:-}" ]; then
  PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
  [ -n "$PGBIN" ] || { echo "keima cluster: no PostgreSQL (apt-get install postgresql) and no KEIMA_DB" >&2; exit 1; }
  mkdir -p "$RUN/pg"
  PGUSER_RUN="$(id -un)"
  if [ "$(id -u)" = 0 ]; then PGUSER_RUN=nobody; chown -R nobody "$RUN/pg"; fi
  run_pg() { if [ "$(id -u)" = 0 ]; then su -s /bin/sh "$PGUSER_RUN" -c "$*"; else sh -c "$*"; fi; }
  PGPORT=$(free_port)
  run_pg "$PGBIN/initdb -D $RUN/pg/data -U keima --auth=trust -E UTF8 >/dev/null"
  run_pg "$PGBIN/pg_ctl -D $RUN/pg/data -o '-p $PGPORT -k $RUN/pg -c listen_addresses=127.0.0.1 -c max_connections=200' -l $RUN/pg/log -w start >/dev/null"
  CLEANUP+=("run_pg '$PGBIN/pg_ctl -D $RUN/pg/data -m fast stop'")
  run_pg "$PGBIN/createdb -h 127.0.0.1 -p $PGPORT -U keima keima"
  KEIMA_DB="postgresql+psycopg://keima@127.0.0.1:$PGPORT/keima"
  echo "keima cluster: PostgreSQL on 127.0.0.1:$PGPORT"
fi

if [ -z "${KEIMA_REDIS:-}" ]; then
  command -v redis-server >/dev/null 2>&1 || { echo "keima cluster: no redis-server (apt-get install redis-server) and no KEIMA_REDIS" >&2; exit 1; }
  RPORT=$(free_port)
  redis-server --port "$RPORT" --bind 127.0.0.1 --save '' --appendonly no --dir "$RUN" >"$RUN/redis.log" 2>&1 &
  PIDS+=($!)
  for _ in $(seq 50); do redis-cli -p "$RPORT" ping >/dev/null 2>&1 && break; sleep 0.1; done
  KEIMA_REDIS="redis://127.0.0.1:$RPORT/0"
  echo "keima cluster: Redis on 127.0.0.1:$RPORT"
fi
export KEIMA_DB KEIMA_REDIS

# The web processes first (one of them migrates the database), then the workers.
$PY -m keima serve --no-open --port "$PORT" --workers "$WEB" --db "$KEIMA_DB" --redis "$KEIMA_REDIS" >"$RUN/web.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 600); do grep -q "serving on" "$RUN/web.log" && break; sleep 0.1; done
ADDRESS=$(grep -o 'http://[^ ]*' "$RUN/web.log" | head -1 || true)
[ -n "$ADDRESS" ] || { echo "keima cluster: the web processes did not start:" >&2; cat "$RUN/web.log" >&2; exit 1; }
# "serving on" comes once the port is bound; wait until the processes answer on it.
$PY - "$ADDRESS" <<'PY' || { echo "keima cluster: the web processes do not answer:" >&2; cat "$RUN/web.log" >&2; exit 1; }
import sys, time, urllib.request
url = sys.argv[1].replace("localhost", "127.0.0.1") + "api/info"
for _ in range(600):
    try:
        urllib.request.urlopen(url, timeout=2).read()
        sys.exit(0)
    except OSError:
        time.sleep(0.1)
sys.exit(1)
PY
for i in $(seq "$WORKERS"); do
  $PY -m keima worker --db "$KEIMA_DB" --redis "$KEIMA_REDIS" --log-level info >"$RUN/worker$i.log" 2>&1 &
  PIDS+=($!)
done
echo "keima cluster: $WEB web processes on $ADDRESS, $WORKERS workers (they take a few seconds to compile the bot); logs in $RUN"
echo "keima cluster: ready: open $ADDRESS ; Ctrl-C stops"
wait
