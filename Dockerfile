# syntax=docker/dockerfile:1
# quota-doctor image: compiled JavaScript (dist/, `npm run build`) on distroless Node 24. No TypeScript
# compiler, tsx or esbuild in the runtime image; the CLI is the entrypoint, `serve` the default command:
#
#   docker build -t ghcr.io/quota-doctor/quota-doctor:0.1.0 .
#   docker run ghcr.io/quota-doctor/quota-doctor:0.1.0                       # the bot (serve)
#   docker run -v "$PWD/k8s:/manifests:ro" ghcr.io/quota-doctor/quota-doctor:0.1.0 check -f /manifests/app.yaml --state /app/manifests/demo
#
# Base images are tags here for readability; CI should pin them by digest (@sha256:…) and let a bot bump them.

# ---- build: full install (with dev deps) + compile --------------------------------------------------
FROM node:24-bookworm-slim AS build
WORKDIR /app
# Lockfile first, so the dependency layer is cached until package*.json changes.
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src/ ./src/
# tsc typechecks src/ and emits dist/; a type error fails the build (noEmitOnError).
RUN npm run build

# ---- prod-deps: runtime dependencies only ------------------------------------------------------------
# A separate stage so the runtime image gets no compiler, no tsx/esbuild, no vitest, and no npm cache.
# --ignore-scripts: no install script runs (none of the runtime dependencies needs one).
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
# NODE_ENV: production behaviour in dependencies (Bolt, pino). Compiled JavaScript needs no transform
# cache, so the process writes nothing outside /tmp and readOnlyRootFilesystem works (the Deployment
# mounts an emptyDir at /tmp).
ENV NODE_ENV=production \
    PORT=3000
COPY --from=prod-deps /app/node_modules ./node_modules
# package.json: "type": "module" makes dist/*.js ES modules. dist/ comes from the build stage, which
# makes the compile (and its typecheck) a dependency of the final image. No src/ here: the bin runs dist/.
COPY --from=build /app/package.json ./
COPY --from=build /app/dist ./dist
COPY bin/quota-doctor.js ./bin/
# Demo cluster state for `quota-doctor console` / QUOTA_DOCTOR_STATE=/app/manifests/demo.
COPY manifests/demo/ ./manifests/demo/
USER 65532:65532
# HTTP mode: POST /slack/events, GET /healthz, /readyz, /metrics. Socket Mode still serves the probes here.
EXPOSE 3000
# No HEALTHCHECK: Kubernetes probes /healthz and /readyz (manifests/base/deployment.yaml).
# Exec form, so node is PID 1 and gets SIGTERM directly. Distroless keeps node at /nodejs/bin/node
# (not on PATH). The CLI is the entrypoint and `serve` the default command: `docker run IMAGE check -f …`
# replaces only CMD.
ENTRYPOINT ["/nodejs/bin/node", "/app/bin/quota-doctor.js"]
CMD ["serve"]
