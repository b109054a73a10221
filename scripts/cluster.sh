#!/usr/bin/env bash
# A throwaway CardTable cluster on loopback (docs/DEPLOY.md "Several instances"): PostgreSQL
# (scripts/pg-scratch.sh), several `cardtable serve` sharing it, and nginx routing each room's
# page and WebSocket to one of them by the room's id (consistent hashing), failing over when one
# dies. Everything lives in DIR; nothing outside it is touched.
#
#   scripts/cluster.sh start DIR   prints the address to open, then returns (all run on)
#   scripts/cluster.sh stop DIR    stops them all and removes DIR
#
# Environment: BIN (the cardtable binary; default .build/release/cardtable), PORT (nginx's,
# default 8090), INSTANCES (default 2), WEB (the web client; default ./web).
set -euo pipefail

usage() { echo "usage: $0 start|stop DIR" >&2; exit 2; }
[ $# -eq 2 ] || usage
command=$1
dir=$(realpath -m "$2")
here=$(cd "$(dirname "$0")" && pwd)

stop() {
  if [ -f "$dir/nginx/nginx.pid" ]; then
    kill -QUIT "$(cat "$dir/nginx/nginx.pid")" 2>/dev/null || true
  fi
  for pidfile in "$dir"/instance-*.pid; do
    [ -f "$pidfile" ] || continue
    pid=$(cat "$pidfile")
    kill -TERM "$pid" 2>/dev/null || true
  done
  for pidfile in "$dir"/instance-*.pid "$dir"/nginx/nginx.pid; do
    [ -f "$pidfile" ] || continue
    pid=$(cat "$pidfile")
    # NB: wait for each to be gone (a server closes its connections first), at most 10 s.
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null || true
  done
  [ ! -d "$dir/pg" ] || "$here/pg-scratch.sh" stop "$dir/pg"
  rm -rf "$dir"
}

case "$command" in
  stop) stop; exit 0 ;;
  start) ;;
  *) usage ;;
esac

bin=${BIN:-$here/../.build/release/cardtable}
web=${WEB:-$here/../web}
port=${PORT:-8090}
instances=${INSTANCES:-2}
[ -x "$bin" ] || { echo "cluster: no cardtable binary at $bin (make release, or BIN=...)" >&2; exit 3; }
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || { echo "cluster: nginx is not installed (Debian: nginx)" >&2; exit 3; }
nginx=$(command -v nginx || echo /usr/sbin/nginx)
[ ! -e "$dir" ] || { echo "cluster: $dir exists; stop that cluster first ($0 stop $dir)" >&2; exit 2; }
mkdir -p "$dir"
trap 'echo "cluster: could not start; see the logs in $dir" >&2' ERR

url=$("$here/pg-scratch.sh" start "$dir/pg")
echo "$url" >"$dir/database"

servers=""
for i in $(seq "$instances"); do
  log="$dir/instance-$i.log"
  # NB: made before the server starts, which opens it only once it runs: read at once below.
  : >"$log"
  # NB: behind nginx every player has nginx's address, so the per-address limits are raised
  # (docs/DEPLOY.md); nginx is where a site limits per real address.
  "$bin" serve --host 127.0.0.1 --port 0 --database "$url" --web "$web" \
    --allowed-hosts "127.0.0.1,localhost" --connections-per-address 1000000 \
    --messages-per-address 10000000 --rooms-per-minute 10000000 ${SERVE_FLAGS:-} >"$log" 2>&1 &
  echo $! >"$dir/instance-$i.pid"
  instance_port=""
  for _ in $(seq 300); do
    instance_port=$(sed -n 's|^CardTable listening on http://[^:]*:\([0-9]*\)/$|\1|p' "$log")
    [ -z "$instance_port" ] || break
    kill -0 "$(cat "$dir/instance-$i.pid")" 2>/dev/null || { cat "$log" >&2; exit 1; }
    sleep 0.1
  done
  [ -n "$instance_port" ] || { cat "$log" >&2; exit 1; }
  echo "$instance_port" >"$dir/instance-$i.port"
  servers+="        server 127.0.0.1:$instance_port max_fails=1 fail_timeout=5s;"$'\n'
done

mkdir -p "$dir/nginx/tmp"
if [ "$(id -u)" -eq 0 ]; then
  # NB: nginx's workers drop root for nobody; only their buffers' directory must be theirs.
  chown nobody "$dir/nginx/tmp"
  user_line="user nobody nogroup;"
else
  user_line=""
fi
cat >"$dir/nginx/nginx.conf" <<EOF
# Written by scripts/cluster.sh: nginx in front of $instances CardTable instances.
$user_line
worker_processes 1;
pid $dir/nginx/nginx.pid;
error_log $dir/nginx/error.log warn;
events { worker_connections 16384; }

http {
    access_log off;
    client_body_temp_path $dir/nginx/tmp/body;
    proxy_temp_path $dir/nginx/tmp/proxy;
    fastcgi_temp_path $dir/nginx/tmp/fastcgi;
    uwsgi_temp_path $dir/nginx/tmp/uwsgi;
    scgi_temp_path $dir/nginx/tmp/scgi;

    map \$http_upgrade \$connection_upgrade {
        default upgrade;
        ''      close;
    }

    # The room a request is about: a WebSocket's ?room=ID, or a page's /play/ID; requests
    # about no room (the home screen, a socket before its first game) go anywhere.
    map \$uri \$page_room {
        "~^/play/(?<id>[A-Za-z0-9_-]{16})" \$id;
        default "";
    }
    map "\$arg_room|\$page_room" \$cardtable_room {
        "~^(?<id>[A-Za-z0-9_-]{16})\|" \$id;
        "~^\|(?<id>[A-Za-z0-9_-]{16})\$" \$id;
        default \$request_id;
    }

    upstream cardtable {
        hash \$cardtable_room consistent;
$servers    }

    server {
        listen 127.0.0.1:$port;
        location / {
            proxy_pass http://cardtable;
            proxy_http_version 1.1;
            proxy_set_header Host \$http_host;
            proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
            proxy_set_header Upgrade \$http_upgrade;
            proxy_set_header Connection \$connection_upgrade;
            # An instance that is down is passed over: the room's next one on the ring.
            proxy_next_upstream error timeout http_502 http_503;
            proxy_connect_timeout 2s;
            proxy_read_timeout 120s;
        }
    }
}
EOF
"$nginx" -p "$dir/nginx" -c "$dir/nginx/nginx.conf" -e "$dir/nginx/error.log"
trap - ERR

ports=$(cat "$dir"/instance-*.port | paste -sd, -)
echo "CardTable cluster: open http://127.0.0.1:$port/ ($instances instances on ports $ports, PostgreSQL in $dir/pg; stop with: $0 stop $dir)"
