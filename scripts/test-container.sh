#!/usr/bin/env bash
# npm run test:container: builds the image (Containerfile) and runs compose.yaml's stack with
# podman (Postgres, two shop replicas, Caddy with TLS), then checks, through the proxy: /healthz,
# a sandbox purchase, and that stopping one replica in the middle of traffic loses no request and
# no order. Installs what it needs (Debian packages) on a clean machine. No container registry is
# reachable here: the Node 20 base image is made locally (scripts/container/local-base-image.sh)
# and Postgres and Caddy come from Debian's packages (scripts/container/services.Containerfile).
# Every step is bounded; the stack is removed at the end, passed or failed.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
started=$SECONDS
step() { echo "== $* ($((SECONDS - started)) s)"; }
fail() { echo "FAILED: $*" >&2; exit 1; }

# --- what the machine needs ----------------------------------------------------------------
need=()
for pair in podman:podman runc:runc mmdebstrap:mmdebstrap podman-compose:podman-compose; do
  command -v "${pair%%:*}" >/dev/null 2>&1 || need+=("${pair#*:}")
done
if [ ${#need[@]} -gt 0 ]; then
  step "installing ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  timeout 600 apt-get update -qq || true
  timeout 900 apt-get install -y -qq "${need[@]}" >/dev/null
fi

# podman with runc and explicit ulimits (measured on these machines: the defaults fail)
work=$(mktemp -d)
if [ -z "${CONTAINERS_CONF:-}" ]; then
  cat > "$work/containers.conf" <<'EOF'
[engine]
runtime = "runc"
[containers]
default_ulimits = ["nofile=20000:20000", "nproc=32768:32768"]
EOF
  export CONTAINERS_CONF="$work/containers.conf"
fi

BASE_IMAGE=localhost/candlewise-node-base:20
SHOP_IMAGE=localhost/candlewise:test
POSTGRES_IMAGE=localhost/candlewise-test-postgres:15
CADDY_IMAGE=localhost/candlewise-test-caddy:2
HTTPS_PORT=${CONTAINER_TEST_PORT:-3170}
HTTP_PORT=$((HTTPS_PORT + 1))
project=cwtest$$
stack="$work/stack"

cleanup() {
  status=$?
  if [ -d "$stack" ]; then
    if [ $status -ne 0 ]; then
      echo "-- podman-compose's output (last lines)"; tail -n 30 "$work/compose.log" 2>/dev/null || true
      echo "-- the stack's logs (last lines of each)"
      for container in $(podman ps -a --filter "label=io.podman.compose.project=$project" --format '{{.Names}}' 2>/dev/null); do
        echo "--- $container"; podman logs --tail 40 "$container" 2>&1 || true
      done
    fi
    (cd "$stack" && timeout 180 podman-compose -p "$project" down -v >/dev/null 2>&1) || true
  fi
  rm -rf "$work"
  echo "test:container took $((SECONDS - started)) s"
}
trap cleanup EXIT

# --- images ----------------------------------------------------------------------------------
step "the Node 20 base image ($BASE_IMAGE)"
timeout 900 bash scripts/container/local-base-image.sh "$BASE_IMAGE"

step "the shop's image from the Containerfile ($SHOP_IMAGE)"
ca_file=${NODE_EXTRA_CA_CERTS:-/etc/ssl/certs/ca-certificates.crt}
ca_args=()
if [ -f "$ca_file" ]; then ca_args=(--build-arg NODE_EXTRA_CA_CERTS=/run/host-ca.crt -v "$ca_file:/run/host-ca.crt:ro"); fi
# docker format: the OCI one has no HEALTHCHECK
timeout 1800 podman build -q --format docker -f Containerfile --build-arg "NODE_IMAGE=$BASE_IMAGE" "${ca_args[@]}" -t "$SHOP_IMAGE" . >/dev/null

step "Postgres and Caddy from Debian's packages"
timeout 900 podman build -q -f scripts/container/services.Containerfile --build-arg "BASE_IMAGE=$BASE_IMAGE" --target postgres -t "$POSTGRES_IMAGE" scripts/container >/dev/null
timeout 600 podman build -q -f scripts/container/services.Containerfile --build-arg "BASE_IMAGE=$BASE_IMAGE" --target caddy -t "$CADDY_IMAGE" scripts/container >/dev/null

step "the image: a non-root user, node as the first process, a health check on /healthz"
user=$(podman image inspect "$SHOP_IMAGE" --format '{{.Config.User}}')
[ -n "$user" ] && [ "$user" != root ] && [ "$user" != 0 ] || fail "the image runs as '$user'"
podman image inspect "$SHOP_IMAGE" --format '{{json .Config.Cmd}}' | grep '^\["node"' >/dev/null || fail "the image's command is not node itself"
podman image inspect "$SHOP_IMAGE" --format '{{json .Config.Healthcheck}}' | grep '/healthz' >/dev/null || fail "the image has no health check on /healthz"

# --- the stack, as compose.yaml says, from one .env -------------------------------------------
step "the stack: Postgres, two replicas, Caddy with TLS on https://localhost:$HTTPS_PORT"
mkdir -p "$stack/deploy"
cp compose.yaml "$stack/"
cp deploy/Caddyfile "$stack/deploy/"
cat > "$stack/.env" <<EOF
PUBLIC_URL=https://localhost:$HTTPS_PORT
SITE_ADDRESS=localhost
TLS_ISSUER=internal
HTTPS_PORT=$HTTPS_PORT
HTTP_PORT=$HTTP_PORT
POSTGRES_PASSWORD=container-test-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')
AUTH_SECRET=$(od -An -N24 -tx1 /dev/urandom | tr -d ' \n')
SHOP_IMAGE=$SHOP_IMAGE
POSTGRES_IMAGE=$POSTGRES_IMAGE
CADDY_IMAGE=$CADDY_IMAGE
LOG_LEVEL=info
EOF
cd "$stack"
# podman-compose's own chatter (and podman's complaint that no systemd runs its health checks)
# goes to a log, shown when the test fails
compose() { timeout 300 podman-compose -p "$project" "$@" >> "$work/compose.log" 2>&1; }
compose up -d --no-build postgres
pg=$(podman ps --filter "label=io.podman.compose.project=$project" --filter "label=com.docker.compose.service=postgres" --format '{{.Names}}' | head -1)
[ -n "$pg" ] || fail "no Postgres container"
for _ in $(seq 1 120); do
  podman exec "$pg" pg_isready -h 127.0.0.1 -U candlewise -d candlewise >/dev/null 2>&1 && break
  sleep 1
done
podman exec "$pg" pg_isready -h 127.0.0.1 -U candlewise -d candlewise >/dev/null || fail "Postgres did not become ready"
# both replicas start at once on the empty database (the migrations' index builds: decision 051)
compose up -d --no-build shop-1 shop-2 caddy
container_of() { podman ps -a --filter "label=io.podman.compose.project=$project" --filter "label=com.docker.compose.service=$1" --format '{{.Names}}' | head -1; }
shop1=$(container_of shop-1); shop2=$(container_of shop-2)
[ -n "$shop1" ] && [ -n "$shop2" ] || fail "the replicas did not start"

base="https://localhost:$HTTPS_PORT"
step "/healthz through the proxy"
healthy=""
for _ in $(seq 1 300); do
  if curl -ksf --max-time 5 "$base/healthz" >/dev/null 2>&1; then healthy=yes; break; fi
  sleep 1
done
[ -n "$healthy" ] || fail "$base/healthz did not answer through the proxy"
curl -ksf "$base/healthz" | grep '"status":"ok"' >/dev/null || fail "/healthz answered otherwise"
curl -ksI "$base/healthz" | grep -i '^strict-transport-security\|^x-request-id' >/dev/null || fail "the answer did not come from the shop"
# each replica ready, and the image's own health check passing in it
for container in "$shop1" "$shop2"; do
  for _ in $(seq 1 180); do
    podman exec "$container" node -e "fetch('http://127.0.0.1:3000/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))" 2>/dev/null && break
    sleep 1
  done
  # the image's check starts a Node process: on a busy machine one can take longer than its
  # timeout, which is why a runtime retries it (--retries=3) before calling the container unhealthy
  checked=""
  for _ in 1 2 3; do
    if podman healthcheck run "$container" >/dev/null 2>&1; then checked=yes; break; fi
    sleep 2
  done
  [ -n "$checked" ] || fail "the health check of $container failed three times"
  [ "$(podman exec "$container" id -u)" != 0 ] || fail "$container runs as root"
done

cd "$root"
step "a sandbox purchase through the proxy"
checkout=$(timeout 120 node scripts/container/traffic.mjs purchase "$base")
orders=$(podman exec "$pg" psql -U candlewise -d candlewise -tAc "SELECT count(*) FROM orders WHERE checkout_session_id = '$checkout'")
[ "$orders" = 1 ] || fail "the purchase $checkout made $orders orders"

step "stopping one replica in the middle of traffic"
before=$(podman exec "$pg" psql -U candlewise -d candlewise -tAc "SELECT count(*) FROM orders")
# the stop timeout compose.yaml gives (stop_grace_period): longer than the server's own limit, so a
# stop that hangs ends in the server's log line naming what it waited for, not in a bare SIGKILL
grace=$(sed -n 's/^ *stop_grace_period: *\([0-9]*\)s$/\1/p' "$stack/compose.yaml" | head -1)
[ -n "$grace" ] || fail "compose.yaml gives no stop_grace_period"
summary=$(timeout 300 node scripts/container/traffic.mjs load "$base" "podman stop -t $grace $shop1 >/dev/null")
echo "   $summary"
after=$(podman exec "$pg" psql -U candlewise -d candlewise -tAc "SELECT count(*) FROM orders")
exit_code=$(podman inspect "$shop1" --format '{{.State.ExitCode}}')
node -e '
const s = JSON.parse(process.argv[1]);
const [before, after, exitCode] = process.argv.slice(2).map(Number);
const problems = [];
if (s.failed > 0 || s.purchasesFailed > 0) problems.push(`${s.failed} requests and ${s.purchasesFailed} purchases failed: ${s.errors.join("; ")}`);
if (s.requests < 50 || s.purchases < 1) problems.push(`too little traffic to prove anything (${s.requests} requests, ${s.purchases} purchases)`);
if (after - before !== s.purchases) problems.push(`${s.purchases} purchases answered but ${after - before} orders recorded`);
if (exitCode !== 0) problems.push(`the stopped replica exited with ${exitCode} (not a clean stop)`);
if (problems.length) { console.error(problems.join("\n")); process.exit(1); }
console.log(`   ${s.requests} requests and ${s.purchases} purchases answered, 0 failed (${s.retriedUnavailable} answered 503 with Retry-After and sent again); ${after - before} orders recorded; the replica stopped cleanly`);
' "$summary" "$before" "$after" "$exit_code" || fail "a request or an order was lost while a replica stopped"
# grep reads the whole log (-q would stop at the first match, and podman logs, cut off, fails the pipe)
podman logs "$shop1" 2>&1 | grep '"msg":"stopped"' >/dev/null || fail "the stopped replica did not log its clean stop"
curl -ksf "$base/healthz" >/dev/null || fail "the shop does not answer on the remaining replica"

step "passed"
