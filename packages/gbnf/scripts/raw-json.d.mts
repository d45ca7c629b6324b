/** A number as written in the source. */
export declare class RawNumber {
  constructor(text: string);
  readonly text: string;
}
/** An object's members, in source order. */
export declare class RawObject {
  readonly entries: [string, RawJson][];
  get(key: string): RawJson | undefined;
}
/** A parsed JSON value with its numbers' spellings and its members' order. */
export type RawJson = null | boolean | string | RawNumber | RawObject | RawJson[];
/** Parses JSON text (assumed valid), keeping number spellings and member order. */
export declare function parseRawJson(text: string): RawJson;
/** Writes a raw value (indented by `step` per level); numbers canonical when `canonical`. */
export declare function writeRawJson(v: RawJson, indent?: string, step?: string, canonical?: boolean): string;
