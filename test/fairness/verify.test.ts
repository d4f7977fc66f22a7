import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sha256Hex } from '../../server/fairness/sha256';
import { verifyRecord } from '../../server/fairness/verify';
import type { FinishedGameRecord } from '../../server/fairness/record';
import { copy, playGame } from './games';

function refused(record: unknown, mismatch: string | RegExp) {
  const r = verifyRecord(record);
  assert.equal(r.ok, false, 'the record should be refused');
  if (!r.ok) {
    if (typeof mismatch === 'string') assert.equal(r.mismatch, mismatch, r.detail);
    else assert.match(r.mismatch, mismatch, r.detail);
  }
}

/** Reverses every object's keys, as a database or an editor might. */
function reorder(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reorder);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([k, v]) => [k, reorder(v)]),
  );
}

describe('fairness: verifyRecord (npm run verify, the SDK verifyGame)', () => {
  const games = [2, 3, 4, 5, 6].map((n) => playGame(n, { botSeed: `verify-${n}`, options: n === 4 ? { eightKindsRule: true } : {} }));

  it('accepts real games of 2 to 6 players, default actions included, also after a JSON round trip and reordered keys', () => {
    for (const { record } of games) {
      assert.ok(record.log.some((e) => e.auto) && record.log.some((e) => !e.auto));
      assert.deepEqual(verifyRecord(record), { ok: true });
      assert.deepEqual(verifyRecord(copy(record)), { ok: true });
      assert.deepEqual(verifyRecord(reorder(record)), { ok: true });
    }
  });

  it('a record names no room (PROTOCOL v3: it admits its reader to nothing); one made before still verifies', () => {
    for (const { record } of games) assert.equal(Object.hasOwn(record, 'roomId'), false);
    const legacy: FinishedGameRecord = JSON.parse(readFileSync(path.join(__dirname, 'fixtures', 'record-with-roomId.json'), 'utf8'));
    assert.equal(legacy.roomId, 'room1234');
    assert.deepEqual(verifyRecord(legacy), { ok: true });
    assert.deepEqual(verifyRecord(reorder(legacy)), { ok: true });
    const stripped = copy(legacy);
    delete stripped.roomId;
    refused(stripped, 'gameId');
    refused({ ...copy(legacy), roomId: 7 }, 'record');
    refused({ ...copy(legacy), roomId: null }, 'record');
    refused({ ...copy(games[0].record), roomId: 'room1234' }, 'gameId');
  });

  it('refuses a copy with one changed log entry', () => {
    for (const { record } of games) {
      const claimed = record.log.findIndex((e) => !e.auto && (e.action.type === 'offer' || e.action.type === 'pass'));
      const a = copy(record);
      const action = a.log[claimed].action as { claim: string };
      action.claim = action.claim === 'rat' ? 'bat' : 'rat';
      refused(a, /^(log|result\.\w+|gameId)$/);

      const call = record.log.findIndex((e) => e.action.type === 'call');
      const b = copy(record);
      b.log[call].action = { type: 'call', call: (b.log[call].action as { call: string }).call === 'true' ? 'false' : 'true' };
      refused(b, /^(log|result\.\w+|gameId)$/);

      const c = copy(record);
      c.log.pop();
      refused(c, 'log');
    }
  });

  it('refuses a changed default action (re-drawn from the seed)', () => {
    const { record } = games[2];
    const i = record.log.findIndex((e) => e.auto && (e.action.type === 'offer' || e.action.type === 'pass'));
    const r = copy(record);
    const action = r.log[i].action as { claim: string };
    action.claim = action.claim === 'rat' ? 'bat' : 'rat';
    refused(r, 'log');
    const unmarked = copy(record);
    delete unmarked.log[i].auto;
    refused(unmarked, 'gameId');
  });

  it('refuses a change that replays to the same result, because the record no longer hashes to its id', () => {
    const { record } = games[3];
    const kinds = games[3].match.game.kinds;
    // A bluff told as another wrong kind: still a bluff, the same result and stats.
    const i = record.log.findIndex((e) => e.action.type === 'offer' && kinds[e.action.cardId] !== e.action.claim && !e.auto);
    assert.ok(i >= 0);
    const r = copy(record);
    const action = r.log[i].action as { type: 'offer'; cardId: number; claim: string };
    action.claim = ['rat', 'bat', 'fly'].find((k) => k !== action.claim && k !== kinds[action.cardId])!;
    refused(r, 'gameId');
    const earlier = copy(record);
    earlier.startedAt = '2025-12-31T00:00:00.000Z';
    refused(earlier, 'gameId');
    const later = copy(record);
    later.endedAt = '2026-01-02T00:00:00.000Z';
    refused(later, 'gameId');
  });

  it('names the record by the SHA-256 of its canonical JSON, so reordered keys keep the id', () => {
    const { record } = games[0];
    assert.match(record.gameId, /^[0-9a-f]{64}$/);
    assert.equal(record.result.gameId, record.gameId);
    const other = copy(record);
    other.gameId = other.result.gameId = 'f'.repeat(64);
    refused(other, 'gameId');
  });

  it('refuses a changed serverSeed as a commitment mismatch', () => {
    for (const { record } of games) {
      const r = copy(record);
      r.fairness.serverSeed = (r.fairness.serverSeed[0] === '0' ? '1' : '0') + r.fairness.serverSeed.slice(1);
      refused(r, 'commitment');
    }
  });

  it('refuses a different serverSeed even with its own matching commitment (the deal would differ)', () => {
    for (const { record } of games) {
      const r = copy(record);
      r.fairness.serverSeed = 'ab'.repeat(32);
      r.fairness.commitment = sha256Hex(r.fairness.serverSeed);
      refused(r, /^(seed|log)$/);
    }
  });

  it('refuses a changed entropy', () => {
    for (const { record } of games) {
      const id = record.players.find((p) => !p.bot)!.id;
      const r = copy(record);
      const e = r.fairness.entropy[id];
      r.fairness.entropy[id] = (e[0] === '0' ? '1' : '0') + e.slice(1);
      refused(r, /^(seed|log)$/);
      const bot = record.players.find((p) => p.bot)!.id;
      const s = copy(record);
      s.fairness.entropy[bot] = 'ab'.repeat(8);
      refused(s, /^(seed|log)$/);
    }
  });

  it('refuses entropy that is missing a player, names a stranger, or is not hex', () => {
    const { record } = games[1];
    const missing = copy(record);
    delete missing.fairness.entropy[record.players[0].id];
    refused(missing, 'entropy');
    const stranger = copy(record);
    stranger.fairness.entropy.stranger = '';
    refused(stranger, 'entropy');
    const bad = copy(record);
    bad.fairness.entropy[record.players[0].id] = 'not hex at all!!';
    refused(bad, 'entropy');
  });

  it('refuses players out of id order, or seated elsewhere than the seed seats them', () => {
    const { record } = games[3];
    const swapped = copy(record);
    swapped.players.reverse();
    refused(swapped, 'players');
    const seats = copy(record);
    const [a, b] = [seats.players[0], seats.players[1]];
    [a.seat, b.seat] = [b.seat, a.seat];
    refused(seats, 'seed');
  });

  it('refuses a changed result, naming the field', () => {
    const { record } = games[2];
    const winner = record.players.find((p) => p.id !== record.result.loser)!.id;
    const cases: [string, (r: FinishedGameRecord) => void][] = [
      ['result.loser', (r) => void (r.result.loser = winner)],
      ['result.scores', (r) => void (r.result.scores[winner] = 0)],
      ['result.summary', (r) => void (r.result.summary = '모두 승리')],
      ['result.stats', (r) => void r.result.stats[winner].bluffs++],
      ['result.highlights', (r) => void r.result.highlights.pop()],
      ['result.gameId', (r) => void (r.gameId = 'another-id')],
      ['result.extra', (r) => void ((r.result as unknown as Record<string, unknown>).extra = 1)],
      ['result.summary', (r) => void (r.players.find((p) => p.id === record.result.loser)!.nickname = '다른이름')],
    ];
    for (const [mismatch, change] of cases) {
      const r = copy(record);
      change(r);
      refused(r, mismatch);
    }
  });

  it('refuses what is not a record without throwing', () => {
    const { record } = games[0];
    const hidden = copy(record);
    hidden.fairness.serverSeed = '';
    const junk: unknown[] = [
      null,
      42,
      'ok',
      [],
      {},
      { ...copy(record), log: 'x' },
      { ...copy(record), players: [] },
      { ...copy(record), options: { turnSeconds: 7 } },
      { ...copy(record), log: [{ player: 'nobody', action: { type: 'peek' } }] },
      { ...copy(record), log: [{ player: record.players[0].id, action: { type: 'dance' } }] },
      { ...copy(record), log: new Array(6000).fill(record.log[0]) },
      { ...copy(record), players: copy(record).players.map((p, i) => (i === 0 ? { ...p, id: '__proto__' } : p)) },
      { ...copy(record), players: copy(record).players.map((p, i) => (i === 0 ? { ...p, id: 'a b' } : p)) },
      hidden,
    ];
    for (const value of junk) refused(value, 'record');
  });
});
