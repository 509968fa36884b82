import typia from 'typia';
export interface Placeholder { a: number }
export const stringifyPlaceholder = typia.json.createStringify<Placeholder>();
