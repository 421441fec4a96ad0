#!/usr/bin/env bash
# Set up everything the test suite needs on a fresh Debian machine, then run all of it:
# ruff, mypy, and pytest (rules, records, GTP against GNU Go, bot, server on SQLite and PostgreSQL,
# browser tests in Debian's chromium). Safe to re-run: each step skips what is already there.
set -euo pipefail
cd "$(dirname "$0")/.."

PY=${PYTHON:-python3}
SUDO=""
[ "$(id -u)" = 0 ] || SUDO="sudo"

need_apt=()
command -v gnugo >/dev/null 2>&1 || [ -x /usr/games/gnugo ] || need_apt+=(gnugo)
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
# node builds the browser UI (web/): Debian's npm (node 18) is enough for esbuild.
[ ! -f web/package.json ] || command -v npm >/dev/null 2>&1 || need_apt+=(nodejs npm)
command -v pg_ctlcluster >/dev/null 2>&1 || [ -x /usr/lib/postgresql/15/bin/initdb ] || need_apt+=(postgresql)
# Redis for the cluster tests (tests/cluster: several server processes and bot workers).
command -v redis-server >/dev/null 2>&1 || need_apt+=(redis-server)
# nginx for the reverse-proxy test (tests/cluster/test_proxy.py runs the configuration of docs/deploy.md).
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || need_apt+=(nginx)
# datefudge: the date-sensitive server tests run again under a moved wall clock (tests/server/test_any_day.py).
command -v datefudge >/dev/null 2>&1 || need_apt+=(datefudge)
# jemalloc: `keima serve` runs on it where installed (docs/server.md, "Memory"); tests/server/test_allocator.py.
{ ldconfig -p || /sbin/ldconfig -p; } 2>/dev/null | grep -q 'libjemalloc\.so\.2' || need_apt+=(libjemalloc2)
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "== apt-get install ${need_apt[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
fi

echo "== pip install -e .[test]"
$PY -m pip install -q --disable-pip-version-check -e ".[test]"

if [ -f web/package.json ]; then
  echo "== npm build of the browser UI"
  (cd web && { [ -d node_modules ] || npm ci --no-audit --no-fund --loglevel=error; } && npm run build --silent)
fi

# Services started below are stopped on exit.
CLEANUP=()
cleanup() { for c in "${CLEANUP[@]}"; do eval "$c" >/dev/null 2>&1 || true; done; }
trap cleanup EXIT

# A throw-away PostgreSQL cluster on loopback for the server tests (skipped when one is given).
if [ -z "${KEIMA_TEST_PG_URL:-}" ]; then
  PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
  if [ -n "$PGBIN" ]; then
    PGDIR=$(mktemp -d /tmp/keima-pg.XXXXXX)
    chown -R nobody "$PGDIR" 2>/dev/null || true
    PGUSER_RUN="nobody"
    [ "$(id -u)" = 0 ] || PGUSER_RUN="$(id -un)"
    run_pg() { if [ "$(id -u)" = 0 ]; then su -s /bin/sh "$PGUSER_RUN" -c "$*"; else sh -c "$*"; fi; }
    # A free loopback port, so that a run never collides with another server on this machine.
    PGPORT=${KEIMA_PG_PORT:-$($PY -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}
    run_pg "$PGBIN/initdb -D $PGDIR/data -U keima --auth=trust -E UTF8 >/dev/null"
    run_pg "$PGBIN/pg_ctl -D $PGDIR/data -o '-p $PGPORT -k $PGDIR -c listen_addresses=127.0.0.1' -l $PGDIR/log -w start >/dev/null"
    CLEANUP+=("run_pg '$PGBIN/pg_ctl -D $PGDIR/data -m immediate stop'")
    run_pg "$PGBIN/createdb -h 127.0.0.1 -p $PGPORT -U keima keima_test"
    export KEIMA_TEST_PG_URL="postgresql+psycopg://keima@127.0.0.1:$PGPORT/keima_test"
    echo "== PostgreSQL on 127.0.0.1:$PGPORT"
  fi
fi

# A throw-away Redis on a free loopback port, without persistence (skipped when one is given).
if [ -z "${KEIMA_TEST_REDIS_URL:-}" ] && command -v redis-server >/dev/null 2>&1; then
  REDISDIR=$(mktemp -d /tmp/keima-redis.XXXXXX)
  REDISPORT=$($PY -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  redis-server --port "$REDISPORT" --bind 127.0.0.1 --save '' --appendonly no --dir "$REDISDIR" \
    --daemonize yes --pidfile "$REDISDIR/redis.pid" --logfile "$REDISDIR/log"
  CLEANUP+=("kill \$(cat $REDISDIR/redis.pid)")
  for _ in $(seq 50); do redis-cli -p "$REDISPORT" ping >/dev/null 2>&1 && break; sleep 0.1; done
  export KEIMA_TEST_REDIS_URL="redis://127.0.0.1:$REDISPORT/0"
  echo "== Redis on 127.0.0.1:$REDISPORT"
fi

echo "== ruff"
$PY -m ruff check src tests bench
echo "== mypy"
$PY -m mypy
echo "== pytest"
# On every core (KEIMA_TEST_WORKERS to choose), each file's tests on one worker: a file's server, browser and
# cluster fixtures start once; each worker has its own PostgreSQL and Redis databases (tests/conftest.py).
$PY -m pytest -q -p no:cacheprovider -n "${KEIMA_TEST_WORKERS:-auto}" --dist loadfile "$@"
