import { readFileSync } from 'node:fs';

/** The tool name every results file carries in `tool`. */
export const TOOL_NAME = 'jsonbench';

/** jsonbench's own version, from its package.json (recorded with every run as `environment.jsonbenchVersion`). */
export function toolVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}
