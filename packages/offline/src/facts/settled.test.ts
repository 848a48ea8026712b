import { type Conventions, namesTechnology, type ProjectType } from '@pgs/contract';
import { describe, expect, it } from 'vitest';
import { docOf, type OfflineProject, offlineProject } from '../../test/offline-project.ts';
import { documentRequest } from '../../test/plan.ts';
import { writeDocument } from '../index.ts';

const VET =
  'A tool for small veterinary clinics to schedule appointments and send vaccine reminders by SMS';

/** The FR groups the requirements define that the stories, the architecture or the plan never cite. */
function untraced(project: OfflineProject): string[] {
  const frs = docOf(project, 'product-requirements').match(/^### FR-\d+/gm) ?? [];
  const citing = ['user-stories', 'architecture', 'implementation-plan'].filter((kind) =>
    project.documents.some((d) => d.kind === kind),
  );
  return frs
    .map((heading) => heading.slice(4))
    .filter((id) =>
      citing.some(
        (kind) => !new RegExp(`\\b${id}\\b(?!\\.\\d)|\\b${id}\\.\\d`).test(docOf(project, kind)),
      ),
    );
}

/** The NFRs the requirements define that no other document cites. */
function uncitedNfrs(project: OfflineProject): string[] {
  const nfrs = docOf(project, 'product-requirements').match(/^\*\*NFR-\d+\*\*/gm) ?? [];
  const cited = project.documents
    .filter((d) => d.kind !== 'product-requirements')
    .map((d) => d.content)
    .join('\n');
  return nfrs.map((nfr) => nfr.slice(2, -2)).filter((id) => !new RegExp(`\\b${id}\\b`).test(cited));
}

describe('the offline engine under a stack the conventions set', () => {
  const cases: [ProjectType, string, Conventions][] = [
    ['web', VET, { stack: { required: ['MySQL'], forbidden: ['PostgreSQL'] } }],
    [
      'web',
      'An open-source, self-hosted help desk for IT teams to triage support tickets and close stale tickets after 30 days',
      { stack: { forbidden: ['PostgreSQL', 'Docker'] } },
    ],
    [
      'mobile',
      'A React Native app for home cooks to save recipes and plan meals offline',
      { stack: { required: ['Realm'], forbidden: ['SQLite', 'Expo'] } },
    ],
    [
      'mcp',
      'An MCP server that lets AI assistants search Confluence pages',
      { stack: { required: ['Bun'], forbidden: ['Node.js'] } },
    ],
  ];

  it.each(cases)(
    '%s: names no forbidden technology, uses the required one, and stays traced',
    (type, idea, conventions) => {
      const project = offlineProject(idea, type, { conventions });
      const forbidden = conventions.stack?.forbidden ?? [];
      for (const { kind, content } of project.documents)
        for (const banned of forbidden)
          expect(namesTechnology(content, banned), `${kind} names ${banned}`).toBe(false);
      // A required technology, or the equivalent standing in for a forbidden default, is used by name.
      const architecture = docOf(project, 'architecture');
      for (const tech of conventions.stack?.required ?? ['MySQL'])
        expect(architecture, tech).toContain(`| ${tech} |`);
      expect(untraced(project)).toEqual([]);
    },
  );

  it('writes the commands of the stack: the database service, or the runtime the conventions require', () => {
    const web = offlineProject(VET, 'web', { conventions: cases[0]![2] });
    expect(docOf(web, 'readme')).toContain('docker compose up -d mysql');
    expect(docOf(web, 'data-model')).toMatch(/ in MySQL, each row/);
    expect(docOf(web, 'architecture')).toMatch(/then reads and writes .+ in MySQL\./);
    const mcp = offlineProject(cases[3]![1], 'mcp', { conventions: cases[3]![2] });
    expect(docOf(mcp, 'readme')).toContain('bun install');
    expect(docOf(mcp, 'mcp-transport-and-clients')).toContain('"command": "bunx"');
  });
});

describe('the offline engine with answers as facts', () => {
  const answers = [
    { question: 'sign-in', answer: 'Google Workspace SSO only' },
    { question: 'compliance', answer: 'HIPAA' },
    { question: 'platforms', answer: 'iOS and Android' },
  ];
  // Its reading leaves a sign-in feature of the engine's own (FR-3).
  const idea = 'A booking tool for dog groomers with SMS reminders the day before';
  const project = offlineProject(idea, 'web', { answers });
  const requirements = docOf(project, 'product-requirements');
  const architecture = docOf(project, 'architecture');
  const api = docOf(project, 'api-design');

  it('signs people in as answered, with no sign-in link and no assumption the answer removed', () => {
    expect(requirements).toMatch(/IF the identity provider refuses the sign-in/);
    expect(api).toContain('by single sign-on (the team\'s answer: "Google Workspace SSO only")');
    expect(architecture).toContain('Google Workspace SSO only');
    for (const { kind, content } of project.documents) {
      expect(content, kind).not.toMatch(
        /sign-in link|one-time link|as (?:A-\d+|the assumptions) chose/,
      );
      // Every assumption a document cites is one the brief still lists.
      const listed = new Set(docOf(project, 'project-brief').match(/\bA-\d+\b/g));
      for (const id of content.match(/\bA-\d+\b/g) ?? [])
        expect(listed, `${kind}: ${id}`).toContain(id);
    }
  });

  it('writes the answered sign-in failure as a scenario too, in the third person', () => {
    const document = documentRequest('product-requirements');
    const gherkin = writeDocument({
      idea,
      definition: project.definition,
      document,
      related: [],
      requirementStyle: 'gherkin',
    });
    expect(gherkin).toContain(
      "says so, keeps the person signed out and names the organisation's administrator",
    );
  });

  it('meets HIPAA: a non-functional requirement, and a section of the architecture citing it', () => {
    const nfr =
      /\*\*(NFR-\d+)\*\* \(Compliance\) Every read and change of protected health information/.exec(
        requirements,
      );
    expect(nfr).not.toBeNull();
    expect(architecture).toMatch(/^### HIPAA$/m);
    expect(architecture).toContain(`It is checked as ${nfr![1]}.`);
  });

  it('builds a phone app answered for iOS and Android for both, not with the iPhone toolkit', () => {
    const phone = offlineProject(
      'An iPhone app for runners to follow a 16-week marathon plan',
      'mobile',
      {
        answers: [{ question: 'platforms', answer: 'iOS and Android' }],
      },
    );
    expect(phone.definition.questionnaire.techStack.slice(0, 2)).not.toContain('Swift');
    expect(docOf(phone, 'project-brief')).not.toMatch(/A version for Android/);
    expect(docOf(phone, 'architecture')).toContain('Google Play');
  });

  it('keeps a web project answered "iOS and Android" a web app, for the phones\' browsers', () => {
    // The type is the team's choice: the phones' browsers, mobile-first, installable as a PWA.
    expect(architecture).toContain('Runs on: Safari on iOS and Chrome on Android');
    expect(architecture).toMatch(
      /installs? .+ to their phone's home screen as a progressive web app/,
    );
    const brief = docOf(project, 'project-brief');
    expect(brief).toContain(
      'Runs in Safari on iOS and Chrome on Android (their current versions), mobile-first, and installs to the home screen as a progressive web app',
    );
    expect(brief).toMatch(/Native iOS and Android apps: .+ native apps would be a mobile project/);
    expect(docOf(project, 'readme')).toContain('runs on Safari on iOS and Chrome on Android');
    for (const { kind, content } of project.documents)
      expect(content, kind).not.toMatch(/Firefox|Runs on: iOS|runs on iOS/);
    expect(untraced(project)).toEqual([]);
  });

  it('keeps the desktop browsers when the answer names the web too', () => {
    const both = offlineProject(idea, 'web', {
      answers: [{ question: 'platforms', answer: 'Web, iOS and Android' }],
    });
    expect(docOf(both, 'project-brief')).toContain(
      'Runs in the current versions of Chrome, Firefox, Safari and Edge; mobile-first in Safari on iOS and Chrome on Android, and installs to the home screen as a progressive web app',
    );
    expect(docOf(both, 'architecture')).toContain(
      'Runs on: Web, Safari on iOS and Chrome on Android',
    );
  });
});

describe('the offline engine answered "No accounts"', () => {
  const project = offlineProject(
    'A booking tool for dog groomers to schedule appointments and keep notes on each dog',
    'web',
    { answers: [{ question: 'sign-in', answer: 'No accounts' }] },
  );

  it('writes no account, sign-in, session or 401 in any document', () => {
    for (const { kind, content } of project.documents)
      expect(content, kind).not.toMatch(
        /\baccount\b|\bsign(?:s|ed)? (?:\w+ )?in\b|\bsigned-in\b|\bsessions?\b|\b401\b|\bUNAUTHENTICATED\b|\bcreated_by\b/i,
      );
  });

  it('says the data is shared and open to anyone with the address, and protects it otherwise', () => {
    expect(docOf(project, 'project-brief')).toMatch(
      /\| R-\d+ \| \w+ has no accounts, so anyone with its address can read and change/,
    );
    expect(docOf(project, 'product-requirements')).toMatch(
      /\*\*NFR-3\*\* \(Security\) Without accounts, .+ limits each client address/,
    );
    expect(docOf(project, 'data-model')).not.toMatch(/^\| Account \|/m);
    expect(docOf(project, 'api-design')).toContain('Each client address may make 600 requests');
  });

  it('stays traced: every FR and NFR is cited as before', () => {
    expect(untraced(project)).toEqual([]);
    expect(uncitedNfrs(project)).toEqual([]);
  });

  it('drops the sign-in feature the engine adds to a short idea, from the description too', () => {
    const idea = 'A wiki for hobby gardeners';
    const short = offlineProject(idea, 'web', {
      answers: [{ question: 'sign-in', answer: 'No accounts' }],
    });
    const { description, questionnaire } = short.definition;
    expect(offlineProject(idea, 'web').definition.description).toMatch(/sign in with an account/);
    expect(`${description}\n${questionnaire.coreFeatures.join('\n')}`).not.toMatch(/sign in/i);
    expect(docOf(short, 'product-requirements')).not.toMatch(/\baccount\b|signs? in/i);
    expect(untraced(short)).toEqual([]);
  });

  it('speaks of no account in the release task of the plan', () => {
    expect(docOf(project, 'implementation-plan')).toMatch(
      /Check NFR-3 and NFR-4 against the build of \w+: input checks, rate limits, backups, data export and deletion/,
    );
  });
});

describe('a phone app answered "No accounts"', () => {
  // A short idea: the engine adds a sign-in feature to it unless the answer drops it.
  const idea = 'An iPhone app for runners to log runs offline';
  const noAccounts = { answers: [{ question: 'sign-in', answer: 'No accounts' }] };
  const project = offlineProject(idea, 'mobile', noAccounts);
  const withAccounts = offlineProject(idea, 'mobile');

  it('writes no account, sign-in, sign-out, session or owner in any document', () => {
    expect(docOf(withAccounts, 'screens')).toMatch(/\| Sign in \| `sign-in` \|/);
    // Only where the documents quote the team's answer, and what it answered.
    const answer = /\bsign-in: No accounts\b|\bthe team's answer on sign-in\b/gi;
    for (const { kind, content } of project.documents)
      expect(content.replace(answer, ''), kind).not.toMatch(
        /\baccount\b|\bsign(?:s|ed)? (?:\w+ )?(?:in|out)\b|\bsign-?(?:in|out|up)\b|\bsigned-in\b|\bsessions?\b|\bcreated_by\b|\bauth/i,
      );
  });

  it('has no sign-in feature, screen, route or deep link, and opens on its first tab', () => {
    expect(project.definition.questionnaire.coreFeatures.join('\n')).not.toMatch(/sign in/i);
    expect(withAccounts.definition.questionnaire.coreFeatures.join('\n')).toMatch(/sign in/i);
    expect(docOf(project, 'screens')).toMatch(/none of them asks who someone is/);
    const navigation = docOf(project, 'navigation');
    expect(navigation).toMatch(/opens straight on its first tab/);
    expect(navigation).not.toMatch(/signIn|SignIn|:\/\/sign/);
    expect(docOf(withAccounts, 'navigation')).toMatch(/signIn|SignIn/);
  });

  it("syncs each install's own rows under a key that names no one, and says what that costs", () => {
    expect(docOf(project, 'offline-and-permissions')).toMatch(
      /both take the random install key the app made at first launch/,
    );
    expect(docOf(project, 'offline-and-permissions')).toMatch(/^\| runs \| .*\binstall_id\b/m);
    expect(docOf(project, 'product-requirements')).toMatch(
      /\*\*NFR-3\*\* \(Security\) Without accounts, .+ serves an install only its own rows/,
    );
    expect(docOf(project, 'project-brief')).toMatch(
      /\| R-\d+ \| \w+ has no accounts, so the runs of a lost or reset phone come back only from a backup/,
    );
    expect(docOf(project, 'implementation-plan')).toMatch(
      /against the build of \w+: install isolation, input checks, rate limits, data export and deletion/,
    );
  });

  it('stays traced: every FR and NFR is cited', () => {
    expect(untraced(project)).toEqual([]);
    expect(uncitedNfrs(project)).toEqual([]);
  });
});

describe('an MCP server answered "No accounts"', () => {
  it('writes the same documents: it has no accounts of its own to drop', () => {
    const idea = 'An MCP server that lets AI assistants search Confluence pages';
    const answered = offlineProject(idea, 'mcp', {
      answers: [{ question: 'sign-in', answer: 'No accounts' }],
    });
    const plain = offlineProject(idea, 'mcp', {
      answers: [{ question: 'sign-in', answer: 'Email and password' }],
    });
    const kinds = (p: OfflineProject) => p.documents.filter((d) => d.kind !== 'project-brief');
    expect(
      kinds(answered).map((d) => d.content.replace(/No accounts/g, 'Email and password')),
    ).toEqual(kinds(plain).map((d) => d.content));
  });
});
