// Where the views and static files are. They stay in web/ (they are not TypeScript), and the code runs
// either from web/ (tests, tsx) or from dist/web/ (the built CLI): look beside the module first.

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export function assetDir(name: 'views' | 'public'): string {
  const beside = fileURLToPath(new URL(`./${name}`, import.meta.url));
  if (existsSync(beside)) return beside;
  return fileURLToPath(new URL(`../../web/${name}`, import.meta.url));
}
