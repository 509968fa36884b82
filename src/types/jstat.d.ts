// Minimal typings for the parts of jStat (https://jstat.github.io) this lab uses.
declare module 'jstat' {
  export const jStat: {
    studentt: { inv(p: number, dof: number): number; cdf(x: number, dof: number): number };
    /** Snedecor's F distribution: `inv(p, df1, df2)`, its p-quantile */
    beta: {
      inv(p: number, alpha: number, beta: number): number;
    };
    centralF: {
      inv(p: number, df1: number, df2: number): number;
    };
    /** the χ² distribution: `inv(p, dof)`, its p-quantile */
    chisquare: { inv(p: number, dof: number): number };
    normal: { inv(p: number, mean: number, std: number): number; cdf(x: number, mean: number, std: number): number };
    /** median (sorts a copy) */
    median(xs: number[]): number;
  };
  export default jStat;
}
