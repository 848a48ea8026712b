/**
 * A task's context pack (issue 30, item 3; rendered as markdown by the contract's
 * `taskContextMarkdown`): what a person or an agent needs to do one task,
 * cut from the project's documents along the trace (the criteria it implements, the stories
 * and design pieces citing them, the constraints every task keeps) plus what the work so far
 * says (its dependencies' status and notes), and nothing else: not the whole documents.
 */
import type { components } from '@pgs/contract';
import { LRUCache } from 'lru-cache';
import { DocumentExcerpts, type Excerpt } from '../runs/trace/excerpts.ts';
import { documentRole, parseDocument } from '../runs/trace/parse.ts';
import type { Task } from './representation.ts';

export type TaskContext = components['schemas']['TaskContext'];
type Dependency = TaskContext['dependencies'][number];

/** A stored document, as much of it as a pack needs. */
export interface SourceDocument {
  filename: string;
  content: string;
  stage: string;
}

/**
 * The pieces of one revision of a project's documents that packs are cut from, parsed once:
 * the requirements (criteria and non-functional requirements), the stories with what each
 * cites, and the design documents.
 *
 * @example
 * const sources = new ProjectSources(documents);
 * sources.pack(task, []).criteria[0]?.markdown; // '**FR-1.1** WHEN …'
 */
export class ProjectSources {
  readonly #requirements: DocumentExcerpts | undefined;
  readonly #nfrs: string[] = [];
  readonly #stories: DocumentExcerpts | undefined;
  /** Each story and the IDs it cites. */
  readonly #storyCites = new Map<string, Set<string>>();
  readonly #design: DocumentExcerpts[];

  constructor(documents: readonly SourceDocument[]) {
    const byRole = (role: string) => documents.find((doc) => documentRole(doc.filename) === role);
    const requirements = byRole('requirements');
    if (requirements !== undefined) {
      this.#requirements = new DocumentExcerpts(requirements.filename, requirements.content);
      for (const node of parseDocument(requirements.filename, requirements.content).defines) {
        if (node.kind === 'nfr' && !this.#nfrs.includes(node.id)) this.#nfrs.push(node.id);
      }
    }
    const stories = byRole('stories');
    if (stories !== undefined) {
      this.#stories = new DocumentExcerpts(stories.filename, stories.content);
      for (const edge of parseDocument(stories.filename, stories.content).cites) {
        const cited = this.#storyCites.get(edge.from) ?? new Set<string>();
        cited.add(edge.to);
        this.#storyCites.set(edge.from, cited);
      }
    }
    this.#design = documents
      .filter((doc) => doc.stage === 'design')
      .map((doc) => new DocumentExcerpts(doc.filename, doc.content));
  }

  /** The pack of `task`, given its dependencies as the work stands. */
  pack(task: Task, dependencies: Dependency[]): TaskContext {
    const implemented = new Set([...task.requirements, ...task.criteria]);
    const criteria = task.criteria.flatMap((id) => this.#definition(this.#requirements, id));
    const stories = [...this.#storyCites]
      .filter(([, cited]) => [...cited].some((id) => implemented.has(id)))
      .flatMap(([id]) => this.#definition(this.#stories, id));
    const design = this.#design.flatMap((doc) => doc.citing(implemented)).map(designPiece);
    const constraints = this.#nfrs.flatMap((id) => this.#definition(this.#requirements, id));
    return { task, criteria, stories, design, files: task.files, dependencies, constraints };
  }

  #definition(document: DocumentExcerpts | undefined, id: string) {
    const markdown = document?.definition(id);
    return markdown === undefined ? [] : [{ id, markdown }];
  }
}

function designPiece(excerpt: Excerpt): TaskContext['design'][number] {
  return {
    document: excerpt.document,
    section: excerpt.section,
    ...(excerpt.subsection === undefined ? {} : { subsection: excerpt.subsection }),
    markdown: excerpt.markdown,
  };
}

/**
 * The sources of each revision asked for lately: a revision's documents never change, and
 * parsing them costs milliseconds an agent's loop should not pay on every claim.
 *
 * @example
 * const sources = await cache.get(`${projectId}@${revision}`, () => listDocuments(db, projectId, revision));
 */
export class SourcesCache {
  readonly #sources: LRUCache<string, Promise<ProjectSources>>;
  constructor(max = 200) {
    this.#sources = new LRUCache({ max });
  }

  get(key: string, documents: () => Promise<readonly SourceDocument[]>): Promise<ProjectSources> {
    let sources = this.#sources.get(key);
    if (sources === undefined) {
      sources = documents().then((docs) => new ProjectSources(docs));
      sources.catch(() => this.#sources.delete(key));
      this.#sources.set(key, sources);
    }
    return sources;
  }
}
