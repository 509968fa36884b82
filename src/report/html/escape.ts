// escapeHtml is also shipped verbatim into the report's script (see client-bundle.ts): keep it a
// self-contained function declaration.

/**
 * Escapes text for HTML element content and quoted attribute values: `& < > " '` become entities,
 * so a name, version, payload text or error message from the data always stays text.
 */
export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' } as Record<string, string>)[ch]);
}

/**
 * Serializes a value as JSON safe to place inside `<script type="application/json">`: `<` is
 * written `\u003c` (so `</script>` in the data cannot close the element), and U+2028/U+2029 are
 * escaped. JSON.parse of the element's text gives the value back.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/** Makes script text safe inside `<script>…</script>`: any `</script` is broken as `<\/script`. */
export function scriptText(source: string): string {
  return source.replace(/<\/(script)/gi, '<\\/$1');
}
