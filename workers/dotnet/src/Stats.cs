using System;
using System.Collections.Generic;
using System.Linq;

namespace JsonBench.Worker;

/// <summary>
/// The stop rule's statistics, as src/stats/estimate.ts: the relative half-width of the Student-t
/// confidence interval of a mean (t · s / √n / mean). The t quantile is found by bisection on
/// the t distribution function, written with the regularized incomplete beta function
/// (I_x(a, b) by its continued fraction, modified Lentz; ln Γ by Lanczos, g = 7, n = 9): the
/// methods of Numerical Recipes, 3rd ed., §6.1 and §6.4. Checked against jStat's studentt.inv
/// in test/dotnet/worker.test.ts through the worker's `probe` output.
/// </summary>
public static class Stats
{
    static readonly Dictionary<(double, int), double> TCache = new Dictionary<(double, int), double>();

    /// <summary>Median of the values (the mean of the middle two for an even count); NaN when empty.</summary>
    public static double Median(IEnumerable<double> values)
    {
        var xs = values.OrderBy(x => x).ToArray();
        if (xs.Length == 0) return double.NaN;
        int m = xs.Length / 2;
        return xs.Length % 2 == 1 ? xs[m] : (xs[m - 1] + xs[m]) / 2;
    }

    /// <summary>
    /// Relative standard error of a median from its values' median absolute deviation:
    /// 1.4826 · MAD · 1.2533 / √n, divided by the median; infinity under 3 values or a median ≤ 0.
    /// A port of src/stats/estimate.ts medianRelativeError (the engine's stop rule, issue 13).
    /// </summary>
    public static double MedianRelativeError(IReadOnlyList<double> xs)
    {
        if (xs.Count < 3) return double.PositiveInfinity;
        double m = Median(xs);
        double mad = Median(xs.Select(x => Math.Abs(x - m)));
        return m > 0 ? 1.4826 * mad * 1.2533 / Math.Sqrt(xs.Count) / m : double.PositiveInfinity;
    }

    /// <summary>Relative error of the mean of <paramref name="xs"/> at <paramref name="confidence"/>; +∞ below 2 samples.</summary>
    public static double RelativeError(List<double> xs, double confidence)
    {
        int n = xs.Count;
        if (n < 2) return double.PositiveInfinity;
        double mean = 0;
        foreach (var x in xs) mean += x;
        mean /= n;
        double ss = 0;
        foreach (var x in xs) ss += (x - mean) * (x - mean);
        double sd = Math.Sqrt(ss / (n - 1));
        return TCritical(confidence, n - 1) * sd / Math.Sqrt(n) / Math.Abs(mean);
    }

    /// <summary>Two-sided critical value: t with P(|T| &lt; t) = confidence, for <paramref name="dof"/> degrees of freedom.</summary>
    public static double TCritical(double confidence, int dof)
    {
        if (dof < 1) return double.PositiveInfinity;
        if (TCache.TryGetValue((confidence, dof), out var cached)) return cached;
        double target = 1 - (1 - confidence) / 2;
        double lo = 0, hi = 1;
        while (TCdf(hi, dof) < target) hi *= 2;
        for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++)
        {
            double mid = (lo + hi) / 2;
            if (TCdf(mid, dof) < target) lo = mid; else hi = mid;
        }
        double t = (lo + hi) / 2;
        TCache[(confidence, dof)] = t;
        return t;
    }

    /// <summary>P(T ≤ t) for t ≥ 0: 1 − ½·I_{ν/(ν+t²)}(ν/2, ½).</summary>
    public static double TCdf(double t, int dof)
    {
        double x = dof / (dof + t * t);
        return 1 - 0.5 * IncompleteBeta(dof / 2.0, 0.5, x);
    }

    static double IncompleteBeta(double a, double b, double x)
    {
        if (x <= 0) return 0;
        if (x >= 1) return 1;
        double front = Math.Exp(LnGamma(a + b) - LnGamma(a) - LnGamma(b) + a * Math.Log(x) + b * Math.Log(1 - x));
        return x < (a + 1) / (a + b + 2)
            ? front * BetaFraction(a, b, x) / a
            : 1 - front * BetaFraction(b, a, 1 - x) / b;
    }

    static double BetaFraction(double a, double b, double x)
    {
        const double Tiny = 1e-300, Eps = 1e-15;
        double qab = a + b, qap = a + 1, qam = a - 1;
        double c = 1, d = 1 - qab * x / qap;
        if (Math.Abs(d) < Tiny) d = Tiny;
        d = 1 / d;
        double h = d;
        for (int m = 1; m <= 10000; m++)
        {
            int m2 = 2 * m;
            double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
            d = 1 + aa * d; if (Math.Abs(d) < Tiny) d = Tiny;
            c = 1 + aa / c; if (Math.Abs(c) < Tiny) c = Tiny;
            d = 1 / d; h *= d * c;
            aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
            d = 1 + aa * d; if (Math.Abs(d) < Tiny) d = Tiny;
            c = 1 + aa / c; if (Math.Abs(c) < Tiny) c = Tiny;
            d = 1 / d;
            double del = d * c;
            h *= del;
            if (Math.Abs(del - 1) < Eps) break;
        }
        return h;
    }

    static readonly double[] Lanczos =
    {
        0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
        -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
        1.5056327351493116e-7,
    };

    static double LnGamma(double z)
    {
        if (z < 0.5) return Math.Log(Math.PI / Math.Abs(Math.Sin(Math.PI * z))) - LnGamma(1 - z);
        z -= 1;
        double x = Lanczos[0];
        for (int i = 1; i < 9; i++) x += Lanczos[i] / (z + i);
        double t = z + 7.5;
        return 0.5 * Math.Log(2 * Math.PI) + (z + 0.5) * Math.Log(t) - t + Math.Log(x);
    }
}
