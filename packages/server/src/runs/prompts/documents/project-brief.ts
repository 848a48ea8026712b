import type { DocumentPrompt } from '../types.ts';

export const PROJECT_BRIEF: DocumentPrompt<'project-brief'> = {
  kind: 'project-brief',
  version: 2,
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
      'Three to five goals for the first release, as a table with columns ID, Goal, Metric, Target, ' +
      'How measured: the ID is G-1, G-2 and so on, each goal paired with a measurable metric, a target ' +
      "number and how it is measured. Start from the questionnaire's success metrics and make them " +
      'specific; a target nobody gave is a default you choose, recorded as an assumption below.',
    Scope:
      'Two lists: "In scope for the first release" (every core feature, each a line saying what the user ' +
      'can do, keeping the qualifiers and numbers of the idea) and "Not in the first release" (the ' +
      "questionnaire's non-goals and the tempting neighbours deliberately left out, each with the reason).",
    Risks:
      'The three to six biggest risks (product, technical, adoption, business model, and legal only where ' +
      'the idea calls for it), as a table with columns ID, Risk, Likelihood, Impact, Mitigation: the ID is ' +
      'R-1, R-2 and so on; likelihood and impact are High, Medium or Low. A risk of High impact will get ' +
      'a spike in the implementation plan, so state it precisely enough to test.',
    'Assumptions and open questions':
      'Two ### subsections. "### Assumptions": a table with columns ID, Assumption, Default chosen, one ' +
      "row per fact the idea leaves unknown that the documents rely on (start from the questionnaire's " +
      'assumptions), numbered A-1, A-2 and so on. "### Open questions": a table with columns ID, ' +
      'Question, Impact, Affects, one row per question only the client can answer (start from the ' +
      "questionnaire's open questions), numbered Q-1, Q-2 and so on, where Impact says what changes " +
      'with the answer and Affects names the core feature. Write "None" in a table\'s place only when ' +
      'there truly is nothing to record.',
  },
  rules: [
    'This is the first document: it defines the G, R, A and Q IDs and no others; later documents number ' +
      'the requirements, stories and tasks.',
    'Tell the problem and the audience from what the idea and the questionnaire say. Do not claim what ' +
      'people told you, how many have the problem or what a study found: nobody has asked them yet. What ' +
      'the brief must assume is an A-n, what only the client knows is a Q-n.',
    'Keep it to what a busy reader can take in within ten minutes: about 800 to 1,300 words.',
  ],
  maxOutputTokens: 4_000,
};
