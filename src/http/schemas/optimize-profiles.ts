import { OPTIMIZE_SETTINGS_SCHEMA } from '../../engine/models.js';

/**
 * The optimize profiles resource (docs/optimize.md). The settings schema is the
 * engine's (engine/optimize/model.ts), shared with OptimizeAction's inline
 * profile; request types are derived from it by the route's type provider.
 */
export const profileRequestSchema = {
  ...OPTIMIZE_SETTINGS_SCHEMA,
  title: 'OptimizeProfileRequest',
  description:
    'OptimizeProfile (XML: <OptimizeProfile>) to create or replace. Every field is optional and has a default; an image handler left out ' +
    'leaves those images unchanged. Unknown fields, codes outside their list and values out of range are 400 VALIDATION_FAILED.',
} as const;

export const profileModelSchema = {
  title: 'OptimizeProfileModel',
  type: 'object',
  description: 'OptimizeProfileModel (XML: <OptimizeProfile>): a profile\'s settings with its name; built-in profiles are read-only.',
  properties: {
    name: { type: 'string', description: 'The profile name, as in its URL' },
    builtIn: { type: 'boolean', description: 'A built-in profile (screen, ebook, printer, prepress, lossless): read-only' },
    ...OPTIMIZE_SETTINGS_SCHEMA.properties,
    createdAt: { type: 'string', format: 'date-time', description: 'When the profile was created (user-defined profiles only)' },
    updatedAt: { type: 'string', format: 'date-time', description: 'When it was last replaced (user-defined profiles only)' },
  },
  required: ['name', 'builtIn', 'discardAnnotations', 'discardUnusedResources', 'mergeDuplicateFonts', 'mergeDuplicateImages', 'compressObjectsIntoStreams'],
} as const;

export const profilesModelSchema = {
  title: 'OptimizeProfilesModel',
  type: 'object',
  description: 'OptimizeProfilesModel (XML: <OptimizeProfiles> holding one <OptimizeProfile> each): the built-in profiles, then the others by name.',
  properties: { profiles: { type: 'array', items: profileModelSchema } },
  required: ['profiles'],
} as const;

export const profileNameParams = {
  type: 'object',
  properties: {
    profileName: {
      // Any text here, so that a bad name is 400 INVALID_PATH from the one check (checkName); the API description
      // gives the rule as a pattern (openapi.ts), as for document paths.
      type: 'string',
      description: 'The profile name: one path segment (no "/", "\\", ":" or control characters, not starting with "." nor ending with "." or a space, at most 255 bytes); case-sensitive',
    },
  },
  required: ['profileName'],
} as const;

export const PROFILE_XML = { root: 'OptimizeProfile' };
export const PROFILES_XML = { root: 'OptimizeProfiles', flatten: 'profiles', items: { profiles: 'OptimizeProfile' } };
