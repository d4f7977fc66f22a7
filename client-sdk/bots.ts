import { KINDS, Kind } from '../server/rules/kinds';
import { pick, randInt, RngState } from '../server/rules/rng';
import { offerTargets, passOptions, peekAvailability } from './helpers';
import type { GameSession } from './session';

/**
 * A bot that plays a random legal move whenever it is its turn, deciding only from the SDK's
 * snapshot and helpers (what a real app screen has). Used by the example and the SDK tests.
 * `thinkMs` waits before each move. Returns a function that stops it.
 */
export function playRandomly(
  session: GameSession,
  rng: RngState,
  onError: (e: unknown) => void = () => undefined,
  thinkMs = 0,
): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const act = () => {
    const s = session.snapshot;
    if (!s.myTurn) return;
    const claim: Kind = pick(rng, KINDS);
    let move: Promise<void>;
    if (s.canDo.includes('offer')) {
      const card = pick(rng, s.myHand).cardIds[0];
      const to = pick(
        rng,
        offerTargets(s).filter((t) => t.allowed),
      ).id;
      move = session.offer(card, to, claim);
    } else if (s.canDo.includes('pass')) {
      move = session.pass(
        pick(
          rng,
          passOptions(s).filter((t) => t.allowed),
        ).id,
        claim,
      );
    } else if (peekAvailability(s).allowed && randInt(rng, 3) === 0) {
      move = session.peek();
    } else {
      move = session.call(randInt(rng, 2) === 0);
    }
    move.catch(onError);
  };
  // A thinking pause keeps a bot within the server's per-client message rate, like a person.
  const off = session.on('myTurn', () => {
    if (thinkMs === 0) return act();
    clearTimeout(timer);
    timer = setTimeout(act, thinkMs);
  });
  return () => {
    clearTimeout(timer);
    off();
  };
}
