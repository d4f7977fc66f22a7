import type { GameOptions } from '../rules/options';
import type { GameRecord } from '../rules/replay';
import { CockroachResult, fullResult } from '../rules/result';
import type { Game, LogEntry, PlayerId } from '../rules/types';
import { canonicalJson } from './canonical';
import { sha256Hex } from './sha256';

export interface RecordPlayer {
  id: PlayerId;
  nickname: string;
  /** Index in the game's seat order (`order`), as in the state's `players[id].seat`. */
  seat: number;
  bot: boolean;
}

export interface Fairness {
  commitment: string;
  /** Every player's entropy, "" for none (bots included). */
  entropy: Record<PlayerId, string>;
  serverSeed: string;
}

/**
 * A finished game as PROTOCOL v2 names it (`GET /api/games/:gameId`, `npm run verify`).
 * `players` is in the order the game was started with, sorted by id (`canonicalPlayers`):
 * a replay passes exactly that list to the rules' setup, which seats them from the seed.
 */
export interface FinishedGameRecord {
  /** `recordId(this)`: the record names its own content, so a copy fetched by this id can be checked against it. */
  gameId: string;
  /**
   * Only in records made before PROTOCOL v3 (a record now admits its reader to nothing): kept so
   * those records still verify, since their gameId hashes it. New records never have it.
   */
  roomId?: string;
  /** ISO 8601, UTC. */
  startedAt: string;
  endedAt: string;
  /** The options the game was started with (before `loseCount` is resolved). */
  options: GameOptions;
  players: RecordPlayer[];
  fairness: Fairness;
  /** Every applied action in order; `auto: true` marks the rules' default actions. */
  log: LogEntry[];
  result: CockroachResult;
}

export interface RecordInput {
  /** Epoch milliseconds or a Date. */
  startedAt: number | Date;
  endedAt: number | Date;
  /** The room's Match (or its toJSON()). */
  match: { readonly record: GameRecord; readonly game: Game };
  nicknames: Readonly<Record<PlayerId, string>>;
  bots: ReadonlySet<PlayerId> | readonly PlayerId[];
  fairness: Fairness;
}

/** The fields `gameId` is the hash of: the whole record but its id and its result (the replay recomputes that). */
export type RecordBody = Omit<FinishedGameRecord, 'gameId' | 'result'>;

/**
 * Lowercase hex SHA-256 of the canonical JSON (RFC 8785) of the record without `gameId` and
 * `result`. An older record's `roomId` is part of what it hashes; a new record has none.
 */
export function recordId(record: RecordBody): string {
  const { roomId, startedAt, endedAt, options, players, fairness, log } = record;
  // canonicalJson leaves an undefined key out: a new record hashes without `roomId`.
  return sha256Hex(canonicalJson({ roomId, startedAt, endedAt, options, players, fairness, log }));
}

/**
 * The record of an ended game, built from what the table holds at the end; null while the game
 * is still played. Its `result` (with `gameId`) is the one to broadcast, so the message and the
 * record agree. Everything is copied: later changes to the match do not reach the record.
 */
export function buildRecord(input: RecordInput): FinishedGameRecord | null {
  const { match, nicknames } = input;
  if (match.game.phase !== 'ended') return null;
  const bots = new Set<PlayerId>(input.bots);
  const body: RecordBody = {
    startedAt: new Date(input.startedAt).toISOString(),
    endedAt: new Date(input.endedAt).toISOString(),
    options: JSON.parse(JSON.stringify(match.record.options)),
    players: match.record.players.map((id) => ({
      id,
      nickname: nicknames[id] ?? id,
      seat: match.game.order.indexOf(id),
      bot: bots.has(id),
    })),
    fairness: {
      commitment: input.fairness.commitment,
      entropy: { ...input.fairness.entropy },
      serverSeed: input.fairness.serverSeed,
    },
    log: JSON.parse(JSON.stringify(match.record.log)),
  };
  const gameId = recordId(body);
  const names: Record<PlayerId, string> = {};
  for (const p of body.players) names[p.id] = p.nickname;
  const result = fullResult(match.game, body.log, names, gameId)!;
  return { gameId, ...body, result };
}
