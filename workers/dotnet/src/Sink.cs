namespace JsonBench.Worker;

/// <summary>
/// The dead-code-elimination guard, as src/measure/sink.ts: every op writes its result into one
/// static slot (emptied right before each call, so the previous result is garbage while the next
/// one is built), and the slot is folded into a checksum after each sample, outside the timed
/// loop; the worker reports the checksum in <c>done</c>. Ops alternate between two distinct but
/// equal copies of their input by iteration parity. The JIT cannot drop a call into
/// System.Text.Json or Newtonsoft (they have side effects it cannot see through), and the static
/// store keeps the result observable even if it could.
/// </summary>
public static class Sink
{
    public static object? Slot;
    static long _checksum;

    /// <summary>Folds the slot into the checksum (string length, else 1 for null, 2 for an object) and empties it.</summary>
    public static void Drain()
    {
        var v = Slot;
        _checksum = (_checksum + (v is string s ? s.Length : v is null ? 1 : 2)) % 1_000_000_007L;
        Slot = null;
    }

    public static long Checksum => _checksum;
}
