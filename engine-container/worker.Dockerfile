# The AutoABR worker: one ECS task per job attempt (`<jobId> <attempt>` are the command arguments).
# Build context: the repository root
#   docker build -f engine-container/worker.Dockerfile -t onair-autoabr-worker .
# ffmpeg is the static build of the npm package @ffmpeg-installer/linux-x64 (a dependency in
# package-lock.json, so the same file wherever the image is built, from the registry every build
# already reaches; `npm start` runs it too). It carries libvmaf 1.x, which scores with the `.pkl`
# model files of the repository (functions/autoabr/vmaf-models, copied with their license;
# VMAF_MODEL_DIR points at them). FFMPEG_PATH may name an ffmpeg with libvmaf >= 2 instead.
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json ./
COPY core ./core
COPY functions ./functions
RUN npx esbuild functions/autoabr/entry/worker-main.ts --bundle --platform=node --format=esm --target=node22 \
      --sourcemap --outfile=dist/worker.mjs \
      --banner:js="import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);"
# --ignore-scripts skipped the package's own chmod: the mode is set here, not left to the tarball.
RUN install -D -m 0755 node_modules/@ffmpeg-installer/linux-x64/ffmpeg dist/bin/ffmpeg

FROM node:22-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production FFMPEG_PATH=/usr/local/bin/ffmpeg AUTOABR_WORK_DIR=/tmp VMAF_MODEL_DIR=/app/vmaf-models
COPY --from=build /app/dist/bin/ffmpeg /usr/local/bin/ffmpeg
COPY --from=build /app/functions/autoabr/vmaf-models ./vmaf-models
# The build fails, loudly, rather than the first job, when this ffmpeg cannot score with libvmaf or
# encode with libx264: it encodes a short test picture with libx264 and scores it against the source,
# with libvmaf >= 2's built-in model (its `model` option) or else 1.x's `model_path` and the model
# files above (every model's files checked). `ffmpeg -h filter=...` exits 0 even for an unknown
# filter, and the answer for an unknown encoder names it too: the help's first line is what tells.
RUN set -e; \
    help="$(ffmpeg -hide_banner -h filter=libvmaf 2>&1)"; \
    if printf '%s\n' "$help" | grep -Eq '^ +model +<'; then model='model=version=vmaf_v0.6.1'; \
    elif printf '%s\n' "$help" | grep -Eq '^ +model_path +<'; then model="model_path=$VMAF_MODEL_DIR/vmaf_v0.6.1.pkl"; \
      for file in vmaf_v0.6.1.pkl vmaf_v0.6.1.pkl.model vmaf_4k_v0.6.1.pkl vmaf_4k_v0.6.1.pkl.model; do \
        test -r "$VMAF_MODEL_DIR/$file" || { echo "worker.Dockerfile: no $VMAF_MODEL_DIR/$file for libvmaf 1.x" >&2; exit 1; }; \
      done; \
    else printf '%s\n' "$help" >&2; \
      echo 'worker.Dockerfile: this ffmpeg has no libvmaf filter (ffmpeg -h filter=libvmaf): AutoABR cannot score' >&2; \
      exit 1; \
    fi; \
    if ! ffmpeg -hide_banner -h encoder=libx264 2>&1 | grep -q '^Encoder libx264 '; then \
      echo 'worker.Dockerfile: this ffmpeg has no libx264 encoder: AutoABR cannot encode' >&2; \
      exit 1; \
    fi; \
    ffmpeg -hide_banner -loglevel error -f lavfi -i testsrc=size=320x180:rate=25:duration=0.4 \
      -c:v libx264 -preset ultrafast -pix_fmt yuv420p -y /tmp/check.mp4; \
    score="$(ffmpeg -hide_banner -i /tmp/check.mp4 -f lavfi -i testsrc=size=320x180:rate=25:duration=0.4 \
      -lavfi "[0:v][1:v]libvmaf=$model" -f null - 2>&1)" || { printf '%s\n' "$score" >&2; \
      echo "worker.Dockerfile: this ffmpeg cannot score with libvmaf ($model): AutoABR cannot score" >&2; exit 1; }; \
    printf '%s\n' "$score" | grep -E 'VMAF score' >&2 || { printf '%s\n' "$score" >&2; \
      echo 'worker.Dockerfile: libvmaf gave no VMAF score' >&2; exit 1; }; \
    rm -f /tmp/check.mp4
COPY --from=build /app/dist/worker.mjs /app/dist/worker.mjs.map ./dist/
USER node
ENTRYPOINT ["node", "--enable-source-maps", "dist/worker.mjs"]
