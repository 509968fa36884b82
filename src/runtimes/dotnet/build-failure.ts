/**
 * What a failed `dotnet build`/`publish` of the worker says, in one line (issue 26: a row whose build failed put
 * the whole log, NU1101 lists and CS0246 paths, into the table's Notes cell). Pure: the log's lines in, the
 * summary out; src/runtimes/dotnet/build.ts throws it, reports show it, report.md adds the log's path and
 * {@link BuildFailure.firstError}.
 */

/** A failed build's log read: the one-line reason, the first error line (paths cut to file names), and whether NuGet lacked a package. */
export interface BuildFailure {
  /** one line: what failed, e.g. `the NuGet source lacks runtime.unix.System.Diagnostics.Debug (NU1101) and 11 more packages` */
  summary: string;
  /** the log's first error line, its absolute paths cut to file names and the trailing `[project]` dropped; absent when none */
  firstError?: string;
  /** NuGet could not find a package or version (NU1101, NU1102, NU1103): the registry copy lacks it */
  missingPackage: boolean;
}

/** An error's text without absolute paths (a file keeps its name and position) or the `[…csproj]` MSBuild appends. */
export function shortenErrorLine(line: string): string {
  return line
    .trim()
    .replace(/\s*\[[^\]]*\.csproj\]\s*$/, '')
    .replace(/(?:\/[^\s/():]+)+\/([^\s/():]+)/g, '$1');
}

const NUGET_MISSING =
  /error (NU110[123]): Unable to find package (.+?)(?:\. No packages| with version \(([^)]*)\)|\.?\s*$)/;
const GENERATOR_FAILED =
  /warning CS8785: Generator '([^']+)' failed to generate source\..*?Exception was of type '([^']+)' with message '([^']*)'/;
const COMPILER_ERROR = /error [A-Z]+\d+:/;

/**
 * Reads a failed build's log. Order: NuGet packages the source lacks (each named once, the first in the summary,
 * then how many more); a source generator that threw (CS8785: the compile errors after it are its consequence);
 * the first compiler or MSBuild error and how many more distinct ones; else the first line that says error.
 */
export function readBuildFailure(lines: readonly string[]): BuildFailure {
  const errorLines = lines.filter((l) => COMPILER_ERROR.test(l) || /CS8785/.test(l));
  const firstError = errorLines.length ? shortenErrorLine(errorLines[0]) : undefined;
  const missing = new Map<string, string>();
  for (const l of lines) {
    const m = NUGET_MISSING.exec(l);
    if (m && !missing.has(m[2])) missing.set(m[2], `${m[2]}${m[3] ? ` ${m[3]}` : ''} (${m[1]})`);
  }
  if (missing.size) {
    const [first] = missing.values();
    const more = missing.size - 1;
    return {
      summary: `the NuGet source lacks ${first}${more ? ` and ${more} more package${more === 1 ? '' : 's'}` : ''}`,
      ...(firstError ? { firstError } : {}),
      missingPackage: true,
    };
  }
  for (const l of lines) {
    const g = GENERATOR_FAILED.exec(l);
    if (g)
      return {
        summary: `the source generator ${g[1]} threw ${g[2]} ('${g[3]}', CS8785), so the generated contexts are missing: this System.Text.Json's generator cannot build the worker's DTOs`,
        firstError: shortenErrorLine(l),
        missingPackage: false,
      };
  }
  const distinct = [...new Set(lines.filter((l) => COMPILER_ERROR.test(l)).map(shortenErrorLine))];
  if (distinct.length) {
    const more = distinct.length - 1;
    const text = distinct[0].length > 200 ? `${distinct[0].slice(0, 199)}…` : distinct[0];
    return {
      summary: `${text}${more ? ` (and ${more} more error${more === 1 ? '' : 's'})` : ''}`,
      firstError: distinct[0],
      missingPackage: false,
    };
  }
  const other = lines.find((l) => /error|Unable|not found/i.test(l));
  return {
    summary: other ? shortenErrorLine(other).slice(0, 200) : 'no error line in the log',
    ...(other ? { firstError: shortenErrorLine(other) } : {}),
    missingPackage: false,
  };
}
