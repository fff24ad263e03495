/** PreflightResult (XML: <PreflightResult>): a document version checked against a PDF/A, PDF/UA or PDF/X profile (docs/pdfa.md, "Preflight"). */
const locationSchema = {
  type: 'object',
  description: 'One place a rule failed (XML: <location>)',
  properties: {
    pageIndex: { type: 'integer', minimum: 0, description: 'Zero-based page index, when the place is on a page' },
    objectNumber: { type: 'integer', minimum: 0, description: 'Number of the PDF object the check ran on (the last one in the context path), when known' },
    context: { type: 'string', description: "The validator's path to the place, e.g. root/document[0]/pages[0](3 0 obj PDPage)/contentStream[0]" },
  },
  required: ['context'],
} as const;

const ruleSchema = {
  type: 'object',
  description: 'A rule the document fails (XML: <rule>)',
  properties: {
    specification: { type: 'string', description: "The standard the rule is from, e.g. 'ISO 19005-2:2011' (PDF/A-2) or 'ISO 15930-7:2010' (PDF/X-4)" },
    clause: { type: 'string', description: "Its clause, e.g. '6.2.11.4.1'" },
    testNumber: { type: 'integer', description: "The validator's test number within the clause; 0 for the service's own rule that the file could not be read" },
    description: { type: 'string', description: 'What the rule requires' },
    failedChecks: { type: 'integer', minimum: 1, description: 'How many times it failed' },
    locations: { type: 'array', maxItems: 10, items: locationSchema, description: 'The first places it failed (at most 10)' },
  },
  required: ['specification', 'clause', 'testNumber', 'description', 'failedChecks', 'locations'],
} as const;

const ruleRefSchema = {
  type: 'object',
  description: 'A failed rule of `rules`, by its clause and test number (XML: <rule>)',
  properties: { clause: { type: 'string' }, testNumber: { type: 'integer' } },
  required: ['clause', 'testNumber'],
} as const;

const checkpointSchema = {
  type: 'object',
  description: 'A Matterhorn Protocol checkpoint failed rules belong to (XML: <checkpoint>)',
  properties: {
    checkpoint: { type: 'string', pattern: '^[0-9]{2}$', description: "The checkpoint's number, e.g. '01'" },
    name: { type: 'string', description: "Its name, e.g. 'Real content tagged'" },
    failureConditions: { type: 'array', items: { type: 'string', pattern: '^[0-9]{2}-[0-9]{3}$' }, description: "The failure conditions the failed rules decide, e.g. '01-005' (XML: <failureCondition>)" },
    failedChecks: { type: 'integer', minimum: 1, description: 'How many times its rules failed, together' },
    rules: { type: 'array', items: ruleRefSchema, description: 'Its failed rules, as in `rules`' },
    locations: { type: 'array', maxItems: 10, items: locationSchema, description: 'The first places its rules failed (at most 10)' },
  },
  required: ['checkpoint', 'name', 'failureConditions', 'failedChecks', 'rules', 'locations'],
} as const;

const humanCheckSchema = {
  type: 'object',
  description: 'A failure condition no program can decide: a person has to check it (XML: <humanCheck>)',
  properties: {
    failureCondition: { type: 'string', pattern: '^[0-9]{2}-[0-9]{3}$', description: "Its Matterhorn number, e.g. '09-001'" },
    checkpoint: { type: 'string', description: 'Its checkpoint number' },
    name: { type: 'string', description: "The checkpoint's name" },
    description: { type: 'string', description: 'What to check' },
  },
  required: ['failureCondition', 'checkpoint', 'name', 'description'],
} as const;

const accessibilitySchema = {
  type: 'object',
  description:
    'Accessibility profiles only (pdfua1, pdfua2, wtpdf1a; docs/accessibility.md): the failures by Matterhorn Protocol checkpoint ' +
    '(PDF/UA-1) and what a person still has to check',
  properties: {
    protocol: { type: 'string', description: "'Matterhorn Protocol 1.1' when the failures are grouped (pdfua1)" },
    checkpoints: { type: 'array', items: checkpointSchema, description: 'pdfua1: the failed rules by checkpoint, in checkpoint order; empty when compliant' },
    humanChecks: { type: 'array', items: humanCheckSchema, description: 'The failure conditions that need human judgement, whatever the verdict' },
  },
  required: ['humanChecks'],
} as const;

export const preflightResultSchema = {
  title: 'PreflightResult',
  type: 'object',
  description:
    'PreflightResult (XML: <PreflightResult> with <rules><rule> items, each with <locations><location>): the verdict of one profile on one ' +
    'version of the document, with every failed rule. Cached per version (etag), password and profile.',
  properties: {
    document: { type: 'string', description: 'Path of the document checked, as DocumentModel.path writes it, e.g. "/reports/q1.pdf"' },
    etag: { type: 'string', description: 'ETag of the version checked' },
    profile: { type: 'string', description: 'The profile checked against, e.g. pdfa2b' },
    compliant: { type: 'boolean', description: 'true when no rule failed' },
    validator: {
      type: 'object',
      description: 'What checked it: veraPDF (PDF/A, PDF/UA, WTPDF) or the service\'s own rules (PDF/X)',
      properties: { name: { type: 'string' }, version: { type: 'string' } },
      required: ['name', 'version'],
    },
    passedChecks: { type: 'integer', minimum: 0, description: 'Checks that passed' },
    failedChecks: { type: 'integer', minimum: 0, description: 'Checks that failed, all rules together' },
    rules: { type: 'array', items: ruleSchema, description: 'The failed rules, in clause order; empty when compliant' },
    accessibility: accessibilitySchema,
  },
  required: ['document', 'etag', 'profile', 'compliant', 'validator', 'passedChecks', 'failedChecks', 'rules'],
} as const;

export const PREFLIGHT_RESULT_XML = {
  root: 'PreflightResult',
  items: { rules: 'rule', locations: 'location', checkpoints: 'checkpoint', failureConditions: 'failureCondition', humanChecks: 'humanCheck' },
};
