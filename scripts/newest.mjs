// When a source tree last changed: the newest modification time of a file or folder below `path`.
// The build scripts compare it with their output's to rebuild only what is stale.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export function newest(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newest(join(path, name))));
}
