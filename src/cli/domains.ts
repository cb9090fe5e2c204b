// Placeholder until the `domains` subcommand lands (see the open issues); replaced by its real module.
export async function run(_argv: string[]): Promise<number> {
  process.stderr.write('api-catalog domains: not built yet\n');
  return 1;
}
