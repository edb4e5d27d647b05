# A throwaway PostgreSQL cluster on 127.0.0.1 for the tests (Debian's postgresql package).
# start_postgres exports AGENT_TEST_PG_DSN; stop_postgres removes the cluster.

start_postgres() {
  if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql) \
      >/dev/null 2>&1 || { echo "ci: could not install postgresql; its tests will be skipped"; return 0; }
  fi
  local bin port
  bin=$(dirname "$(ls /usr/lib/postgresql/*/bin/initdb | sort -V | tail -1)")
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  PG_DIR=$(mktemp -d)
  chown postgres "$PG_DIR" 2>/dev/null || true
  local as=""
  if [ "$(id -u)" = "0" ]; then as="runuser -u postgres --"; fi
  (cd / && $as "$bin/initdb" -D "$PG_DIR/data" -U agent --auth=trust >/dev/null)
  (cd / && $as "$bin/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/log" -w \
    -o "-h 127.0.0.1 -p $port -k $PG_DIR -c max_connections=200" start >/dev/null)
  PG_BIN=$bin
  PG_AS=$as
  export AGENT_TEST_PG_DSN="postgresql://agent@127.0.0.1:$port/postgres"
  echo "ci: postgres on 127.0.0.1:$port"
}

stop_postgres() {
  if [ -n "${PG_DIR:-}" ]; then
    (cd / && $PG_AS "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m immediate stop >/dev/null 2>&1) || true
    rm -rf "$PG_DIR"
  fi
}
