using System;
using System.IO;
using System.Runtime.InteropServices;
using System.Security.Cryptography;
using System.Text;
using System.Text.Json;

namespace JsonBench.Worker;

/// <summary>
/// The worker → host channel of protocol version <see cref="Version"/> (src/worker/protocol.ts):
/// one JSON object per line on file descriptor 3, each carrying <c>protocol</c> and <c>type</c>.
///
/// Protocol 2 signs every line (sealLine in protocol.ts): the message gets <c>"seq":N</c> (0, 1, 2,
/// … per launch) as its last field, and the line ends with <c>"mac"</c>, the lowercase-hex
/// HMAC-SHA256 of the UTF-8 bytes of <c>{…,"seq":N}</c> under the per-launch key of the start
/// message (System.Security.Cryptography.HMACSHA256: in mscorlib on .NET Framework, so on Mono
/// too). Until the key is known (<see cref="UseKey"/>) lines go unsigned: the host rejects them,
/// so an error before the start message is read is also written to stderr, which the host keeps.
///
/// The fd is written with libc's <c>write(2)</c> through P/Invoke, the same call on .NET and on
/// Mono. .NET could also wrap fd 3 in <c>new FileStream(new SafeFileHandle(3, false), ...)</c>,
/// but Mono's FileStream rejects a raw fd ("Invalid handle to path [Unknown]": its handles are
/// not fds), so one code path serves both. Nothing else is ever written to fd 3; what the
/// libraries print goes to stdout/stderr, which the host keeps only as tails for crash reports.
/// </summary>
public sealed unsafe class Channel
{
    public const int Version = 2;
    const int ChannelFd = 3;
    const int EINTR = 4;

    [DllImport("libc", SetLastError = true)]
    static extern nint write(int fd, byte* buf, nint count);

    readonly MemoryStream _buffer = new MemoryStream(64 * 1024);
    HMACSHA256? _mac;
    long _seq;

    /// <summary>
    /// Signs every later line with <paramref name="keyHex"/> (hex, from the start message).
    /// Throws FormatException when it is not an even-length hex string.
    /// </summary>
    public void UseKey(string keyHex)
    {
        if (keyHex.Length == 0 || keyHex.Length % 2 != 0) throw new FormatException("start message: key must be a non-empty hex string of even length");
        var key = new byte[keyHex.Length / 2];
        for (int i = 0; i < key.Length; i++) key[i] = (byte)(Nibble(keyHex[2 * i]) << 4 | Nibble(keyHex[2 * i + 1]));
        _mac = new HMACSHA256(key);
    }

    static int Nibble(char c) => c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10
        : throw new FormatException("start message: key must be hex");

    /// <summary>Lowercase hex of <paramref name="bytes"/>.</summary>
    public static string Hex(byte[] bytes)
    {
        var sb = new StringBuilder(bytes.Length * 2);
        foreach (var b in bytes) sb.Append(b.ToString("x2"));
        return sb.ToString();
    }

    /// <summary>
    /// Writes one message: <paramref name="type"/> plus the fields <paramref name="body"/> writes.
    /// Throws IOException when fd 3 is not open or the host closed it.
    /// </summary>
    public void Send(string type, Action<Utf8JsonWriter>? body = null)
    {
        _buffer.SetLength(0);
        using (var w = new Utf8JsonWriter(_buffer))
        {
            w.WriteStartObject();
            w.WriteNumber("protocol", Version);
            w.WriteString("type", type);
            body?.Invoke(w);
            if (_mac != null) w.WriteNumber("seq", _seq++);
            w.WriteEndObject();
        }
        if (_mac != null)
        {
            // the MAC covers {…,"seq":N}; the line is {…,"seq":N,"mac":"<hex>"}
            var mac = Hex(_mac.ComputeHash(_buffer.GetBuffer(), 0, (int)_buffer.Length));
            _buffer.SetLength(_buffer.Length - 1);
            var tail = Encoding.ASCII.GetBytes(",\"mac\":\"" + mac + "\"}");
            _buffer.Write(tail, 0, tail.Length);
        }
        _buffer.WriteByte((byte)'\n');
        WriteAll(_buffer.GetBuffer(), (int)_buffer.Length);
    }

    static void WriteAll(byte[] bytes, int length)
    {
        fixed (byte* start = bytes)
        {
            int offset = 0;
            while (offset < length)
            {
                nint n = write(ChannelFd, start + offset, length - offset);
                if (n < 0)
                {
                    int errno = Marshal.GetLastWin32Error();
                    if (errno == EINTR) continue;
                    throw new IOException($"cannot write to the protocol channel (fd {ChannelFd}): errno {errno}; the worker must be started by jsonbench with a 4th pipe");
                }
                offset += (int)n;
            }
        }
    }
}
