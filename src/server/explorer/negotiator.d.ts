// The part of `negotiator` (1.x, CommonJS, no types of its own) that compress.ts uses: @types/negotiator describes
// 0.6, without the `preferred` option that breaks a tie of weights in the server's order.
declare module 'negotiator' {
  class Negotiator {
    constructor(request: { headers: Readonly<Record<string, string | readonly string[] | undefined>> });
    /** The acceptable codings of `available`, best first (highest weight; on a tie, `preferred`'s order). */
    encodings(available?: readonly string[], options?: { preferred?: readonly string[] }): string[];
  }
  export = Negotiator;
}
