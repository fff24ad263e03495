import { AUTH, type AuthSettings } from './config/auth.js';
import { ENGINE, type EngineSettings } from './config/engine.js';
import { JOBS, type JobSettings } from './config/jobs.js';
import { REDIS, type RedisSettings } from './config/redis.js';
import { RETENTION, type RetentionSettings } from './config/retention.js';
import { SERVICE, type ServiceSettings } from './config/service.js';
import { ConfigError, type Setting, type SettingsBlock, type SettingsFeature } from './config/setting.js';
import { STORES, type StoreSettings } from './config/stores.js';
import { TOOLS, type ToolSettings } from './config/tools.js';
import { WEBHOOKS, type WebhookSettings } from './config/webhooks.js';

export { userTaskLimit } from './config/engine.js';
export { jobConcurrency } from './config/jobs.js';
export { secretsKey } from './config/stores.js';
export { chromiumPool, officePool, toolMemory, webPolicy } from './config/tools.js';
export { webhookPolicy } from './config/webhooks.js';

/**
 * Every setting of the service, read from environment variables and validated once at start: the merge of the
 * features' settings blocks (src/config/), each declaring its variables, defaults, parsers and README lines.
 * A new feature adds its block here, in the type and in FEATURES.
 */
export type Config = ServiceSettings & AuthSettings & EngineSettings & JobSettings & ToolSettings & StoreSettings & RetentionSettings & RedisSettings & WebhookSettings;

/** The blocks in the README table's order; their cross-setting checks run in this order too. */
const FEATURES: SettingsFeature<object, Config>[] = [SERVICE, AUTH, ENGINE, JOBS, WEBHOOKS, TOOLS, STORES, RETENTION, REDIS];

/** The one configuration table (TypeScript refuses a Config property without its setting, or one set twice). */
export const SETTINGS: SettingsBlock<Config> = { ...SERVICE.settings, ...AUTH.settings, ...ENGINE.settings, ...JOBS.settings, ...WEBHOOKS.settings, ...TOOLS.settings, ...STORES.settings, ...RETENTION.settings, ...REDIS.settings };

/** Reads the configuration; throws one error naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  const config: Record<string, unknown> = {};
  for (const [key, setting] of Object.entries(SETTINGS) as [keyof Config, Setting<unknown>][]) {
    const raw = env[setting.env];
    if (raw === undefined || raw === '') {
      config[key] = typeof setting.default === 'function' ? (setting.default as () => unknown)() : setting.default;
      continue;
    }
    try {
      config[key] = setting.parse(raw);
    } catch (err) {
      problems.push(`${setting.env} ${err instanceof ConfigError ? err.message : 'is invalid'}`);
    }
  }
  for (const feature of FEATURES) problems.push(...(feature.check?.(config as unknown as Config) ?? []));
  if (problems.length > 0) throw new Error(`Invalid configuration: ${problems.join('; ')}`);
  return config as unknown as Config;
}

/** The default as the README shows it: the setting's own words, else the value in backquotes. */
function shownDefault(setting: Setting<unknown>): string {
  if (setting.shown !== undefined) return setting.shown;
  const value = setting.default;
  if (value === undefined) return 'unset';
  if (value === '' || (Array.isArray(value) && value.length === 0)) return 'empty';
  return `\`${Array.isArray(value) ? value.join(',') : String(value)}\``;
}

/** README.md's configuration table, generated from SETTINGS (`npm run config-table` writes it; a test compares). */
export function configurationTable(): string {
  const rows = Object.values(SETTINGS as Record<string, Setting<unknown>>).map((setting) => `| \`${setting.env}\` | ${shownDefault(setting)} | ${setting.doc} |`);
  return ['| variable | default | meaning |', '|---|---|---|', ...rows].join('\n') + '\n';
}
