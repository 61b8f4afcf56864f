/** A bench's named option: `--name value`, or `fallback` when the command line does not give it. */
export function opt(name: string, fallback: string): string {
  const argv = process.argv.slice(2);
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : fallback;
}
