/**
 * What a settings block is made of: each feature's module under src/config/ declares its settings (variable,
 * README line, default, parser) and the cross-setting checks it needs; src/config.ts merges the blocks into the one
 * configuration table, which the README's table is generated from (src/cli/config-table.ts; a test compares).
 */
export interface Setting<T> {
  env: string;
  /** The README table's "meaning" column. */
  doc: string;
  /** The README table's "default" column when the default is computed or worth words; otherwise the value in backquotes. */
  shown?: string;
  default: T | (() => T) | undefined;
  parse: (raw: string) => T;
}

/** One setting for every property of a feature's part of the configuration. */
export type SettingsBlock<T> = { [K in keyof T]-?: Setting<T[K]> };

/** A feature's settings, and the checks across them that loadConfig runs after every value was read. */
export interface SettingsFeature<T, C = T> {
  settings: SettingsBlock<T>;
  /** Problems of values that are each valid alone, one sentence each. */
  check?: (config: C) => string[];
}

/** A value that is not valid: its message follows the variable's name ("PDFSERVICE_PORT must be a whole number"). */
export class ConfigError extends Error {}

export const MiB = 1024 * 1024;

export function integer(min: number, max: number) {
  return (raw: string): number => {
    if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`must be a whole number`);
    const n = Number(raw);
    if (n < min || n > max) throw new ConfigError(`must be between ${min} and ${max}`);
    return n;
  };
}
/** A whole number from min to max, or 0 (which the setting gives a meaning: no limit, another setting's value). */
export const integerOrZero = (min: number, max: number) => (raw: string): number => (raw.trim() === '0' ? 0 : integer(min, max)(raw));
export const nonEmpty = (raw: string): string => {
  if (raw.trim() === '') throw new ConfigError('must not be empty');
  return raw;
};
export const boolean = (raw: string): boolean => {
  const v = raw.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off'].includes(v)) return false;
  throw new ConfigError('must be true or false');
};
export const oneOf = <T extends string>(...values: T[]) => (raw: string): T => {
  if (!(values as string[]).includes(raw)) throw new ConfigError(`must be one of ${values.join(', ')}`);
  return raw as T;
};

/** An http or https URL. */
export const httpUrl = (raw: string): string => {
  const parsed = URL.parse(raw.trim());
  if (!parsed || !['http:', 'https:'].includes(parsed.protocol)) throw new ConfigError('must be an http or https URL');
  if (parsed.username || parsed.password) throw new ConfigError('must not carry credentials (users act with their own)');
  return parsed.toString();
};

/** A comma-separated list. */
export const list = (raw: string): string[] => [...new Set(raw.split(',').map((r) => r.trim()).filter(Boolean))];
