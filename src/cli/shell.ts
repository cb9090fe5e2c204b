// Command lines the CLI prints for people to paste: every word quoted so that bash, zsh and sh read it back
// exactly (an apostrophe in an example value must not end the quoting).

/** One shell word: as it is when it holds only characters no shell treats specially, else in single quotes. */
export function shellWord(s: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Words joined into one pasteable command line. */
export function shellLine(words: readonly string[]): string {
  return words.map(shellWord).join(' ');
}
