import type { FailedRule, RuleLocation, ValidationReport } from '../tools/verapdf.js';

/**
 * The accessibility part of a preflight report (docs/accessibility.md): veraPDF's failed PDF/UA-1 rules grouped by
 * the Matterhorn Protocol 1.1 checkpoint they fail (PDF Association, CC BY 4.0), and the failure conditions of the
 * protocol that need a person. veraPDF's PDF/UA-1 profile (PDFUA-1.xml in its core jar) names each rule by its
 * ISO 14289-1 clause and test number and carries no Matterhorn reference; the protocol names, for each failure
 * condition, the clause and paragraph it tests (its "Section" column, e.g. UA1:7.1-2). The table below joins the two:
 * veraPDF's rule (clause-test) to the failure conditions whose section and text it checks, read side by side.
 */

/** The 31 checkpoints of the Matterhorn Protocol 1.1, by number. */
export const MATTERHORN_CHECKPOINTS: Readonly<Record<string, string>> = {
  '01': 'Real content tagged',
  '02': 'Role mapping',
  '03': 'Flickering',
  '04': 'Color and contrast',
  '05': 'Sound',
  '06': 'Metadata',
  '07': 'Dictionary',
  '08': 'OCR validation',
  '09': 'Appropriate tags',
  '10': 'Character mappings',
  '11': 'Declared natural language',
  '12': 'Stretchable characters',
  '13': 'Graphics',
  '14': 'Headings',
  '15': 'Tables',
  '16': 'Lists',
  '17': 'Mathematical expressions',
  '18': 'Page headers and footers',
  '19': 'Notes and references',
  '20': 'Optional content',
  '21': 'Embedded files',
  '22': 'Article threads',
  '23': 'Digital signatures',
  '24': 'Non-interactive forms',
  '25': 'XFA',
  '26': 'Security',
  '27': 'Navigation',
  '28': 'Annotations',
  '29': 'Actions',
  '30': 'XObjects',
  '31': 'Fonts',
};

/**
 * veraPDF's PDF/UA-1 rules (ISO 14289-1 clause, then test number) and the Matterhorn failure conditions each decides.
 * A rule whose clause has one entry under its clause alone ('7.3') stands for every test of that clause. Two rules
 * test what no failure condition names (6.1-1, the file header; 7.1-12, a structure element without its parent):
 * they stay in `rules` and in no group.
 */
const RULE_CONDITIONS: Readonly<Record<string, readonly string[]>> = {
  '5': ['06-002'],
  '6.2-1': ['01-005'], // MarkInfo /Marked true: an untagged file
  '7.1-1': ['01-003'],
  '7.1-2': ['01-004'],
  '7.1-3': ['01-005'],
  '7.1-4': ['01-007'],
  '7.1-5': ['02-001'],
  '7.1-6': ['02-003'],
  '7.1-7': ['02-004'],
  '7.1-8': ['06-001'],
  '7.1-9': ['06-003'],
  '7.1-10': ['07-001', '07-002'],
  '7.1-11': ['01-005'], // no structure tree: no content is tagged
  '7.2-2': ['11-003'],
  '7.2-21': ['11-002'],
  '7.2-22': ['11-002'],
  '7.2-23': ['11-002'],
  '7.2-24': ['11-004'],
  '7.2-25': ['11-005'],
  '7.2-26': ['09-006'],
  '7.2-27': ['09-006'],
  '7.2-28': ['09-006'],
  '7.2-29': ['11-001'],
  '7.2-30': ['11-002'],
  '7.2-31': ['11-002'],
  '7.2-32': ['11-002'],
  '7.2-33': ['11-006'],
  '7.2-34': ['11-001'],
  '7.3': ['13-004'],
  '7.4.2': ['14-002', '14-003'],
  '7.4.4-1': ['14-006'],
  '7.4.4-2': ['14-007'],
  '7.4.4-3': ['14-007'],
  '7.5': ['15-003'],
  '7.7': ['17-002'],
  '7.9-1': ['19-003'],
  '7.9-2': ['19-004'],
  '7.10-1': ['20-001', '20-002'],
  '7.10-2': ['20-003'],
  '7.11': ['21-001'],
  '7.15': ['25-001'],
  '7.16': ['26-001', '26-002'],
  '7.18.1-1': ['28-002'],
  '7.18.1-2': ['28-004'],
  '7.18.1-3': ['28-005'],
  '7.18.2': ['28-007'],
  '7.18.3': ['28-008', '28-009'],
  '7.18.4': ['28-010'],
  '7.18.5-1': ['28-011'],
  '7.18.5-2': ['28-012'],
  '7.18.6.2-1': ['28-014'],
  '7.18.6.2-2': ['28-015'],
  '7.18.8': ['28-017', '28-018'],
  '7.20-1': ['30-001'],
  '7.20-2': ['30-002'],
  '7.21.3.1': ['31-001', '31-002', '31-003'],
  '7.21.3.2': ['31-004', '31-005'],
  '7.21.3.3-1': ['31-006'],
  '7.21.3.3-2': ['31-007'],
  '7.21.3.3-3': ['31-008'],
  '7.21.4.1-1': ['31-009'],
  '7.21.4.1-2': ['31-011'],
  '7.21.4.2-1': ['31-012', '31-013'],
  '7.21.4.2-2': ['31-014', '31-015'],
  '7.21.5': ['31-016'],
  '7.21.6-1': ['31-017', '31-018'],
  '7.21.6-2': ['31-019', '31-020', '31-021'],
  '7.21.6-3': ['31-024'],
  '7.21.6-4': ['31-025', '31-026'],
  '7.21.7-1': ['31-027'],
  '7.21.7-2': ['31-028'],
  '7.21.8': ['31-030'],
};

