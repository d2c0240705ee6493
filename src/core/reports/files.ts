// A file's place in a report: relative to the base folder (with `/`) when inside it, else absolute.

import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { ReportFile } from './model';

export function reportFileFor(fsPath: string, baseFolder: string, name = fsPath): ReportFile {
  const absolute = resolve(baseFolder, fsPath);
  const rel = relative(baseFolder, absolute);
  const inside = rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
  return { name, path: inside ? rel.split(sep).join('/') : absolute };
}
