import { join } from 'node:path';

/**
 * The ledger's default place under the working directory. In a file of its own so the CLI's help
 * names it without loading the ledger (SQLite, the results schema).
 */
export const DEFAULT_LEDGER_PATH = join('.jsonbench', 'ledger.db');
