import type { FromSchema } from 'json-schema-to-ts';
import { OPTIMIZE_SETTINGS_SCHEMA, type OptimizeSettings } from '../../engine/models.js';
import { ServiceError } from '../../errors.js';
import type { ActionDefinition } from './types.js';
import { OUTPUT_PARAM_SCHEMAS } from './types.js';

const schema = {
  type: 'object',
  properties: {
    ...OUTPUT_PARAM_SCHEMAS,
    profileName: { type: 'string', minLength: 1, description: 'The optimize profile to apply, built-in (screen, ebook, printer, prepress, lossless) or user-defined; exactly one of profileName and profile' },
    profile: { ...OPTIMIZE_SETTINGS_SCHEMA, description: 'The settings to apply, given inline (as an optimize profile\'s body); exactly one of profileName and profile' },
  },
  additionalProperties: false,
} as const;
type Params = FromSchema<typeof schema>;

/**
 * OptimizeAction (docs/optimize.md#optimizeaction): makes the document
 * smaller as a profile says: images downsampled, converted and re-encoded
 * (each replaced only when the new one is smaller), unused resources dropped,
 * fonts subset, duplicates merged, object streams and maximum Flate. The
 * profile is resolved at prepare, so a job keeps the settings it was accepted
 * with. When the result is not smaller, nothing is written: 200 with the
 * report (changed false).
 */
export const OptimizeAction: ActionDefinition<Params, OptimizeSettings> = {
  name: 'OptimizeAction',
  target: 'document',
  need: 'edit',
  summary:
    'Makes the document smaller by an optimize profile (profileName, or an inline profile): images above 1.5 times the target resolution downsampled, ' +
    'colour spaces converted and images re-encoded per the profile, each kept when the new one is not smaller; unused resources removed, fonts subset, ' +
    'duplicate images and fonts merged, object streams and maximum Flate. Encryption is kept (the password is needed, and the permission to change); ' +
    'a signed document is refused (409 DOCUMENT_SIGNED). The answer\'s report gives the sizes before and after, per category. When the result would not ' +
    'be smaller nothing is written and the answer is 200 with report.changed false. See docs/optimize.md.',
  schema,
  async prepare({ params, optimizeProfiles }) {
    if ((params.profileName === undefined) === (params.profile === undefined)) {
      throw new ServiceError('VALIDATION_FAILED', 'Give exactly one of profileName and profile');
    }
    if (params.profile) return params.profile as OptimizeSettings;
    if (!optimizeProfiles) throw new Error('OptimizeAction needs the optimize profiles');
    const { name: _name, builtIn: _builtIn, createdAt: _createdAt, updatedAt: _updatedAt, ...settings } = await optimizeProfiles.get(params.profileName!);
    return settings;
  },
  async execute({ prepared, source, engine, ctx }) {
    const result = await engine.run('optimize', { pdf: source.pdf, password: ctx.documentPassword, settings: prepared });
    if (!result.bytes) return { kind: 'unchanged', report: result.report, savePath: 'nothing' };
    return { kind: 'document', bytes: result.bytes, report: result.report, summary: result.summary };
  },
};
