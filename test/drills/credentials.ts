import assert from 'node:assert/strict';

/**
 * No credential in any line a server process wrote (stdout's JSON lines and stderr alike):
 * every reconnection token the drill's players held and every identity token it sent.
 */
export function assertNoCredentials(lines: string[], secrets: string[]): void {
  assert.ok(lines.length > 0, 'the processes wrote log lines');
  assert.ok(secrets.length > 0);
  for (const secret of secrets) {
    assert.ok(secret.length >= 8, `a secret too short to search for: ${secret}`);
    const found = lines.find((line) => line.includes(secret));
    assert.equal(found, undefined, `a credential in the log: ${found}`);
  }
}
