/** A payload that cannot be read: names the file and, for bad JSON, the line and column (or the byte offset). */
export class PayloadError extends Error {
  readonly code = 'E_PAYLOAD';
}
