// escapeHtml is also shipped verbatim into the report's script (see client-bundle.ts): keep it a
// self-contained function declaration.

/**
 * Escapes text for HTML element content and quoted attribute values: `& < > " '` become entities,
 * so a name, version, payload text or error message from the data always stays text; control
 * characters but tab and line breaks (ESC, the start of terminal escape sequences, other C0/C1
 * controls, DEL) are shown as their Unicode control pictures (ESC → ␛), as in Markdown and the terminal;
 * bidirectional formatting characters (U+202E…) as their escapes (`\u202E`), as case/bidi.ts masks them.
 */
export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(
    // eslint-disable-next-line no-control-regex
    /[&<>"'\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g,
    (ch) => {
      const code = ch.charCodeAt(0);
      // a line break as a character reference: the page reads the same, and no line of its source starts with a
      // value's text (hx20 a21/a22: "\n::error::forged" in a results file began lines of report.html and the site's
      // pages, a workflow command to a CI step that prints them)
      if (code === 0x0a || code === 0x0d) return `&#${code};`;
      if (code < 0x20) return String.fromCharCode(0x2400 + code);
      if (code === 0x7f) return '\u2421';
      // a bidirectional formatting character as its escape, as case/bidi.ts maskBidi writes it (this function is shipped alone)
      if (code >= 0x600) return '\\u' + ('000' + code.toString(16).toUpperCase()).slice(-4);
      if (code >= 0x80) return '\ufffd';
      return ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' } as Record<string, string>)[ch];
    },
  );
}

/**
 * Serializes a value as JSON safe to place inside `<script type="application/json">`: `<` is
 * written `\u003c` (so `</script>` in the data cannot close the element), and U+2028/U+2029 are
 * escaped, and so are DEL and the C1 controls (JSON.stringify escapes only C0): no raw control
 * character reaches the page. JSON.parse of the element's text gives the value back, but for its
 * bidirectional formatting characters (U+202E…), which come back as the six characters of their
 * escape (`\u202E`, case/bidi.ts): the page then shows them, in its tables and its charts alike.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(
      /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g,
      (ch) => `\\\\u${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`,
    )
    .replace(/</g, '\\u003c')
    .replace(/[\u007f-\u009f\u2028\u2029]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Makes script text safe inside `<script>…</script>`: any `</script` is broken as `<\/script`. */
export function scriptText(source: string): string {
  return source.replace(/<\/(script)/gi, '<\\/$1');
}
