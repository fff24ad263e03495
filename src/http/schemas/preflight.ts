/** PreflightResult (XML: <PreflightResult>): a document version checked against a PDF/A or PDF/X profile (docs/pdfa.md, "Preflight"). */
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
      description: 'What checked it: veraPDF (PDF/A) or the service\'s own rules (PDF/X)',
      properties: { name: { type: 'string' }, version: { type: 'string' } },
      required: ['name', 'version'],
    },
    passedChecks: { type: 'integer', minimum: 0, description: 'Checks that passed' },
    failedChecks: { type: 'integer', minimum: 0, description: 'Checks that failed, all rules together' },
    rules: { type: 'array', items: ruleSchema, description: 'The failed rules, in clause order; empty when compliant' },
  },
  required: ['document', 'etag', 'profile', 'compliant', 'validator', 'passedChecks', 'failedChecks', 'rules'],
} as const;

export const PREFLIGHT_RESULT_XML = { root: 'PreflightResult', items: { rules: 'rule', locations: 'location' } };
