import { configFromEnv } from './config';
import { startServer } from './app';
import { startLoadtestStats } from './loadtestStats';

async function main() {
  const config = configFromEnv();
  // Colyseus handles SIGTERM/SIGINT: rooms are disposed (clients told), then the process exits.
  const server = await startServer(config, { exitOnSignal: true });
  if (process.env.LOADTEST_STATS === '1') startLoadtestStats(); // opt-in figures for loadtest/run.ts
  console.log(`cockroach-poker server listening on :${server.port} (health: /health, room: cockroach-poker)`);
}

main().catch((err) => {
  console.error('failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
