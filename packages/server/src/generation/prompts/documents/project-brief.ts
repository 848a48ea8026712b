import type { DocumentPrompt } from '../types.ts';

export const PROJECT_BRIEF: DocumentPrompt = {
  kind: 'project-brief',
  version: 1,
  reader:
    'A founder, a product lead and the first engineers deciding whether and how to build this. ' +
    'They read it once in full, then come back to it whenever scope is argued about.',
  purpose:
    'Set out why this product should exist, for whom, what its first release must achieve and what it ' +
    'deliberately will not do, so that every later document (requirements, design, plan) can be checked against it.',
  sections: {
    Overview:
      'Two or three short paragraphs: what the product is in one sentence a stranger would understand, ' +
      'the situation it is used in, and what is different about it compared with what people do today.',
    Problem:
      "The concrete problem, told from the user's side: what they do today (the workaround, the tool, the " +
      'spreadsheet), what that costs them (time, money, risk, frustration), and how often it happens. Name ' +
      'the moments where it hurts most. No generic claims ("users want efficiency").',
    'Target audience':
      'The primary audience as the questionnaire defines it, then one or two secondary groups. For each: who ' +
      'they are, the situation they are in when they reach for the product, what they already use, and what ' +
      'would make them switch. Say who it is not for.',
    'Goals and success metrics':
      'Three to five goals for the first release, each paired with a measurable metric, a target number and ' +
      "how it is measured (a table with columns Goal, Metric, Target, How measured). Use the questionnaire's " +
      'success metrics and make them specific.',
    Scope:
      'Two lists: "In scope for the first release" (the core features, each a line saying what the user can ' +
      'do) and "Not in the first release" (tempting features deliberately left out, each with the reason).',
    Risks:
      'The five biggest risks (product, technical, legal or regulatory, adoption, business model), each with ' +
      'its likelihood, impact and the mitigation; as a table with columns Risk, Likelihood, Impact, Mitigation.',
  },
  rules: [
    'This is the first document: define no requirement IDs here; later documents number the requirements.',
    'Keep it to what a busy reader can take in within ten minutes: about 700 to 1,100 words.',
  ],
  maxOutputTokens: 4_000,
};
