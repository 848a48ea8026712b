import { redactSecrets } from '@pgs/contract/repository';
import {
  EXPRESS_POSTGRES,
  GO_CHI,
  naiveDigest,
  PYTHON_FASTAPI,
  type TestRepository,
} from '@pgs/contract/testing/repositories';
import { describe, expect, it } from 'vitest';
import { documentRequests } from '../../test/plan.ts';
import type { RepositorySource } from '../codebase/index.ts';
import { defineProject, writeDocument } from '../index.ts';

/** A digest as the server stores it: the naive one, redacted. */
async function stored(repository: TestRepository): Promise<RepositorySource> {
  const digest = naiveDigest(repository);
  const files = await Promise.all(
    digest.files.map(async (file) => ({
      path: file.path,
      content: (await redactSecrets(file.path, file.content)).content,
    })),
  );
  return { name: digest.name, commit: null, files };
}

/** Every document of a grounded project, as the offline engine writes it. */
async function grounded(repository: TestRepository, idea: string) {
  const source = await stored(repository);
  const definition = defineProject({ idea, repository: source });
  const docs = new Map<string, string>();
  for (const document of documentRequests(definition.type, true)) {
    docs.set(
      document.kind,
      writeDocument({
        idea,
        definition,
        document,
        related: [],
        repository: source,
      }),
    );
  }
  return { definition, docs, source };
}

const section = (markdown: string, title: string) => {
  const start = markdown.indexOf(`\n## ${title}\n`);
  expect(start, `section ${title}`).toBeGreaterThan(-1);
  const end = markdown.indexOf('\n## ', start + 1);
  return markdown.slice(start, end === -1 ? undefined : end);
};

/** Technologies none of the three test repositories uses: naming one would be invented. */
const FOREIGN = ['Fastify', 'Drizzle', 'React', 'Next.js', 'MongoDB', 'Django', 'Kotlin', 'Swift'];

const CASES = [
  {
    repository: EXPRESS_POSTGRES,
    idea: 'Add SMS reminders two days before each appointment',
    touched: 'src/routes/appointments.ts',
    absent: ['Python', 'Go ', 'FastAPI'],
  },
  {
    repository: PYTHON_FASTAPI,
    idea: 'Add monthly reminders by email for unpaid invoices',
    touched: 'app/routers/invoices.py',
    absent: ['Node.js', 'TypeScript', 'Express'],
  },
  {
    repository: GO_CHI,
    idea: 'Add speed alerts for vehicles that drive too fast',
    touched: 'internal/vehicles/handler.go',
    absent: ['Node.js', 'TypeScript', 'Express', 'Python'],
  },
] as const;

describe.each(CASES)(
  'a project grounded in $repository.name',
  ({ repository, idea, touched, absent }) => {
    it('keeps the stack that exists and names no other', async () => {
      const { definition, docs } = await grounded(repository, idea);
      for (const tech of repository.expected.stack.filter(
        (t) => t !== 'Vitest' && t !== 'pytest',
      )) {
        expect(definition.questionnaire.techStack.join(' ')).toContain(tech);
      }
      const architecture = docs.get('architecture')!;
      const choices = section(architecture, 'Technology choices');
      for (const tech of repository.expected.stack) expect(choices).toContain(tech);
      for (const tech of [...FOREIGN, ...absent]) {
        expect(choices).not.toContain(tech);
        expect(section(docs.get('readme')!, 'Tech stack')).not.toContain(tech);
      }
    });

    it('opens the architecture with the current system: components with their paths, stores and services', async () => {
      const { docs } = await grounded(repository, idea);
      const current = section(docs.get('architecture')!, 'Current system');
      for (const path of repository.expected.componentPaths)
        expect(current).toContain(`\`${path}\``);
      for (const store of repository.expected.dataStores) expect(current).toContain(store);
      for (const service of repository.expected.externalServices)
        expect(current).toContain(service);
      const overview = docs.get('codebase-overview')!;
      for (const route of repository.expected.routes) {
        const [method, path] = route.split(' ');
        expect(overview).toContain(`| ${method} | \`${path}\``);
      }
      for (const entity of repository.expected.entities) expect(overview).toContain(entity);
    });

    it('writes each requirement as a change to what exists', async () => {
      const { docs } = await grounded(repository, idea);
      const functional = section(docs.get('product-requirements')!, 'Functional requirements');
      const groups = functional.split('\n### ').slice(1);
      expect(groups.length).toBeGreaterThan(0);
      for (const group of groups) {
        expect(group).toMatch(/\*\*Today:\*\* /);
        expect(group).toMatch(/\*\*Change:\*\* /);
      }
      expect(groups[0]).toContain(`\`${touched}\``);
    });

    it("names in the plan's tasks only files of the digest, or new ones marked new", async () => {
      const { docs, source } = await grounded(repository, idea);
      const paths = new Set(source.files.map((file) => file.path));
      const folders = new Set([...paths].map((p) => p.slice(0, p.lastIndexOf('/'))));
      const tasks = section(docs.get('implementation-plan')!, 'Tasks');
      const rows = tasks.split('\n').filter((line) => /^\| T-\d+ \|/.test(line));
      const cited = rows.flatMap((row) => {
        const files = row.split(' | ')[3]!;
        if (files.includes('(new)')) return [];
        return [...files.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
      });
      expect(cited.length).toBeGreaterThan(0);
      for (const path of cited) expect(paths.has(path) || folders.has(path), path).toBe(true);
      expect(tasks).toContain(`\`${repository.name}\``);
    });

    it('carries no secret of the repository into any document', async () => {
      const { docs } = await grounded(repository, idea);
      const all = [...docs.values()].join('\n');
      for (const secret of repository.secrets) expect(all).not.toContain(secret);
    });
  },
);

describe('services a grounded project already has', () => {
  it('uses the provider the codebase calls for what the idea names, and asks no question of it', async () => {
    const { definition } = await grounded(
      PYTHON_FASTAPI,
      'Add monthly reminders by email for unpaid invoices',
    );
    const names = definition.questionnaire.integrations!.map((i) => i.name);
    expect(names).toContain('SendGrid');
    expect(names).not.toContain('Email delivery service');
    expect(definition.questionnaire.openQuestions!.join(' ')).not.toContain('SendGrid');
  });

  it('leaves an ungrounded project as it was', () => {
    const idea = 'Add SMS reminders two days before each appointment';
    const plain = defineProject({ idea });
    expect(plain.questionnaire.techStack).not.toContain('Express');
    expect(plain.questionnaire.constraints.join(' ')).not.toContain('existing');
  });
});
