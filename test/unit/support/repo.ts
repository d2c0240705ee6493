// The repository's root, found from wherever a compiled test runs (out/test/unit/…), so no test
// counts `..` segments that break when it moves to another folder.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

function findRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).name === 'health-data-explorer') return dir;
    if (dirname(dir) === dir) throw new Error(`no health-data-explorer package.json above ${start}`);
  }
}

export const repoRoot = findRoot(__dirname);
