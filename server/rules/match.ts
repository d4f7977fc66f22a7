import { applyAction, ApplyResult } from './apply';
import { RuleError } from './errors';
import type { GameOptions } from './options';
import type { GameRecord } from './replay';
import { isRngState } from './rng';
import { KINDS, Kind } from './kinds';
import { setupGame } from './setup';
import { applyTimeout } from './timeout';
import type { Action, Game, PlayerId } from './types';

/**
 * A game together with everything needed to replay it: seed, options, players and the log of
 * applied actions. The one object a room keeps; it serialises to JSON and back.
 */
export class Match {
  private constructor(
    readonly record: GameRecord,
    readonly game: Game,
  ) {}

  static start(
    seed: string,
    players: readonly PlayerId[],
    options: GameOptions,
  ): { ok: true; match: Match } | { ok: false; error: RuleError } {
    const setup = setupGame(seed, players, options);
    if (!setup.ok) return setup;
    return { ok: true, match: new Match({ seed, options: { ...options }, players: [...players], log: [] }, setup.game) };
  }

  /** Applies a player's action; only applied actions are logged. */
  act(player: PlayerId, action: Action): ApplyResult {
    const result = applyAction(this.game, player, action);
    if (result.ok) this.record.log.push({ player, action: copyAction(action, this.game.order) });
    return result;
  }

  /** Plays the default action for whoever must act (timeout, away player). */
  actByDefault() {
    const result = applyTimeout(this.game);
    if (result) this.record.log.push({ player: result.player, action: copyAction(result.action, this.game.order), auto: true });
    return result;
  }

  toJSON(): { record: GameRecord; game: Game } {
    return { record: this.record, game: this.game };
  }

  static fromJSON(json: string | { record: GameRecord; game: Game }): Match {
    const data = typeof json === 'string' ? JSON.parse(json) : structuredClone(json);
    if (!data?.game || data.game.v !== 1 || !isRngState(data.game.rng) || !Array.isArray(data.record?.log)) {
      throw new Error('Match.fromJSON: not a saved match');
    }
    return new Match(data.record, data.game);
  }
}

/**
 * Keeps only the fields of the action's type, so a log never carries stray payload keys. Given
 * the game's players, the copy holds the game's own strings for a player and a kind, not the
 * decoded message's: a room keeps the log for the whole game, and every entry would otherwise
 * hold two strings of its own.
 */
export function copyAction(action: Action, players: readonly PlayerId[] = []): Action {
  switch (action.type) {
    case 'offer':
      return { type: 'offer', cardId: action.cardId, to: ownId(players, action.to), claim: ownKind(action.claim) };
    case 'pass':
      return { type: 'pass', to: ownId(players, action.to), claim: ownKind(action.claim) };
    case 'call':
      return { type: 'call', call: action.call };
    case 'peek':
      return { type: 'peek' };
  }
}

function ownId(players: readonly PlayerId[], id: PlayerId): PlayerId {
  for (const p of players) if (p === id) return p;
  return id;
}

function ownKind(kind: Kind): Kind {
  for (const k of KINDS) if (k === kind) return k;
  return kind;
}
