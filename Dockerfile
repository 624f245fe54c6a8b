# syntax=docker/dockerfile:1
# quota-doctor image: the TypeScript sources run directly through tsx (a runtime dependency), so there is
# no compile step to ship; the build stage only proves the sources typecheck before they are copied.
#
#   docker build -t ghcr.io/quota-doctor/quota-doctor:0.1.0 .
#
# Base images are tags here for readability; CI should pin them by digest (@sha256:…) and let a bot bump them.

# ---- build: full install (with dev deps) + typecheck --------------------------------------------------
FROM node:24-bookworm-slim AS build
WORKDIR /app
# Lockfile first, so the dependency layer is cached until package*.json changes.
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY bin/ ./bin/
COPY src/ ./src/
# Fails the build on a type error. test/ and bench/ are not in the context (.dockerignore), so this checks src/.
RUN npm run typecheck

# ---- prod-deps: runtime dependencies only ------------------------------------------------------------
# A separate stage so the runtime image gets no compiler, no vitest, and no npm cache.
# --ignore-scripts: no install script runs (esbuild, under tsx, gets its binary from its
# @esbuild/<platform> optional dependency, so it needs none).
FROM node:24-bookworm-slim AS prod-deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund

# ---- runtime ------------------------------------------------------------------------------------------
# Distroless Node 24: no shell, no package manager, same Debian 12 / glibc as the build stages.
# The :nonroot variant already runs as 65532; USER below states it numerically so that
# Kubernetes' runAsNonRoot can verify it without reading /etc/passwd.
FROM gcr.io/distroless/nodejs24-debian12:nonroot
WORKDIR /app
# NODE_ENV: production behaviour in dependencies (Bolt, pino).
# TSX_DISABLE_CACHE: tsx would otherwise write its transform cache; with it off the process writes
# nothing outside /tmp, so readOnlyRootFilesystem works (the Deployment mounts an emptyDir at /tmp).
ENV NODE_ENV=production \
    TSX_DISABLE_CACHE=1 \
    PORT=3000
COPY --from=prod-deps /app/node_modules ./node_modules
# Sources come from the build stage, not the context: this makes the typecheck stage a dependency of the
# final image (BuildKit skips stages the target does not use).
COPY --from=build /app/package.json /app/package-lock.json /app/tsconfig.json ./
COPY --from=build /app/bin ./bin
COPY --from=build /app/src ./src
# Demo cluster state for `quota-doctor console` / QUOTA_DOCTOR_STATE=/app/manifests/demo.
COPY manifests/demo/ ./manifests/demo/
USER 65532:65532
# HTTP mode: POST /slack/events, GET /healthz, /readyz, /metrics. Socket Mode still serves the probes here.
EXPOSE 3000
# No HEALTHCHECK: Kubernetes probes /healthz and /readyz (manifests/base/deployment.yaml).
# Exec form, so node is PID 1 and gets SIGTERM directly. Distroless keeps node at /nodejs/bin/node
# (not on PATH); the arguments are `node bin/quota-doctor.js serve`.
ENTRYPOINT ["/nodejs/bin/node", "bin/quota-doctor.js", "serve"]
