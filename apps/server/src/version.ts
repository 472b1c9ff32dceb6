import { readFileSync } from 'node:fs';
import { ROOT_PACKAGE } from './paths.ts';

const pkg = JSON.parse(readFileSync(ROOT_PACKAGE, 'utf8')) as {
  version: string;
};
export const version = pkg.version;
