/**
 * Cockroach Poker client SDK: typed access to the `cockroach-poker` room for the app.
 * Runs on React Native and browsers (colyseus.js 0.15 + @colyseus/schema 2.0 only).
 */
export { CockroachClient, ROOM_NAME } from './client';
export type { ClientOptions, CreateOptions, RoomListing } from './client';
export { GameSession } from './session';
export type { SessionEvents, BotLevel } from './session';
export type {
  GameSnapshot,
  LobbySnapshot,
  PlayingSnapshot,
  EndedSnapshot,
  SeatSnapshot,
  HandGroup,
  RoundSnapshot,
  RoundWithoutCard,
  RoundCardSeen,
  RoundCardUnseen,
  ClaimSnapshot,
  RevealSnapshot,
  Phase,
  DeepReadonly,
} from './snapshot';
export { offerTargets, othersAround, passOptions, peekAvailability, whatCanDo } from './helpers';
export type { ActionName, Reason, TargetOption } from './helpers';
export { SdkError } from './errors';
export type { SdkErrorCode } from './errors';
export { MemoryTokenStore } from './tokenStore';
export type { TokenStore, SavedSeat } from './tokenStore';
export { CockroachState } from '../server/schema/CockroachState';
export { KINDS, KIND_NAMES_KO } from '../server/rules/kinds';
export { claimLine, hasFinalConsonant, withParticle } from './korean';
export type { Particle } from './korean';
export type { Kind } from '../server/rules/kinds';
export type { DangerLevel } from '../server/rules/danger';
export type { CockroachResult, GameStats, PlayerStats } from '../server/rules/result';
/** Checks a finished game's record (GET /api/games/:gameId) with nothing but the record: commitment, seed, replay, result. */
export { verifyRecord as verifyGame } from '../server/fairness/verify';
export type { VerifyResult } from '../server/fairness/verify';
export type { FinishedGameRecord } from '../server/fairness/record';
export { CHAT_PHRASES } from '../server/protocol';
export type { ChatPhrase } from '../server/protocol';
