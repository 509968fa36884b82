// Minimal typings for the part of json-source-map (https://github.com/epoberezkin/json-source-map) this lab uses.
declare module 'json-source-map' {
  /** A place in the text: 0-based line and column (a tab counts 4 columns), and the character offset. */
  export interface Location { line: number; column: number; pos: number }
  const jsonSourceMap: {
    /** Parses JSON text; `pointers` maps each value's JSON pointer (RFC 6901) to where it starts and ends. @throws SyntaxError on invalid JSON */
    parse(text: string): { data: unknown; pointers: Record<string, { value: Location; valueEnd: Location; key?: Location; keyEnd?: Location }> };
  };
  export default jsonSourceMap;
}
