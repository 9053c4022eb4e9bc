# syntax=docker/dockerfile:1
# stratd: `docker build -t stratd .`; `docker compose up` runs it against a `stratd sim` container
# (deploy/README.md). Without a mounted config it paper-trades against its embedded simulator.

# ---- build: all dependencies, better-sqlite3's native module, the compiled TypeScript ----
FROM node:20-bookworm-slim AS build
# node-gyp's toolchain, for better-sqlite3 when no prebuilt binary fits.
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: the project's `prepare` script builds, and the sources are not here yet. Then the
# one dependency with an install script that matters, better-sqlite3 (prebuilt binary or node-gyp),
# is built on its own and loaded once to prove it.
RUN npm ci --ignore-scripts --no-audit --no-fund \
 && npm rebuild better-sqlite3 \
 && node -e "require('better-sqlite3')(':memory:').close()"
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY strategies ./strategies
# Compile, then drop the dev dependencies (TypeScript, jest, eslint…) from node_modules.
RUN npm run build \
 && npm prune --omit=dev --ignore-scripts --no-audit --no-fund

# ---- runtime: production dependencies, compiled code, non-root ----
FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    STRATD_STATE_DIR=/var/lib/stratd
RUN groupadd --system stratd \
 && useradd --system --gid stratd --home-dir /var/lib/stratd --no-create-home --shell /usr/sbin/nologin stratd \
 && mkdir -p /var/lib/stratd /etc/stratd \
 && chown stratd:stratd /var/lib/stratd \
 && chmod 0700 /var/lib/stratd
WORKDIR /opt/stratd
# package.json: "type": "module" makes node load dist/ as ES modules.
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist/src ./dist/src
COPY --from=build /app/dist/strategies ./dist/strategies
COPY bin ./bin
# The dashboard's page (/ui); its charting library comes from node_modules (lightweight-charts).
COPY ui ./ui
COPY config ./config
# The default /etc/stratd: paper trading against the embedded simulator. Mount your own directory
# over it, read-only (docker run -v "$PWD/stratd:/etc/stratd:ro" …).
COPY config/default.yml /etc/stratd/stratd.yml
COPY config/sim.yml /etc/stratd/sim.yml
USER stratd
# Journal and strategy state: keep it on a volume, it is what lets a restart adopt open orders.
VOLUME ["/var/lib/stratd"]
# /healthz and /metrics; the daemon binds 127.0.0.1 unless health.host says otherwise.
EXPOSE 9464
# Runs inside the container's network namespace, so loopback reaches the health server. No curl in
# the slim image: node asks. STRATD_HEALTH_URL overrides the address (another health.port).
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "const u = process.env.STRATD_HEALTH_URL || 'http://127.0.0.1:9464/healthz'; require('node:http').get(u, { timeout: 4000 }, (r) => process.exit(r.statusCode === 200 ? 0 : 1)).on('timeout', function () { this.destroy(new Error('timeout')); }).on('error', () => process.exit(1));"]
# Exec form, no shell: SIGTERM from `docker stop` reaches node, which stops cleanly within
# shutdown.timeout (10 s by default; give `docker stop -t 15` or compose's stop_grace_period).
STOPSIGNAL SIGTERM
ENTRYPOINT ["node", "bin/stratd.js"]
CMD ["run", "--config", "/etc/stratd/stratd.yml"]
