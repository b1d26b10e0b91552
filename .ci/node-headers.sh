#!/usr/bin/env bash
# node-headers.sh [DIR...]: prints the first folder whose include/node holds Node's headers
# (node_api.h and common.gypi), to pass to node-gyp as npm_config_nodedir so that building
# better-sqlite3 from source needs no download from nodejs.org. Without arguments it looks at the
# running node's install prefix (official tarballs, nvm, nodesource), then /usr (Debian's
# libnode-dev) and /usr/local. Exits 1, printing nothing, when none has them.
set -euo pipefail
if [ $# -eq 0 ]; then
  set -- "$(node -p 'require("path").resolve(process.execPath, "..", "..")')" /usr /usr/local
fi
for dir in "$@"; do
  if [ -f "$dir/include/node/node_api.h" ] && [ -f "$dir/include/node/common.gypi" ]; then
    echo "$dir"
    exit 0
  fi
done
exit 1