/** The structure syntax rules of 7.2 (tables, lists): each test is one of these families (veraPDF's test numbers). */
const TABLE_TESTS = new Set([3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 36, 37, 38, 39, 41, 42, 43]);
const LIST_TESTS = new Set([17, 18, 19, 20, 40]);

/** The Matterhorn failure conditions a veraPDF PDF/UA-1 rule decides; empty for a rule no condition names. */
export function matterhornConditions(rule: Pick<FailedRule, 'clause' | 'testNumber'>): readonly string[] {
  if (rule.clause === '7.2' && TABLE_TESTS.has(rule.testNumber)) return ['09-004'];
  if (rule.clause === '7.2' && LIST_TESTS.has(rule.testNumber)) return ['09-005'];
  return RULE_CONDITIONS[`${rule.clause}-${rule.testNumber}`] ?? RULE_CONDITIONS[rule.clause] ?? [];
}

/**
 * The failure conditions the Matterhorn Protocol 1.1 marks "Human", all of them (48), in protocol order: no program can
 * decide them, so a report that passes every machine check still needs a person to look at these. Descriptions are
 * ours, shortened; the protocol's text is the reference. Whether a figure's alternate text says what the figure conveys
 * has no condition of its own (13-004, a machine check, asks only that there is one): it is asked with 13-005, the
 * condition about which kind of description a figure has.
 */
export const HUMAN_CHECKS: ReadonlyArray<{ failureCondition: string; description: string }> = [
  { failureCondition: '01-001', description: 'Content that is decoration or pagination (an artifact) is tagged as real content' },
  { failureCondition: '01-002', description: 'Real content is marked as an artifact, so assistive technology skips it' },
  { failureCondition: '01-006', description: 'A structure element\'s type or attributes do not fit its content (e.g. a paragraph tagged as a heading)' },
  { failureCondition: '02-002', description: 'A custom tag is role-mapped to a standard type that does not fit its meaning' },
  { failureCondition: '03-001', description: 'An action makes content flicker' },
  { failureCondition: '03-002', description: 'A multimedia object flickers' },
  { failureCondition: '03-003', description: 'A script makes content flicker' },
  { failureCondition: '04-001', description: 'Colour, contrast, format or layout carries meaning the tags do not carry' },
  { failureCondition: '05-001', description: 'The audio of a media annotation has no other form (e.g. a transcript)' },
  { failureCondition: '05-002', description: 'An audio annotation has no other form' },
  { failureCondition: '05-003', description: 'A script beeps without another way of telling the user' },
  { failureCondition: '06-004', description: 'The title (dc:title) does not identify the document' },
  { failureCondition: '08-001', description: 'Text recognised by OCR has significant errors' },
  { failureCondition: '08-002', description: 'Text recognised by OCR is not tagged' },
  { failureCondition: '09-001', description: 'The tags are not in the logical reading order' },
  { failureCondition: '09-002', description: 'Structure elements are nested in a way that does not fit their meaning (e.g. a table inside a heading)' },
  { failureCondition: '09-003', description: 'An element\'s type (after role mapping) does not fit what it is' },
  { failureCondition: '11-007', description: 'The declared language is not the language of the text' },
  { failureCondition: '12-001', description: 'Stretched characters (e.g. a large bracket drawn from pieces) are not represented so that they read right' },
  { failureCondition: '13-001', description: 'A graphic with meaning (other than text and artifacts) is not tagged as a Figure' },
  { failureCondition: '13-002', description: 'A link over a meaningful picture has no alternative text saying both where it goes and what the picture means' },
  { failureCondition: '13-003', description: 'A caption is not tagged as a Caption' },
  { failureCondition: '13-005', description: 'A figure\'s description is of the wrong kind (ActualText where alternate text fits), or its alternate text does not say what the figure conveys' },
  { failureCondition: '13-006', description: 'Graphics that only mean something together are tagged one by one instead of as one Figure' },
  { failureCondition: '13-007', description: 'A more accessible form of the content (e.g. real text instead of a picture of text) is not used' },
  { failureCondition: '13-008', description: 'A figure meant to be read as text has no ActualText' },
  { failureCondition: '14-001', description: 'Headings are not tagged as headings (or their levels do not match the visual structure)' },
  { failureCondition: '14-004', description: 'Numbered heading tags do not use Arabic numerals (H1, H2...) and are not role-mapped to ones that do' },
  { failureCondition: '14-005', description: 'A heading of the seventh level or deeper is not tagged H7 or deeper' },
  { failureCondition: '15-001', description: 'Row header cells are not tagged as TH' },
  { failureCondition: '15-002', description: 'Column header cells are not tagged as TH' },
  { failureCondition: '15-004', description: 'Content tagged as a table is not organised in rows and columns' },
  { failureCondition: '15-005', description: 'Which header cells belong to a cell cannot be told unambiguously' },
  { failureCondition: '16-001', description: 'An ordered list has no ListNumbering attribute' },
  { failureCondition: '16-002', description: 'An ordered list\'s ListNumbering is not Decimal, UpperRoman, LowerRoman, UpperAlpha or LowerAlpha' },
  { failureCondition: '16-003', description: 'A list is not tagged as a list' },
  { failureCondition: '17-001', description: 'A mathematical expression is not tagged as a Formula' },
  { failureCondition: '18-001', description: 'Running headers, footers and page numbers are not marked as pagination artifacts' },
  { failureCondition: '18-002', description: 'Header and footer artifacts are not given the Header or Footer subtype' },
  { failureCondition: '19-001', description: 'Footnotes and endnotes are not tagged as Note' },
  { failureCondition: '19-002', description: 'References are not tagged as Reference' },
  { failureCondition: '22-001', description: 'Article threads do not follow the reading order' },
  { failureCondition: '24-001', description: 'A non-interactive form field is not tagged as PrintField' },
  { failureCondition: '28-001', description: 'Annotations are not in the reading order of the content they belong to' },
  { failureCondition: '28-003', description: 'An annotation used for visual formatting is not tagged for what it means' },
  { failureCondition: '28-013', description: 'A server-side image map (IsMap) has no other way to reach what it offers' },
  { failureCondition: '29-001', description: 'A script needs keystrokes timed by the user' },
  { failureCondition: '31-010', description: 'An embedded font\'s licence does not allow embedding for unlimited, universal rendering' },
];

