using System;
using System.IO;
using System.Runtime.InteropServices;
using System.Text.Json;

namespace JsonBench.Worker;

/// <summary>
/// The worker → host channel of protocol version <see cref="Version"/> (src/worker/protocol.ts):
/// one JSON object per line on file descriptor 3, each carrying <c>protocol</c> and <c>type</c>.
///
/// The fd is written with libc's <c>write(2)</c> through P/Invoke, the same call on .NET and on
/// Mono. .NET could also wrap fd 3 in <c>new FileStream(new SafeFileHandle(3, false), ...)</c>,
/// but Mono's FileStream rejects a raw fd ("Invalid handle to path [Unknown]": its handles are
/// not fds), so one code path serves both. Nothing else is ever written to fd 3; what the
/// libraries print goes to stdout/stderr, which the host keeps only as tails for crash reports.
/// </summary>
public sealed unsafe class Channel
{
    public const int Version = 1;
    const int ChannelFd = 3;
    const int EINTR = 4;

    [DllImport("libc", SetLastError = true)]
    static extern nint write(int fd, byte* buf, nint count);

    readonly MemoryStream _buffer = new MemoryStream(64 * 1024);

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
            w.WriteEndObject();
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
