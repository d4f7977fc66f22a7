import { MAX_GAMES_PER_ROOM, NICKNAME_MAX } from '../../server/protocol';
import { Action, DEFAULT_OPTIONS, GameOptions, PlayerId, randomLegalAction, RngState, activePlayer } from '../../server/rules';
import { Table, TableBot, TableChange, TableSettings } from '../../server/table/Table';

/**
 * The table alone, the way boardgame.io tests its Master with a fake transport: every change the
 * table hands the room is recorded, a bot's move goes straight back in as a move, and the clock
 * is the test's, moved by any amount, with ticks at moments of the test's choosing (time still
 * passes between ticks). No Colyseus, no sockets.
 */
export function tableHarness(over: Partial<Omit<TableSettings, 'options'>> & { options?: Partial<GameOptions> } = {}) {
  let now = 1_700_000_000_000;
  const changes: TableChange[] = [];
  const botMoves: { id: PlayerId; type: string; payload: Record<string, unknown>; at: number }[] = [];
  const { options, ...settings } = over;
  const table: Table = new Table(
    {
      botThinkMs: 800,
      reconnectGraceMs: 90_000,
      lobbyGraceMs: 20_000,
      maxGames: MAX_GAMES_PER_ROOM,
      nicknameMax: NICKNAME_MAX,
      ...settings,
      options: { ...DEFAULT_OPTIONS, turnSeconds: 15, ...options },
      now: () => now,
    },
    {
      changed: (change) => changes.push(change),
      botMove: (id, type, payload) => {
        botMoves.push({ id, type, payload, at: now });
        const { step, ...fields } = payload;
        table.move(id, { type, ...fields } as Action, step as number);
      },
    },
  );
  return {
    table,
    changes,
    botMoves,
    now: () => now,
    /** Time passes; nothing runs until the next tick. */
    elapse: (ms: number) => void (now += ms),
    tick: () => table.tick(),
    /** Lets `ms` pass, ticking once a second on the way and once at the end. */
    advance(ms: number) {
      let left = ms;
      while (left >= 1000) {
        now += 1000;
        left -= 1000;
        table.tick();
      }
      now += left;
      table.tick();
    },
    /** Seats players in join order (the first is host). */
    seat(...ids: PlayerId[]) {
      for (const id of ids) {
        const step = table.seat({ id, nickname: `n-${id}` });
        if (!step.outcome.ok) throw new Error(`seat ${id}: ${JSON.stringify(step.outcome)}`);
      }
    },
    /** Every event of every change so far, in order. */
    events: () => changes.flatMap((c) => c.events),
    game: () => table.match!.game,
  };
}

export type Harness = ReturnType<typeof tableHarness>;

/** A bot that always calls "true", or offers its first card to the next seat. */
export function simpleBot(thinkMs = 800): TableBot {
  return {
    thinkMs: () => thinkMs,
    decide: (view) => {
      const me = view.order.find((id) => view.players[id].hand !== undefined)!;
      if (!view.round.hasCard) {
        const to = view.order[(view.order.indexOf(me) + 1) % view.order.length];
        return { type: 'offer', cardId: Number(Object.keys(view.players[me].hand!)[0]), to, claim: 'bat' };
      }
      return { type: 'call', call: 'true' };
    },
  };
}

/** Plays the humans' moves at random through the table's inputs until the game ends (bots and the clock play theirs). */
export function playOut(h: Harness, rng: RngState, humans: readonly PlayerId[]): void {
  for (let guard = 0; h.table.state.lifecycle === 'playing'; guard++) {
    if (guard > 5000) throw new Error('the game must end');
    const game = h.game();
    const id = activePlayer(game)!;
    if (humans.includes(id) && !h.table.state.seats.get(id)!.away) {
      const step = h.table.move(id, randomLegalAction(game, id, rng)!, game.step);
      if (!step.outcome.ok) throw new Error(`move refused: ${JSON.stringify(step.outcome)}`);
    } else h.advance(1000);
  }
}
