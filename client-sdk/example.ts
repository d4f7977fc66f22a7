/**
 * Plays one whole game of four bots through the SDK against a running server and prints the
 * result line.   ENDPOINT=ws://127.0.0.1:2567 npm run sdk:example
 */
import { seedRng } from '../server/rules/rng';
import { CockroachClient, GameSession } from './index';
import { playRandomly } from './bots';

async function main() {
  const endpoint = process.env.ENDPOINT ?? 'ws://127.0.0.1:2567';
  const names = ['민수', '지우', '서연', '하준'];
  const host = await new CockroachClient(endpoint).create(names[0], { turnSeconds: 15 });
  const sessions: GameSession[] = [host];
  for (const name of names.slice(1)) sessions.push(await new CockroachClient(endpoint).join(host.roomId, name));
  console.log(`room ${host.roomId}: ${names.join(', ')}`);

  const finished = new Promise<string>((resolve) => host.once('gameOver', (result) => resolve(result.summary)));
  // 150 ms of "thinking" per move keeps each bot under the server's 10 messages per second.
  sessions.forEach((s, i) => playRandomly(s, seedRng(`example-${i}-${Date.now()}`), (e) => console.error('refused:', e), 150));
  const name = (id: string) => host.snapshot.seats.find((s) => s.id === id)?.nickname ?? id;
  host.on('revealed', (r) =>
    console.log(`  ${name(r.caller)}: "${r.call === 'true' ? '진짜!' : '거짓말!'}" → ${r.kind}, ${name(r.takenBy)} takes it`),
  );
  await host.start();
  const summary = await finished;
  console.log(`result: ${summary}`);
  await Promise.all(sessions.map((s) => s.leave()));
}

main().catch((error) => {
  console.error(error instanceof Error ? `${error.name}: ${error.message}` : error);
  process.exit(1);
});
