import type { GameSnapshot, Kind } from '../../client-sdk/index';
import { claimLine } from './words';

/**
 * When the game moved on from my decision without this page sending a move, the turn clock
 * played it (rules 8.5: a random card to the next seat, a random call, a pass of the true kind).
 * Says what was done for me, in a sentence a child reads; null for anything else. An away
 * player's turns are played at once and the table already says so, so they are not told again.
 */
export function autoPlayed(before: GameSnapshot, after: GameSnapshot, movedAt: number, names: Record<Kind, string>): string | null {
  if (before.spectator || before.phase !== 'playing' || !before.myTurn) return null;
  if (after.step <= before.step || movedAt === before.step) return null;
  const me = before.me;
  if (before.seats.find((x) => x.isMe)?.away) return null;
  const name = (id: string | null) => after.seats.find((x) => x.id === id)?.nickname ?? '';
  const lead = '⏰ 시간이 다 돼서';
  const r = after.round;
  if (before.canDo.includes('offer') && r.hasCard && r.lastPasser === me && r.claim) {
    return `${lead} 자동으로 ${name(r.holder)}님에게 "${claimLine(names[r.claim])}" 하고 건넸어요.`;
  }
  if (before.canDo.includes('pass') && r.hasCard && r.lastPasser === me) {
    return `${lead} 자동으로 ${name(r.holder)}님에게 넘겼어요.`;
  }
  if (before.canDo.includes('call') && after.lastReveal?.caller === me) {
    return `${lead} 자동으로 "${after.lastReveal.call === 'true' ? '진짜!' : '거짓말!'}"를 골랐어요.`;
  }
  return `${lead} 내 차례를 자동으로 했어요.`;
}
