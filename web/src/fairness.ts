import { CockroachClient, CockroachResult, DeepReadonly, SdkError, verifyGame } from '../../client-sdk/index';

export type FairVerdict = { ok: true } | { ok: false; why: string };

/**
 * The fairness check of a finished game, done on this phone: fetch the game's record from the
 * server (the SDK's `fetchRecord`, GET /api/games/:gameId) and check it with `verifyGame`
 * (commitment, seed, replay of every move), then check that it is the game this page watched end.
 */
export async function checkFairness(client: CockroachClient, result: DeepReadonly<CockroachResult>): Promise<FairVerdict> {
  let record;
  try {
    record = await client.fetchRecord(result.gameId);
  } catch (e) {
    // The SDK's refusals carry a short Korean sentence.
    return { ok: false, why: e instanceof SdkError ? e.message : '기록을 받아오지 못했어요.' };
  }
  const v = verifyGame(record);
  if (!v.ok) return { ok: false, why: `기록이 맞지 않아요 (${v.mismatch}).` };
  if (record.result?.loser !== result.loser || record.result?.summary !== result.summary)
    return { ok: false, why: '기록이 내가 본 게임과 달라요.' };
  return { ok: true };
}
