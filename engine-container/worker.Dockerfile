# The AutoABR worker: one ECS task per job attempt (`<jobId> <attempt>` are the command arguments).
# Build context: the repository root
#   docker build -f engine-container/worker.Dockerfile -t onair-autoabr-worker .
# ffmpeg comes from Debian trixie, built with libvmaf >= 2 (models built in). The libvmaf 1.x model
# files of the repository (functions/autoabr/vmaf-models) are copied too, with their license, and
# VMAF_MODEL_DIR points at them: the bundle no longer sits where the default path is worked out from,
# and an ffmpeg with libvmaf 1.x (FFMPEG_PATH) then scores as well.
FROM node:22-trixie-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json ./
COPY core ./core
COPY functions ./functions
RUN npx esbuild functions/autoabr/entry/worker-main.ts --bundle --platform=node --format=esm --target=node22 \
      --sourcemap --outfile=dist/worker.mjs \
      --banner:js="import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);"

FROM node:22-trixie-slim
# The build fails, loudly, rather than the first job, when this ffmpeg cannot score with libvmaf >= 2
# (its `model` option) or encode with libx264. `ffmpeg -h filter=...` exits 0 even for an unknown
# filter, so its output is what is checked.
RUN apt-get update \
 && apt-get install -y --no-install-recommends ffmpeg ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && if ! ffmpeg -hide_banner -h filter=libvmaf 2>&1 | grep -Eq '^ +model +<'; then \
      ffmpeg -hide_banner -h filter=libvmaf >&2; \
      echo 'worker.Dockerfile: this ffmpeg has no libvmaf >= 2 (ffmpeg -h filter=libvmaf shows no model option): AutoABR cannot score' >&2; \
      exit 1; \
    fi \
 && if ! ffmpeg -hide_banner -h encoder=libx264 2>&1 | grep -q 'libx264'; then \
      echo 'worker.Dockerfile: this ffmpeg has no libx264 encoder: AutoABR cannot encode' >&2; \
      exit 1; \
    fi
WORKDIR /app
ENV NODE_ENV=production FFMPEG_PATH=/usr/bin/ffmpeg AUTOABR_WORK_DIR=/tmp VMAF_MODEL_DIR=/app/vmaf-models
COPY --from=build /app/dist ./dist
COPY --from=build /app/functions/autoabr/vmaf-models ./vmaf-models
USER node
ENTRYPOINT ["node", "--enable-source-maps", "dist/worker.mjs"]
