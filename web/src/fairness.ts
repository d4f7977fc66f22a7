import { CockroachResult, verifyGame } from '../../client-sdk/index';

export type FairVerdict = { ok: true } | { ok: false; why: string };

/**
 * The fairness check of a finished game, done on this phone: fetch the game's record from the
 * server (GET /api/games/:gameId) and check it with the SDK's `verifyGame` (commitment, seed,
 * replay of every move), then check that it is the game this page watched end.
 */
export async function checkFairness(result: CockroachResult): Promise<FairVerdict> {
  let record: unknown;
  try {
    const res = await fetch(`/api/games/${encodeURIComponent(result.gameId)}`, { headers: { accept: 'application/json' } });
    if (!res.ok) {
      // The server's refusals carry a short Korean sentence ({ code, message }).
      const body = (await res.json().catch(() => null)) as { message?: unknown } | null;
      return { ok: false, why: typeof body?.message === 'string' ? body.message : '기록을 받아오지 못했어요.' };
    }
    record = await res.json();
  } catch {
    return { ok: false, why: '기록을 받아오지 못했어요.' };
  }
  const v = verifyGame(record);
  if (!v.ok) return { ok: false, why: `기록이 맞지 않아요 (${v.mismatch}).` };
  const recorded = (record as { result?: Partial<CockroachResult> }).result;
  if (recorded?.loser !== result.loser || recorded?.summary !== result.summary) return { ok: false, why: '기록이 내가 본 게임과 달라요.' };
  return { ok: true };
}
