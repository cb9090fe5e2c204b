// o200k_base token counts for the explorer (the encoding docs/BENCHMARKS.md counts with). js-tiktoken and its
// 2 MB rank table load on the first count only, so neither the MCP path nor an unused page pays for them.
import type { Tiktoken } from 'js-tiktoken/lite';

let encoder: Promise<Tiktoken> | undefined;

async function load(): Promise<Tiktoken> {
  const { Tiktoken } = await import('js-tiktoken/lite');
  const { default: ranks } = await import('js-tiktoken/ranks/o200k_base');
  return new Tiktoken(ranks);
}

/** Number of o200k_base tokens in `text`. */
export async function countTokens(text: string): Promise<number> {
  encoder ??= load().catch((err: unknown) => {
    encoder = undefined;
    throw err;
  });
  return (await encoder).encode(text).length;
}

export const TOKENIZER_NAME = 'o200k_base';
