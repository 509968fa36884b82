/** A bad command line: printed with the usage and exit code 2. `flag` names the culprit. */
export class UsageError extends Error {
  readonly code = 'E_USAGE';
  override readonly name = 'UsageError';
  constructor(
    readonly flag: string,
    message: string,
  ) {
    super(`${flag}: ${message}`);
  }
}

/** Splits comma-separated and repeated values: ["a,b", "c"] → ["a", "b", "c"]. */
export function splitList(values: string[] | string | undefined): string[] {
  if (values === undefined) return [];
  return (Array.isArray(values) ? values : [values])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
}

/**
 * A flag given with an empty value (`--ledger ""`, `--target ""`: an unset variable in CI) that would
 * otherwise be taken as not given, or as the working directory. `given` is the flag's raw value(s),
 * undefined when it was not given; `what` says what to give instead. @throws UsageError
 */
export function checkNotBlank(
  flag: string,
  given: string | readonly string[] | boolean | undefined,
  what: string,
): void {
  if (given === undefined || typeof given === 'boolean') return;
  const values = typeof given === 'string' ? [given] : given;
  if (values.every((v) => !v.trim() || !v.split(',').some((x) => x.trim())))
    throw new UsageError(flag, `is empty: ${what}`);
}

/**
 * A list flag that was given must name at least one choice: `--fail-on ""` (an unset variable in CI)
 * would otherwise switch the gate off without a word. `given` is the flag's raw value(s), undefined
 * when the flag was not given. @throws UsageError
 */
export function checkNotEmpty(
  flag: string,
  given: string | readonly string[] | undefined,
  values: readonly string[],
  known: readonly string[],
): void {
  if (given !== undefined && !values.length)
    throw new UsageError(flag, `give at least one of ${known.join(', ')} (it was empty)`);
}

/** Checks every value is one of `known`; @throws UsageError naming the flag, the bad values and the choices. */
export function checkChoices(flag: string, values: string[], known: readonly string[]): void {
  const bad = values.filter((v) => !known.includes(v));
  if (bad.length)
    throw new UsageError(flag, `unknown ${bad.map((b) => `"${b}"`).join(', ')} (choose from: ${known.join(', ')})`);
}
