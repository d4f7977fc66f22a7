import { DECK_SIZE, isKind, Action } from '../rules/index';
import { BotLevel, CHAT_PHRASES, ChatPhrase, DEFAULT_BOT_LEVEL, isBotLevel } from '../protocol';

export { CHAT_PHRASES } from '../protocol';
export type { ChatPhrase } from '../protocol';

const MAX_ID_LENGTH = 64;

/** A payload after shape checks; `step`, if the client sent it, is the turn it meant to act on. */
export type Parsed<T> = { ok: true; value: T; step?: number } | { ok: false };

/**
 * Exact shape: a plain object (or nothing, for messages without fields) holding the required
 * keys, optionally `step`, and no other key. Values are checked by `fields`.
 */
function parseShape<T>(raw: unknown, fields: Record<string, (v: unknown) => boolean>, build: (r: Record<string, unknown>) => T): Parsed<T> {
  const record = raw === undefined || raw === null ? {} : raw;
  if (typeof record !== 'object' || Array.isArray(record) || record instanceof Uint8Array) return { ok: false };
  const proto = Object.getPrototypeOf(record);
  if (proto !== Object.prototype && proto !== null) return { ok: false };
  const r = record as Record<string, unknown>;
  const keys = Object.keys(r);
  let expected = 0;
  for (const key of keys) {
    if (key === 'step') continue;
    const check = Object.prototype.hasOwnProperty.call(fields, key) ? fields[key] : undefined;
    if (!check || !check(r[key])) return { ok: false };
    expected++;
  }
  if (expected !== Object.keys(fields).length) return { ok: false };
  if ('step' in r && !isStep(r.step)) return { ok: false };
  return 'step' in r ? { ok: true, value: build(r), step: r.step as number } : { ok: true, value: build(r) };
}

const isStep = (v: unknown) => Number.isSafeInteger(v) && (v as number) >= 0;
const isCardId = (v: unknown) => Number.isInteger(v) && (v as number) >= 0 && (v as number) < DECK_SIZE;
const isPlayerId = (v: unknown) => typeof v === 'string' && v.length > 0 && v.length <= MAX_ID_LENGTH;
const isCall = (v: unknown) => v === 'true' || v === 'false';
const isPhrase = (v: unknown) => typeof v === 'string' && Object.prototype.hasOwnProperty.call(CHAT_PHRASES, v);

/** `start`, `rematch`: no fields. */
export const parseEmpty = (raw: unknown) => parseShape(raw, {}, () => ({}));

export { BOT_LEVELS } from '../protocol';
export type { BotLevel } from '../protocol';

/** `addBot` { level? }: `gentle` (DEFAULT_BOT_LEVEL) when not given. */
export const parseAddBot = (raw: unknown): Parsed<{ level: BotLevel }> => {
  const withLevel = parseShape(raw, { level: isBotLevel }, (r) => ({ level: r.level as BotLevel }));
  if (withLevel.ok) return withLevel;
  const without = parseShape(raw, {}, () => ({ level: DEFAULT_BOT_LEVEL }));
  return without.ok && without.step === undefined ? without : { ok: false };
};

export const parseRemoveBot = (raw: unknown): Parsed<{ id: string }> =>
  parseShape(raw, { id: isPlayerId }, (r) => ({ id: r.id as string }));

/** `kick` { id }: the same shape as `removeBot`. */
export const parseKick = parseRemoveBot;

/**
 * `ping` {} or { t }: `t` (a finite number the client chose, e.g. its clock) is echoed in `pong`.
 * colyseus.js sends integers past 2^32 as 64-bit, which arrive as a BigInt: taken back to a
 * number when it is a safe integer.
 */
const asStamp = (v: unknown): number | null =>
  typeof v === 'number' && Number.isFinite(v)
    ? v
    : typeof v === 'bigint' && v <= BigInt(Number.MAX_SAFE_INTEGER) && v >= -BigInt(Number.MAX_SAFE_INTEGER)
      ? Number(v)
      : null;
export const parsePing = (raw: unknown): Parsed<{ t?: number }> => {
  const timed = parseShape(raw, { t: (v) => asStamp(v) !== null }, (r) => ({ t: asStamp(r.t)! }));
  return timed.ok ? timed : parseShape(raw, {}, () => ({}));
};

export const parseOffer = (raw: unknown): Parsed<Action> =>
  parseShape(raw, { cardId: isCardId, to: isPlayerId, claim: isKind }, (r) => ({
    type: 'offer' as const,
    cardId: r.cardId as number,
    to: r.to as string,
    claim: r.claim as Extract<Action, { type: 'offer' }>['claim'],
  }));

export const parseCall = (raw: unknown): Parsed<Action> =>
  parseShape(raw, { call: isCall }, (r) => ({ type: 'call' as const, call: r.call as 'true' | 'false' }));

export const parsePeek = (raw: unknown): Parsed<Action> => parseShape(raw, {}, () => ({ type: 'peek' as const }));

export const parsePass = (raw: unknown): Parsed<Action> =>
  parseShape(raw, { to: isPlayerId, claim: isKind }, (r) => ({
    type: 'pass' as const,
    to: r.to as string,
    claim: r.claim as Extract<Action, { type: 'pass' }>['claim'],
  }));

export const parseChat = (raw: unknown): Parsed<{ phrase: ChatPhrase }> =>
  parseShape(raw, { phrase: isPhrase }, (r) => ({ phrase: r.phrase as ChatPhrase }));
