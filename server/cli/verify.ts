/**
 * npm run verify -- FILE   (FILE: a game record as JSON, e.g. saved from GET /api/games/:gameId;
 * "-" reads standard input). Prints `ok` and exits 0 when the record checks out; otherwise
 * prints the first mismatch and exits 1. Exit 2: no file given or it cannot be read.
 */
import fs from 'node:fs';
import { verifyRecord } from '../fairness/verify';

const MAX_BYTES = 16 * 1024 * 1024;

function main(argv: string[]): number {
  const file = argv[0];
  if (argv.length !== 1 || file === '--help' || file === '-h') {
    process.stderr.write('usage: npm run verify -- FILE   (a game record as JSON; - for standard input)\n');
    return 2;
  }
  let text: string;
  try {
    const size = file === '-' ? 0 : fs.statSync(file).size;
    if (size > MAX_BYTES) throw new Error(`larger than ${MAX_BYTES} bytes`);
    text = fs.readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (error) {
    process.stderr.write(`cannot read ${file}: ${(error as Error).message}\n`);
    return 2;
  }
  let record: unknown;
  try {
    record = JSON.parse(text);
  } catch {
    process.stdout.write('mismatch: record: the file is not JSON\n');
    return 1;
  }
  const result = verifyRecord(record);
  if (result.ok) {
    process.stdout.write('ok\n');
    return 0;
  }
  process.stdout.write(`mismatch: ${result.mismatch}: ${result.detail}\n`);
  return 1;
}

process.exitCode = main(process.argv.slice(2));
