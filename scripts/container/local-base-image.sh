#!/usr/bin/env bash
# Makes a Node 20 base image on this machine, for machines that reach no container registry
# (npm run test:container): a minimal Debian from Debian's own packages (mmdebstrap), with this
# machine's Node copied in (Debian's own nodejs is 18). A production build uses the official
# node:20 image instead (the Containerfile's default NODE_IMAGE).
# Usage: local-base-image.sh <image name>   (does nothing when the image exists)
set -euo pipefail
image=${1:-localhost/candlewise-node-base:20}
if podman image exists "$image"; then exit 0; fi
node_bin=$(command -v node)
node_major=$("$node_bin" -p 'process.versions.node.split(".")[0]')
if [ "$node_major" != 20 ]; then echo "this machine's node is $("$node_bin" -v), the image needs 20" >&2; exit 1; fi
npm_dir=$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")
suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# curl-free health checks use node itself; ca-certificates for npm and outgoing TLS; tini is not
# needed (the server handles SIGTERM and reaps nothing)
mmdebstrap --variant=minbase --include=ca-certificates "$suite" "$work/rootfs.tar" \
  --customize-hook="copy-in $node_bin /usr/local/bin/" \
  --customize-hook="mkdir -p \"\$1/usr/local/lib/node_modules\"" \
  --customize-hook="copy-in $npm_dir /usr/local/lib/node_modules/" \
  --customize-hook="ln -s ../lib/node_modules/npm/bin/npm-cli.js \"\$1/usr/local/bin/npm\"" \
  --customize-hook="ln -s ../lib/node_modules/npm/bin/npx-cli.js \"\$1/usr/local/bin/npx\"" \
  --customize-hook="rm -rf \"\$1/var/cache/apt/archives\"/*.deb \"\$1/var/lib/apt/lists\"/*"
podman import --change 'CMD ["node"]' --change 'ENV PATH=/usr/local/bin:/usr/bin:/bin' "$work/rootfs.tar" "$image" >/dev/null
echo "made $image"
