# The AutoABR worker: one ECS task per job attempt (`<jobId> <attempt>` are the command arguments).
# Build context: the repository root
#   docker build -f engine-container/worker.Dockerfile -t onair-autoabr-worker .
# ffmpeg comes from Debian trixie, built with libvmaf >= 2 (models built in: no .pkl files needed).
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
RUN apt-get update \
 && apt-get install -y --no-install-recommends ffmpeg ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 # Fail the build, not the first job, if this ffmpeg cannot score with libvmaf >= 2.
 && ffmpeg -hide_banner -h filter=libvmaf | grep -Eq '^ +model +<' \
 && ffmpeg -hide_banner -h encoder=libx264 | grep -q 'libx264'
WORKDIR /app
ENV NODE_ENV=production FFMPEG_PATH=/usr/bin/ffmpeg AUTOABR_WORK_DIR=/tmp
COPY --from=build /app/dist ./dist
USER node
ENTRYPOINT ["node", "--enable-source-maps", "dist/worker.mjs"]
