import { copyAction } from '../rules/match';
import { validateOptions } from '../rules/options';
import { replayGame } from '../rules/replay';
import { fullResult } from '../rules/result';
import { setupGame, MAX_PLAYERS, MIN_PLAYERS } from '../rules/setup';
import type { Action, LogEntry, PlayerId } from '../rules/types';
import { canonicalPlayers, deriveSeed, isEntropy } from './derive';
import { canonicalJson } from './canonical';
import { FinishedGameRecord, recordId } from './record';
import { sha256Hex } from './sha256';
import { isOpaqueId } from '../protocol';

/**
 * `mismatch` names the first check that failed, in the order they run: `record` (not a record's
 * shape), `commitment`, `entropy`, `players`, `seed`, `log`, `result.<field>`, `gameId`.
 */
export type VerifyResult = { ok: true } | { ok: false; mismatch: string; detail: string };

/** More actions than any game can have (64 cards, each passed at most 2 × 6 times): a bound on work, not a rule. */
const MAX_LOG = 5000;
const MAX_TEXT = 200;

/** The ids the server issues (session ids, `bot_…`); nothing that names an object's built-in key. */
const isPlayerId = (v: unknown): v is string => isOpaqueId(v) && v !== '__proto__';

const fail = (mismatch: string, detail: string): VerifyResult => ({ ok: false, mismatch, detail });

/**
 * Checks a game record (untrusted JSON) as anyone can, with nothing but the record: the revealed
 * server seed matches the commitment published before the game; the seed derived from it and
 * the players' entropy seats the players as recorded; replaying the log with the rules accepts
 * every action (default actions re-drawn from the seed) and gives exactly the recorded result;
 * and the record hashes to its own id, so no entry changed since the id was handed out. Pure: the SDK exports it as `verifyGame`.
 */
export function verifyRecord(input: unknown): VerifyResult {
  const shape = checkShape(input);
  if (shape) return fail('record', shape);
  const record = input as FinishedGameRecord;
  const { fairness } = record;
  const ids = record.players.map((p) => p.id);

  if (sha256Hex(fairness.serverSeed) !== fairness.commitment) {
    return fail('commitment', 'the SHA-256 of serverSeed is not the commitment');
  }

  const entropyIds = Object.keys(fairness.entropy);
  if (entropyIds.length !== ids.length || !ids.every((id) => Object.prototype.hasOwnProperty.call(fairness.entropy, id))) {
    return fail('entropy', 'entropy must have one entry for each player, and no other');
  }
  for (const id of ids) {
    const value = fairness.entropy[id];
    if (value !== '' && !isEntropy(value)) return fail('entropy', `the entropy of player ${id} is not "" or 16-64 hex characters`);
  }

  if (canonicalPlayers(ids).join('\n') !== ids.join('\n')) {
    return fail('players', 'players must be listed sorted by id, the order the game is started with');
  }

  const seed = deriveSeed(fairness.serverSeed, fairness.entropy);
  const setup = setupGame(seed, ids, record.options);
  if (!setup.ok) return fail('seed', `the rules refuse to set up this game (${setup.error.code})`);
  for (const p of record.players) {
    if (setup.game.order[p.seat] !== p.id) return fail('seed', `the derived seed does not seat player ${p.id} at seat ${p.seat}`);
  }

  const log = record.log.map(normalEntry);
  let game;
  try {
    game = replayGame({ seed, options: record.options, players: ids, log });
  } catch (error) {
    return fail('log', (error as Error).message);
  }
  if (game.phase !== 'ended') return fail('log', 'the log stops before the game ends');

  const nicknames: Record<PlayerId, string> = {};
  for (const p of record.players) nicknames[p.id] = p.nickname;
  const expected = fullResult(game, log, nicknames, record.gameId)!;
  const stored = record.result as unknown as Record<string, unknown>;
  for (const key of Object.keys(expected) as (keyof typeof expected)[]) {
    const want = canonicalJson(expected[key]);
    if (want !== canonicalJson(stored[key])) return fail(`result.${key}`, `the replay gives ${clip(want)}`);
  }
  for (const key of Object.keys(stored)) {
    if (!(key in expected)) return fail(`result.${key}`, 'the replay gives no such field');
  }

  if (recordId(record) !== record.gameId) {
    return fail('gameId', 'the record is not the one its id names: something in it changed after the game');
  }
  return { ok: true };
}

/** A log entry with only its known fields, in one key order (the replay compares default actions as JSON). */
function normalEntry(entry: LogEntry): LogEntry {
  const action = copyAction(entry.action);
  return entry.auto ? { player: entry.player, action, auto: true } : { player: entry.player, action };
}

function clip(text: string): string {
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const isText = (v: unknown, max = MAX_TEXT): v is string => typeof v === 'string' && v.length <= max;

/** Why `input` is not shaped like a record, or null. Only shapes: the checks above judge values. */
function checkShape(input: unknown): string | null {
  if (!isObject(input)) return 'not a JSON object';
  for (const key of ['gameId', 'startedAt', 'endedAt']) {
    if (!isText(input[key])) return `${key} must be a string`;
  }
  // Records made before PROTOCOL v3 name their room; their gameId hashes it.
  if (input.roomId !== undefined && !isText(input.roomId)) return 'roomId, when present, must be a string';
  const options = validateOptions(input.options);
  if (input.options === undefined || !options.ok) return 'options are not valid game options';
  const players = input.players;
  if (!Array.isArray(players) || players.length < MIN_PLAYERS || players.length > MAX_PLAYERS)
    return `players must list ${MIN_PLAYERS} to ${MAX_PLAYERS} players`;
  const seen = new Set<string>();
  for (const p of players) {
    if (!isObject(p) || !isPlayerId(p.id) || !isText(p.nickname) || typeof p.bot !== 'boolean')
      return 'each player needs an id (letters, digits, _ or -), a nickname and bot';
    if (!Number.isInteger(p.seat) || (p.seat as number) < 0 || (p.seat as number) >= players.length)
      return `player ${p.id} has no valid seat`;
    if (seen.has(p.id)) return `player ${p.id} is listed twice`;
    seen.add(p.id);
  }
  const f = input.fairness;
  if (!isObject(f) || !isText(f.commitment) || !isText(f.serverSeed) || !isObject(f.entropy))
    return 'fairness needs commitment, entropy and serverSeed';
  if (f.serverSeed === '') return 'serverSeed is not revealed';
  for (const value of Object.values(f.entropy)) if (!isText(value)) return 'each entropy must be a string';
  if (!Array.isArray(input.log) || input.log.length > MAX_LOG) return `log must be a list of at most ${MAX_LOG} entries`;
  for (let i = 0; i < input.log.length; i++) {
    const entry = input.log[i];
    if (!isObject(entry) || !seen.has(entry.player as string) || !isAction(entry.action)) return `log entry ${i} is not a player's action`;
    if (entry.auto !== undefined && entry.auto !== true) return `log entry ${i}: auto must be true or absent`;
  }
  if (!isObject(input.result)) return 'result must be an object';
  return null;
}

function isAction(value: unknown): value is Action {
  if (!isObject(value)) return false;
  switch (value.type) {
    case 'offer':
      return Number.isInteger(value.cardId) && isText(value.to) && isText(value.claim);
    case 'pass':
      return isText(value.to) && isText(value.claim);
    case 'call':
      return isText(value.call);
    case 'peek':
      return true;
    default:
      return false;
  }
}