/** One Matterhorn checkpoint some rules failed, with what failed and where (ValidationReport's places). */
export interface CheckpointGroup {
  checkpoint: string;
  name: string;
  failureConditions: string[];
  failedChecks: number;
  rules: Array<{ clause: string; testNumber: number }>;
  locations: RuleLocation[];
}

export interface AccessibilityReport {
  /** 'Matterhorn Protocol 1.1' for PDF/UA-1; absent for PDF/UA-2 and WTPDF, which the protocol does not cover. */
  protocol?: string;
  /** PDF/UA-1 only: failed rules grouped by checkpoint, in checkpoint order; empty when compliant. */
  checkpoints?: CheckpointGroup[];
  humanChecks: Array<{ failureCondition: string; checkpoint: string; name: string; description: string }>;
}

/** Places kept per checkpoint, as per rule. */
const MAX_LOCATIONS = 10;

/**
 * The accessibility report of a veraPDF result: for PDF/UA-1 its failed rules by checkpoint; for every accessibility
 * profile the failure conditions a person has to check (the same judgements apply to PDF/UA-2 and WTPDF).
 */
export function accessibilityReport(report: ValidationReport, matterhorn: boolean): AccessibilityReport {
  const humanChecks = HUMAN_CHECKS.map(({ failureCondition, description }) => {
    const checkpoint = failureCondition.slice(0, 2);
    return { failureCondition, checkpoint, name: MATTERHORN_CHECKPOINTS[checkpoint]!, description };
  });
  if (!matterhorn) return { humanChecks };
  const groups = new Map<string, CheckpointGroup>();
  for (const rule of report.rules) {
    const conditions = matterhornConditions(rule);
    for (const checkpoint of new Set(conditions.map((c) => c.slice(0, 2)))) {
      let group = groups.get(checkpoint);
      if (!group) {
        group = { checkpoint, name: MATTERHORN_CHECKPOINTS[checkpoint]!, failureConditions: [], failedChecks: 0, rules: [], locations: [] };
        groups.set(checkpoint, group);
      }
      for (const condition of conditions) if (condition.startsWith(checkpoint) && !group.failureConditions.includes(condition)) group.failureConditions.push(condition);
      group.failedChecks += rule.failedChecks;
      group.rules.push({ clause: rule.clause, testNumber: rule.testNumber });
      group.locations.push(...rule.locations.slice(0, MAX_LOCATIONS - group.locations.length));
    }
  }
  const checkpoints = [...groups.values()].sort((a, b) => a.checkpoint.localeCompare(b.checkpoint));
  for (const group of checkpoints) group.failureConditions.sort();
  return { protocol: 'Matterhorn Protocol 1.1', checkpoints, humanChecks };
}
