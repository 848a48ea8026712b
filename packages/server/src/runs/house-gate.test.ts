import { describe, expect, it } from 'vitest';
import { houseFindings, languageText, readProse } from './house-gate.ts';

const GERMAN = `# Architektur: GroomBook

## Components

GroomBook speichert alle Termine der Hundesalons in einer Datenbank und schickt am Vortag eine Erinnerung per SMS an jeden Kunden. Die Anwendung besteht aus einer Weboberfläche für die Salons, einem Dienst für die Buchungen und einem Planer, der die Erinnerungen verschickt.

**FR-1.1** WHEN ein Kunde bucht THE SYSTEM SHALL den Termin speichern und bestätigen.

### GDPR

Personenbezogene Daten werden in der EU gespeichert und auf Anfrage gelöscht; jede Kundin kann ihre Daten exportieren.
`;
const ENGLISH = GERMAN.replace(
  /GroomBook speichert[\s\S]*verschickt\./,
  'GroomBook stores every appointment of the grooming salons in a database and sends each customer an SMS reminder the day before. It is made of a web client for the salons, a booking service and a scheduler that sends the reminders.',
).replace(
  /Personenbezogene[\s\S]*exportieren\./,
  'Personal data stays in the EU and is erased on request; every customer can export their data.',
);

const check = (
  content: string,
  house: Parameters<typeof houseFindings>[0]['house'],
  engine = 'anthropic:claude-sonnet-4-5',
) =>
  houseFindings({
    kind: 'architecture',
    content,
    idea: 'A booking tool for dog groomers',
    house,
    engine,
  }).map((f) => f.rule);

describe('the house gate', () => {
  it('finds a forbidden technology, unless the idea names it', () => {
    const content = `${GERMAN}\nThe bookings live in MongoDB.\n`;
    expect(check(content, { conventions: { stack: { forbidden: ['MongoDB'] } } })).toEqual([
      'forbidden-technology',
    ]);
    const chosen = houseFindings({
      kind: 'architecture',
      content,
      idea: 'A booking tool for dog groomers on MongoDB',
      house: { conventions: { stack: { forbidden: ['MongoDB'] } } },
      engine: 'offline',
    });
    expect(chosen).toEqual([]);
  });

  it('finds an architecture without a section for a required standard', () => {
    expect(check(GERMAN, { conventions: { compliance: ['GDPR'] } })).toEqual([]);
    expect(check(GERMAN, { conventions: { compliance: ['GDPR', 'HIPAA'] } })).toEqual([
      'missing-compliance',
    ]);
  });

  it('finds a document of a model not in the language asked; the offline engine is not faulted', () => {
    expect(check(GERMAN, { language: 'de' })).toEqual([]);
    expect(check(ENGLISH, { language: 'de' })).toEqual(['language']);
    expect(check(ENGLISH, { language: 'de' }, 'offline')).toEqual([]);
    expect(check(ENGLISH, { language: 'en-GB' })).toEqual([]);
    expect(check(ENGLISH, undefined)).toEqual([]);
  });

  it('reads the language from prose, without IDs, keywords and code', () => {
    const { prose } = readProse(
      '## Data\n\n**FR-1.1** WHEN a booking THE SYSTEM SHALL `POST /bookings with retry` store it\n\n```ts\nconst x = 1;\n```\n',
    );
    expect(languageText(prose)).toBe('a booking store it');
    // A literal backtick pair in prose is prose.
    expect(languageText(['Die Taste ` und ` ist belegt'])).toBe('Die Taste ` und ` ist belegt');
  });
});
