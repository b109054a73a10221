#!/usr/bin/env bash
# A throwaway PostgreSQL cluster in a directory, for tests and `make cluster` (docs/DEPLOY.md):
#   scripts/pg-scratch.sh start DIR   initdb + start, listening only on a Unix socket in DIR;
#                                     prints the database's address (postgresql:///cardtable?host=DIR)
#   scripts/pg-scratch.sh stop DIR    stops it and removes DIR
# PG_SCRATCH_FSYNC=off starts it without fsync (for tests: a cluster thrown away afterwards).
# It runs as an unprivileged user (when started as root: Debian's `postgres`), touches nothing
# outside DIR, and uses Debian's `postgresql` package (its binaries in /usr/lib/postgresql/*/bin).
set -euo pipefail

usage() { echo "usage: $0 start|stop DIR" >&2; exit 2; }
[ $# -eq 2 ] || usage
command=$1
dir=$(realpath -m "$2")

bindir=$(pg_config --bindir 2>/dev/null || true)
if [ ! -x "$bindir/initdb" ]; then
  bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
fi
[ -x "$bindir/initdb" ] || { echo "pg-scratch: PostgreSQL's server is not installed (Debian: postgresql)" >&2; exit 3; }

as=()
if [ "$(id -u)" -eq 0 ]; then
  # NB: PostgreSQL refuses to run as root.
  as=(runuser -u postgres --)
fi

case "$command" in
  start)
    mkdir -p "$dir"
    [ ${#as[@]} -eq 0 ] || chown postgres: "$dir"
    chmod 700 "$dir"
    "${as[@]}" "$bindir/initdb" -D "$dir/data" -U cardtable -A trust -E UTF8 --locale=C \
      --no-sync >"$dir/initdb.log" 2>&1 \
      || { cat "$dir/initdb.log" >&2; exit 1; }
    # NB: no TCP port at all: the socket in DIR cannot clash with another cluster.
    "${as[@]}" "$bindir/pg_ctl" -D "$dir/data" -l "$dir/postgres.log" -w -s \
      -o "-c listen_addresses= -k $dir -c max_connections=200 -c fsync=${PG_SCRATCH_FSYNC:-on} -c full_page_writes=${PG_SCRATCH_FSYNC:-on}" start \
      || { cat "$dir/postgres.log" >&2; exit 1; }
    "${as[@]}" "$bindir/createdb" -h "$dir" -U cardtable cardtable
    echo "postgresql:///cardtable?host=$dir&user=cardtable"
    ;;
  stop)
    if [ -f "$dir/data/postmaster.pid" ]; then
      "${as[@]}" "$bindir/pg_ctl" -D "$dir/data" -m immediate -w -s stop || true
    fi
    rm -rf "$dir"
    ;;
  *) usage ;;
esac
