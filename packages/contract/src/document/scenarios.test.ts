import { describe, expect, it } from 'vitest';
import { definitionsOf, list, parseDocument, renderDocument, root, scenario } from './index.ts';

const criteria = (markdown: string) =>
  definitionsOf(parseDocument(markdown, { filename: 'PRODUCT_REQUIREMENTS.md' }), 'criterion');

describe('a criterion written as a Gherkin scenario', () => {
  it('is a criterion node with its ID, its name as title and its steps, from a list item', () => {
    const [first, second] = criteria(
      [
        '### FR-3 Reminders (Must)',
        '',
        '- **FR-3.1** Scenario: A vaccination falls due',
        '  - **Given** the owner has a phone number on file (A-1)',
        '  - **When** a vaccination falls due within 14 days',
        '  - **Then** VetBook sends one SMS to the owner',
        '  - **And** records when it went out',
        '- **FR-3.2** Scenario: The gateway rejects a message',
        '  - **When** the SMS gateway rejects a reminder',
        '  - **Then** VetBook retries it once after 10 minutes',
      ].join('\n'),
    );
    expect(first).toMatchObject({
      id: 'FR-3.1',
      form: 'item',
      requirement: 'FR-3',
      title: 'A vaccination falls due',
      cites: ['A-1'],
      scenario: {
        name: 'A vaccination falls due',
        steps: [
          { keyword: 'Given', text: 'the owner has a phone number on file (A-1)' },
          { keyword: 'When', text: 'a vaccination falls due within 14 days' },
          { keyword: 'Then', text: 'VetBook sends one SMS to the owner' },
          { keyword: 'And', text: 'records when it went out' },
        ],
      },
    });
    expect(second?.scenario?.steps.map((s) => s.keyword)).toEqual(['When', 'Then']);
  });

  it('reads a paragraph whose lines are the steps, as a model may write it', () => {
    const [only] = criteria(
      '**FR-1.1** Scenario: Sign in\nGiven a registered user\nWHEN they sign in\\\nThen they see their own data',
    );
    expect(only?.form).toBe('paragraph');
    expect(only?.scenario).toEqual({
      name: 'Sign in',
      steps: [
        { keyword: 'Given', text: 'a registered user' },
        { keyword: 'When', text: 'they sign in' },
        { keyword: 'Then', text: 'they see their own data' },
      ],
    });
  });

  it('leaves an EARS sentence alone, even wrapped before its THEN', () => {
    const [only] = criteria(
      '**FR-2.2** IF the gateway rejects a message\nTHEN THE SYSTEM SHALL retry it once.',
    );
    expect(only?.scenario).toBeUndefined();
    expect(only?.title).toBe(
      'IF the gateway rejects a message THEN THE SYSTEM SHALL retry it once',
    );
  });

  it('is a scenario without steps when it says so: the gate finds what it lacks', () => {
    expect(criteria('- **FR-1.1** Scenario: Nothing yet')[0]?.scenario).toEqual({
      name: 'Nothing yet',
      steps: [],
    });
  });

  it('is built as it is parsed, and written as the format says', () => {
    const tree = root([
      list([
        scenario('FR-2.1', 'A visit falls due', [
          ['When', 'a visit falls due'],
          ['Then', 'one reminder is sent'],
        ]),
      ]),
    ]);
    const markdown = renderDocument(tree);
    expect(markdown).toBe(
      '- **FR-2.1** Scenario: A visit falls due\n  - **When** a visit falls due\n  - **Then** one reminder is sent\n',
    );
    expect(criteria(markdown)[0]).toMatchObject({
      scenario: (tree.children[0] as { children: { scenario: unknown }[] }).children[0]?.scenario,
    });
  });
});
