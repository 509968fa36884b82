/**
 * The runtime profile a results file was measured with (case/profile.ts): its recorded
 * `policy.profile`, or `steady` for a file written before profiles existed (every run then used the
 * lab's GC settings: V8 `--single-threaded-gc`, the .NET gen0/region/LOH settings).
 */
export function profileOf(policy: { profile?: string }): string {
  return policy.profile ?? 'steady';
}
