// The end of a generator script: writes its file, or with --check says whether the file in the
// repo is what it makes today (exit code 1 when not).

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function writeOrCheck(relativePath: string, text: string, command: string): void {
  const path = join(__dirname, '..', '..', relativePath);
  if (process.argv.includes('--check')) {
    const same = readFileSync(path, 'utf8') === text;
    console.log(same ? `${relativePath} is up to date` : `${relativePath} is out of date: run ${command}`);
    process.exitCode = same ? 0 : 1;
  } else {
    writeFileSync(path, text);
    console.log(`wrote ${relativePath}`);
  }
}
