import type { ActionName, GameSnapshot, Kind } from '../../client-sdk/index';
import { claimLine } from './words';

/**
 * What the turn clock played for me (the SDK's `movePlayedForMe` with reason `clock`; rules 8.5:
 * a random card to the next seat, a random call, a pass of the true kind), in a sentence a child
 * reads. The snapshot already shows the move (the server's events follow the patch they describe).
 */
export function clockPlayed(move: ActionName, snap: GameSnapshot, names: Record<Kind, string>): string {
  const name = (id: string | null) => snap.seats.find((x) => x.id === id)?.nickname ?? '';
  const lead = '⏰ 시간이 다 돼서';
  const r = snap.round;
  if (move === 'offer' && r.hasCard && r.lastPasser === snap.me && r.claim) {
    return `${lead} 자동으로 ${name(r.holder)}님에게 "${claimLine(r.claim, names)}" 하고 건넸어요.`;
  }
  if (move === 'pass' && r.hasCard && r.lastPasser === snap.me) return `${lead} 자동으로 ${name(r.holder)}님에게 넘겼어요.`;
  if (move === 'call' && snap.lastReveal?.caller === snap.me) {
    return `${lead} 자동으로 "${snap.lastReveal.call === 'true' ? '진짜!' : '거짓말!'}"를 골랐어요.`;
  }
  return `${lead} 내 차례를 자동으로 했어요.`;
}
