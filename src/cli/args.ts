import { parseArgs } from 'node:util';

/** Bad command line: the command prints the message and its usage, and exits with 2. */
export class UsageError extends Error {}

export interface OptionSpec {
  type: 'string' | 'boolean';
  /** One-line help; shown by `usage()`. */
  description: string;
  /** Placeholder in the usage text, e.g. 'URL'. */
  value?: string;
  required?: boolean;
  default?: string | boolean;
  short?: string;
}

export type OptionSpecs = Record<string, OptionSpec>;

type Values<S extends OptionSpecs> = { [K in keyof S]: S[K]['type'] extends 'boolean' ? boolean : S[K]['required'] extends true ? string : string | undefined };

export interface CommandLine<S extends OptionSpecs> {
  values: Values<S>;
  positionals: string[];
}

/**
 * Parses `--name value`, `--name=value` and flags against the specs (node:util parseArgs, strict),
 * checks required options and the number of positionals, and throws UsageError on any mistake.
 */
export function parseCommandLine<S extends OptionSpecs>(argv: string[], specs: S, positionals: { min: number; max: number } = { min: 0, max: 0 }): CommandLine<S> {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: positionals.max > 0,
      // parseArgs rejects keys present with an undefined value, so absent ones are left out.
      options: Object.fromEntries(
        Object.entries(specs).map(([name, { type, short, default: fallback }]) => [name, { type, ...(short ? { short } : {}), ...(fallback !== undefined ? { default: fallback } : {}) }]),
      ),
    });
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  for (const [name, spec] of Object.entries(specs)) {
    if (spec.type === 'boolean') values[name] = values[name] === true;
    else if (spec.required && (values[name] === undefined || values[name] === '')) throw new UsageError(`--${name} is required`);
  }
  const rest = parsed.positionals;
  if (rest.length < positionals.min) throw new UsageError(positionals.min === 1 ? 'a file argument is required' : `expected at least ${positionals.min} arguments`);
  if (rest.length > positionals.max) throw new UsageError(`unexpected argument: ${rest[positionals.max]}`);
  return { values: values as Values<S>, positionals: rest };
}

/** An integer option within [min, max]; `fallback` when absent. */
export function intOption(value: string | undefined, name: string, min: number, max: number, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < min || n > max) throw new UsageError(`--${name} must be an integer from ${min} to ${max}`);
  return n;
}

/** An http(s) base URL without a trailing slash. */
export function urlOption(value: string, name: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--${name} must be an http(s) URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--${name} must be an http(s) URL`);
  return url.href.replace(/\/+$/, '');
}

/** Usage text: the synopsis line, then one line per option. */
export function usage(synopsis: string, specs: OptionSpecs): string {
  const rows = Object.entries(specs).map(([name, spec]) => {
    const flag = `--${name}${spec.value ? ` ${spec.value}` : ''}`;
    const suffix = spec.required ? ' (required)' : spec.default !== undefined && spec.type !== 'boolean' ? ` (default ${String(spec.default)})` : '';
    return `  ${flag.padEnd(22)} ${spec.description}${suffix}`;
  });
  return `usage: ${synopsis}\n\n${rows.join('\n')}\n`;
}
