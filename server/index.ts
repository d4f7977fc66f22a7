import { createHash } from 'node:crypto';
import { configFromEnv } from './config';
import { startServer, ROOM_NAME } from './app';
import { CONNECTION_CAPACITY } from './base/config';
import { log } from './base/log';
import { useSha256 } from './fairness/sha256';

async function main() {
  // Commitments, seeds and record ids through node:crypto (the SDK keeps the pure SHA-256): same hex.
  useSha256((text) => createHash('sha256').update(text, 'utf8').digest('hex'));
  const config = configFromEnv();
  // SIGTERM/SIGINT drain (server/ops/drain.ts): no new rooms, games finish up to DRAIN_SECONDS, then exit.
  const server = await startServer(config, { exitOnSignal: true });
  const { redisUrl, publicAddress, edge } = config.ops!;
  // Where the connection cap came from: MAX_CONNECTIONS, or the open-file limit (server/base/fileLimit.ts).
  const maxConnectionsFrom = process.env.MAX_CONNECTIONS?.trim() ? 'MAX_CONNECTIONS' : CONNECTION_CAPACITY.source;
  log.always('listening', {
    port: server.port,
    room: ROOM_NAME,
    redis: redisUrl !== null,
    publicAddress,
    health: '/health',
    maxConnections: edge.maxConnections,
    maxConnectionsFrom,
  });
}

main().catch((err) => {
  log.error('start.failed', {}, err);
  process.exit(1);
});
