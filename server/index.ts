import { configFromEnv } from './config';
import { startServer } from './app';

async function main() {
  const config = configFromEnv();
  // Colyseus handles SIGTERM/SIGINT: rooms are disposed (clients told), then the process exits.
  const server = await startServer(config, { exitOnSignal: true });
  console.log(`cockroach-poker server listening on :${server.port} (health: /health, room: cockroach-poker)`);
}

main().catch((err) => {
  console.error('failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
